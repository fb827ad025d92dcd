//! MachineConfigPool forecast scenarios (`testdata/mco/<case>/`): before/ and after/ trees run
//! through the real binary; `expected.txt` lists every forecast entry (action, drain, nodes,
//! when, cause positions) and every finding, exactly, in report order. Cases hold only what
//! differs from the shared files of `testdata/mco/_base/` (built by `common::fixture`).
//!
//! The cases are the oracle tables of mco-disruption.md section 12 plus the scenarios of the MCO
//! issue (two clusters, inherited worker configs, moved and renamed MachineConfigs, Ignition
//! version bumps). `NODECAST_BLESS=1` rewrites `expected.txt` from the actual output (review
//! the diff before committing).

use crate::common;

use std::path::Path;

use common::fixture::{cases, materialise};
use common::{nodecast, project_root};
use serde_json::Value;

fn run_case(case: &Path, extra: &[&str]) -> (i32, Value, String) {
    let tmp = tempfile::tempdir().expect("tempdir");
    materialise(case, tmp.path());
    // Scenario trees hold only the fields that decide a rollout: schema validation (SCH, tested
    // by its own suites and fixtures) is off here.
    let mut args: Vec<String> = vec![
        "check".into(),
        "--base-dir".into(),
        "before".into(),
        "after".into(),
        "--no-schema".into(),
    ];
    if let Ok(a) = std::fs::read_to_string(tmp.path().join("args")) {
        args.extend(a.split_whitespace().map(str::to_string));
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = nodecast(tmp.path(), &argv);
    let json = if extra.contains(&"json") {
        run.json()
    } else {
        Value::Null
    };
    (run.code, json, run.stdout)
}

/// One line per forecast entry and per finding.
fn lines(r: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for f in r["forecast"].as_array().expect("forecast") {
        let causes: Vec<String> = f["causes"]
            .as_array()
            .expect("causes")
            .iter()
            .map(|c| {
                format!(
                    "{}:{}:{}",
                    c["file"].as_str().unwrap_or("?"),
                    c["line"],
                    c["column"]
                )
            })
            .collect();
        out.push(format!(
            "pool {}/{} {} drain={} nodes={} when={} causes={}",
            f["target"]["cluster"].as_str().unwrap_or("?"),
            f["target"]["name"].as_str().unwrap_or("?"),
            f["action"].as_str().unwrap_or("?"),
            f["drain"],
            f["nodes"],
            f["when"]["state"].as_str().unwrap_or("?"),
            causes.join(",")
        ));
    }
    for id in r["unforecast"].as_array().expect("unforecast") {
        out.push(format!("unforecast {}", id.as_str().unwrap_or("?")));
    }
    out.extend(common::diag_lines(r));
    out
}

#[test]
fn every_mco_scenario_forecasts_exactly_what_it_expects() {
    let root = project_root().join("testdata/mco");
    let dirs = cases(&root);
    assert!(dirs.len() >= 40, "the oracle scenarios are there");
    let bless = std::env::var_os("NODECAST_BLESS").is_some();
    let mut failures = Vec::new();
    for d in &dirs {
        let (code, r, _) = run_case(d, &["--format", "json"]);
        let actual = lines(&r);
        let file = d.join("expected.txt");
        if bless {
            std::fs::write(&file, actual.join("\n") + "\n").expect("write expected");
            continue;
        }
        let expected: Vec<String> = std::fs::read_to_string(&file)
            .unwrap_or_default()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect();
        if actual != expected {
            failures.push(format!(
                "{}:\n  expected:\n    {}\n  actual:\n    {}",
                d.display(),
                expected.join("\n    "),
                actual.join("\n    ")
            ));
        }
        let has_error = actual.iter().any(|l| l.split(' ').nth(1) == Some("error"));
        if code != i32::from(has_error) {
            failures.push(format!("{}: exit code {code}", d.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn case(name: &str) -> std::path::PathBuf {
    project_root().join("testdata/mco").join(name)
}

#[test]
fn causes_name_the_path_and_the_policy_entry() {
    let (_, r, _) = run_case(&case("l11-policy-json"), &["--format", "json"]);
    assert_eq!(
        r["forecast"][0]["causes"][0]["summary"],
        "file /etc/containers/policy.json changed → Reload crio.service (default policy /etc/containers/policy.json)"
    );
    let (_, r, _) = run_case(&case("policy-nested-directories"), &["--format", "json"]);
    assert_eq!(
        r["forecast"][0]["causes"][0]["summary"],
        "file /etc/mco/f1/f2/f3/file changed → Reload crio.service (MachineConfiguration/cluster policy /etc/mco/f1/f2)"
    );
    let (_, r, _) = run_case(&case("gen-itms-added"), &["--format", "json"]);
    let summary = r["forecast"][0]["causes"][0]["summary"]
        .as_str()
        .unwrap_or_default();
    assert!(summary.contains("drain: registry `registry.access.redhat.com/ubi9` added with mirror `mirror.example.com/ubi9` that is not digest-only"), "{summary}");
}

#[test]
fn rollout_shape_and_paused_pools() {
    let (_, r, _) = run_case(&case("mixed"), &["--format", "json"]);
    let by_name = |n: &str| {
        r["forecast"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["target"]["name"] == n)
            .cloned()
            .unwrap_or(Value::Null)
    };
    let worker = by_name("worker");
    assert_eq!(worker["rollout"]["max_unavailable"], 2);
    assert_eq!(worker["rollout"]["waves"], 5);
    assert_eq!(
        worker["rollout"]["summary"],
        "10 nodes, 2 at a time: 5 waves"
    );
    let gpu = by_name("gpu");
    assert_eq!(gpu["when"]["state"], "paused");
    assert_eq!(gpu["when"]["at"], Value::Null);
    let (_, r, _) = run_case(&case("l01-unknown-file"), &["--format", "json"]);
    assert_eq!(r["forecast"][0]["nodes"], Value::Null);
    assert_eq!(
        r["forecast"][0]["rollout"]["summary"],
        "all nodes in pool, 1 at a time"
    );
}

#[test]
fn mixed_change_human_output() {
    let (code, _, stdout) = run_case(&case("mixed"), &[]);
    assert_eq!(code, 0);
    insta::assert_snapshot!(stdout);
}

/// testdata/demo/README.md, change 4 and 5: pools `worker` and `infra` of `standalone/ocp-lab`
/// reboot for the added kernel argument; `master` and the moved KubeletConfig give no entry.
#[test]
fn demo_standalone_forecast_matches_its_readme() {
    let (code, r, _) = run_case(&project_root().join("testdata/demo"), &["--format", "json"]);
    // The demo's one error (S106: infra pins a stream the cluster does not offer) ⇒ exit 1.
    assert_eq!(code, 1);
    let pools: Vec<&Value> = r["forecast"]
        .as_array()
        .expect("forecast")
        .iter()
        .filter(|f| f["target"]["kind"] == "MachineConfigPool")
        .collect();
    let names: Vec<&str> = pools
        .iter()
        .map(|f| f["target"]["name"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(names, vec!["infra", "worker"]);
    for f in pools {
        assert_eq!(f["target"]["cluster"], "standalone/ocp-lab");
        assert_eq!(f["target"]["namespace"], Value::Null);
        assert_eq!(f["action"], "reboot");
        assert_eq!(f["drain"], true);
        assert_eq!(f["nodes"], Value::Null);
        assert_eq!(f["when"]["state"], "now");
        let causes = f["causes"].as_array().expect("causes");
        // infra also pins a new OS stream (change 7): a second reboot cause.
        let expected = if f["target"]["name"] == "infra" { 2 } else { 1 };
        assert_eq!(causes.len(), expected, "{causes:?}");
        if expected == 2 {
            assert_eq!(causes[1]["object"], "MachineConfigPool/infra");
            assert_eq!(
                (causes[1]["line"].as_u64(), causes[1]["column"].as_u64()),
                (Some(51), Some(5))
            );
        }
        let c = &causes[0];
        assert_eq!(c["object"], "MachineConfig/50-worker-kernel-args");
        assert_eq!(c["field"], "/spec/kernelArguments");
        assert_eq!(
            c["file"],
            "standalone/ocp-lab/machineconfigs/50-worker-kernel-args.yaml"
        );
        assert_eq!(
            (c["line"].as_u64(), c["column"].as_u64()),
            (Some(16), Some(5))
        );
        assert!(c["summary"]
            .as_str()
            .unwrap_or_default()
            .starts_with("kernel argument psi=1 added"));
    }
    let unforecast: Vec<&str> = r["unforecast"]
        .as_array()
        .expect("unforecast")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        !unforecast
            .iter()
            .any(|u| u.starts_with("MachineConfig") || u.starts_with("KubeletConfig")),
        "{unforecast:?}"
    );
}

/// The worker pool of a standalone cluster, a quarter of its nodes at a time.
const WORKER_POOL: &str = "apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfigPool
metadata:
  name: worker
spec:
  maxUnavailable: 25%
  machineConfigSelector:
    matchLabels:
      machineconfiguration.openshift.io/role: worker
";

/// In a real Git repository, clusters are named by their folder relative to the repository root,
/// also when nodecast runs on a subfolder, and a pool's name may be qualified by its cluster in
/// `--assume-nodes`.
#[test]
fn git_repository_with_two_clusters() {
    let repo = common::Repo::new();
    let mc = |kargs: &str| {
        format!(
            "apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: 50-worker-kargs
  labels:
    machineconfiguration.openshift.io/role: worker
spec:
  kernelArguments:
{kargs}"
        )
    };
    let pool = WORKER_POOL;
    for c in ["clusters/prod", "clusters/stage"] {
        repo.write(&format!("{c}/pools.yaml"), pool);
        repo.write(&format!("{c}/mc/kargs.yaml"), &mc("  - audit=1\n"));
    }
    repo.commit("base");
    repo.write(
        "clusters/prod/mc/kargs.yaml",
        &mc("  - audit=1\n  - psi=1\n"),
    );
    repo.commit("prod: psi");
    let run = nodecast(
        &repo.path().join("clusters"),
        &[
            "check",
            ".",
            "--base",
            "HEAD^",
            "--head",
            "HEAD",
            "--assume-nodes",
            "clusters/prod/worker=8",
            "--assume-nodes",
            "worker=100",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = run.json();
    let lines = lines(&r);
    assert_eq!(
        lines,
        vec!["pool clusters/prod/worker reboot drain=true nodes=8 when=now causes=clusters/prod/mc/kargs.yaml:10:5"]
    );
    assert_eq!(
        r["forecast"][0]["rollout"]["summary"],
        "8 nodes, 2 at a time: 4 waves"
    );
}

/// Kubernetes (go-yaml) reads a flow list whose closing bracket sits under its key, inside a
/// list item (`- name: …` / `args: [` … `]`), and so does nodecast: the MachineConfig is read,
/// the changed argument reboots its pool at its exact line, and no syntax error is reported.
#[test]
fn a_flow_list_closed_under_its_key_is_read_as_kubernetes_reads_it() {
    let repo = common::Repo::new();
    let mc = |kargs: &str| {
        format!(
            "apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: 50-worker-kargs
  labels:
    machineconfiguration.openshift.io/role: worker
spec:
  config:
    ignition:
      version: 3.2.0
    storage:
      files:
        - path: /etc/motd
          mode: 420
          contents: {{ source: 'data:,hello',
            compression: '' }}
  kernelArguments: [
    \"audit=1\", # kept
{kargs}  ]
"
        )
    };
    repo.write("cluster/pools.yaml", WORKER_POOL);
    repo.write("cluster/mc/kargs.yaml", &mc(""));
    repo.commit("base");
    repo.write("cluster/mc/kargs.yaml", &mc("    \"psi=1\",\n"));
    repo.commit("psi");
    let run = nodecast(
        repo.path(),
        &["check", "--base", "HEAD^", "--all", "--format", "json"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = run.json();
    assert_eq!(
        lines(&r),
        vec!["pool cluster/worker reboot drain=true nodes=null when=now causes=cluster/mc/kargs.yaml:19:5"]
    );
    assert_eq!(r["diagnostics"], serde_json::json!([]));
}

/// An ACM hub template in a plain value (`nosmt={{hub … hub}}`) is the policy framework's, not a
/// Helm template (Helm has no `hub` function): the MachineConfig is read, and a changed
/// template is a changed kernel argument — the pool reboots, at the argument's line — never
/// "no node impact" (before, the whole document was unread and both built-in pools unknown).
#[test]
fn a_changed_hub_template_in_a_kernel_argument_reboots_the_pool() {
    let repo = common::Repo::new();
    let mc = |key: &str| {
        format!(
            "apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: 50-worker-smt
  labels:
    machineconfiguration.openshift.io/role: worker
spec:
  kernelArguments:
    - nosmt={{{{hub fromConfigMap \"\" \"smt\" \"{key}\" hub}}}}
"
        )
    };
    repo.write("cluster/pools.yaml", WORKER_POOL);
    repo.write("cluster/mc/smt.yaml", &mc("a"));
    repo.commit("base");
    repo.write("cluster/mc/smt.yaml", &mc("b"));
    repo.commit("another key");
    let run = nodecast(
        repo.path(),
        &["check", "--base", "HEAD^", "--format", "json"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = run.json();
    assert_eq!(
        lines(&r),
        vec![
            "pool cluster/worker reboot drain=true nodes=null when=now causes=cluster/mc/smt.yaml:9:7,cluster/mc/smt.yaml:9:7",
            "R104 info cluster/mc/smt.yaml:9:5"
        ]
    );
}
