//! Where a rendered value may be written besides its origin file: patches (strategic merge and
//! JSON 6902, in files or inline) and kustomization fields (`labels`, `commonLabels`,
//! `commonAnnotations`, `namespace`), each as a node at the position it sets in the object.

use std::sync::Arc;

use nodecast_yaml::{Document, Node};

use super::kustomization::{dir_of, join};
use super::remap::at_path;
use crate::parse::ParsedFile;

/// A kustomization of a root's closure, parsed, with its text (inline patches are located in it).
#[derive(Clone, Debug)]
pub struct Kust {
    /// Repository-relative path.
    pub path: String,
    /// The parsed kustomization.
    pub doc: Document,
    /// The file's text.
    pub text: Arc<str>,
}

impl Kust {
    /// The kustomization's root mapping.
    pub fn root(&self) -> Node<'_> {
        self.doc.root()
    }
}

/// Candidate nodes, each tagged with an index into `files` (tag 0 is the origin file).
pub struct Candidates {
    /// Documents placed at the object's root, with their file tag.
    pub nodes: Vec<(Document, usize)>,
    /// File of each tag.
    pub files: Vec<String>,
}

/// Gathers the candidates for one rendered object (`kind`, named `name` before prefixes).
pub fn gather(
    kustomizations: &[Kust],
    origin_path: &str,
    kind: &str,
    name: &str,
    file_of: &mut dyn FnMut(&str) -> Option<Arc<ParsedFile>>,
) -> Candidates {
    let mut out = Candidates {
        nodes: Vec::new(),
        files: vec![origin_path.to_string()],
    };
    let mut patches: Vec<(Document, usize)> = Vec::new();
    let mut fields: Vec<(Document, usize)> = Vec::new();
    for k in kustomizations {
        let ktag = out.files.len();
        out.files.push(k.path.clone());
        for (field, path) in [
            ("commonLabels", &["metadata", "labels"][..]),
            ("commonAnnotations", &["metadata", "annotations"][..]),
            ("namespace", &["metadata", "namespace"][..]),
        ] {
            if let Some(v) = k.root().get(field) {
                fields.push((at_path(path, v), ktag));
            }
        }
        for item in seq(k.root().get("labels")) {
            if let Some(pairs) = item.get("pairs") {
                fields.push((at_path(&["metadata", "labels"], pairs), ktag));
            }
        }
        for source in patch_sources(&k.doc) {
            let applies_by_target = source.target.as_ref().is_some_and(|t| {
                t.kind.as_deref().is_none_or(|x| x == kind)
                    && t.name.as_deref().is_none_or(|x| x == name)
            });
            let (docs, tag): (Vec<Document>, usize) = match &source.body {
                Body::File(rel) => {
                    let Some(path) = join(dir_of(&k.path), rel) else {
                        continue;
                    };
                    let Some(file) = file_of(&path) else {
                        continue;
                    };
                    let tag = out.files.len();
                    out.files.push(path);
                    (file.docs.iter().map(|d| d.doc.clone()).collect(), tag)
                }
                Body::Inline(node) => {
                    let parsed =
                        nodecast_yaml::parse_embedded(&k.text, node.root(), &Default::default());
                    (parsed.documents, ktag)
                }
            };
            for doc in docs {
                if let Some(ops) = doc.root().as_seq() {
                    if applies_by_target {
                        patches.extend(json_ops(ops).into_iter().map(|n| (n, tag)));
                    }
                } else if applies_by_target || names(doc.root(), kind, name) {
                    patches.push((doc, tag));
                }
            }
        }
    }
    out.nodes.extend(patches);
    out.nodes.extend(fields);
    out
}

