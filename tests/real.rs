//! Real repository layouts (issue 9): Kustomize overlays rendered with the real `kubectl
//! kustomize` for both revisions (materialised from Git objects), ACM Policies and Hive sync sets
//! unwrapped, placeholders treated as unknown values. Fixture repositories live in
//! `testdata/real/<case>/{before,after}` (built by `common::fixture`: `after/` holds what changed
//! on top of `before/`); each test commits `before`, then `after`, in a fresh Git repository and
//! runs the real binary (and the library, where the inventory is asserted).

use crate::common;

use common::{
    copy_tree, diag_lines, fixture, git_in, logging_kubectl, nodecast, nodecast_env, project_root,
    require_kubectl, Repo,
};
use serde_json::Value;

/// The case's full `before/` and `after/` trees, built in a temporary folder.
fn built(case: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    fixture::materialise(&project_root().join("testdata/real").join(case), tmp.path());
    tmp
}

/// A repository whose HEAD^ is the case's `before` tree and HEAD its `after` tree.
fn repo(case: &str) -> Repo {
    let repo = Repo::new();
    let case = built(case);
    let src = case.path();
    copy_tree(&src.join("before"), repo.path());
    repo.commit("before");
    for entry in std::fs::read_dir(repo.path()).expect("read") {
        let path = entry.expect("entry").path();
        if path.file_name().is_some_and(|n| n != ".git") {
            if path.is_dir() {
                std::fs::remove_dir_all(&path).expect("rm");
            } else {
                std::fs::remove_file(&path).expect("rm");
            }
        }
    }
    copy_tree(&src.join("after"), repo.path());
    repo.commit("after");
    repo
}

/// Runs `check --base HEAD^ --head HEAD` (both sides read from Git objects) as JSON, and checks
/// that nothing was written to the repository.
fn check_git(repo: &Repo, extra: &[&str]) -> Value {
    let mut args = vec![
        "check", "--base", "HEAD^", "--head", "HEAD", "--format", "json",
    ];
    args.extend(extra);
    let run = nodecast(repo.path(), &args);
    assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
    assert_eq!(
        repo.git(&["status", "--porcelain", "--ignored"]),
        "",
        "nothing is written to the repository"
    );
    run.json()
}

