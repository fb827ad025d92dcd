//! The benchmark generator's small Kustomize fleet (overlays of shared bases with patches,
//! components and generators) renders through the real binary and the real `kubectl kustomize`:
//! it lints clean, and each of its pull request branches is forecast exactly — one overlay's
//! patch rolls one NodePool, the shared base rolls every hosted NodePool, the component rolls the
//! NodePools of the overlays that list it. The single-overlay repository forecasts the same as
//! the fleet for the same change. These are the cases `tools/bench.sh kustomize-*` times.

use crate::common;

use common::{logging_kubectl, nodecast, require_kubectl};
use repogen::kustomize::{self, Component, PullRequest, Variant};
use repogen::model::Cluster;
use serde_json::Value;

type Target = (String, String, String);

fn sorted_targets(report: &Value) -> Vec<Target> {
    let mut out: Vec<Target> = report["forecast"]
        .as_array()
        .expect("forecast")
        .iter()
        .map(|f| {
            let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
            (
                s(&f["target"]["cluster"]),
                s(&f["target"]["name"]),
                s(&f["action"]),
            )
        })
        .collect();
    out.sort();
    out
}

/// What the fleet model says a change reaching `overlays` does: every NodePool of those hosted
/// clusters rolls, in place when the overlay lists the in-place component, else by replacement.
fn every_pool_of(fleet: &kustomize::Fleet, overlays: &[String]) -> Vec<Target> {
    let mut out = Vec::new();
    for o in fleet
        .overlays
        .iter()
        .filter(|o| overlays.contains(&o.dir()))
    {
        let Cluster::Hosted(h) = &o.cluster else {
            panic!("{} is not a hosted cluster", o.dir());
        };
        let action = if o.uses(Component::InPlaceUpgrades) {
            "in-place"
        } else {
            "replace"
        };
        for p in &h.pools {
            out.push((
                format!("HostedCluster/clusters/{}-cluster", h.name),
                format!("{}-{}", h.name, p.name),
                action.to_string(),
            ));
        }
    }
    out.sort();
    out
}

