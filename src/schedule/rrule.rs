//! RRULE strings (Schema A `permit.recurrence`): parsed and validated per RFC 5545 §3.3.10 and
//! the proposal's constraints, with every finding on the exact part of the string.

use crate::schedule::codes;
use std::ops::Range;

use super::recur::{Freq, Recurrence};
use super::Finding;
use crate::diagnostic::Severity;

const PARTS: [&str; 14] = [
    "FREQ",
    "UNTIL",
    "COUNT",
    "INTERVAL",
    "BYSECOND",
    "BYMINUTE",
    "BYHOUR",
    "BYDAY",
    "BYMONTHDAY",
    "BYYEARDAY",
    "BYWEEKNO",
    "BYMONTH",
    "BYSETPOS",
    "WKST",
];
const WEEKDAYS: [&str; 7] = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];

/// One `NAME=VALUE` part with its ranges in the string.
#[derive(Clone, Debug)]
struct Part {
    name: String,
    name_range: Range<usize>,
    value: String,
    value_range: Range<usize>,
    range: Range<usize>,
}

/// A list item of a part's value.
struct Item<'a> {
    text: &'a str,
    range: Range<usize>,
}

/// Splits a part's value at `,`, keeping each item's range so findings point at the item.
fn items<'a>(part: &'a Part) -> Vec<Item<'a>> {
    let mut out = Vec::new();
    let mut at = part.value_range.start;
    for text in part.value.split(',') {
        out.push(Item {
            text,
            range: at..at + text.len(),
        });
        at += text.len() + 1;
    }
    out
}

/// Parses and validates an RRULE value; the recurrence when it has no error.
pub fn parse(text: &str) -> (Option<Recurrence>, Vec<Finding>) {
    let mut out = Vec::new();
    let body_start = property_name(text, &mut out);
    if text[body_start..].trim().is_empty() {
        out.push(
            Finding::new(&codes::W102, 0..text.len(), "the recurrence is empty, so no window is defined")
                .help("write a rule such as `FREQ=WEEKLY;BYDAY=SA`, or remove `recurrence` to permit every date"),
        );
        return (None, out);
    }
    let parts = split_parts(text, body_start, &mut out);
    let keep = known_once(text, parts, &mut out);
    let Some(freq_part) = keep.iter().find(|p| p.name == "FREQ") else {
        out.push(
            Finding::new(
                &codes::W102,
                0..text.len(),
                "the rule has no `FREQ`, which RFC 5545 requires",
            )
            .help("add `FREQ=DAILY`, `WEEKLY`, `MONTHLY` or `YEARLY`"),
        );
        return (None, out);
    };
    if keep.first().map(|p| p.name.as_str()) != Some("FREQ") {
        out.push(
            Finding::new(
                &codes::W103,
                freq_part.range.clone(),
                "`FREQ` is not the first part; some parsers require it first",
            )
            .help("move `FREQ=…` to the start"),
        );
    }
    let freq = frequency(text, freq_part, &mut out);
    let mut rule = Rule {
        parts: &keep,
        freq,
        freq_part,
        rec: Recurrence::new(freq.unwrap_or(Freq::Daily)),
        out,
    };
    for part in &keep {
        rule.part(part);
    }
    rule.weekly_defaults();
    rule.finish()
}

/// A leading `RRULE:` is the iCalendar property name, not the value: warn and skip it (the
/// offset where the parts start).
fn property_name(text: &str, out: &mut Vec<Finding>) -> usize {
    if !text
        .get(..6)
        .is_some_and(|p| p.eq_ignore_ascii_case("RRULE:"))
    {
        return 0;
    }
    out.push(
        Finding::new(
            &codes::W103,
            0..6,
            "the `RRULE:` property name is not part of the value; it is ignored",
        )
        .help("write only the parts, e.g. `FREQ=WEEKLY;BYDAY=SA`"),
    );
    6
}

