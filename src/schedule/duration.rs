//! `startTime` (time of day, UTC) and `duration` (Go duration syntax) values of a window.

/// A parsed `startTime`: seconds after midnight, and whether it used the tolerated `HH:MM:SS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeOfDay {
    /// Seconds after 00:00 UTC.
    pub seconds: i64,
    /// Written as `HH:MM:SS` (accepted with a warning).
    pub with_seconds: bool,
}

/// Parses `HH:MM` (00:00–23:59), or `HH:MM:SS`.
pub fn time_of_day(s: &str) -> Option<TimeOfDay> {
    let fields: Vec<&str> = s.split(':').collect();
    if !(2..=3).contains(&fields.len())
        || fields
            .iter()
            .any(|f| f.len() != 2 || !f.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let num = |i: usize| fields.get(i).and_then(|f| f.parse::<i64>().ok());
    let (h, m) = (num(0)?, num(1)?);
    let sec = if fields.len() == 3 { num(2)? } else { 0 };
    if h > 23 || m > 59 || sec > 59 {
        return None;
    }
    Some(TimeOfDay {
        seconds: h * 3600 + m * 60 + sec,
        with_seconds: fields.len() == 3,
    })
}

/// Parses a Go duration (`8h`, `1h30m`, `90m`, `1.5h`) with units `h`, `m`, `s`, into seconds
/// (rounded down); `None` when malformed. The sign is kept so `-1h` can be reported as not positive.
pub fn go_duration(s: &str) -> Option<i64> {
    let (neg, mut rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if rest == "0" {
        return Some(0);
    }
    if rest.is_empty() {
        return None;
    }
    let mut total = 0f64;
    while !rest.is_empty() {
        let num_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let num = &rest[..num_len];
        if num.is_empty() || num == "." || num.matches('.').count() > 1 {
            return None;
        }
        let value: f64 = num.parse().ok()?;
        rest = &rest[num_len..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let factor = match &rest[..unit_len] {
            "h" => 3600.0,
            "m" => 60.0,
            "s" => 1.0,
            _ => return None,
        };
        rest = &rest[unit_len..];
        total += value * factor;
        if total > 1e12 {
            return None;
        }
    }
    let secs = total.floor() as i64;
    Some(if neg { -secs } else { secs })
}

/// `8h`, `1h30m`, `45m` for messages.
pub fn show(secs: i64) -> String {
    let (h, m, s) = (secs / 3600, secs % 3600 / 60, secs % 60);
    let mut out = String::new();
    if h > 0 {
        out.push_str(&format!("{h}h"));
    }
    if m > 0 {
        out.push_str(&format!("{m}m"));
    }
    if s > 0 || out.is_empty() {
        out.push_str(&format!("{s}s"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_of_day() {
        assert_eq!(time_of_day("02:00").map(|t| t.seconds), Some(7200));
        assert_eq!(time_of_day("23:59").map(|t| t.seconds), Some(86_340));
        assert_eq!(
            time_of_day("02:00:30"),
            Some(TimeOfDay {
                seconds: 7230,
                with_seconds: true
            })
        );
        for bad in [
            "24:00",
            "2:00",
            "02:60",
            "0200",
            "02:00am",
            "",
            "02:00:00:00",
        ] {
            assert_eq!(time_of_day(bad), None, "{bad}");
        }
    }

    #[test]
    fn go_durations() {
        assert_eq!(go_duration("8h"), Some(28_800));
        assert_eq!(go_duration("1h30m"), Some(5400));
        assert_eq!(go_duration("1.5h"), Some(5400));
        assert_eq!(go_duration("90s"), Some(90));
        assert_eq!(go_duration("0"), Some(0));
        assert_eq!(go_duration("-1h"), Some(-3600));
        for bad in ["8", "8 h", "h", "1d", "", "1..5h", "8hours"] {
            assert_eq!(go_duration(bad), None, "{bad}");
        }
        assert_eq!(show(5400), "1h30m");
        assert_eq!(show(0), "0s");
    }
}
