//! Objects carried inside other objects: ACM `Policy` → `ConfigurationPolicy` →
//! `object-templates[].objectDefinition`, Hive `SyncSet`/`SelectorSyncSet` `resources[]` and
//! `patches[]`, and OpenShift `Template` `objects[]`. Each becomes an object of its own with exact spans (a subtree of the wrapper's
//! document), grouped by the outermost wrapper so a model can say "clusters selected by Policy X".

use std::sync::Arc;

use nodecast_yaml::{Document, Node, NodeId};

use super::{Object, ObjectId};
use crate::parse::{self, FileStatus, ParsedFile};

/// How a wrapper applies the object it carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum How {
    /// ACM `musthave` / `mustonlyhave`, or a Hive resource: the object is created or updated.
    Applied,
    /// ACM `mustnothave`: the object is deleted from the selected clusters.
    Deleted,
    /// Hive `patches[]`: a partial object merged into an existing one.
    Patched,
}

impl How {
    /// For messages.
    pub fn as_str(self) -> &'static str {
        match self {
            How::Applied => "applied",
            How::Deleted => "deleted (mustnothave)",
            How::Patched => "patched",
        }
    }
}

/// The wrapper that carries an object, for grouping (which clusters receive it).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Wrapper {
    /// The outermost wrapper (the `Policy`, `SyncSet` or `SelectorSyncSet`).
    pub id: ObjectId,
    /// How the object is applied.
    pub how: How,
    /// JSON pointer of the object inside the outermost wrapper's document.
    pub pointer: String,
}

/// Whether objects of this kind carry other objects (ACM Policies, Hive SyncSets).
pub fn is_wrapper(group: &str, kind: &str) -> bool {
    matches!(
        (group, kind),
        (
            "policy.open-cluster-management.io",
            "Policy" | "ConfigurationPolicy"
        ) | ("hive.openshift.io", "SyncSet" | "SelectorSyncSet")
    )
}

