//! Roots whose render is their input: a kustomization that only lists local manifest files (and
//! perhaps a `namespace` every listed object already carries). Kustomize would print those
//! objects unchanged, so they are taken from the parsed files as they are — no process, no copy,
//! no re-parse. A fleet repository has one such root per cluster; running `kubectl kustomize`
//! thousands of times was most of a large run.
//!
//! Anything this module is not sure Kustomize leaves untouched (another field, a folder or remote
//! resource, a file that does not parse cleanly, a document that is not an object, a `List`,
//! anchors or tags, duplicate identities, a namespace to set or a kind whose references the
//! namespace transformer rewrites) makes the root go through the renderer as before.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use super::kustomization::{dir_of, is_remote, join};
use crate::parse::{FileEntry, FileStatus, ParsedDoc};

/// Kinds the namespace transformer rewrites beyond `metadata.namespace` (subjects, webhook and
/// conversion service references): never identity when a `namespace` is set.
const NAMESPACE_REWRITTEN: [&str; 6] = [
    "RoleBinding",
    "ClusterRoleBinding",
    "ValidatingWebhookConfiguration",
    "MutatingWebhookConfiguration",
    "CustomResourceDefinition",
    "APIService",
];

/// The files an identity root renders, in its `resources` order; `None` when the root needs the
/// renderer.
pub fn resources(root_file: &str, files: &HashMap<&str, &FileEntry>) -> Option<Vec<Arc<str>>> {
    let kust = files.get(root_file)?;
    if kust.parsed.status != FileStatus::Parsed
        || !kust.parsed.problems.is_empty()
        || kust.parsed.docs.len() != 1
    {
        return None;
    }
    let root = &kust.parsed.docs.first()?.doc.root();
    let mut namespace: Option<&str> = None;
    let mut listed: Vec<String> = Vec::new();
    for entry in root.as_map()? {
        match entry.key.key_text()? {
            "apiVersion" => {
                (entry.value.as_str()? == "kustomize.config.k8s.io/v1beta1").then_some(())?
            }
            "kind" => (entry.value.as_str()? == "Kustomization").then_some(())?,
            "namespace" => namespace = Some(entry.value.as_str().filter(|s| !s.is_empty())?),
            "resources" => {
                for item in entry.value.as_seq()? {
                    let text = item.as_str()?.trim();
                    if text.is_empty() || is_remote(text) {
                        return None;
                    }
                    listed.push(join(dir_of(root_file), text)?);
                }
            }
            _ => return None,
        }
    }
    // Identities as the documents' own text: no copy of four strings per document of a fleet.
    let mut seen: BTreeSet<Identity<'_>> = BTreeSet::new();
    // Each listed file by the path its entry holds (one allocation per path for the whole run).
    let mut shared: Vec<Arc<str>> = Vec::with_capacity(listed.len());
    for path in &listed {
        // A folder (another kustomization, or plain files) is not a file entry: renderer.
        let file = files.get(path.as_str())?;
        shared.push(file.path.clone());
        let parsed = &file.parsed;
        if parsed.status != FileStatus::Parsed || !parsed.problems.is_empty() {
            return None;
        }
        if parsed.docs.is_empty() {
            return None;
        }
        for doc in &parsed.docs {
            // Kustomize skips empty documents (a trailing `---`).
            if doc.doc.root().is_null() {
                continue;
            }
            let id = plain_object(doc, namespace)?;
            if !seen.insert(id) {
                return None;
            }
        }
    }
    // A file listed twice is a duplicate identity for Kustomize (caught above unless empty).
    Some(shared)
}

/// What Kustomize tells objects apart by: apiVersion, kind, namespace and name.
type Identity<'a> = (&'a str, &'a str, Option<&'a str>, &'a str);

