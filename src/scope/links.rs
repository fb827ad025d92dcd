//! Which objects' evaluations read other objects: every read that crosses a producer, so the
//! islands a record keeps are closed (an island's findings, forecast and changes depend on its
//! own producers and the context alone). One list, read twice: on the base revision when a
//! record is made (the islands), and on the head's changed objects when a check is scoped (a
//! changed reference must not reach an island left out).
//!
//! | read | who reads what | where |
//! |---|---|---|
//! | a standalone cluster's MCO model | every modelled object of one cluster (`clusters::key_of`), and every object whose cluster is a folder's (the folder is a cluster root only while its pools or ClusterVersion are there) | `forecast::mco`, `inventory::clusters` |
//! | a NodePool's references | every definition named like its HostedCluster and ConfigMaps, any scope (resolution, namesakes, "referenced" ConfigMaps, the HostedCluster's feature set) | `inventory::references`, `forecast::hypershift`, `forecast::judged_through_namesakes`, `validate::feature_set` |
//! | a HostedCluster's names | every Secret and ConfigMap of its namespace one of its string values names (pull secret, SSH key, trust bundle, "may feed nodes") | `forecast::may_be_node_input`, `forecast::hypershift` |
//! | duplicates | every definition of one identity (K004, the diff's pairing) | `inventory`, `rules::k004` |
//! | the cluster singletons | a ClusterVersion reads its cluster's MachineConfiguration (S112), a FeatureGate its ClusterVersion (S123): its own cluster's, else one outside every cluster root, else (outside every root itself) the only one | `inventory::clusters::speaking_for` |
//!
//! What every object reads (CRDs, FeatureGates for the feature set, `coreos-bootimages`, Argo CD
//! applications that split deployment units) is the context a scoped check always loads
//! ([`super::links::CONTEXT`]); change-management policies and stanzas are read across the
//! whole repository and make every check whole.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::inventory::clusters::{is_modelled, key_of};
use crate::inventory::{Inventory, Object, ObjectId};

/// Kinds every object's evaluation may read, whichever cluster it is in: the CRDs validation
/// takes schemas from, the FeatureGates it takes the feature set from, the boot image metadata
/// NodePools are checked against, and Argo CD applications (what they apply together decides the
/// deployment units), and ACM PolicyGenerators. Their producers are loaded by every scoped check,
/// and a change to one makes the check whole.
pub const CONTEXT: [(&str, &str, Option<&str>); 5] = [
    ("apiextensions.k8s.io", "CustomResourceDefinition", None),
    ("config.openshift.io", "FeatureGate", None),
    ("", "ConfigMap", Some("coreos-bootimages")),
    ("argoproj.io", "Application", None),
    // What a generator lists is a generator manifest wherever it is, and its change reaches
    // every node object it lists.
    ("policy.open-cluster-management.io", "PolicyGenerator", None),
];

/// Whether an object is one every evaluation may read ([`CONTEXT`]).
pub fn is_context(o: &Object) -> bool {
    CONTEXT.iter().any(|(g, k, name)| {
        o.id.group == *g && o.id.kind == *k && name.is_none_or(|n| o.id.name == n)
    })
}

/// An identity without its scope: a read "by name" takes every definition so named.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Name {
    /// API group.
    pub group: String,
    /// Kind.
    pub kind: String,
    /// Namespace.
    pub namespace: Option<String>,
    /// Name.
    pub name: String,
}

impl Name {
    /// The name of an identity.
    pub fn of(id: &ObjectId) -> Self {
        Name {
            group: id.group.to_string(),
            kind: id.kind.to_string(),
            namespace: id.namespace.as_ref().map(|n| n.to_string()),
            name: id.name.to_string(),
        }
    }
}

/// What one object's evaluation reads beyond itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Read {
    /// Another object of the same side (an index into its inventory).
    Object(usize),
    /// Every definition of a name, in any scope, on either side.
    Name(Name),
    /// Every definition of a kind (group, kind).
    Kind(&'static str, &'static str),
}

/// The kinds whose definitions are read by name across producers: the targets of NodePool
/// references and what a HostedCluster names.
pub const NAMED_KINDS: [(&str, &str); 3] = [
    ("hypershift.openshift.io", "HostedCluster"),
    ("", "ConfigMap"),
    ("", "Secret"),
];

