//! Schema B's structured `recurrence` (frequency Daily/Weekly/Monthly/Yearly with its member),
//! validated against the final revision's schema comments and reduced to a [`Recurrence`].

use crate::schedule::codes;
use nodecast_yaml::{Node, Scalar};

use super::recur::{Freq, Recurrence};
use super::rrule::{max_days, month_name};
use super::windows::Dates;
use super::Src;
use crate::diagnostic::{Diagnostic, Severity};

const DAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];
const WEEKS: [(&str, i16); 6] = [
    ("First", 1),
    ("Second", 2),
    ("Third", 3),
    ("Fourth", 4),
    ("Fifth", 5),
    ("Last", -1),
];
const MEMBERS: [&str; 4] = ["daily", "weekly", "monthly", "yearly"];

/// Parses a structured recurrence; `None` when invalid (the findings say why).
pub fn parse(src: &Src<'_>, node: Node<'_>, out: &mut Vec<Diagnostic>) -> Option<Dates> {
    let (freq, freq_node) = frequency(src, node, out)?;
    let wanted = MEMBERS[freq as usize];
    let ok = only_member(src, node, wanted, out);
    let member = node.get(wanted);
    let mut reader = Reader {
        src,
        out,
        rec: Recurrence::new(freq),
        nothing: false,
        ok,
    };
    match freq {
        Freq::Daily => {
            if let Some(m) = member {
                reader.rec.interval = interval(src, m, 730, reader.out)?;
            }
        }
        Freq::Weekly => reader.weekly(freq_node, member)?,
        Freq::Monthly | Freq::Yearly => reader.monthly_or_yearly(freq_node, wanted, member)?,
    }
    if !reader.ok {
        return None;
    }
    Some(if reader.nothing {
        Dates::Nothing
    } else {
        Dates::Rule(reader.rec)
    })
}

/// The recurrence must be a mapping with a known `frequency`: the frequency and its node.
fn frequency<'n>(
    src: &Src<'_>,
    node: Node<'n>,
    out: &mut Vec<Diagnostic>,
) -> Option<(Freq, Node<'n>)> {
    if node.as_map().is_none() {
        out.push(
            src.diag(
                &codes::W110,
                node,
                format!(
                    "`recurrence` must be a mapping with `frequency`, not a {}",
                    node.type_name()
                ),
            )
            .help("write e.g. `recurrence: {frequency: Weekly, weekly: {daysOfWeek: [Saturday]}}`"),
        );
        return None;
    }
    let Some(freq_node) = node.get("frequency") else {
        out.push(
            src.diag(
                &codes::W110,
                node,
                "`recurrence.frequency` is missing, so no date is selected",
            )
            .help("add `frequency: Daily`, `Weekly`, `Monthly` or `Yearly`"),
        );
        return None;
    };
    let freq = match enum_value(
        src,
        freq_node,
        &["Daily", "Weekly", "Monthly", "Yearly"],
        "frequency",
        out,
    )? {
        0 => Freq::Daily,
        1 => Freq::Weekly,
        2 => Freq::Monthly,
        _ => Freq::Yearly,
    };
    Some((freq, freq_node))
}

/// Exactly the member matching the frequency may be set: reports the others (`false` if any).
fn only_member(src: &Src<'_>, node: Node<'_>, wanted: &str, out: &mut Vec<Diagnostic>) -> bool {
    let mut ok = true;
    for m in MEMBERS {
        if m != wanted {
            if let Some(e) = node.entry(m) {
                out.push(src.diag(&codes::W110, e.key, format!("`{m}` does not belong with `frequency: {}`; exactly the matching member may be set", title(wanted)))
                    .help(format!("move the settings under `{wanted}`, or remove `{m}`")));
                ok = false;
            }
        }
    }
    ok
}

