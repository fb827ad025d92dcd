//! Validation of both schemas on one tree (`testdata/schedule/validation`), through the real
//! binary: every finding with its exact position, including RRULE parts behind YAML escapes.

mod common;

use std::path::Path;

use common::{diag_lines, nodecast, project_root};

fn copy(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from)
        .into_iter()
        .filter_map(Result::ok)
    {
        let dest = to.join(entry.path().strip_prefix(from).expect("below"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &dest).expect("copy");
        }
    }
}

fn tree() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    copy(
        &project_root().join("testdata/schedule/validation"),
        tmp.path(),
    );
    tmp
}

#[test]
fn both_schemas_are_validated_at_exact_positions() {
    let tmp = tree();
    let run = nodecast(
        tmp.path(),
        &[
            "check",
            "--no-base",
            "after",
            "--now",
            "2026-11-21T12:00:00Z",
            // The tree's HostedCluster is a stub for the stanza; its schema is not the point.
            "--no-schema",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = run.json();
    assert_eq!(
        diag_lines(&report),
        vec![
            "W101 info cluster-policies.yaml:3:7",
            "W114 info cluster-policies.yaml:5:9",
            "W110 error cluster-policies.yaml:6:14",
            "W110 error cluster-policies.yaml:20:3",
            "W114 info cluster-policies.yaml:20:9",
            "W102 error cluster-policies.yaml:25:46",
            "W102 error cluster-policies.yaml:40:43",
            "W114 info hosted-policies.yaml:4:9",
            "W110 error hosted-policies.yaml:12:9",
            "W110 error hosted-policies.yaml:16:21",
            "W109 warning hosted-policies.yaml:28:9",
            "W104 warning hosted-policies.yaml:33:29",
            "W114 info hosted-policies.yaml:41:9",
            "W110 error hosted-policies.yaml:54:15",
            "W114 info hosted-policies.yaml:59:9",
            "W108 error hosted-policies.yaml:66:9",
            "W104 error hosted-policies.yaml:71:28",
            "W104 error hosted-policies.yaml:71:32",
            "W114 info hosted-policies.yaml:76:9",
            "W110 error hosted-policies.yaml:77:14",
            "W111 error pools.yaml:8:5",
            "W111 warning pools.yaml:15:3",
            "W111 error pools.yaml:26:15",
            "W111 error pools.yaml:27:23",
            "W113 error pools.yaml:29:13",
            "W111 error pools.yaml:37:18",
            "W111 error pools.yaml:38:20",
            "W111 warning pools.yaml:39:5",
            "W114 info straddle.yaml:5:9",
            "W109 warning straddle.yaml:11:19",
            "W107 warning straddle.yaml:15:5",
        ]
    );
    let message = |line: &str| {
        report["diagnostics"]
            .as_array()
            .expect("array")
            .iter()
            .find(|d| {
                format!(
                    "{}:{}:{}",
                    d["file"].as_str().unwrap_or(""),
                    d["line"],
                    d["column"]
                ) == line
            })
            .map(|d| {
                (
                    d["message"].as_str().unwrap_or("").to_string(),
                    d["help"].as_str().unwrap_or("").to_string(),
                )
            })
            .unwrap_or_default()
    };
    // Behind the `\u0041` escape, COUNT is five columns further right than in the decoded text.
    assert_eq!(
        message("cluster-policies.yaml:25:46").0,
        "`COUNT` would end the schedule; a maintenance schedule must not end"
    );
    assert!(message("hosted-policies.yaml:54:15")
        .1
        .contains("`weekOfMonth` (First…Fifth, Last) and `dayOfWeek`"));
    assert_eq!(
        message("pools.yaml:37:18").0,
        "`pausedUntil` is not an RFC 3339 date-time (a zone such as `Z` is required)"
    );
    assert_eq!(message("pools.yaml:39:5").1, "did you mean `policy`?");
}

#[test]
fn the_schedule_command_evaluates_structured_recurrences() {
    let tmp = tree();
    let run = nodecast(
        tmp.path(),
        &["schedule", "after", "--now", "2026-11-21T12:00:00Z"],
    );
    assert_eq!(run.code, 1, "errors in the tree: {}", run.stderr);
    let block: String = run
        .stdout
        .split("\n\n")
        .find(|b| b.starts_with("HostedChangeManagementPolicy/clusters/monthly"))
        .expect("the monthly policy")
        .lines()
        .skip(1)
        .take(6)
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(
        block,
        "  next 5 window(s):
    Sat 2026-11-28 01:00 UTC → Sat 2026-11-28 09:00 UTC  (8h)
    Sat 2026-12-26 01:00 UTC → Sat 2026-12-26 09:00 UTC  (8h)
    Fri 2027-01-29 01:00 UTC → Fri 2027-01-29 09:00 UTC  (8h)
    Sat 2027-01-30 01:00 UTC → Sat 2027-01-30 09:00 UTC  (8h)
    Sat 2027-02-27 01:00 UTC → Sat 2027-02-27 09:00 UTC  (8h)
",
        "last Saturdays, and the one fifth Friday (January 2027)"
    );
    assert!(run.stdout.contains("HostedCluster/clusters/prod  (hc.yaml:9): window Sat 2026-11-28 01:00 UTC — next window of policy monthly opens Sat 2026-11-28 01:00 UTC (8h long)"), "{}", run.stdout);
}
