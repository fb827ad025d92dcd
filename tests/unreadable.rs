//! A change nodecast cannot read is never "no node impact": each trigger of issue 15 (part 2) in a
//! real Git repository through the real binary — what can be read is read (UTF-16, the other
//! documents of a templated file, non-UTF-8 file names, in-repository symbolic links), what
//! cannot gets an `unknown` forecast entry for every pool it could reach and an error (Y010), and
//! an object it hides is `unreadable`, never deleted or added.

use crate::common;

use common::{diag_lines, hosted_cluster, node_pool, nodecast, Repo};
use serde_json::Value;

/// A HyperShift cluster `prod` with one NodePool `workers` (3 nodes), committed.
fn fleet() -> Repo {
    let repo = Repo::new();
    repo.write(
        "clusters/prod/hostedcluster.yaml",
        &hosted_cluster("prod", "4.18.5"),
    );
    repo.write(
        "clusters/prod/nodepool.yaml",
        &node_pool("workers", "prod", 3, &[]),
    );
    repo.commit("base");
    repo
}

fn check(repo: &Repo, extra: &[&str]) -> Value {
    let mut args = vec!["check", "--head", "HEAD", "--format", "json"];
    args.extend_from_slice(extra);
    let run = nodecast(repo.path(), &args);
    assert_ne!(run.code, 2, "{}", run.stderr);
    run.json()
}

/// `Kind ns/name [cluster] action drain=… nodes=…` per forecast entry.
fn forecast(r: &Value) -> Vec<String> {
    r["forecast"]
        .as_array()
        .expect("forecast")
        .iter()
        .map(|f| {
            let t = &f["target"];
            let name = match t["namespace"].as_str() {
                Some(ns) => format!("{ns}/{}", t["name"].as_str().unwrap_or("?")),
                None => t["name"].as_str().unwrap_or("?").to_string(),
            };
            format!(
                "{} {name} [{}] {} drain={} nodes={}",
                t["kind"].as_str().unwrap_or("?"),
                t["cluster"].as_str().unwrap_or("?"),
                f["action"].as_str().unwrap_or("?"),
                f["drain"],
                f["nodes"]
            )
        })
        .collect()
}

/// `file:line:col summary` of every cause.
fn causes(r: &Value) -> Vec<String> {
    r["forecast"]
        .as_array()
        .expect("forecast")
        .iter()
        .flat_map(|f| f["causes"].as_array().cloned().unwrap_or_default())
        .map(|c| {
            format!(
                "{}:{}:{} {}",
                c["file"].as_str().unwrap_or("?"),
                c["line"],
                c["column"],
                c["summary"].as_str().unwrap_or("?")
            )
        })
        .collect()
}

/// `object change` per changed object.
fn changes(r: &Value) -> Vec<String> {
    r["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .map(|c| {
            format!(
                "{} {}",
                c["object"].as_str().unwrap_or("?"),
                c["change"].as_str().unwrap_or("?")
            )
        })
        .collect()
}

const WORKERS_UNKNOWN: &str =
    "NodePool clusters/workers [HostedCluster/clusters/prod] unknown drain=true nodes=3";

fn human_never_says_no_impact(repo: &Repo, extra: &[&str]) {
    let mut args = vec!["check", "--head", "HEAD"];
    args.extend_from_slice(extra);
    let human = nodecast(repo.path(), &args).stdout;
    assert!(!human.contains("no node impact"), "{human}");
    assert!(!human.contains("no object changed"), "{human}");
}

