//! Day numbers (days since 1970-01-01, the schedule anchor) and their calendar dates, via jiff.

use jiff::civil::Date;
use jiff::{SignedDuration, Timestamp};

/// Seconds in a day.
pub const DAY: i64 = 86_400;

/// The anchor of every recurrence: 1970-01-01 (a Thursday).
pub const EPOCH: Date = jiff::civil::date(1970, 1, 1);

/// The calendar date of a day number (saturates at jiff's range, far beyond any schedule).
pub fn date(day: i64) -> Date {
    EPOCH
        .checked_add(SignedDuration::from_secs(day.saturating_mul(DAY)))
        .unwrap_or(if day < 0 { Date::MIN } else { Date::MAX })
}

/// The day number of a date.
pub fn day(date: Date) -> i64 {
    date.duration_since(EPOCH).as_secs().div_euclid(DAY)
}

/// The day number holding an instant.
pub fn day_of(t: i64) -> i64 {
    t.div_euclid(DAY)
}

/// Weekday of a day number, Monday = 0 … Sunday = 6.
pub fn weekday(day: i64) -> u8 {
    // 1970-01-01 was a Thursday (3).
    (day + 3).rem_euclid(7) as u8
}

/// An instant (seconds since the epoch) as a timestamp.
pub fn timestamp(t: i64) -> Timestamp {
    Timestamp::from_second(t).unwrap_or(if t < 0 {
        Timestamp::MIN
    } else {
        Timestamp::MAX
    })
}

/// `2026-11-28T02:00:00Z`.
pub fn rfc3339(t: i64) -> String {
    timestamp(t).strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// `Sat 2026-11-28 02:00 UTC`, for messages.
pub fn human(t: i64) -> String {
    timestamp(t).strftime("%a %Y-%m-%d %H:%M UTC").to_string()
}

/// Days in a month of a year.
pub fn days_in_month(year: i16, month: i8) -> i64 {
    Date::new(year, month, 1)
        .map(|d| i64::from(d.days_in_month()))
        .unwrap_or(31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn day_numbers_round_trip() {
        for n in [-800, -1, 0, 1, 59, 365, 20_000, 40_000] {
            assert_eq!(day(date(n)), n);
        }
        assert_eq!(date(0), jiff::civil::date(1970, 1, 1));
        assert_eq!(weekday(0), 3);
        assert_eq!(date(0).weekday().to_monday_zero_offset() as u8, weekday(0));
        assert_eq!(rfc3339(DAY + 3600), "1970-01-02T01:00:00Z");
        assert_eq!(human(DAY * 2), "Sat 1970-01-03 00:00 UTC");
    }
}
