//! Classify stage (between parse and render): what each YAML file of a side is to the cluster.
//!
//! A GitOps repository holds more YAML than manifests: CI workflows, Helm chart metadata,
//! installer and mirror configurations, Kustomize's own inputs (patches, transformer and
//! generator configurations), generator manifests that leave names out on purpose. Linting those
//! as API objects is what made nodecast cry wolf; this stage says which files are objects,
//! which hold *partial* objects (checked for what they hold, never for what they leave out), and
//! which are not API objects at all (skipped).

use std::collections::BTreeSet;

use nodecast_yaml::Node;
use rayon::prelude::*;

use crate::kustomize::kustomization::{self, dir_of, is_kustomization_path, join};
use crate::parse::{type_meta, FileEntry, ParsedSides};

pub use crate::parse::role::{Partial, Role};

/// Sets the role of every file of both sides and drops the files that are not API objects.
pub fn assign(files: &mut ParsedSides) {
    // Each file's role reads only its own documents and what its side's kustomizations and
    // generators list: the sides, and the files of a side, are classified side by side.
    let side = |side: &mut Vec<FileEntry>| {
        assign_side(side);
        side.retain(|f| f.role.holds_objects());
    };
    rayon::join(|| side(&mut files.base), || side(&mut files.head));
}

fn assign_side(files: &mut [FileEntry]) {
    let kustomize = kustomize_files(files);
    let generator_manifests = generator_manifests(files);
    let references: Vec<String> = kube_compare_references(files)
        .into_iter()
        .map(|dir| {
            if dir.is_empty() {
                dir
            } else {
                format!("{dir}/")
            }
        })
        .collect();
    files.par_iter_mut().for_each(|f| {
        f.role = role_of(f, &kustomize, &generator_manifests);
        let in_reference = references
            .iter()
            .any(|dir| dir.is_empty() || f.path.starts_with(dir.as_str()));
        if f.role.is_manifest() && in_reference && !is_kustomization_path(&f.path) {
            f.role = Role::Foreign(
                "a kube-compare reference (templates compared against a cluster, never applied)",
            );
        }
    });
}

/// Folders of kube-compare references: a `metadata.yaml` with `parts` lists the templates a
/// cluster is compared against; nothing in that folder is applied to a cluster.
fn kube_compare_references(files: &[FileEntry]) -> Vec<String> {
    files
        .iter()
        .filter(|f| *f.path == *"metadata.yaml" || f.path.ends_with("/metadata.yaml"))
        .filter(|f| {
            f.parsed.docs.first().is_some_and(|d| {
                let root = d.doc.root();
                root.get("parts").is_some() && root.get("kind").is_none()
            })
        })
        .map(|f| dir_of(&f.path).to_string())
        .collect()
}

fn role_of(f: &FileEntry, kustomize: &Kustomize, generated: &BTreeSet<String>) -> Role {
    if let Some(why) = foreign_by_path(&f.path) {
        return Role::Foreign(why);
    }
    if is_kustomization_path(&f.path) {
        return Role::Manifest;
    }
    let docs: Vec<Node<'_>> = f.parsed.docs.iter().map(|d| d.doc.root()).collect();
    if let Some(why) = foreign_by_content(&docs) {
        return Role::Foreign(why);
    }
    // A PolicyGenerator stays an object even where a kustomization lists it as a generator: a
    // change to it (remediation, compliance type, patches) changes what its Policies do, and the
    // diff must see it.
    if docs.iter().any(|d| kustomization::is_policy_generator(*d)) {
        return Role::Manifest;
    }
    if kustomize.inputs.contains(&*f.path) || docs.iter().any(|d| is_builtin_config(*d)) {
        return Role::Partial(Partial::KustomizeInput);
    }
    // GitOps ZTP's source CRs (`source-crs/`): the templates PolicyGenTemplates and
    // PolicyGenerators pick by name and fill in (`$mcp`), alternatives side by side.
    if generated.contains(&*f.path) || in_folder(&f.path, "source-crs") {
        return Role::Partial(Partial::GeneratorManifest);
    }
    if !docs.is_empty() && docs.iter().all(|d| is_hive_patch_entry(*d)) {
        return Role::Partial(Partial::HivePatch);
    }
    if kustomize.folders.contains(dir_of(&f.path)) && !kustomize.referenced.contains(&*f.path) {
        return Role::Partial(Partial::Unreferenced);
    }
    Role::Manifest
}

/// Whether a folder named `dir` holds `path`, at any depth.
fn in_folder(path: &str, dir: &str) -> bool {
    path.split('/').rev().skip(1).any(|p| p == dir)
}

