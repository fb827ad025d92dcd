//! Scheduling scenarios: forecast entries (hand-built, since the forecast models land separately)
//! for NodePools and MachineConfigPools of real manifest trees, deferred to the right window for a
//! fixed `--now`; override precedence; expired overrides; `--enforce-windows`.

use crate::common;

use nodecast::check::Options;
use nodecast::diagnostic::{Diagnostic, Severity};
use nodecast::diff::Diff;
use nodecast::forecast::{self, Action, Cause, Impact, Rollout, Target, When};
use nodecast::inventory::Inventory;
use nodecast::source::{self, CompareRequest};

use common::{hosted_cluster, nodecast};

/// A Schema B policy: Saturdays 02:00–06:00 UTC.
const SATURDAY_B: &str = "apiVersion: hypershift.openshift.io/v1alpha1
kind: HostedChangeManagementPolicy
metadata:
  name: saturday
  namespace: clusters
spec:
  strategy: MaintenanceSchedule
  maintenanceSchedule:
    permit:
      recurrence:
        frequency: Weekly
        weekly:
          daysOfWeek: [Saturday]
      startTime: \"02:00\"
      duration: 4h
";

/// Schema A policies in the MCO namespace.
fn policy_a(name: &str, strategy: &str, schedule: &str) -> String {
    format!(
        "apiVersion: config.openshift.io/v1alpha1
kind: ChangeManagementPolicy
metadata:
  name: {name}
  namespace: openshift-machine-config-operator
spec:
  strategy: {strategy}
{schedule}"
    )
}

const WEEKEND_A: &str = "  maintenanceSchedule:
    permit:
      recurrence: \"FREQ=WEEKLY;BYDAY=SA,SU\"
      startTime: \"02:00\"
      duration: 4h
";

fn node_pool(stanza: &str) -> String {
    format!(
        "apiVersion: hypershift.openshift.io/v1beta1
kind: NodePool
metadata:
  name: workers
  namespace: clusters
spec:
  clusterName: prod
  replicas: 3
  management:
    upgradeType: Replace
  platform:
    type: AWS
  changeManagement:
{stanza}"
    )
}

fn pool(name: &str, stanza: &str) -> String {
    format!(
        "apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfigPool
metadata:
  name: {name}
spec:
  changeManagement:
{stanza}"
    )
}

struct Tree(tempfile::TempDir);

impl Tree {
    fn new(files: &[(&str, &str)]) -> Tree {
        let dir = tempfile::tempdir().expect("tempdir");
        for (path, text) in files {
            let p = dir.path().join(path);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, text).expect("write");
        }
        Tree(dir)
    }

    /// Runs `forecast::when::apply` on the entries at `now`; returns them with the findings.
    fn apply(
        &self,
        now: &str,
        impacts: Vec<Impact>,
        tune: impl FnOnce(&mut Options),
    ) -> (Vec<Impact>, Vec<Diagnostic>) {
        let req = CompareRequest {
            path: self.0.path().to_path_buf(),
            base: None,
            head: None,
            staged: false,
            base_dir: None,
            no_base: true,
            max_file_size: 1 << 20,
            ..CompareRequest::default()
        };
        let mut options = Options::new(req.clone(), now.parse().expect("now"));
        // Weekly 4-hour windows are below GKE's 48 h / 32 days (W109, tested by its fixture).
        options.min_permitted_hours = 0;
        tune(&mut options);
        let loaded = source::load(&req).expect("loads");
        let files = nodecast::parse::parse_sides(&loaded.base, &loaded.head);
        let base = Inventory::build(&files.base);
        let head = Inventory::build(&files.head);
        let diff = Diff::compute(&base, &head, false);
        let input = forecast::Input {
            base: &base,
            head: &head,
            diff: &diff,
            settings: nodecast::check::forecast_settings(&options),
            memo: None,
        };
        let mut impacts = impacts;
        let mut diags = Vec::new();
        nodecast::forecast::when::apply(&mut impacts, &input, &mut diags);
        (impacts, diags)
    }
}

