//! Rule fixtures (`testdata/rules/<CODE>/`) and the bundled demo, run through the real binary.

use crate::common;

use std::path::Path;

use common::fixture::{cases, materialise};
use common::{copy_tree, diag_lines, nodecast, project_root};

/// Runs one fixture and compares its findings with `expected.txt` (exactly, in report order).
///
/// The fixture is built out of this repository first (`common::fixture`: the folders its `_from`
/// files name, then its own files), so its paths are relative to `after/` (inside the project's
/// own Git repository they would be repository-relative).
fn check_fixture(fixture: &Path) -> Result<(), String> {
    // Fixtures that render overlays need kubectl (a `needs-kubectl` marker file says so).
    if fixture.join("needs-kubectl").is_file()
        && !common::require_kubectl(&fixture.display().to_string())
    {
        return Ok(());
    }
    let tmp = tempfile::tempdir().map_err(|e| e.to_string())?;
    materialise(fixture, tmp.path());
    let dir = tmp.path();
    let mut args: Vec<String> = vec!["check".into()];
    if dir.join("before").is_dir() {
        args.extend(["--base-dir".into(), "before".into(), "after".into()]);
    } else {
        args.extend(["--no-base".into(), "after".into()]);
    }
    if let Ok(extra) = std::fs::read_to_string(dir.join("args")) {
        args.extend(extra.split_whitespace().map(str::to_string));
    }
    // A fixture shows one rule on the smallest manifests that trigger it; schema validation has
    // its own fixtures (V1xx), so the others run without it.
    let code = fixture
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    if !code.starts_with('V') {
        args.push("--no-schema".into());
    }
    args.extend(["--format".into(), "json".into()]);
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = nodecast(dir, &argv);
    if run.code == 2 {
        return Err(format!("exit 2: {}", run.stderr));
    }
    let actual = diag_lines(&run.json());
    let expected: Vec<String> = std::fs::read_to_string(fixture.join("expected.txt"))
        .map_err(|e| format!("expected.txt: {e}"))?
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    if actual != expected {
        return Err(format!(
            "expected:\n  {}\nactual:\n  {}",
            expected.join("\n  "),
            actual.join("\n  ")
        ));
    }
    let has_error = actual.iter().any(|l| l.split(' ').nth(1) == Some("error"));
    if run.code != i32::from(has_error) {
        return Err(format!("exit code {} with findings {actual:?}", run.code));
    }
    Ok(())
}

