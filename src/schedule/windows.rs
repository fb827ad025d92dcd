//! Permitted time of a maintenance schedule: windows on the selected dates, minus excluded days.

use super::days::{self, DAY};
use super::recur::Recurrence;

/// Which dates open a window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dates {
    /// `permit` without `recurrence`: every date.
    Every,
    /// The dates a recurrence selects.
    Rule(Recurrence),
    /// Nothing (an empty Schema B list): no date.
    Nothing,
}

/// A maintenance schedule, ready to evaluate (times in seconds since the epoch, UTC).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// `permit` is present (not null).
    pub permit: bool,
    /// The selected dates.
    pub dates: Dates,
    /// Window start, seconds after midnight.
    pub start: i64,
    /// Window length; `None` = until the end of that day.
    pub duration: Option<i64>,
    /// `exclude` is present (not null).
    pub exclude: bool,
    /// Excluded days `[from, until)` as day numbers.
    pub exclusions: Vec<(i64, i64)>,
}

/// Where the next permitted time is, seen from an instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// The instant is permitted; the permitted stretch lasts until `until`.
    Now {
        /// End of the current permitted stretch.
        until: i64,
    },
    /// The next permitted stretch is `[start, end)`.
    At {
        /// Start.
        start: i64,
        /// End.
        end: i64,
    },
    /// Nothing within the search cap.
    Never,
}

/// The proposal's search cap.
pub const CAP_DAYS: i64 = 1000;

impl Schedule {
    /// `permit: null` and `exclude: null`: restrictive indefinitely (revision 4 onward).
    pub fn is_null_null(&self) -> bool {
        !self.permit && !self.exclude
    }

    /// Window length in seconds.
    pub fn window_len(&self) -> i64 {
        self.duration.unwrap_or(DAY - self.start)
    }

    /// Permitted stretches intersecting `[from, to)`, clipped, merged and in order.
    pub fn intervals(&self, from: i64, to: i64) -> Vec<(i64, i64)> {
        if from >= to || self.is_null_null() {
            return Vec::new();
        }
        let (start, len, dates) = if self.permit {
            (self.start, self.window_len(), &self.dates)
        } else {
            // `permit: null` with exclusions: permitted always except excluded days.
            (0, DAY, &Dates::Every)
        };
        if len <= 0 {
            return Vec::new();
        }
        // A window longer than the search cap is open for the whole cap (and keeps the loop small).
        let len = len.min((CAP_DAYS + 2) * DAY);
        let spill = (start + len + DAY - 1) / DAY + 1;
        let (d0, d1) = (days::day_of(from) - spill, days::day_of(to) + 1);
        let selected: Vec<i64> = match dates {
            Dates::Every => (d0.max(0)..d1).collect(),
            Dates::Rule(r) => r.dates(d0, d1),
            Dates::Nothing => Vec::new(),
        };
        let mut merged: Vec<(i64, i64)> = Vec::new();
        for d in selected {
            let (s, e) = ((d * DAY + start).max(from), (d * DAY + start + len).min(to));
            if s >= e {
                continue;
            }
            match merged.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => merged.push((s, e)),
            }
        }
        subtract(merged, &self.exclusions)
    }

    /// The next permitted instant at or after `t`, within the 1000-day cap.
    pub fn next(&self, t: i64) -> Next {
        match self.intervals(t, t + CAP_DAYS * DAY).first() {
            Some(&(s, e)) if s <= t => Next::Now { until: e },
            Some(&(s, e)) => Next::At { start: s, end: e },
            None => Next::Never,
        }
    }

    /// The next `n` permitted stretches from `t` (within the cap), for `nodecast schedule`.
    pub fn upcoming(&self, t: i64, n: usize) -> Vec<(i64, i64)> {
        let mut out: Vec<(i64, i64)> = Vec::new();
        let mut from = t;
        let end = t + CAP_DAYS * DAY;
        while out.len() < n && from < end {
            let to = (from + 120 * DAY).min(end);
            for iv in self.intervals(from, to) {
                match out.last_mut() {
                    Some(last) if iv.0 <= last.1 => last.1 = iv.1,
                    _ => out.push(iv),
                }
            }
            from = to;
        }
        // The last stretch may continue past the search slice; extend it once.
        out.truncate(n);
        if let Some(last) = out.last_mut() {
            if let Some(&(s, e)) = self.intervals(last.1, last.1 + 30 * DAY).first() {
                if s == last.1 {
                    last.1 = e;
                }
            }
        }
        out
    }
}

/// Removes whole excluded days from stretches.
fn subtract(stretches: Vec<(i64, i64)>, exclusions: &[(i64, i64)]) -> Vec<(i64, i64)> {
    let mut ex: Vec<(i64, i64)> = exclusions
        .iter()
        .filter(|(a, b)| b > a)
        .map(|&(a, b)| (a * DAY, b * DAY))
        .collect();
    ex.sort_unstable();
    let mut out = Vec::new();
    for (mut s, e) in stretches {
        for &(xa, xb) in &ex {
            if xb <= s || xa >= e {
                continue;
            }
            if xa > s {
                out.push((s, xa));
            }
            s = s.max(xb);
            if s >= e {
                break;
            }
        }
        if s < e {
            out.push((s, e));
        }
    }
    out
}