fn impact(
    kind: &str,
    namespace: Option<&str>,
    name: &str,
    action: Action,
    waves: Option<u32>,
    cause_file: &str,
) -> Impact {
    Impact {
        target: Target {
            cluster: if kind == "NodePool" {
                "HostedCluster/clusters/prod".into()
            } else {
                "".into()
            },
            kind: kind.into(),
            namespace: namespace.map(str::to_string),
            name: name.into(),
            scope: String::new(),
        },
        action,
        drain: true,
        nodes: Some(3),
        causes: vec![Cause {
            object: format!("{kind}/{name}"),
            field: "/spec/release/image".into(),
            file: cause_file.into(),
            line: 2,
            column: 1,
            summary: "release changes".into(),
        }],
        when: When::now(),
        rollout: waves.map(|w| Rollout {
            max_surge: Some(1),
            max_unavailable: Some(0),
            waves: Some(w),
            summary: format!("{w} waves"),
        }),
        fingerprint: None,
    }
}

fn np(action: Action, waves: Option<u32>) -> Impact {
    impact(
        "NodePool",
        Some("clusters"),
        "workers",
        action,
        waves,
        "nodepool.yaml",
    )
}

fn mcp(name: &str, action: Action) -> Impact {
    impact("MachineConfigPool", None, name, action, None, "pools.yaml")
}

fn when(i: &Impact) -> (String, Option<String>) {
    (i.when.state.clone(), i.when.at.clone())
}

fn codes(d: &[Diagnostic]) -> Vec<(&'static str, Severity)> {
    d.iter()
        .map(|d| (d.code, d.severity))
        .filter(|(c, _)| *c != "W101")
        .collect()
}

fn hosted(stanza: &str) -> Tree {
    Tree::new(&[
        ("hostedcluster.yaml", &hosted_cluster("prod", "4.18.9")),
        ("policy.yaml", SATURDAY_B),
        ("nodepool.yaml", &node_pool(stanza)),
    ])
}

#[test]
fn a_nodepool_rollout_waits_for_the_next_saturday_window() {
    let tree = hosted("    strategy: ByPolicy\n    byPolicy:\n      name: saturday\n");
    // Wednesday 10:00: the next window opens Saturday 02:00.
    let (out, diags) = tree.apply(
        "2026-11-25T10:00:00Z",
        vec![np(Action::Replace, Some(3))],
        |_| {},
    );
    assert_eq!(
        when(&out[0]),
        ("window".into(), Some("2026-11-28T02:00:00Z".into()))
    );
    assert_eq!(
        out[0].when.reason,
        "next window of policy saturday opens Sat 2026-11-28 02:00 UTC (4h long); 3 waves × 10 min = 30m fits the window (4h available)"
    );
    assert_eq!(codes(&diags), vec![]);
    // Saturday 03:00: inside the window, one hour spent.
    let (out, _) = tree.apply(
        "2026-11-28T03:00:00Z",
        vec![np(Action::Replace, Some(3))],
        |_| {},
    );
    assert_eq!(when(&out[0]), ("now".into(), None));
    assert_eq!(
        out[0].when.reason,
        "inside a window of policy saturday until Sat 2026-11-28 06:00 UTC (3h left); 3 waves × 10 min = 30m fits the window (3h available)"
    );
    // Saturday 06:00 is the window's (exclusive) end: next Saturday.
    let (out, _) = tree.apply(
        "2026-11-28T06:00:00Z",
        vec![np(Action::Replace, None)],
        |_| {},
    );
    assert_eq!(
        when(&out[0]),
        ("window".into(), Some("2026-12-05T02:00:00Z".into()))
    );
}