/// The identity Kustomize gives a document that it would print unchanged, else `None`.
fn plain_object<'a>(doc: &'a ParsedDoc, namespace: Option<&str>) -> Option<Identity<'a>> {
    let root = doc.doc.root();
    let api_version = root.get("apiVersion")?.as_str()?;
    let kind = root.get("kind")?.as_str()?;
    let metadata = root.get("metadata")?;
    let name = metadata.get("name")?.as_str()?;
    if api_version.is_empty() || kind.is_empty() || kind.ends_with("List") || name.is_empty() {
        return None;
    }
    let own_namespace = match metadata.get("namespace") {
        None => None,
        Some(n) => Some(n.as_str()?),
    };
    if let Some(ns) = namespace {
        if own_namespace != Some(ns) || NAMESPACE_REWRITTEN.contains(&kind) {
            return None;
        }
    }
    // No alias copies, explicit tags or merge keys: Kustomize would print those differently.
    if !doc.is_literal() {
        return None;
    }
    Some((api_version, kind, own_namespace, name))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::parse::parse_file;

    const NP: &str = "apiVersion: hypershift.openshift.io/v1beta1\nkind: NodePool\nmetadata:\n  name: workers\n  namespace: clusters\nspec:\n  replicas: 2\n";

    fn listed(kustomization: &str, files: &[(&str, &str)]) -> Option<Vec<Arc<str>>> {
        let mut entries = vec![FileEntry::new(
            "c/kustomization.yaml",
            Arc::new(parse_file(kustomization.as_bytes())),
        )];
        for (path, text) in files {
            entries.push(FileEntry::new(*path, Arc::new(parse_file(text.as_bytes()))));
        }
        let by_path: HashMap<&str, &FileEntry> = entries.iter().map(|f| (&*f.path, f)).collect();
        resources("c/kustomization.yaml", &by_path)
    }

    #[test]
    fn a_plain_list_of_files_is_its_own_render() {
        let two = format!("{NP}---\n{}\n---\n", NP.replace("workers", "infra"));
        assert_eq!(
            listed(
                "namespace: clusters\nresources:\n- np.yaml\n- ../shared/two.yaml\n",
                &[("c/np.yaml", NP), ("shared/two.yaml", &two)]
            ),
            None,
            "NodePool/workers twice is a Kustomize error: renderer"
        );
        assert_eq!(
            listed(
                "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: clusters\nresources:\n- np.yaml\n- ../shared/two.yaml\n",
                &[("c/np.yaml", NP), ("shared/two.yaml", &two.replace("name: workers", "name: spare"))]
            ),
            Some(vec!["c/np.yaml".into(), "shared/two.yaml".into()])
        );
    }

    #[test]
    fn anything_kustomize_may_change_goes_to_the_renderer() {
        let files = [("c/np.yaml", NP)];
        // A namespace to set, a transformation, a folder, a remote base, a missing file.
        let no_ns = NP.replace("  namespace: clusters\n", "");
        assert_eq!(
            listed(
                "namespace: clusters\nresources:\n- np.yaml\n",
                &[("c/np.yaml", &no_ns)]
            ),
            None
        );
        assert_eq!(
            listed("namespace: other\nresources:\n- np.yaml\n", &files),
            None
        );
        assert_eq!(
            listed("namePrefix: x-\nresources:\n- np.yaml\n", &files),
            None
        );
        assert_eq!(listed("resources:\n- base\n", &files), None);
        assert_eq!(
            listed("resources:\n- github.com/org/repo//base?ref=v1\n", &files),
            None
        );
        assert_eq!(listed("resources:\n- gone.yaml\n", &files), None);
        // Documents Kustomize would refuse or print differently.
        let anchored = format!("{NP}  labels: &l {{a: b}}\n  other: *l\n");
        assert_eq!(
            listed("resources:\n- np.yaml\n", &[("c/np.yaml", &anchored)]),
            None
        );
        let list = "apiVersion: v1\nkind: List\nmetadata:\n  name: l\nitems: []\n";
        assert_eq!(
            listed("resources:\n- l.yaml\n", &[("c/l.yaml", list)]),
            None
        );
        let nameless = NP.replace("  name: workers\n", "");
        assert_eq!(
            listed("resources:\n- np.yaml\n", &[("c/np.yaml", &nameless)]),
            None
        );
        let broken = format!("{NP}spec: [\n");
        assert_eq!(
            listed("resources:\n- np.yaml\n", &[("c/np.yaml", &broken)]),
            None
        );
        // The same file without any of that is an identity root.
        assert_eq!(
            listed("resources:\n- np.yaml\n", &files),
            Some(vec!["c/np.yaml".into()])
        );
    }
}