/// The documents an object carries, each as its own parsed file (spans into the same text).
pub fn unwrap(obj: &Object, budget: &mut parse::Budget) -> Vec<(Wrapper, Arc<ParsedFile>)> {
    if !carries(&obj.id) {
        return Vec::new();
    }
    let root = obj.root();
    let (outer, prefix) = match &obj.origin.wrapper {
        Some(w) => (w.id.clone(), w.pointer.clone()),
        None => (obj.id.clone(), String::new()),
    };
    let mut found: Vec<(How, String, Node<'_>)> = Vec::new();
    match (obj.id.group.as_str(), obj.id.kind.as_str()) {
        ("policy.open-cluster-management.io", "Policy") => {
            for (i, t) in items(root, &["spec", "policy-templates"]) {
                if let Some(def) = t.get("objectDefinition") {
                    found.push((
                        How::Applied,
                        format!("/spec/policy-templates/{i}/objectDefinition"),
                        def,
                    ));
                }
            }
        }
        ("policy.open-cluster-management.io", "ConfigurationPolicy") => {
            for (i, t) in items(root, &["spec", "object-templates"]) {
                let compliance = t
                    .get("complianceType")
                    .and_then(Node::as_str)
                    .unwrap_or("musthave")
                    .to_ascii_lowercase();
                let how = if compliance == "mustnothave" {
                    How::Deleted
                } else {
                    How::Applied
                };
                if let Some(def) = t.get("objectDefinition") {
                    found.push((
                        how,
                        format!("/spec/object-templates/{i}/objectDefinition"),
                        def,
                    ));
                }
            }
        }
        // An OpenShift Template (how OSD's managed-cluster-config ships its SelectorSyncSets):
        // every `objects[]` entry is applied when the template is processed; `${PARAM}` values
        // are placeholders.
        ("template.openshift.io", "Template") => {
            for (i, o) in items(root, &["objects"]) {
                found.push((How::Applied, format!("/objects/{i}"), o));
            }
        }
        ("hive.openshift.io", "SyncSet" | "SelectorSyncSet") => {
            for (i, r) in items(root, &["spec", "resources"]) {
                found.push((How::Applied, format!("/spec/resources/{i}"), r));
            }
            for (i, p) in items(root, &["spec", "patches"]) {
                found.push((How::Patched, format!("/spec/patches/{i}"), p));
            }
        }
        _ => {}
    }
    let text = obj.file().text.clone();
    let outer_text: &str = text.as_deref().unwrap_or_default();
    let opts = nodecast_yaml::Options::default();
    found
        .into_iter()
        .filter_map(|(how, pointer, node)| {
            let doc = if how == How::Patched {
                patch_object(outer_text, node, &opts)?
            } else {
                // The carried object's nodes are the wrapper's, shared.
                obj.parsed().doc.subdocument(node)?
            };
            doc.root().as_map()?;
            let parsed = parse::decode_doc_within(outer_text, doc, &opts, budget);
            Some((
                Wrapper {
                    id: outer.clone(),
                    how,
                    pointer: format!("{prefix}{pointer}"),
                },
                Arc::new(ParsedFile {
                    text: text.clone(),
                    status: FileStatus::Parsed,
                    docs: vec![parsed],
                    problems: Vec::new(),
                    unread: Vec::new(),
                    encoding: None,
                    blob: None,
                }),
            ))
        })
        .collect()
}

/// Whether objects of this kind may carry others (the kinds [`unwrap`] reads): the wrappers a
/// cluster applies ([`is_wrapper`]) and OpenShift Templates, whose objects are applied when the
/// template is processed. The rest are the same object wherever the same document is read the
/// same way.
pub fn carries(id: &super::ObjectId) -> bool {
    is_wrapper(&id.group, &id.kind)
        || (id.group == "template.openshift.io" && id.kind == "Template")
}

/// The ACM Policy wrapper of an object, when a Policy carries it.
fn policy_of(obj: &Object) -> Option<&Wrapper> {
    obj.origin
        .wrapper
        .as_deref()
        .filter(|w| w.id.kind == "Policy")
}

/// Whether an object sits in a ConfigurationPolicy's `object-templates` (what the Policy
/// enforces or checks), not in `policy-templates` (the templates themselves, propagated as
/// they are).
fn in_object_templates(obj: &Object) -> bool {
    obj.origin
        .wrapper
        .as_ref()
        .is_some_and(|w| w.pointer.contains("/object-templates/"))
}

/// The ConfigurationPolicy (or other template) of the ACM Policy that carries an object: the
/// Policy's `/spec/policy-templates/N/objectDefinition` of the object's pointer.
fn policy_template<'i>(inv: &'i super::Inventory, obj: &Object) -> Option<Node<'i>> {
    let w = policy_of(obj)?;
    let policy = inv.get(&w.id)?.root();
    let index = w.pointer.split('/').nth(3)?.parse::<usize>().ok()?;
    policy
        .path(&["spec", "policy-templates"])
        .and_then(Node::as_seq)
        .and_then(|s| s.get(index))
        .and_then(|t| t.get("objectDefinition"))
}

/// The remediation the carrying Policy writes for an object: the Policy's own (it overrides the
/// template's), else the template's; `Some(None)` when neither writes one, `None` when the object
/// is not carried by a Policy of this side.
fn written_remediation(inv: &super::Inventory, obj: &Object) -> Option<Option<String>> {
    let action = |n: Node<'_>| {
        n.path(&["spec", "remediationAction"])
            .and_then(Node::as_str)
            .map(str::to_ascii_lowercase)
    };
    let w = policy_of(obj)?;
    if let Some(a) = inv.get(&w.id).and_then(|p| action(p.root())) {
        return Some(Some(a));
    }
    policy_template(inv, obj).map(action)
}

/// Whether an object is only *checked* by the ACM Policy that carries it: its
/// ConfigurationPolicy (or the Policy itself, which overrides it) says `remediationAction:
/// inform`, so ACM reports compliance and never creates or changes the object.
pub fn informs_only(inv: &super::Inventory, obj: &Object) -> bool {
    // ACM's default remediation is inform.
    written_remediation(inv, obj).is_some_and(|a| a.is_none_or(|a| a == "inform"))
}