#[test]
fn a_non_utf8_byte_in_a_comment_makes_the_change_unknown_not_a_deletion() {
    let repo = fleet();
    let mut np = node_pool("workers", "prod", 4, &[]).into_bytes();
    np.extend_from_slice(b"# caf\xe9\n");
    repo.write_bytes("clusters/prod/nodepool.yaml", &np);
    repo.commit("latin-1 comment");
    let r = check(&repo, &[]);
    assert_eq!(forecast(&r), [WORKERS_UNKNOWN]);
    assert_eq!(
        causes(&r),
        ["clusters/prod/nodepool.yaml:15:6 cannot read clusters/prod/nodepool.yaml (head: it is not UTF-8 (byte 0xe9 at offset 295 is not valid UTF-8)): node impact unknown; assume a rollout"]
    );
    assert_eq!(changes(&r), ["NodePool/clusters/workers unreadable"]);
    assert_eq!(
        diag_lines(&r),
        ["Y010 error clusters/prod/nodepool.yaml:15:6"],
        "not H117 (deleted), and Y008 is superseded"
    );
    assert_eq!(r["summary"]["disruptive"], 1);
    assert_eq!(
        r["unreadable"],
        serde_json::json!([{"file": "clusters/prod/nodepool.yaml", "base": null,
            "head": "it is not UTF-8 (byte 0xe9 at offset 295 is not valid UTF-8)",
            "line": 15, "column": 6}])
    );
    human_never_says_no_impact(&repo, &[]);
}

#[test]
fn a_nul_byte_makes_the_change_unknown() {
    let repo = fleet();
    let mut np = node_pool("workers", "prod", 3, &[]).into_bytes();
    np.extend_from_slice(b"\0");
    repo.write_bytes("clusters/prod/nodepool.yaml", &np);
    repo.commit("nul");
    let r = check(&repo, &[]);
    assert_eq!(forecast(&r), [WORKERS_UNKNOWN]);
    assert_eq!(changes(&r), ["NodePool/clusters/workers unreadable"]);
    assert_eq!(
        diag_lines(&r),
        ["Y010 error clusters/prod/nodepool.yaml:null:null"]
    );
    human_never_says_no_impact(&repo, &[]);
}

#[test]
fn utf16_with_a_byte_order_mark_is_read() {
    let repo = fleet();
    let mut np = vec![0xFF, 0xFE];
    for u in node_pool("workers", "prod", 5, &[]).encode_utf16() {
        np.extend_from_slice(&u.to_le_bytes());
    }
    repo.write_bytes("clusters/prod/nodepool.yaml", &np);
    repo.commit("utf-16");
    let r = check(&repo, &[]);
    assert_eq!(
        forecast(&r),
        ["NodePool clusters/workers [HostedCluster/clusters/prod] none drain=false nodes=5"]
    );
    assert_eq!(
        causes(&r),
        ["clusters/prod/nodepool.yaml:8:3 replicas 3 -> 5 (no rollout: scales the pool; existing nodes are kept)"]
    );
    assert_eq!(changes(&r), ["NodePool/clusters/workers changed"]);
    assert_eq!(
        diag_lines(&r),
        ["Y008 warning clusters/prod/nodepool.yaml:null:null"]
    );
}

#[test]
fn a_file_over_the_size_limit_makes_the_change_unknown() {
    let repo = fleet();
    let np = node_pool("workers", "prod", 3, &[]).replace(
        "  namespace: clusters\n",
        &format!(
            "  namespace: clusters\n  annotations:\n    note: \"{}\"\n",
            "x".repeat(400)
        ),
    );
    repo.write("clusters/prod/nodepool.yaml", &np);
    repo.commit("grows");
    let r = check(&repo, &["--max-file-size", "600"]);
    assert_eq!(forecast(&r), [WORKERS_UNKNOWN]);
    assert_eq!(changes(&r), ["NodePool/clusters/workers unreadable"]);
    assert_eq!(
        diag_lines(&r),
        ["Y010 error clusters/prod/nodepool.yaml:null:null"]
    );
    assert_eq!(
        r["unreadable"][0]["head"],
        "718 bytes is over the size limit (--max-file-size)"
    );
    human_never_says_no_impact(&repo, &["--max-file-size", "600"]);
}