#[test]
fn a_rollout_longer_than_its_window_is_a_warning() {
    let tree = hosted("    strategy: ByPolicy\n    byPolicy:\n      name: saturday\n");
    let (out, diags) = tree.apply(
        "2026-11-25T10:00:00Z",
        vec![np(Action::Replace, Some(30))],
        |o| o.per_node_minutes = 15,
    );
    assert!(out[0].when.reason.ends_with("30 waves × 15 min = 7h30m exceed the window (4h available): the rollout continues in later windows"), "{}", out[0].when.reason);
    assert_eq!(codes(&diags), vec![("W119", Severity::Warning)]);
    let d = &diags.iter().find(|d| d.code == "W119").expect("W119");
    assert_eq!(d.location.path, "nodepool.yaml");
    assert_eq!(
        d.location.span.map(|s| (s.start.line, s.start.col)),
        Some((2, 1))
    );
}

#[test]
fn schema_b_holds_every_action_but_schema_a_only_material_ones() {
    let b = hosted("    strategy: ByPolicy\n    byPolicy:\n      name: saturday\n");
    let (out, _) = b.apply(
        "2026-11-25T10:00:00Z",
        vec![np(Action::Drain, None)],
        |_| {},
    );
    assert_eq!(
        out[0].when.state, "window",
        "Schema B: the node disruption policy cannot bypass change management"
    );

    let a = Tree::new(&[
        (
            "policy.yaml",
            &policy_a("weekend", "MaintenanceSchedule", WEEKEND_A),
        ),
        (
            "pools.yaml",
            &pool("worker", "    policy:\n      name: weekend\n"),
        ),
    ]);
    let (out, _) = a.apply(
        "2026-11-25T10:00:00Z",
        vec![
            mcp("worker", Action::Reboot),
            mcp("worker", Action::Drain),
            mcp("worker", Action::None),
        ],
        |_| {},
    );
    assert_eq!(
        when(&out[0]),
        ("window".into(), Some("2026-11-28T02:00:00Z".into()))
    );
    assert_eq!(when(&out[1]), ("now".into(), None));
    assert_eq!(
        out[1].when.reason,
        "not a material change (no reboot or replacement): change management does not hold it"
    );
    assert_eq!(out[2].when, When::now());
}

#[test]
fn disabled_until_wins_over_paused_until_which_wins_over_the_policy() {
    let tree = |stanza: &str, strategy: &str| {
        Tree::new(&[
            (
                "policy.yaml",
                &policy_a(
                    "weekend",
                    strategy,
                    if strategy == "MaintenanceSchedule" {
                        WEEKEND_A
                    } else {
                        ""
                    },
                ),
            ),
            ("pools.yaml", &pool("worker", stanza)),
        ])
    };
    let now = "2026-11-25T10:00:00Z";
    let run = |stanza: &str, strategy: &str| {
        let (out, diags) =
            tree(stanza, strategy).apply(now, vec![mcp("worker", Action::Reboot)], |_| {});
        (out[0].when.clone(), codes(&diags))
    };
    // disabledUntil (future) beats pausedUntil "true".
    let (w, _) = run("    disabledUntil: \"2026-12-01T00:00:00Z\"\n    pausedUntil: \"true\"\n    policy:\n      name: weekend\n", "MaintenanceSchedule");
    assert_eq!(
        (w.state.as_str(), w.reason.as_str()),
        (
            "now",
            "change management is disabled until Tue 2026-12-01 00:00 UTC (disabledUntil)"
        )
    );
    // disabledUntil "false": pausedUntil "true" holds indefinitely.
    let (w, _) = run("    disabledUntil: \"false\"\n    pausedUntil: \"True\"\n    policy:\n      name: weekend\n", "MaintenanceSchedule");
    assert_eq!((w.state.as_str(), w.at), ("paused", None));
    // pausedUntil Monday 30th, then the weekend schedule: Saturday 5 December.
    let (w, _) = run(
        "    pausedUntil: \"2026-11-30T00:00:00Z\"\n    policy:\n      name: weekend\n",
        "MaintenanceSchedule",
    );
    assert_eq!(
        (w.state.as_str(), w.at.as_deref()),
        ("window", Some("2026-12-05T02:00:00Z"))
    );
    assert!(
        w.reason
            .starts_with("held until Mon 2026-11-30 00:00 UTC (pausedUntil); then next window"),
        "{}",
        w.reason
    );
    // pausedUntil Sunday 29th 03:00 falls inside Sunday's window: paused until then.
    let (w, _) = run(
        "    pausedUntil: \"2026-11-29T03:00:00Z\"\n    policy:\n      name: weekend\n",
        "MaintenanceSchedule",
    );
    assert_eq!(
        (w.state.as_str(), w.at.as_deref()),
        ("paused", Some("2026-11-29T03:00:00Z"))
    );
    // A Permissive policy after a pause date: paused until the date.
    let (w, _) = run(
        "    pausedUntil: \"2026-11-30T00:00:00Z\"\n    policy:\n      name: weekend\n",
        "Permissive",
    );
    assert_eq!(
        (w.state.as_str(), w.at.as_deref()),
        ("paused", Some("2026-11-30T00:00:00Z"))
    );
    // A Restrictive policy: paused indefinitely.
    let (w, _) = run("    policy:\n      name: weekend\n", "Restrictive");
    assert_eq!((w.state.as_str(), w.at), ("paused", None));
}