fn seq(node: Option<Node<'_>>) -> nodecast_yaml::Seq<'_> {
    node.and_then(Node::as_seq).unwrap_or_default()
}

fn names(doc: Node<'_>, kind: &str, name: &str) -> bool {
    doc.get("kind").and_then(Node::as_str) == Some(kind)
        && doc.path(&["metadata", "name"]).and_then(Node::as_str) == Some(name)
}

struct Target {
    kind: Option<String>,
    name: Option<String>,
}

enum Body {
    File(String),
    /// The patch's text: a scalar of the kustomization, as a document of its own.
    Inline(Document),
}

struct Source {
    target: Option<Target>,
    body: Body,
}

/// Every patch of a kustomization: `patches`, `patchesStrategicMerge`, `patchesJson6902`.
fn patch_sources(doc: &Document) -> Vec<Source> {
    let root = doc.root();
    let mut out = Vec::new();
    for field in ["patches", "patchesJson6902"] {
        for item in seq(root.get(field)) {
            let target = item.get("target").map(|t| Target {
                kind: t.get("kind").and_then(Node::as_str).map(str::to_string),
                name: t.get("name").and_then(Node::as_str).map(str::to_string),
            });
            let body = if let Some(path) = item.get("path").and_then(Node::as_str) {
                Body::File(path.to_string())
            } else if let Some(patch) = item
                .get("patch")
                .filter(|p| p.as_str().is_some())
                .and_then(|p| doc.subdocument(p))
            {
                Body::Inline(patch)
            } else {
                continue;
            };
            out.push(Source { target, body });
        }
    }
    for item in seq(root.get("patchesStrategicMerge")) {
        let Some(text) = item.as_str() else { continue };
        let body = match doc.subdocument(item).filter(|_| text.contains('\n')) {
            Some(item) => Body::Inline(item),
            None => Body::File(text.trim().to_string()),
        };
        out.push(Source { target: None, body });
    }
    out
}

/// `add`/`replace` operations of a JSON 6902 patch, each as its value placed at its path (paths
/// through list indexes are left out: the list may have shifted).
fn json_ops(ops: nodecast_yaml::Seq<'_>) -> Vec<Document> {
    ops.iter()
        .filter(|op| matches!(op.get("op").and_then(Node::as_str), Some("add" | "replace")))
        .filter_map(|op| {
            let path = op.get("path")?.as_str()?;
            let value = op.get("value")?;
            let segments: Vec<String> = path
                .split('/')
                .skip(1)
                .map(|s| s.replace("~1", "/").replace("~0", "~"))
                .collect();
            if segments.is_empty()
                || segments
                    .iter()
                    .any(|s| s == "-" || s.chars().all(|c| c.is_ascii_digit()))
            {
                return None;
            }
            let keys: Vec<&str> = segments.iter().map(String::as_str).collect();
            Some(at_path(&keys, value))
        })
        .collect()
}

/// Where a generated ConfigMap/Secret data key comes from: the generator's `files` entry
/// (`key=path` or `path`) in a kustomization of the closure.
pub struct GeneratorSource {
    /// The file the value is read from (repository-relative).
    pub file: String,
    /// The kustomization holding the generator.
    pub kustomization: String,
    /// The `files` entry in that kustomization.
    pub entry: nodecast_yaml::Span,
}

/// The source of data key `key` of the generated object `kind`/`name` (name possibly with the
/// content-hash suffix).
pub fn generator_source(
    kustomizations: &[Kust],
    kind: &str,
    name: &str,
    key: &str,
) -> Option<GeneratorSource> {
    let field = match kind {
        "ConfigMap" => "configMapGenerator",
        "Secret" => "secretGenerator",
        _ => return None,
    };
    for k in kustomizations {
        for item in seq(k.root().get(field)) {
            let Some(gen_name) = item.get("name").and_then(Node::as_str) else {
                continue;
            };
            let named = name == gen_name
                || name
                    .strip_prefix(gen_name)
                    .is_some_and(|rest| rest.starts_with('-'))
                || name.ends_with(&format!("-{gen_name}"))
                || name.contains(&format!("{gen_name}-"));
            if !named {
                continue;
            }
            for entry in seq(item.get("files")) {
                let Some(text) = entry.as_str() else { continue };
                let (entry_key, path) = match text.split_once('=') {
                    Some((k, p)) => (k.trim(), p.trim()),
                    None => (text.rsplit('/').next().unwrap_or(text).trim(), text.trim()),
                };
                if entry_key != key {
                    continue;
                }
                return Some(GeneratorSource {
                    file: join(dir_of(&k.path), path)?,
                    kustomization: k.path.clone(),
                    entry: entry.span(),
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_ops_become_positioned_values() {
        let doc = nodecast_yaml::parse(
            "- op: replace\n  path: /spec/release/image\n  value: quay.io/x:4.18.9\n- op: add\n  path: /spec/config/0\n  value: {name: a}\n",
            &Default::default(),
        );
        let ops = json_ops(doc.documents[0].root().as_seq().unwrap_or_default());
        assert_eq!(ops.len(), 1);
        let v = ops[0]
            .root()
            .path(&["spec", "release", "image"])
            .expect("placed");
        assert_eq!((v.span().start.line, v.span().start.col), (3, 10));
    }
}