#[test]
fn the_other_documents_of_a_file_with_a_templated_document_are_read() {
    let repo = fleet();
    let np = node_pool("workers", "prod", 3, &["extra"]);
    let templated = "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n  namespace: clusters\ndata:\n  config: {{ .Values.config }}\n";
    repo.write("clusters/prod/nodepool.yaml", &format!("{np}{templated}"));
    repo.commit("base with template");
    let np = node_pool("workers", "prod", 4, &["extra"]);
    repo.write(
        "clusters/prod/nodepool.yaml",
        &format!(
            "{np}{}",
            templated.replace(".Values.config", ".Values.other")
        ),
    );
    repo.commit("both change");
    // --all: the R001 below is on a line this change does not touch (pre-existing).
    let r = check(&repo, &["--all"]);
    assert_eq!(
        forecast(&r),
        [WORKERS_UNKNOWN.replace("nodes=3", "nodes=4")]
    );
    assert_eq!(
        causes(&r),
        [
            "clusters/prod/nodepool.yaml:8:3 replicas 3 -> 4 (no rollout: scales the pool; existing nodes are kept)",
            "clusters/prod/nodepool.yaml:24:11 cannot read clusters/prod/nodepool.yaml (both revisions: the document holds Go/Helm template actions): node impact unknown; assume a rollout",
        ]
    );
    assert_eq!(changes(&r), ["NodePool/clusters/workers changed"]);
    // The ConfigMap the NodePool refers to is the templated document (not inventoried).
    assert_eq!(
        diag_lines(&r),
        [
            "R001 info clusters/prod/nodepool.yaml:16:11",
            "Y010 error clusters/prod/nodepool.yaml:24:11"
        ]
    );
    // The template alone unchanged: the readable change is judged as usual.
    repo.write(
        "clusters/prod/nodepool.yaml",
        &format!(
            "{}{}",
            node_pool("workers", "prod", 5, &["extra"]),
            templated.replace(".Values.config", ".Values.other")
        ),
    );
    repo.commit("only replicas");
    // --all: both findings below were already in the base revision.
    let r = check(&repo, &["--all"]);
    assert_eq!(
        forecast(&r),
        ["NodePool clusters/workers [HostedCluster/clusters/prod] none drain=false nodes=5"]
    );
    assert_eq!(
        diag_lines(&r),
        [
            "R001 info clusters/prod/nodepool.yaml:16:11",
            "Y005 info clusters/prod/nodepool.yaml:24:11"
        ]
    );
}

#[test]
fn an_added_templated_nodepool_is_never_no_impact() {
    let repo = fleet();
    repo.write(
        "clusters/prod/nodepool-gpu.yaml",
        "apiVersion: hypershift.openshift.io/v1beta1\nkind: NodePool\nmetadata:\n  name: {{ .Values.name }}\n  namespace: clusters\nspec:\n  clusterName: prod\n  replicas: {{ .Values.replicas }}\n",
    );
    repo.commit("templated pool");
    let r = check(&repo, &[]);
    assert_eq!(
        forecast(&r),
        ["NodePool clusters/? [HostedCluster/clusters/prod] unknown drain=true nodes=null"]
    );
    assert_eq!(
        diag_lines(&r),
        ["Y010 error clusters/prod/nodepool-gpu.yaml:4:9"]
    );
    human_never_says_no_impact(&repo, &[]);
}

#[test]
fn a_syntax_error_hides_no_object() {
    let repo = fleet();
    repo.write(
        "clusters/prod/nodepool.yaml",
        &node_pool("workers", "prod", 3, &[]).replace("replicas: 3", "replicas: [3"),
    );
    repo.commit("broken");
    let r = check(&repo, &[]);
    assert_eq!(forecast(&r), [WORKERS_UNKNOWN]);
    assert_eq!(changes(&r), ["NodePool/clusters/workers unreadable"]);
    let lines = diag_lines(&r);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("Y010 error clusters/prod/nodepool.yaml:"),
        "{lines:?}"
    );
}