/// The reading of a frequency's member: where findings go and what the sections found so far
/// (each section returns `None` when the recurrence cannot be read on).
struct Reader<'a, 's> {
    /// The file, for positions.
    src: &'a Src<'s>,
    /// The findings.
    out: &'a mut Vec<Diagnostic>,
    /// The recurrence being filled.
    rec: Recurrence,
    /// A list is empty, so no date is selected.
    nothing: bool,
    /// No setting is misplaced (a misplaced one rejects the recurrence after the others are read).
    ok: bool,
}

impl Reader<'_, '_> {
    /// `weekly`: an interval (whose week anchor the API leaves open) and the days of the week.
    fn weekly(&mut self, freq_node: Node<'_>, member: Option<Node<'_>>) -> Option<()> {
        let Some(m) = member else {
            self.out.push(
                self.src
                    .diag(
                        &codes::W110,
                        freq_node,
                        "`frequency: Weekly` needs `weekly.daysOfWeek`",
                    )
                    .help("add `weekly: {daysOfWeek: [Saturday]}`"),
            );
            return None;
        };
        self.rec.interval = interval(self.src, m, 26, self.out)?;
        if self.rec.interval > 1 {
            if let Some(n) = m.get("interval") {
                self.out.push(self.src.diag(&codes::W103, n, "which weeks an interval selects is not defined by the API; nodecast counts weeks from Monday 1969-12-29 (the week of the 1970-01-01 anchor)")
                    .help("check the selected dates with `nodecast schedule`"));
            }
        }
        let list = list(self.src, m, "daysOfWeek", self.out)?;
        self.nothing |= list.is_empty();
        for d in list {
            self.rec.by_day.push((
                0,
                enum_value(self.src, d, &DAYS, "dayOfWeek", self.out)? as u8,
            ));
        }
        Some(())
    }

    /// `monthly` and `yearly`: `by` picks dates or weekdays; monthly has an interval, yearly a
    /// month.
    fn monthly_or_yearly(
        &mut self,
        freq_node: Node<'_>,
        wanted: &str,
        member: Option<Node<'_>>,
    ) -> Option<()> {
        let Some(m) = member else {
            self.out.push(
                self.src
                    .diag(
                        &codes::W110,
                        freq_node,
                        format!("`frequency: {}` needs `{wanted}`", title(wanted)),
                    )
                    .help(format!("add `{wanted}: {{by: Date, date: {{…}}}}`")),
            );
            return None;
        };
        let (by_date, want, sub) = self.by(wanted, m)?;
        if self.rec.freq == Freq::Monthly {
            self.rec.interval = interval(self.src, sub, 11, self.out)?;
        } else {
            self.yearly_month(m, want, sub)?;
        }
        let months: Vec<i8> = if self.rec.by_month.is_empty() {
            (1..=12).collect()
        } else {
            self.rec.by_month.clone()
        };
        if by_date {
            self.dates_of_month(sub, &months)
        } else {
            self.days(sub)
        }
    }

