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