#[test]
fn a_corrupt_git_blob_makes_the_change_unknown() {
    let repo = fleet();
    repo.write(
        "clusters/prod/nodepool.yaml",
        &node_pool("workers", "prod", 6, &[]),
    );
    repo.commit("scale");
    let blob = repo
        .git(&["rev-parse", "HEAD:clusters/prod/nodepool.yaml"])
        .trim()
        .to_string();
    let object = repo
        .path()
        .join(".git/objects")
        .join(&blob[..2])
        .join(&blob[2..]);
    let mut perms = std::fs::metadata(&object).expect("object").permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&object, perms).expect("chmod");
    std::fs::write(&object, b"not a zlib stream").expect("corrupt");
    let r = check(&repo, &[]);
    assert_eq!(forecast(&r), [WORKERS_UNKNOWN]);
    assert_eq!(changes(&r), ["NodePool/clusters/workers unreadable"]);
    assert_eq!(
        diag_lines(&r),
        ["Y010 error clusters/prod/nodepool.yaml:null:null"]
    );
    let head = r["unreadable"][0]["head"].as_str().unwrap_or_default();
    assert!(
        head.starts_with(&format!("Git object {blob} is missing or corrupt: ")),
        "{head}"
    );
}

#[cfg(unix)]
#[test]
fn a_file_name_that_is_not_utf8_is_kept() {
    use std::os::unix::ffi::OsStrExt;
    let repo = fleet();
    let name = std::ffi::OsStr::from_bytes(b"clusters/prod/caf\xe9.yaml");
    let path = repo.path().join(name);
    std::fs::write(&path, node_pool("extra", "prod", 2, &[])).expect("write");
    repo.commit("latin-1 name");
    let r = check(&repo, &[]);
    assert_eq!(changes(&r), ["NodePool/clusters/extra added"]);
    assert_eq!(r["changes"][0]["file"], "clusters/prod/caf\\xe9.yaml");
    // From the working tree it is the same file as in HEAD: changed, not added.
    std::fs::write(&path, node_pool("extra", "prod", 7, &[])).expect("write");
    let run = nodecast(repo.path(), &["check", "--format", "json"]);
    let r = run.json();
    assert_eq!(changes(&r), ["NodePool/clusters/extra changed"]);
    assert_eq!(
        forecast(&r),
        ["NodePool clusters/extra [HostedCluster/clusters/prod] none drain=false nodes=7"]
    );
    // Staged: the index keeps the name too.
    repo.git(&["add", "-A"]);
    let r = nodecast(repo.path(), &["check", "--staged", "--format", "json"]).json();
    assert_eq!(changes(&r), ["NodePool/clusters/extra changed"]);
}

#[cfg(unix)]
#[test]
fn symbolic_links_inside_the_repository_are_followed_and_outside_ones_reported() {
    let repo = fleet();
    repo.write(
        "shared/nodepool-stage.yaml",
        &node_pool("stage", "prod", 3, &[]),
    );
    std::fs::create_dir_all(repo.path().join("clusters/stage")).expect("mkdir");
    std::os::unix::fs::symlink(
        "../../shared/nodepool-stage.yaml",
        repo.path().join("clusters/stage/nodepool.yaml"),
    )
    .expect("link");
    // A folder linked in, and a link that leaves the repository.
    std::os::unix::fs::symlink("../shared", repo.path().join("clusters/linked")).expect("link");
    std::os::unix::fs::symlink(
        "../../../elsewhere.yaml",
        repo.path().join("clusters/prod/outside.yaml"),
    )
    .expect("link");
    repo.commit("links");
    repo.write(
        "shared/nodepool-stage.yaml",
        &node_pool("stage", "prod", 3, &[]).replace(
            "upgradeType: Replace",
            "upgradeType: Replace\n    autoRepair: true",
        ),
    );
    repo.commit("change through the link");
    // --all: the outside link was already there (a pre-existing finding).
    let r = check(&repo, &["--all"]);
    assert_eq!(changes(&r), ["NodePool/clusters/stage changed"]);
    assert_eq!(
        r["changes"][0]["file"], "clusters/linked/nodepool-stage.yaml",
        "the first definition, read through the linked folder"
    );
    assert_eq!(
        diag_lines(&r),
        ["Y009 warning clusters/prod/outside.yaml:null:null"],
        "the same document through links is not a duplicate (K004); the outside link is reported"
    );
    let y009 = &r["diagnostics"][0]["message"];
    assert_eq!(
        y009,
        "file not checked: symbolic link to `../../../elsewhere.yaml` points outside the repository: not read"
    );
    // The working tree resolves links the same way.
    let wt = nodecast(
        repo.path(),
        &["check", "--base", "HEAD^", "--format", "json"],
    )
    .json();
    assert_eq!(changes(&wt), ["NodePool/clusters/stage changed"]);
    // Retargeting the outside link is a change nodecast cannot read.
    std::fs::remove_file(repo.path().join("clusters/prod/outside.yaml")).expect("rm");
    std::os::unix::fs::symlink(
        "/etc/other.yaml",
        repo.path().join("clusters/prod/outside.yaml"),
    )
    .expect("link");
    repo.commit("retarget");
    let r = check(&repo, &[]);
    assert_eq!(
        diag_lines(&r),
        ["Y010 error clusters/prod/outside.yaml:null:null"]
    );
    assert!(
        forecast(&r).contains(&WORKERS_UNKNOWN.to_string()),
        "{:?}",
        forecast(&r)
    );
}