/// Splits the body at `;` into `NAME=VALUE` parts with their ranges, reporting empty and
/// malformed parts (which are dropped).
fn split_parts(text: &str, body_start: usize, out: &mut Vec<Finding>) -> Vec<Part> {
    let mut parts: Vec<Part> = Vec::new();
    let mut at = body_start;
    for raw in text[body_start..].split(';') {
        let range = at..at + raw.len();
        at += raw.len() + 1;
        if raw.is_empty() {
            // Point at the separator that has nothing after (or before) it.
            let sep = if range.start > body_start {
                range.start - 1
            } else {
                range.start
            };
            out.push(
                Finding::new(
                    &codes::W102,
                    sep..(sep + 1).min(text.len()),
                    "empty RRULE part: the value is `NAME=VALUE` parts separated by single `;`",
                )
                .help("remove the extra `;`"),
            );
            continue;
        }
        let Some(eq) = raw.find('=') else {
            out.push(
                Finding::new(
                    &codes::W102,
                    range.clone(),
                    format!("`{raw}` is not a `NAME=VALUE` part"),
                )
                .help("write parts like `FREQ=WEEKLY`"),
            );
            continue;
        };
        let name = raw[..eq].trim().to_ascii_uppercase();
        parts.push(Part {
            name,
            name_range: range.start..range.start + eq,
            value: raw[eq + 1..].to_ascii_uppercase(),
            value_range: range.start + eq + 1..range.end,
            range,
        });
    }
    parts
}

/// Keeps the parts with a known name, each name once (RFC 5545); unknown and repeated parts are
/// reported and dropped.
fn known_once(text: &str, parts: Vec<Part>, out: &mut Vec<Finding>) -> Vec<Part> {
    let mut keep: Vec<Part> = Vec::new();
    for part in parts {
        if !PARTS.contains(&part.name.as_str()) {
            let mut f = Finding::new(
                &codes::W102,
                part.name_range.clone(),
                format!(
                    "unknown RRULE part `{}`, so the rule is rejected",
                    &text[part.name_range.clone()]
                ),
            );
            f = match crate::text::closest(&part.name, PARTS) {
                Some(s) => f.did_you_mean(s),
                None => f.help(format!("RRULE parts are {}", PARTS.join(", "))),
            };
            out.push(f);
            continue;
        }
        if let Some(first) = keep.iter().find(|p| p.name == part.name) {
            out.push(
                Finding::new(
                    &codes::W102,
                    part.range.clone(),
                    format!(
                        "`{}` is given twice; RFC 5545 allows each part once",
                        part.name
                    ),
                )
                .help(format!(
                    "keep one `{}` (the first is at character {})",
                    part.name,
                    first.range.start + 1
                )),
            );
            continue;
        }
        keep.push(part);
    }
    keep
}

/// The `FREQ` value as a date frequency; `None` (with a finding) for time frequencies and
/// unknown words.
fn frequency(text: &str, freq_part: &Part, out: &mut Vec<Finding>) -> Option<Freq> {
    match freq_part.value.as_str() {
        "DAILY" => Some(Freq::Daily),
        "WEEKLY" => Some(Freq::Weekly),
        "MONTHLY" => Some(Freq::Monthly),
        "YEARLY" => Some(Freq::Yearly),
        "HOURLY" | "MINUTELY" | "SECONDLY" => {
            out.push(
                Finding::new(
                    &codes::W102,
                    freq_part.value_range.clone(),
                    format!(
                        "`FREQ={}` selects times, but a maintenance schedule must select dates",
                        freq_part.value
                    ),
                )
                .help(
                    "use DAILY, WEEKLY, MONTHLY or YEARLY and set the time of day with `startTime`",
                ),
            );
            None
        }
        _ => {
            let mut f = Finding::new(
                &codes::W102,
                freq_part.value_range.clone(),
                format!(
                    "unknown frequency `{}`",
                    &text[freq_part.value_range.clone()]
                ),
            );
            f = match crate::text::closest(
                &freq_part.value,
                ["DAILY", "WEEKLY", "MONTHLY", "YEARLY"],
            ) {
                Some(s) => f.did_you_mean(s),
                None => f.help("use DAILY, WEEKLY, MONTHLY or YEARLY"),
            };
            out.push(f);
            None
        }
    }
}

/// The parser's state once the parts are known: each part's reader fills the recurrence and
/// reports what the part gets wrong on its own or with the others.
struct Rule<'a> {
    /// The known parts, each once.
    parts: &'a [Part],
    /// The frequency (`None` when `FREQ` was rejected).
    freq: Option<Freq>,
    /// The `FREQ` part, for positions and its written value.
    freq_part: &'a Part,
    /// The recurrence being filled.
    rec: Recurrence,
    /// The findings so far.
    out: Vec<Finding>,
}