fn check(dir: &std::path::Path, pr: PullRequest) -> Value {
    let run = nodecast(
        dir,
        &[
            "check",
            "--base",
            "main",
            "--head",
            pr.branch(),
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 0, "{pr:?}: {}\n{}", run.stderr, run.stdout);
    let report = run.json();
    assert_eq!(report["diagnostics"], serde_json::json!([]), "{pr:?}");
    assert_eq!(report["unforecast"], serde_json::json!([]), "{pr:?}");
    report
}

#[test]
fn small_kustomize_fleet_lints_clean_and_each_pull_request_is_forecast_exactly() {
    if !require_kubectl(
        "small_kustomize_fleet_lints_clean_and_each_pull_request_is_forecast_exactly",
    ) {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("fleet");
    let stats = repogen::generate_kustomize(repogen::Size::Small, 1, Variant::Fleet, &dir)
        .expect("generate");
    assert_eq!((stats.overlays, stats.documents), (12, 148));
    let fleet = kustomize::fleet(repogen::Size::Small, 1);

    // Every overlay renders and the rendered fleet has no finding at all: a benchmark of
    // findings nobody would have is not a benchmark of a real repository.
    let lint = nodecast(&dir, &["check", "--no-base", "--format", "json"]);
    assert_eq!(lint.code, 0, "{}", lint.stderr);
    let lint = lint.json();
    assert_eq!(lint["diagnostics"], serde_json::json!([]));
    // Rendered objects, not the files: 12 overlays' objects with their generated ConfigMaps and
    // Secrets (the raw files hold 148 documents, patches and generator inputs not counted).
    assert_eq!(lint["summary"]["objects"], 265);

    let t = |c: &str, n: &str, a: &str| (c.to_string(), n.to_string(), a.to_string());
    // (a) One overlay's patch: that overlay's workers NodePool, nothing else.
    let a = check(&dir, PullRequest::OverlayPatch);
    assert_eq!(
        sorted_targets(&a),
        vec![t(
            "HostedCluster/clusters/hc-00000-cluster",
            "hc-00000-workers",
            "replace"
        )]
    );
    assert_eq!(
        PullRequest::OverlayPatch.reach(&fleet),
        vec!["clusters/hosted/us-east-1/hc-00000".to_string()]
    );

    // (b) The shared base: every NodePool of every hosted cluster (8 overlays, 26 pools), each
    // by its upgrade type (the in-place component flips it).
    let b = sorted_targets(&check(&dir, PullRequest::SharedBase));
    let reach_b = PullRequest::SharedBase.reach(&fleet);
    assert_eq!(reach_b.len(), 8);
    assert_eq!(b, every_pool_of(&fleet, &reach_b));
    assert_eq!(b.len(), 26);
    let in_place: Vec<&str> = b
        .iter()
        .filter(|x| x.2 == "in-place")
        .map(|x| x.1.as_str())
        .collect();
    assert_eq!(
        in_place,
        vec![
            "hc-00003-gpu",
            "hc-00003-infra",
            "hc-00003-workers",
            "hc-00004-gpu",
            "hc-00004-infra",
            "hc-00004-workers",
            "hc-00007-gpu",
            "hc-00007-infra",
            "hc-00007-workers",
            "hc-00009-gpu",
            "hc-00009-infra",
            "hc-00009-workers",
        ]
    );

    // (c) The component: the NodePools of the two overlays that list it, and no other.
    let c = sorted_targets(&check(&dir, PullRequest::Component));
    assert_eq!(
        c,
        vec![
            t(
                "HostedCluster/clusters/hc-00000-cluster",
                "hc-00000-batch",
                "replace"
            ),
            t(
                "HostedCluster/clusters/hc-00000-cluster",
                "hc-00000-gpu",
                "replace"
            ),
            t(
                "HostedCluster/clusters/hc-00000-cluster",
                "hc-00000-infra",
                "replace"
            ),
            t(
                "HostedCluster/clusters/hc-00000-cluster",
                "hc-00000-workers",
                "replace"
            ),
            t(
                "HostedCluster/clusters/hc-00009-cluster",
                "hc-00009-gpu",
                "in-place"
            ),
            t(
                "HostedCluster/clusters/hc-00009-cluster",
                "hc-00009-infra",
                "in-place"
            ),
            t(
                "HostedCluster/clusters/hc-00009-cluster",
                "hc-00009-workers",
                "in-place"
            ),
        ]
    );
    assert_eq!(
        c,
        every_pool_of(&fleet, &PullRequest::Component.reach(&fleet))
    );

    // The single-overlay repository: the same change, the same forecast.
    let single = tmp.path().join("single");
    repogen::generate_kustomize(repogen::Size::Small, 1, Variant::SingleOverlay, &single)
        .expect("generate");
    let alone = check(&single, PullRequest::OverlayPatch);
    assert_eq!(sorted_targets(&alone), sorted_targets(&a));
    // One HostedCluster, its four NodePools, five config ConfigMaps, two Secrets, the audit
    // ConfigMap.
    assert_eq!(alone["summary"]["objects"], 13);
}

/// SCOPE's safety net on the fleet: every pull request of the small Kustomize fleet, the whole
/// lint, a staged change and an unstaged one give byte-identical JSON with the render cache cold,
/// warm, and written by other commits as with `--full` (no cache) and with one thread — and a
/// warm run starts no Kustomize at all.
#[test]
fn the_render_cache_gives_the_full_report_on_every_commit_of_the_fleet() {
    if !require_kubectl("the_render_cache_gives_the_full_report_on_every_commit_of_the_fleet") {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("fleet");
    repogen::generate_kustomize(repogen::Size::Small, 1, Variant::Fleet, &dir).expect("generate");
    let (bin, log) = logging_kubectl();
    let kubectl = bin.path().join("kubectl").to_string_lossy().into_owned();
    let calls = || {
        std::fs::read_to_string(&log)
            .map(|l| l.lines().count())
            .unwrap_or(0)
    };
    let now = [
        "--format",
        "json",
        "--now",
        "2026-11-25T12:00:00Z",
        "--kustomize",
        &kubectl,
    ];
    let shared = tempfile::tempdir().expect("cache");
    let shared_arg = shared.path().to_string_lossy().into_owned();
    let differential = |what: &str, compare: &[&str]| {
        let run = |extra: &[&str]| {
            let args: Vec<&str> = compare.iter().chain(&now).chain(extra).copied().collect();
            let r = nodecast(&dir, &args);
            assert!(r.code == 0 || r.code == 1, "{what}: {}", r.stderr);
            r.stdout
        };
        let full = run(&["--full"]);
        let cold = tempfile::tempdir().expect("cache");
        let cold_arg = cold.path().to_string_lossy().into_owned();
        let before_cold = calls();
        assert_eq!(run(&["--cache-dir", &cold_arg]), full, "{what}: cold cache");
        let before_warm = calls();
        assert!(before_warm > before_cold, "{what}: a cold run renders");
        assert_eq!(run(&["--cache-dir", &cold_arg]), full, "{what}: warm cache");
        assert_eq!(calls(), before_warm, "{what}: a warm run renders nothing");
        // The shared cache holds what the previous cases wrote: other revisions' renders.
        assert_eq!(
            run(&["--cache-dir", &shared_arg]),
            full,
            "{what}: cache of other commits"
        );
        // Renders are placed ahead in parallel and taken in root order: one thread gives the
        // same report as several.
        let args: Vec<&str> = compare
            .iter()
            .chain(&now)
            .chain(&["--full"])
            .copied()
            .collect();
        let one = common::nodecast_env(&dir, &args, &[("RAYON_NUM_THREADS", "1")]);
        assert_eq!(one.stdout, full, "{what}: one thread");
        // Renders run without Go's garbage collection, on one thread each; with Go's own
        // defaults (an environment that sets them keeps them) Kustomize renders the same.
        let go_defaults =
            common::nodecast_env(&dir, &args, &[("GOGC", "100"), ("GOMAXPROCS", "4")]);
        assert_eq!(go_defaults.stdout, full, "{what}: Go's defaults");
    };
    differential("lint", &["check", "--no-base"]);
    for pr in [
        PullRequest::OverlayPatch,
        PullRequest::SharedBase,
        PullRequest::Component,
    ] {
        differential(
            pr.branch(),
            &["check", "--base", "main", "--head", pr.branch()],
        );
    }
    // A staged change (the shared base's), then an unstaged one on top (the component's).
    let git = |args: &[&str]| common::git_in(&dir, args);
    git(&["checkout", "pr/shared-base", "--", "bases"]);
    differential("staged", &["check", "--staged"]);
    let changed = git(&["diff", "--name-only", "main", "pr/component"]);
    for path in changed.lines() {
        let text = git(&["show", &format!("pr/component:{path}")]);
        std::fs::write(dir.join(path), text).expect("write");
    }
    differential("working tree", &["check"]);
}