/// The kinds read by kind across producers (by [`Read::Kind`]).
pub const READ_KINDS: [(&str, &str); 2] = [
    ("operator.openshift.io", "MachineConfiguration"),
    ("config.openshift.io", "ClusterVersion"),
];

/// Calls `read(reader, what)` for every read of the objects `of` selects on one side; `keys`
/// holds each object's cluster (`clusters::key_of`).
pub fn reads(
    inv: &Inventory,
    keys: &[Arc<str>],
    of: impl Fn(usize) -> bool,
    mut read: impl FnMut(usize, Read),
) {
    // One cluster's MCO model reads all of it; and an object's cluster (which its diff, its
    // duplicates and its deployment unit follow) is its folder's only while the cluster's pools
    // or ClusterVersion are there.
    let mut clusters: HashMap<&str, usize> = HashMap::new();
    for (i, o) in inv.objects.iter().enumerate() {
        let key = &*keys[i];
        if !is_modelled(o) && key == "." {
            continue;
        }
        match clusters.get(key) {
            Some(&first) if of(i) || of(first) => read(i, Read::Object(first)),
            Some(_) => {}
            None => {
                clusters.insert(key, i);
            }
        }
    }
    for r in &inv.references {
        if of(r.from) {
            read(r.from, Read::Name(Name::of(&r.target)));
        }
    }
    for &(first, later) in &inv.duplicates {
        if of(first) || of(later) {
            read(later, Read::Object(first));
        }
    }
    // The cluster singletons outside every cluster root, by kind.
    let shared = |(group, kind): (&str, &str)| -> Vec<usize> {
        inv.objects
            .iter()
            .enumerate()
            .filter(|(j, c)| c.id.group == group && c.id.kind == kind && &*keys[*j] == ".")
            .map(|(j, _)| j)
            .collect()
    };
    let shared = [shared(READ_KINDS[0]), shared(READ_KINDS[1])];
    for (i, o) in inv.objects.iter().enumerate() {
        if !of(i) {
            continue;
        }
        // What `speaking_for` may read: its own cluster's candidates (the MCO model's island
        // already), those outside every cluster root, and for an object outside every root
        // itself, every candidate.
        let singleton = match (o.id.group.as_str(), o.id.kind.as_str()) {
            ("hypershift.openshift.io", "HostedCluster") => {
                let mut names = BTreeSet::new();
                strings(o.root(), &mut |s| {
                    names.insert(s);
                });
                for name in names {
                    for kind in ["Secret", "ConfigMap"] {
                        read(
                            i,
                            Read::Name(Name {
                                group: String::new(),
                                kind: kind.into(),
                                namespace: o.id.namespace.as_ref().map(|n| n.to_string()),
                                name: name.to_string(),
                            }),
                        );
                    }
                }
                continue;
            }
            ("config.openshift.io", "ClusterVersion") => 0,
            ("config.openshift.io", "FeatureGate") => 1,
            _ => continue,
        };
        if &*keys[i] == "." {
            let (group, kind) = READ_KINDS[singleton];
            read(i, Read::Kind(group, kind));
        } else {
            for &j in &shared[singleton] {
                read(i, Read::Object(j));
            }
        }
    }
}

/// Each object's cluster, as the models find it. Objects come in file order, so a run of them
/// shares one key rather than a copy each (a fleet's objects are in a few thousand clusters).
pub fn keys(inv: &Inventory, roots: &BTreeSet<String>, globs: &[String]) -> Vec<Arc<str>> {
    let mut last: Option<Arc<str>> = None;
    inv.objects
        .iter()
        .map(|o| {
            let key = key_of(roots, globs, o);
            match &last {
                Some(same) if **same == *key => same.clone(),
                _ => last.insert(Arc::from(key)).clone(),
            }
        })
        .collect()
}

/// Every string value under `node` (what a HostedCluster may name).
pub fn strings<'a>(node: nodecast_yaml::Node<'a>, f: &mut dyn FnMut(&'a str)) {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if let Some(s) = n.as_str() {
            f(s);
        }
        if let Some(entries) = n.as_map() {
            stack.extend(entries.iter().map(|e| e.value));
        }
        if let Some(items) = n.as_seq() {
            stack.extend(items);
        }
    }
}
