//! Finds the key of a changed field (the position causes point at), including fields of documents
//! embedded in a ConfigMap (`/data/config[MachineConfig name]/spec/…`).

use nodecast_yaml::{Node, Span};

use crate::inventory::Object;
use crate::parse::ParsedDoc;

/// The label the diff gives an embedded document (`Kind name`, or `Kind #index`).
pub fn doc_label(root: Node<'_>, index: usize) -> String {
    let kind = root
        .get("kind")
        .and_then(Node::as_str)
        .unwrap_or("document");
    match root.path(&["metadata", "name"]).and_then(Node::as_str) {
        Some(name) => format!("{kind} {name}"),
        None => format!("{kind} #{index}"),
    }
}

/// The span of the key (for mapping entries) or item (for list elements) at `pointer` under
/// `root`; the deepest existing ancestor when the full path does not exist.
pub fn key_span(root: Node<'_>, pointer: &str) -> Span {
    nodecast_yaml::pointer::walk(root, pointer).key_span()
}

/// The embedded document `label` under ConfigMap key `key` of a parsed document.
pub fn embedded_doc<'a>(doc: &'a ParsedDoc, key: &str, label: &str) -> Option<&'a ParsedDoc> {
    doc.embedded
        .iter()
        .filter(|e| e.key == key)
        .flat_map(|e| e.docs.iter().enumerate())
        .find(|(i, d)| doc_label(d.doc.root(), *i) == label)
        .map(|(_, d)| d)
}

/// The key span of a diff path in an object, following `[label]` into embedded documents.
pub fn field_span(obj: &Object, path: &str) -> Span {
    if let Some(open) = path.find('[') {
        if let Some(close) = path[open..].find(']').map(|c| open + c) {
            let outer = &path[..open];
            let label = &path[open + 1..close];
            let rest = &path[close + 1..];
            let key = outer.rsplit('/').next().unwrap_or_default();
            if let Some(inner) = embedded_doc(obj.parsed(), key, label) {
                if rest.is_empty() {
                    return inner.doc.root().span();
                }
                return key_span(inner.doc.root(), rest);
            }
            return key_span(obj.root(), outer);
        }
    }
    key_span(obj.root(), path)
}
