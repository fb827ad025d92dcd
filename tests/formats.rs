//! The CI report formats other tools read: JUnit XML (GitLab and Jenkins test reports), checked
//! with a real JUnit parser (Python's `junitparser`, `NODECAST_PYTHON` may name the interpreter;
//! `.ci/run` installs it; under `CI=true` a missing parser fails the test), and GitLab Code
//! Quality JSON, checked against the fields GitLab documents as required.

use crate::common;

use std::process::Command;

use common::{nodecast, Repo};
use serde_json::Value;

fn python() -> String {
    std::env::var("NODECAST_PYTHON").unwrap_or_else(|_| "python3".into())
}

/// A repository whose last commit reboots the worker pool and adds one error and one warning;
/// the base already has one error (pre-existing).
fn repo() -> Repo {
    let repo = Repo::new();
    let mc = |karg: &str| {
        format!(
            "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 99-worker-kargs\n  labels:\n    machineconfiguration.openshift.io/role: worker\nspec:\n  kernelArguments:\n  - {karg}\n"
        )
    };
    repo.write("cluster/kargs.yaml", &mc("nosmt"));
    repo.write(
        "cluster/old.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: old\n  namespace: default\ndata:\n  enabled: yes\n",
    );
    repo.commit("base");
    repo.write("cluster/kargs.yaml", &mc("mitigations=off"));
    repo.write(
        "cluster/new.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: new\n  namespace: default\n  labels:\n    a: yes\ndata:\n  enabled: on\n",
    );
    repo.commit("head");
    repo
}

fn run(repo: &Repo, format: &str, extra: &[&str]) -> common::Run {
    let mut args = vec![
        "check", "--base", "HEAD^", "--head", "HEAD", "--format", format,
    ];
    args.extend(extra);
    let run = nodecast(repo.path(), &args);
    assert_eq!(run.code, 1, "{}", run.stderr);
    run
}

const READ_JUNIT: &str = r#"
import json, sys
from junitparser import JUnitXml, Failure, Skipped
xml = JUnitXml.fromfile(sys.argv[1])
out = []
for suite in xml:
    for case in suite:
        results = case.result
        kind = "passed"
        if any(isinstance(r, Failure) for r in results):
            kind = "failure:" + [r for r in results if isinstance(r, Failure)][0].type
        elif any(isinstance(r, Skipped) for r in results):
            kind = "skipped"
        out.append([suite.name, case.classname, case.name, kind])
print(json.dumps({"tests": xml.tests, "failures": xml.failures, "cases": out}))
"#;

#[test]
fn junit_is_read_by_a_real_junit_parser() {
    let probe = Command::new(python())
        .args(["-c", "import junitparser"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        assert!(
            std::env::var("CI").is_err(),
            "{} has no junitparser (install it: pip install junitparser)",
            python()
        );
        eprintln!("skipped: {} has no junitparser", python());
        return;
    }
    let repo = repo();
    let xml = run(&repo, "junit", &["--all"]).stdout;
    let file = repo.path().join("../report.xml");
    std::fs::write(&file, &xml).expect("write");
    let out = Command::new(python())
        .args(["-c", READ_JUNIT])
        .arg(&file)
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let parsed: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(
        parsed["cases"],
        serde_json::json!([
            // The repository holds no pool: the built-in worker pool, cluster "." (the root).
            [
                "forecast",
                "forecast..",
                "MachineConfigPool worker: reboot",
                "passed"
            ],
            [
                "findings",
                "findings.Y003",
                "Y003 cluster/new.yaml:7:8",
                "failure:warning"
            ],
            [
                "findings",
                "findings.V101",
                "V101 cluster/new.yaml:9:12",
                "failure:error"
            ],
            [
                "findings",
                "findings.V101",
                "V101 cluster/old.yaml:7:12",
                "skipped"
            ],
        ]),
        "{xml}"
    );
    assert_eq!(parsed["failures"], 2);
}

#[test]
fn gitlab_code_quality_has_every_field_gitlab_requires() {
    let repo = repo();
    let report: Value =
        serde_json::from_str(&run(&repo, "gitlab", &["--all"]).stdout).expect("json");
    // The fields GitLab's Code Quality documentation lists as required, with their types.
    let schema = serde_json::json!({
        "type": "array",
        "items": {
            "type": "object",
            "required": ["description", "check_name", "fingerprint", "severity", "location"],
            "properties": {
                "description": {"type": "string", "minLength": 1},
                "check_name": {"type": "string", "minLength": 1},
                "fingerprint": {"type": "string", "minLength": 1},
                "severity": {"enum": ["info", "minor", "major", "critical", "blocker"]},
                "location": {
                    "type": "object",
                    "required": ["path", "lines"],
                    "properties": {
                        "path": {"type": "string"},
                        "lines": {
                            "type": "object",
                            "required": ["begin"],
                            "properties": {"begin": {"type": "integer", "minimum": 1}}
                        }
                    }
                }
            }
        }
    });
    let validator = jsonschema::validator_for(&schema).expect("schema");
    let errors: Vec<String> = validator
        .iter_errors(&report)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let issues: Vec<(String, String, String, u64)> = report
        .as_array()
        .expect("array")
        .iter()
        .map(|i| {
            (
                i["check_name"].as_str().unwrap_or_default().to_string(),
                i["severity"].as_str().unwrap_or_default().to_string(),
                i["location"]["path"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                i["location"]["lines"]["begin"].as_u64().unwrap_or_default(),
            )
        })
        .collect();
    // Only what the change introduces: GitLab compares the two branches' reports itself.
    assert_eq!(
        issues,
        [
            ("Y003".into(), "minor".into(), "cluster/new.yaml".into(), 7),
            ("V101".into(), "major".into(), "cluster/new.yaml".into(), 9),
        ]
    );
    // Fingerprints are stable across runs and distinct.
    let again: Value = serde_json::from_str(&run(&repo, "gitlab", &[]).stdout).expect("json");
    assert_eq!(report[0]["fingerprint"], again[0]["fingerprint"]);
    assert_ne!(report[0]["fingerprint"], report[1]["fingerprint"]);
}