/// Folders and files of CI systems and developer tools: never applied to a cluster.
fn foreign_by_path(path: &str) -> Option<&'static str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let in_folder = |dir: &str| in_folder(path, dir);
    if in_folder(".github") || in_folder(".gitlab") || in_folder(".circleci") {
        return Some("a CI configuration");
    }
    if in_folder(".tekton") {
        return Some("a Pipelines-as-Code pipeline of the repository's CI");
    }
    if in_folder(".devcontainer") || in_folder(".vscode") || in_folder(".idea") {
        return Some("an editor configuration");
    }
    let ci_files = [
        ".gitlab-ci.yml",
        ".gitlab-ci.yaml",
        ".travis.yml",
        "azure-pipelines.yml",
        "bitbucket-pipelines.yml",
        "Jenkinsfile.yaml",
        "codecov.yml",
        ".codecov.yml",
    ];
    if ci_files.contains(&name) {
        return Some("a CI configuration");
    }
    let tool_files = [
        ".pre-commit-config.yaml",
        ".pre-commit-hooks.yaml",
        ".yamllint",
        ".yamllint.yaml",
        ".yamllint.yml",
        ".golangci.yml",
        ".golangci.yaml",
        ".markdownlint.yaml",
        ".markdownlint.yml",
        ".ansible-lint",
        "mkdocs.yml",
        "mkdocs.yaml",
        ".readthedocs.yaml",
        ".readthedocs.yml",
        "renovate.json",
        ".renovaterc.json",
        "package.json",
        "package-lock.json",
        "tsconfig.json",
        "docker-compose.yml",
        "docker-compose.yaml",
        "compose.yaml",
        "compose.yml",
        "Chart.lock",
    ];
    if tool_files.contains(&name) {
        return Some("a development tool's configuration");
    }
    if name == "Chart.yaml" {
        return Some("a Helm chart's metadata");
    }
    None
}