#[test]
fn every_rule_fixture_reports_exactly_what_it_expects() {
    let root = project_root().join("testdata/rules");
    let dirs = cases(&root);
    assert!(dirs.len() >= 16, "a fixture per rule");
    let failures: Vec<String> = dirs
        .iter()
        .filter_map(|d| {
            check_fixture(d)
                .err()
                .map(|e| format!("{}: {e}", d.display()))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_rule_has_a_fixture() {
    let run = nodecast(&project_root(), &["rules"]);
    for line in run.stdout.lines() {
        let code = line.split_whitespace().next().unwrap_or_default();
        // Y009 needs an unreadable file, which a checked-in fixture cannot be: see
        // `cli.rs::missing_git_objects_are_reported_not_hidden`.
        if code == "Y009" {
            continue;
        }
        // W118/W119 judge forecast entries, which need a forecast model (HyperShift/MCO) to produce
        // them from a fixture: `schedule_scenarios.rs` tests them with hand-built entries.
        if code == "W118" || code == "W119" {
            continue;
        }
        assert!(
            project_root()
                .join("testdata/rules")
                .join(code)
                .join("expected.txt")
                .is_file(),
            "testdata/rules/{code}/expected.txt is missing"
        );
    }
}

/// A Wednesday: outside the demo's weekend maintenance window.
const DEMO_NOW: &str = "2026-11-18T10:00:00Z";

#[test]
fn demo_reports_its_changes_and_one_error() {
    // The demo's hosted clusters are a Kustomize root.
    if !common::require_kubectl("demo_reports_its_changes_and_one_error") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&project_root().join("testdata/demo"), tmp.path());
    let demo = tmp.path();
    let run = nodecast(
        demo,
        &[
            "check",
            "--base-dir",
            "before",
            "after",
            "--format",
            "json",
            "--now",
            DEMO_NOW,
        ],
    );
    // One error (the stream the infra pool pins is not offered) ⇒ exit 1, never 2.
    assert_eq!(run.code, 1, "{}", run.stderr);
    let r = run.json();
    assert_eq!(
        diag_lines(&r),
        vec![
            "W101 info hosted/clusters/change-policy.yaml:2:7",
            "Y003 warning hosted/clusters/hostedcluster.yaml:9:33",
            "S106 error standalone/ocp-lab/machineconfigpools.yaml:51:11",
            "S110 warning standalone/ocp-lab/machineconfiguration.yaml:11:7",
        ]
    );
    // The workers' replace waits for the weekend window of their policy; the rest starts now.
    let when: Vec<(String, String, String)> = r["forecast"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["target"]["name"].as_str().unwrap().to_string(),
                f["when"]["state"].as_str().unwrap().to_string(),
                f["when"]["at"].as_str().unwrap_or("-").to_string(),
            )
        })
        .collect();
    let w = |n: &str, s: &str, a: &str| (n.to_string(), s.to_string(), a.to_string());
    assert_eq!(
        when,
        vec![
            w("prod-east-workers", "window", "2026-11-21T02:00:00Z"),
            w("prod-east-infra", "now", "-"),
            w("infra", "now", "-"),
            w("worker", "now", "-"),
        ]
    );
    let mut objects: Vec<(String, String)> = r["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["object"].as_str().unwrap().to_string(),
                c["change"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    objects.sort();
    let expect = |o: &str| (o.to_string(), "changed".to_string());
    assert_eq!(
        objects,
        vec![
            expect("ConfigMap/clusters/worker-tuning-mc"),
            expect("HostedCluster/clusters/prod-east"),
            expect("MachineConfig/50-worker-kernel-args"),
            expect("MachineConfigPool/infra"),
            (
                "MachineConfiguration/cluster".to_string(),
                "added".to_string()
            ),
            expect("NodePool/clusters/prod-east-infra"),
            expect("NodePool/clusters/prod-east-workers"),
        ]
    );
    // A wide terminal: the line is not wrapped.
    let human = common::nodecast_env(
        demo,
        &["check", "--base-dir", "before", "after", "--now", DEMO_NOW],
        &[("COLUMNS", "300")],
    )
    .stdout;
    assert!(human.contains("moved standalone/ocp-lab/kubelet.yaml → standalone/ocp-lab/kubeletconfig-infra.yaml (unchanged)"), "{human}");
}

#[test]
fn demo_human_output() {
    if !common::require_kubectl("demo_human_output") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&project_root().join("testdata/demo"), tmp.path());
    let run = nodecast(
        tmp.path(),
        &["check", "--base-dir", "before", "after", "--now", DEMO_NOW],
    );
    assert_eq!(run.code, 1, "the demo has one error (S106)");
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn the_readme_sample_is_the_demo_output() {
    if !common::require_kubectl("the_readme_sample_is_the_demo_output") {
        return;
    }
    let readme = std::fs::read_to_string(project_root().join("README.md")).expect("README");
    let start = readme
        .find("<!-- demo-output:start -->\n```text\n")
        .expect("the README shows the demo output")
        + "<!-- demo-output:start -->\n```text\n".len();
    let end = start
        + readme[start..]
            .find("```\n<!-- demo-output:end -->")
            .expect("end");
    let tmp = tempfile::tempdir().expect("tmp");
    copy_tree(&project_root().join("testdata/demo"), tmp.path());
    let run = nodecast(
        tmp.path(),
        &["check", "--base-dir", "before", "after", "--now", DEMO_NOW],
    );
    assert_eq!(
        &readme[start..end],
        run.stdout,
        "README sample and the demo differ"
    );
}
