//! One side (base or head) of a cluster as the controllers see it: pools, MachineConfigs (user
//! and generated) and the node disruption policy in effect.

use nodecast_yaml::Node;

use super::config::{self, Mc};
use super::generated;
use super::merge;
use super::policy;
use super::pool::{self, Pool};
use super::selector::Selector;
use crate::inventory::Object;

/// One side of a cluster.
pub struct SideModel<'a> {
    /// The cluster's objects on this side.
    pub objects: Vec<&'a Object>,
    /// Pools (with the built-in ones).
    pub pools: Vec<Pool>,
    /// User and generated MachineConfigs.
    pub mcs: Vec<Mc>,
    /// Node disruption policies in effect.
    pub policies: policy::Policies,
    /// `irreconcilableValidationOverrides.storage`.
    pub storage_overrides: Vec<String>,
}

/// `MachineConfiguration/cluster`, the only name the MCO reads.
pub fn machine_configuration<'a>(objects: &[&'a Object]) -> Option<&'a Object> {
    objects.iter().copied().find(|o| {
        o.id.group == "operator.openshift.io"
            && o.id.kind == "MachineConfiguration"
            && o.id.name == "cluster"
    })
}

/// Reads one side.
pub fn side_model<'a>(objects: Vec<&'a Object>, managed: generated::Managed) -> SideModel<'a> {
    let pools = pool::pools(&objects);
    let mut mcs: Vec<Mc> = objects
        .iter()
        .filter(|o| {
            o.id.group == "machineconfiguration.openshift.io" && o.id.kind == "MachineConfig"
        })
        .map(|o| config::read_mc(o))
        .collect();
    mcs.extend(generated::generate(&objects, &pools, managed));
    let mc_obj = machine_configuration(&objects);
    let mut policies = policy::merged(mc_obj.map(|o| (o.root(), &o.id)));
    policies.recent_release = objects
        .iter()
        .find(|o| o.id.group == "config.openshift.io" && o.id.kind == "ClusterVersion")
        .and_then(|o| o.root().path(&["spec", "desiredUpdate", "version"]))
        .and_then(Node::key_text)
        .is_some_and(policy::is_recent);
    let storage_overrides = mc_obj
        .and_then(|o| {
            o.root()
                .path(&["spec", "irreconcilableValidationOverrides", "storage"])
        })
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter_map(|n| n.as_str().map(str::to_string))
        .collect();
    SideModel {
        objects,
        pools,
        mcs,
        policies,
        storage_overrides,
    }
}

/// The rendered configuration of the MachineConfigs a selector picks on this side.
pub fn rendered(side: &SideModel<'_>, sel: &Selector) -> merge::Rendered {
    let chosen: Vec<&Mc> = side.mcs.iter().filter(|m| sel.matches(&m.labels)).collect();
    merge::merge(&chosen)
}

/// The pool's effective OS stream: its own, or (custom pools) the worker pool's.
pub fn effective_stream(side: &SideModel<'_>, p: &Pool) -> Option<(String, config::Src)> {
    p.stream.clone().or_else(|| {
        if pool::BUILT_IN.contains(&p.name.as_str()) {
            None
        } else {
            side.pools
                .iter()
                .find(|w| w.name == "worker")
                .and_then(|w| w.stream.clone())
        }
    })
}

/// True on a single-node cluster (`Infrastructure/cluster` control plane topology
/// `SingleReplica`): the daemon skips the drain, the reboot still happens.
pub fn single_node(side: &SideModel<'_>) -> bool {
    side.objects
        .iter()
        .find(|o| {
            o.id.group == "config.openshift.io"
                && o.id.kind == "Infrastructure"
                && o.id.name == "cluster"
        })
        .and_then(|o| o.root().path(&["status", "controlPlaneTopology"]))
        .and_then(Node::as_str)
        == Some("SingleReplica")
}
