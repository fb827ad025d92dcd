//! Forecast stage: per NodePool / MachineConfigPool, what the change does to nodes, and when.
//!
//! The HyperShift and MCO models land in `forecast/hypershift` and `forecast/mco`; until then the
//! forecast is empty and the report says "no node impact" only when nothing changed that could
//! affect nodes — see [`Impact`] for the contract every model fills in.

pub mod boot_images;
pub mod hypershift;
pub mod mco;
pub mod reach;
pub mod streams;
mod unreadable;

use serde::Serialize;

use crate::diff::Diff;
use crate::inventory::Inventory;

/// The node action, strongest first (the contract's `action`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// The controller refuses the new configuration.
    Blocked,
    /// nodecast cannot tell: a change it could not read may reach the pool; assume a rollout
    /// (replace or reboot, drained).
    Unknown,
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
    /// The permitted maintenance windows of the pool's policy in the next days (additive to the
    /// contract), for the rollout timeline.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub windows: Vec<Window>,
}

/// One permitted stretch of a maintenance schedule, in UTC.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Window {
    /// RFC 3339 start.
    pub start: String,
    /// RFC 3339 end.
    pub end: String,
}

/// How a rollout proceeds (additive to the contract: `rollout`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rollout {
    /// Extra machines created at a time (HyperShift Replace).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_surge: Option<u32>,
    /// Nodes unavailable at a time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<u32>,
    /// Number of waves the rollout takes, when the node count is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waves: Option<u32>,
    /// Human summary, e.g. "3 nodes, 1 at a time: 3 waves".
    pub summary: String,
}

/// Rollout fingerprints of the two revisions (additive to the contract: `fingerprint`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fingerprint {
    /// sha256 over the normalised rollout inputs in base.
    pub base: Option<String>,
    /// sha256 over the normalised rollout inputs in head.
    pub head: Option<String>,
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
    /// How the rollout proceeds, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rollout: Option<Rollout>,
    /// Rollout fingerprints, when the model computes them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<Fingerprint>,
}

impl When {
    /// Starts as soon as the change syncs.
    pub fn now() -> Self {
        When {
            state: "now".into(),
            at: None,
            reason: "starts as soon as the change is applied".into(),
            windows: Vec::new(),
        }
    }
}

/// What the forecast models read: both inventories, the diff and the run's settings.
pub struct Input<'a> {
    /// Base objects.
    pub base: &'a Inventory,
    /// Head objects.
    pub head: &'a Inventory,
    /// Differences.
    pub diff: &'a Diff,
    /// Settings.
    pub options: &'a crate::check::Options,
}

/// What the models produced.
#[derive(Debug, Default)]
pub struct Forecast {
    /// Forecast entries.
    pub impacts: Vec<Impact>,
    /// Findings made while modelling (blocked configurations, version skew, ...).
    pub diagnostics: Vec<crate::diagnostic::Diagnostic>,
    /// Changed objects a model has judged (whether or not they affect any pool), so they are not
    /// reported as "not yet modelled".
    pub covered: std::collections::BTreeSet<crate::inventory::ObjectId>,
}

/// Computes the forecast: every model's entries, strongest action first, then by target.
///
/// Models plug in here (`hypershift::forecast(input, &mut out)`, `mco::forecast(input, &mut out)`).
pub fn forecast(input: &Input<'_>) -> Forecast {
    let mut out = Forecast::default();
    hypershift::forecast(input, &mut out);
    mco::forecast(input, &mut out);
    unreadable::forecast(input, &mut out);
    crate::schedule::cover(input, &mut out);
    out.impacts.sort_by(|a, b| {
        (
            a.action,
            &a.target.cluster,
            &a.target.kind,
            &a.target.namespace,
            &a.target.name,
        )
            .cmp(&(
                b.action,
                &b.target.cluster,
                &b.target.kind,
                &b.target.namespace,
                &b.target.name,
            ))
    });
    out
}

/// Changed objects that can affect nodes but that no forecast entry explains: the report lists them
/// instead of claiming "no node impact" (never say "no rollout" when nodes may reboot).
pub fn unforecast(
    head: &Inventory,
    diff: &Diff,
    forecast: &Forecast,
) -> Vec<crate::inventory::ObjectId> {
    let explained = |id: &crate::inventory::ObjectId| {
        let name = id.to_string();
        forecast.covered.contains(id)
            || forecast
                .impacts
                .iter()
                .any(|i| i.causes.iter().any(|c| c.object == name))
    };
    let targets: std::collections::HashSet<&crate::inventory::ObjectId> =
        head.references.iter().map(|r| &r.target).collect();
    let referenced_by_nodepool = |id: &crate::inventory::ObjectId| targets.contains(id);
    // ACM `object-templates-raw` is rendered on the hub: what it deploys is unknown (REAL).
    let carries_unknown =
        |c: &crate::diff::ObjectChange| crate::inventory::wrapped::carries_unknown(c, head);
    diff.changes
        .iter()
        .filter(|c| {
            let id = &c.id;
            ((crate::inventory::kinds::NODE_GROUPS.contains(&id.group.as_str())
                && reach::cannot_reach_nodes(&id.group, &id.kind).is_none())
                || (id.group.is_empty() && id.kind == "Node"))
                || (id.group.is_empty() && id.kind == "ConfigMap" && referenced_by_nodepool(id))
                || carries_unknown(c)
        })
        .map(|c| &c.id)
        .filter(|id| !explained(id))
        .cloned()
        .collect()
}