#[test]
fn expired_overrides_fall_back_with_a_warning() {
    let a = Tree::new(&[
        (
            "policy.yaml",
            &policy_a("weekend", "MaintenanceSchedule", WEEKEND_A),
        ),
        (
            "pools.yaml",
            &pool(
                "worker",
                "    disabledUntil: \"2026-01-01T00:00:00Z\"\n    policy:\n      name: weekend\n",
            ),
        ),
    ]);
    let (out, diags) = a.apply(
        "2026-11-25T10:00:00Z",
        vec![mcp("worker", Action::Reboot)],
        |_| {},
    );
    assert_eq!(
        when(&out[0]),
        ("window".into(), Some("2026-11-28T02:00:00Z".into()))
    );
    assert_eq!(codes(&diags), vec![("W112", Severity::Warning)]);

    // Schema B: RestrictiveUntil in the past without byPolicy falls back to Permissive.
    let b =
        hosted("    strategy: RestrictiveUntil\n    restrictiveUntil: \"2026-11-01T00:00:00Z\"\n");
    let (out, diags) = b.apply(
        "2026-11-25T10:00:00Z",
        vec![np(Action::Replace, None)],
        |_| {},
    );
    assert_eq!(when(&out[0]), ("now".into(), None));
    let mut c = codes(&diags);
    c.sort();
    assert_eq!(
        c,
        vec![
            ("W111", Severity::Info),
            ("W112", Severity::Warning),
            ("W114", Severity::Info)
        ]
    );
    // PermissiveUntil in the past without byPolicy falls back to Restrictive.
    let b =
        hosted("    strategy: PermissiveUntil\n    permissiveUntil: \"2026-11-01T00:00:00Z\"\n");
    let (out, _) = b.apply(
        "2026-11-25T10:00:00Z",
        vec![np(Action::Replace, None)],
        |_| {},
    );
    assert_eq!(when(&out[0]), ("paused".into(), None));
    // RestrictiveUntil in the future with byPolicy: held, then the Saturday window.
    let b = hosted("    strategy: RestrictiveUntil\n    restrictiveUntil: \"2026-11-28T04:00:00Z\"\n    byPolicy:\n      name: saturday\n");
    let (out, _) = b.apply(
        "2026-11-25T10:00:00Z",
        vec![np(Action::Replace, None)],
        |_| {},
    );
    assert_eq!(
        when(&out[0]),
        ("paused".into(), Some("2026-11-28T04:00:00Z".into())),
        "{}",
        out[0].when.reason
    );
}

