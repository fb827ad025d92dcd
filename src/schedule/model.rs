//! The change-management objects of one side: policies, and the objects that carry a stanza,
//! with stanza references resolved.

use crate::schedule::codes;

use nodecast_yaml::{Node, Span};

use super::policy::{self, Policy, PolicyKind};
use super::stanza::{self, PolicyRef, Schema, Stanza};
pub use super::Src;
use crate::diagnostic::Diagnostic;
use crate::inventory::{Inventory, Object};

/// Which kind carries a stanza.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HolderKind {
    /// config.openshift.io ClusterVersion.
    ClusterVersion,
    /// machineconfiguration.openshift.io MachineConfigPool.
    MachineConfigPool,
    /// hypershift.openshift.io HostedCluster.
    HostedCluster,
    /// hypershift.openshift.io NodePool.
    NodePool,
}

impl HolderKind {
    /// The kind of an object, when it may carry a stanza.
    pub fn of(group: &str, kind: &str) -> Option<Self> {
        match (group, kind) {
            ("config.openshift.io", "ClusterVersion") => Some(HolderKind::ClusterVersion),
            ("machineconfiguration.openshift.io", "MachineConfigPool") => {
                Some(HolderKind::MachineConfigPool)
            }
            ("hypershift.openshift.io", "HostedCluster") => Some(HolderKind::HostedCluster),
            ("hypershift.openshift.io", "NodePool") => Some(HolderKind::NodePool),
            _ => None,
        }
    }

    /// Schema A's default `policy.namespace` (the controller's namespace).
    pub fn default_namespace(self, own: Option<&str>) -> String {
        match self {
            HolderKind::ClusterVersion => "openshift-cluster-version".into(),
            HolderKind::MachineConfigPool => "openshift-machine-config-operator".into(),
            HolderKind::HostedCluster | HolderKind::NodePool => own.unwrap_or_default().to_string(),
        }
    }
}

/// An object that may carry `spec.changeManagement`.
pub struct Holder {
    /// Index in the inventory.
    pub index: usize,
    /// Kind.
    pub kind: HolderKind,
    /// Namespace (HostedCluster, NodePool).
    pub namespace: Option<String>,
    /// Name.
    pub name: String,
    /// The stanza, when present and of a supported revision (boxed: a fleet's pools mostly have
    /// none, and every holder held a stanza's room).
    pub stanza: Option<Box<Stanza>>,
    /// Index in [`Model::policies`] of the referenced policy, when it resolves.
    pub policy: Option<usize>,
}

/// Whether a side uses change-management policies or stanzas at all: then when a rollout may
/// start, and the W1xx checks, read across the whole repository (nearest policy by folder,
/// pools and ClusterVersions of other folders, bypass annotations by name).
pub fn in_use(inv: &Inventory) -> bool {
    inv.objects.iter().any(|o| {
        matches!(
            o.id.kind.as_str(),
            "ChangeManagementPolicy" | "HostedChangeManagementPolicy"
        ) || (HolderKind::of(&o.id.group, &o.id.kind).is_some()
            && o.root()
                .path(&["spec"])
                .and_then(|s| s.entry("changeManagement"))
                .is_some())
    })
}

/// Policies and stanzas of a side.
pub struct Model {
    /// Every policy.
    pub policies: Vec<Policy>,
    /// Every stanza-carrying object (with or without a stanza).
    pub holders: Vec<Holder>,
    /// Whether the repository uses the API at all (for the W101 reminder).
    pub first_use: Option<(String, Span)>,
    /// The ClusterVersion holders by folder (the last of a folder, in holder order) and how many
    /// there are: built on first use, for [`crate::schedule::lint::cluster_version_for`].
    pub(crate) cluster_versions:
        std::sync::OnceLock<(std::collections::HashMap<String, usize>, usize)>,
}

impl Model {
    /// Parses and validates every policy and stanza; findings go to `out`.
    pub fn build(inv: &Inventory, now: i64, out: &mut Vec<Diagnostic>) -> Model {
        let mut policies = Vec::new();
        let mut holders = Vec::new();
        let mut first_use: Option<(String, Span)> = None;
        // Every definition that reaches a cluster, once per place: a fleet defines
        // `MachineConfigPool/worker` and `ClusterVersion/version` once per cluster folder, and
        // each cluster's stanza governs its own pools (a duplicate in one place is one object).
        let mut seen = std::collections::HashSet::new();
        for (index, obj) in inv.objects.iter().enumerate() {
            let relevant = matches!(
                obj.id.kind.as_str(),
                "ChangeManagementPolicy" | "HostedChangeManagementPolicy"
            ) || HolderKind::of(&obj.id.group, &obj.id.kind).is_some();
            if !relevant || inv.is_absent(index) || !seen.insert((&obj.id, place(obj))) {
                continue;
            }
            let kind = match obj.id.kind.as_str() {
                "ChangeManagementPolicy" => Some(PolicyKind::Cluster),
                "HostedChangeManagementPolicy" => Some(PolicyKind::Hosted),
                _ => None,
            };
            if let Some(kind) = kind {
                first_use.get_or_insert_with(|| {
                    let span = kind_span(obj);
                    (obj.path_at(span).to_string(), span)
                });
                policies.push(policy::parse(index, obj, kind, now, out));
                continue;
            }
            let Some(hk) = HolderKind::of(&obj.id.group, &obj.id.kind) else {
                continue;
            };
            let entry = obj
                .root()
                .path(&["spec"])
                .and_then(|s| s.entry("changeManagement"));
            if let Some(e) = entry {
                first_use
                    .get_or_insert_with(|| (obj.path_at(e.key.span()).to_string(), e.key.span()));
            }
            let stanza = entry
                .and_then(|e| stanza::parse(&Src::of(obj), e, now, out))
                .map(Box::new);
            holders.push(Holder {
                index,
                kind: hk,
                namespace: obj
                    .root()
                    .path(&["metadata", "namespace"])
                    .and_then(Node::as_str)
                    .map(str::to_string),
                name: obj.id.name.to_string(),
                stanza,
                policy: None,
            });
        }
        let mut model = Model {
            policies,
            holders,
            first_use,
            cluster_versions: std::sync::OnceLock::new(),
        };
        model.resolve(inv, out);
        model
    }

