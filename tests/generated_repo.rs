//! The benchmark generator's small repository runs through the real binary and exercises the
//! models: its second commit's NodePool changes are forecast exactly, nothing is left
//! unforecast, the Git side reads both commits, and a staged kernel argument in a standalone
//! cluster reboots exactly that cluster's pools.

use crate::common;

use common::{git_in, nodecast};
use serde_json::Value;

fn targets(report: &Value) -> Vec<(String, String, String)> {
    report["forecast"]
        .as_array()
        .expect("forecast")
        .iter()
        .map(|f| {
            (
                f["target"]["cluster"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                f["target"]["name"].as_str().unwrap_or_default().to_string(),
                f["action"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

#[test]
fn small_generated_repository_is_forecast_exactly() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("fleet");
    let stats = repogen::generate(repogen::Size::Small, 1, &dir).expect("generate");
    assert_eq!((stats.clusters, stats.documents), (10, 184));

    let run = nodecast(
        &dir,
        &[
            "check", "--base", "HEAD^", "--head", "HEAD", "--format", "json",
        ],
    );
    let report = run.json();
    let t = |c: &str, n: &str, a: &str| (c.to_string(), n.to_string(), a.to_string());
    assert_eq!(
        targets(&report),
        vec![
            t(
                "HostedCluster/clusters/hc-00003",
                "hc-00003-infra",
                "in-place"
            ),
            t(
                "HostedCluster/clusters/hc-00006",
                "hc-00006-workers",
                "none"
            ),
        ]
    );
    assert_eq!(report["unforecast"], serde_json::json!([]));
    // The generator writes what the API server accepts: a benchmark of findings nobody would
    // have is not a benchmark of a real repository.
    let schema_findings: Vec<&Value> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["code"].as_str().is_some_and(|c| c.starts_with('V')))
        .collect();
    assert!(schema_findings.is_empty(), "{schema_findings:#?}");
    assert_eq!(report["summary"]["objects"], 184);
    assert_eq!(report["compared"]["base"]["source"], "git");
    // No YAML problem anywhere in the generated files (every finding is about objects).
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert!(codes.iter().all(|c| !c.starts_with('Y')), "{codes:?}");
    // Noise regression: the whole fleet linted on its own has no finding at all (every object
    // is one the API server accepts, every duplicate name is in another cluster).
    let lint = nodecast(&dir, &["check", "--no-base", "--format", "json"]);
    assert_eq!(lint.code, 0, "{}", lint.stderr);
    assert_eq!(lint.json()["diagnostics"], serde_json::json!([]));
    // A commit of comments only changes nothing and passes silently.
    let np = "clusters/hosted/ap-south-1/hc-00001/nodepools.yaml";
    {
        let mut text = std::fs::read_to_string(dir.join(np)).expect("read");
        text.push_str("# reviewed\n");
        std::fs::write(dir.join(np), text).expect("write");
        git_in(&dir, &["commit", "-qam", "comment only"]);
        let quiet = nodecast(
            &dir,
            &[
                "check", "--base", "HEAD^", "--head", "HEAD", "--format", "json",
            ],
        );
        assert_eq!(quiet.code, 0, "{}", quiet.stderr);
        let r = quiet.json();
        assert_eq!(r["diagnostics"], serde_json::json!([]));
        assert_eq!(r["changes"], serde_json::json!([]));
        git_in(&dir, &["reset", "-q", "--hard", "HEAD^"]);
    }

    // A staged kernel argument in one standalone cluster (a MachineConfig whose name every
    // cluster shares) reboots that cluster's worker and infra pools, and nothing else.
    let mc = "clusters/standalone/ocp-00008/machineconfigs/50-worker-base-0.yaml";
    let path = dir.join(mc);
    let mut text = std::fs::read_to_string(&path).expect("read");
    assert!(!text.contains("kernelArguments"), "fixture changed: {text}");
    text.push_str("  kernelArguments:\n  - nosmt\n");
    std::fs::write(&path, text).expect("write");
    git_in(&dir, &["add", mc]);
    let staged = nodecast(&dir, &["check", "--staged", "--format", "json"]).json();
    assert_eq!(
        targets(&staged),
        vec![
            t("clusters/standalone/ocp-00008", "infra", "reboot"),
            t("clusters/standalone/ocp-00008", "worker", "reboot"),
        ]
    );
    let cause = &staged["forecast"][0]["causes"][0];
    assert_eq!(cause["file"], mc);
    assert_eq!(
        (cause["line"].as_u64(), cause["column"].as_u64()),
        (Some(25), Some(5))
    );
}

/// The models of clusters a change leaves alone are kept between the evaluations of a run (the
/// head's, then the base's alone, which tells pre-existing findings) and, in the editor, between
/// runs. On every case of the small fleet — its commit, the whole lint, a staged change beside a
/// committed finding, a working-tree change on top — the report with every finding listed is
/// byte-identical to `--full`, which models every cluster afresh.
#[test]
fn kept_cluster_models_give_the_full_report() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("fleet");
    repogen::generate(repogen::Size::Small, 1, &dir).expect("generate");
    let differential = |what: &str, compare: &[&str]| {
        let run = |extra: &[&str]| {
            let fixed = ["--format", "json", "--all", "--now", "2026-11-25T12:00:00Z"];
            let args: Vec<&str> = compare.iter().chain(&fixed).chain(extra).copied().collect();
            let r = nodecast(&dir, &args);
            assert!(r.code == 0 || r.code == 1, "{what}: {}", r.stderr);
            r.stdout
        };
        let full = run(&["--full"]);
        assert_eq!(run(&[]), full, "{what}");
        full
    };
    differential("commit", &["check", "--base", "HEAD^", "--head", "HEAD"]);
    differential("lint", &["check", "--no-base"]);
    // A finding committed in one cluster (an empty machineConfigSelector: M107), so the base's
    // own findings are modelled and the unchanged cluster's model is taken from the head's.
    let pools = "clusters/standalone/ocp-00002/machineconfigpools.yaml";
    let text = std::fs::read_to_string(dir.join(pools)).expect("read");
    let selector = "  machineConfigSelector:\n    matchLabels:\n      machineconfiguration.openshift.io/role: master\n";
    assert!(text.contains(selector), "fixture changed: {text}");
    let text = text.replace(selector, "  machineConfigSelector: {}\n");
    std::fs::write(dir.join(pools), text).expect("write");
    git_in(&dir, &["commit", "-qam", "an empty selector"]);
    // Staged: a kernel argument in another cluster.
    let mc = "clusters/standalone/ocp-00008/machineconfigs/50-worker-base-0.yaml";
    let mut text = std::fs::read_to_string(dir.join(mc)).expect("read");
    text.push_str("  kernelArguments:\n  - nosmt\n");
    std::fs::write(dir.join(mc), text).expect("write");
    git_in(&dir, &["add", mc]);
    let staged = differential("staged", &["check", "--staged"]);
    let report: Value = serde_json::from_str(&staged).expect("json");
    let found: Vec<(&str, &str, &str, u64)> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or_default(),
                d["state"].as_str().unwrap_or_default(),
                d["file"].as_str().unwrap_or_default(),
                d["line"].as_u64().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(found, [("M107", "pre-existing", pools, 8)], "{staged}");
    assert_eq!(report["summary"]["pre_existing"], 1, "{staged}");
    // Unstaged, on top: the same pools file gets its selector back (the finding goes away).
    let text = std::fs::read_to_string(dir.join(pools)).expect("read");
    std::fs::write(
        dir.join(pools),
        text.replace("  machineConfigSelector: {}\n", selector),
    )
    .expect("write");
    differential("working tree", &["check"]);
}
