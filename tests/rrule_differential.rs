//! Differential test: nodecast's recurrence engine against python-dateutil's rrule, on ≥ 1000
//! seeded random valid schedules, comparing the next 10 window starts.
//!
//! Needs `python3` with `dateutil` (`NODECAST_PYTHON` may name the interpreter; `.ci/run` installs
//! it into a venv). Under `CI=true` a missing oracle fails the test; locally it is skipped with the
//! reason printed.

use std::io::Write;
use std::process::{Command, Stdio};

use nodecast::schedule::days::DAY;
use nodecast::schedule::rrule;

/// xorshift64*: small, seeded, reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const DAYS: [&str; 7] = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];

fn list(rng: &mut Rng, max_len: u64, mut item: impl FnMut(&mut Rng) -> String) -> String {
    let n = 1 + rng.below(max_len);
    let mut items: Vec<String> = (0..n).map(|_| item(rng)).collect();
    items.dedup();
    items.join(",")
}

fn signed(rng: &mut Rng, max: i64) -> i64 {
    let v = rng.range(1, max);
    if rng.chance(25) {
        -v
    } else {
        v
    }
}

/// A random rule from the subset schedules use (dates only, no COUNT/UNTIL).
fn random_rule(rng: &mut Rng) -> String {
    let freq = rng.pick(&["DAILY", "WEEKLY", "MONTHLY", "YEARLY"]);
    let mut parts = vec![format!("FREQ={freq}")];
    if rng.chance(40) {
        parts.push(format!("INTERVAL={}", rng.range(1, 4)));
    }
    let plain_days = |rng: &mut Rng| list(rng, 3, |r| r.pick(&DAYS).to_string());
    match freq {
        "DAILY" => {
            if rng.chance(40) {
                parts.push(format!("BYDAY={}", plain_days(rng)));
            }
            if rng.chance(25) {
                parts.push(format!(
                    "BYMONTH={}",
                    list(rng, 3, |r| r.range(1, 12).to_string())
                ));
            }
            if rng.chance(20) {
                parts.push(format!(
                    "BYMONTHDAY={}",
                    list(rng, 3, |r| signed(r, 28).to_string())
                ));
            }
        }
        "WEEKLY" => {
            parts.push(format!("BYDAY={}", plain_days(rng)));
            if rng.chance(20) {
                parts.push(format!(
                    "BYMONTH={}",
                    list(rng, 4, |r| r.range(1, 12).to_string())
                ));
            }
        }
        "MONTHLY" => {
            if rng.chance(50) {
                parts.push(format!(
                    "BYMONTHDAY={}",
                    list(rng, 3, |r| signed(r, 28).to_string())
                ));
            } else if rng.chance(50) {
                parts.push(format!(
                    "BYDAY={}",
                    list(rng, 2, |r| format!("{}{}", signed(r, 4), r.pick(&DAYS)))
                ));
            } else {
                parts.push(format!("BYDAY={}", plain_days(rng)));
            }
            if rng.chance(20) {
                parts.push(format!(
                    "BYMONTH={}",
                    list(rng, 4, |r| r.range(1, 12).to_string())
                ));
            }
        }
        _ => match rng.below(5) {
            0 => {
                parts.push(format!(
                    "BYMONTH={}",
                    list(rng, 3, |r| r.range(1, 12).to_string())
                ));
                parts.push(format!(
                    "BYMONTHDAY={}",
                    list(rng, 2, |r| signed(r, 28).to_string())
                ));
            }
            1 => {
                parts.push(format!(
                    "BYMONTH={}",
                    list(rng, 2, |r| r.range(1, 12).to_string())
                ));
                parts.push(format!(
                    "BYDAY={}",
                    list(rng, 2, |r| format!("{}{}", signed(r, 4), r.pick(&DAYS)))
                ));
            }
            2 => parts.push(format!(
                "BYDAY={}",
                list(rng, 2, |r| format!("{}{}", signed(r, 52), r.pick(&DAYS)))
            )),
            3 => parts.push(format!(
                "BYYEARDAY={}",
                list(rng, 3, |r| signed(r, 365).to_string())
            )),
            _ => {
                parts.push(format!(
                    "BYWEEKNO={}",
                    list(rng, 2, |r| signed(r, 52).to_string())
                ));
                parts.push(format!("BYDAY={}", plain_days(rng)));
                parts.push(format!("WKST={}", rng.pick(&DAYS)));
            }
        },
    }
    if freq != "YEARLY" && rng.chance(15) {
        parts.push(format!("WKST={}", rng.pick(&DAYS)));
    }
    if rng.chance(20) {
        parts.push(format!(
            "BYSETPOS={}",
            list(rng, 2, |r| signed(r, 3).to_string())
        ));
    }
    parts.join(";")
}

