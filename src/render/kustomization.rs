//! What a kustomization file refers to: other kustomizations, files, plugins, remote sources.

use nodecast_yaml::{Node, Span};

/// File names Kustomize accepts for a kustomization, in its lookup order.
pub const FILE_NAMES: [&str; 3] = ["kustomization.yaml", "kustomization.yml", "Kustomization"];

/// Whether a path names a kustomization file.
pub fn is_kustomization_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    FILE_NAMES.contains(&name)
}

/// The folder of a repository-relative path ("" for the root).
pub fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

/// Joins a relative reference to a folder and normalises `.`/`..`; `None` when it leaves the tree.
pub fn join(dir: &str, rel: &str) -> Option<String> {
    if rel.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// A reference written in a kustomization, with where it is written.
#[derive(Clone, Debug)]
pub struct Ref {
    /// The text as written.
    pub text: String,
    /// Its span in the kustomization file.
    pub span: Span,
    /// Which field (`resources`, `components`, `patches`, …).
    pub field: &'static str,
}

/// The references of one kustomization document.
#[derive(Clone, Debug, Default)]
pub struct Refs {
    /// `resources`, `bases`, `components`: files or kustomization folders.
    pub inputs: Vec<Ref>,
    /// Files read by patches, generators, replacements, CRDs, configurations.
    pub files: Vec<Ref>,
    /// Plugin configurations (`generators`, `transformers`, `validators`) and `helmCharts`.
    pub plugins: Vec<Ref>,
}

/// Whether a resource reference is remote (a URL or a Git repository): never fetched.
pub fn is_remote(text: &str) -> bool {
    text.contains("://")
        || text.starts_with("github.com/")
        || text.starts_with("gitlab.com/")
        || text.starts_with("bitbucket.org/")
        || text.starts_with("git@")
        || text.contains("?ref=")
        || text.contains(".git//")
}

fn strings(node: Option<&Node>) -> impl Iterator<Item = &Node> {
    node.and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter(|n| n.as_str().is_some())
}

/// Reads the references of a kustomization document.
pub fn refs(root: &Node) -> Refs {
    let mut out = Refs::default();
    let push = |list: &mut Vec<Ref>, field: &'static str, node: &Node| {
        if let Some(text) = node.as_str() {
            // Inline patches (`patchesStrategicMerge` entries holding YAML) are not files.
            if !text.contains('\n') && !text.trim().is_empty() {
                list.push(Ref {
                    text: text.trim().to_string(),
                    span: node.span,
                    field,
                });
            }
        }
    };
    for field in ["resources", "bases", "components"] {
        for n in strings(root.get(field)) {
            push(&mut out.inputs, field, n);
        }
    }
    for field in ["patchesStrategicMerge", "crds", "configurations"] {
        for n in strings(root.get(field)) {
            push(&mut out.files, field, n);
        }
    }
    for field in ["patches", "patchesJson6902", "replacements"] {
        for item in root.get(field).and_then(Node::as_seq).unwrap_or_default() {
            if let Some(n) = item.get("path") {
                push(&mut out.files, field, n);
            } else if item.as_str().is_some() {
                push(&mut out.files, field, item);
            }
        }
    }
    for field in ["configMapGenerator", "secretGenerator"] {
        for item in root.get(field).and_then(Node::as_seq).unwrap_or_default() {
            let mut files: Vec<&Node> = strings(item.get("files")).collect();
            files.extend(strings(item.get("envs")));
            files.extend(item.get("env"));
            for n in files {
                if let Some(text) = n.as_str() {
                    let file = text.split_once('=').map(|(_, f)| f).unwrap_or(text);
                    out.files.push(Ref {
                        text: file.trim().to_string(),
                        span: n.span,
                        field,
                    });
                }
            }
        }
    }
    for field in ["generators", "transformers", "validators"] {
        for item in root.get(field).and_then(Node::as_seq).unwrap_or_default() {
            let text = item.as_str().unwrap_or("(inline plugin configuration)");
            out.plugins.push(Ref {
                text: text.to_string(),
                span: item.span,
                field,
            });
        }
    }
    for field in ["helmCharts", "helmChartInflationGenerator"] {
        if let Some(node) = root.get(field) {
            out.plugins.push(Ref {
                text: field.to_string(),
                span: node.span,
                field,
            });
        }
    }
    out
}

/// Whether a plugin configuration (a `generators`/`transformers` entry) is a built-in one,
/// which Kustomize runs without executing anything.
pub fn is_builtin_plugin(doc: &Node) -> bool {
    let annotated = doc
        .path(&["metadata", "annotations"])
        .and_then(Node::as_map)
        .is_some_and(|entries| {
            entries.iter().any(|e| {
                e.key.as_str().is_some_and(|k| {
                    k.starts_with("config.kubernetes.io/function") || k == "config.k8s.io/function"
                })
            })
        });
    !annotated && doc.get("apiVersion").and_then(Node::as_str) == Some("builtin")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_and_normalises() {
        assert_eq!(join("overlays/prod", "../../base").as_deref(), Some("base"));
        assert_eq!(join("a", "./b/c.yaml").as_deref(), Some("a/b/c.yaml"));
        assert_eq!(join("", "../x"), None);
        assert_eq!(join("a", "/etc/passwd"), None);
    }

    #[test]
    fn remote_references() {
        assert!(is_remote("https://github.com/org/repo//base?ref=v1"));
        assert!(is_remote("github.com/org/repo/base?ref=v1"));
        assert!(!is_remote("../../base"));
    }

    #[test]
    fn kustomization_names() {
        assert!(is_kustomization_path("a/kustomization.yaml"));
        assert!(is_kustomization_path("Kustomization"));
        assert!(!is_kustomization_path("a/kustomization.json"));
    }
}