const POOL: &str = "apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfigPool
metadata:
  name: worker-rt
spec:
  machineConfigSelector:
    matchExpressions:
    - key: machineconfiguration.openshift.io/role
      operator: In
      values: [worker, worker-rt]
  nodeSelector:
    matchLabels:
      node-role.kubernetes.io/worker-rt: \"\"
";

fn tuned(cmdline: &str, runtime: u32) -> String {
    format!(
        "apiVersion: tuned.openshift.io/v1
kind: Tuned
metadata:
  name: realtime
  namespace: openshift-cluster-node-tuning-operator
spec:
  profile:
  - name: rt
    data: |
      [main]
      summary=Realtime
      include=openshift-node
      [sysctl]
      kernel.sched_rt_runtime_us={runtime}
      [bootloader]
      cmdline_rt={cmdline}
  recommend:
  - machineConfigLabels:
      machineconfiguration.openshift.io/role: worker-rt
    priority: 20
    profile: rt
"
    )
}

#[test]
fn a_standalone_tuned_bootloader_change_reboots_the_pools_it_labels() {
    let repo = Repo::new();
    repo.write("cluster/pool.yaml", POOL);
    repo.write("cluster/tuned.yaml", &tuned("nohz_full=2-7", 950000));
    repo.commit("base");
    repo.write("cluster/tuned.yaml", &tuned("nohz_full=2-15", 950000));
    repo.commit("more isolated cpus");
    let r = check(&repo, &["--no-schema"]);
    assert_eq!(
        forecast(&r),
        ["MachineConfigPool worker-rt [cluster] reboot drain=true nodes=null"]
    );
    assert_eq!(
        causes(&r),
        [
            "cluster/tuned.yaml:9:5 kernel argument nohz_full=2-15 added → Reboot (kernel arguments always reboot)",
            "cluster/tuned.yaml:9:5 kernel argument nohz_full=2-7 removed → Reboot (kernel arguments always reboot)",
        ]
    );
    assert_eq!(r["unforecast"], serde_json::json!([]));
    // A change TuneD applies at runtime is not modelled: listed, never "no node impact".
    repo.write("cluster/tuned.yaml", &tuned("nohz_full=2-15", 900000));
    repo.commit("runtime only");
    let r = check(&repo, &["--no-schema"]);
    assert_eq!(forecast(&r), Vec::<String>::new());
    assert_eq!(
        r["unforecast"],
        serde_json::json!(["Tuned/openshift-cluster-node-tuning-operator/realtime"])
    );
}

