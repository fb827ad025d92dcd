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
pub fn parse(src: &Src<'_>, node: &Node, out: &mut Vec<Diagnostic>) -> Option<Dates> {
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
    let wanted = MEMBERS[freq as usize];
    let mut ok = true;
    for m in MEMBERS {
        if m != wanted {
            if let Some(e) = node.entry(m) {
                out.push(src.diag(&codes::W110, &e.key, format!("`{m}` does not belong with `frequency: {}`; exactly the matching member may be set", title(wanted)))
                    .help(format!("move the settings under `{wanted}`, or remove `{m}`")));
                ok = false;
            }
        }
    }
    let member = node.get(wanted);
    let mut rec = Recurrence::new(freq);
    let mut nothing = false;
    match freq {
        Freq::Daily => {
            if let Some(m) = member {
                rec.interval = interval(src, m, 730, out)?;
            }
        }
        Freq::Weekly => {
            let Some(m) = member else {
                out.push(
                    src.diag(
                        &codes::W110,
                        freq_node,
                        "`frequency: Weekly` needs `weekly.daysOfWeek`",
                    )
                    .help("add `weekly: {daysOfWeek: [Saturday]}`"),
                );
                return None;
            };
            rec.interval = interval(src, m, 26, out)?;
            if rec.interval > 1 {
                if let Some(n) = m.get("interval") {
                    out.push(src.diag(&codes::W103, n, "which weeks an interval selects is not defined by the API; nodecast counts weeks from Monday 1969-12-29 (the week of the 1970-01-01 anchor)")
                        .help("check the selected dates with `nodecast schedule`"));
                }
            }
            let list = list(src, m, "daysOfWeek", out)?;
            nothing |= list.is_empty();
            for d in list {
                rec.by_day
                    .push((0, enum_value(src, d, &DAYS, "dayOfWeek", out)? as u8));
            }
        }
        Freq::Monthly | Freq::Yearly => {
            let Some(m) = member else {
                out.push(
                    src.diag(
                        &codes::W110,
                        freq_node,
                        format!("`frequency: {}` needs `{wanted}`", title(wanted)),
                    )
                    .help(format!("add `{wanted}: {{by: Date, date: {{…}}}}`")),
                );
                return None;
            };
            let Some(by_node) = m.get("by") else {
                out.push(
                    src.diag(&codes::W110, m, format!("`{wanted}.by` is missing"))
                        .help("set `by: Date` or `by: Day`"),
                );
                return None;
            };
            let by = enum_value(src, by_node, &["Day", "Date"], "by", out)?;
            let (want, other) = if by == 0 {
                ("day", "date")
            } else {
                ("date", "day")
            };
            if let Some(e) = m.entry(other) {
                out.push(
                    src.diag(
                        &codes::W110,
                        &e.key,
                        format!("`{other}` does not belong with `by: {}`", title(want)),
                    )
                    .help(format!("use `{want}`, or change `by`")),
                );
                ok = false;
            }
            let Some(sub) = m.get(want) else {
                out.push(
                    src.diag(
                        &codes::W110,
                        by_node,
                        format!("`by: {}` needs `{wanted}.{want}`", title(want)),
                    )
                    .help(format!("add `{want}:`")),
                );
                return None;
            };
            if freq == Freq::Monthly {
                rec.interval = interval(src, sub, 11, out)?;
            } else {
                if let Some(n) = sub.get("interval").or_else(|| m.get("interval")) {
                    out.push(
                        src.diag(&codes::W110, n, "`yearly` has no interval")
                            .help("remove `interval`; every year is selected"),
                    );
                    ok = false;
                }
                let Some(month) = sub.get("month") else {
                    out.push(
                        src.diag(
                            &codes::W110,
                            sub,
                            format!("`yearly.{want}.month` is missing"),
                        )
                        .help("add e.g. `month: January`"),
                    );
                    return None;
                };
                rec.by_month.push(
                    enum_value(src, month, &super::rrule::MONTH_NAMES, "month", out)? as i8 + 1,
                );
            }
            let months: Vec<i8> = if rec.by_month.is_empty() {
                (1..=12).collect()
            } else {
                rec.by_month.clone()
            };
            if by == 1 {
                let items = list(src, sub, "datesOfMonth", out)?;
                nothing |= items.is_empty();
                let mut dated = Vec::new();
                for item in items {
                    let v = int_in(src, item, 1, 31, "datesOfMonth", out)?;
                    rec.by_month_day.push(v as i16);
                    dated.push((item, v));
                }
                let possible = dated
                    .iter()
                    .any(|(_, v)| months.iter().any(|&mo| *v <= max_days(mo)));
                for (item, v) in dated {
                    let missing: Vec<&str> = months
                        .iter()
                        .filter(|&&mo| v > max_days(mo))
                        .map(|&mo| month_name(mo))
                        .collect();
                    if missing.is_empty() {
                        continue;
                    }
                    let d = if missing.len() == months.len() {
                        src.diag(
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
                        src.diag(
                            &codes::W104,
                            item,
                            format!(
                                "date {v} does not exist in {}; those months get no window",
                                missing.join(", ")
                            ),
                        )
                    };
                    out.push(d.help("dates that do not exist are skipped, not moved to the month's end; use a date every month has"));
                }
            } else {
                let items = list(src, sub, "days", out)?;
                nothing |= items.is_empty();
                for item in items {
                    let (Some(w), Some(d)) = (item.get("weekOfMonth"), item.get("dayOfWeek"))
                    else {
                        let mut diag = src.diag(
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
                        out.push(diag);
                        return None;
                    };
                    let wi = enum_value(src, w, &WEEKS.map(|(n, _)| n), "weekOfMonth", out)?;
                    let di = enum_value(src, d, &DAYS, "dayOfWeek", out)?;
                    if WEEKS[wi].1 == 5 {
                        out.push(src.diag(&codes::W104, w, "most months have only four of each weekday, so `Fifth` is skipped in those months")
                            .help("use `Last` for the last such weekday of every month"));
                    }
                    rec.by_day.push((WEEKS[wi].1, di as u8));
                }
            }
        }
    }
    if !ok {
        return None;
    }
    Some(if nothing {
        Dates::Nothing
    } else {
        Dates::Rule(rec)
    })
}

fn title(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

fn enum_value(
    src: &Src<'_>,
    node: &Node,
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
        Some(s) => d.help(format!("did you mean `{s}`? (values are case-sensitive)")),
        None => d.help(format!("use one of {}", allowed.join(", "))),
    };
    out.push(d);
    None
}

fn int_in(
    src: &Src<'_>,
    node: &Node,
    min: i64,
    max: i64,
    field: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<i64> {
    match &node.kind {
        nodecast_yaml::NodeKind::Scalar {
            value: Scalar::Int(v),
            ..
        } if (min..=max).contains(v) => Some(*v),
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

fn interval(src: &Src<'_>, member: &Node, max: i64, out: &mut Vec<Diagnostic>) -> Option<u32> {
    match member.get("interval") {
        None => Some(1),
        Some(n) => int_in(src, n, 1, max, "interval", out).map(|v| v as u32),
    }
}

fn list<'n>(
    src: &Src<'_>,
    parent: &'n Node,
    key: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<&'n [Node]> {
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
                        &e.value,
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
                    &e.value,
                    format!("`{key}` must be a list, not a {}", e.value.type_name()),
                )
                .help(format!("write `{key}: [ … ]`")),
            );
            None
        }
    }
}
