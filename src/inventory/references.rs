//! References between objects that nodecast resolves (and reports when broken).

use nodecast_yaml::{Node, Span};

use super::{Inventory, ObjectId};

/// Which field refers to another object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReferenceKind {
    /// NodePool `spec.clusterName` → HostedCluster in the same namespace.
    NodePoolCluster,
    /// NodePool `spec.config[].name` → ConfigMap in the same namespace.
    NodePoolConfig,
    /// NodePool `spec.tuningConfig[].name` → ConfigMap in the same namespace.
    NodePoolTuning,
}

/// One reference from an object's field to another object's identity.
#[derive(Clone, Debug)]
pub struct Reference {
    /// Which reference.
    pub kind: ReferenceKind,
    /// Index of the referring object in the inventory.
    pub from: usize,
    /// JSON pointer of the referring field.
    pub field: String,
    /// Span of the referring value.
    pub span: Span,
    /// The identity referred to.
    pub target: ObjectId,
    /// Index of the target when it exists on this side.
    pub resolved: Option<usize>,
}

/// Finds and resolves the references of every object.
pub fn resolve(inv: &Inventory) -> Vec<Reference> {
    let mut out = Vec::new();
    for (from, obj) in inv.objects.iter().enumerate() {
        if obj.id.group != "hypershift.openshift.io" || obj.id.kind != "NodePool" {
            continue;
        }
        let root = obj.root();
        let namespace = obj.id.namespace.clone();
        let mut push = |kind, field: String, node: Node<'_>, group: &str, target_kind: &str| {
            let Some(name) = node.as_str() else { return };
            let target = ObjectId {
                group: group.into(),
                kind: target_kind.into(),
                namespace: namespace.clone(),
                name: name.into(),
                scope: obj.id.scope.clone(),
            };
            let resolved = inv.resolve_index(&target);
            // A reference resolved in another scope names that object.
            let target = match resolved {
                Some(i) => inv.objects[i].id.clone(),
                None => target,
            };
            out.push(Reference {
                kind,
                from,
                field,
                span: node.span(),
                target,
                resolved,
            });
        };
        if let Some(node) = root.path(&["spec", "clusterName"]) {
            push(
                ReferenceKind::NodePoolCluster,
                "/spec/clusterName".into(),
                node,
                "hypershift.openshift.io",
                "HostedCluster",
            );
        }
        for (key, kind) in [
            ("config", ReferenceKind::NodePoolConfig),
            ("tuningConfig", ReferenceKind::NodePoolTuning),
        ] {
            let items = root
                .path(&["spec", key])
                .and_then(Node::as_seq)
                .unwrap_or_default();
            for (i, item) in items.iter().enumerate() {
                if let Some(node) = item.get("name") {
                    push(kind, format!("/spec/{key}/{i}/name"), node, "", "ConfigMap");
                }
            }
        }
    }
    out
}