#[test]
fn node_affecting_kinds_without_a_model_are_listed() {
    let repo = Repo::new();
    let profile = |cpus: &str| {
        format!("apiVersion: performance.openshift.io/v2\nkind: PerformanceProfile\nmetadata:\n  name: rt\nspec:\n  cpu:\n    isolated: \"{cpus}\"\n    reserved: \"0-1\"\n  nodeSelector:\n    node-role.kubernetes.io/worker-rt: \"\"\n")
    };
    let machine_set = |replicas: u32| {
        format!("apiVersion: machine.openshift.io/v1beta1\nkind: MachineSet\nmetadata:\n  name: workers-a\n  namespace: openshift-machine-api\nspec:\n  replicas: {replicas}\n")
    };
    repo.write("cluster/pool.yaml", POOL);
    repo.write("cluster/profile.yaml", &profile("2-7"));
    repo.write("cluster/machineset.yaml", &machine_set(3));
    repo.commit("base");
    repo.write("cluster/profile.yaml", &profile("2-15"));
    repo.write("cluster/machineset.yaml", &machine_set(1));
    repo.commit("head");
    let r = check(&repo, &["--no-schema"]);
    assert_eq!(
        r["unforecast"],
        serde_json::json!([
            "MachineSet/openshift-machine-api/workers-a",
            "PerformanceProfile/rt"
        ])
    );
    let human = nodecast(repo.path(), &["check", "--head", "HEAD", "--no-schema"]).stdout;
    assert!(!human.contains("no node impact"), "{human}");
}

#[cfg(unix)]
#[test]
fn compared_folders_follow_links_inside_and_report_links_outside() {
    let tmp = tempfile::tempdir().expect("tmp");
    for (side, replicas) in [("before", 3), ("after", 4)] {
        let root = tmp.path().join(side);
        std::fs::create_dir_all(root.join("shared")).expect("mkdir");
        std::fs::create_dir_all(root.join("clusters/prod")).expect("mkdir");
        std::fs::write(
            root.join("clusters/prod/hostedcluster.yaml"),
            hosted_cluster("prod", "4.18.5"),
        )
        .expect("write");
        std::fs::write(
            root.join("shared/nodepool.yaml"),
            node_pool("workers", "prod", replicas, &[]),
        )
        .expect("write");
        std::os::unix::fs::symlink("../shared", root.join("clusters/pools")).expect("link");
        std::os::unix::fs::symlink("../../before", root.join("clusters/escape")).expect("link");
    }
    let run = nodecast(
        tmp.path(),
        &["check", "--base-dir", "before", "after", "--format", "json"],
    );
    let r = run.json();
    assert_eq!(changes(&r), ["NodePool/clusters/workers changed"]);
    assert_eq!(r["changes"][0]["file"], "clusters/pools/nodepool.yaml");
    assert_eq!(
        diag_lines(&r),
        ["Y009 warning clusters/escape:null:null"],
        "{:#}",
        r["diagnostics"]
    );
}

/// A link whose target the repository no longer holds (a catalog renamed the folder): the commit
/// and the working tree both say the target does not exist, and how to fix it.
#[test]
fn a_link_whose_target_is_gone_says_so_in_the_commit_and_the_working_tree() {
    let repo = fleet();
    std::os::unix::fs::symlink("removed-operator", repo.path().join("renamed-operator"))
        .expect("link");
    repo.commit("dangling link");
    for (args, why) in [
        (
            &["--no-base", "--head", "HEAD"][..],
            "the target does not exist in this revision",
        ),
        (&["--no-base"][..], "the target does not exist"),
    ] {
        let all: Vec<&str> = ["check", "--all", "--format", "json"]
            .iter()
            .chain(args)
            .copied()
            .collect();
        let r = nodecast(repo.path(), &all).json();
        assert_eq!(
            diag_lines(&r),
            ["Y009 warning renamed-operator:null:null"],
            "{args:?}"
        );
        assert_eq!(
            r["diagnostics"][0]["message"],
            format!("file not checked: symbolic link to `removed-operator`: {why}: not read"),
            "{args:?}"
        );
        assert_eq!(
            r["diagnostics"][0]["help"],
            "point the link at a file or folder inside the repository, or remove it"
        );
    }
}