    /// `by: Date` or `by: Day` and the matching sub-member: whether by date, its key and node.
    fn by<'n>(&mut self, wanted: &str, m: Node<'n>) -> Option<(bool, &'static str, Node<'n>)> {
        let Some(by_node) = m.get("by") else {
            self.out.push(
                self.src
                    .diag(&codes::W110, m, format!("`{wanted}.by` is missing"))
                    .help("set `by: Date` or `by: Day`"),
            );
            return None;
        };
        let by = enum_value(self.src, by_node, &["Day", "Date"], "by", self.out)?;
        let (want, other) = if by == 0 {
            ("day", "date")
        } else {
            ("date", "day")
        };
        if let Some(e) = m.entry(other) {
            self.out.push(
                self.src
                    .diag(
                        &codes::W110,
                        e.key,
                        format!("`{other}` does not belong with `by: {}`", title(want)),
                    )
                    .help(format!("use `{want}`, or change `by`")),
            );
            self.ok = false;
        }
        let Some(sub) = m.get(want) else {
            self.out.push(
                self.src
                    .diag(
                        &codes::W110,
                        by_node,
                        format!("`by: {}` needs `{wanted}.{want}`", title(want)),
                    )
                    .help(format!("add `{want}:`")),
            );
            return None;
        };
        Some((by == 1, want, sub))
    }

    /// `yearly`: no interval (every year), and the one month.
    fn yearly_month(&mut self, m: Node<'_>, want: &str, sub: Node<'_>) -> Option<()> {
        if let Some(n) = sub.get("interval").or_else(|| m.get("interval")) {
            self.out.push(
                self.src
                    .diag(&codes::W110, n, "`yearly` has no interval")
                    .help("remove `interval`; every year is selected"),
            );
            self.ok = false;
        }
        let Some(month) = sub.get("month") else {
            self.out.push(
                self.src
                    .diag(
                        &codes::W110,
                        sub,
                        format!("`yearly.{want}.month` is missing"),
                    )
                    .help("add e.g. `month: January`"),
            );
            return None;
        };
        let month = enum_value(
            self.src,
            month,
            &super::rrule::MONTH_NAMES,
            "month",
            self.out,
        )?;
        self.rec.by_month.push(month as i8 + 1);
        Some(())
    }

    /// `by: Date`: the dates of the month, each in 1 to 31.
    fn dates_of_month(&mut self, sub: Node<'_>, months: &[i8]) -> Option<()> {
        let items = list(self.src, sub, "datesOfMonth", self.out)?;
        self.nothing |= items.is_empty();
        let mut dated = Vec::new();
        for item in items {
            let v = int_in(self.src, item, 1, 31, "datesOfMonth", self.out)?;
            self.rec.by_month_day.push(v as i16);
            dated.push((item, v));
        }
        self.missing_dates(&dated, months);
        Some(())
    }

    /// Dates that some or all of the selected months do not have (they are skipped, not moved).
    fn missing_dates(&mut self, dated: &[(Node<'_>, i64)], months: &[i8]) {
        let possible = dated
            .iter()
            .any(|(_, v)| months.iter().any(|&mo| *v <= max_days(mo)));
        for &(item, v) in dated {
            let missing: Vec<&str> = months
                .iter()
                .filter(|&&mo| v > max_days(mo))
                .map(|&mo| month_name(mo))
                .collect();
            if missing.is_empty() {
                continue;
            }
            let d = if missing.len() == months.len() {
                self.src
                    .diag(
                        &codes::W104,
                        item,
                        format!(
                            "date {v} never occurs in {}, so it selects no date",
                            missing.join(", ")
                        ),
                    )
                    .severity(if possible {
                        Severity::Warning
                    } else {
                        Severity::Error
                    })
            } else {
                self.src.diag(
                    &codes::W104,
                    item,
                    format!(
                        "date {v} does not exist in {}; those months get no window",
                        missing.join(", ")
                    ),
                )
            };
            self.out.push(d.help("dates that do not exist are skipped, not moved to the month's end; use a date every month has"));
        }
    }

    /// `by: Day`: the weekdays of the month, each a week of the month and a day of the week.
    fn days(&mut self, sub: Node<'_>) -> Option<()> {
        let items = list(self.src, sub, "days", self.out)?;
        self.nothing |= items.is_empty();
        for item in items {
            self.day(item)?;
        }
        Some(())
    }

    /// One `days` entry (`weekOfMonth` and `dayOfWeek`; other spellings in the proposal's
    /// examples get a hint).
    fn day(&mut self, item: Node<'_>) -> Option<()> {
        let (Some(w), Some(d)) = (item.get("weekOfMonth"), item.get("dayOfWeek")) else {
            let mut diag = self.src.diag(
                &codes::W110,
                item,
                "each `days` entry needs `weekOfMonth` and `dayOfWeek`",
            );
            diag = if item.get("day").is_some()
                || item.get("week").is_some()
                || item.get("daysOfWeek").is_some()
            {
                diag.help("the schema names are `weekOfMonth` (First…Fifth, Last) and `dayOfWeek` (Monday…Sunday); some examples in the proposal use other names")
            } else {
                diag.help("write e.g. `{weekOfMonth: First, dayOfWeek: Saturday}`")
            };
            self.out.push(diag);
            return None;
        };
        let wi = enum_value(self.src, w, &WEEKS.map(|(n, _)| n), "weekOfMonth", self.out)?;
        let di = enum_value(self.src, d, &DAYS, "dayOfWeek", self.out)?;
        if WEEKS[wi].1 == 5 {
            self.out.push(self.src.diag(&codes::W104, w, "most months have only four of each weekday, so `Fifth` is skipped in those months")
                .help("use `Last` for the last such weekday of every month"));
        }
        self.rec.by_day.push((WEEKS[wi].1, di as u8));
        Some(())
    }
}

/// `weekly` → `Weekly`: member names as the enum values spell them, for messages.
fn title(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// One of the schema's case-sensitive enum values (its index), or an error with the closest value.
fn enum_value(
    src: &Src<'_>,
    node: Node<'_>,
    allowed: &[&str],
    field: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<usize> {
    let text = node.as_str();
    if let Some(i) = text.and_then(|t| allowed.iter().position(|a| *a == t)) {
        return Some(i);
    }
    let shown = node.key_text().unwrap_or(node.type_name());
    let mut d = src.diag(
        &codes::W110,
        node,
        format!("`{shown}` is not a valid {field}"),
    );
    d = match text.and_then(|t| crate::text::closest(t, allowed.iter().copied())) {
        Some(s) => d
            .help(format!("did you mean `{s}`? (values are case-sensitive)"))
            .fix(crate::diagnostic::Fix::rename(node.span(), s)),
        None => d.help(format!("use one of {}", allowed.join(", "))),
    };
    out.push(d);
    None
}

/// An integer within the schema's bounds, or an error naming them.
fn int_in(
    src: &Src<'_>,
    node: Node<'_>,
    min: i64,
    max: i64,
    field: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<i64> {
    match node.kind() {
        nodecast_yaml::NodeKind::Scalar {
            value: Scalar::Int(v),
            ..
        } if (min..=max).contains(&v) => Some(v),
        _ => {
            out.push(
                src.diag(
                    &codes::W110,
                    node,
                    format!("`{field}` must be an integer from {min} to {max}"),
                )
                .help(format!("write a number from {min} to {max}")),
            );
            None
        }
    }
}

/// A member's optional `interval` (default 1), bounded by the schema's maximum.
fn interval(src: &Src<'_>, member: Node<'_>, max: i64, out: &mut Vec<Diagnostic>) -> Option<u32> {
    match member.get("interval") {
        None => Some(1),
        Some(n) => int_in(src, n, 1, max, "interval", out).map(|v| v as u32),
    }
}

/// A required list (warning when empty, which selects no date).
fn list<'n>(
    src: &Src<'_>,
    parent: Node<'n>,
    key: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<nodecast_yaml::Seq<'n>> {
    let Some(e) = parent.entry(key) else {
        out.push(
            src.diag(&codes::W110, parent, format!("`{key}` is missing"))
                .help(format!("add `{key}:` with at least one entry")),
        );
        return None;
    };
    match e.value.as_seq() {
        Some(items) => {
            if items.is_empty() {
                out.push(
                    src.diag(
                        &codes::W110,
                        e.value,
                        format!("`{key}` is empty, so no date is selected"),
                    )
                    .severity(Severity::Warning)
                    .help("list at least one entry"),
                );
            }
            Some(items)
        }
        None => {
            out.push(
                src.diag(
                    &codes::W110,
                    e.value,
                    format!("`{key}` must be a list, not a {}", e.value.type_name()),
                )
                .help(format!("write `{key}: [ … ]`")),
            );
            None
        }
    }
}