/// Whether an ACM object template only checks an object's status: beside `apiVersion`, `kind`,
/// the name and the namespace it holds nothing but `status`, which ACM compares and never writes
/// (the "create it, then check it" idiom, whose check template the parent Policy's `enforce`
/// overrides all the same). Such a template defines nothing.
pub fn checks_status_only(obj: &Object) -> bool {
    if !in_object_templates(obj) {
        return false;
    }
    let nodecast_yaml::NodeKind::Map(entries) = obj.root().kind() else {
        return false;
    };
    let mut status = false;
    for e in entries.iter() {
        match e.key.as_str() {
            Some("apiVersion" | "kind") => {}
            Some("status") => status = true,
            Some("metadata") => {
                let nodecast_yaml::NodeKind::Map(meta) = e.value.kind() else {
                    return false;
                };
                if !meta
                    .iter()
                    .all(|m| matches!(m.key.as_str(), Some("name" | "namespace")))
                {
                    return false;
                }
            }
            _ => return false,
        }
    }
    status
}

/// Whether the ACM Policy that carries an object is disabled (`spec.disabled: true`): ACM does
/// not propagate it, so nothing it carries is created or checked.
pub fn policy_disabled(inv: &super::Inventory, obj: &Object) -> bool {
    policy_of(obj)
        .and_then(|w| inv.get(&w.id))
        .and_then(|p| p.root().path(&["spec", "disabled"]))
        .is_some_and(|d| {
            matches!(
                d.kind(),
                nodecast_yaml::NodeKind::Scalar {
                    value: nodecast_yaml::Scalar::Bool(true),
                    ..
                }
            )
        })
}

/// Whether ACM creates or changes an object this side carries in a Policy: the Policy is not
/// disabled, and either the object is one of its templates (a ConfigurationPolicy is propagated
/// to the clusters whatever its remediation) or the Policy enforces it.
pub fn enforced(inv: &super::Inventory, obj: &Object) -> bool {
    !policy_disabled(inv, obj) && (!in_object_templates(obj) || !informs_only(inv, obj))
}

/// Base objects that only become real in head: carried by a Policy that informs only (or is
/// disabled) in base and enforces them in head (`remediationAction: inform` → `enforce`,
/// `disabled: true` → `false`). ACM never created them before, so whatever the clusters hold
/// now, the head's enforcement is what brings them: the base side must not count them as
/// present, or an unchanged MachineConfig would read as "no node impact" while the pools
/// reboot for it.
pub fn newly_enforced(base: &super::Inventory, head: &super::Inventory) -> Vec<usize> {
    base.objects
        .iter()
        .enumerate()
        .filter(|(i, o)| {
            o.origin.wrapper.is_some()
                && base.first(&o.id) == Some(*i)
                && !enforced(base, o)
                && head
                    .get(&o.id)
                    .is_some_and(|h| h.origin.wrapper.is_some() && enforced(head, h))
        })
        .map(|(i, _)| i)
        .collect()
}

/// Head objects a Policy stops propagating with pruning on: the Policy enforced them in base
/// and is disabled in head, and its ConfigurationPolicy says `pruneObjectBehavior: DeleteAll` or
/// `DeleteIfCreated`, so the configuration policy controller deletes them from the clusters as
/// the policy goes. For the diff and the models they are gone (a deletion), read by rules and
/// validation as written.
pub fn pruned_by_disabling(base: &super::Inventory, head: &super::Inventory) -> Vec<usize> {
    let prunes = |inv: &super::Inventory, o: &Object| {
        policy_template(inv, o)
            .and_then(|t| t.path(&["spec", "pruneObjectBehavior"]))
            .and_then(Node::as_str)
            .map(str::to_ascii_lowercase)
            .is_some_and(|p| p == "deleteall" || p == "deleteifcreated")
    };
    head.objects
        .iter()
        .enumerate()
        .filter(|&(i, o)| {
            in_object_templates(o)
                && head.first(&o.id) == Some(i)
                && policy_disabled(head, o)
                && prunes(head, o)
                && base
                    .get(&o.id)
                    .is_some_and(|b| b.origin.wrapper.is_some() && enforced(base, b))
        })
        .map(|(i, _)| i)
        .collect()
}

