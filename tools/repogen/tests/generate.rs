//! The generator is deterministic, writes two commits, and changes about 2% of the documents.

use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?} failed");
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn same_seed_same_commits_and_different_seed_differs() {
    let (a, b, c) = (
        tempfile::tempdir().expect("tmp"),
        tempfile::tempdir().expect("tmp"),
        tempfile::tempdir().expect("tmp"),
    );
    let sa = repogen::generate(repogen::Size::Small, 7, a.path()).expect("generate");
    let sb = repogen::generate(repogen::Size::Small, 7, b.path()).expect("generate");
    repogen::generate(repogen::Size::Small, 8, c.path()).expect("generate");
    assert_eq!(sa, sb);
    let head = |d: &Path| git(d, &["rev-parse", "HEAD", "HEAD^"]);
    assert_eq!(head(a.path()), head(b.path()));
    assert_ne!(head(a.path()), head(c.path()));
    assert_eq!(git(a.path(), &["rev-list", "--count", "HEAD"]).trim(), "2");
    assert_eq!(sa.clusters, 10);
    assert!(sa.changed_files >= 1 && sa.changed_files <= sa.changes);
    let changed = git(a.path(), &["diff", "--name-only", "HEAD^", "HEAD"]);
    assert_eq!(changed.lines().count(), sa.changed_files);
    // Nothing is left uncommitted.
    assert_eq!(git(a.path(), &["status", "--porcelain"]), "");
}

#[test]
fn medium_fleet_has_about_ten_thousand_documents_of_both_cluster_kinds() {
    let fleet = repogen::fleet(repogen::Size::Medium, 1);
    let files = repogen::files(&fleet);
    let docs: usize = files.values().map(|(_, d)| d).sum();
    assert!((10_000..10_200).contains(&docs), "{docs} documents");
    let text = |kind: &str| {
        files
            .values()
            .filter(|(t, _)| t.contains(&format!("kind: {kind}\n")))
            .count()
    };
    for kind in [
        "HostedCluster",
        "NodePool",
        "ConfigMap",
        "MachineConfigPool",
        "MachineConfig",
        "KubeletConfig",
        "ContainerRuntimeConfig",
        "MachineConfiguration",
        "ClusterVersion",
        "ImageDigestMirrorSet",
        "ImageTagMirrorSet",
        "Tuned",
    ] {
        assert!(text(kind) > 0, "no {kind}");
    }
    assert!(files.values().any(|(t, _)| t.contains("compression: gzip")));
    assert!(files.values().any(|(t, _)| t.contains("source: data:,")));
    assert!(files.keys().any(|p| p.ends_with("kustomization.yaml")));
    assert!(files.keys().any(|p| p.ends_with("values.yaml")));
}

#[test]
fn kustomize_sizes_parse_and_plain_sizes_keep_their_names() {
    use repogen::{parse_size, Shape, Size};
    assert_eq!(parse_size("small"), Some((Shape::Plain, Size::Small)));
    assert_eq!(
        parse_size("kustomize-medium"),
        Some((Shape::Kustomize, Size::Medium))
    );
    assert_eq!(parse_size("kustomize-"), None);
    assert_eq!(parse_size("huge"), None);
}