/// Files whose documents follow another tool's format, recognised by their keys.
fn foreign_by_content(docs: &[Node<'_>]) -> Option<&'static str> {
    let first = docs.first()?;
    let api = first.get("apiVersion").and_then(Node::as_str);
    let kind = first.get("kind").and_then(Node::as_str);
    match (api, kind) {
        (Some(_), None) if first.get("entries").is_some() => Some("a Helm repository index"),
        (Some(_), None) if first.get("baseDomain").is_some() => {
            Some("an OpenShift installer configuration (install-config)")
        }
        (Some(_), None) if first.get("parts").is_some() => {
            Some("a kube-compare reference's metadata")
        }
        (Some(a), Some("ImageSetConfiguration" | "DeleteImageSetConfiguration"))
            if a.starts_with("mirror.openshift.io/") =>
        {
            Some("an oc-mirror configuration")
        }
        (Some(_), Some("AgentConfig" | "InstallConfig")) if first.get("metadata").is_none() => {
            Some("an OpenShift installer configuration")
        }
        _ => None,
    }
}

/// A Kustomize built-in plugin configuration (`apiVersion: builtin`).
fn is_builtin_config(doc: Node<'_>) -> bool {
    type_meta(doc).is_some_and(|(api, _)| api == "builtin")
}

/// A Hive SyncSet patch entry: target identity at the top level, a `patch` body, no metadata.
fn is_hive_patch_entry(doc: Node<'_>) -> bool {
    type_meta(doc).is_some()
        && doc.get("metadata").is_none()
        && doc.get("name").is_some()
        && doc.get("patch").is_some()
}

/// What the kustomizations of a side refer to.
#[derive(Default)]
struct Kustomize {
    /// Folders holding a kustomization.
    folders: BTreeSet<String>,
    /// Every file a kustomization refers to, in any field.
    referenced: BTreeSet<String>,
    /// Files a kustomization reads as patches, replacements, configurations or plugin
    /// configurations: Kustomize's input, never objects of their own.
    inputs: BTreeSet<String>,
}

fn kustomize_files(files: &[FileEntry]) -> Kustomize {
    let mut out = Kustomize::default();
    for f in files.iter().filter(|f| is_kustomization_path(&f.path)) {
        let dir = dir_of(&f.path);
        out.folders.insert(dir.to_string());
        let Some(doc) = f.parsed.docs.first() else {
            continue;
        };
        let refs = kustomization::refs(doc.doc.root());
        for r in refs.inputs.iter().chain(&refs.files).chain(&refs.plugins) {
            if let Some(path) = join(dir, &r.text) {
                let only_input = !matches!(
                    r.field,
                    "resources" | "bases" | "components" | "crds" | "helmCharts"
                ) && !matches!(r.field, "configMapGenerator" | "secretGenerator");
                if only_input {
                    out.inputs.insert(path.clone());
                }
                out.referenced.insert(path);
            }
        }
    }
    out
}

/// The manifests of each policy every `PolicyGenerator` of a side makes (each policy is its own
/// Policy, with its own placement).
pub fn generator_policies(files: &[FileEntry]) -> Vec<Vec<String>> {
    files
        .par_iter()
        .flat_map_iter(|f| {
            f.parsed
                .docs
                .iter()
                .filter(|d| kustomization::is_policy_generator(d.doc.root()))
                .flat_map(|d| kustomization::policy_generator_policies(d.doc.root(), &f.path))
        })
        .collect()
}

/// Paths of the manifests every `PolicyGenerator` of a side lists.
fn generator_manifests(files: &[FileEntry]) -> BTreeSet<String> {
    let listed: Vec<String> = generator_policies(files).into_iter().flatten().collect();
    if listed.is_empty() {
        return BTreeSet::new();
    }
    files
        .iter()
        .filter(|g| listed.iter().any(|l| kustomization::lists(l, &g.path)))
        .map(|g| g.path.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn side(files: &[(&str, &str)]) -> Vec<FileEntry> {
        let mut out: Vec<FileEntry> = files
            .iter()
            .map(|(p, t)| FileEntry::new(*p, Arc::new(crate::parse::parse_file(t.as_bytes()))))
            .collect();
        assign_side(&mut out);
        out
    }

    fn role(files: &[FileEntry], path: &str) -> Role {
        files
            .iter()
            .find(|f| *f.path == *path)
            .map(|f| f.role)
            .unwrap_or_else(|| panic!("{path}"))
    }

    #[test]
    fn ci_files_chart_metadata_and_tool_configs_are_not_objects() {
        let files = side(&[
            (".github/workflows/ci.yaml", "on: push\n"),
            (
                ".tekton/pr.yaml",
                "apiVersion: tekton.dev/v1\nkind: PipelineRun\n",
            ),
            (
                "charts/x/Chart.yaml",
                "apiVersion: v2\nname: x\nversion: 1.0.0\n",
            ),
            ("charts/index.yaml", "apiVersion: v1\nentries: {}\n"),
            (
                "install-config.yaml",
                "apiVersion: v1\nbaseDomain: example.com\nmetadata: {name: c}\n",
            ),
            ("reference/metadata.yaml", "apiVersion: v2\nparts: []\n"),
            (
                "reference/optional/PerformanceProfile.yaml",
                "apiVersion: performance.openshift.io/v2\nkind: PerformanceProfile\nmetadata:\n  name: {{ .metadata.name }}\n",
            ),
            (
                "mirror.yaml",
                "apiVersion: mirror.openshift.io/v1alpha2\nkind: ImageSetConfiguration\n",
            ),
            (
                "cm.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
            ),
        ]);
        for path in [
            ".github/workflows/ci.yaml",
            ".tekton/pr.yaml",
            "charts/x/Chart.yaml",
            "charts/index.yaml",
            "install-config.yaml",
            "reference/metadata.yaml",
            "reference/optional/PerformanceProfile.yaml",
            "mirror.yaml",
        ] {
            assert!(matches!(role(&files, path), Role::Foreign(_)), "{path}");
        }
        assert_eq!(role(&files, "cm.yaml"), Role::Manifest);
    }

    #[test]
    fn kustomize_inputs_and_unreferenced_files_are_partial() {
        let files = side(&[
            (
                "o/kustomization.yaml",
                "resources: [np.yaml]\npatches:\n- path: p.yaml\ntransformers: [t.yaml]\n",
            ),
            (
                "o/np.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
            ),
            (
                "o/p.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
            ),
            (
                "o/t.yaml",
                "apiVersion: builtin\nkind: LabelTransformer\nmetadata: {name: l}\n",
            ),
            (
                "o/old.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
            ),
            (
                "plain/cm.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
            ),
        ]);
        assert_eq!(role(&files, "o/np.yaml"), Role::Manifest);
        assert_eq!(
            role(&files, "o/p.yaml"),
            Role::Partial(Partial::KustomizeInput)
        );
        assert_eq!(
            role(&files, "o/t.yaml"),
            Role::Partial(Partial::KustomizeInput)
        );
        assert_eq!(
            role(&files, "o/old.yaml"),
            Role::Partial(Partial::Unreferenced)
        );
        assert_eq!(role(&files, "plain/cm.yaml"), Role::Manifest);
    }

    #[test]
    fn generator_manifests_and_hive_patch_entries_are_partial() {
        let files = side(&[
            (
                "pg/gen.yaml",
                "apiVersion: policy.open-cluster-management.io/v1\nkind: PolicyGenerator\nmetadata: {name: g}\npolicies:\n- name: p\n  manifests:\n  - path: m/\n",
            ),
            ("pg/m/ns.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {labels: {a: b}}\n"),
            (
                "hive/patch.yaml",
                "apiVersion: v1\nkind: ConfigMap\nname: x\nnamespace: y\npatch: '{}'\npatchType: merge\n",
            ),
        ]);
        assert_eq!(
            role(&files, "pg/m/ns.yaml"),
            Role::Partial(Partial::GeneratorManifest)
        );
        assert_eq!(
            role(&files, "hive/patch.yaml"),
            Role::Partial(Partial::HivePatch)
        );
        assert_eq!(role(&files, "pg/gen.yaml"), Role::Manifest);
    }
}
