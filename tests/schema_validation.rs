//! Schema validation through the real binary: embedded manifests, CRDs found in the repository,
//! `--schemas`, feature-set variants, transition rules against a Git base, `--verbose` and
//! `schema-coverage`.

use crate::common;

use common::{diag_lines, hosted_cluster, node_pool, nodecast, Repo};

fn repo_with(files: &[(&str, &str)]) -> Repo {
    let repo = Repo::new();
    for (p, c) in files {
        repo.write(p, c);
    }
    repo.commit("files");
    repo
}

/// A CRD of a group nodecast does not bundle, with an enum, an int-or-string field and CEL rules
/// (one calling a function nodecast does not implement).
const WIDGET_CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names:
    kind: Widget
    plural: widgets
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion: {type: string}
          kind: {type: string}
          metadata: {type: object}
          spec:
            type: object
            x-kubernetes-validations:
            - rule: \"self.size == 'large' || self.count <= 3\"
              message: only large widgets may have more than 3 parts
              fieldPath: .count
            - rule: \"!has(self.limit) || quantity(self.limit).isGreaterThan(quantity('0'))\"
              message: limit must be positive
            properties:
              size:
                type: string
                enum: [small, large]
              count:
                type: integer
              budget:
                x-kubernetes-int-or-string: true
              limit:
                type: string
";

#[test]
fn crds_in_the_repository_are_used_for_their_kinds() {
    let widget = |name: &str, size: &str| {
        format!(
            "apiVersion: example.com/v1
kind: Widget
metadata:
  name: {name}
  namespace: default
spec:
  size: {size}
  count: 5
  budget: 10%
  limit: 1Gi
"
        )
    };
    let repo = repo_with(&[
        ("crd.yaml", WIDGET_CRD),
        ("a.yaml", &widget("w", "small")),
        ("b.yaml", &widget("v", "medium")),
    ]);
    let run = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]);
    let r = run.json();
    // a.yaml: the CEL rule fails; its fieldPath puts the finding at `count` (line 8, column 10).
    // b.yaml: `medium` is not in the enum (line 7, column 9); as on the API server, the CEL rules
    // are then not evaluated. `budget: 10%` is a valid int-or-string in both.
    assert_eq!(
        diag_lines(&r),
        vec!["V103 error a.yaml:8:10", "V101 error b.yaml:7:9"]
    );
    assert_eq!(run.code, 1);
    let d = &r["diagnostics"];
    assert_eq!(
        d[0]["message"],
        "rejected by the API server: spec.count: Invalid value: \"object\": only large widgets may have more than 3 parts"
    );
    assert_eq!(
        d[1]["message"],
        "rejected by the API server: spec.size: Unsupported value: \"medium\": supported values: \"small\", \"large\""
    );
    assert_eq!(d[1]["help"], "use one of \"small\", \"large\"");
    assert_eq!(
        d[1]["notes"][0],
        "the API server checks the CRD's CEL rules only once this is fixed, and so does nodecast"
    );

    // The rule nodecast cannot evaluate (`quantity`) is not a finding; --verbose lists it.
    let verbose = nodecast(repo.path(), &["check", "--no-base", "--verbose"]);
    assert!(
        verbose.stderr.contains("1 CEL rule evaluation(s) skipped"),
        "{}",
        verbose.stderr
    );
    assert!(
        verbose
            .stderr
            .contains("Widget/default/w spec: `!has(self.limit) || quantity("),
        "{}",
        verbose.stderr
    );
}