#[test]
fn kustomize_fleet_is_deterministic_with_one_branch_per_pull_request() {
    use repogen::kustomize::{PullRequest, Variant};
    let (a, b) = (
        tempfile::tempdir().expect("tmp"),
        tempfile::tempdir().expect("tmp"),
    );
    let size = repogen::Size::Small;
    let sa = repogen::generate_kustomize(size, 1, Variant::Fleet, a.path()).expect("generate");
    let sb = repogen::generate_kustomize(size, 1, Variant::Fleet, b.path()).expect("generate");
    assert_eq!(sa, sb);
    assert_eq!((sa.clusters, sa.overlays, sa.changes), (12, 12, 3));
    let refs = |d: &Path| {
        git(
            d,
            &[
                "rev-parse",
                "main",
                "pr/overlay-patch",
                "pr/shared-base",
                "pr/component",
            ],
        )
    };
    assert_eq!(refs(a.path()), refs(b.path()));
    assert_eq!(
        git(a.path(), &["symbolic-ref", "--short", "HEAD"]).trim(),
        "main"
    );
    assert_eq!(git(a.path(), &["status", "--porcelain"]), "");
    // Each pull request is one commit on main changing one file: the overlay's patch, the shared
    // base's MachineConfig, the component's MachineConfig.
    let expected = [
        (
            PullRequest::OverlayPatch,
            "clusters/hosted/us-east-1/hc-00000/nodepool-workers.yaml",
        ),
        (
            PullRequest::SharedBase,
            "bases/hosted/common/machineconfig-base.yaml",
        ),
        (
            PullRequest::Component,
            "components/hosted/audit-logging/machineconfig-audit.yaml",
        ),
    ];
    for (pr, file) in expected {
        let range = format!("main..{}", pr.branch());
        assert_eq!(git(a.path(), &["rev-list", "--count", &range]).trim(), "1");
        let diff = format!("main...{}", pr.branch());
        assert_eq!(
            git(a.path(), &["diff", "--name-only", &diff]).trim(),
            file,
            "{pr:?}"
        );
    }
    assert_eq!(
        sa.reach,
        vec![
            ("pr/overlay-patch".to_string(), 1),
            ("pr/shared-base".to_string(), 8),
            ("pr/component".to_string(), 2),
        ]
    );
}

#[test]
fn single_overlay_repository_holds_that_overlay_and_what_it_needs() {
    use repogen::kustomize::Variant;
    let dir = tempfile::tempdir().expect("tmp");
    let s =
        repogen::generate_kustomize(repogen::Size::Small, 1, Variant::SingleOverlay, dir.path())
            .expect("generate");
    assert_eq!((s.overlays, s.changes), (1, 1));
    let files = git(dir.path(), &["ls-files"]);
    let kustomizations: Vec<&str> = files
        .lines()
        .filter(|l| l.ends_with("kustomization.yaml"))
        .collect();
    assert_eq!(
        kustomizations,
        vec![
            "bases/hosted/common/kustomization.yaml",
            "bases/hosted/kubevirt/kustomization.yaml",
            "clusters/hosted/us-east-1/hc-00000/kustomization.yaml",
            "components/hosted/audit-logging/kustomization.yaml",
        ]
    );
    // The same change as in the fleet, byte for byte.
    let fleet = tempfile::tempdir().expect("tmp");
    repogen::generate_kustomize(repogen::Size::Small, 1, Variant::Fleet, fleet.path())
        .expect("generate");
    let patch = |d: &Path| git(d, &["diff", "main...pr/overlay-patch"]);
    assert_eq!(patch(dir.path()), patch(fleet.path()));
}

#[test]
fn kustomize_medium_has_every_platform_component_and_cluster_kind() {
    use repogen::kustomize::{self, Component, Variant};
    use repogen::model::{Cluster, Platform};
    let fleet = kustomize::fleet(repogen::Size::Medium, 1);
    assert_eq!(fleet.overlays.len(), 120);
    for p in [
        Platform::Aws,
        Platform::Azure,
        Platform::KubeVirt,
        Platform::Agent,
    ] {
        assert!(
            fleet
                .overlays
                .iter()
                .any(|o| matches!(&o.cluster, Cluster::Hosted(h) if h.platform == p)),
            "no {p:?} cluster"
        );
    }
    for c in [
        Component::InPlaceUpgrades,
        Component::NodeTuning,
        Component::AuditLogging,
        Component::Kdump,
    ] {
        let n = fleet.overlays.iter().filter(|o| o.uses(c)).count();
        assert!(n > 0 && n < 120, "{c:?} used by {n} overlays");
    }
    let files = kustomize::files(&fleet, Variant::Fleet);
    let text = |needle: &str| files.values().filter(|(t, _)| t.contains(needle)).count();
    for needle in [
        "kind: Component\n",
        "configMapGenerator:\n",
        "secretGenerator:\n",
        "namePrefix: ",
        "namespace: clusters\n",
        "labels:\n- pairs:\n",
        "- op: replace\n",
        "kind: MachineConfigPool\n",
        "kind: Tuned\n",
    ] {
        assert!(text(needle) > 0, "no {needle:?}");
    }
}
