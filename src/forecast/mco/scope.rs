//! One cluster's objects and changes. Cluster-scoped names repeat across clusters (every cluster
//! has a `worker` pool), so identities and changes are resolved within the cluster, not across
//! the repository.

use std::collections::BTreeMap;

use crate::diff::{diff_objects, ChangeKind, FieldChange};
use crate::forecast::Input;
use crate::inventory::clusters::Cluster;
use crate::inventory::{Object, ObjectId};

/// A changed object of the cluster.
pub struct Change<'a> {
    /// What happened.
    pub kind: ChangeKind,
    /// Base definition.
    pub base: Option<&'a Object>,
    /// Head definition.
    pub head: Option<&'a Object>,
    /// Changed fields (changed objects only).
    pub fields: Vec<FieldChange>,
}

/// The cluster's objects by identity on both sides, and what changed.
pub struct Scope<'a> {
    /// Base objects (first definition in the cluster).
    pub base: BTreeMap<ObjectId, &'a Object>,
    /// Head objects.
    pub head: BTreeMap<ObjectId, &'a Object>,
    /// Changes by identity.
    pub changes: BTreeMap<ObjectId, Change<'a>>,
}

impl<'a> Scope<'a> {
    /// Builds the scope; with no base to compare with, nothing changed.
    pub fn new(input: &Input<'a>, c: &Cluster) -> Self {
        let side = |inv: &'a crate::inventory::Inventory, idx: &[usize]| {
            let mut m: BTreeMap<ObjectId, &'a Object> = BTreeMap::new();
            for &i in idx {
                let o = &inv.objects[i];
                m.entry(o.id.clone()).or_insert(o);
            }
            m
        };
        let base = side(input.base, &c.base);
        let head = side(input.head, &c.head);
        let no_base = input.diff.changes.is_empty() && input.base.objects.is_empty();
        let mut changes = BTreeMap::new();
        if !no_base {
            for (id, h) in &head {
                match base.get(id) {
                    None => {
                        changes.insert(
                            id.clone(),
                            Change {
                                kind: ChangeKind::Added,
                                base: None,
                                head: Some(*h),
                                fields: Vec::new(),
                            },
                        );
                    }
                    Some(b) => {
                        if b.same_document(h) {
                            continue;
                        }
                        let fields = diff_objects(b, h);
                        if !fields.is_empty() {
                            changes.insert(
                                id.clone(),
                                Change {
                                    kind: ChangeKind::Changed,
                                    base: Some(*b),
                                    head: Some(*h),
                                    fields,
                                },
                            );
                        }
                    }
                }
            }
            for (id, b) in &base {
                if !head.contains_key(id) {
                    changes.insert(
                        id.clone(),
                        Change {
                            kind: ChangeKind::Removed,
                            base: Some(*b),
                            head: None,
                            fields: Vec::new(),
                        },
                    );
                }
            }
        }
        Scope {
            base,
            head,
            changes,
        }
    }
}