#[test]
fn enforce_windows_turns_a_deferred_start_into_an_error() {
    let tree = hosted("    strategy: ByPolicy\n    byPolicy:\n      name: saturday\n");
    let (_, diags) = tree.apply(
        "2026-11-25T10:00:00Z",
        vec![np(Action::Replace, None)],
        |o| o.enforce_windows = true,
    );
    let w118: Vec<&Diagnostic> = diags.iter().filter(|d| d.code == "W118").collect();
    assert_eq!(w118.len(), 1);
    assert_eq!(w118[0].severity, Severity::Error);
    assert_eq!(
        w118[0].message,
        "this change would start replacing nodes outside the permitted window; next window opens Sat 2026-11-28 02:00 UTC"
    );
    assert_eq!(w118[0].location.path, "nodepool.yaml");
    // Not enforced: no error.
    let (_, diags) = tree.apply(
        "2026-11-25T10:00:00Z",
        vec![np(Action::Replace, None)],
        |_| {},
    );
    assert!(diags.iter().all(|d| d.code != "W118"));
    // Inside the window: nothing to enforce.
    let (_, diags) = tree.apply(
        "2026-11-28T02:30:00Z",
        vec![np(Action::Replace, None)],
        |o| o.enforce_windows = true,
    );
    assert!(diags.iter().all(|d| d.code != "W118"));
}

#[test]
fn the_pools_own_pause_and_the_window_the_later_start_wins() {
    let tree = hosted("    strategy: ByPolicy\n    byPolicy:\n      name: saturday\n");
    let mut paused = np(Action::Replace, None);
    paused.when = When {
        state: "paused".into(),
        at: Some("2026-11-28T05:00:00Z".into()),
        reason: "spec.pausedUntil".into(),
        windows: Vec::new(),
    };
    let (out, _) = tree.apply("2026-11-25T10:00:00Z", vec![paused.clone()], |_| {});
    assert_eq!(
        when(&out[0]),
        ("paused".into(), Some("2026-11-28T05:00:00Z".into())),
        "the pause ends inside the window"
    );
    paused.when.at = Some("2026-11-28T07:00:00Z".into());
    let (out, _) = tree.apply("2026-11-25T10:00:00Z", vec![paused.clone()], |_| {});
    assert_eq!(
        when(&out[0]),
        ("window".into(), Some("2026-12-05T02:00:00Z".into())),
        "the pause ends after the window"
    );
    paused.when.at = None;
    let (out, _) = tree.apply("2026-11-25T10:00:00Z", vec![paused], |_| {});
    assert_eq!(when(&out[0]), ("paused".into(), None));
}

#[test]
fn the_master_pool_follows_cluster_version_and_bypass_annotations_start_now() {
    let cv = "apiVersion: config.openshift.io/v1
kind: ClusterVersion
metadata:
  name: version
spec:
  changeManagement:
    policy:
      name: weekend
      namespace: openshift-machine-config-operator
";
    let mc = "apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: 99-worker-ca
  annotations:
    machineconfiguration.openshift.io/bypass-change-management: \"true\"
";
    let tree = Tree::new(&[
        (
            "cluster/policy.yaml",
            &policy_a("weekend", "MaintenanceSchedule", WEEKEND_A),
        ),
        (
            "cluster/permissive.yaml",
            &policy_a("always", "Permissive", ""),
        ),
        ("cluster/clusterversion.yaml", cv),
        (
            "cluster/pools.yaml",
            &format!(
                "{}---\n{}",
                pool("master", "    policy:\n      name: always\n"),
                pool("worker", "    policy:\n      name: weekend\n")
            ),
        ),
        ("cluster/mc.yaml", mc),
    ]);
    let mut master = mcp("master", Action::Reboot);
    master.target.cluster = "cluster".into();
    let mut worker = mcp("worker", Action::Reboot);
    worker.causes[0].object = "MachineConfig/99-worker-ca".into();
    let (out, diags) = tree.apply("2026-11-25T10:00:00Z", vec![master, worker], |_| {});
    assert_eq!(
        when(&out[0]),
        ("window".into(), Some("2026-11-28T02:00:00Z".into())),
        "master follows ClusterVersion, not its own Permissive policy"
    );
    assert_eq!(when(&out[1]), ("now".into(), None));
    assert!(out[1]
        .when
        .reason
        .contains("99-worker-ca bypasses change management"));
    let mut c = codes(&diags);
    c.sort();
    assert_eq!(c, vec![("W115", Severity::Warning)]);
}