/// (object, change, group) of every change.
fn changes(r: &Value) -> Vec<(String, String, String)> {
    r["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .map(|c| {
            (
                c["object"].as_str().unwrap_or_default().to_string(),
                c["change"].as_str().unwrap_or_default().to_string(),
                c["group"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// (key, file, line, column) of every located entry of a report list (`key` names the entry:
/// a field's `path`, a cause's `object`).
fn located(list: &Value, key: &str) -> Vec<(String, String, u64, u64)> {
    list.as_array()
        .expect("a list of located entries")
        .iter()
        .map(|e| {
            (
                e[key].as_str().unwrap_or_default().to_string(),
                e["file"].as_str().unwrap_or_default().to_string(),
                e["line"].as_u64().unwrap_or_default(),
                e["column"].as_u64().unwrap_or_default(),
            )
        })
        .collect()
}

/// (path, file, line, column) of every changed field of the change at `index`.
fn fields(r: &Value, index: usize) -> Vec<(String, String, u64, u64)> {
    located(&r["changes"][index]["fields"], "path")
}

fn change(object: &str, kind: &str, group: &str) -> (String, String, String) {
    (object.to_string(), kind.to_string(), group.to_string())
}

fn field(path: &str, file: &str, line: u64, col: u64) -> (String, String, u64, u64) {
    (path.to_string(), file.to_string(), line, col)
}

/// (cluster, pool, action, drain) of every forecast entry.
fn forecast(r: &Value) -> Vec<(String, String, String, bool)> {
    r["forecast"]
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
                f["drain"].as_bool().unwrap_or_default(),
            )
        })
        .collect()
}

fn entry(cluster: &str, pool: &str, action: &str, drain: bool) -> (String, String, String, bool) {
    (
        cluster.to_string(),
        pool.to_string(),
        action.to_string(),
        drain,
    )
}

/// (object, file, line, column) of every cause of the forecast entry at `index`.
fn causes(r: &Value, index: usize) -> Vec<(String, String, u64, u64)> {
    located(&r["forecast"][index]["causes"], "object")
}

fn cause(object: &str, file: &str, line: u64, col: u64) -> (String, String, u64, u64) {
    (object.to_string(), file.to_string(), line, col)
}

#[test]
fn overlay_labels_give_the_rendered_machine_config_its_pool_role() {
    if !require_kubectl("overlay_labels_give_the_rendered_machine_config_its_pool_role") {
        return;
    }
    let repo = repo("labels-role");
    let r = check_git(&repo, &[]);
    assert_eq!(diag_lines(&r), Vec::<String>::new());
    assert_eq!(
        changes(&r),
        vec![
            change(
                "MachineConfig/50-kernel-args",
                "changed",
                "standalone/lab/overlays/infra"
            ),
            change(
                "MachineConfig/50-kernel-args",
                "changed",
                "standalone/lab/overlays/workers"
            ),
        ]
    );
    for i in 0..2 {
        assert_eq!(
            fields(&r, i),
            vec![field(
                "/spec/kernelArguments",
                "standalone/lab/base/kernel-args.yaml",
                7,
                3
            )]
        );
    }
    // Each overlay is its own cluster: the role its overlay gives the MachineConfig picks the
    // pool. The infra overlay's MachineConfig reboots the infra pool (not that cluster's worker
    // pool); the workers overlay's reboots the worker pool.
    assert_eq!(
        forecast(&r),
        vec![
            entry("standalone/lab/overlays/infra", "infra", "reboot", true),
            entry("standalone/lab/overlays/workers", "worker", "reboot", true),
        ]
    );
    for i in 0..2 {
        assert_eq!(
            causes(&r, i),
            vec![cause(
                "MachineConfig/50-kernel-args",
                "standalone/lab/base/kernel-args.yaml",
                8,
                5
            )]
        );
    }
    assert_eq!(r["unforecast"], serde_json::json!([]));

    // The inventory: each rendered MachineConfig carries the role label its overlay adds, and
    // the label is located on the overlay's line that sets it.
    let mut options = nodecast::check::Options::new(
        nodecast::source::CompareRequest {
            path: repo.path().to_path_buf(),
            base: Some("HEAD^".into()),
            head: Some("HEAD".into()),
            max_file_size: 10 * 1024 * 1024,
            ..Default::default()
        },
        "2026-11-21T02:00:00Z".parse().expect("time"),
    );
    options.kustomize = nodecast::kustomize::Settings::default();
    let outcome = nodecast::check::run(&options).expect("check runs");
    let mut roles: Vec<(String, String, String, u32, u32)> = outcome
        .head
        .objects
        .iter()
        .filter(|o| o.id.kind == "MachineConfig")
        .map(|o| {
            let label = o
                .root()
                .path(&[
                    "metadata",
                    "labels",
                    "machineconfiguration.openshift.io/role",
                ])
                .expect("role label");
            (
                o.origin.group(),
                label.as_str().unwrap_or_default().to_string(),
                o.path_at(label.span()).to_string(),
                label.span().start.line,
                label.span().start.col,
            )
        })
        .collect();
    roles.sort();
    assert_eq!(
        roles,
        vec![
            (
                "standalone/lab/overlays/infra".to_string(),
                "infra".to_string(),
                "standalone/lab/overlays/infra/kustomization.yaml".to_string(),
                4,
                43
            ),
            (
                "standalone/lab/overlays/workers".to_string(),
                "worker".to_string(),
                "standalone/lab/overlays/workers/kustomization.yaml".to_string(),
                6,
                45
            ),
        ]
    );
    // Kustomize's own input files are not objects of record.
    assert!(outcome
        .head
        .objects
        .iter()
        .all(|o| o.id.kind != "Kustomization"));
    assert_eq!(
        outcome.head.duplicates,
        Vec::new(),
        "two overlays are two scopes, not duplicates"
    );
}

#[test]
fn an_overlay_patch_rolls_only_that_environment() {
    if !require_kubectl("an_overlay_patch_rolls_only_that_environment") {
        return;
    }
    let repo = repo("nodepool-env-patch");
    for r in [
        check_git(&repo, &[]),
        // The working tree as head (read from disk), HEAD^ as base (from Git objects).
        nodecast(repo.path(), &["check", "--format", "json"]).json(),
    ] {
        assert_eq!(diag_lines(&r), Vec::<String>::new());
        assert_eq!(
            changes(&r),
            vec![change(
                "NodePool/clusters/workers",
                "changed",
                "hosted/overlays/prod"
            )]
        );
        assert_eq!(
            fields(&r, 0),
            vec![field(
                "/spec/release/image",
                "hosted/overlays/prod/nodepool-patch.yaml",
                9,
                12
            )]
        );
        let forecast = r["forecast"].as_array().expect("forecast");
        assert_eq!(forecast.len(), 1, "only prod rolls: {forecast:?}");
        let entry = &forecast[0];
        assert_eq!(entry["target"]["cluster"], "HostedCluster/clusters/prod");
        assert_eq!(entry["target"]["name"], "workers");
        assert_eq!(entry["action"], "replace");
        let cause = &entry["causes"][0];
        assert_eq!(
            (
                cause["file"].as_str(),
                cause["line"].as_u64(),
                cause["column"].as_u64()
            ),
            (
                Some("hosted/overlays/prod/nodepool-patch.yaml"),
                Some(9),
                Some(5)
            )
        );
        assert_eq!(cause["summary"], "release 4.18.5 -> 4.18.9");
    }
}

#[test]
fn a_component_shared_by_two_overlays_changes_both() {
    if !require_kubectl("a_component_shared_by_two_overlays_changes_both") {
        return;
    }
    let repo = repo("shared-component");
    let r = check_git(&repo, &[]);
    assert_eq!(diag_lines(&r), Vec::<String>::new());
    assert_eq!(
        changes(&r),
        vec![
            change("KubeletConfig/max-pods", "changed", "clusters/east"),
            change("KubeletConfig/max-pods", "changed", "clusters/west"),
        ]
    );
    for i in 0..2 {
        assert_eq!(
            fields(&r, i),
            vec![field(
                "/spec/kubeletConfig/maxPods",
                "clusters/components/kubelet-tuning/kubeletconfig.yaml",
                10,
                14
            )]
        );
    }
    // Each overlay is a cluster whose worker pool manifest carries the label the component's
    // KubeletConfig selects (`custom-kubelet: max-pods`): the generated kubelet config changes
    // and both clusters' worker pools reboot. The component's own folder is not a cluster, so
    // there is no "selects no pool" (M108) finding: the pools are judged in each overlay.
    assert_eq!(
        forecast(&r),
        vec![
            entry("clusters/east", "worker", "reboot", true),
            entry("clusters/west", "worker", "reboot", true),
        ]
    );
    for i in 0..2 {
        assert_eq!(
            causes(&r, i),
            vec![cause(
                "KubeletConfig/max-pods",
                "clusters/components/kubelet-tuning/kubeletconfig.yaml",
                10,
                5
            )]
        );
    }
    assert_eq!(r["unforecast"], serde_json::json!([]));
}

#[test]
fn a_missing_resource_is_a_render_error_at_its_line() {
    if !require_kubectl("a_missing_resource_is_a_render_error_at_its_line") {
        return;
    }
    let repo = repo("missing-resource");
    let r = check_git(&repo, &[]);
    assert_eq!(
        diag_lines(&r),
        vec!["R101 error hosted/prod/kustomization.yaml:5:3"]
    );
    let d = &r["diagnostics"][0];
    assert_eq!(
        d["message"],
        "overlay hosted/prod does not render (this revision), so what it deploys is unknown: accumulating resources from 'nodepool-gpu.yaml': no such file or directory"
    );
    // The root is linted unrendered on both sides, so nothing is reported as changed.
    assert_eq!(changes(&r), Vec::new());
}

#[test]
fn acm_policy_objects_are_unwrapped_and_mustnothave_deletes() {
    let repo = repo("acm-policy");
    let r = check_git(&repo, &["--no-render"]);
    assert_eq!(
        diag_lines(&r),
        Vec::<String>::new(),
        "the hub template is not an error"
    );
    assert_eq!(
        changes(&r),
        vec![
            change(
                "MachineConfig/50-worker-kargs",
                "changed",
                "Policy/policies/worker-kargs"
            ),
            change(
                "MachineConfig/99-worker-legacy-audit",
                "removed",
                "Policy/policies/worker-kargs"
            ),
            change(
                "ConfigurationPolicy/worker-kargs",
                "changed",
                "Policy/policies/worker-kargs"
            ),
        ]
    );
    assert_eq!(
        fields(&r, 0),
        vec![field(
            "/spec/kernelArguments",
            "policies/worker-kargs.yaml",
            31,
            15
        )]
    );
    assert_eq!(
        r["changes"][1]["origin"],
        "deleted (mustnothave) in Policy/policies/worker-kargs"
    );
    assert_eq!(
        r["changes"][0]["origin"],
        "applied in Policy/policies/worker-kargs"
    );
    assert_eq!(
        fields(&r, 2),
        vec![field(
            "/spec/object-templates/1/complianceType",
            "policies/worker-kargs.yaml",
            32,
            27
        )]
    );
    // The clusters the Policy selects have no pool manifests here: their built-in pools exist
    // implicitly. The changed kernel argument and the deleted MachineConfig's kernel argument
    // (located in the base revision) reboot their worker pool.
    assert_eq!(
        forecast(&r),
        vec![entry(
            "clusters selected by Policy/policies/worker-kargs",
            "worker",
            "reboot",
            true
        )]
    );
    // One cause per kernel argument added and removed, at the changed item.
    assert_eq!(
        causes(&r, 0),
        vec![
            cause(
                "MachineConfig/50-worker-kargs",
                "policies/worker-kargs.yaml",
                31,
                17
            ),
            cause(
                "MachineConfig/50-worker-kargs",
                "policies/worker-kargs.yaml",
                31,
                17
            ),
            cause(
                "MachineConfig/99-worker-legacy-audit",
                "policies/worker-kargs.yaml",
                42,
                17
            ),
        ]
    );
    assert_eq!(r["unforecast"], serde_json::json!([]));
}

/// An ACM Policy carrying a ConfigurationPolicy that carries a MachineConfig (kernel argument
/// at 27:17), with the Policy's `remediationAction` and `disabled` as given.
fn kargs_policy(action: &str, disabled: bool) -> String {
    format!(
        "apiVersion: policy.open-cluster-management.io/v1
kind: Policy
metadata:
  name: worker-kargs
  namespace: policies
spec:
  remediationAction: {action}
  disabled: {disabled}
  policy-templates:
  - objectDefinition:
      apiVersion: policy.open-cluster-management.io/v1
      kind: ConfigurationPolicy
      metadata:
        name: worker-kargs
      spec:
        object-templates:
        - complianceType: musthave
          objectDefinition:
            apiVersion: machineconfiguration.openshift.io/v1
            kind: MachineConfig
            metadata:
              name: 99-worker-kargs
              labels:
                machineconfiguration.openshift.io/role: worker
            spec:
              kernelArguments:
              - nosmt
"
    )
}

#[test]
fn a_policy_that_starts_enforcing_brings_what_it_only_checked() {
    let run = |before: &str, after: &str| {
        let repo = Repo::new();
        repo.write("policies/worker-kargs.yaml", before);
        repo.commit("base");
        repo.write("policies/worker-kargs.yaml", after);
        repo.commit("head");
        check_git(&repo, &[])
    };
    let reboot = vec![entry(
        "clusters selected by Policy/policies/worker-kargs",
        "worker",
        "reboot",
        true,
    )];
    let kernel_argument = vec![cause(
        "MachineConfig/99-worker-kargs",
        "policies/worker-kargs.yaml",
        27,
        17,
    )];
    // inform → enforce: ACM only checked the MachineConfig; now it creates it, and the pools
    // reboot for it. The ConfigurationPolicy was propagated (as a check) all along.
    let r = run(
        &kargs_policy("inform", false),
        &kargs_policy("enforce", false),
    );
    assert_eq!(
        changes(&r),
        vec![
            change(
                "MachineConfig/99-worker-kargs",
                "added",
                "Policy/policies/worker-kargs"
            ),
            change("Policy/policies/worker-kargs", "changed", ""),
        ]
    );
    assert_eq!(
        fields(&r, 1),
        vec![field(
            "/spec/remediationAction",
            "policies/worker-kargs.yaml",
            7,
            22
        )]
    );
    assert_eq!(forecast(&r), reboot);
    assert_eq!(causes(&r, 0), kernel_argument);
    assert_eq!(r["unforecast"], serde_json::json!([]));
    // disabled → enabled: nothing was propagated, the ConfigurationPolicy included.
    let r = run(
        &kargs_policy("enforce", true),
        &kargs_policy("enforce", false),
    );
    assert_eq!(
        changes(&r),
        vec![
            change(
                "MachineConfig/99-worker-kargs",
                "added",
                "Policy/policies/worker-kargs"
            ),
            change(
                "ConfigurationPolicy/worker-kargs",
                "added",
                "Policy/policies/worker-kargs"
            ),
            change("Policy/policies/worker-kargs", "changed", ""),
        ]
    );
    assert_eq!(forecast(&r), reboot);
    assert_eq!(causes(&r, 0), kernel_argument);
    // inform on both sides: a changed kernel argument reaches no cluster, and the change says why.
    let more = |action: &str| {
        kargs_policy(action, false)
            .replace("- nosmt\n", "- nosmt\n              - mitigations=off\n")
    };
    let r = run(&kargs_policy("inform", false), &more("inform"));
    assert_eq!(
        changes(&r),
        vec![change(
            "MachineConfig/99-worker-kargs",
            "changed",
            "Policy/policies/worker-kargs"
        )]
    );
    assert_eq!(
        fields(&r, 0),
        vec![field(
            "/spec/kernelArguments",
            "policies/worker-kargs.yaml",
            27,
            15
        )]
    );
    assert_eq!(
        r["changes"][0]["no_node_impact"],
        "only checked by Policy/policies/worker-kargs (remediationAction: inform): ACM reports compliance and never creates, changes or deletes it"
    );
    assert_eq!(forecast(&r), vec![]);
    assert_eq!(r["unforecast"], serde_json::json!([]));
    // A disabled Policy propagates nothing; enforced in head, the same change reboots.
    let r = run(
        &kargs_policy("enforce", true),
        &more("enforce").replace("disabled: false", "disabled: true"),
    );
    assert_eq!(
        r["changes"][0]["no_node_impact"],
        "Policy/policies/worker-kargs is disabled: ACM does not propagate it, so it never creates, changes or deletes the object"
    );
    assert_eq!(forecast(&r), vec![]);
    let r = run(&kargs_policy("inform", false), &more("enforce"));
    assert_eq!(forecast(&r), reboot);
    // enforce → disabled with pruning on: the controller deletes what the policy created, and
    // the pools reboot for the kernel argument that goes (located in base, 28:17).
    let pruning = |action: &str, disabled: bool| {
        kargs_policy(action, disabled).replace(
            "      spec:\n        object-templates:",
            "      spec:\n        pruneObjectBehavior: DeleteAll\n        object-templates:",
        )
    };
    let r = run(&pruning("enforce", false), &pruning("enforce", true));
    assert_eq!(
        changes(&r),
        vec![
            change(
                "MachineConfig/99-worker-kargs",
                "removed",
                "Policy/policies/worker-kargs"
            ),
            change("Policy/policies/worker-kargs", "changed", ""),
        ]
    );
    assert_eq!(forecast(&r), reboot);
    assert_eq!(
        causes(&r, 0),
        vec![cause(
            "MachineConfig/99-worker-kargs",
            "policies/worker-kargs.yaml",
            28,
            17
        )]
    );
    // Without pruning, disabling leaves the objects where they are.
    let r = run(
        &kargs_policy("enforce", false),
        &kargs_policy("enforce", true),
    );
    assert_eq!(
        changes(&r),
        vec![change("Policy/policies/worker-kargs", "changed", "")]
    );
    assert_eq!(forecast(&r), vec![]);
    // enforce → inform: ACM stops enforcing and leaves the object as it is on the clusters.
    let r = run(
        &kargs_policy("enforce", false),
        &kargs_policy("inform", false),
    );
    assert_eq!(
        changes(&r),
        vec![change("Policy/policies/worker-kargs", "changed", "")]
    );
    assert_eq!(forecast(&r), vec![]);
    assert_eq!(r["unforecast"], serde_json::json!([]));
}

#[test]
fn a_policy_that_enforces_and_checks_one_object_still_reboots_for_it() {
    // The common pair in one Policy: an `inform` template checks the MachineConfig an `enforce`
    // template applies. The checked definition reaches no node, the enforced one does: no
    // "no node impact" on the identity, the reboot caused at the enforced line (45:17).
    let template = |name: &str, action: &str, arg: &str| {
        format!(
            "  - objectDefinition:
      apiVersion: policy.open-cluster-management.io/v1
      kind: ConfigurationPolicy
      metadata:
        name: {name}
      spec:
        remediationAction: {action}
        object-templates:
        - complianceType: musthave
          objectDefinition:
            apiVersion: machineconfiguration.openshift.io/v1
            kind: MachineConfig
            metadata:
              name: 99-worker-kargs
              labels:
                machineconfiguration.openshift.io/role: worker
            spec:
              kernelArguments:
              - {arg}
"
        )
    };
    let policy = |arg: &str| {
        format!(
            "apiVersion: policy.open-cluster-management.io/v1
kind: Policy
metadata:
  name: worker-kargs
  namespace: policies
spec:
  policy-templates:
{}{}",
            template("check", "inform", arg),
            template("apply", "enforce", arg)
        )
    };
    let repo = Repo::new();
    repo.write("policies/worker-kargs.yaml", &policy("nosmt"));
    repo.commit("base");
    repo.write("policies/worker-kargs.yaml", &policy("mitigations=off"));
    repo.commit("head");
    let r = check_git(&repo, &[]);
    let kargs = change(
        "MachineConfig/99-worker-kargs",
        "changed",
        "Policy/policies/worker-kargs",
    );
    assert_eq!(changes(&r), vec![kargs.clone(), kargs]);
    for c in r["changes"].as_array().expect("changes") {
        assert_eq!(c["no_node_impact"], serde_json::Value::Null, "{c}");
    }
    assert_eq!(
        forecast(&r),
        vec![entry(
            "clusters selected by Policy/policies/worker-kargs",
            "worker",
            "reboot",
            true
        )]
    );
    let at = |object: &str| cause(object, "policies/worker-kargs.yaml", 45, 17);
    assert_eq!(
        causes(&r, 0),
        vec![
            at("MachineConfig/99-worker-kargs"),
            at("MachineConfig/99-worker-kargs")
        ]
    );
}

#[test]
fn a_changed_policy_generator_is_assumed_to_roll_what_it_lists() {
    // The generator is a Kustomize plugin's input (the root is linted unrendered): a change to
    // its remediation, compliance type or patches changes what the generated Policies do to the
    // MachineConfig it lists, which no model reads yet.
    let generator = |action: &str| {
        format!(
            "apiVersion: policy.open-cluster-management.io/v1
kind: PolicyGenerator
metadata:
  name: node-config
policyDefaults:
  namespace: policies
  remediationAction: {action}
policies:
- name: worker-kargs
  manifests:
  - path: manifests/
"
        )
    };
    let repo = Repo::new();
    repo.write(
        "pg/kustomization.yaml",
        "generators:\n- policy-generator.yaml\n",
    );
    repo.write("pg/policy-generator.yaml", &generator("inform"));
    repo.write(
        "pg/manifests/mc.yaml",
        "apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: 99-worker-kargs
  labels:
    machineconfiguration.openshift.io/role: worker
spec:
  kernelArguments:
  - nosmt
",
    );
    // A second configuration of the same name beside it: generator inputs are never applied,
    // so they collide nowhere (no K004).
    repo.write("pg/other-generator.yaml", &generator("inform"));
    repo.commit("base");
    repo.write("pg/policy-generator.yaml", &generator("enforce"));
    repo.commit("head");
    let r = check_git(&repo, &["--all"]);
    assert_eq!(
        changes(&r),
        vec![change("PolicyGenerator/node-config", "changed", "")]
    );
    assert_eq!(
        fields(&r, 0),
        vec![field(
            "/policyDefaults/remediationAction",
            "pg/policy-generator.yaml",
            7,
            22
        )]
    );
    assert_eq!(forecast(&r), vec![]);
    assert_eq!(
        r["unforecast"],
        serde_json::json!(["PolicyGenerator/node-config"])
    );
    let codes: Vec<&str> = r["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert_eq!(codes, ["R102"]);
    // A generator that lists nothing able to reach nodes changes no node.
    let repo = Repo::new();
    repo.write(
        "pg/kustomization.yaml",
        "generators:\n- policy-generator.yaml\n",
    );
    repo.write("pg/policy-generator.yaml", &generator("inform"));
    repo.write(
        "pg/manifests/ns.yaml",
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: audit\n",
    );
    repo.commit("base");
    repo.write("pg/policy-generator.yaml", &generator("enforce"));
    repo.commit("head");
    let r = check_git(&repo, &[]);
    assert_eq!(
        changes(&r),
        vec![change("PolicyGenerator/node-config", "changed", "")]
    );
    assert_eq!(r["unforecast"], serde_json::json!([]));
}

#[test]
fn a_new_mustnothave_is_a_deletion_even_without_a_base_definition() {
    let repo = Repo::new();
    repo.write("policies/readme.yaml", "a: 1\n");
    repo.commit("base");
    repo.write(
        "policies/remove-debug.yaml",
        "apiVersion: policy.open-cluster-management.io/v1
kind: Policy
metadata:
  name: remove-debug
  namespace: policies
spec:
  policy-templates:
  - objectDefinition:
      apiVersion: policy.open-cluster-management.io/v1
      kind: ConfigurationPolicy
      metadata:
        name: remove-debug
      spec:
        object-templates:
        - complianceType: mustnothave
          objectDefinition:
            apiVersion: machineconfiguration.openshift.io/v1
            kind: MachineConfig
            metadata:
              name: 99-worker-debug
",
    );
    repo.commit("head");
    let r = check_git(&repo, &[]);
    let got = changes(&r);
    assert!(
        got.contains(&change(
            "MachineConfig/99-worker-debug",
            "removed",
            "Policy/policies/remove-debug"
        )),
        "{got:?}"
    );
    assert!(r["unforecast"]
        .as_array()
        .expect("unforecast")
        .contains(&Value::from("MachineConfig/99-worker-debug")));
}

#[test]
fn hive_sync_set_resources_and_patches_are_objects_with_exact_spans() {
    let repo = repo("hive-syncset");
    let r = check_git(&repo, &[]);
    assert_eq!(
        diag_lines(&r),
        vec!["H104 info hive/kubelet-syncset.yaml:27:7"]
    );
    assert_eq!(
        changes(&r),
        vec![
            change(
                "ConfigMap/clusters/workers-config",
                "changed",
                "SelectorSyncSet/prod-kubelet"
            ),
            change(
                "KubeletConfig/max-pods",
                "changed",
                "SelectorSyncSet/prod-kubelet"
            ),
            change(
                "MachineConfigPool/worker",
                "changed",
                "SelectorSyncSet/prod-kubelet"
            ),
        ]
    );
    // The HyperShift ConfigMap embedding keeps working inside the sync set.
    assert_eq!(
        fields(&r, 0),
        vec![
            field("/data/config", "hive/kubelet-syncset.yaml", 27, 15),
            field(
                "/data/config[MachineConfig 50-workers-kargs]/spec/kernelArguments",
                "hive/kubelet-syncset.yaml",
                34,
                11
            ),
        ]
    );
    assert_eq!(
        fields(&r, 1),
        vec![field(
            "/spec/kubeletConfig/maxPods",
            "hive/kubelet-syncset.yaml",
            20,
            18
        )]
    );
    assert_eq!(
        fields(&r, 2),
        vec![field(
            "/spec/maxUnavailable",
            "hive/kubelet-syncset.yaml",
            41,
            35
        )],
        "a merge patch's fields are located inside the patch text"
    );
    // The clusters the sync set selects: the KubeletConfig selects the built-in worker pool by
    // its standard label, so the worker pool reboots, two nodes at a time as the pool patch says.
    assert_eq!(
        forecast(&r),
        vec![entry(
            "clusters selected by SelectorSyncSet/prod-kubelet",
            "worker",
            "reboot",
            true
        )]
    );
    assert_eq!(
        causes(&r, 0),
        vec![cause(
            "KubeletConfig/max-pods",
            "hive/kubelet-syncset.yaml",
            20,
            9
        )]
    );
    assert_eq!(r["forecast"][0]["rollout"]["max_unavailable"], 2);
    assert_eq!(r["unforecast"], serde_json::json!([]));
}

#[test]
fn a_changed_vault_placeholder_is_a_change() {
    let repo = repo("vault-placeholder");
    let r = check_git(&repo, &[]);
    assert_eq!(
        diag_lines(&r),
        vec!["R104 info hosted/prod/nodepool.yaml:14:12"]
    );
    let forecast = r["forecast"].as_array().expect("forecast");
    assert_eq!(forecast.len(), 1);
    assert_eq!(forecast[0]["action"], "replace");
    assert_eq!(
        forecast[0]["causes"][0]["summary"],
        "release (templated value) -> (templated value)"
    );
}

#[test]
fn without_kubectl_overlays_are_linted_unrendered_with_one_info() {
    let repo = repo("labels-role");
    let r = check_git(&repo, &["--kustomize", "/nonexistent/bin/kubectl"]);
    // Unrendered, the raw MachineConfig has no role label, so no pool is known to select it:
    // M109 says its rollout cannot be forecast (assume a reboot), never "no node impact".
    assert_eq!(
        diag_lines(&r),
        vec![
            "M109 warning standalone/lab/base/kernel-args.yaml:3:1",
            "R103 info standalone/lab/overlays/infra/kustomization.yaml:null:null"
        ]
    );
    assert_eq!(
        changes(&r),
        vec![change("MachineConfig/50-kernel-args", "changed", "")]
    );
    assert_eq!(
        r["unforecast"],
        serde_json::json!(["MachineConfig/50-kernel-args"])
    );
    let quiet = check_git(&repo, &["--no-render"]);
    assert_eq!(
        diag_lines(&quiet),
        vec!["M109 warning standalone/lab/base/kernel-args.yaml:3:1"],
        "--no-render says nothing about rendering"
    );
}

#[test]
fn a_hung_kustomize_is_stopped_at_the_timeout() {
    let repo = repo("nodepool-env-patch");
    let bin = tempfile::tempdir().expect("tempdir");
    let fake = bin.path().join("kubectl");
    std::fs::write(&fake, "#!/bin/sh\nexec sleep 30\n").expect("write");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let started = std::time::Instant::now();
    let fake_arg = fake.to_string_lossy().into_owned();
    let r = check_git(
        &repo,
        &["--kustomize", &fake_arg, "--render-timeout", "1", "--all"],
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "took {:?}",
        started.elapsed()
    );
    // Both overlays time out and are linted unrendered: the raw NodePool names no real cluster.
    assert_eq!(
        diag_lines(&r),
        vec![
            "R001 error hosted/base/nodepool.yaml:6:16",
            "R101 error hosted/overlays/prod/kustomization.yaml:null:null",
            "R101 error hosted/overlays/stage/kustomization.yaml:null:null",
        ]
    );
    assert!(r["diagnostics"][1]["message"]
        .as_str()
        .unwrap_or_default()
        .contains("did not finish within 1 s"));
}

#[test]
fn plugins_and_remote_bases_are_refused_not_run() {
    if !require_kubectl("plugins_and_remote_bases_are_refused_not_run") {
        return;
    }
    let repo = Repo::new();
    repo.write("marker.yaml", "a: 1\n");
    repo.commit("base");
    repo.write(
        "clusters/prod/kustomization.yaml",
        "apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
- pool.yaml
transformers:
- set-role.yaml
",
    );
    repo.write(
        "clusters/prod/set-role.yaml",
        "apiVersion: example.com/v1
kind: SetRole
metadata:
  name: set-role
  annotations:
    config.kubernetes.io/function: |
      exec:
        path: ./touch-marker.sh
",
    );
    repo.write(
        "clusters/prod/pool.yaml",
        "apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: 50-x
  labels:
    machineconfiguration.openshift.io/role: worker
spec:
  kernelArguments:
  - nosmt
",
    );
    repo.commit("head");
    let r = check_git(&repo, &[]);
    assert_eq!(
        diag_lines(&r),
        vec!["R102 warning clusters/prod/kustomization.yaml:6:3"]
    );
    assert_eq!(changes(&r), vec![change("MachineConfig/50-x", "added", "")]);
}

#[test]
fn temporary_render_folders_are_removed() {
    if !require_kubectl("temporary_render_folders_are_removed") {
        return;
    }
    let repo = repo("nodepool-env-patch");
    let tmp = tempfile::tempdir().expect("tempdir");
    let tmp_path = tmp.path().to_string_lossy().into_owned();
    let run = nodecast_env(
        repo.path(),
        &[
            "check", "--base", "HEAD^", "--head", "HEAD", "--format", "json",
        ],
        &[("TMPDIR", &tmp_path)],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.json()["forecast"].as_array().map(Vec::len), Some(1));
    let left: Vec<_> = std::fs::read_dir(tmp.path()).expect("read").collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn a_changed_object_templates_raw_is_assumed_to_roll() {
    let repo = Repo::new();
    let policy = |arg: &str| {
        format!(
            "apiVersion: policy.open-cluster-management.io/v1
kind: Policy
metadata:
  name: kargs-by-label
  namespace: policies
spec:
  policy-templates:
  - objectDefinition:
      apiVersion: policy.open-cluster-management.io/v1
      kind: ConfigurationPolicy
      metadata:
        name: kargs-by-label
      spec:
        object-templates-raw: |
          {{{{- range $pool := (list \"worker\" \"infra\") }}}}
          - complianceType: musthave
            objectDefinition:
              apiVersion: machineconfiguration.openshift.io/v1
              kind: MachineConfig
              metadata:
                name: 50-{{{{ $pool }}}}-kargs
              spec:
                kernelArguments:
                - {arg}
          {{{{- end }}}}
"
        )
    };
    repo.write("policies/kargs.yaml", &policy("nosmt"));
    repo.commit("base");
    repo.write("policies/kargs.yaml", &policy("nosmt=force"));
    repo.commit("head");
    let r = check_git(&repo, &[]);
    assert_eq!(
        changes(&r),
        vec![change(
            "ConfigurationPolicy/kargs-by-label",
            "changed",
            "Policy/policies/kargs-by-label"
        )]
    );
    assert_eq!(
        r["unforecast"],
        serde_json::json!(["ConfigurationPolicy/kargs-by-label"]),
        "a hub-rendered template may deploy MachineConfigs: never 'no node impact'"
    );
    assert_eq!(
        diag_lines(&r),
        vec!["R104 info policies/kargs.yaml:14:31"],
        "the raw template is a templated value"
    );
}

#[test]
fn unchanged_roots_are_rendered_once_for_both_revisions() {
    if !require_kubectl("unchanged_roots_are_rendered_once_for_both_revisions") {
        return;
    }
    let repo = repo("nodepool-env-patch");
    let (bin, log) = logging_kubectl();
    let wrapper_arg = bin.path().join("kubectl").to_string_lossy().into_owned();
    let r = check_git(&repo, &["--kustomize", &wrapper_arg]);
    assert_eq!(r["forecast"].as_array().map(Vec::len), Some(1));
    let calls = std::fs::read_to_string(&log).expect("log");
    // prod changed (base and head rendered), stage did not (one render serves both sides).
    assert_eq!(calls.lines().count(), 3, "{calls}");
}

#[test]
fn staged_overlays_are_rendered_from_the_index() {
    if !require_kubectl("staged_overlays_are_rendered_from_the_index") {
        return;
    }
    let repo = repo("nodepool-env-patch");
    let patch = "hosted/overlays/stage/nodepool-patch.yaml";
    let text = std::fs::read_to_string(repo.path().join(patch)).expect("read");
    repo.write(patch, &text.replace("4.18.5", "4.18.9"));
    repo.git(&["add", patch]);
    // The working tree differs again from the index: the index is what is checked.
    repo.write(patch, &text.replace("4.18.5", "4.19.1"));
    let r = nodecast(repo.path(), &["check", "--staged", "--format", "json"]).json();
    assert_eq!(
        changes(&r),
        vec![change(
            "NodePool/clusters/workers",
            "changed",
            "hosted/overlays/stage"
        )]
    );
    assert_eq!(
        r["forecast"][0]["causes"][0]["summary"],
        "release 4.18.5 -> 4.18.9"
    );
    assert_eq!(
        r["forecast"][0]["target"]["cluster"],
        "HostedCluster/clusters/stage"
    );
}

#[test]
fn fixing_a_broken_overlay_is_not_an_error() {
    if !require_kubectl("fixing_a_broken_overlay_is_not_an_error") {
        return;
    }
    let repo = Repo::new();
    let case = built("missing-resource");
    // Base: the broken overlay (the case's `after`); head: the fixed one (its `before`).
    copy_tree(&case.path().join("after"), repo.path());
    repo.commit("broken");
    std::fs::remove_dir_all(repo.path().join("hosted")).expect("rm");
    copy_tree(&case.path().join("before"), repo.path());
    repo.commit("fixed");
    let r = check_git(&repo, &[]);
    assert_eq!(
        diag_lines(&r),
        vec!["R101 info hosted/prod/kustomization.yaml:5:3"]
    );
    assert_eq!(
        r["diagnostics"][0]["message"]
            .as_str()
            .map(|m| m.contains("(base revision)")),
        Some(true)
    );
    assert_eq!(run_code(&repo), 0, "the fix passes the check");
}

fn run_code(repo: &Repo) -> i32 {
    nodecast(repo.path(), &["check", "--base", "HEAD^", "--head", "HEAD"]).code
}

#[test]
fn a_rendered_nodepool_finds_its_hosted_cluster_in_a_plain_file() {
    if !require_kubectl("a_rendered_nodepool_finds_its_hosted_cluster_in_a_plain_file") {
        return;
    }
    let repo = Repo::new();
    repo.write(
        "hosted/hostedcluster.yaml",
        &common::hosted_cluster("prod", "4.18.9"),
    );
    repo.write(
        "hosted/nodepools/kustomization.yaml",
        "resources:\n- workers.yaml\nnamespace: clusters\n",
    );
    repo.write(
        "hosted/nodepools/workers.yaml",
        &common::node_pool("workers", "prod", 3, &[]),
    );
    repo.commit("base");
    repo.write(
        "hosted/nodepools/workers.yaml",
        &common::node_pool("workers", "prod", 3, &[]).replace("4.18.5", "4.18.9"),
    );
    repo.commit("head");
    let r = check_git(&repo, &[]);
    assert_eq!(
        diag_lines(&r),
        Vec::<String>::new(),
        "the reference resolves across scopes"
    );
    assert_eq!(
        r["forecast"][0]["target"]["cluster"],
        "HostedCluster/clusters/prod"
    );
    assert_eq!(r["forecast"][0]["action"], "replace");
    assert_eq!(
        r["forecast"][0]["causes"][0]["file"],
        "hosted/nodepools/workers.yaml"
    );
    assert_eq!(r["forecast"][0]["causes"][0]["line"], 12);
}

#[test]
fn inline_json_patches_locate_the_values_they_set() {
    if !require_kubectl("inline_json_patches_locate_the_values_they_set") {
        return;
    }
    let repo = Repo::new();
    repo.write(
        "hosted/hostedcluster.yaml",
        &common::hosted_cluster("prod", "4.18.9"),
    );
    repo.write(
        "hosted/nodepools/workers.yaml",
        &common::node_pool("workers", "prod", 3, &[]),
    );
    let kustomization = |replicas: u32| {
        format!(
            "resources:
- workers.yaml
patches:
- target:
    kind: NodePool
    name: workers
  patch: |-
    - op: replace
      path: /spec/replicas
      value: {replicas}
"
        )
    };
    repo.write("hosted/nodepools/kustomization.yaml", &kustomization(5));
    repo.commit("base");
    repo.write("hosted/nodepools/kustomization.yaml", &kustomization(6));
    repo.commit("head");
    let r = check_git(&repo, &[]);
    assert_eq!(diag_lines(&r), Vec::<String>::new());
    assert_eq!(
        fields(&r, 0),
        vec![field(
            "/spec/replicas",
            "hosted/nodepools/kustomization.yaml",
            10,
            14
        )]
    );
    assert_eq!(r["forecast"][0]["action"], "none", "replicas roll nothing");
    assert_eq!(
        r["forecast"][0]["causes"][0]["file"],
        "hosted/nodepools/kustomization.yaml"
    );
}

#[test]
fn a_generated_config_map_payload_is_located_in_its_source_file() {
    if !require_kubectl("a_generated_config_map_payload_is_located_in_its_source_file") {
        return;
    }
    let repo = repo("generator-config");
    let r = check_git(&repo, &[]);
    assert_eq!(diag_lines(&r), Vec::<String>::new());
    assert_eq!(
        changes(&r),
        vec![change(
            "ConfigMap/clusters/workers-config",
            "changed",
            "hosted"
        )]
    );
    assert_eq!(
        fields(&r, 0),
        vec![
            field("/data/config", "hosted/kustomization.yaml", 8, 5),
            field(
                "/data/config[MachineConfig 50-kargs]/spec/kernelArguments",
                "hosted/kernel-args.yaml",
                7,
                3
            ),
        ]
    );
    let cause = &r["forecast"][0]["causes"][0];
    assert_eq!(r["forecast"][0]["action"], "replace");
    assert_eq!(
        (cause["file"].as_str(), cause["line"].as_u64()),
        (Some("hosted/kernel-args.yaml"), Some(6))
    );

    // Without `disableNameSuffixHash` the generated name carries a hash that Kustomize does not
    // write into the NodePool (it does not know the CRD): the reference is broken, as on a cluster.
    let rel = "hosted/kustomization.yaml";
    let text = std::fs::read_to_string(repo.path().join(rel)).expect("read");
    repo.write(
        rel,
        &text.replace("generatorOptions:\n  disableNameSuffixHash: true\n", ""),
    );
    repo.commit("hashed names");
    let r = check_git(&repo, &[]);
    assert_eq!(
        diag_lines(&r),
        vec![
            "H104 info hosted/kustomization.yaml:4:1",
            // One mistake, one finding: H102 speaks for the generic R001 on the same span.
            "H102 error hosted/nodepool.yaml:10:11",
        ]
    );
}

#[test]
fn a_policy_kubelet_config_for_a_pool_labelled_on_the_cluster_is_not_called_harmless() {
    // The Policy's clusters have no pool manifests here: the worker pool may well carry
    // `custom-kubelet: small-pods` on the cluster (`oc label mcp worker …`), so the change is
    // not forecast ("assume a rollout") rather than "selects no pool, changes no node".
    let repo = Repo::new();
    let policy = |max_pods: u32| {
        format!(
            "apiVersion: policy.open-cluster-management.io/v1
kind: Policy
metadata:
  name: small-pods
  namespace: policies
spec:
  policy-templates:
  - objectDefinition:
      apiVersion: policy.open-cluster-management.io/v1
      kind: ConfigurationPolicy
      metadata:
        name: small-pods
      spec:
        object-templates:
        - complianceType: musthave
          objectDefinition:
            apiVersion: machineconfiguration.openshift.io/v1
            kind: KubeletConfig
            metadata:
              name: set-max-pods
            spec:
              machineConfigPoolSelector:
                matchLabels:
                  custom-kubelet: small-pods
              kubeletConfig:
                maxPods: {max_pods}
"
        )
    };
    repo.write("policies/small-pods.yaml", &policy(100));
    repo.commit("base");
    repo.write("policies/small-pods.yaml", &policy(120));
    repo.commit("head");
    // The M108 advisory is on an unchanged line (pre-existing): listed with --all.
    let r = check_git(&repo, &["--all"]);
    assert_eq!(
        diag_lines(&r),
        vec!["M108 info policies/small-pods.yaml:22:15"]
    );
    assert_eq!(forecast(&r), Vec::new());
    assert_eq!(
        r["unforecast"],
        serde_json::json!(["KubeletConfig/set-max-pods"])
    );
    // With the pool manifest in the Policy, its labels are known: the worker pool reboots.
    let with_pool = policy(120).replace(
        "        object-templates:\n",
        "        object-templates:
        - complianceType: musthave
          objectDefinition:
            apiVersion: machineconfiguration.openshift.io/v1
            kind: MachineConfigPool
            metadata:
              name: worker
              labels:
                custom-kubelet: small-pods
            spec:
              machineConfigSelector:
                matchLabels:
                  machineconfiguration.openshift.io/role: worker
              nodeSelector:
                matchLabels:
                  node-role.kubernetes.io/worker: \"\"
",
    );
    repo.write("policies/small-pods.yaml", &with_pool.replace("120", "140"));
    repo.commit("pool managed by the Policy");
    let r = check_git(&repo, &[]);
    assert_eq!(diag_lines(&r), Vec::<String>::new());
    assert_eq!(
        forecast(&r),
        vec![entry(
            "clusters selected by Policy/policies/small-pods",
            "worker",
            "reboot",
            true
        )]
    );
}

/// The report without the order of each change's fields (an emulated root lists them in source
/// order, Kustomize's output in its own key order).
fn comparable(mut r: Value) -> Value {
    if let Some(changes) = r["changes"].as_array_mut() {
        for c in changes {
            if let Some(fields) = c["fields"].as_array_mut() {
                fields.sort_by_key(|f| f["path"].as_str().unwrap_or_default().to_string());
            }
        }
    }
    r
}

/// `check` of HEAD^ against HEAD, as JSON.
const COMPARE_COMMITS_JSON: [&str; 7] = [
    "check", "--base", "HEAD^", "--head", "HEAD", "--format", "json",
];

/// The benchmark generator's small fleet (seed 1): one identity kustomization per cluster.
fn small_fleet() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().expect("tmp");
    let fleet = tmp.path().join("fleet");
    repogen::generate(repogen::Size::Small, 1, &fleet).expect("generate");
    (tmp, fleet)
}

/// Roots that only list files (the render is the input) are taken from the parsed files, not
/// run through Kustomize; the report must be exactly what running Kustomize on every root gives.
#[test]
fn roots_that_only_list_files_report_exactly_what_kustomize_renders() {
    if !require_kubectl("roots_that_only_list_files_report_exactly_what_kustomize_renders") {
        return;
    }
    let (_tmp, fleet) = small_fleet();
    let mut repos: Vec<(String, std::path::PathBuf, Option<Repo>)> =
        vec![("generated small fleet".into(), fleet, None)];
    for case in fixture::cases(&project_root().join("testdata/real")) {
        let name = case
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let r = repo(&name);
        repos.push((name, r.path().to_path_buf(), Some(r)));
    }
    assert!(repos.len() > 5, "the real cases are found");
    for (name, path, _keep) in &repos {
        let mut args = COMPARE_COMMITS_JSON.to_vec();
        args.extend(["--now", "2026-11-18T10:00:00Z"]);
        let emulated = nodecast(path, &args);
        let mut all = args.clone();
        all.push("--render-every-root");
        let rendered = nodecast(path, &all);
        assert_eq!(emulated.code, rendered.code, "{name}: exit codes");
        assert_eq!(
            comparable(emulated.json()),
            comparable(rendered.json()),
            "{name}: emulated and rendered reports differ"
        );
    }
}

/// In a fleet whose roots only list files, no Kustomize process runs at all; a root with a
/// transformation still goes through Kustomize.
#[test]
fn only_roots_with_transformations_run_kustomize() {
    if !require_kubectl("only_roots_with_transformations_run_kustomize") {
        return;
    }
    let (_tmp, fleet) = small_fleet();
    let (bin, log) = logging_kubectl();
    let wrapper_arg = bin.path().join("kubectl").to_string_lossy().into_owned();
    let mut args = COMPARE_COMMITS_JSON.to_vec();
    args.extend(["--kustomize", &wrapper_arg]);
    let run = nodecast(&fleet, &args);
    assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
    assert!(
        !log.exists(),
        "no render ran: {:?}",
        std::fs::read_to_string(&log)
    );

    // One root gains a label transformation: that root (unchanged on the base side, changed on
    // the head side) renders twice; the others still do not run.
    let kust = std::fs::read_dir(fleet.join("clusters/standalone"))
        .expect("standalone")
        .filter_map(Result::ok)
        .map(|e| e.path().join("kustomization.yaml"))
        .find(|p| p.exists())
        .expect("a standalone root");
    let text = std::fs::read_to_string(&kust).expect("read");
    std::fs::write(&kust, format!("{text}commonAnnotations:\n  team: fleet\n")).expect("write");
    git_in(&fleet, &["commit", "-qam", "annotate one root"]);
    let run = nodecast(&fleet, &args);
    assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
    let calls = std::fs::read_to_string(&log).expect("log");
    assert_eq!(
        calls.lines().count(),
        1,
        "only the annotated root renders: {calls}"
    );
}

/// The render cache never changes a result: for every repository case, a cold cache, a warm
/// one, a cache written by another revision and a cache whose entries were all corrupted give
/// byte-identical JSON to `--full` (no cache) — and a warm run starts no Kustomize at all when
/// every render succeeded.
#[test]
fn the_render_cache_gives_the_same_report_as_a_full_run() {
    if !require_kubectl("the_render_cache_gives_the_same_report_as_a_full_run") {
        return;
    }
    let cases: Vec<String> = fixture::cases(&project_root().join("testdata/real"))
        .iter()
        .filter_map(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    assert!(cases.len() >= 8, "{cases:?}");
    for case in cases {
        let repo = repo(&case);
        let cache = tempfile::tempdir().expect("cache");
        let cache_arg = cache.path().to_string_lossy().into_owned();
        let (bin, log) = logging_kubectl();
        let kubectl = bin.path().join("kubectl").to_string_lossy().into_owned();
        let args = [
            "check",
            "--base",
            "HEAD^",
            "--head",
            "HEAD",
            "--format",
            "json",
            "--now",
            "2026-11-21T12:00:00Z",
            "--kustomize",
            &kubectl,
        ];
        let run = |extra: &[&str]| {
            let all: Vec<&str> = args.iter().copied().chain(extra.iter().copied()).collect();
            let r = nodecast(repo.path(), &all);
            assert!(r.code == 0 || r.code == 1, "{case}: {}", r.stderr);
            r.stdout
        };
        let calls = || {
            std::fs::read_to_string(&log)
                .map(|l| l.lines().count())
                .unwrap_or(0)
        };
        let full = run(&["--full"]);
        let rendered = calls();
        // A cache written by another revision pair (head against itself) first.
        let mut other: Vec<&str> = vec![
            "check", "--base", "HEAD", "--head", "HEAD", "--format", "json",
        ];
        other.extend(["--kustomize", &kubectl, "--cache-dir", &cache_arg]);
        let _ = nodecast(repo.path(), &other);
        assert_eq!(
            run(&["--cache-dir", &cache_arg]),
            full,
            "{case}: cache from another revision"
        );
        assert_eq!(
            run(&["--cache-dir", &cache_arg]),
            full,
            "{case}: warm cache"
        );
        let before_warm = calls();
        assert_eq!(
            run(&["--cache-dir", &cache_arg]),
            full,
            "{case}: warm cache"
        );
        // Failed renders are never stored (a timeout or an interruption is no fact of the
        // inputs): only the case whose base overlay does not render runs Kustomize again.
        let failing = usize::from(case == "missing-resource");
        assert_eq!(
            calls() - before_warm,
            failing,
            "{case}: a warm run renders only what failed"
        );
        let entries: Vec<std::path::PathBuf> = std::fs::read_dir(cache.path().join("render"))
            .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
            .unwrap_or_default();
        if failing == 0 {
            assert_eq!(
                entries.is_empty(),
                rendered == 0,
                "{case}: entries only for renders"
            );
        }
        for e in &entries {
            std::fs::write(e, b"not a render").expect("corrupt");
        }
        assert_eq!(
            run(&["--cache-dir", &cache_arg]),
            full,
            "{case}: corrupted cache"
        );
        assert_eq!(run(&["--no-cache"]), full, "{case}: --no-cache");
    }
}

/// Checks the case `HEAD^..HEAD` with `--full`, then twice with one cache folder (the first
/// whole, recording; the second with `decided` in its scope log: scoped, or whole and why); all
/// three give the same JSON, which is returned.
fn scoped_like_full(case: &str, decided: &str) -> Value {
    let repo = repo(case);
    let cache = tempfile::tempdir().expect("cache");
    let cache_arg = cache.path().to_string_lossy().into_owned();
    let run = |extra: &[&str]| {
        let all: Vec<&str> = COMPARE_COMMITS_JSON
            .iter()
            .copied()
            .chain(["--now", "2026-11-21T12:00:00Z"])
            .chain(extra.iter().copied())
            .collect();
        let r = nodecast_env(
            repo.path(),
            &all,
            &[("NODECAST_SCOPE_LOG", "1"), ("NODECAST_SCOPE_STRICT", "1")],
        );
        assert!(r.code == 0 || r.code == 1, "{case}: {}", r.stderr);
        r
    };
    let full = run(&["--full"]);
    let cold = run(&["--cache-dir", &cache_arg]);
    assert!(
        cold.stderr
            .contains("whole: no record of the base revision"),
        "{case}: {}",
        cold.stderr
    );
    let warm = run(&["--cache-dir", &cache_arg]);
    assert!(
        warm.stderr.contains(&format!("nodecast scope: {decided}")),
        "{case}: {}",
        warm.stderr
    );
    assert_eq!(cold.stdout, full.stdout, "{case}: cold");
    assert_eq!(warm.stdout, full.stdout, "{case}: warm");
    full.json()
}

/// Flux's layout: a namespace's folder lists each app's Flux Kustomization and renders with a
/// transformation, so its closure is the whole folder — the nested app roots and their files
/// come with it; a file with a template (Y005, a Helm value in a label) is read by its app's
/// root, the namespace's root and itself. A change elsewhere (a
/// dashboard revision) is scoped all the same — the islands of every producer whose own file the
/// subset holds are evaluated, and a finding shared by islands that are all evaluated is the
/// evaluation's — and reports what `--full` does.
#[test]
fn a_flux_namespace_folder_is_scoped_and_reports_what_a_whole_check_does() {
    if !require_kubectl("a_flux_namespace_folder_is_scoped_and_reports_what_a_whole_check_does") {
        return;
    }
    let r = scoped_like_full(
        "flux-namespace-apps",
        "scoped: 12 of 13 islands evaluated (3 touched)",
    );
    assert_eq!(
        diag_lines(&r),
        Vec::<String>::new(),
        "the templated file's findings are pre-existing"
    );
    assert_eq!(r["summary"]["pre_existing"], 1);
    assert_eq!(
        changes(&r),
        vec![change(
            "HelmRelease/observability/grafana",
            "changed",
            "kubernetes/apps/observability/grafana/app"
        )]
    );
}

/// The same HelmRelease in two clusters' folders makes each folder a deployment unit, and every
/// object below it takes the unit as its scope: a change to another file of one folder is scoped
/// with those two definitions read (they decide its scope), and reports what `--full` does.
#[test]
fn deployment_units_are_read_by_a_scoped_check_and_it_reports_what_a_whole_check_does() {
    let r = scoped_like_full(
        "sibling-units",
        "scoped: 1 of 2 islands evaluated (1 touched)",
    );
    assert_eq!(diag_lines(&r), Vec::<String>::new());
    assert_eq!(
        changes(&r),
        vec![change("ConfigMap/default/settings", "changed", "")]
    );
}

/// A change that pastes a Secret's value into a ConfigMap of another folder: the scoped check
/// does not read the Secret's file, so it cannot mask the value itself; the record's keyed hash
/// of it finds the value in the change it would print, and the check is whole — which masks it,
/// as `--full` does. The value is printed nowhere.
#[test]
fn a_private_value_of_a_file_a_scoped_check_left_out_makes_it_whole_and_is_masked() {
    let r = scoped_like_full(
        "private-value-elsewhere",
        "whole: a text may show a private value of a file left out",
    );
    assert!(!r.to_string().contains("hunter2-Quartz-9f8e7d"), "{r}");
    assert_eq!(
        changes(&r),
        vec![change("ConfigMap/default/settings", "changed", "")]
    );
    assert_eq!(
        fields(&r, 0),
        vec![field("/data/dsn", "clusters/b/settings.yaml", 10, 8)]
    );
}
