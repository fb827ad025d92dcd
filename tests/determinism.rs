//! Identical inputs give byte-identical reports in every format (issue 15, part 5): the demo
//! (Kustomize overlays, HyperShift and standalone clusters, findings of every severity) and a Git
//! repository are each checked twice per format, with no `--now`, and compared byte for byte —
//! stdout, the files written with `--output-*`, and the GitHub step summary and outputs.

use crate::common;

use common::{copy_tree, nodecast_env, project_root, Repo};

/// Everything one run writes.
fn run_all(cwd: &std::path::Path, args: &[&str], format: &str) -> Vec<(String, String)> {
    let out_dir = tempfile::tempdir().expect("tmp");
    let summary = out_dir.path().join("summary.md");
    let outputs = out_dir.path().join("outputs.txt");
    std::fs::write(&summary, "").expect("write");
    std::fs::write(&outputs, "").expect("write");
    let sarif = out_dir.path().join("r.sarif");
    let json = out_dir.path().join("r.json");
    let md = out_dir.path().join("r.md");
    let mut argv: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    argv.extend(
        [
            "--format",
            format,
            "--output-sarif",
            &sarif.display().to_string(),
            "--output-json",
            &json.display().to_string(),
            "--output-markdown",
            &md.display().to_string(),
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
    let mut env = vec![];
    let (summary_s, outputs_s) = (summary.display().to_string(), outputs.display().to_string());
    if format == "github" {
        env.push(("GITHUB_STEP_SUMMARY", summary_s.as_str()));
        env.push(("GITHUB_OUTPUT", outputs_s.as_str()));
    }
    let run = nodecast_env(cwd, &argv, &env);
    assert_ne!(run.code, 2, "{format}: {}", run.stderr);
    let read = |p: &std::path::Path| std::fs::read_to_string(p).unwrap_or_default();
    vec![
        ("stdout".into(), run.stdout),
        ("stderr".into(), run.stderr),
        ("sarif".into(), read(&sarif)),
        ("json".into(), read(&json)),
        ("markdown".into(), read(&md)),
        ("step summary".into(), read(&summary)),
        ("outputs".into(), read(&outputs)),
    ]
}

/// A report with what the wall clock decides taken out: while a policy's window is open, the time
/// left in it ("8h8m43s left") and the open window's start (now) change every second, and a
/// loaded machine (CI runs the suites in parallel) seldom runs two checks within one. Lines are
/// joined, since a longer duration can wrap a human line elsewhere.
fn timeless(text: &str) -> String {
    let durations = regex::Regex::new(r"\b(\d+d)?(\d+h)?(\d+m)?\d+s\b").expect("pattern");
    let instants = regex::Regex::new(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ").expect("pattern");
    let text = durations.replace_all(text, "<duration>");
    let text = instants.replace_all(&text, "<instant>");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn twice_identical(cwd: &std::path::Path, args: &[&str]) {
    for format in ["human", "json", "sarif", "github", "markdown"] {
        // Without `--now` the wall clock is an input: the demo's weekend window, while open,
        // says how long it stays open to the second, so two runs may straddle a second. A pair
        // that differs is tried again, and compared at last without the clock's values
        // ([`timeless`]): anything else that varies between runs (an order, a thread's timing)
        // still makes every pair differ.
        let mut attempts = 0;
        let (a, b) = loop {
            let a = run_all(cwd, args, format);
            let b = run_all(cwd, args, format);
            attempts += 1;
            if a == b || attempts == 3 {
                break (a, b);
            }
        };
        for ((what, x), (_, y)) in a.iter().zip(&b) {
            assert!(
                x == y || timeless(x) == timeless(y),
                "{format} {what} differs between two runs, three times, beyond the clock:\n{}\n---\n{}",
                timeless(x),
                timeless(y)
            );
        }
        let json = &a[3].1;
        let r: serde_json::Value = serde_json::from_str(json).expect("json report");
        assert!(r["now"].is_null(), "the wall clock is not printed");
        assert!(!r["diagnostics"].as_array().expect("diags").is_empty());
    }
}

#[test]
fn the_demo_gives_identical_reports_twice_in_every_format() {
    let tmp = tempfile::tempdir().expect("tmp");
    copy_tree(&project_root().join("testdata/demo"), tmp.path());
    twice_identical(
        tmp.path(),
        &["check", "--base-dir", "before", "after", "--color", "never"],
    );
}

#[test]
fn a_git_repository_gives_identical_reports_twice_in_every_format() {
    let repo = Repo::new();
    let demo = project_root().join("testdata/demo");
    copy_tree(&demo.join("before"), repo.path());
    repo.commit("before");
    std::fs::remove_dir_all(repo.path().join("hosted")).ok();
    std::fs::remove_dir_all(repo.path().join("standalone")).ok();
    copy_tree(&demo.join("after"), repo.path());
    repo.commit("after");
    twice_identical(repo.path(), &["check", "--base", "HEAD^", "--head", "HEAD"]);
}

#[test]
fn a_given_now_is_printed() {
    let tmp = tempfile::tempdir().expect("tmp");
    copy_tree(&project_root().join("testdata/demo"), tmp.path());
    let run = nodecast_env(
        tmp.path(),
        &[
            "check",
            "--base-dir",
            "before",
            "after",
            "--format",
            "json",
            "--now",
            "2026-11-21T02:00:00Z",
        ],
        &[],
    );
    let r = run.json();
    assert_eq!(r["now"], "2026-11-21T02:00:00Z");
}
