//! What is compared with what: dirty, clean, staged, branch, shallow, directory pairs, --no-base.

use crate::common;

use common::{git_in, hosted_cluster, node_pool, nodecast, Repo};
use serde_json::Value;

fn short(sha: &str) -> &str {
    &sha[..7]
}

fn changed_fields(report: &Value, object: &str) -> Vec<(String, Value, Value, Value, Value)> {
    report["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .filter(|c| c["object"] == object)
        .flat_map(|c| c["fields"].as_array().cloned().unwrap_or_default())
        .map(|f| {
            (
                f["path"].as_str().unwrap_or_default().to_string(),
                f["line"].clone(),
                f["column"].clone(),
                f["before"].clone(),
                f["after"].clone(),
            )
        })
        .collect()
}

/// Two commits: replicas 3, then 4.
fn two_commits() -> (Repo, String, String) {
    let repo = Repo::new();
    repo.write("clusters/hc.yaml", &hosted_cluster("prod", "4.18.5"));
    repo.write("clusters/np.yaml", &node_pool("workers", "prod", 3, &[]));
    repo.write("README.md", "not a manifest\n");
    let c1 = repo.commit("first");
    repo.write("clusters/np.yaml", &node_pool("workers", "prod", 4, &[]));
    let c2 = repo.commit("second");
    (repo, c1, c2)
}

#[test]
fn clean_worktree_compares_with_the_previous_commit() {
    let (repo, c1, _) = two_commits();
    let run = nodecast(repo.path(), &["check", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = run.json();
    assert_eq!(r["schema"], "nodecast/report/v1");
    assert_eq!(r["compared"]["base"]["source"], "git");
    assert_eq!(r["compared"]["base"]["rev"], c1.as_str());
    assert_eq!(
        r["compared"]["base"]["label"],
        format!("HEAD^ ({})", short(&c1))
    );
    assert_eq!(r["compared"]["head"]["source"], "worktree");
    assert_eq!(r["compared"]["head"]["label"], "working tree");
    assert_eq!(
        changed_fields(&r, "NodePool/clusters/workers"),
        vec![(
            "/spec/replicas".to_string(),
            8.into(),
            13.into(),
            "3".into(),
            "4".into()
        )]
    );
    // Replicas never roll nodes: one `none` entry with the cause, so the user sees it is safe.
    assert_eq!(r["forecast"][0]["action"], "none");
    assert_eq!(r["forecast"][0]["nodes"], 4);
    assert_eq!(r["forecast"].as_array().map(Vec::len), Some(1));
    assert_eq!(r["summary"]["files"], 2);
    assert_eq!(r["summary"]["objects"], 2);
}

#[test]
fn dirty_worktree_compares_with_head_and_says_so() {
    let (repo, _, c2) = two_commits();
    repo.write("clusters/np.yaml", &node_pool("workers", "prod", 5, &[]));
    let r = nodecast(repo.path(), &["check", "--format", "json"]).json();
    assert_eq!(
        r["compared"]["base"]["label"],
        format!("HEAD ({})", short(&c2))
    );
    assert_eq!(
        changed_fields(&r, "NodePool/clusters/workers"),
        vec![(
            "/spec/replicas".to_string(),
            8.into(),
            13.into(),
            "4".into(),
            "5".into()
        )]
    );
    let human = nodecast(repo.path(), &["check"]);
    assert!(
        human.stdout.starts_with(&format!(
            "nodecast: working tree vs HEAD ({})\n",
            short(&c2)
        )),
        "{}",
        human.stdout
    );
}

#[test]
fn untracked_manifest_counts_as_a_worktree_change() {
    let (repo, _, c2) = two_commits();
    repo.write("clusters/np2.yaml", &node_pool("infra", "prod", 2, &[]));
    let r = nodecast(repo.path(), &["check", "--format", "json"]).json();
    assert_eq!(
        r["compared"]["base"]["label"],
        format!("HEAD ({})", short(&c2))
    );
    let added: Vec<&Value> = r["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["change"] == "added")
        .collect();
    assert_eq!(added.len(), 1);
    assert_eq!(added[0]["object"], "NodePool/clusters/infra");
    assert_eq!(added[0]["file"], "clusters/np2.yaml");
}

#[test]
fn non_manifest_changes_do_not_switch_the_base() {
    let (repo, c1, _) = two_commits();
    repo.write("README.md", "edited\n");
    let r = nodecast(repo.path(), &["check", "--format", "json"]).json();
    assert_eq!(
        r["compared"]["base"]["label"],
        format!("HEAD^ ({})", short(&c1))
    );
}

#[test]
fn staged_compares_the_index_with_head() {
    let (repo, _, c2) = two_commits();
    repo.write("clusters/np.yaml", &node_pool("workers", "prod", 6, &[]));
    repo.git(&["add", "clusters/np.yaml"]);
    // An unstaged edit on top must not be seen.
    repo.write("clusters/np.yaml", &node_pool("workers", "prod", 9, &[]));
    let r = nodecast(repo.path(), &["check", "--staged", "--format", "json"]).json();
    assert_eq!(r["compared"]["head"]["source"], "index");
    assert_eq!(
        r["compared"]["base"]["label"],
        format!("HEAD ({})", short(&c2))
    );
    assert_replicas_4_to_6(&r, "staged");
}

/// The one change of these tests' second commits and staged edits: the `workers` NodePool's
/// replicas, 4 → 6 (line 8 of the base, line 13 of the head).
fn assert_replicas_4_to_6(r: &Value, what: &str) {
    assert_eq!(
        changed_fields(r, "NodePool/clusters/workers"),
        vec![(
            "/spec/replicas".to_string(),
            8.into(),
            13.into(),
            "4".into(),
            "6".into()
        )],
        "{what}"
    );
}

/// `git commit -a` stages into a temporary index and names it in `GIT_INDEX_FILE` for the
/// hooks; a pre-commit hook's `--staged` check reads that index, whole (no cache) and scoped (a
/// record of HEAD left by an earlier check), or it would check what is about to be committed
/// without the change.
#[test]
fn a_hook_of_commit_all_checks_the_index_git_commits() {
    let (repo, _, _) = two_commits();
    let cache = tempfile::tempdir().expect("cache folder");
    let cache = cache.path().to_str().expect("utf-8 path");
    // A record of HEAD, so the hook's second check is scoped.
    let warm = nodecast(
        repo.path(),
        &[
            "check",
            "--staged",
            "--format",
            "json",
            "--cache-dir",
            cache,
        ],
    );
    assert_eq!(warm.code, 0, "{}", warm.stderr);
    let hook = repo.path().join(".git/hooks/pre-commit");
    let bin = env!("CARGO_BIN_EXE_nodecast");
    std::fs::write(
        &hook,
        format!(
            "#!/bin/sh\n\
             printf '%s' \"$GIT_INDEX_FILE\" > index-file.txt\n\
             '{bin}' check --staged --format json --no-cache > whole.json 2> whole.err\n\
             '{bin}' check --staged --format json --cache-dir '{cache}' > scoped.json 2> scoped.err\n\
             exit 0\n"
        ),
    )
    .expect("hook");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    // Not staged: `commit -a` stages it into its temporary index.
    repo.write("clusters/np.yaml", &node_pool("workers", "prod", 6, &[]));
    repo.git(&["commit", "-q", "-a", "-m", "third"]);
    let index_file = std::fs::read_to_string(repo.path().join("index-file.txt")).expect("ran");
    assert!(
        index_file.ends_with("index.lock"),
        "git names its temporary index: {index_file:?}"
    );
    for report in ["whole", "scoped"] {
        let text =
            std::fs::read_to_string(repo.path().join(format!("{report}.json"))).expect("report");
        let errors =
            std::fs::read_to_string(repo.path().join(format!("{report}.err"))).expect("errors");
        let r = common::parse_json(&text, &errors);
        assert_eq!(r["compared"]["head"]["source"], "index", "{report}");
        assert_replicas_4_to_6(&r, report);
    }
}

#[test]
fn branch_base_means_merge_base() {
    let repo = Repo::new();
    repo.write("a/np.yaml", &node_pool("workers", "prod", 3, &[]));
    repo.write("a/hc.yaml", &hosted_cluster("prod", "4.18.5"));
    let fork = repo.commit("fork point");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write("a/np.yaml", &node_pool("workers", "prod", 7, &[]));
    repo.commit("feature change");
    repo.git(&["checkout", "-q", "main"]);
    repo.write("a/hc.yaml", &hosted_cluster("prod", "4.18.9"));
    repo.commit("main moves on");
    repo.git(&["checkout", "-q", "feature"]);

    let r = nodecast(
        repo.path(),
        &["check", "--base", "main", "--format", "json"],
    )
    .json();
    assert_eq!(r["compared"]["base"]["rev"], fork.as_str());
    assert_eq!(
        r["compared"]["base"]["label"],
        format!("merge-base of main ({})", short(&fork))
    );
    let objects: Vec<&str> = r["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["object"].as_str().unwrap())
        .collect();
    assert_eq!(
        objects,
        vec!["NodePool/clusters/workers"],
        "main's own change is not the PR's"
    );

    // A commit id is taken as is (no merge-base): main's change then shows up reverted.
    let main_tip = repo.git(&["rev-parse", "main"]).trim().to_string();
    let r = nodecast(
        repo.path(),
        &["check", "--base", &main_tip, "--format", "json"],
    )
    .json();
    assert_eq!(r["changes"].as_array().unwrap().len(), 2);
}

#[test]
fn head_rev_defaults_base_to_its_parent() {
    let (repo, c1, c2) = two_commits();
    repo.write("clusters/np.yaml", &node_pool("workers", "prod", 8, &[]));
    let r = nodecast(
        repo.path(),
        &["check", "--head", "HEAD", "--format", "json"],
    )
    .json();
    assert_eq!(r["compared"]["head"]["source"], "git");
    assert_eq!(r["compared"]["head"]["rev"], c2.as_str());
    assert_eq!(r["compared"]["base"]["rev"], c1.as_str());
    assert_eq!(
        changed_fields(&r, "NodePool/clusters/workers")[0].4,
        Value::from("4")
    );
}

#[test]
fn shallow_clone_without_base_is_exit_2_with_the_fix() {
    let (repo, c1, _) = two_commits();
    let clone = tempfile::tempdir().unwrap();
    let url = format!("file://{}", repo.path().display());
    git_in(clone.path(), &["clone", "-q", "--depth", "1", &url, "c"]);
    let dir = clone.path().join("c");

    let run = nodecast(&dir, &["check", "--format", "json"]);
    assert_eq!(
        run.code, 2,
        "stdout: {}\nstderr: {}",
        run.stdout, run.stderr
    );
    assert!(run.stdout.is_empty());
    assert!(run.stderr.contains("shallow"), "{}", run.stderr);
    assert!(run.stderr.contains("fetch-depth: 0"), "{}", run.stderr);
    assert!(run.stderr.contains("git fetch --deepen"), "{}", run.stderr);

    let run = nodecast(&dir, &["check", "--base", &c1]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("fetch-depth: 0"), "{}", run.stderr);

    // Linting alone still works in a shallow clone.
    let run = nodecast(&dir, &["check", "--no-base", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn unknown_revision_is_exit_2() {
    let (repo, _, _) = two_commits();
    let run = nodecast(repo.path(), &["check", "--base", "no-such-branch"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("unknown revision `no-such-branch`"),
        "{}",
        run.stderr
    );
}

#[test]
fn first_commit_compares_with_nothing() {
    let repo = Repo::new();
    repo.write("np.yaml", &node_pool("workers", "prod", 3, &[]));
    let c1 = repo.commit("only");
    let r = nodecast(repo.path(), &["check", "--format", "json"]).json();
    assert_eq!(r["compared"]["base"]["source"], "none");
    assert_eq!(
        r["compared"]["base"]["label"],
        format!("nothing ({} is the first commit)", short(&c1))
    );
    assert_eq!(r["changes"][0]["change"], "added");
}

#[test]
fn subfolder_limits_the_scope_and_paths_stay_repo_relative() {
    let repo = Repo::new();
    repo.write("clusters/a/np.yaml", &node_pool("a", "prod", 3, &[]));
    repo.write("clusters/b/np.yaml", &node_pool("b", "prod", 3, &[]));
    repo.commit("one");
    repo.write("clusters/a/np.yaml", &node_pool("a", "prod", 4, &[]));
    repo.write("clusters/b/np.yaml", &node_pool("b", "prod", 4, &[]));
    repo.commit("two");
    let r = nodecast(
        &repo.path().join("clusters/a"),
        &["check", "--format", "json"],
    )
    .json();
    let changes = r["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0]["file"], "clusters/a/np.yaml");
    let r = nodecast(repo.path(), &["check", "clusters/b", "--format", "json"]).json();
    assert_eq!(r["changes"][0]["file"], "clusters/b/np.yaml");
}

#[test]
fn directory_pair() {
    let dir = tempfile::tempdir().unwrap();
    let (before, after) = (dir.path().join("before"), dir.path().join("after"));
    for (d, replicas) in [(&before, 3), (&after, 4)] {
        std::fs::create_dir_all(d.join("x")).unwrap();
        std::fs::write(
            d.join("x/np.yaml"),
            node_pool("workers", "prod", replicas, &[]),
        )
        .unwrap();
        std::fs::write(d.join("hc.yaml"), hosted_cluster("prod", "4.18.5")).unwrap();
    }
    let run = nodecast(
        dir.path(),
        &["check", "--base-dir", "before", "after", "--format", "json"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = run.json();
    assert_eq!(r["compared"]["base"]["source"], "dir");
    assert_eq!(r["compared"]["head"]["source"], "dir");
    assert_eq!(r["compared"]["base"]["rev"], Value::Null);
    assert_eq!(
        changed_fields(&r, "NodePool/clusters/workers"),
        vec![(
            "/spec/replicas".to_string(),
            8.into(),
            13.into(),
            "3".into(),
            "4".into()
        )]
    );
    assert_eq!(r["changes"][0]["file"], "x/np.yaml");
}

#[test]
fn no_base_lints_without_changes() {
    let (repo, _, _) = two_commits();
    let r = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]).json();
    assert_eq!(r["compared"]["base"]["source"], "none");
    assert_eq!(r["changes"], Value::Array(vec![]));
    assert_eq!(r["summary"]["objects"], 2);
}

#[test]
fn plain_folder_outside_git_is_linted_alone() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("np.yaml"),
        node_pool("workers", "prod", 3, &[]),
    )
    .unwrap();
    let r = nodecast(dir.path(), &["check", "--format", "json"]).json();
    assert_eq!(r["compared"]["head"]["source"], "dir");
    assert_eq!(r["compared"]["base"]["source"], "none");
    let run = nodecast(dir.path(), &["check", "--staged"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("not inside a Git repository"),
        "{}",
        run.stderr
    );
}

#[test]
fn moving_an_object_between_files_is_not_a_change() {
    let repo = Repo::new();
    repo.write(
        "a.yaml",
        &format!(
            "{}---\n{}",
            hosted_cluster("prod", "4.18.5"),
            node_pool("workers", "prod", 3, &[])
        ),
    );
    repo.commit("one file");
    repo.write("a.yaml", &hosted_cluster("prod", "4.18.5"));
    // Same object, reformatted (flow style for the platform) in a new file.
    let moved = node_pool("workers", "prod", 3, &[])
        .replace("  platform:\n    type: AWS\n", "  platform: {type: AWS}\n");
    repo.write("pools/workers.yaml", &moved);
    repo.commit("split");
    let r = nodecast(repo.path(), &["check", "--format", "json"]).json();
    assert_eq!(r["changes"], Value::Array(vec![]));
    let human = nodecast(repo.path(), &["check"]).stdout;
    assert!(
        human
            .contains("= NodePool/clusters/workers  moved a.yaml → pools/workers.yaml (unchanged)"),
        "{human}"
    );
    assert!(human.contains("Forecast\n  no node impact\n"), "{human}");
}

#[test]
fn gitignored_files_are_not_read_from_the_worktree() {
    let (repo, _, _) = two_commits();
    repo.write(".gitignore", "rendered/\n");
    repo.write("rendered/np.yaml", "kind: NodePool\n");
    repo.commit("ignore");
    let r = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]).json();
    assert_eq!(
        r["diagnostics"],
        Value::Array(vec![]),
        "rendered/ is ignored"
    );
}

#[test]
fn nodecast_never_writes_to_the_repository() {
    let (repo, _, _) = two_commits();
    repo.write("clusters/np.yaml", &node_pool("workers", "prod", 5, &[]));
    repo.git(&["add", "clusters/np.yaml"]);
    let snapshot = |p: &std::path::Path| -> Vec<(String, Vec<u8>)> {
        let mut v: Vec<(String, Vec<u8>)> = walkdir::WalkDir::new(p)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                (
                    e.path().display().to_string(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let before = snapshot(repo.path());
    for args in [
        &["check"][..],
        &["check", "--staged"],
        &["check", "--base", "HEAD^", "--head", "HEAD"],
    ] {
        nodecast(repo.path(), args);
    }
    assert!(
        before == snapshot(repo.path()),
        "the repository (including .git) changed"
    );
}

#[test]
fn a_single_file_can_be_checked() {
    let (repo, _, _) = two_commits();
    let r = nodecast(
        repo.path(),
        &["check", "clusters/np.yaml", "--format", "json"],
    )
    .json();
    assert_eq!(r["summary"]["files"], 1);
    assert_eq!(r["changes"][0]["file"], "clusters/np.yaml");
    let r = nodecast(
        repo.path(),
        &[
            "check",
            "clusters/np.yaml",
            "--head",
            "HEAD",
            "--format",
            "json",
        ],
    )
    .json();
    assert_eq!(r["summary"]["files"], 1);
}

/// Every standalone cluster has its own `MachineConfig/99-worker-ssh`: a change to the second
/// cluster's copy is a change of that cluster (found by the repository's generated fleet).
#[test]
fn the_same_identity_in_two_clusters_is_diffed_per_cluster() {
    let mc = |karg: &str| {
        format!(
            "apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: 50-kargs
  labels:
    machineconfiguration.openshift.io/role: worker
spec:
  kernelArguments:
  - {karg}
"
        )
    };
    let pool = "apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfigPool
metadata:
  name: worker
spec:
  machineConfigSelector:
    matchLabels:
      machineconfiguration.openshift.io/role: worker
  nodeSelector:
    matchLabels:
      node-role.kubernetes.io/worker: \"\"
";
    let repo = Repo::new();
    for c in ["east", "west"] {
        repo.write(&format!("clusters/{c}/pools.yaml"), pool);
        repo.write(&format!("clusters/{c}/mc.yaml"), &mc("nosmt"));
    }
    repo.commit("two clusters");
    repo.write("clusters/west/mc.yaml", &mc("mitigations=off"));
    repo.commit("west only");
    let r = nodecast(repo.path(), &["check", "--format", "json"]).json();
    let changes = r["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(changes[0]["object"], "MachineConfig/50-kargs");
    assert_eq!(changes[0]["file"], "clusters/west/mc.yaml");
    assert_eq!(changes[0]["fields"][0]["path"], "/spec/kernelArguments");
    assert_eq!(changes[0]["fields"][0]["line"], 9);
    let pools: Vec<(String, String)> = r["forecast"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["target"]["cluster"].as_str().unwrap().to_string(),
                f["action"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        pools,
        vec![("clusters/west".to_string(), "reboot".to_string())]
    );
}

fn kargs_mc(arg: &str) -> String {
    format!("apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 50-worker-kargs\n  labels:\n    machineconfiguration.openshift.io/role: worker\nspec:\n  kernelArguments:\n  - {arg}\n")
}

/// A row of [`forecast_rows`].
fn row(cluster: &str, action: &str, cause: &str) -> (String, String, String) {
    (cluster.to_string(), action.to_string(), cause.to_string())
}

/// (forecast target cluster, action, first cause "file:line:column") of every forecast entry.
fn forecast_rows(r: &Value) -> Vec<(String, String, String)> {
    r["forecast"]
        .as_array()
        .expect("forecast")
        .iter()
        .map(|f| {
            let c = &f["causes"][0];
            (
                f["target"]["cluster"].as_str().unwrap_or("?").to_string(),
                f["action"].as_str().unwrap_or("?").to_string(),
                format!(
                    "{}:{}:{}",
                    c["file"].as_str().unwrap_or("?"),
                    c["line"],
                    c["column"]
                ),
            )
        })
        .collect()
}

/// The same MachineConfig in `envs/prod/` and `envs/stage/` (no pool or ClusterVersion in the
/// repository, so no folder is a cluster root): two environments, two objects. A change to the
/// one the repository lists second reboots stage's workers. (Both were taken as one identity and
/// only the first definition was compared: the check said "no node impact".)
#[test]
fn the_same_object_in_two_environment_folders_is_two_objects() {
    let repo = Repo::new();
    for env in ["prod", "stage"] {
        repo.write(&format!("envs/{env}/mc.yaml"), &kargs_mc("audit=1"));
    }
    repo.commit("two environments");
    repo.write("envs/stage/mc.yaml", &kargs_mc("audit=0"));
    repo.commit("stage: audit off");
    let r = nodecast(repo.path(), &["check", "--format", "json"]).json();
    assert_eq!(
        forecast_rows(&r),
        vec![row("envs/stage", "reboot", "envs/stage/mc.yaml:9:5")],
        "{r}"
    );
    let changed: Vec<&str> = r["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .filter_map(|c| c["file"].as_str())
        .collect();
    assert_eq!(changed, ["envs/stage/mc.yaml"]);
    assert_eq!(common::diag_lines(&r), Vec::<String>::new());
    assert_eq!(r["summary"]["pre_existing"], 0, "{r}");
}

/// The same MachineConfig name in `envs/prod/` (a worker MachineConfig) and `envs/stage/` (no
/// role label: no pool selects it), both changed in one commit: prod's workers reboot, and
/// stage's change is not modelled (M109), so its rollout is assumed. (Causes name objects by
/// display name, which the two share: prod's reboot "explained" stage's change too, and the
/// report counted no change as not modelled.)
#[test]
fn one_units_forecast_does_not_explain_the_same_named_change_of_another() {
    let repo = Repo::new();
    let unlabelled = |arg: &str| {
        kargs_mc(arg).replace(
            "  labels:\n    machineconfiguration.openshift.io/role: worker\n",
            "",
        )
    };
    repo.write("envs/prod/mc.yaml", &kargs_mc("audit=1"));
    repo.write("envs/stage/mc.yaml", &unlabelled("audit=1"));
    repo.commit("two environments");
    repo.write("envs/prod/mc.yaml", &kargs_mc("audit=0"));
    repo.write("envs/stage/mc.yaml", &unlabelled("audit=0"));
    repo.commit("audit off");
    let r = nodecast(
        repo.path(),
        &["check", "--base", "HEAD^", "--format", "json"],
    )
    .json();
    assert_eq!(
        forecast_rows(&r),
        vec![row("envs/prod", "reboot", "envs/prod/mc.yaml:9:5")],
        "{r}"
    );
    assert_eq!(
        r["unforecast"],
        serde_json::json!(["MachineConfig/50-worker-kargs"]),
        "{r}"
    );
    assert_eq!(
        common::diag_lines(&r),
        ["M109 warning envs/stage/mc.yaml:3:1"],
        "{r}"
    );
}

/// A MachineConfig outside every cluster root (`shared/`) rolls the repository's cluster `.`.
/// With one cluster's worker pool in the repository (pools and MachineConfigs in sibling
/// folders) that pool's maintenance window governs it; with two clusters' worker pools it is not
/// known which applies, so the reboot starts now. (The first cluster's pool was taken: "waits
/// for the weekend window" for a reboot that may start at once.)
#[test]
fn the_repository_clusters_pool_is_not_one_of_two_clusters_pools() {
    let policy = "apiVersion: config.openshift.io/v1alpha1\nkind: ChangeManagementPolicy\nmetadata:\n  name: weekend\n  namespace: openshift-machine-config-operator\nspec:\n  strategy: MaintenanceSchedule\n  maintenanceSchedule:\n    permit:\n      recurrence: \"FREQ=WEEKLY;BYDAY=SA,SU\"\n      startTime: \"02:00\"\n      duration: 6h\n";
    let pool = |policy: bool| {
        let managed = if policy {
            "  changeManagement:\n    policy:\n      name: weekend\n"
        } else {
            ""
        };
        format!("apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfigPool\nmetadata:\n  name: worker\nspec:\n{managed}  machineConfigSelector:\n    matchLabels:\n      machineconfiguration.openshift.io/role: worker\n")
    };
    let when = |clusters: &[(&str, bool)]| {
        let repo = Repo::new();
        for (folder, managed) in clusters {
            repo.write(&format!("{folder}/pools.yaml"), &pool(*managed));
            repo.write(&format!("{folder}/policy.yaml"), policy);
        }
        repo.write("shared/mc.yaml", &kargs_mc("audit=1"));
        repo.commit("pools and a shared MachineConfig");
        repo.write("shared/mc.yaml", &kargs_mc("audit=0"));
        let r = nodecast(
            repo.path(),
            &["check", "--now", "2026-11-25T12:00:00Z", "--format", "json"],
        )
        .json();
        assert_eq!(
            forecast_rows(&r),
            [row(".", "reboot", "shared/mc.yaml:9:5")],
            "{r}"
        );
        (
            r["forecast"][0]["when"]["state"]
                .as_str()
                .unwrap_or("?")
                .to_string(),
            r["forecast"][0]["when"]["at"]
                .as_str()
                .unwrap_or("-")
                .to_string(),
        )
    };
    assert_eq!(
        when(&[("pools", true)]),
        ("window".to_string(), "2026-11-28T02:00:00Z".to_string())
    );
    assert_eq!(
        when(&[("clusters/a", true), ("clusters/b", false)]),
        ("now".to_string(), "-".to_string())
    );
}

/// `--cluster-root 'clusters/*'` names two clusters whose folders hold no pool (the pools are
/// the platform's): the same MachineConfig in both is two clusters' objects, and a change to the
/// second reboots its workers and nothing else. (The diff grouped definitions by the roots found
/// without the globs, so it took the two for one cluster's duplicates while the models took them
/// for two clusters: the change was listed as also "not yet modelled, assume a rollout".)
#[test]
fn cluster_root_globs_pair_definitions_as_the_models_see_them() {
    let repo = Repo::new();
    for cluster in ["a", "b"] {
        repo.write(&format!("clusters/{cluster}/mc.yaml"), &kargs_mc("audit=1"));
    }
    repo.commit("two clusters");
    repo.write("clusters/b/mc.yaml", &kargs_mc("audit=0"));
    repo.commit("b: audit off");
    let r = nodecast(
        repo.path(),
        &[
            "check",
            "--base",
            "HEAD^",
            "--cluster-root",
            "clusters/*",
            "--all",
            "--format",
            "json",
        ],
    )
    .json();
    assert_eq!(
        forecast_rows(&r),
        vec![row("clusters/b", "reboot", "clusters/b/mc.yaml:9:5")],
        "{r}"
    );
    assert_eq!(r["unforecast"], serde_json::json!([]), "{r}");
    assert_eq!(common::diag_lines(&r), Vec::<String>::new(), "{r}");
}

/// An Argo CD application that reads `envs/` recursively applies both folders to one cluster:
/// there the two definitions are one object defined twice (K004), not two environments. Which one
/// the cluster keeps depends on the order they are applied in, so a change to the second is
/// listed and its rollout assumed. (It was invisible: "no object changed", "no node impact".)
#[test]
fn one_recursive_application_keeps_two_folders_one_cluster() {
    let repo = Repo::new();
    for env in ["prod", "stage"] {
        repo.write(&format!("envs/{env}/mc.yaml"), &kargs_mc("audit=1"));
    }
    repo.write(
        "argo/app.yaml",
        "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: nodes\n  namespace: openshift-gitops\nspec:\n  project: default\n  source:\n    repoURL: https://example.com/manifests.git\n    path: envs\n    directory:\n      recurse: true\n  destination:\n    server: https://kubernetes.default.svc\n",
    );
    repo.commit("one application");
    repo.write("envs/stage/mc.yaml", &kargs_mc("audit=0"));
    repo.commit("stage: audit off");
    let r = nodecast(repo.path(), &["check", "--all", "--format", "json"]).json();
    assert_eq!(
        common::diag_lines(&r),
        ["K004 error envs/stage/mc.yaml:4:9"],
        "{r}"
    );
    assert_eq!(forecast_rows(&r), Vec::<(String, String, String)>::new());
    assert_eq!(
        r["unforecast"],
        serde_json::json!(["MachineConfig/50-worker-kargs"]),
        "{r}"
    );
    assert_eq!(r["changes"][0]["file"], "envs/stage/mc.yaml", "{r}");
}

/// Two management clusters' folders each define HostedCluster `clusters/prod`; a NodePool in a
/// shared folder (no unit of its own) refers to it by name: the reference resolves (to the
/// first, as it did before the folders were told apart), it is not reported missing.
#[test]
fn a_reference_from_outside_the_units_resolves_to_a_unit_definition() {
    let repo = Repo::new();
    for folder in ["mgmt-a", "mgmt-b"] {
        repo.write(
            &format!("{folder}/hostedcluster.yaml"),
            &hosted_cluster("prod", "4.18.5"),
        );
    }
    repo.write(
        "shared/nodepool.yaml",
        &node_pool("workers", "prod", 2, &[]),
    );
    repo.commit("two management clusters, one shared NodePool");
    let r = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]).json();
    assert_eq!(common::diag_lines(&r), Vec::<String>::new(), "{r}");
}

/// Two management clusters' folders define HostedCluster `clusters/prod` and the NodePool's
/// config ConfigMap; the NodePool naming them sits in a shared folder, so it may run against
/// either. It is judged against the first's, so a change to the second's pull secret name (hashed
/// into the NodePool configuration) or to its ConfigMap's kernel arguments is not modelled: the
/// rollout is assumed. (Both read "no node impact", though the NodePool's nodes may be replaced.)
/// The first's change is forecast as before.
#[test]
fn a_shared_node_pool_keeps_its_hosted_clusters_namesake_change_in_view() {
    let config_map = |arg: &str| {
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: workers-kargs\n  namespace: clusters\ndata:\n  config: |\n    apiVersion: machineconfiguration.openshift.io/v1\n    kind: MachineConfig\n    metadata:\n      name: 99-workers-kargs\n      labels:\n        machineconfiguration.openshift.io/role: worker\n    spec:\n      kernelArguments:\n      - {arg}\n")
    };
    let repo = Repo::new();
    for folder in ["mgmt-a", "mgmt-b"] {
        repo.write(
            &format!("{folder}/hostedcluster.yaml"),
            &hosted_cluster("prod", "4.18.5"),
        );
        repo.write(&format!("{folder}/configmap.yaml"), &config_map("audit=1"));
    }
    repo.write(
        "shared/nodepool.yaml",
        &node_pool("workers", "prod", 2, &["workers-kargs"]),
    );
    repo.commit("two management clusters, one shared NodePool");
    let check = || nodecast(repo.path(), &["check", "--format", "json"]).json();
    // The change forecasts nothing, is listed as not modelled, and carries no "no node impact".
    let assumed_only = |object: &str| {
        let r = check();
        assert_eq!(
            forecast_rows(&r),
            Vec::<(String, String, String)>::new(),
            "{r}"
        );
        assert_eq!(r["unforecast"], serde_json::json!([object]), "{r}");
        assert_eq!(
            r["changes"][0]["no_node_impact"],
            serde_json::Value::Null,
            "{r}"
        );
    };
    let renamed =
        hosted_cluster("prod", "4.18.5").replace("name: pull-secret", "name: pull-secret-2");
    repo.write("mgmt-b/hostedcluster.yaml", &renamed);
    assumed_only("HostedCluster/clusters/prod");
    repo.write(
        "mgmt-b/hostedcluster.yaml",
        &hosted_cluster("prod", "4.18.5"),
    );
    repo.write("mgmt-b/configmap.yaml", &config_map("audit=0"));
    assumed_only("ConfigMap/clusters/workers-kargs");
    repo.write("mgmt-b/configmap.yaml", &config_map("audit=1"));
    repo.write("mgmt-a/hostedcluster.yaml", &renamed);
    let r = check();
    assert_eq!(
        forecast_rows(&r),
        [row(
            "HostedCluster/clusters/prod",
            "replace",
            "mgmt-a/hostedcluster.yaml:10:5"
        )],
        "{r}"
    );
    assert_eq!(r["unforecast"], serde_json::json!([]), "{r}");
}

/// Two management clusters, each its own cluster root (a ClusterVersion in its folder), host a
/// HostedCluster `clusters/prod` with NodePool `workers` and its config ConfigMap, the same names in
/// both. A release upgrade of the second's NodePool replaces its nodes (ahead of its HostedCluster: H107); a change to the second's
/// ConfigMap rolls its NodePool, not the first's. (Inside cluster roots the NodePool, HostedCluster
/// and ConfigMap were one identity each: the model judged the first definitions and the check
/// said "no node impact" for both changes.)
#[test]
fn same_named_node_pools_of_two_management_clusters_are_two_node_pools() {
    let repo = Repo::new();
    let config_map = |mode: u32| {
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: workers-sysctl\n  namespace: clusters\ndata:\n  config: |\n    apiVersion: machineconfiguration.openshift.io/v1\n    kind: MachineConfig\n    metadata:\n      name: 99-workers-sysctl\n      labels:\n        machineconfiguration.openshift.io/role: worker\n    spec:\n      config:\n        ignition:\n          version: 3.2.0\n        storage:\n          files:\n          - path: /etc/sysctl.d/99-workers.conf\n            mode: {mode}\n            contents:\n              source: data:,vm.max_map_count%3D262144\n")
    };
    for mgmt in ["mgmt-a", "mgmt-b"] {
        repo.write(
            &format!("{mgmt}/clusterversion.yaml"),
            "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\nspec:\n  clusterID: 6c6b5b5e-3e0e-4a47-9d39-3a1a3f0d1c11\n",
        );
        repo.write(
            &format!("{mgmt}/hostedcluster.yaml"),
            &hosted_cluster("prod", "4.18.5"),
        );
        repo.write(
            &format!("{mgmt}/nodepool.yaml"),
            &node_pool("workers", "prod", 2, &["workers-sysctl"]),
        );
        repo.write(&format!("{mgmt}/configmap.yaml"), &config_map(420));
    }
    repo.commit("two management clusters");
    repo.write(
        "mgmt-b/nodepool.yaml",
        &node_pool("workers", "prod", 2, &["workers-sysctl"]).replace("4.18.5", "4.18.6"),
    );
    repo.commit("mgmt-b: upgrade the workers");
    let r = nodecast(
        repo.path(),
        &["check", "--base", "HEAD^", "--format", "json"],
    )
    .json();
    assert_eq!(
        forecast_rows(&r),
        [row(
            "HostedCluster/clusters/prod",
            "replace",
            "mgmt-b/nodepool.yaml:12:5"
        )],
        "{r}"
    );
    assert_eq!(r["unforecast"], serde_json::json!([]), "{r}");
    // Judged against its own HostedCluster (still 4.18.5), not the first management cluster's.
    assert_eq!(
        common::diag_lines(&r),
        ["H107 warning mgmt-b/nodepool.yaml:12:12"],
        "{r}"
    );
    repo.write("mgmt-b/configmap.yaml", &config_map(384));
    repo.commit("mgmt-b: sysctl file mode");
    let r = nodecast(
        repo.path(),
        &["check", "--base", "HEAD^", "--format", "json"],
    )
    .json();
    assert_eq!(
        forecast_rows(&r),
        [row(
            "HostedCluster/clusters/prod",
            "replace",
            "mgmt-b/configmap.yaml:21:13"
        )],
        "{r}"
    );
    assert_eq!(common::diag_lines(&r), Vec::<String>::new(), "{r}");
}

/// A file of the S107 rule fixture (a HostedCluster in `eu-north-1`, its NodePool, boot image
/// metadata without that region).
fn s107_fixture(f: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/testdata/rules/S107/after/{f}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("S107 fixture")
}

/// The S107 fixture's objects are the smallest that trigger it, not schema-complete (as the rule
/// fixtures run): every finding but schema validation's is asserted.
const S107_CHECK: &[&str] = &["check", "--no-base", "--no-schema", "--format", "json"];

/// Two management clusters keep their own `coreos-bootimages` (their releases ship different
/// AWS regions) and host one NodePool each in `eu-north-1`: only the cluster whose metadata lacks
/// the region gets S107, whichever folder comes first. (The first ConfigMap of the repository
/// judged every NodePool: a missed error one way round, a false one the other.)
#[test]
fn each_node_pool_reads_its_own_clusters_boot_image_metadata() {
    let without = s107_fixture("coreos-bootimages.yaml");
    // The rhel-10 stream's x86_64 AWS regions (the default stream of the NodePool's 5.0 release).
    let at = "                  \"us-west-2\": {";
    assert!(without.contains(at));
    let with = without.replacen(
        at,
        &format!("                  \"eu-north-1\": {{\"release\": \"9.8.20260403-0\", \"image\": \"ami-0e1f2a3b4c5d6e7f8\"}},\n{at}"),
        1,
    );
    for (lacking, shipping) in [("mgmt-b", "mgmt-a"), ("mgmt-a", "mgmt-b")] {
        let repo = Repo::new();
        for (mgmt, cluster) in [("mgmt-a", "prod"), ("mgmt-b", "lab")] {
            let metadata = if mgmt == lacking { &without } else { &with };
            repo.write(&format!("{mgmt}/coreos-bootimages.yaml"), metadata);
            repo.write(
                &format!("{mgmt}/hostedcluster.yaml"),
                &s107_fixture("hostedcluster.yaml")
                    .replace("name: prod", &format!("name: {cluster}")),
            );
            repo.write(
                &format!("{mgmt}/nodepool.yaml"),
                &s107_fixture("nodepool.yaml")
                    .replace("name: workers", &format!("name: {cluster}-workers"))
                    .replace("clusterName: prod", &format!("clusterName: {cluster}")),
            );
        }
        repo.commit("two management clusters");
        let r = nodecast(repo.path(), S107_CHECK).json();
        assert_eq!(
            common::diag_lines(&r),
            [format!("S107 error {lacking}/nodepool.yaml:10:5")],
            "{shipping} ships eu-north-1: {r}"
        );
    }
}

/// An ACM policy that deletes `coreos-bootimages` (listed before the ConfigMap the cluster keeps)
/// is not the metadata the NodePool reads: S107 still judges by the one that is there. (The
/// repository's first definition, the deleted one with no data, was read: no metadata, nothing
/// said.)
#[test]
fn a_deleted_boot_image_configmap_is_not_the_metadata() {
    let repo = Repo::new();
    repo.write("a-policies/remove-bootimages.yaml", "apiVersion: policy.open-cluster-management.io/v1\nkind: Policy\nmetadata:\n  name: remove-bootimages\n  namespace: policies\nspec:\n  policy-templates:\n  - objectDefinition:\n      apiVersion: policy.open-cluster-management.io/v1\n      kind: ConfigurationPolicy\n      metadata:\n        name: remove-bootimages\n      spec:\n        remediationAction: enforce\n        object-templates:\n        - complianceType: mustnothave\n          objectDefinition:\n            apiVersion: v1\n            kind: ConfigMap\n            metadata:\n              name: coreos-bootimages\n              namespace: openshift-machine-config-operator\n");
    for f in [
        "coreos-bootimages.yaml",
        "hostedcluster.yaml",
        "nodepool.yaml",
    ] {
        repo.write(&format!("cluster/{f}"), &s107_fixture(f));
    }
    repo.commit("a cluster and a policy");
    let r = nodecast(repo.path(), S107_CHECK).json();
    assert_eq!(
        common::diag_lines(&r),
        ["S107 error cluster/nodepool.yaml:10:5"],
        "{r}"
    );
}

/// Two management clusters host HostedCluster `clusters/prod` with NodePool `workers`; only
/// mgmt-a's HostedCluster is paused. Upgrading mgmt-b's NodePool rolls it now, and H113 ("paused,
/// but its NodePools roll anyway") is said of the paused cluster only when its own NodePool rolls.
/// (The paused mgmt-a HostedCluster was matched by name to mgmt-b's rolling NodePool.)
#[test]
fn a_paused_hosted_cluster_is_not_its_namesakes() {
    let paused = |paused: bool| {
        let hc = hosted_cluster("prod", "4.18.5");
        if paused {
            hc.replacen("spec:\n", "spec:\n  pausedUntil: \"true\"\n", 1)
        } else {
            hc
        }
    };
    for (paused_mgmt, upgraded, h113) in [
        ("mgmt-a", "mgmt-b", None),
        (
            "mgmt-b",
            "mgmt-b",
            Some("H113 info mgmt-b/hostedcluster.yaml:7:3"),
        ),
    ] {
        let repo = Repo::new();
        for mgmt in ["mgmt-a", "mgmt-b"] {
            repo.write(
                &format!("{mgmt}/hostedcluster.yaml"),
                &paused(mgmt == paused_mgmt),
            );
            repo.write(
                &format!("{mgmt}/nodepool.yaml"),
                &node_pool("workers", "prod", 2, &[]),
            );
        }
        repo.commit("two management clusters");
        repo.write(
            &format!("{upgraded}/nodepool.yaml"),
            &node_pool("workers", "prod", 2, &[]).replace("4.18.5", "4.18.6"),
        );
        let r = nodecast(
            repo.path(),
            &["check", "--now", "2026-11-25T12:00:00Z", "--format", "json"],
        )
        .json();
        assert_eq!(
            forecast_rows(&r),
            [row(
                "HostedCluster/clusters/prod",
                "replace",
                &format!("{upgraded}/nodepool.yaml:12:5")
            )],
            "{r}"
        );
        let mut expected = vec![format!("H107 warning {upgraded}/nodepool.yaml:12:12")];
        expected.extend(h113.map(str::to_string));
        expected.sort();
        let mut got = common::diag_lines(&r);
        got.sort();
        assert_eq!(got, expected, "{r}");
    }
}

/// The same NodePool in a management cluster's root and in a folder outside every cluster root:
/// two NodePools of two clusters, so upgrading the root's one (listed second) replaces its nodes.
/// (It was judged by the first definition, outside the root: "no node impact".)
#[test]
fn a_node_pool_in_a_cluster_root_is_not_the_one_outside_it() {
    let repo = Repo::new();
    repo.write(
        "mgmt/clusterversion.yaml",
        "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\nspec:\n  clusterID: 6c6b5b5e-3e0e-4a47-9d39-3a1a3f0d1c11\n",
    );
    for folder in ["hosted", "mgmt"] {
        repo.write(
            &format!("{folder}/hostedcluster.yaml"),
            &hosted_cluster("prod", "4.18.5"),
        );
        repo.write(
            &format!("{folder}/nodepool.yaml"),
            &node_pool("workers", "prod", 2, &[]),
        );
    }
    repo.commit("a management cluster and a hosted folder");
    repo.write("mgmt/hostedcluster.yaml", &hosted_cluster("prod", "4.18.6"));
    repo.write(
        "mgmt/nodepool.yaml",
        &node_pool("workers", "prod", 2, &[]).replace("4.18.5", "4.18.6"),
    );
    repo.commit("mgmt: upgrade");
    let r = nodecast(
        repo.path(),
        &["check", "--base", "HEAD^", "--format", "json"],
    )
    .json();
    assert_eq!(
        forecast_rows(&r),
        [row(
            "HostedCluster/clusters/prod",
            "replace",
            "mgmt/nodepool.yaml:12:5"
        )],
        "{r}"
    );
    // The control-plane upgrade counts the root's one NodePool, not both.
    assert_eq!(
        common::diag_lines(&r),
        ["H114 warning mgmt/hostedcluster.yaml:8:5"],
        "{r}"
    );
    assert!(
        r["diagnostics"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("may roll its 1 NodePool(s)")),
        "{r}"
    );
}