    /// Resolves each stanza's policy reference.
    fn resolve(&mut self, inv: &Inventory, out: &mut Vec<Diagnostic>) {
        for h in &mut self.holders {
            let Some(st) = &h.stanza else { continue };
            let Some(r) = st.reference() else { continue };
            let (kind, namespace) = wanted(h, st.schema, r);
            // Of several policies of that name (one per cluster folder), the nearest to the
            // stanza: the one whose file shares the longest leading folders with it.
            let own = &inv.objects[h.index].path;
            let found = self
                .policies
                .iter()
                .enumerate()
                .filter(|(_, p)| p.kind == kind && p.name == r.name && p.namespace == namespace)
                .max_by_key(|(i, p)| {
                    (
                        shared_folders(own, &inv.objects[p.index].path),
                        usize::MAX - i,
                    )
                })
                .map(|(i, _)| i);
            match found {
                Some(i) => h.policy = Some(i),
                None => {
                    let obj = &inv.objects[h.index];
                    let src = Src::of(obj);
                    let kind_name = kind.name();
                    let place = match &namespace {
                        Some(ns) => format!("{kind_name} `{}` in namespace `{ns}`", r.name),
                        None => format!("cluster-scoped {kind_name} `{}`", r.name),
                    };
                    let candidates: Vec<&Policy> =
                        self.policies.iter().filter(|p| p.kind == kind).collect();
                    let mut d = src
                        .at(&codes::W113, r.span, format!("the change-management policy is not in the repository, so when changes may start is unknown: no {place}"))
                        .label("no such policy");
                    let same_name = candidates.iter().find(|p| p.name == r.name);
                    d = if let Some(p) = same_name {
                        d.help(match &p.namespace {
                            Some(ns) => format!("a {kind_name} `{}` exists in namespace `{ns}`; set the namespace or move the policy", p.name),
                            None => format!("`{}` exists but is cluster-scoped; this stanza needs it in namespace `{}`", p.name, namespace.clone().unwrap_or_default()),
                        })
                    } else if let Some(s) = crate::text::closest(
                        &r.name,
                        candidates
                            .iter()
                            .filter(|p| p.namespace == namespace)
                            .map(|p| p.name.as_str()),
                    ) {
                        d.help(format!("did you mean `{s}`?"))
                            .fix(crate::diagnostic::Fix::rename(r.span, s))
                    } else {
                        d.help(format!("add the {kind_name} `{}`, or fix the name", r.name))
                    };
                    out.push(d.note("nodecast assumes changes start immediately (it never under-states how soon nodes may be disrupted)"));
                }
            }
        }
    }
}

/// The policy kind and namespace a stanza reference must resolve to.
fn wanted(h: &Holder, schema: Schema, r: &PolicyRef) -> (PolicyKind, Option<String>) {
    match schema {
        Schema::A => (
            PolicyKind::Cluster,
            Some(
                r.namespace
                    .clone()
                    .unwrap_or_else(|| h.kind.default_namespace(h.namespace.as_deref())),
            ),
        ),
        Schema::B => match h.kind {
            HolderKind::ClusterVersion | HolderKind::MachineConfigPool => {
                (PolicyKind::Cluster, None)
            }
            HolderKind::HostedCluster | HolderKind::NodePool => (
                PolicyKind::Hosted,
                Some(h.namespace.clone().unwrap_or_default()),
            ),
        },
    }
}

fn kind_span(obj: &Object) -> Span {
    obj.root()
        .get("kind")
        .map_or(obj.root().span(), |k| k.span())
}

/// Where a definition is deployed from, to tell one cluster's object from another's: the
/// wrapper that carries it, else the overlay that renders it, else its file's folder.
fn place(obj: &crate::inventory::Object) -> String {
    match (&obj.origin.wrapper, &obj.origin.overlay) {
        (Some(_), _) => obj.id.scope.to_string(),
        (None, Some(overlay)) => overlay.to_string(),
        (None, None) => crate::inventory::clusters::parent(&obj.path).to_string(),
    }
}

/// How many leading folders two repository paths share.
fn shared_folders(a: &str, b: &str) -> usize {
    fn folders(p: &str) -> Vec<&str> {
        let mut parts: Vec<&str> = p.split('/').collect();
        parts.pop();
        parts
    }
    folders(a)
        .iter()
        .zip(folders(b).iter())
        .take_while(|(x, y)| x == y)
        .count()
}
