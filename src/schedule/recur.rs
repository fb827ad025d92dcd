//! Date recurrences (the date-only subset of RFC 5545 RRULE both policy formats reduce to),
//! evaluated from the 1970-01-01 anchor the way RFC 5545 and python-dateutil do.
//!
//! Hand-written rather than the `rrule` crate: that crate works on chrono date-times and iterates
//! from DTSTART, while schedules need dates only, jiff, and a direct jump to the period holding
//! "now" (56 years after the anchor).

use std::borrow::Cow;

use super::days;

/// How often the rule repeats (time-of-day frequencies are rejected before this point).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Freq {
    /// Every `interval` days.
    Daily,
    /// Every `interval` weeks.
    Weekly,
    /// Every `interval` months.
    Monthly,
    /// Every `interval` years.
    Yearly,
}

impl Freq {
    /// The RRULE name.
    pub fn as_str(self) -> &'static str {
        match self {
            Freq::Daily => "DAILY",
            Freq::Weekly => "WEEKLY",
            Freq::Monthly => "MONTHLY",
            Freq::Yearly => "YEARLY",
        }
    }

    /// The shortest period length in days (for the overlapping-windows check).
    pub fn min_days(self) -> i64 {
        match self {
            Freq::Daily => 1,
            Freq::Weekly => 7,
            Freq::Monthly => 28,
            Freq::Yearly => 365,
        }
    }
}

/// A validated recurrence; every `by_*` list empty means "not given".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recurrence {
    /// Frequency.
    pub freq: Freq,
    /// Interval ≥ 1.
    pub interval: u32,
    /// Week start, Monday = 0.
    pub wkst: u8,
    /// 1–12.
    pub by_month: Vec<i8>,
    /// ±1–31.
    pub by_month_day: Vec<i16>,
    /// ±1–366.
    pub by_year_day: Vec<i16>,
    /// ±1–53.
    pub by_week_no: Vec<i16>,
    /// (ordinal or 0, weekday Monday = 0).
    pub by_day: Vec<(i16, u8)>,
    /// ±1–366.
    pub by_set_pos: Vec<i16>,
}

impl Recurrence {
    /// A bare rule of this frequency (interval 1, weeks starting Monday).
    pub fn new(freq: Freq) -> Self {
        Recurrence {
            freq,
            interval: 1,
            wkst: 0,
            by_month: Vec::new(),
            by_month_day: Vec::new(),
            by_year_day: Vec::new(),
            by_week_no: Vec::new(),
            by_day: Vec::new(),
            by_set_pos: Vec::new(),
        }
    }