#[test]
fn an_unresolved_policy_never_understates_how_soon_nodes_are_disrupted() {
    let tree = hosted("    strategy: ByPolicy\n    byPolicy:\n      name: saturdays\n");
    let (out, diags) = tree.apply(
        "2026-11-25T10:00:00Z",
        vec![np(Action::Replace, None)],
        |_| {},
    );
    assert_eq!(when(&out[0]), ("now".into(), None));
    assert_eq!(
        out[0].when.reason,
        "policy `saturdays` not found; timing unknown, assuming immediately"
    );
    let mut c = codes(&diags);
    c.sort();
    assert_eq!(c, vec![("W113", Severity::Error), ("W114", Severity::Info)]);
}

#[test]
fn a_schedule_that_never_opens_gives_never_and_an_error() {
    let never = "  maintenanceSchedule:
    permit:
      recurrence: \"FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30\"
";
    let tree = Tree::new(&[
        (
            "policy.yaml",
            &policy_a("leap", "MaintenanceSchedule", never),
        ),
        (
            "pools.yaml",
            &pool("worker", "    policy:\n      name: leap\n"),
        ),
    ]);
    let (out, diags) = tree.apply(
        "2026-11-25T10:00:00Z",
        vec![mcp("worker", Action::Reboot)],
        |o| o.enforce_windows = true,
    );
    assert_eq!(when(&out[0]), ("never".into(), None));
    assert_eq!(
        out[0].when.reason,
        "no permitted window within 1000 days (policy leap)"
    );
    let mut c = codes(&diags);
    c.sort();
    assert_eq!(
        c,
        vec![
            ("W104", Severity::Error),
            ("W108", Severity::Error),
            ("W118", Severity::Error)
        ]
    );
}

