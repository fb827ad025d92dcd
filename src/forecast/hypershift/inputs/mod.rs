//! Everything one revision says about a NodePool's rollout inputs, normalised the way the
//! NodePool controller normalises them (`config.go`, `haproxy.go` and the platform templates of HyperShift `hypershift-operator/controllers/nodepool/`).

mod components;
mod documents;
/// The controller's normalisation of inputs.
use super::normalise;

pub use components::has_https_proxy;

use std::collections::BTreeMap;

use nodecast_yaml::{Node, Span};

use super::version::Release;
use crate::inventory::{Inventory, Object, ObjectId, ReferenceKind};

/// How a changed input reaches the nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Trigger {
    /// A config-hash input (trigger A).
    Hash,
    /// A config-hash input produced by the control-plane operator (waits while the HostedCluster
    /// is paused).
    HashViaControlPlane,
    /// The release version (trigger C).
    Version,
    /// The machine template (trigger B).
    Template,
    /// The MachineDeployment failure domain (rolls Replace pools like a template change).
    FailureDomain,
    /// Not known; a rollout is assumed.
    Unknown,
    /// Never rolls nodes.
    Never,
}

impl Trigger {
    /// Whether existing nodes roll under InPlace (template-like triggers reach new machines only).
    pub fn rolls_in_place(self) -> bool {
        matches!(
            self,
            Trigger::Hash | Trigger::HashViaControlPlane | Trigger::Version | Trigger::Unknown
        )
    }

    /// Whether existing nodes roll under Replace.
    pub fn rolls_replace(self) -> bool {
        self != Trigger::Never
    }
}

/// Where an input lives: an object and the fields of it (JSON pointers) that feed the input.
#[derive(Clone, Debug)]
pub struct Origin {
    /// The object.
    pub object: ObjectId,
    /// Field prefixes.
    pub prefixes: Vec<String>,
}

/// One normalised input.
#[derive(Clone, Debug)]
pub struct Component {
    /// How a change reaches nodes.
    pub trigger: Trigger,
    /// What it is, for summaries.
    pub label: &'static str,
    /// The normalised value.
    pub value: String,
    /// Where it comes from.
    pub origins: Vec<Origin>,
    /// Field prefixes under the origins that are not part of it.
    pub excludes: Vec<String>,
}

/// One normalised document of `spec.config` or `spec.tuningConfig`.
#[derive(Clone, Debug)]
pub struct ConfigDoc {
    /// The normalised document.
    pub value: String,
    /// The ConfigMap holding it.
    pub cm: ObjectId,
    /// `config` or `tuning`.
    pub key: &'static str,
    /// The diff's label of the document (`MachineConfig name`).
    pub label: String,
    /// Rollout only possible (a Tuned without boot-time settings).
    pub possible: bool,
    /// Fields the controller overwrites (JSON pointers inside the document).
    pub overwritten: &'static [&'static str],
    /// The ConfigMap's file and the document's span.
    pub path: String,
    /// The document's span.
    pub span: Span,
}

/// A document the controller refuses.
#[derive(Clone, Debug)]
pub struct InvalidDoc {
    /// File.
    pub path: String,
    /// Where.
    pub span: Span,
    /// Why.
    pub message: String,
    /// The ConfigMap.
    pub cm: ObjectId,
}

/// A `spec.config` / `spec.tuningConfig` reference.
#[derive(Clone, Debug)]
pub struct ConfigRef {
    /// ConfigMap name.
    pub name: String,
    /// `config` or `tuning`.
    pub key: &'static str,
    /// Span of the name in the NodePool.
    pub span: Span,
    /// Whether the ConfigMap exists on this side.
    pub resolved: bool,
}

/// One revision of a NodePool with its normalised inputs.
pub struct Side<'a> {
    /// The inventory of the revision.
    pub inv: &'a Inventory,
    /// The NodePool.
    pub np: &'a Object,
    /// Its HostedCluster, when present.
    pub hc: Option<&'a Object>,
    /// NodePool release.
    pub release: Release,
    /// HostedCluster release.
    pub hc_release: Release,
    /// Keyed normalised inputs.
    pub components: BTreeMap<&'static str, Component>,
    /// Config and tuning documents.
    pub docs: Vec<ConfigDoc>,
    /// Documents the controller refuses.
    pub invalid: Vec<InvalidDoc>,
    /// A referenced ConfigMap payload that is not valid YAML (reported by Y001).
    pub unreadable_config: bool,
    /// References to ConfigMaps.
    pub refs: Vec<ConfigRef>,
    /// A `ContainerRuntimeConfig` in `spec.config` selects runc.
    pub uses_runc: bool,
}

/// A string value at a path of mapping keys.
pub(super) fn str_at<'n>(root: Node<'n>, path: &[&str]) -> Option<&'n str> {
    root.path(path).and_then(Node::as_str)
}

/// An origin at some fields of an object.
pub(super) fn origin(obj: &Object, prefixes: &[&str]) -> Origin {
    Origin {
        object: obj.id.clone(),
        prefixes: prefixes.iter().map(|s| s.to_string()).collect(),
    }
}

impl<'a> Side<'a> {
    /// Collects the inputs of NodePool `np` in `inv`.
    pub fn build(inv: &'a Inventory, np: &'a Object) -> Side<'a> {
        let np_index = inv.first(&np.id);
        let root = np.root();
        let hc = np_index
            .map(|i| inv.references_from(i))
            .unwrap_or_default()
            .iter()
            .find(|r| r.kind == ReferenceKind::NodePoolCluster)
            .and_then(|r| r.resolved)
            .map(|i| &*inv.objects[i]);
        let release = Release::from_pullspec(str_at(root, &["spec", "release", "image"]));
        let hc_release = hc
            .map(|h| Release::from_pullspec(str_at(h.root(), &["spec", "release", "image"])))
            .unwrap_or(Release::Missing);
        let mut side = Side {
            inv,
            np,
            hc,
            release,
            hc_release,
            components: BTreeMap::new(),
            docs: Vec::new(),
            invalid: Vec::new(),
            unreadable_config: false,
            refs: Vec::new(),
            uses_runc: false,
        };
        side.collect_docs(np_index);
        side.collect_components();
        side
    }
}