#[test]
fn schemas_dir_adds_crds() {
    let dir = tempfile::tempdir().unwrap();
    let schemas = dir.path().join("schemas");
    std::fs::create_dir_all(&schemas).unwrap();
    std::fs::write(schemas.join("widget.crd.yaml"), WIDGET_CRD).unwrap();
    let manifests = dir.path().join("manifests");
    std::fs::create_dir_all(&manifests).unwrap();
    std::fs::write(
        manifests.join("w.yaml"),
        "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: large\n  colour: red\n",
    )
    .unwrap();
    let without = nodecast(
        dir.path(),
        &["check", "--no-base", "manifests", "--format", "json"],
    );
    assert_eq!(diag_lines(&without.json()), Vec::<String>::new());
    let with = nodecast(
        dir.path(),
        &[
            "check",
            "--no-base",
            "manifests",
            "--schemas",
            "schemas",
            "--format",
            "json",
        ],
    );
    assert_eq!(diag_lines(&with.json()), vec!["V102 warning w.yaml:7:3"]);
    let missing = nodecast(
        dir.path(),
        &["check", "--no-base", "manifests", "--schemas", "nope"],
    );
    assert_eq!(missing.code, 2);
    assert!(
        missing.stderr.contains("--schemas nope"),
        "{}",
        missing.stderr
    );
}

#[test]
fn manifests_embedded_in_configmaps_are_validated_in_the_outer_file() {
    let cm = "apiVersion: v1
kind: ConfigMap
metadata:
  name: worker-mc
  namespace: clusters
data:
  config: |
    apiVersion: machineconfiguration.openshift.io/v1
    kind: MachineConfig
    metadata:
      name: 50-kargs
    spec:
      kernelArgument:
      - nosmt
";
    let repo = repo_with(&[
        ("hc.yaml", &hosted_cluster("prod", "4.18.5")),
        ("np.yaml", &node_pool("workers", "prod", 3, &["worker-mc"])),
        ("cm.yaml", cm),
    ]);
    let r = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]).json();
    // `kernelArgument` (line 13, column 7 of the outer file) is not a MachineConfig field.
    assert_eq!(diag_lines(&r), vec!["V102 warning cm.yaml:13:7"]);
    let d = &r["diagnostics"][0];
    assert_eq!(
        d["object"],
        "MachineConfig/50-kargs (in ConfigMap/clusters/worker-mc data.config)"
    );
    assert!(
        d["help"]
            .as_str()
            .unwrap()
            .starts_with("did you mean `kernelArguments`?"),
        "{d}"
    );
}

#[test]
fn the_feature_set_of_the_hosted_cluster_selects_the_crd_variant() {
    // spec.osImageStream exists only in the TechPreviewNoUpgrade NodePool CRD of this snapshot.
    // (rhel-10 on a 4.18 release is also refused by the NodePool controller: H108.)
    let np = node_pool("workers", "prod", 3, &[]) + "  osImageStream:\n    name: rhel-10\n";
    let repo = repo_with(&[
        ("hc.yaml", &hosted_cluster("prod", "4.18.5")),
        ("np.yaml", &np),
    ]);
    let r = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]).json();
    // The Default schema has no osImageStream: the API server drops it. S105 says so with the
    // reason (the OSStreams gate is off) and stands for the generic V102 on that line.
    assert_eq!(
        diag_lines(&r),
        vec!["S105 warning np.yaml:15:3", "H108 error np.yaml:16:11"]
    );

    let forced = nodecast(
        repo.path(),
        &[
            "check",
            "--no-base",
            "--feature-set",
            "TechPreviewNoUpgrade",
            "--format",
            "json",
        ],
    )
    .json();
    // --feature-set only picks the schema variant; the HostedCluster still runs Default, so the
    // stream rule still says the field is dropped there.
    assert_eq!(
        diag_lines(&forced),
        vec!["S105 warning np.yaml:15:3", "H108 error np.yaml:16:11"]
    );

    let tech_preview = hosted_cluster("prod", "4.18.5")
        + "  configuration:\n    featureGate:\n      featureSet: TechPreviewNoUpgrade\n";
    repo.write("hc.yaml", &tech_preview);
    let r = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]).json();
    assert_eq!(diag_lines(&r), vec!["H108 error np.yaml:16:11"]);
}