impl Rule<'_> {
    /// Whether the rule has a part with this name.
    fn has(&self, name: &str) -> bool {
        self.parts.iter().any(|p| p.name == name)
    }

    /// Reads one part (`FREQ` is read before, by [`frequency`]).
    fn part(&mut self, part: &Part) {
        match part.name.as_str() {
            "INTERVAL" => self.interval(part),
            "COUNT" | "UNTIL" => self.end(part),
            "BYSECOND" | "BYMINUTE" | "BYHOUR" => self.out.push(
                Finding::new(
                    &codes::W102,
                    part.range.clone(),
                    format!(
                        "`{}` selects times, but a maintenance schedule selects dates",
                        part.name
                    ),
                )
                .help("remove it and set the time of day with `startTime`"),
            ),
            "BYMONTH" => self.by_month(part),
            "BYMONTHDAY" => self.by_month_day(part),
            "BYYEARDAY" => self.by_year_day(part),
            "BYWEEKNO" => self.by_week_no(part),
            "BYSETPOS" => self.by_set_pos(part),
            "BYDAY" => ByDay {
                freq: self.freq,
                with_week_no: self.has("BYWEEKNO"),
                with_month: !self.rec.by_month.is_empty() || self.has("BYMONTH"),
            }
            .read(part, &mut self.rec, &mut self.out),
            "WKST" => self.wkst(part),
            _ => {}
        }
    }

    /// `INTERVAL`: a positive integer, digits only.
    fn interval(&mut self, part: &Part) {
        match part.value.parse::<u32>() {
            Ok(n) if n >= 1 && part.value.bytes().all(|b| b.is_ascii_digit()) => {
                self.rec.interval = n
            }
            _ => self.out.push(
                Finding::new(
                    &codes::W102,
                    part.value_range.clone(),
                    format!("`INTERVAL={}` is not a positive integer", part.value),
                )
                .help("write `INTERVAL=1` or more (the default is 1)"),
            ),
        }
    }

    /// `COUNT` and `UNTIL` would end the schedule, which a maintenance schedule must not do.
    fn end(&mut self, part: &Part) {
        self.out.push(
            Finding::new(
                &codes::W102,
                part.range.clone(),
                format!(
                    "`{}` would end the schedule; a maintenance schedule must not end",
                    part.name
                ),
            )
            .help(format!(
                "remove `{}`; to stop changes, set the policy's strategy to Restrictive",
                part.name
            )),
        );
        if part.name == "UNTIL" && self.has("COUNT") {
            self.out.push(
                Finding::new(
                    &codes::W102,
                    part.name_range.clone(),
                    "`COUNT` and `UNTIL` are mutually exclusive (RFC 5545)",
                )
                .help("remove both"),
            );
        }
    }

    /// `BYMONTH`: months 1 to 12.
    fn by_month(&mut self, part: &Part) {
        for item in items(part) {
            match unsigned(item.text, 1, 12) {
                Some(m) => self.rec.by_month.push(m as i8),
                None => self.out.push(range_error(&item, "BYMONTH", "1 to 12")),
            }
        }
    }

    /// `BYMONTHDAY`: ±1 to 31, not with `FREQ=WEEKLY`.
    fn by_month_day(&mut self, part: &Part) {
        if self.freq == Some(Freq::Weekly) {
            self.out.push(
                Finding::new(
                    &codes::W102,
                    part.name_range.clone(),
                    "`BYMONTHDAY` cannot be used with `FREQ=WEEKLY` (RFC 5545)",
                )
                .help("use `FREQ=MONTHLY` for days of the month, or `BYDAY` for days of the week"),
            );
        }
        for item in items(part) {
            match signed(item.text, 31) {
                Some(v) => self.rec.by_month_day.push(v),
                None => self
                    .out
                    .push(range_error(&item, "BYMONTHDAY", "1 to 31 or -31 to -1")),
            }
        }
    }

    /// `BYYEARDAY`: ±1 to 366, only with `FREQ=YEARLY`, and beyond the promised subset.
    fn by_year_day(&mut self, part: &Part) {
        if matches!(self.freq, Some(Freq::Daily | Freq::Weekly | Freq::Monthly)) {
            self.out.push(
                Finding::new(
                    &codes::W102,
                    part.name_range.clone(),
                    format!(
                        "`BYYEARDAY` cannot be used with `FREQ={}` (RFC 5545)",
                        self.freq_part.value
                    ),
                )
                .help("use `FREQ=YEARLY`"),
            );
        }
        self.out.push(maybe_unsupported(part));
        for item in items(part) {
            match signed(item.text, 366) {
                Some(v) => self.rec.by_year_day.push(v),
                None => self
                    .out
                    .push(range_error(&item, "BYYEARDAY", "1 to 366 or -366 to -1")),
            }
        }
    }

    /// `BYWEEKNO`: ±1 to 53, only with `FREQ=YEARLY`, beyond the promised subset, and
    /// meaningful only with an explicit `WKST`.
    fn by_week_no(&mut self, part: &Part) {
        if self.freq.is_some() && self.freq != Some(Freq::Yearly) {
            self.out.push(
                Finding::new(
                    &codes::W102,
                    part.name_range.clone(),
                    "`BYWEEKNO` can only be used with `FREQ=YEARLY` (RFC 5545)",
                )
                .help("use `FREQ=YEARLY`, or `FREQ=WEEKLY;INTERVAL=n` for every n-th week"),
            );
        }
        self.out.push(maybe_unsupported(part));
        if !self.has("WKST") {
            self.out.push(
                Finding::new(&codes::W103, part.name_range.clone(), "week numbers depend on the week start, and `WKST` is not given (default Monday)")
                    .help("add `WKST=MO` (or the week start you mean)"),
            );
        }
        for item in items(part) {
            match signed(item.text, 53) {
                Some(v) => self.rec.by_week_no.push(v),
                None => self
                    .out
                    .push(range_error(&item, "BYWEEKNO", "1 to 53 or -53 to -1")),
            }
        }
    }

    /// `BYSETPOS`: ±1 to 366, picking from the set another `BYxxx` part makes.
    fn by_set_pos(&mut self, part: &Part) {
        let others = self
            .parts
            .iter()
            .any(|p| p.name.starts_with("BY") && p.name != "BYSETPOS");
        if !others {
            self.out.push(
                Finding::new(
                    &codes::W102,
                    part.name_range.clone(),
                    "`BYSETPOS` needs another `BYxxx` part to pick from (RFC 5545)",
                )
                .help("add e.g. `BYDAY=MO,TU,WE,TH,FR` to pick from, or remove `BYSETPOS`"),
            );
        }
        for item in items(part) {
            match signed(item.text, 366) {
                Some(v) => self.rec.by_set_pos.push(v),
                None => self
                    .out
                    .push(range_error(&item, "BYSETPOS", "1 to 366 or -366 to -1")),
            }
        }
    }

    /// `WKST`: one weekday.
    fn wkst(&mut self, part: &Part) {
        match WEEKDAYS.iter().position(|w| *w == part.value) {
            Some(w) => self.rec.wkst = w as u8,
            None => self.out.push(
                Finding::new(
                    &codes::W102,
                    part.value_range.clone(),
                    format!("`WKST={}` is not a weekday", part.value),
                )
                .help("use one of MO, TU, WE, TH, FR, SA, SU"),
            ),
        }
    }

    /// Weekly rules whose meaning rests on a default: no `BYDAY` (the anchor's Thursday), or an
    /// `INTERVAL` without `WKST`.
    fn weekly_defaults(&mut self) {
        if self.freq != Some(Freq::Weekly) {
            return;
        }
        if !self.has("BYDAY") {
            self.out.push(
                Finding::new(&codes::W103, self.freq_part.value_range.clone(), "`FREQ=WEEKLY` without `BYDAY` selects Thursdays (the weekday of the 1970-01-01 anchor)")
                    .help("add an explicit `BYDAY`, e.g. `BYDAY=TH`"),
            );
        } else if self.rec.interval > 1 && !self.has("WKST") {
            if let Some(p) = self.parts.iter().find(|p| p.name == "INTERVAL") {
                self.out.push(
                    Finding::new(&codes::W103, p.range.clone(), "which weeks an `INTERVAL` selects depends on the week start, and `WKST` is not given (default Monday)")
                        .help("add `WKST=MO` (or the week start you mean)"),
                );
            }
        }
    }

    /// Adds the rare-date notes, orders the findings by position, and gives the recurrence when
    /// no part is an error.
    fn finish(mut self) -> (Option<Recurrence>, Vec<Finding>) {
        rare_month_days(self.parts, &self.rec, self.freq, &mut self.out);
        self.out.sort_by_key(|f| (f.range.start, f.range.end));
        // Impossible dates (W104) still give a recurrence: it selects nothing, which the
        // never-opens check then reports with the schedule's consequence.
        let ok = self.freq.is_some()
            && !self
                .out
                .iter()
                .any(|f| f.severity == Severity::Error && f.code.code == codes::W102.code);
        (ok.then_some(self.rec), self.out)
    }
}