/// The next 10 window starts ≥ `t` (within 60 years), or `None` when there are fewer.
fn nodecast_starts(rule: &str, t: i64, start: i64) -> Option<Vec<i64>> {
    let rec = rrule::parse(rule).0?;
    let first_day = (t - start + DAY - 1).div_euclid(DAY);
    let dates = rec.dates(first_day, first_day + 60 * 366);
    (dates.len() >= 10).then(|| dates[..10].iter().map(|d| d * DAY + start).collect())
}

fn python() -> String {
    std::env::var("NODECAST_PYTHON").unwrap_or_else(|_| "python3".into())
}

fn oracle_available() -> Result<(), String> {
    let out = Command::new(python())
        .args(["-c", "import dateutil.rrule"])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python()))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{} has no python-dateutil: {}",
            python(),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

#[test]
fn next_ten_window_starts_match_python_dateutil() {
    if let Err(why) = oracle_available() {
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("the differential oracle is required in CI: {why} (run `python3 -m pip install python-dateutil`)");
        }
        eprintln!("SKIPPED next_ten_window_starts_match_python_dateutil: {why}");
        return;
    }
    let mut rng = Rng(0x5eed_2026_1121_0001);
    let mut cases: Vec<(String, i64, i64, Vec<i64>)> = Vec::new();
    let mut sparse = 0;
    let mut attempts = 0;
    while cases.len() < 1200 {
        attempts += 1;
        assert!(attempts < 20_000, "the generator makes too few valid rules");
        let rule = random_rule(&mut rng);
        let t = rng.range(0, 65 * 365) * DAY + rng.range(0, DAY - 1);
        let start = rng.range(0, 23) * 3600 + rng.range(0, 3) * 15 * 60;
        let (rec, findings) = rrule::parse(&rule);
        if rec.is_none() {
            // Only rules the generator should not make (e.g. BYSETPOS without a list) are invalid.
            assert!(
                findings.iter().any(|f| f.code.code == "W102"),
                "{rule}: {findings:?}"
            );
            continue;
        }
        match nodecast_starts(&rule, t, start) {
            Some(starts) => cases.push((rule, t, start, starts)),
            None => sparse += 1,
        }
    }
    assert!(
        sparse * 4 < attempts,
        "too many rules without 10 dates in 60 years ({sparse} of {attempts}): the engine may drop dates"
    );
    let input: String = cases
        .iter()
        .map(|(r, t, s, _)| format!("{r}|{t}|{s}\n"))
        .collect();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/oracle/rrule_starts.py");
    let mut child = Command::new(python())
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write rules");
    let out = child.wait_with_output().expect("python finishes");
    assert!(
        out.status.success(),
        "oracle failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = std::str::from_utf8(&out.stdout)
        .expect("utf8")
        .lines()
        .collect();
    assert_eq!(lines.len(), cases.len());
    let mut mismatches = Vec::new();
    for ((rule, t, start, ours), line) in cases.iter().zip(&lines) {
        let theirs: Vec<i64> = line
            .split_whitespace()
            .map(|s| s.parse().expect("number"))
            .collect();
        if &theirs != ours {
            mismatches.push(format!(
                "{rule} at {t} (start {start}s):\n  nodecast {ours:?}\n  dateutil {theirs:?}"
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} schedules differ:\n{}",
        mismatches.len(),
        cases.len(),
        mismatches[..mismatches.len().min(10)].join("\n")
    );
    eprintln!(
        "{} schedules agree with python-dateutil ({sparse} sparse rules skipped)",
        cases.len()
    );
}