/// Total length of stretches.
pub fn total(stretches: &[(i64, i64)]) -> i64 {
    stretches.iter().map(|(a, b)| b - a).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::rrule;

    fn at(s: &str) -> i64 {
        s.parse::<jiff::Timestamp>()
            .map(|t| t.as_second())
            .unwrap_or(i64::MIN)
    }

    fn sched(rule: Option<&str>, start: i64, duration: Option<i64>) -> Schedule {
        Schedule {
            permit: true,
            dates: match rule {
                Some(r) => Dates::Rule(rrule::parse(r).0.expect("valid")),
                None => Dates::Every,
            },
            start,
            duration,
            exclude: false,
            exclusions: Vec::new(),
        }
    }

    fn day(s: &str) -> i64 {
        days::day(s.parse().unwrap_or(days::EPOCH))
    }

    #[test]
    fn windows_spill_past_midnight() {
        // Saturday 20:00 + 8h ⇒ Saturday 20:00 → Sunday 04:00.
        let s = sched(Some("FREQ=WEEKLY;BYDAY=SA"), 20 * 3600, Some(8 * 3600));
        assert_eq!(
            s.next(at("2026-11-23T10:00:00Z")),
            Next::At {
                start: at("2026-11-28T20:00:00Z"),
                end: at("2026-11-29T04:00:00Z")
            }
        );
        assert_eq!(
            s.next(at("2026-11-29T03:00:00Z")),
            Next::Now {
                until: at("2026-11-29T04:00:00Z")
            },
            "Sunday 03:00 is still inside Saturday's window"
        );
    }

    #[test]
    fn the_default_window_is_the_whole_day() {
        let s = sched(Some("FREQ=WEEKLY;BYDAY=SA"), 0, None);
        assert_eq!(
            s.next(at("2026-11-28T23:59:00Z")),
            Next::Now {
                until: at("2026-11-29T00:00:00Z")
            }
        );
        let late = sched(Some("FREQ=WEEKLY;BYDAY=SA"), 20 * 3600, None);
        assert_eq!(late.window_len(), 4 * 3600);
    }

    #[test]
    fn exclusions_win_and_until_is_exclusive() {
        let mut s = sched(Some("FREQ=DAILY"), 2 * 3600, Some(3600));
        s.exclude = true;
        s.exclusions = vec![(day("2027-11-26"), day("2027-11-29"))];
        assert_eq!(
            s.next(at("2027-11-25T12:00:00Z")),
            Next::At {
                start: at("2027-11-29T02:00:00Z"),
                end: at("2027-11-29T03:00:00Z")
            }
        );
    }

    #[test]
    fn permit_and_exclude_interaction() {
        let t = at("2026-11-21T12:00:00Z");
        let mut s = sched(None, 0, None);
        s.permit = false;
        assert_eq!(
            s.next(t),
            Next::Never,
            "null/null: restrictive indefinitely"
        );
        s.exclude = true;
        s.exclusions = vec![(day("2026-11-21"), day("2026-11-22"))];
        assert_eq!(
            s.next(t),
            Next::At {
                start: at("2026-11-22T00:00:00Z"),
                end: t + CAP_DAYS * DAY
            }
        );
        let every = sched(None, 0, None);
        assert!(
            matches!(every.next(t), Next::Now { .. }),
            "permit without recurrence: every date"
        );
    }

    #[test]
    fn excluded_time_is_cut_from_a_window_crossing_midnight() {
        let mut s = sched(Some("FREQ=WEEKLY;BYDAY=SA"), 20 * 3600, Some(8 * 3600));
        s.exclude = true;
        s.exclusions = vec![(day("2026-11-29"), day("2026-11-30"))];
        assert_eq!(
            s.intervals(at("2026-11-28T00:00:00Z"), at("2026-11-30T00:00:00Z")),
            vec![(at("2026-11-28T20:00:00Z"), at("2026-11-29T00:00:00Z"))]
        );
    }

    #[test]
    fn upcoming_lists_windows_in_order() {
        let s = sched(Some("FREQ=MONTHLY;BYDAY=1SA"), 2 * 3600, Some(4 * 3600));
        let starts: Vec<String> = s
            .upcoming(at("2026-11-21T00:00:00Z"), 3)
            .iter()
            .map(|(a, _)| days::rfc3339(*a))
            .collect();
        assert_eq!(
            starts,
            [
                "2026-12-05T02:00:00Z",
                "2027-01-02T02:00:00Z",
                "2027-02-06T02:00:00Z"
            ]
        );
    }
}
