//! Findings about a value a Kustomize patch writes point into the patch, where the value is
//! written — the file and line an engineer edits — not at the same position in the base file
//! the object comes from (the models, the schedule linter and the version-transition rules once
//! placed them there).

use crate::common;

use common::{nodecast, Repo};
use serde_json::Value;

/// `code file:line:col` of every finding, then of each related place, in report order.
fn places(r: &Value) -> Vec<String> {
    let at = |d: &Value| {
        format!(
            "{}:{}:{}",
            d["file"].as_str().unwrap_or("?"),
            d["line"],
            d["column"]
        )
    };
    let mut out = Vec::new();
    for d in r["diagnostics"].as_array().expect("diagnostics") {
        out.push(format!("{} {}", d["code"].as_str().unwrap_or("?"), at(d)));
        for rel in d["related"].as_array().expect("related") {
            out.push(format!("  related {}", at(rel)));
        }
    }
    out
}

#[test]
fn findings_on_patched_values_point_into_the_patch() {
    if !common::require_kubectl("findings_on_patched_values_point_into_the_patch") {
        return;
    }
    let repo = Repo::new();
    // A MachineConfigPool whose change-management stanza only an overlay's patch writes.
    repo.write(
        "pools/base/pool.yaml",
        "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfigPool\nmetadata:\n  name: worker\nspec:\n  machineConfigSelector:\n    matchLabels:\n      machineconfiguration.openshift.io/role: worker\n  nodeSelector:\n    matchLabels:\n      node-role.kubernetes.io/worker: \"\"\n",
    );
    repo.write(
        "pools/base/cv.yaml",
        "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\nspec:\n  channel: stable-4.18\n  desiredUpdate:\n    version: 4.18.5\n",
    );
    repo.write(
        "pools/base/kustomization.yaml",
        "resources:\n- pool.yaml\n- cv.yaml\n",
    );
    repo.write(
        "pools/overlay/kustomization.yaml",
        "resources:\n- ../base\npatches:\n- path: window.yaml\n- path: force.yaml\n",
    );
    // A forced update that only the overlay's patch asks for (a version-transition rule).
    repo.write(
        "pools/overlay/force.yaml",
        "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\nspec:\n  desiredUpdate:\n    force: true\n",
    );
    repo.write(
        "pools/overlay/window.yaml",
        "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfigPool\nmetadata:\n  name: worker\nspec:\n  changeManagement:\n    disabledUntill: \"2026-12-01T00:00:00Z\"\n",
    );
    // A NodePool whose patch sets maxSurge 0 beside the base's maxUnavailable 0.
    repo.write(
        "hc/base/np.yaml",
        "apiVersion: hypershift.openshift.io/v1beta1\nkind: NodePool\nmetadata:\n  name: workers\n  namespace: clusters\nspec:\n  clusterName: prod\n  replicas: 3\n  management:\n    upgradeType: Replace\n    replace:\n      strategy: RollingUpdate\n      rollingUpdate:\n        maxSurge: 1\n        maxUnavailable: 0\n  platform:\n    type: None\n  release:\n    image: quay.io/openshift-release-dev/ocp-release:4.18.5-x86_64\n",
    );
    repo.write("hc/base/kustomization.yaml", "resources:\n- np.yaml\n");
    repo.write(
        "hc/overlay/kustomization.yaml",
        "resources:\n- ../base\npatches:\n- path: surge.yaml\n",
    );
    repo.write(
        "hc/overlay/surge.yaml",
        "apiVersion: hypershift.openshift.io/v1beta1\nkind: NodePool\nmetadata:\n  name: workers\n  namespace: clusters\nspec:\n  management:\n    replace:\n      rollingUpdate:\n        maxSurge: 0\n",
    );
    repo.commit("overlays with patches");
    let run = nodecast(
        repo.path(),
        &[
            "check",
            "--no-base",
            "--no-cache",
            "--no-schema",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        places(&run.json()),
        [
            "R001 hc/base/np.yaml:7:16",
            // maxSurge in the patch; maxUnavailable, which the base writes, in the base.
            "H109 hc/overlay/surge.yaml:10:19",
            "  related hc/base/np.yaml:15:25",
            "S117 pools/overlay/force.yaml:7:5",
            "W101 pools/overlay/window.yaml:6:3",
            "W111 pools/overlay/window.yaml:7:5",
        ]
    );
}