#[test]
fn transition_rules_compare_with_the_base_revision() {
    let repo = repo_with(&[
        ("hc.yaml", &hosted_cluster("prod", "4.18.5")),
        ("np.yaml", &node_pool("workers", "prod", 3, &[])),
    ]);
    // upgradeType is immutable (`self == oldSelf`); line 10, column 18.
    repo.write(
        "np.yaml",
        &node_pool("workers", "prod", 3, &[])
            .replace("upgradeType: Replace", "upgradeType: InPlace"),
    );
    let run = nodecast(repo.path(), &["check", "--format", "json"]);
    let r = run.json();
    // The HyperShift model's H110 says the same on the same line: the CRD's rule is kept, and
    // the forecast says the NodePool is blocked.
    assert_eq!(diag_lines(&r), vec!["V104 error np.yaml:10:18"]);
    assert_eq!(run.code, 1);
    assert_eq!(r["forecast"][0]["action"], "blocked");
    let d = &r["diagnostics"][0];
    assert_eq!(
        d["message"],
        "the API server rejects this update: spec.management.upgradeType: Invalid value: \"string\": UpgradeType is immutable"
    );
    assert_eq!(d["related"][0]["revision"], "base");
    assert_eq!(d["related"][0]["line"], 10);
    assert_eq!(d["related"][0]["column"], 18);

    // A new object has no old self: the same manifest is fine on create.
    let fresh = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]).json();
    assert_eq!(diag_lines(&fresh), Vec::<String>::new());
}

#[test]
fn duplicate_keys_and_core_kinds() {
    let cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: x\ndata:\n  replicas: 3\n";
    let repo = repo_with(&[("cm.yaml", cm)]);
    let r = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]).json();
    assert_eq!(diag_lines(&r), vec!["V101 error cm.yaml:7:13"]);
    assert_eq!(
        r["diagnostics"][0]["message"],
        "rejected by the API server: data.replicas: Invalid value: \"integer\": data.replicas in body must be of type string"
    );
}

#[test]
fn schema_coverage_meets_the_target() {
    let dir = tempfile::tempdir().unwrap();
    let run = nodecast(dir.path(), &["schema-coverage"]);
    assert_eq!(run.code, 0);
    assert!(
        run.stdout
            .contains("hypershift.openshift.io/NodePool/v1beta1/Default"),
        "{}",
        run.stdout
    );
    let total = run.stdout.lines().last().unwrap_or_default();
    assert!(total.starts_with("total"), "{total}");
    assert!(total.ends_with("(100.0%)"), "{total}");
}

#[test]
fn secret_data_must_be_base64() {
    let secret = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  namespace: x\ndata:\n  ok: aGVsbG8=\n  token: not base64!\nstringData:\n  plain: not base64!\n";
    let repo = repo_with(&[("secret.yaml", secret)]);
    let r = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]).json();
    assert_eq!(diag_lines(&r), vec!["V101 error secret.yaml:8:10"]);
    assert_eq!(
        r["diagnostics"][0]["help"],
        "encode the value in base64 (or put plain text under `stringData`)"
    );
}

