//! Validation of both schemas on one tree (`testdata/schedule/validation`), through the real
//! binary: every finding with its exact position, including RRULE parts behind YAML escapes.

use crate::common;

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

/// A fleet defines `MachineConfigPool/worker` and `ClusterVersion/version` once per cluster
/// folder, and each cluster may name its own `ChangeManagementPolicy/nights`: each pool follows
/// its own cluster's stanza and the nearest policy of that name. (Once only the first definition
/// of an identity was read: cluster b's pool took cluster a's window, and cluster c's pool, which
/// has no stanza, was given a's too.)
#[test]
fn each_cluster_of_a_fleet_follows_its_own_change_management() {
    let repo = common::Repo::new();
    let pool = "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfigPool\nmetadata:\n  name: worker\nspec:\n  machineConfigSelector:\n    matchLabels:\n      machineconfiguration.openshift.io/role: worker\n  nodeSelector:\n    matchLabels:\n      node-role.kubernetes.io/worker: \"\"\n";
    let mc = |arg: &str| {
        format!("apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 50-worker-kargs\n  labels:\n    machineconfiguration.openshift.io/role: worker\nspec:\n  kernelArguments:\n  - {arg}\n")
    };
    let cv = "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\nspec:\n  channel: stable-4.18\n";
    let policy = |day: &str| {
        format!("apiVersion: config.openshift.io/v1alpha1\nkind: ChangeManagementPolicy\nmetadata:\n  name: nights\n  namespace: openshift-machine-config-operator\nspec:\n  strategy: MaintenanceSchedule\n  maintenanceSchedule:\n    permit:\n      recurrence: \"FREQ=WEEKLY;BYDAY={day}\"\n      startTime: \"02:00\"\n      duration: 6h\n")
    };
    for (cluster, day) in [("a", Some("SA")), ("b", Some("SU")), ("c", None)] {
        repo.write(&format!("{cluster}/cv.yaml"), cv);
        repo.write(&format!("{cluster}/mc.yaml"), &mc("audit=1"));
        match day {
            Some(day) => {
                repo.write(
                    &format!("{cluster}/pool.yaml"),
                    &format!("{pool}  changeManagement:\n    policy:\n      name: nights\n"),
                );
                repo.write(&format!("{cluster}/policy.yaml"), &policy(day));
            }
            None => repo.write(&format!("{cluster}/pool.yaml"), pool),
        }
    }
    repo.commit("three clusters");
    for cluster in ["a", "b", "c"] {
        repo.write(&format!("{cluster}/mc.yaml"), &mc("audit=0"));
    }
    repo.commit("a kernel argument in every cluster");
    let r = check_last_commit(&repo);
    let when: Vec<(String, String, String)> = r["forecast"]
        .as_array()
        .expect("forecast")
        .iter()
        .map(|f| {
            (
                f["target"]["cluster"].as_str().unwrap_or("?").to_string(),
                f["when"]["state"].as_str().unwrap_or("?").to_string(),
                f["when"]["at"].as_str().unwrap_or("-").to_string(),
            )
        })
        .collect();
    let expected = [
        ("a", "window", "2026-11-28T02:00:00Z"),
        ("b", "window", "2026-11-29T02:00:00Z"),
        ("c", "now", "-"),
    ]
    .map(|(c, s, a)| (c.to_string(), s.to_string(), a.to_string()));
    assert_eq!(when, expected, "{r}");
    assert_eq!(diag_lines(&r), Vec::<String>::new());
}

/// Two management clusters' folders each hold a NodePool `clusters/workers` with its own
/// change-management policy: each pool's rollout waits for its own folder's window. (The `when`
/// lookup found a NodePool's stanza by name and namespace only, so b's pool took a's window.)
#[test]
fn same_named_node_pools_of_two_folders_follow_their_own_change_management() {
    let repo = common::Repo::new();
    let np = |image: &str| {
        format!("apiVersion: hypershift.openshift.io/v1beta1\nkind: NodePool\nmetadata:\n  name: workers\n  namespace: clusters\nspec:\n  clusterName: prod\n  replicas: 2\n  arch: amd64\n  release:\n    image: quay.io/openshift-release-dev/ocp-release:{image}-x86_64\n  management:\n    upgradeType: Replace\n  changeManagement:\n    strategy: ByPolicy\n    byPolicy:\n      name: nights\n  platform:\n    type: None\n")
    };
    let policy = |day: &str| {
        format!("apiVersion: hypershift.openshift.io/v1alpha1\nkind: HostedChangeManagementPolicy\nmetadata:\n  name: nights\n  namespace: clusters\nspec:\n  strategy: MaintenanceSchedule\n  maintenanceSchedule:\n    permit:\n      recurrence:\n        frequency: Weekly\n        weekly:\n          daysOfWeek: [{day}]\n      startTime: \"02:00\"\n      duration: 6h\n")
    };
    for (folder, day) in [("mgmt-a", "Saturday"), ("mgmt-b", "Sunday")] {
        repo.write(&format!("{folder}/nodepool.yaml"), &np("4.18.5"));
        repo.write(&format!("{folder}/policy.yaml"), &policy(day));
    }
    repo.commit("two management clusters");
    for folder in ["mgmt-a", "mgmt-b"] {
        repo.write(&format!("{folder}/nodepool.yaml"), &np("4.18.6"));
    }
    repo.commit("a z-stream in both");
    let r = check_last_commit(&repo);
    let when: Vec<(String, String, String, String)> = r["forecast"]
        .as_array()
        .expect("forecast")
        .iter()
        .map(|f| {
            (
                f["causes"][0]["file"].as_str().unwrap_or("?").to_string(),
                f["action"].as_str().unwrap_or("?").to_string(),
                f["when"]["state"].as_str().unwrap_or("?").to_string(),
                f["when"]["at"].as_str().unwrap_or("-").to_string(),
            )
        })
        .collect();
    let expected = [
        (
            "mgmt-a/nodepool.yaml",
            "replace",
            "window",
            "2026-11-28T02:00:00Z",
        ),
        (
            "mgmt-b/nodepool.yaml",
            "replace",
            "window",
            "2026-11-29T02:00:00Z",
        ),
    ]
    .map(|(f, a, s, t)| (f.to_string(), a.to_string(), s.to_string(), t.to_string()));
    assert_eq!(when, expected, "{r}");
    assert_eq!(diag_lines(&r), Vec::<String>::new());
}

/// The JSON report of the repository's last commit against its parent, on Wednesday
/// 2026-11-25 12:00 UTC.
fn check_last_commit(repo: &common::Repo) -> serde_json::Value {
    nodecast(
        repo.path(),
        &[
            "check",
            "--base",
            "HEAD^",
            "--head",
            "HEAD",
            "--now",
            "2026-11-25T12:00:00Z",
            "--format",
            "json",
        ],
    )
    .json()
}