#[test]
fn the_schedule_command_lists_windows_and_findings() {
    let tree = Tree::new(&[
        ("policy.yaml", &policy_a("weekend", "MaintenanceSchedule", &format!("{WEEKEND_A}    exclude:\n    - fromDate: \"2026-11-28\"\n      reason: freeze\n"))),
        ("pools.yaml", &pool("worker", "    policy:\n      name: weekend\n")),
    ]);
    let run = nodecast(
        tree.0.path(),
        &["schedule", ".", "--now", "2026-11-25T10:00:00Z", "-n", "3"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let expected = "Change-management policies (evaluated at Wed 2026-11-25 10:00 UTC)

ChangeManagementPolicy/openshift-machine-config-operator/weekend  (policy.yaml:1)
  next 3 window(s):
    Sun 2026-11-29 02:00 UTC → Sun 2026-11-29 06:00 UTC  (4h)
    Sat 2026-12-05 02:00 UTC → Sat 2026-12-05 06:00 UTC  (4h)
    Sun 2026-12-06 02:00 UTC → Sun 2026-12-06 06:00 UTC  (4h)
  policy.yaml:10:19  warning W109  only 36h of permitted time in the 32 days from Wed 2026-11-25 10:00 UTC (minimum 48h): rollouts and security updates stall
      help: widen the windows or shorten exclusions (the minimum is set with --min-permitted-hours)

Stanzas (a material change merged now)
  MachineConfigPool/worker  (pools.yaml:6): window Sun 2026-11-29 02:00 UTC — next window of policy weekend opens Sun 2026-11-29 02:00 UTC (4h long)

Other findings
  policy.yaml:2:7  info W101  change-management policies are not served by any OpenShift release; only nodecast enforces them
      help: keep them for review and --enforce-windows; a real API server rejects these kinds and drops `spec.changeManagement`

0 error(s), 1 warning(s), 1 info
";
    assert_eq!(run.stdout, expected);
}

#[test]
fn check_exits_1_on_schedule_errors_and_accepts_enforce_windows() {
    let never = "  maintenanceSchedule:\n    permit:\n      recurrence: \"FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30\"\n";
    let bad = Tree::new(&[
        (
            "policy.yaml",
            &policy_a("leap", "MaintenanceSchedule", never),
        ),
        (
            "pools.yaml",
            &pool("worker", "    policy:\n      name: leap\n"),
        ),
    ]);
    let run = nodecast(
        bad.0.path(),
        &[
            "check",
            "--no-base",
            ".",
            "--now",
            "2026-11-25T10:00:00Z",
            "--enforce-windows",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let good = Tree::new(&[
        (
            "policy.yaml",
            &policy_a("weekend", "MaintenanceSchedule", WEEKEND_A),
        ),
        (
            "pools.yaml",
            &pool("worker", "    policy:\n      name: weekend\n"),
        ),
    ]);
    let run = nodecast(
        good.0.path(),
        &[
            "check",
            "--no-base",
            ".",
            "--now",
            "2026-11-25T10:00:00Z",
            "--enforce-windows",
            "--per-node-minutes",
            "20",
        ],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

#[test]
fn the_demo_policy_is_clean_and_defers_the_workers_rollout() {
    let policy = std::fs::read_to_string(
        common::project_root().join("testdata/demo/after/hosted/clusters/change-policy.yaml"),
    )
    .expect("policy");
    let tree = Tree::new(&[
        ("hostedcluster.yaml", &hosted_cluster("prod", "4.18.9")),
        ("change-policy.yaml", &policy),
        (
            "nodepool.yaml",
            &node_pool("    strategy: ByPolicy\n    byPolicy:\n      name: prod-east-weekend\n"),
        ),
    ]);
    let (out, diags) = tree.apply(
        "2026-11-25T10:00:00Z",
        vec![np(Action::Replace, Some(4))],
        |o| o.min_permitted_hours = 48,
    );
    assert_eq!(codes(&diags), vec![]);
    assert_eq!(
        when(&out[0]),
        ("window".into(), Some("2026-11-28T02:00:00Z".into()))
    );
    // During the year-end freeze the next window is Saturday 2 January 2027.
    let (out, _) = tree.apply(
        "2026-12-23T10:00:00Z",
        vec![np(Action::Replace, Some(4))],
        |_| {},
    );
    assert_eq!(
        when(&out[0]),
        ("window".into(), Some("2027-01-02T02:00:00Z".into()))
    );
}

#[test]
fn a_changed_policy_is_not_reported_as_an_unmodelled_node_change() {
    let before = Tree::new(&[
        (
            "policy.yaml",
            &policy_a("weekend", "MaintenanceSchedule", WEEKEND_A),
        ),
        (
            "pools.yaml",
            &pool("worker", "    policy:\n      name: weekend\n"),
        ),
    ]);
    let after = Tree::new(&[
        (
            "policy.yaml",
            &policy_a(
                "weekend",
                "MaintenanceSchedule",
                &WEEKEND_A.replace("4h", "6h"),
            ),
        ),
        (
            "pools.yaml",
            &pool("worker", "    policy:\n      name: weekend\n"),
        ),
    ]);
    let run = nodecast(
        before.0.path(),
        &[
            "check",
            "--base-dir",
            &before.0.path().display().to_string(),
            &after.0.path().display().to_string(),
            "--now",
            "2026-11-25T10:00:00Z",
            "--min-permitted-hours",
            "0",
        ],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("no node impact"), "{}", run.stdout);
}