#[test]
fn kustomize_patches_are_checked_for_what_they_hold() {
    let kustomization = "resources:\n- ../base\npatches:\n- path: nodepool-patch.yaml\n  target:\n    kind: NodePool\n";
    // A partial NodePool: no clusterName/release/platform (required), a strategic-merge
    // directive, a null that deletes a field, and one misspelt field (line 9).
    let patch = "apiVersion: hypershift.openshift.io/v1beta1
kind: NodePool
metadata:
  name: workers
  namespace: clusters
spec:
  $patch: merge
  nodeDrainTimeout: null
  replica: 5
";
    let base_nodepool = node_pool("workers", "prod", 3, &[]);
    let repo = repo_with(&[
        (
            "overlays/base/kustomization.yaml",
            "resources:\n- hostedcluster.yaml\n- nodepool.yaml\n",
        ),
        (
            "overlays/base/hostedcluster.yaml",
            &hosted_cluster("prod", "4.18.5"),
        ),
        ("overlays/base/nodepool.yaml", &base_nodepool),
        ("overlays/prod/kustomization.yaml", kustomization),
        ("overlays/prod/nodepool-patch.yaml", patch),
    ]);
    // Unrendered, the patch file is checked on its own as a partial object (patch files are
    // Kustomize's input, never objects of record).
    let r = nodecast(
        repo.path(),
        &["check", "--no-base", "--no-render", "--format", "json"],
    )
    .json();
    assert_eq!(
        diag_lines(&r),
        vec!["V102 warning overlays/prod/nodepool-patch.yaml:9:3"]
    );
    // Rendered, the merged NodePool carries the misspelt field too; it is located in the patch
    // that writes it and reported once.
    if common::require_kubectl("kustomize_patches_are_checked_for_what_they_hold") {
        let r = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]).json();
        assert_eq!(
            diag_lines(&r),
            vec!["V102 warning overlays/prod/nodepool-patch.yaml:9:3"]
        );
    }
    // The same file outside a kustomization is a whole object, missing its required fields.
    let lone = repo_with(&[("np.yaml", patch)]);
    let r = nodecast(lone.path(), &["check", "--no-base", "--format", "json"]).json();
    assert!(
        diag_lines(&r)
            .iter()
            .any(|l| l.starts_with("V101 error np.yaml:6:1")),
        "{:?}",
        diag_lines(&r)
    );
}

/// A KubeletConfig whose `spec.systemGomaxprocsBehavior` (line 9) is in the TechPreviewNoUpgrade
/// KubeletConfig CRD only.
const GOMAXPROCS_KUBELET_CONFIG: &str = "apiVersion: machineconfiguration.openshift.io/v1
kind: KubeletConfig
metadata:
  name: gomaxprocs
spec:
  machineConfigPoolSelector:
    matchLabels:
      pools.operator.machineconfiguration.openshift.io/worker: \"\"
  systemGomaxprocsBehavior: Autosize
";

#[test]
fn the_cluster_feature_gate_selects_the_crd_variant_for_standalone_kinds() {
    let kc = GOMAXPROCS_KUBELET_CONFIG;
    let repo = repo_with(&[("kc.yaml", kc)]);
    let r = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]).json();
    assert_eq!(diag_lines(&r), vec!["V102 warning kc.yaml:9:3"]);
    repo.write(
        "featuregate.yaml",
        "apiVersion: config.openshift.io/v1\nkind: FeatureGate\nmetadata:\n  name: cluster\nspec:\n  featureSet: TechPreviewNoUpgrade\n",
    );
    let r = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]).json();
    assert_eq!(diag_lines(&r), Vec::<String>::new());
    // The override wins over the FeatureGate.
    let r = nodecast(
        repo.path(),
        &[
            "check",
            "--no-base",
            "--feature-set",
            "Default",
            "--format",
            "json",
        ],
    )
    .json();
    assert_eq!(diag_lines(&r), vec!["V102 warning kc.yaml:9:3"]);
}