/// A Kustomize overlay whose folder is reached through a linked folder (`gpu` → `operators/gpu`,
/// as redhat-cop/gitops-catalog links `cert-manager-operator`): a commit's render reads its files
/// through the link as a checkout would, so it renders (no R101) and forecasts what the working
/// tree does.
#[test]
fn an_overlay_below_a_linked_folder_renders_in_a_commit_as_in_the_working_tree() {
    if !common::require_kubectl(
        "an_overlay_below_a_linked_folder_renders_in_a_commit_as_in_the_working_tree",
    ) {
        return;
    }
    let mc = |arg: &str| {
        format!(
            "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 99-worker-gpu\n  labels:\n    machineconfiguration.openshift.io/role: worker\nspec:\n  kernelArguments:\n    - {arg}\n"
        )
    };
    let repo = Repo::new();
    repo.write(
        "operators/gpu/base/kustomization.yaml",
        "resources:\n  - mc.yaml\n",
    );
    repo.write("operators/gpu/base/mc.yaml", &mc("iommu=pt"));
    repo.write(
        "operators/gpu/overlays/prod/kustomization.yaml",
        "resources:\n  - ../../base\ncommonAnnotations:\n  team: gpu\n",
    );
    std::os::unix::fs::symlink("operators/gpu", repo.path().join("gpu")).expect("link");
    repo.commit("gpu operator, linked");
    repo.write("operators/gpu/base/mc.yaml", &mc("intel_iommu=on"));
    repo.commit("kernel argument");
    let commit = check(&repo, &["--base", "HEAD^", "--all"]);
    let worktree = nodecast(
        repo.path(),
        &["check", "--base", "HEAD^", "--all", "--format", "json"],
    )
    .json();
    repo.write("operators/gpu/base/mc.yaml", &mc("nosmt"));
    repo.git(&["add", "-A"]);
    let staged = nodecast(
        repo.path(),
        &["check", "--staged", "--all", "--format", "json"],
    )
    .json();
    for (r, how) in [
        (&commit, "commit"),
        (&worktree, "working tree"),
        (&staged, "index"),
    ] {
        assert_eq!(diag_lines(r), Vec::<String>::new(), "{how}");
        assert_eq!(
            forecast(r),
            [
                "MachineConfigPool worker [gpu/overlays/prod] reboot drain=true nodes=null",
                "MachineConfigPool worker [operators/gpu/overlays/prod] reboot drain=true nodes=null"
            ],
            "{how}"
        );
    }
}

/// An overlay whose base is reached through a link to the repository's top folder
/// (`top -> .`): a commit's render reads the whole tree through it, as a checkout does, instead
/// of failing (R101) where the working tree renders.
#[test]
fn a_base_reached_through_a_link_to_the_top_folder_renders_in_a_commit_as_in_the_working_tree() {
    if !common::require_kubectl(
        "a_base_reached_through_a_link_to_the_top_folder_renders_in_a_commit_as_in_the_working_tree",
    ) {
        return;
    }
    let repo = Repo::new();
    repo.write("kustomization.yaml", "resources:\n  - base\n");
    repo.write("base/kustomization.yaml", "resources:\n  - mc.yaml\n");
    repo.write(
        "base/mc.yaml",
        "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 99-worker-x\n  labels:\n    machineconfiguration.openshift.io/role: worker\nspec:\n  kernelArguments:\n    - nosmt\n",
    );
    repo.write(
        "app/kustomization.yaml",
        "resources:\n  - ../top\nnamePrefix: app-\n",
    );
    std::os::unix::fs::symlink(".", repo.path().join("top")).expect("link");
    repo.commit("an overlay of the top folder, through a link");
    for args in [&["--head", "HEAD"][..], &["--staged"][..], &[][..]] {
        let mut all = vec!["check", "--no-base", "--all", "--format", "json"];
        all.extend_from_slice(args);
        let r = nodecast(repo.path(), &all).json();
        assert_eq!(diag_lines(&r), ["Y009 warning top:null:null"], "{args:?}");
        assert_eq!(
            r["summary"]["objects"], 2,
            "{args:?}: the top folder's and the app's"
        );
    }
}
