//! Changes nodecast cannot read: a changed file whose content (or part of it: a templated
//! document, what follows a syntax error) could not be read on one side or both. Such a change is
//! never "no change": it is listed with why and where, and an object defined on the readable side
//! only is "unreadable", not added or removed.

use std::collections::{BTreeMap, BTreeSet};

use super::{ChangeKind, Diff};
use crate::diagnostic::{Location, Side};
use crate::inventory::kinds::may_affect_nodes;
use crate::inventory::Inventory;
use crate::parse::{FileEntry, LooseId, ParsedSides, Unread, UnreadKind};

/// A changed file that could not be read on one side or both.
#[derive(Clone, Debug)]
pub struct UnreadableChange {
    /// Repository-relative path.
    pub path: String,
    /// Why the base side could not be read (`None`: it was read, or there is no base file).
    pub base: Option<String>,
    /// Why the head side could not be read.
    pub head: Option<String>,
    /// Where the problem is: in head when head is unreadable, else in base.
    pub location: Location,
    /// Objects the file defines on either side, as far as they can be made out
    /// (`Kind/namespace/name`, `?` for what cannot be read).
    pub objects: Vec<LooseId>,
    /// True when what the unreadable part holds is not known at all (binary, too large, a
    /// corrupt blob): it may be anything.
    pub opaque: bool,
    /// Why, per unread part (for the fix to suggest).
    pub kinds: Vec<UnreadKind>,
}

impl UnreadableChange {
    /// "head: it holds NUL bytes", "base: …; head: …".
    pub fn reason(&self) -> String {
        match (&self.base, &self.head) {
            (Some(b), Some(h)) if b == h => format!("both revisions: {h}"),
            (Some(b), Some(h)) => format!("base: {b}; head: {h}"),
            (Some(b), None) => format!("base: {b}"),
            (None, Some(h)) => format!("head: {h}"),
            (None, None) => String::new(),
        }
    }
}

/// Every `name` a HostedCluster's spec refers to (pull secret, SSH key, trust bundles, …), with
/// the HostedCluster's namespace.
fn hosted_cluster_names(base: &Inventory, head: &Inventory) -> BTreeSet<(String, String)> {
    fn walk(n: nodecast_yaml::Node<'_>, ns: &str, out: &mut BTreeSet<(String, String)>) {
        match n.kind() {
            nodecast_yaml::NodeKind::Map(entries) => {
                for e in entries {
                    match (e.key.key_text(), e.value.as_str()) {
                        (Some("name"), Some(v)) => {
                            out.insert((ns.to_string(), v.to_string()));
                        }
                        _ => walk(e.value, ns, out),
                    }
                }
            }
            nodecast_yaml::NodeKind::Seq(items) => items.iter().for_each(|i| walk(i, ns, out)),
            nodecast_yaml::NodeKind::Scalar { .. } => {}
        }
    }
    let mut out = BTreeSet::new();
    for inv in [base, head] {
        for o in inv.of_kind("hypershift.openshift.io", "HostedCluster") {
            if let Some(spec) = o.root().get("spec") {
                walk(
                    spec,
                    o.id.namespace.as_deref().unwrap_or_default(),
                    &mut out,
                );
            }
        }
    }
    out
}

/// The reasons of a side's unread parts, joined; `None` when the side was read.
fn reasons(parts: &[Unread]) -> Option<String> {
    (!parts.is_empty()).then(|| {
        parts
            .iter()
            .map(|p| p.reason.clone())
            .collect::<Vec<_>>()
            .join("; ")
    })
}

/// The digests of the unread parts, when every part has one (templated documents, text after a
/// syntax error): equal sets mean the unread parts did not change.
fn digests(parts: &[Unread]) -> Option<Vec<[u8; 32]>> {
    let mut d: Vec<[u8; 32]> = parts.iter().map(|p| p.digest).collect::<Option<_>>()?;
    d.sort_unstable();
    Some(d)
}

/// Finds the unreadable changes of the two sides and marks the objects they hide: an object
/// removed from a file that cannot be read in head (or seen there leniently), or added to one
/// that cannot be read in base, is `Unreadable`.
pub fn mark(
    diff: &mut Diff,
    files: &ParsedSides,
    base: &Inventory,
    head: &Inventory,
    has_base: bool,
) {
    if !has_base {
        // Nothing is compared: no change, readable or not.
        return;
    }
    let relevance = Relevance {
        base,
        head,
        hosted_names: hosted_cluster_names(base, head),
    };
    let mut by_path: BTreeMap<&str, (Option<&FileEntry>, Option<&FileEntry>)> = BTreeMap::new();
    for f in &files.base {
        by_path.entry(&f.path).or_default().0 = Some(f);
    }
    for f in &files.head {
        by_path.entry(&f.path).or_default().1 = Some(f);
    }
    let found: Vec<UnreadableChange> = by_path
        .into_iter()
        .filter_map(|(path, (b, h))| unreadable_change(path, b, h, &relevance))
        .collect();
    for c in &mut diff.changes {
        if hidden(c, &found, base, head) {
            c.kind = ChangeKind::Unreadable;
        }
    }
    diff.unreadable = found;
}