/// The warning for parts beyond the proposal's promised RRULE subset.
fn maybe_unsupported(part: &Part) -> Finding {
    Finding::new(
        &codes::W103,
        part.name_range.clone(),
        format!("`{}` is beyond the RRULE subset the proposal promises; a controller may not support it", part.name),
    )
    .help("prefer `BYMONTH`, `BYMONTHDAY` and `BYDAY`")
}

/// The error for a list item outside its part's range, naming the range.
fn range_error(item: &Item<'_>, part: &str, range: &str) -> Finding {
    Finding::new(
        &codes::W102,
        item.range.clone(),
        format!("`{}` is not a valid {part} value ({range})", item.text),
    )
    .help(format!("{part} takes a comma-separated list of {range}"))
}

/// A short all-digits number within `min..=max` (no sign, no spaces, as RFC 5545 writes it).
fn unsigned(s: &str, min: i64, max: i64) -> Option<i64> {
    if s.is_empty() || s.len() > 3 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse::<i64>().ok().filter(|v| (min..=max).contains(v))
}

/// An optionally signed number whose magnitude is 1 to `max` (the `BYxxx` offsets from the end).
fn signed(s: &str, max: i64) -> Option<i16> {
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let v = unsigned(digits, 1, max)?;
    i16::try_from(if neg { -v } else { v }).ok()
}