/// Each cluster root validates with its own `FeatureGate/cluster`: a lab cluster on
/// TechPreviewNoUpgrade beside a production cluster on the default set. The production KubeletConfig's
/// preview-only field is unknown to its API server (V102); the lab's is not. (The first FeatureGate
/// of the repository — the lab's — decided for every cluster: production's finding was missed, and
/// with the folders the other way round the lab's field was a false one.) A repository whose one
/// FeatureGate sits outside the pools' folder still validates with it.
#[test]
fn each_cluster_root_validates_with_its_own_feature_gate() {
    let kc = GOMAXPROCS_KUBELET_CONFIG;
    let pool = "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfigPool\nmetadata:\n  name: worker\nspec:\n  machineConfigSelector:\n    matchLabels:\n      machineconfiguration.openshift.io/role: worker\n";
    let gate = |set: &str| {
        format!("apiVersion: config.openshift.io/v1\nkind: FeatureGate\nmetadata:\n  name: cluster\nspec:\n  featureSet: {set}\n")
    };
    for (lab, prod) in [("clusters/lab", "clusters/prod"), ("z-lab", "a-prod")] {
        let repo = repo_with(&[
            (&format!("{lab}/pools.yaml"), pool),
            (
                &format!("{lab}/featuregate.yaml"),
                &gate("TechPreviewNoUpgrade"),
            ),
            (&format!("{lab}/kc.yaml"), kc),
            (&format!("{prod}/pools.yaml"), pool),
            (&format!("{prod}/featuregate.yaml"), &gate("\"\"")),
            (&format!("{prod}/kc.yaml"), kc),
        ]);
        let r = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]).json();
        assert_eq!(
            diag_lines(&r),
            vec![format!("V102 warning {prod}/kc.yaml:9:3")]
        );
    }
    let repo = repo_with(&[
        ("cluster/pools.yaml", pool),
        ("cluster/kc.yaml", kc),
        ("config/featuregate.yaml", &gate("TechPreviewNoUpgrade")),
    ]);
    let r = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]).json();
    assert_eq!(diag_lines(&r), Vec::<String>::new());
}

/// Two clusters keep one operator at two versions: the lab's Widget CRD allows `size: huge`,
/// production's does not. Each cluster's Widget is judged by its own cluster's CRD, whichever
/// folder comes first: V101 in production only. (The repository's first CRD judged every
/// cluster: a missed error one way round, a false one the other.)
#[test]
fn each_cluster_validates_with_its_own_crds() {
    let pool = "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfigPool\nmetadata:\n  name: worker\nspec:\n  machineConfigSelector:\n    matchLabels:\n      machineconfiguration.openshift.io/role: worker\n";
    let widget = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: default\nspec:\n  size: huge\n  count: 1\n";
    let newer = WIDGET_CRD.replace("enum: [small, large]", "enum: [small, large, huge]");
    for (lab, prod) in [("clusters/lab", "clusters/prod"), ("z-lab", "a-prod")] {
        let repo = repo_with(&[
            (&format!("{lab}/pools.yaml"), pool),
            (&format!("{lab}/crd.yaml"), &newer),
            (&format!("{lab}/widget.yaml"), widget),
            (&format!("{prod}/pools.yaml"), pool),
            (&format!("{prod}/crd.yaml"), WIDGET_CRD),
            (&format!("{prod}/widget.yaml"), widget),
        ]);
        let r = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]).json();
        assert_eq!(
            diag_lines(&r),
            vec![format!("V101 error {prod}/widget.yaml:7:9")],
            "{r}"
        );
    }
}

#[test]
fn status_is_ignored_for_kinds_with_the_status_subresource() {
    // The API server drops `status` from creates and updates of a NodePool: an exported
    // manifest's stale or odd status is not a finding.
    let np = node_pool("workers", "prod", 3, &[]) + "status:\n  replicas: many\n  bogus: 1\n";
    let repo = repo_with(&[
        ("hc.yaml", &hosted_cluster("prod", "4.18.5")),
        ("np.yaml", &np),
    ]);
    let r = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]).json();
    assert_eq!(diag_lines(&r), Vec::<String>::new());
}

