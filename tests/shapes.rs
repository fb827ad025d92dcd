//! The shape corpus (`testdata/shapes/<shape>/`): small repositories shaped like real GitOps
//! repositories (environment and version folders, Argo CD and ACM layouts, Kustomize overlays
//! with patches and components, generator placeholders, CI and tool configuration files). Each
//! shape is committed to a fresh Git repository and checked three ways with the real binary:
//!
//! 1. `lint.expected`: every finding of `check --no-base` on the whole tree. This is the noise
//!    regression test: a finding that is not listed there fails the test, so a rule that starts
//!    flagging what is not a problem is caught.
//! 2. A commit that only touches CI files and comments must pass: exit 0, no finding, no change.
//! 3. `change/` (when present): files written over the tree as a third commit; `change.expected`
//!    lists the exit code, every finding reported by default (only what the change introduces),
//!    the forecast and the unforecast objects.
//!
//! `NODECAST_BLESS=1` rewrites the expected files from the actual output (review the diff).

use crate::common;

use std::path::Path;

use common::{copy_tree, nodecast, project_root, require_kubectl, Repo};
use serde_json::Value;

/// One line per finding: code, severity, place and message.
fn findings(report: &Value) -> Vec<String> {
    report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            format!(
                "finding {} {} {}:{}:{} {}",
                d["code"].as_str().unwrap_or("?"),
                d["severity"].as_str().unwrap_or("?"),
                d["file"].as_str().unwrap_or("?"),
                d["line"],
                d["column"],
                d["message"].as_str().unwrap_or("?")
            )
        })
        .collect()
}

/// Exit code, findings, forecast entries and unforecast objects of a comparison.
fn outcome_lines(code: i32, report: &Value) -> Vec<String> {
    let mut lines = vec![format!("exit {code}")];
    lines.extend(findings(report));
    for f in report["forecast"].as_array().expect("forecast") {
        let t = &f["target"];
        lines.push(format!(
            "forecast {} {}/{}/{}",
            f["action"].as_str().unwrap_or("?"),
            t["kind"].as_str().unwrap_or("?"),
            t["namespace"].as_str().unwrap_or("-"),
            t["name"].as_str().unwrap_or("?")
        ));
    }
    for u in report["unforecast"].as_array().expect("unforecast") {
        lines.push(format!("unforecast {}", u.as_str().unwrap_or("?")));
    }
    lines
}

fn compare(shape: &Path, file: &str, actual: &[String]) -> Result<(), String> {
    let path = shape.join(file);
    let mut text = actual.join("\n");
    text.push('\n');
    if std::env::var_os("NODECAST_BLESS").is_some() {
        std::fs::write(&path, &text).map_err(|e| e.to_string())?;
        return Ok(());
    }
    let expected = std::fs::read_to_string(&path).map_err(|e| format!("{file}: {e}"))?;
    if expected != text {
        return Err(format!(
            "{file} differs\n--- expected\n{expected}--- actual\n{text}"
        ));
    }
    Ok(())
}

/// Appends a comment to every YAML file and edits a CI workflow: a commit with no manifest
/// change at all.
fn noise_commit(repo: &Repo) {
    for entry in walkdir::WalkDir::new(repo.path())
        .into_iter()
        .filter_entry(|e| e.file_name() != ".git")
        .filter_map(Result::ok)
    {
        let p = entry.path();
        let yaml = p.extension().is_some_and(|e| e == "yaml" || e == "yml");
        if entry.file_type().is_file() && yaml {
            let mut text = std::fs::read_to_string(p).expect("read");
            text.push_str("# reviewed in the quarterly audit\n");
            std::fs::write(p, text).expect("write");
        }
    }
    repo.write(
        ".github/workflows/noise.yaml",
        "on: [push]\njobs:\n  echo:\n    runs-on: ubuntu-latest\n    steps:\n    - run: echo ${{ github.sha }}\n",
    );
    repo.commit("ci and comments only");
}

fn check_shape(shape: &Path) -> Result<(), String> {
    if shape.join("needs-kubectl").is_file() && !require_kubectl(&shape.display().to_string()) {
        return Ok(());
    }
    let repo = Repo::new();
    copy_tree(&shape.join("repo"), repo.path());
    repo.commit("base");
    let mut failures = Vec::new();

    let lint = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]);
    if lint.code == 2 {
        return Err(format!("lint: exit 2: {}", lint.stderr));
    }
    let mut lines = vec![format!("exit {}", lint.code)];
    lines.extend(findings(&lint.json()));
    failures.extend(compare(shape, "lint.expected", &lines).err());

    noise_commit(&repo);
    let quiet = nodecast(
        repo.path(),
        &[
            "check", "--base", "HEAD^", "--head", "HEAD", "--format", "json",
        ],
    );
    let report = quiet.json();
    let changed: Vec<&Value> = report["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .collect();
    let lines = outcome_lines(quiet.code, &report);
    if lines != ["exit 0"] || !changed.is_empty() {
        failures.push(format!(
            "a commit of comments and CI files must pass silently; got {lines:?}, changes {changed:?}"
        ));
    }

    if shape.join("change").is_dir() {
        copy_tree(&shape.join("change"), repo.path());
        repo.commit("change");
        let run = nodecast(
            repo.path(),
            &[
                "check", "--base", "HEAD^", "--head", "HEAD", "--format", "json",
            ],
        );
        if run.code == 2 {
            return Err(format!("change: exit 2: {}", run.stderr));
        }
        let lines = outcome_lines(run.code, &run.json());
        failures.extend(compare(shape, "change.expected", &lines).err());
    }
    assert_eq!(
        repo.git(&["status", "--porcelain", "--ignored"]),
        "",
        "nothing is written to the repository"
    );
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

#[test]
fn every_shape_reports_exactly_its_expected_findings_and_a_noise_commit_passes() {
    let root = project_root().join("testdata/shapes");
    let shapes = common::case_dirs(&root);
    assert!(
        shapes.len() >= 12,
        "the corpus holds every shape of the QUIET table"
    );
    let failures: Vec<String> = shapes
        .iter()
        .filter_map(|s| {
            check_shape(s)
                .err()
                .map(|e| format!("{}: {e}", s.display()))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