/// What decides whether a `BYDAY` ordinal means something: the frequency and the parts beside it.
struct ByDay {
    /// The frequency (`None` when `FREQ` was rejected).
    freq: Option<Freq>,
    /// The rule has `BYWEEKNO`.
    with_week_no: bool,
    /// The rule has `BYMONTH`.
    with_month: bool,
}

impl ByDay {
    /// Reads `BYDAY`: weekdays, with an ordinal (`1MO`, `-1FR`) only where it means something.
    fn read(&self, part: &Part, rec: &mut Recurrence, out: &mut Vec<Finding>) {
        for item in items(part) {
            let Some((n, w, num, day)) = weekday(&item, out) else {
                continue;
            };
            let num_range = item.range.start..item.range.start + num.len();
            if n != 0 && !self.ordinal_fits(&item, n, day, num_range, out) {
                continue;
            }
            rec.by_day.push((n, w));
        }
    }

    /// Whether an ordinal can be kept for this frequency (warning when it rarely or never
    /// matches); `false`, with an error, when RFC 5545 forbids it.
    fn ordinal_fits(
        &self,
        item: &Item<'_>,
        n: i16,
        day: &str,
        num_range: Range<usize>,
        out: &mut Vec<Finding>,
    ) -> bool {
        let freq = self.freq;
        match freq {
            Some(Freq::Daily | Freq::Weekly) => {
                out.push(
                    Finding::new(&codes::W102, num_range, format!("an ordinal weekday like `{}` only works with `FREQ=MONTHLY` or `YEARLY` (RFC 5545)", item.text))
                        .help(format!("write `{day}` for every {day}, or use `FREQ=MONTHLY`")),
                );
                return false;
            }
            Some(Freq::Yearly) if self.with_week_no => {
                out.push(
                    Finding::new(
                        &codes::W102,
                        num_range,
                        "an ordinal weekday cannot be combined with `BYWEEKNO` (RFC 5545)",
                    )
                    .help(format!("write `{day}` without the ordinal")),
                );
                return false;
            }
            Some(Freq::Monthly) | Some(Freq::Yearly)
                if (freq == Some(Freq::Monthly) || self.with_month) && n.abs() > 5 =>
            {
                out.push(
                    Finding::new(
                        &codes::W104,
                        num_range,
                        format!(
                            "no month has {} {day} days, so `{}` never matches",
                            n.abs(),
                            item.text
                        ),
                    )
                    .help("a month has at most 5 of each weekday; use 1 to 5 or -1 to -5"),
                );
            }
            Some(Freq::Monthly) | Some(Freq::Yearly)
                if (freq == Some(Freq::Monthly) || self.with_month) && n.abs() == 5 =>
            {
                out.push(
                    Finding::new(&codes::W104, num_range, format!("most months have only four of each weekday, so `{}` is skipped in those months", item.text))
                        .help(format!("use `-1{day}` for the last {day} of every month")),
                );
            }
            _ => {}
        }
        true
    }
}