/// The HostedCluster's component-route hostname pattern (Unicode classes under bounded
/// repetition) is compiled only when a value reaches it, and still judges like `pattern`: an
/// internationalised name passes, a leading hyphen is rejected in the API server's words.
#[test]
fn a_pattern_compiled_on_first_use_judges_and_words_like_pattern() {
    let hc = hosted_cluster("prod", "4.18.5").replacen(
        "spec:\n",
        "spec:\n  configuration:\n    ingress:\n      componentRoutes:\n      - name: console\n        namespace: openshift-console\n        hostname: \"-bad.example.com\"\n      - name: downloads\n        namespace: openshift-console\n        hostname: \"bücher.example.de\"\n",
        1,
    );
    let repo = repo_with(&[("hc.yaml", &hc)]);
    let r = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]).json();
    let v101: Vec<String> = diag_lines(&r)
        .into_iter()
        .filter(|l| l.starts_with("V101"))
        .collect();
    assert_eq!(v101, vec!["V101 error hc.yaml:12:19"], "{r}");
    let d = r["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .find(|d| d["code"] == "V101")
        .expect("V101");
    // The HostedCluster schema's `componentRoutes[].hostname` pattern, as the CRD writes it.
    let pattern = r"^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$|^(([a-z0-9][-a-z0-9]{0,61}[a-z0-9]|[a-z0-9]{1,63})[\.]){0,}([a-z0-9][-a-z0-9]{0,61}[a-z0-9]|[a-z0-9]{1,63})$";
    let field = "spec.configuration.ingress.componentRoutes[0].hostname";
    assert_eq!(
        d["message"],
        format!("rejected by the API server: {field}: {field} in body should match '{pattern}'")
    );
    assert_eq!(
        d["help"],
        format!("the value must match the regular expression `{pattern}`")
    );
    assert_eq!(
        (d["end_line"].clone(), d["end_column"].clone()),
        (12.into(), 37.into())
    );
}

#[test]
fn sops_encrypted_manifests_are_validated_as_decryption_leaves_them() {
    // What `sops --encrypt --encrypted-regex '^(data|stringData|replicas)$'` writes: the
    // stanza is removed and the ciphertext replaced by its plain value before anything is applied.
    let stanza = "sops:\n  kms: []\n  age:\n  - recipient: age15uzrw396e67z9wdzsxzdk7ka0g2gr3l460e0slaea563zll3hdfqwqxdta\n    enc: |\n      -----BEGIN AGE ENCRYPTED FILE-----\n      YWdlLWVuY3J5cHRpb24ub3JnL3YxCi0+IFgyNTUxOSByWmZ3aUZKTXEwVE85ZVQ5\n      -----END AGE ENCRYPTED FILE-----\n  lastmodified: \"2022-12-10T18:21:16Z\"\n  mac: ENC[AES256_GCM,data:2Tfqb3liCIID7jdGw+bFX1Lc,iv:8b1Q,tag:Qm9v,type:str]\n  encrypted_regex: ^(data|stringData|replicas)$\n  version: 3.7.3\n";
    let secret = format!("apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  namespace: x\ndata:\n  token: ENC[AES256_GCM,data:zEnV3XjPDjbo,iv:a2V5,tag:dGFn,type:str]\n{stanza}");
    let pool = node_pool("workers", "prod", 3, &[]).replace(
        "  replicas: 3\n",
        "  replicas: ENC[AES256_GCM,data:Mw==,iv:a2V5,tag:dGFn,type:int]\n  replica: 3\n",
    ) + stanza;
    // A `sops` field SOPS did not write is still unknown, and its document is checked as written.
    let own = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: own\n  namespace: x\ndata:\n  token: not base64!\nsops:\n  version: 1\n";
    let repo = repo_with(&[
        ("secret.sops.yaml", &secret),
        ("cluster.yaml", &hosted_cluster("prod", "4.18.5")),
        ("nodepool.sops.yaml", &pool),
        ("own.yaml", own),
    ]);
    let r = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]).json();
    assert_eq!(
        diag_lines(&r),
        vec![
            "V102 warning nodepool.sops.yaml:9:3",
            "V101 error own.yaml:7:10",
            "V102 warning own.yaml:8:1",
        ]
    );
    assert_eq!(
        r["diagnostics"][0]["message"],
        "dropped by the API server: unknown field \"spec.replica\" (rejected with strict field validation)"
    );
}
