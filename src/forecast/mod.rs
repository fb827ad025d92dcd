//! Forecast stage: per NodePool / MachineConfigPool, what the change does to nodes, and when.
//!
//! The HyperShift and MCO models land in `forecast/hypershift` and `forecast/mco`; until then the
//! forecast is empty and the report says "no node impact" only when nothing changed that could
//! affect nodes — see [`Impact`] for the contract every model fills in.

use serde::Serialize;

use crate::diff::Diff;
use crate::inventory::Inventory;

/// The node action, strongest first (the contract's `action`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// The controller refuses the new configuration.
    Blocked,
    /// New machines replace the old ones.
    Replace,
    /// Nodes are updated in place.
    InPlace,
    /// Drain and reboot.
    Reboot,
    /// Drain, no reboot.
    Drain,
    /// A service restarts, no drain.
    Restart,
    /// A service reloads, no drain.
    Reload,
    /// Nothing happens to nodes.
    None,
}

/// Which pool a forecast entry is about.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Target {
    /// The cluster the pool belongs to.
    pub cluster: String,
    /// `NodePool` or `MachineConfigPool`.
    pub kind: String,
    /// Namespace (NodePools), or null.
    pub namespace: Option<String>,
    /// Pool name.
    pub name: String,
}

/// One reason for the action, with its exact place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cause {
    /// The changed object, `Kind/namespace/name`.
    pub object: String,
    /// JSON pointer of the changed field.
    pub field: String,
    /// Repository-relative file.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// What changed, in words.
    pub summary: String,
}

/// When the action may start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct When {
    /// `now`, `paused`, `window` or `never`.
    pub state: String,
    /// RFC 3339 time, when known.
    pub at: Option<String>,
    /// Why.
    pub reason: String,
}

/// A forecast entry (the JSON contract's `forecast[]`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Impact {
    /// The pool.
    pub target: Target,
    /// What happens to its nodes.
    pub action: Action,
    /// Whether nodes are drained.
    pub drain: bool,
    /// How many nodes, when known.
    pub nodes: Option<u32>,
    /// Why.
    pub causes: Vec<Cause>,
    /// When.
    pub when: When,
}

/// Computes the forecast. No rollout model exists yet, so this returns no entries.
pub fn forecast(_base: &Inventory, _head: &Inventory, _diff: &Diff) -> Vec<Impact> {
    Vec::new()
}

/// API groups whose objects decide what nodes run.
const NODE_GROUPS: [&str; 4] = [
    "hypershift.openshift.io",
    "machineconfiguration.openshift.io",
    "config.openshift.io",
    "operator.openshift.io",
];

/// Changed objects that can affect nodes but that no forecast entry explains: the report lists them
/// instead of claiming "no node impact" (never say "no rollout" when nodes may reboot).
pub fn unforecast(
    head: &Inventory,
    diff: &Diff,
    forecast: &[Impact],
) -> Vec<crate::inventory::ObjectId> {
    let explained = |id: &crate::inventory::ObjectId| {
        let name = id.to_string();
        forecast
            .iter()
            .any(|i| i.causes.iter().any(|c| c.object == name))
    };
    let referenced_by_nodepool =
        |id: &crate::inventory::ObjectId| head.references.iter().any(|r| &r.target == id);
    diff.changes
        .iter()
        .map(|c| &c.id)
        .filter(|id| {
            NODE_GROUPS.contains(&id.group.as_str())
                || (id.group.is_empty() && id.kind == "ConfigMap" && referenced_by_nodepool(id))
        })
        .filter(|id| !explained(id))
        .cloned()
        .collect()
}
