//! Maintenance schedules: RRULE parsing and the dates it yields over two years, Go durations and
//! times of day. Input: one RRULE value; its first line is also read as a duration and a time.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nodecast::schedule::{duration, rrule};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (rec, findings) = rrule::parse(&text);
    for f in &findings {
        let _ = f;
    }
    if let Some(rec) = rec {
        // 2026-01-01 as a day number, and two years after it.
        let from = 20454;
        let dates = rec.dates(from, from + 730);
        assert!(dates.windows(2).all(|w| w[0] < w[1]), "dates in order");
        assert!(dates.iter().all(|d| (from..=from + 730).contains(d)));
    }
    let first = text.lines().next().unwrap_or_default();
    let _ = duration::go_duration(first);
    let _ = duration::time_of_day(first);
});