/// A file's unreadable change, when it has unread parts that changed and may hold something
/// that matters to nodes.
fn unreadable_change(
    path: &str,
    b: Option<&FileEntry>,
    h: Option<&FileEntry>,
    relevance: &Relevance<'_>,
) -> Option<UnreadableChange> {
    let bu: &[Unread] = b.map(|f| f.parsed.unread.as_slice()).unwrap_or_default();
    let hu: &[Unread] = h.map(|f| f.parsed.unread.as_slice()).unwrap_or_default();
    if bu.is_empty() && hu.is_empty() {
        return None;
    }
    if let (Some(b), Some(h)) = (b, h) {
        let same_bytes = b.id.is_some() && b.id == h.id;
        // Only readable documents changed: the diff has them.
        let same_unread = digests(bu).is_some() && digests(bu) == digests(hu);
        if same_bytes || same_unread {
            return None;
        }
    }
    let opaque = bu.iter().chain(hu).any(|p| p.objects.is_none());
    let mut objects: Vec<LooseId> = bu
        .iter()
        .chain(hu)
        .flat_map(|p| p.objects.clone().unwrap_or_default())
        .collect();
    objects.extend(objects_in(relevance.base, path));
    objects.extend(objects_in(relevance.head, path));
    let mut seen = BTreeSet::new();
    objects.retain(|o| seen.insert(format!("{o:?}")));
    if !opaque && !objects.iter().any(|o| relevance.may_matter(o)) {
        return None;
    }
    let (side, parts) = if hu.is_empty() {
        (Side::Base, bu)
    } else {
        (Side::Head, hu)
    };
    let location = Location {
        side,
        path: path.to_string(),
        span: parts.iter().find_map(|p| p.at),
    };
    Some(UnreadableChange {
        path: path.to_string(),
        base: reasons(bu),
        head: reasons(hu),
        location,
        objects,
        opaque,
        kinds: bu.iter().chain(hu).map(|p| p.kind).collect(),
    })
}

/// The objects a side's inventory has from a file, as loose ids (to list with the unread ones).
fn objects_in(inv: &Inventory, path: &str) -> Vec<LooseId> {
    inv.objects
        .iter()
        .filter(|o| *o.path == *path)
        .map(|o| LooseId {
            api_version: Some(o.api_version().to_string()),
            kind: Some(o.id.kind.to_string()),
            namespace: o.id.namespace.as_deref().map(str::to_string),
            name: Some(o.id.name.to_string()),
            cluster_name: o
                .root()
                .path(&["spec", "clusterName"])
                .and_then(nodecast_yaml::Node::as_str)
                .map(str::to_string),
        })
        .collect()
}

/// What decides whether an object of an unreadable file may matter to nodes: its kind, and for
/// ConfigMaps and Secrets whether something that does matter refers to them.
struct Relevance<'a> {
    /// The base inventory.
    base: &'a Inventory,
    /// The head inventory.
    head: &'a Inventory,
    /// (namespace, name) that HostedClusters refer to.
    hosted_names: BTreeSet<(String, String)>,
}

impl Relevance<'_> {
    /// Whether the object may affect nodes (an unknown kind or group may be anything).
    fn may_matter(&self, o: &LooseId) -> bool {
        let Some(kind) = &o.kind else {
            return true;
        };
        let group = o
            .api_version
            .as_deref()
            .and_then(|a| a.rsplit_once('/'))
            .map(|(g, _)| g)
            .unwrap_or_default();
        // A kind whose group is unknown (templated apiVersion) may be anything.
        o.api_version.is_none()
            || if group.is_empty() && matches!(kind.as_str(), "ConfigMap" | "Secret") {
                self.referenced(kind, o.namespace.as_deref(), o.name.as_deref())
            } else {
                may_affect_nodes(group, kind)
            }
    }

    /// ConfigMaps and Secrets matter when a NodePool or HostedCluster refers to them, or when the
    /// Machine Config Operator reads them (`openshift-config`).
    fn referenced(&self, kind: &str, namespace: Option<&str>, name: Option<&str>) -> bool {
        let Some(name) = name else { return true };
        namespace == Some("openshift-config")
            || self
                .hosted_names
                .iter()
                .any(|(ns, n)| n == name && (namespace.is_none() || namespace == Some(ns)))
            || [self.base, self.head].iter().any(|inv| {
                inv.references.iter().any(|r| {
                    r.target.kind == kind
                        && r.target.name == name
                        && (namespace.is_none() || r.target.namespace.as_deref() == namespace)
                })
            })
    }
}

/// Whether a change only looks removed or added because its file cannot be read on the other
/// side.
fn hidden(
    c: &super::ObjectChange,
    found: &[UnreadableChange],
    base: &Inventory,
    head: &Inventory,
) -> bool {
    let (obj, head_unread) = match c.kind {
        ChangeKind::Removed => (c.base.map(|i| &base.objects[i]), true),
        ChangeKind::Added => (c.head.map(|i| &head.objects[i]), false),
        _ => return false,
    };
    let Some(obj) = obj else { return false };
    let other_side_unread = |u: &&UnreadableChange| {
        if head_unread {
            u.head.is_some()
        } else {
            u.base.is_some()
        }
    };
    found.iter().filter(other_side_unread).any(|u| {
        *u.path == *obj.path
            || u.objects.iter().any(|l| {
                l.kind.as_deref() == Some(obj.id.kind.as_str())
                    && l.name.as_deref() == Some(obj.id.name.as_str())
                    && (l.namespace.is_none()
                        || l.namespace.as_deref() == obj.id.namespace.as_deref())
            })
    })
}