/// Whether the Policy that carries an object says in so many words that it only checks it: the
/// Policy's `remediationAction: inform`, or none there and the template's `inform` (ACM's
/// default when neither says is not relied on: no action written reads as enforced).
fn explicitly_informs(inv: &super::Inventory, obj: &Object) -> bool {
    written_remediation(inv, obj).is_some_and(|a| a.as_deref() == Some("inform"))
}

/// Objects a Policy only checks in both revisions (it says `inform`, or it is disabled, wherever
/// the object is defined): ACM reports compliance and never creates, changes or deletes them,
/// so a change to one reaches no node. Per side, the indexes of such objects, in order.
pub fn checked_only(base: &super::Inventory, head: &super::Inventory) -> (Vec<usize>, Vec<usize>) {
    let unenforced = |inv: &super::Inventory, i: usize, o: &Object| {
        in_object_templates(o)
            && inv.first(&o.id) == Some(i)
            && (policy_disabled(inv, o) || explicitly_informs(inv, o))
    };
    let side = |inv: &super::Inventory, other: &super::Inventory| -> Vec<usize> {
        inv.objects
            .iter()
            .enumerate()
            .filter(|&(i, o)| {
                unenforced(inv, i, o)
                    && other.first(&o.id).is_none_or(|j| {
                        other
                            .objects
                            .get(j)
                            .is_some_and(|p| unenforced(other, j, p))
                    })
            })
            .map(|(i, _)| i)
            .collect()
    };
    (side(base, head), side(head, base))
}

/// Whether an object carries `object-templates-raw` (a hub-side template that cannot be read).
pub fn raw_templates(root: Node<'_>) -> Option<Node<'_>> {
    root.path(&["spec", "object-templates-raw"])
}

/// A Hive patch as a partial object: its target identity plus, for strategic and merge patches,
/// the fields the patch body sets (parsed out of the `patch` string, located in the file). A
/// JSON patch (`patchType: json`) keeps its body as the opaque `patch` field.
fn patch_object(outer: &str, patch: Node<'_>, opts: &nodecast_yaml::Options) -> Option<Document> {
    let mut b = nodecast_yaml::Builder::new();
    let mut entries: Vec<(NodeId, NodeId)> = Vec::new();
    for key in ["apiVersion", "kind"] {
        let e = patch.entry(key)?;
        entries.push((b.copy(e.key), b.copy(e.value)));
    }
    let name = patch.entry("name")?;
    let mut meta = vec![(b.scalar("name", name.key.span()), b.copy(name.value))];
    if let Some(ns) = patch.entry("namespace") {
        meta.push((b.scalar("namespace", ns.key.span()), b.copy(ns.value)));
    }
    let meta = b.map(patch.span(), &meta);
    entries.push((b.scalar("metadata", name.key.span()), meta));
    let json_patch = patch
        .get("patchType")
        .and_then(Node::as_str)
        .is_some_and(|t| t.eq_ignore_ascii_case("json"));
    if let Some(body) = patch.entry("patch") {
        let parsed = (!json_patch && body.value.as_str().is_some())
            .then(|| nodecast_yaml::parse_embedded(outer, body.value, opts));
        let fields = parsed
            .as_ref()
            .filter(|p| p.problems.is_empty())
            .and_then(|p| p.documents.first())
            .and_then(|d| d.root().as_map());
        match fields {
            Some(fields) => {
                for e in fields
                    .iter()
                    .filter(|e| !matches!(e.key.as_str(), Some("apiVersion" | "kind" | "metadata")))
                {
                    entries.push((b.copy(e.key), b.copy(e.value)));
                }
            }
            None => entries.push((b.copy(body.key), b.copy(body.value))),
        }
    }
    let root = b.map(patch.span(), &entries);
    Some(b.finish(root, 0, patch.span()))
}

fn items<'a>(root: Node<'a>, path: &[&str]) -> impl Iterator<Item = (usize, Node<'a>)> + 'a {
    root.path(path)
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .enumerate()
}