/// Splits a `BYDAY` item into its ordinal (0 when none), weekday (Monday = 0) and the written
/// ordinal and day; `None`, with an error, when either is not valid.
fn weekday<'a>(item: &Item<'a>, out: &mut Vec<Finding>) -> Option<(i16, u8, &'a str, &'a str)> {
    let mut split = item.text.len().saturating_sub(2);
    while !item.text.is_char_boundary(split) {
        split -= 1;
    }
    let (num, day) = (&item.text[..split], &item.text[split..]);
    let Some(w) = WEEKDAYS.iter().position(|d| *d == day) else {
        out.push(
            Finding::new(&codes::W102, item.range.clone(), format!("`{}` is not a weekday", item.text))
                .help("BYDAY takes MO, TU, WE, TH, FR, SA, SU, optionally with an ordinal like `1MO` or `-1FR`"),
        );
        return None;
    };
    if num.is_empty() {
        return Some((0, w as u8, num, day));
    }
    let Some(n) = signed(num, 53) else {
        out.push(
            Finding::new(
                &codes::W102,
                item.range.start..item.range.start + num.len(),
                format!("`{num}` is not a valid BYDAY ordinal (1 to 53 or -53 to -1)"),
            )
            .help("write e.g. `1MO` (first Monday) or `-1FR` (last Friday)"),
        );
        return None;
    };
    Some((n, w as u8, num, day))
}

/// `BYMONTHDAY` values that some or all selected months do not have (skipped, not moved).
fn rare_month_days(parts: &[Part], rec: &Recurrence, freq: Option<Freq>, out: &mut Vec<Finding>) {
    if !matches!(freq, Some(Freq::Monthly | Freq::Yearly)) {
        return;
    }
    let Some(part) = parts.iter().find(|p| p.name == "BYMONTHDAY") else {
        return;
    };
    let months: Vec<i8> = if rec.by_month.is_empty() {
        (1..=12).collect()
    } else {
        rec.by_month.clone()
    };
    let mut any_possible = false;
    let mut notes = Vec::new();
    for item in items(part) {
        let Some(v) = signed(item.text, 31) else {
            continue;
        };
        let missing: Vec<i8> = months
            .iter()
            .copied()
            .filter(|&m| i64::from(v.abs()) > max_days(m))
            .collect();
        if missing.len() < months.len() {
            any_possible = true;
        }
        if !missing.is_empty() {
            notes.push((item, missing));
        }
    }
    for (item, missing) in notes {
        let names: Vec<&str> = missing.iter().map(|&m| month_name(m)).collect();
        let f = if missing.len() == months.len() {
            let sev = if any_possible {
                Severity::Warning
            } else {
                Severity::Error
            };
            Finding::new(&codes::W104, item.range.clone(), format!("day {} never occurs in {}, so it selects no date", item.text, names.join(", ")))
                .help("invalid dates are skipped, not moved to the month's end; use a day that exists, or -1 for the last day")
                .severity(sev)
        } else {
            Finding::new(
                &codes::W104,
                item.range.clone(),
                format!(
                    "day {} does not exist in {}; those months get no window",
                    item.text,
                    names.join(", ")
                ),
            )
            .help("invalid dates are skipped, not moved; use -1 for the last day of every month")
        };
        out.push(f);
    }
}

