//! Inventory stage: the objects of one side by identity, with their references resolved.

pub mod kinds;
mod references;

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::sync::Arc;

use nodecast_yaml::Node;

pub use references::{Reference, ReferenceKind};

use crate::parse::{type_meta, FileEntry, ParsedDoc, ParsedFile};

/// What makes two definitions the same object for the API server.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjectId {
    /// API group (`""` for core).
    pub group: String,
    /// Kind.
    pub kind: String,
    /// Namespace; `None` for cluster-scoped kinds, `Some("")` when a namespaced object omits it.
    pub namespace: Option<String>,
    /// `metadata.name`.
    pub name: String,
}

impl fmt::Display for ObjectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.namespace {
            Some(ns) if !ns.is_empty() => write!(f, "{}/{}/{}", self.kind, ns, self.name),
            _ => write!(f, "{}/{}", self.kind, self.name),
        }
    }
}

/// One object definition of a side.
#[derive(Clone, Debug)]
pub struct Object {
    /// Identity.
    pub id: ObjectId,
    /// `apiVersion` as written.
    pub api_version: String,
    /// Repository-relative path of the defining file.
    pub path: String,
    /// Index of the document in the file.
    pub doc_index: usize,
    file: Arc<ParsedFile>,
}

impl Object {
    /// The parsed document (with what it embeds).
    pub fn parsed(&self) -> &ParsedDoc {
        &self.file.docs[self.doc_index]
    }

    /// The document's root mapping.
    pub fn root(&self) -> &Node {
        &self.parsed().doc.root
    }

    /// The file the object is defined in.
    pub fn file(&self) -> &Arc<ParsedFile> {
        &self.file
    }

    /// True when both definitions are the same parsed document (identical blob, same position).
    pub fn same_document(&self, other: &Object) -> bool {
        Arc::ptr_eq(&self.file, &other.file) && self.doc_index == other.doc_index
    }
}

/// The objects of one side, indexed by identity.
#[derive(Debug, Default)]
pub struct Inventory {
    /// Every object definition, in file and document order.
    pub objects: Vec<Object>,
    /// Identity → index of its first definition.
    pub by_id: HashMap<ObjectId, usize>,
    /// (first, later) definitions of the same identity.
    pub duplicates: Vec<(usize, usize)>,
    /// (group, kind) pairs present, so a missing reference can tell "missing" from "not managed here".
    pub kinds: BTreeSet<(String, String)>,
    /// References between objects, resolved against this side.
    pub references: Vec<Reference>,
}

impl Inventory {
    /// Builds the inventory of one side from its parsed files.
    pub fn build(files: &[FileEntry]) -> Self {
        let mut inv = Inventory::default();
        for file in files {
            for (doc_index, doc) in file.parsed.docs.iter().enumerate() {
                let Some(id) = identity(&doc.doc.root) else {
                    continue;
                };
                let api_version = type_meta(&doc.doc.root)
                    .map(|(a, _)| a.to_string())
                    .unwrap_or_default();
                inv.kinds.insert((id.group.clone(), id.kind.clone()));
                let index = inv.objects.len();
                match inv.by_id.get(&id) {
                    Some(&first) => inv.duplicates.push((first, index)),
                    None => {
                        inv.by_id.insert(id.clone(), index);
                    }
                }
                inv.objects.push(Object {
                    id,
                    api_version,
                    path: file.path.clone(),
                    doc_index,
                    file: file.parsed.clone(),
                });
            }
        }
        inv.references = references::resolve(&inv);
        inv
    }

    /// The references made by the object at `index` (`references` is in object order, so this
    /// is a binary search, not a scan per NodePool).
    pub fn references_from(&self, index: usize) -> &[Reference] {
        let start = self.references.partition_point(|r| r.from < index);
        let len = self.references[start..].partition_point(|r| r.from == index);
        &self.references[start..start + len]
    }

    /// The (first) definition of an identity.
    pub fn get(&self, id: &ObjectId) -> Option<&Object> {
        self.by_id.get(id).map(|&i| &self.objects[i])
    }

    /// Whether any object of this group and kind is managed on this side.
    pub fn manages(&self, group: &str, kind: &str) -> bool {
        self.kinds.contains(&(group.to_string(), kind.to_string()))
    }

    /// Objects of a kind (first definitions only).
    pub fn of_kind<'a>(
        &'a self,
        group: &'a str,
        kind: &'a str,
    ) -> impl Iterator<Item = &'a Object> + 'a {
        self.objects
            .iter()
            .enumerate()
            .filter(move |(i, o)| {
                o.id.group == group && o.id.kind == kind && self.by_id.get(&o.id) == Some(i)
            })
            .map(|(_, o)| o)
    }
}

/// The identity of a document, when it is a well-formed object (string apiVersion, kind and name).
pub fn identity(root: &Node) -> Option<ObjectId> {
    let (api_version, kind) = type_meta(root)?;
    let metadata = root.get("metadata")?;
    let name = metadata.get("name")?.as_str()?;
    if name.is_empty() {
        return None;
    }
    let group = kinds::group_of(api_version).to_string();
    let namespace = if kinds::is_cluster_scoped(&group, kind) {
        None
    } else {
        Some(
            metadata
                .get("namespace")
                .and_then(Node::as_str)
                .unwrap_or_default()
                .to_string(),
        )
    };
    Some(ObjectId {
        group,
        kind: kind.to_string(),
        namespace,
        name: name.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{parse_file, FileEntry};

    #[test]
    fn references_from_finds_exactly_the_references_of_each_object() {
        let yaml = "\
apiVersion: hypershift.openshift.io/v1beta1
kind: NodePool
metadata: {name: a, namespace: clusters}
spec: {clusterName: hc, config: [{name: cm1}, {name: cm2}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm1, namespace: clusters}
---
apiVersion: hypershift.openshift.io/v1beta1
kind: NodePool
metadata: {name: b, namespace: clusters}
spec: {clusterName: hc, tuningConfig: [{name: t}]}
---
apiVersion: hypershift.openshift.io/v1beta1
kind: NodePool
metadata: {name: c, namespace: clusters}
";
        let files = vec![FileEntry {
            path: "np.yaml".into(),
            parsed: Arc::new(parse_file(yaml.as_bytes())),
        }];
        let inv = Inventory::build(&files);
        assert_eq!(inv.objects.len(), 4);
        for i in 0..inv.objects.len() + 1 {
            let scanned: Vec<String> = inv
                .references
                .iter()
                .filter(|r| r.from == i)
                .map(|r| r.field.clone())
                .collect();
            let found: Vec<String> = inv
                .references_from(i)
                .iter()
                .map(|r| r.field.clone())
                .collect();
            assert_eq!(found, scanned, "object {i}");
        }
        assert_eq!(inv.references_from(0).len(), 3);
        assert_eq!(inv.references_from(1).len(), 0);
        assert_eq!(inv.references_from(2).len(), 2);
        assert_eq!(inv.references_from(3).len(), 0, "no spec, no references");
    }
}
