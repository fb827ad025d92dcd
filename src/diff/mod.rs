//! Diff stage: per identity, added / removed / changed, with the changed field paths and both spans.

mod tree;
pub mod unreadable;

use crate::diagnostic::Location;
use crate::inventory::{Inventory, Object, ObjectId};
use rayon::prelude::*;

pub use tree::{diff_objects, same_value};

/// What happened to an object between base and head.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    /// Only in head.
    Added,
    /// Only in base.
    Removed,
    /// In both, with different content.
    Changed,
    /// Defined on one side in a file that cannot be read on the other (binary, too large, not
    /// UTF-8, templated, broken YAML, a corrupt blob): not known to be added or removed.
    Unreadable,
}

impl ChangeKind {
    /// Lower-case name for output.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Added => "added",
            ChangeKind::Removed => "removed",
            ChangeKind::Changed => "changed",
            ChangeKind::Unreadable => "unreadable",
        }
    }
}

/// One changed field of an object.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldChange {
    /// JSON pointer of the field; inside embedded documents `/data/config[Kind name]/…`.
    pub path: String,
    /// The field (or, when it was added, its parent) in base.
    pub base: Option<Location>,
    /// The field (or, when it was removed, its parent) in head.
    pub head: Option<Location>,
    /// Short rendering of the base value (`None` when the field was added).
    pub before: Option<String>,
    /// Short rendering of the head value (`None` when the field was removed).
    pub after: Option<String>,
    /// Unified text diff for changed multi-line payloads (embedded documents, file contents).
    pub text_diff: Option<String>,
}

/// One object that differs between base and head.
#[derive(Clone, Debug)]
pub struct ObjectChange {
    /// Identity.
    pub id: ObjectId,
    /// What happened.
    pub kind: ChangeKind,
    /// Index in the base inventory.
    pub base: Option<usize>,
    /// Index in the head inventory.
    pub head: Option<usize>,
    /// Changed fields (empty for added/removed objects).
    pub fields: Vec<FieldChange>,
    /// A definition of an identity defined more than once in one cluster (a duplicate, K004):
    /// the models read the first, the cluster keeps whichever is applied last, so the change is
    /// listed and its node impact assumed ([`crate::forecast::unforecast`]) whatever the models
    /// say.
    pub shadowed: bool,
}

/// Every difference between the two inventories, sorted by identity.
#[derive(Clone, Debug, Default)]
pub struct Diff {
    /// Changed, added and removed objects.
    pub changes: Vec<ObjectChange>,
    /// Objects whose definition moved to another file unchanged: (identity, from, to).
    pub moved: Vec<(ObjectId, String, String)>,
    /// Changed files (or parts) nodecast cannot read on one side or both: their node impact is
    /// unknown ([`unreadable::mark`]).
    pub unreadable: Vec<unreadable::UnreadableChange>,
    /// Identity → index of its first change, built on first use (models ask once per object;
    /// `changes` is complete when [`Diff::compute_grouped`] returns and is not modified after).
    index: std::sync::OnceLock<std::collections::HashMap<ObjectId, usize>>,
}

/// Pairs the definitions of one identity in one cluster that has several (duplicates): the same
/// file first (documents in order), then the rest in order; one left over was added or removed.
fn pairs_by_path(
    base: &Inventory,
    head: &Inventory,
    b: &[usize],
    h: &[usize],
) -> Vec<(Option<usize>, Option<usize>)> {
    let mut left: Vec<usize> = b.to_vec();
    let mut pairs = Vec::new();
    let mut unpaired = Vec::new();
    for &hi in h {
        let path = &head.objects[hi].path;
        match left.iter().position(|&bi| &base.objects[bi].path == path) {
            Some(at) => pairs.push((Some(left.remove(at)), Some(hi))),
            None => unpaired.push(hi),
        }
    }
    let mut left = left.into_iter();
    for hi in unpaired {
        pairs.push((left.next(), Some(hi)));
    }
    pairs.extend(left.map(|bi| (Some(bi), None)));
    pairs
}

/// The later (non-deleted) definitions of each identity defined more than once, in object order
/// (a document read again through a link counts once); the first is the inventory's own index.
fn later_definitions(inv: &Inventory) -> std::collections::HashMap<&ObjectId, Vec<usize>> {
    let mut map: std::collections::HashMap<&ObjectId, Vec<usize>> = Default::default();
    for &(first, later) in &inv.duplicates {
        if inv.link_copies.contains(&later) {
            continue;
        }
        map.entry(&inv.objects[first].id).or_default().push(later);
    }
    map
}

/// Every definition of `id` on one side, first definition first.
fn definitions_of(
    inv: &Inventory,
    later: &std::collections::HashMap<&ObjectId, Vec<usize>>,
    id: &ObjectId,
) -> Vec<usize> {
    let Some(first) = inv.first(id) else {
        return Vec::new();
    };
    let mut all = vec![first];
    all.extend(later.get(id).map(Vec::as_slice).unwrap_or_default());
    all
}

impl Diff {
    /// Compares base and head. `has_base == false` means there is nothing to compare against
    /// (`--no-base`): no changes are reported, rather than every object as added.
    pub fn compute(base: &Inventory, head: &Inventory, has_base: bool) -> Diff {
        Diff::compute_grouped(base, head, has_base, &|_| String::new())
    }