    /// The rule with the parts RFC 5545 takes from DTSTART (1970-01-01) filled in.
    fn with_defaults(&self) -> Cow<'_, Recurrence> {
        if !(self.by_week_no.is_empty()
            && self.by_year_day.is_empty()
            && self.by_month_day.is_empty()
            && self.by_day.is_empty())
        {
            return Cow::Borrowed(self);
        }
        let mut r = self.clone();
        match self.freq {
            Freq::Yearly => {
                if r.by_month.is_empty() {
                    r.by_month.push(1);
                }
                r.by_month_day.push(1);
            }
            Freq::Monthly => r.by_month_day.push(1),
            Freq::Weekly => r.by_day.push((0, days::weekday(0))),
            Freq::Daily => return Cow::Borrowed(self),
        }
        Cow::Owned(r)
    }

    /// The selected dates (day numbers) in `[from, to)`, in order; nothing before the anchor.
    pub fn dates(&self, from: i64, to: i64) -> Vec<i64> {
        let rule = self.with_defaults();
        let interval = i64::from(self.interval.max(1));
        let from = from.max(0);
        let mut out = Vec::new();
        if from >= to {
            return out;
        }
        let p0 = rule.period_of(from);
        let mut p = p0 + (interval - p0.rem_euclid(interval)) % interval;
        loop {
            let (start, end) = rule.period_days(p);
            if start >= to {
                break;
            }
            for d in rule.select(start.max(0), end) {
                if d >= from && d < to {
                    out.push(d);
                }
            }
            p += interval;
        }
        out
    }

    /// Offset of day 0 inside its week.
    fn week_offset(&self) -> i64 {
        i64::from(days::weekday(0) + 7 - self.wkst) % 7
    }

    fn period_of(&self, day: i64) -> i64 {
        match self.freq {
            Freq::Daily => day,
            Freq::Weekly => (day + self.week_offset()).div_euclid(7),
            Freq::Monthly => {
                let d = days::date(day);
                (i64::from(d.year()) - 1970) * 12 + i64::from(d.month()) - 1
            }
            Freq::Yearly => i64::from(days::date(day).year()) - 1970,
        }
    }

    fn period_days(&self, p: i64) -> (i64, i64) {
        match self.freq {
            Freq::Daily => (p, p + 1),
            Freq::Weekly => {
                let start = 7 * p - self.week_offset();
                (start, start + 7)
            }
            Freq::Monthly => {
                let year = 1970 + p.div_euclid(12);
                let month = p.rem_euclid(12) + 1;
                month_bounds(year, month)
            }
            Freq::Yearly => {
                let (s, _) = month_bounds(1970 + p, 1);
                let (_, e) = month_bounds(1970 + p, 12);
                (s, e)
            }
        }
    }

    /// The days of one period that the rule selects.
    fn select(&self, start: i64, end: i64) -> Vec<i64> {
        let week_no = if self.by_week_no.is_empty() || self.freq != Freq::Yearly {
            None
        } else {
            Some(week_no_mask(
                i64::from(days::date(start).year()),
                self.wkst,
                &self.by_week_no,
            ))
        };
        let kept: Vec<i64> = (start..end)
            .filter(|&d| self.keeps(d, week_no.as_deref()))
            .collect();
        if self.by_set_pos.is_empty() {
            return kept;
        }
        let len = kept.len() as i64;
        let mut picked: Vec<i64> = self
            .by_set_pos
            .iter()
            .filter_map(|&pos| {
                let i = if pos > 0 {
                    i64::from(pos) - 1
                } else {
                    len + i64::from(pos)
                };
                usize::try_from(i).ok().and_then(|i| kept.get(i).copied())
            })
            .collect();
        picked.sort_unstable();
        picked.dedup();
        picked
    }

    fn keeps(&self, d: i64, week_no: Option<&[bool]>) -> bool {
        let date = days::date(d);
        let month = date.month();
        if !self.by_month.is_empty() && !self.by_month.contains(&month) {
            return false;
        }
        if let Some(mask) = week_no {
            let i = usize::try_from(date.day_of_year() - 1).unwrap_or(0);
            if !mask.get(i).copied().unwrap_or(false) {
                return false;
            }
        }
        if !self.by_day.is_empty() && !self.day_matches(d, date) {
            return false;
        }
        if !self.by_month_day.is_empty() {
            let md = i16::from(date.day());
            let neg = md - i16::from(date.days_in_month()) - 1;
            if !self.by_month_day.contains(&md) && !self.by_month_day.contains(&neg) {
                return false;
            }
        }
        if !self.by_year_day.is_empty() {
            let yd = date.day_of_year();
            let neg = yd - date.days_in_year() - 1;
            if !self.by_year_day.contains(&yd) && !self.by_year_day.contains(&neg) {
                return false;
            }
        }
        true
    }

    /// BYDAY: a plain weekday matches any such day; an ordinal one the n-th of the month (MONTHLY,
    /// or YEARLY with BYMONTH) or of the year (YEARLY). Plain and ordinal entries are a union.
    fn day_matches(&self, d: i64, date: jiff::civil::Date) -> bool {
        let wd = days::weekday(d);
        let ordinal_scope = matches!(self.freq, Freq::Monthly | Freq::Yearly);
        for &(n, w) in &self.by_day {
            if n == 0 || !ordinal_scope {
                if w == wd {
                    return true;
                }
                continue;
            }
            if w != wd {
                continue;
            }
            let (first, last) = if self.freq == Freq::Monthly || !self.by_month.is_empty() {
                let (s, e) = month_bounds(i64::from(date.year()), i64::from(date.month()));
                (s, e - 1)
            } else {
                let (s, _) = month_bounds(i64::from(date.year()), 1);
                let (_, e) = month_bounds(i64::from(date.year()), 12);
                (s, e - 1)
            };
            let n = i64::from(n);
            let target = if n > 0 {
                first + (n - 1) * 7 + (i64::from(w) - i64::from(days::weekday(first))).rem_euclid(7)
            } else {
                last + (n + 1) * 7 - (i64::from(days::weekday(last)) - i64::from(w)).rem_euclid(7)
            };
            if target == d && (first..=last).contains(&target) {
                return true;
            }
        }
        false
    }
}

