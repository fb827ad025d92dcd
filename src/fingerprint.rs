//! Stable finding identities (code + object + field path) that survive line moves, for SARIF
//! `partialFingerprints`, the baseline file and suppression bookkeeping.

use nodecast_yaml::{Node, NodeKind};

use crate::diagnostic::{Diagnostic, Side};
use crate::parse::{FileEntry, ParsedDoc};

/// What a fingerprint is computed from; kept in the baseline so people can read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// Rule code.
    pub code: String,
    /// `Kind/namespace/name`, or the file path when the finding is about no object.
    pub object: String,
    /// JSON pointer of the field under the finding's start, or `""` for the whole document/file.
    pub field: String,
}

impl Identity {
    /// The fingerprint: hex SHA-1 of the three parts (the message too when there is no object and
    /// no field, so two file-level findings of one code stay apart).
    pub fn fingerprint(&self) -> String {
        let text = format!("{}\u{0}{}\u{0}{}", self.code, self.object, self.field);
        git2::Oid::hash_object(git2::ObjectType::Blob, text.as_bytes())
            .map(|oid| oid.to_string())
            .unwrap_or_default()
    }
}

/// The identity of a finding, resolved against the files of the side it points into.
pub fn identity(d: &Diagnostic, base: &[FileEntry], head: &[FileEntry]) -> Identity {
    let files = match d.location.side {
        Side::Base => base,
        Side::Head => head,
    };
    let docs = files
        .iter()
        .find(|f| *f.path == *d.location.path)
        .map(|f| &f.parsed.docs[..])
        .unwrap_or_default();
    let offset = d.location.span.map(|s| s.start.offset);
    let field = offset.and_then(|o| field_path(docs, o)).unwrap_or_default();
    let object = match (&d.object, offset.and_then(|o| object_at(docs, o))) {
        (Some(o), _) => o.clone(),
        (None, Some(o)) => o,
        (None, None) => d.location.path.clone(),
    };
    let field = if d.object.is_none() && field.is_empty() {
        // A file-level finding: the message tells two of them apart (it names no line).
        d.message.clone()
    } else {
        field
    };
    Identity {
        code: d.code.to_string(),
        object,
        field,
    }
}

/// The fingerprint of a finding.
pub fn of(d: &Diagnostic, base: &[FileEntry], head: &[FileEntry]) -> String {
    identity(d, base, head).fingerprint()
}

/// `Kind/namespace/name` of the document at `offset`, when it names itself.
fn object_at(docs: &[ParsedDoc], offset: usize) -> Option<String> {
    let doc = docs.iter().find(|d| contains(d.doc.root(), offset))?;
    let root = doc.doc.root();
    let kind = root.get("kind")?.key_text()?;
    let meta = root.get("metadata")?;
    let name = meta.get("name")?.key_text()?;
    Some(match meta.get("namespace").and_then(Node::key_text) {
        Some(ns) if !ns.is_empty() => format!("{kind}/{ns}/{name}"),
        _ => format!("{kind}/{name}"),
    })
}

/// The JSON pointer of the deepest node at `offset` in a file's documents (embedded documents are
/// `/data/KEY[N]/…`); the object identity, not the document's position, tells documents apart.
pub fn field_path(docs: &[ParsedDoc], offset: usize) -> Option<String> {
    for doc in docs {
        let root = doc.doc.root();
        if !contains(root, offset) {
            continue;
        }
        for emb in &doc.embedded {
            if emb.value_span.start.offset <= offset && offset < emb.value_span.end.offset {
                for (j, inner) in emb.docs.iter().enumerate() {
                    if contains(inner.doc.root(), offset) {
                        let mut p = format!("/data/{}[{j}]", emb.key);
                        descend(inner.doc.root(), offset, &mut p);
                        return Some(p);
                    }
                }
            }
        }
        let mut p = String::new();
        descend(root, offset, &mut p);
        return Some(p);
    }
    None
}

fn contains(n: Node<'_>, offset: usize) -> bool {
    n.span().start.offset <= offset && offset < n.span().end.offset.max(n.span().start.offset + 1)
}

fn descend(node: Node<'_>, offset: usize, path: &mut String) {
    match node.kind() {
        NodeKind::Map(entries) => {
            for e in entries {
                let in_key = contains(e.key, offset);
                if in_key || contains(e.value, offset) {
                    path.push('/');
                    path.push_str(&escape(e.key.key_text().unwrap_or("?")));
                    if !in_key {
                        descend(e.value, offset, path);
                    }
                    return;
                }
            }
        }
        NodeKind::Seq(items) => {
            for (i, item) in items.iter().enumerate() {
                if contains(item, offset) {
                    path.push_str(&format!("/{i}"));
                    descend(item, offset, path);
                    return;
                }
            }
        }
        NodeKind::Scalar { .. } => {}
    }
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs(text: &str) -> Vec<ParsedDoc> {
        let parsed = crate::parse::parse_file(text.as_bytes());
        parsed.docs
    }

    #[test]
    fn field_path_follows_keys_and_indexes_not_lines() {
        let a = "kind: NodePool\nspec:\n  replicas: 3\n  items:\n  - a\n  - b/c\n";
        let d = docs(a);
        let at = |needle: &str| a.find(needle).expect("needle");
        assert_eq!(field_path(&d, at("3")).as_deref(), Some("/spec/replicas"));
        assert_eq!(
            field_path(&d, at("replicas")).as_deref(),
            Some("/spec/replicas")
        );
        assert_eq!(field_path(&d, at("b/c")).as_deref(), Some("/spec/items/1"));
        // The same field after lines moved keeps its path.
        let b = format!("# comment\n\n{a}");
        let d2 = docs(&b);
        assert_eq!(
            field_path(&d2, b.find("3").expect("3")).as_deref(),
            Some("/spec/replicas")
        );
    }

    #[test]
    fn fingerprint_depends_on_code_object_and_field_only() {
        let id = |c: &str, o: &str, f: &str| Identity {
            code: c.into(),
            object: o.into(),
            field: f.into(),
        };
        let a = id("Y003", "NodePool/clusters/w", "/metadata/labels/backup").fingerprint();
        assert_eq!(a.len(), 40);
        assert_eq!(
            a,
            id("Y003", "NodePool/clusters/w", "/metadata/labels/backup").fingerprint()
        );
        assert_ne!(
            a,
            id("Y002", "NodePool/clusters/w", "/metadata/labels/backup").fingerprint()
        );
        assert_ne!(
            a,
            id("Y003", "NodePool/clusters/x", "/metadata/labels/backup").fingerprint()
        );
        assert_ne!(
            a,
            id("Y003", "NodePool/clusters/w", "/metadata").fingerprint()
        );
    }
}