/// The most days a month can have (February: 29).
pub fn max_days(month: i8) -> i64 {
    match month {
        2 => 29,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// English month names, January first (also the structured recurrence's `month` values).
pub const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// English month name.
pub fn month_name(m: i8) -> &'static str {
    MONTH_NAMES
        .get(usize::try_from(m - 1).unwrap_or(0))
        .copied()
        .unwrap_or("?")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (code, severity, the text under the finding).
    fn findings(rule: &str) -> Vec<(&'static str, Severity, String)> {
        parse(rule)
            .1
            .into_iter()
            .map(|f| (f.code.code, f.severity, rule[f.range].to_string()))
            .collect()
    }

    fn one(rule: &str) -> (&'static str, Severity, String) {
        let f = findings(rule);
        assert_eq!(f.len(), 1, "{rule}: {f:?}");
        f.into_iter()
            .next()
            .unwrap_or(("", Severity::Info, String::new()))
    }

    const E: Severity = Severity::Error;
    const W: Severity = Severity::Warning;

    #[test]
    fn valid_rules_parse_without_findings() {
        for r in [
            "FREQ=WEEKLY;BYDAY=SA",
            "freq=monthly;byday=-1fr",
            "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
            "FREQ=YEARLY;BYMONTH=1,7;BYMONTHDAY=15",
            "FREQ=DAILY;INTERVAL=2",
            "FREQ=WEEKLY;INTERVAL=2;BYDAY=SA;WKST=MO",
        ] {
            let (rec, f) = parse(r);
            assert!(f.is_empty(), "{r}: {f:?}");
            assert!(rec.is_some(), "{r}");
        }
        let (rec, _) = parse("FREQ=MONTHLY;BYDAY=2TU,-1FR;INTERVAL=3");
        let rec = rec.expect("valid");
        assert_eq!(rec.freq, Freq::Monthly);
        assert_eq!(rec.interval, 3);
        assert_eq!(rec.by_day, vec![(2, 1), (-1, 4)]);
    }

    #[test]
    fn structure_errors_point_at_the_part() {
        assert_eq!(one("FREQ=WEEKLY;BYDAY=SA;"), ("W102", E, ";".into()));
        assert_eq!(one("FREQ=WEEKLY;;BYDAY=SA"), ("W102", E, ";".into()));
        assert_eq!(one("FREQ=DAILY;BYDAY"), ("W102", E, "BYDAY".into()));
        assert_eq!(one("FREQ=DAILY;BYDYA=SA"), ("W102", E, "BYDYA".into()));
        assert_eq!(
            one("FREQ=WEEKLY;BYDAY=SA;BYDAY=SU"),
            ("W102", E, "BYDAY=SU".into())
        );
        assert_eq!(one("BYDAY=SA"), ("W102", E, "BYDAY=SA".into()));
        assert_eq!(
            one("RRULE:FREQ=WEEKLY;BYDAY=SA"),
            ("W103", W, "RRULE:".into())
        );
        assert_eq!(
            one("BYDAY=SA;FREQ=WEEKLY"),
            ("W103", W, "FREQ=WEEKLY".into())
        );
    }

    #[test]
    fn frequency_and_interval() {
        assert_eq!(one("FREQ=WEEKY;BYDAY=SA"), ("W102", E, "WEEKY".into()));
        assert_eq!(one("FREQ=HOURLY"), ("W102", E, "HOURLY".into()));
        assert_eq!(one("FREQ=DAILY;INTERVAL=0"), ("W102", E, "0".into()));
        assert_eq!(one("FREQ=DAILY;INTERVAL=-2"), ("W102", E, "-2".into()));
        assert_eq!(one("FREQ=DAILY;COUNT=3"), ("W102", E, "COUNT=3".into()));
        assert_eq!(
            one("FREQ=DAILY;UNTIL=20270101"),
            ("W102", E, "UNTIL=20270101".into())
        );
        assert_eq!(one("FREQ=DAILY;BYHOUR=2"), ("W102", E, "BYHOUR=2".into()));
        assert_eq!(
            findings("FREQ=DAILY;COUNT=3;UNTIL=20270101"),
            vec![
                ("W102", E, "COUNT=3".into()),
                ("W102", E, "UNTIL".into()),
                ("W102", E, "UNTIL=20270101".into())
            ]
        );
    }

    #[test]
    fn value_ranges() {
        assert_eq!(
            one("FREQ=YEARLY;BYMONTH=13;BYMONTHDAY=1"),
            ("W102", E, "13".into())
        );
        assert_eq!(one("FREQ=MONTHLY;BYMONTHDAY=0"), ("W102", E, "0".into()));
        assert_eq!(one("FREQ=MONTHLY;BYMONTHDAY=1,,2"), ("W102", E, "".into()));
        assert_eq!(
            one("FREQ=MONTHLY;BYMONTHDAY=-32"),
            ("W102", E, "-32".into())
        );
        assert_eq!(
            one("FREQ=MONTHLY;BYDAY=MO;BYSETPOS=367"),
            ("W102", E, "367".into())
        );
        assert_eq!(one("FREQ=WEEKLY;BYDAY=SA,XX"), ("W102", E, "XX".into()));
        assert_eq!(one("FREQ=YEARLY;BYDAY=54MO"), ("W102", E, "54".into()));
        assert_eq!(
            one("FREQ=WEEKLY;BYDAY=SA;WKST=XY"),
            ("W102", E, "XY".into())
        );
    }

    #[test]
    fn combinations() {
        assert_eq!(one("FREQ=WEEKLY;BYDAY=1SA"), ("W102", E, "1".into()));
        assert_eq!(one("FREQ=DAILY;BYDAY=-1FR"), ("W102", E, "-1".into()));
        assert_eq!(
            findings("FREQ=YEARLY;BYWEEKNO=1;BYDAY=1MO;WKST=MO"),
            vec![("W103", W, "BYWEEKNO".into()), ("W102", E, "1".into())]
        );
        assert_eq!(
            findings("FREQ=MONTHLY;BYWEEKNO=1"),
            vec![
                ("W102", E, "BYWEEKNO".into()),
                ("W103", W, "BYWEEKNO".into()),
                ("W103", W, "BYWEEKNO".into())
            ]
        );
        assert_eq!(
            findings("FREQ=MONTHLY;BYYEARDAY=100"),
            vec![
                ("W102", E, "BYYEARDAY".into()),
                ("W103", W, "BYYEARDAY".into())
            ]
        );
        assert_eq!(
            findings("FREQ=WEEKLY;BYMONTHDAY=1;BYDAY=MO"),
            vec![("W102", E, "BYMONTHDAY".into())]
        );
        assert_eq!(
            one("FREQ=MONTHLY;BYSETPOS=1"),
            ("W102", E, "BYSETPOS".into())
        );
    }

    #[test]
    fn weeks_need_explicit_days_and_week_start() {
        assert_eq!(one("FREQ=WEEKLY"), ("W103", W, "WEEKLY".into()));
        assert_eq!(
            one("FREQ=WEEKLY;INTERVAL=2;BYDAY=SA"),
            ("W103", W, "INTERVAL=2".into())
        );
    }

    #[test]
    fn arbitrary_text_never_panics() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let alphabet: Vec<char> = "FREQ=WEEKLY;BYDAY,-+0123456789MOTUSAÄ€😀=;, RRULE:"
            .chars()
            .collect();
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 24) as usize;
            let s: String = (0..len)
                .map(|i| alphabet[((x >> (i % 50)) as usize + i * 7) % alphabet.len()])
                .collect();
            let (_, findings) = parse(&s);
            for f in findings {
                assert!(s.get(f.range.clone()).is_some(), "{s:?}: {f:?}");
            }
        }
        for s in [
            "BYDAY=€",
            "FREQ=MONTHLY;BYDAY=1€",
            "RRULE",
            "RRULÄ:x",
            ";",
            "=",
            "FREQ=",
        ] {
            let _ = parse(s);
        }
    }

    #[test]
    fn dates_that_rarely_or_never_occur() {
        assert_eq!(one("FREQ=MONTHLY;BYMONTHDAY=31"), ("W104", W, "31".into()));
        assert_eq!(
            one("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30"),
            ("W104", E, "30".into())
        );
        assert_eq!(
            one("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=1,30"),
            ("W104", W, "30".into())
        );
        assert_eq!(one("FREQ=MONTHLY;BYDAY=5FR"), ("W104", W, "5".into()));
        assert_eq!(one("FREQ=MONTHLY;BYDAY=6FR"), ("W104", W, "6".into()));
        // A rule with only impossible dates is still a recurrence; it selects no date.
        let (rec, _) = parse("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30");
        assert!(rec.expect("parsed").dates(0, 100_000).is_empty());
    }
}