    /// Like [`Diff::compute`], for repositories where one identity is defined once per cluster
    /// (every standalone cluster has its `MachineConfig/99-worker-ssh`): definitions are paired
    /// by `cluster_of`, so a change in the second cluster's copy is a change, not invisible.
    pub fn compute_grouped(
        base: &Inventory,
        head: &Inventory,
        has_base: bool,
        cluster_of: &(dyn Fn(&Object) -> String + Sync),
    ) -> Diff {
        let mut diff = Diff::default();
        if !has_base {
            return diff;
        }
        let (base_later, head_later) = (later_definitions(base), later_definitions(head));
        let mut ids: Vec<&ObjectId> = base
            .identities()
            .chain(head.identities())
            .map(|(id, _)| id)
            .collect();
        ids.par_sort_unstable();
        ids.dedup();
        // Identities are compared independently: in parallel, appended in identity order.
        let compared: Vec<Diff> = ids
            .par_iter()
            .map(|&id| {
                let mut one = Diff::default();
                let b = &definitions_of(base, &base_later, id)[..];
                let h = &definitions_of(head, &head_later, id)[..];
                if b.len() <= 1 && h.len() <= 1 {
                    one.pair(base, head, id, b.first().copied(), h.first().copied());
                    return one;
                }
                // Several definitions: pair them cluster by cluster.
                // Each definition's cluster is computed once: an identity defined by every
                // cluster of a fleet must not cost clusters² lookups.
                let by_cluster = |inv: &Inventory, defs: &[usize]| {
                    let mut all: std::collections::BTreeMap<String, Vec<usize>> =
                        Default::default();
                    for &i in defs {
                        all.entry(cluster_of(&inv.objects[i])).or_default().push(i);
                    }
                    all
                };
                let (bf, hf) = (by_cluster(base, b), by_cluster(head, h));
                let mut keys: Vec<&String> = bf.keys().chain(hf.keys()).collect();
                keys.sort();
                keys.dedup();
                let none: &[usize] = &[];
                for key in keys {
                    let bd = bf.get(key).map_or(none, Vec::as_slice);
                    let hd = hf.get(key).map_or(none, Vec::as_slice);
                    if bd.len() <= 1 && hd.len() <= 1 {
                        one.pair(base, head, id, bd.first().copied(), hd.first().copied());
                        continue;
                    }
                    // Duplicates in one cluster: each file's definition against its own.
                    let first = one.changes.len();
                    for (bi, hi) in pairs_by_path(base, head, bd, hd) {
                        one.pair(base, head, id, bi, hi);
                    }
                    for c in &mut one.changes[first..] {
                        c.shadowed = true;
                    }
                }
                one
            })
            .filter(|one| !one.changes.is_empty() || !one.moved.is_empty())
            .collect();
        for one in compared {
            diff.changes.extend(one.changes);
            diff.moved.extend(one.moved);
        }
        // A wrapper that newly demands a deletion (ACM `mustnothave`) deletes the object from the
        // clusters that have it, even when this repository did not define it before.
        for &hi in &head.deletions {
            let id = &head.objects[hi].id;
            let known = base.first(id).is_some()
                || base.deletions.iter().any(|&bi| &base.objects[bi].id == id);
            if !known && !diff.changes.iter().any(|c| &c.id == id) {
                diff.changes.push(ObjectChange {
                    id: id.clone(),
                    kind: ChangeKind::Removed,
                    base: None,
                    head: Some(hi),
                    fields: Vec::new(),
                    shadowed: false,
                });
            }
        }
        diff.changes.sort_by(|a, b| a.id.cmp(&b.id));
        diff
    }

    /// Compares one base definition with one head definition of `id` (either may be absent).
    fn pair(
        &mut self,
        base: &Inventory,
        head: &Inventory,
        id: &ObjectId,
        b: Option<usize>,
        h: Option<usize>,
    ) {
        match (b, h) {
            (Some(bi), Some(hi)) => {
                let (bo, ho) = (&base.objects[bi], &head.objects[hi]);
                if bo.same_document(ho) && bo.path == ho.path {
                    return;
                }
                let mut fields = tree::diff_objects(bo, ho);
                // Changes inside carried objects are reported on those objects.
                let carried: Vec<String> = base
                    .carried_pointers(bo)
                    .into_iter()
                    .chain(head.carried_pointers(ho))
                    .collect();
                if !carried.is_empty() {
                    fields.retain(|f| {
                        !carried.iter().any(|p| {
                            f.path == *p
                                || f.path
                                    .strip_prefix(p.as_str())
                                    .is_some_and(|r| r.starts_with('/') || r.starts_with('['))
                        })
                    });
                }
                if fields.is_empty() {
                    if bo.path != ho.path {
                        self.moved
                            .push((id.clone(), bo.path.to_string(), ho.path.to_string()));
                    }
                    return;
                }
                self.changes.push(ObjectChange {
                    id: id.clone(),
                    kind: ChangeKind::Changed,
                    base: Some(bi),
                    head: Some(hi),
                    fields,
                    shadowed: false,
                });
            }
            (None, Some(hi)) => self.changes.push(ObjectChange {
                id: id.clone(),
                kind: ChangeKind::Added,
                base: None,
                head: Some(hi),
                fields: Vec::new(),
                shadowed: false,
            }),
            (Some(bi), None) => self.changes.push(ObjectChange {
                id: id.clone(),
                kind: ChangeKind::Removed,
                base: Some(bi),
                // When a wrapper now demands the deletion (`mustnothave`), that definition.
                head: head
                    .deletions
                    .iter()
                    .copied()
                    .find(|&hi| &head.objects[hi].id == id),
                fields: Vec::new(),
                shadowed: false,
            }),
            (None, None) => {}
        }
    }

    /// The change of an identity, if any.
    pub fn change_of(&self, id: &ObjectId) -> Option<&ObjectChange> {
        let index = self.index.get_or_init(|| {
            let mut map = std::collections::HashMap::new();
            for (i, c) in self.changes.iter().enumerate().filter(|(_, c)| !c.shadowed) {
                map.entry(c.id.clone()).or_insert(i);
            }
            map
        });
        index.get(id).map(|&i| &self.changes[i])
    }
}