/// First day and the day after the last day of a month, as day numbers.
pub fn month_bounds(year: i64, month: i64) -> (i64, i64) {
    let y = i16::try_from(year).unwrap_or(9999).clamp(-9999, 9999);
    let m = i8::try_from(month).unwrap_or(1);
    match jiff::civil::Date::new(y, m, 1) {
        Ok(d) => {
            let s = days::day(d);
            (s, s + i64::from(d.days_in_month()))
        }
        Err(_) => (i64::MAX / 4, i64::MAX / 4),
    }
}

/// BYWEEKNO days of a year (index = day of year − 1), ported from python-dateutil so both agree on
/// the partial weeks at the year's ends.
fn week_no_mask(year: i64, wkst: u8, week_nos: &[i16]) -> Vec<bool> {
    let (jan1, next) = {
        let (s, _) = month_bounds(year, 1);
        let (_, e) = month_bounds(year, 12);
        (s, e)
    };
    let year_len = next - jan1;
    let year_wd = i64::from(days::weekday(jan1));
    let wkst = i64::from(wkst);
    let wday = |i: i64| (year_wd + i).rem_euclid(7);
    let mut mask = vec![false; (year_len + 7) as usize];
    let first_wkst = (7 - year_wd + wkst).rem_euclid(7);
    let mut no1 = first_wkst;
    let w_year_len = if no1 >= 4 {
        no1 = 0;
        year_len + (year_wd - wkst).rem_euclid(7)
    } else {
        year_len - no1
    };
    let num_weeks = w_year_len / 7 + (w_year_len % 7) / 4;
    let mark = |mut i: i64, mask: &mut Vec<bool>| {
        for _ in 0..7 {
            if let Some(m) = usize::try_from(i).ok().and_then(|i| mask.get_mut(i)) {
                *m = true;
            }
            i += 1;
            if wday(i) == wkst {
                break;
            }
        }
    };
    for &n in week_nos {
        let mut n = i64::from(n);
        if n < 0 {
            n += num_weeks + 1;
        }
        if !(0 < n && n <= num_weeks) {
            continue;
        }
        let i = if n > 1 {
            let mut i = no1 + (n - 1) * 7;
            if no1 != first_wkst {
                i -= 7 - first_wkst;
            }
            i
        } else {
            no1
        };
        mark(i, &mut mask);
    }
    if week_nos.contains(&1) {
        let mut i = no1 + num_weeks * 7;
        if no1 != first_wkst {
            i -= 7 - first_wkst;
        }
        if i < year_len {
            mark(i, &mut mask);
        }
    }
    if no1 != 0 {
        let last_num = if week_nos.contains(&-1) {
            -1
        } else {
            let (ls, _) = month_bounds(year - 1, 1);
            let l_year_wd = i64::from(days::weekday(ls));
            let l_year_len = jan1 - ls;
            let l_no1 = (7 - l_year_wd + wkst).rem_euclid(7);
            if l_no1 >= 4 {
                52 + ((l_year_len + (l_year_wd - wkst).rem_euclid(7)) % 7) / 4
            } else {
                52 + ((year_len - no1) % 7) / 4
            }
        };
        if week_nos.iter().any(|&w| i64::from(w) == last_num) {
            for m in mask.iter_mut().take(no1 as usize) {
                *m = true;
            }
        }
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    fn ymd(days: &[i64]) -> Vec<String> {
        days.iter().map(|&d| days::date(d).to_string()).collect()
    }

    fn from(y: i16, m: i8, d: i8) -> i64 {
        days::day(date(y, m, d))
    }

    #[test]
    fn bare_rules_take_their_missing_parts_from_the_anchor() {
        let s = from(2026, 11, 1);
        assert_eq!(
            ymd(&Recurrence::new(Freq::Weekly).dates(s, s + 14)),
            ["2026-11-05", "2026-11-12"],
            "Thursdays"
        );
        assert_eq!(
            ymd(&Recurrence::new(Freq::Monthly).dates(s, s + 40)),
            ["2026-11-01", "2026-12-01"]
        );
        assert_eq!(
            ymd(&Recurrence::new(Freq::Yearly).dates(s, s + 400)),
            ["2027-01-01"]
        );
    }

    #[test]
    fn intervals_are_phased_from_the_anchor() {
        let mut r = Recurrence::new(Freq::Daily);
        r.interval = 3;
        // 2026-11-21 is day 20_778 = 3 × 6926: selected.
        let s = from(2026, 11, 21);
        assert_eq!(s % 3, 0);
        assert_eq!(
            ymd(&r.dates(s, s + 7)),
            ["2026-11-21", "2026-11-24", "2026-11-27"]
        );
        let mut w = Recurrence::new(Freq::Weekly);
        w.interval = 2;
        w.by_day = vec![(0, 5)];
        // Week 0 (Monday start) is 1969-12-29..1970-01-04; week of 2026-11-16 is week 2986 (even).
        assert_eq!(
            ymd(&w.dates(from(2026, 11, 16), from(2026, 12, 14))),
            ["2026-11-21", "2026-12-05"]
        );
    }

    #[test]
    fn ordinal_weekdays_and_set_positions() {
        let mut r = Recurrence::new(Freq::Monthly);
        r.by_day = vec![(-1, 4)];
        assert_eq!(
            ymd(&r.dates(from(2026, 11, 1), from(2027, 1, 1))),
            ["2026-11-27", "2026-12-25"]
        );
        let mut p = Recurrence::new(Freq::Monthly);
        p.by_day = (0..5).map(|w| (0, w)).collect();
        p.by_set_pos = vec![-1];
        assert_eq!(
            ymd(&p.dates(from(2026, 11, 1), from(2027, 1, 1))),
            ["2026-11-30", "2026-12-31"],
            "last weekday of the month"
        );
    }

    #[test]
    fn invalid_dates_are_skipped_not_moved() {
        let mut r = Recurrence::new(Freq::Monthly);
        r.by_month_day = vec![31];
        assert_eq!(
            ymd(&r.dates(from(2026, 11, 1), from(2027, 2, 1))),
            ["2026-12-31", "2027-01-31"]
        );
        let mut f = Recurrence::new(Freq::Yearly);
        f.by_month = vec![2];
        f.by_month_day = vec![30];
        assert!(f.dates(0, 100_000).is_empty());
    }

    #[test]
    fn week_numbers_follow_iso_with_monday_weeks() {
        let mut r = Recurrence::new(Freq::Yearly);
        r.by_week_no = vec![1];
        r.by_day = vec![(0, 0)];
        // ISO week 1 of 2027 starts Monday 2027-01-04; of 2026, Monday 2025-12-29 (not in 2026).
        assert_eq!(
            ymd(&r.dates(from(2026, 1, 1), from(2028, 1, 1))),
            ["2027-01-04"]
        );
    }
}
