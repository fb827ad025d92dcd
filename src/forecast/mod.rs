//! Forecast stage: per NodePool / MachineConfigPool, what the change does to nodes, and when.
//!
//! This is the product: everything before it exists to give it both revisions' objects and their
//! differences, everything after it reports it. Two models emulate the controllers that roll nodes
//! (`hypershift`: the NodePool controller; `mco`: the Machine Config Operator), `unreadable`
//! covers what could not be read, `when` says when each rollout may start, and what no model
//! judges is listed as `unforecast` — never "no node impact". See [`Impact`] for the contract
//! every model fills in. It reads only its [`Input`] and [`Settings`], never the driver's options.

pub mod boot_images;
pub mod codes;
pub mod hypershift;
pub mod mco;
pub mod reach;
pub mod streams;
mod unreadable;
pub mod when;

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
    /// The scope of the pool's identity (its overlay, wrapper or deployment unit), not reported:
    /// it tells same-named NodePools of different units apart for their change management.
    #[serde(skip)]
    pub scope: String,
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
    /// The run's settings the models read.
    pub settings: Settings<'a>,
    /// Models of unchanged clusters kept from another evaluation (of this run or an earlier one).
    pub memo: Option<&'a mco::memo::Memo>,
}

/// What the models read from the run besides the revisions: the forecast's own settings, so it
/// depends on no driver.
#[derive(Clone, Copy, Debug)]
pub struct Settings<'a> {
    /// "Now", for pauses and maintenance windows (`--now`).
    pub now: jiff::Timestamp,
    /// Node counts the repository does not hold, by pool (`--assume-nodes`).
    pub assume_nodes: &'a std::collections::BTreeMap<String, u32>,
    /// The clusters' platform when no Infrastructure object says it (`platform:`).
    pub assumed_platform: Option<&'a str>,
    /// Folders (globs) that each hold one standalone cluster (`--cluster-root`).
    pub cluster_roots: &'a [String],
    /// A disruptive change that would start outside its window is an error (`--enforce-windows`).
    pub enforce_windows: bool,
    /// Minimum permitted hours in any 32-day span of a schedule (W109).
    pub min_permitted_hours: u32,
    /// Minutes one node takes to roll, to judge whether a rollout fits its window.
    pub per_node_minutes: u32,
    /// CoreOS boot image metadata (`--stream-metadata`).
    pub stream_metadata: Option<&'a boot_images::Metadata>,
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
    /// Why a changed object reaches no node, in words, for each changed object the forecast can
    /// say that about: "no node impact" must say why, never be a bare claim.
    pub no_impact: std::collections::BTreeMap<crate::inventory::ObjectId, NoImpact>,
    /// Changed objects a model judged only through a namesake ([`judged_through_namesakes`]):
    /// listed as not modelled, never "no node impact".
    pub assumed: std::collections::BTreeSet<crate::inventory::ObjectId>,
}

/// Why one changed object reaches no node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoImpact {
    /// The reason, in words (starts lower-case, no final period).
    pub why: String,
    /// Whether the reason is about this object (a pull secret's content, an operator kind) rather
    /// than its kind being no node configuration at all; reports show specific reasons beside the
    /// change and sum up the others.
    pub specific: bool,
}

/// Computes the forecast: every model's entries, strongest action first, then by target.
///
/// Models plug in here (`hypershift::forecast(input, &mut out)`, `mco::forecast(input, &mut out)`);
/// `when` then says when each entry may start.
pub fn forecast(input: &Input<'_>) -> Forecast {
    let mut out = Forecast::default();
    hypershift::forecast(input, &mut out);
    mco::forecast(input, &mut out);
    unreadable::forecast(input, &mut out);
    when::cover(input, &mut out);
    out.assumed = judged_through_namesakes(input);
    explain_no_impact(input, &mut out);
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
    // When each entry may start: the pools' pauses and maintenance windows at `--now`.
    let mut impacts = std::mem::take(&mut out.impacts);
    when::apply(&mut impacts, input, &mut out.diagnostics);
    out.impacts = impacts;
    out
}

/// Says why each changed object that no forecast entry names reaches no node: the kinds of the
/// node-deciding groups that no node-side controller reads (`reach`), and kinds outside those
/// groups that nothing in a node's configuration refers to. Objects the models explained
/// themselves (a pull secret's content) keep their reason; objects a forecast entry names, and
/// node-affecting objects no model covers (`unforecast`), get none.
fn explain_no_impact(input: &Input<'_>, out: &mut Forecast) {
    let named: std::collections::HashSet<&str> = out
        .impacts
        .iter()
        .flat_map(|i| i.causes.iter().map(|c| c.object.as_str()))
        .collect();
    let referenced: std::collections::HashSet<&crate::inventory::ObjectId> = input
        .head
        .references
        .iter()
        .chain(input.base.references.iter())
        .map(|r| &r.target)
        .collect();
    // An identity whose every changed definition a Policy only checks reaches no node; one that
    // is also enforced elsewhere in the Policy (the "enforce it, then check it" pair) does.
    let only_checked: Vec<Option<String>> = input
        .diff
        .changes
        .iter()
        .map(|c| checked_only(input, c))
        .collect();
    let enforced_somewhere: std::collections::HashSet<&crate::inventory::ObjectId> = input
        .diff
        .changes
        .iter()
        .zip(&only_checked)
        .filter(|(_, why)| why.is_none())
        .map(|(c, _)| &c.id)
        .collect();
    let mut found = Vec::new();
    for (c, why) in input.diff.changes.iter().zip(only_checked) {
        let id = &c.id;
        if let Some(why) = why.filter(|_| !enforced_somewhere.contains(id)) {
            out.covered.insert(id.clone());
            found.push((
                id.clone(),
                NoImpact {
                    why,
                    specific: true,
                },
            ));
            continue;
        }
        if out.no_impact.contains_key(id)
            || named.contains(id.to_string().as_str())
            || out.assumed.contains(id)
            || c.kind == crate::diff::ChangeKind::Unreadable
        {
            continue;
        }
        let reason = if let Some(why) = reach::cannot_reach_nodes(&id.group, &id.kind) {
            NoImpact {
                why: why.to_string(),
                specific: true,
            }
        } else if crate::inventory::kinds::NODE_GROUPS.contains(&id.group.as_str())
            || (id.group.is_empty() && id.kind == "Node")
            || referenced.contains(id)
            || carries_unknown(c, input.head)
            || is_wrapper(&id.kind)
            || may_be_node_input(input, id)
        {
            continue;
        } else {
            NoImpact {
                why: format!(
                    "a {} is not node configuration: the MCO, the Node Tuning Operator and the NodePool controller do not read it, and no node configuration in the repository refers to it",
                    id.kind
                ),
                specific: false,
            }
        };
        found.push((id.clone(), reason));
    }
    out.no_impact.extend(found);
}

/// Why a change reaches no cluster, when the ACM Policy that carries the object only checks it
/// in both revisions ([`crate::inventory::wrapped::checked_only`]).
fn checked_only(input: &Input<'_>, c: &crate::diff::ObjectChange) -> Option<String> {
    let only = |inv: &Inventory, i: Option<usize>| i.is_none_or(|i| inv.is_checked_only(i));
    if c.base.is_none() && c.head.is_none()
        || !only(input.base, c.base)
        || !only(input.head, c.head)
    {
        return None;
    }
    let (inv, obj) = c
        .head
        .and_then(|i| Some((input.head, input.head.objects.get(i)?)))
        .or_else(|| {
            c.base
                .and_then(|i| Some((input.base, input.base.objects.get(i)?)))
        })?;
    let wrapper = &obj.origin.wrapper.as_ref()?.id;
    Some(if crate::inventory::wrapped::policy_disabled(inv, obj) {
        format!("{wrapper} is disabled: ACM does not propagate it, so it never creates, changes or deletes the object")
    } else {
        format!("only checked by {wrapper} (remediationAction: inform): ACM reports compliance and never creates, changes or deletes it")
    })
}

/// Whether a changed Secret or ConfigMap may feed node configuration in a way the reference index
/// does not record: the standalone cluster's `openshift-config` and MCO namespaces (pull secret,
/// CA bundles), or a name some HostedCluster of its namespace mentions (pull secret, SSH key,
/// trust bundle, proxy CA, …). Such objects get no generic "not node configuration" reason.
fn may_be_node_input(input: &Input<'_>, id: &crate::inventory::ObjectId) -> bool {
    if !id.group.is_empty() || !matches!(id.kind.as_str(), "Secret" | "ConfigMap") {
        return false;
    }
    let ns = id.namespace.as_deref().unwrap_or("");
    if ns.is_empty() || ns.starts_with("openshift-") {
        return true;
    }
    [input.base, input.head].iter().any(|inv| {
        inv.of_kind("hypershift.openshift.io", "HostedCluster")
            .filter(|hc| hc.id.namespace.as_deref() == Some(ns))
            .any(|hc| mentions(hc.root(), &id.name))
    })
}

/// Whether any string scalar under `node` equals `name`.
fn mentions(node: nodecast_yaml::Node<'_>, name: &str) -> bool {
    if node.as_str() == Some(name) {
        return true;
    }
    match (node.as_map(), node.as_seq()) {
        (Some(entries), _) => entries.iter().any(|e| mentions(e.value, name)),
        (_, Some(items)) => items.iter().any(|i| mentions(i, name)),
        _ => false,
    }
}

/// Kinds that carry other objects (ACM, Hive, Templates, Argo CD): what they carry is judged on its
/// own, so the carrier itself gets no reason of its own.
fn is_wrapper(kind: &str) -> bool {
    matches!(
        kind,
        "Policy"
            | "ConfigurationPolicy"
            | "PolicyGenerator"
            | "SyncSet"
            | "SelectorSyncSet"
            | "Template"
            | "Application"
            | "ApplicationSet"
            | "List"
    )
}

/// Changed objects a NodePool reaches only through a namesake: a NodePool in a shared folder names
/// HostedCluster `prod` and ConfigMaps that two management clusters' folders each define; its
/// reference resolves to one of them (the first), and the model judges it against that one. A
/// change to a namesake (the other cluster's HostedCluster or ConfigMap, which the NodePool reads
/// wherever it runs against that cluster) is therefore not modelled: its rollout is assumed.
fn judged_through_namesakes(
    input: &Input<'_>,
) -> std::collections::BTreeSet<crate::inventory::ObjectId> {
    use crate::inventory::ObjectId;
    // An identity without its scope.
    fn name_of(id: &ObjectId) -> (&str, &str, Option<&str>, &str) {
        (&id.group, &id.kind, id.namespace.as_deref(), &id.name)
    }
    // → the definitions NodePools of another unit resolved to.
    let mut resolved: std::collections::HashMap<_, Vec<&ObjectId>> = Default::default();
    for inv in [input.base, input.head] {
        for r in &inv.references {
            if r.resolved.is_some() && inv.objects[r.from].id.scope != r.target.scope {
                resolved
                    .entry(name_of(&r.target))
                    .or_default()
                    .push(&r.target);
            }
        }
    }
    if resolved.is_empty() {
        return Default::default();
    }
    input
        .diff
        .changes
        .iter()
        .map(|c| &c.id)
        .filter(|id| {
            resolved
                .get(&name_of(id))
                .is_some_and(|targets| targets.iter().any(|t| *t != *id))
        })
        .cloned()
        .collect()
}

/// Changed objects that can affect nodes but that no forecast entry explains: the report lists them
/// instead of claiming "no node impact" (never say "no rollout" when nodes may reboot).
pub fn unforecast(
    base: &Inventory,
    head: &Inventory,
    diff: &Diff,
    forecast: &Forecast,
) -> Vec<crate::inventory::ObjectId> {
    // A cause names its object by display name (`Kind/ns/name`), which the same object of two
    // deployment units, overlays or policies share: a scoped change is explained only by a
    // cause written in one of its own files (the stage copy's change is not explained by the
    // prod copy's reboot).
    let explained = |c: &crate::diff::ObjectChange| {
        let name = c.id.to_string();
        let own_file = |file: &str| {
            c.id.scope.is_empty()
                || c.fields.iter().any(|f| {
                    [&f.base, &f.head]
                        .into_iter()
                        .flatten()
                        .any(|l| l.path == file)
                })
                || c.head
                    .and_then(|i| head.objects.get(i))
                    .is_some_and(|o| *o.path == *file)
                || c.base
                    .and_then(|i| base.objects.get(i))
                    .is_some_and(|o| *o.path == *file)
        };
        forecast.covered.contains(&c.id)
            || forecast.impacts.iter().any(|i| {
                i.causes
                    .iter()
                    .any(|cause| cause.object == name && own_file(&cause.file))
            })
    };
    let targets: std::collections::HashSet<&crate::inventory::ObjectId> =
        head.references.iter().map(|r| &r.target).collect();
    let referenced_by_nodepool = |id: &crate::inventory::ObjectId| targets.contains(id);
    // ACM `object-templates-raw` is rendered on the hub: what it deploys is unknown.
    let carries_unknown = |c: &crate::diff::ObjectChange| carries_unknown(c, head);
    let mut ids = diff
        .changes
        .iter()
        .filter(|c| {
            let id = &c.id;
            reaches_nodes(id)
                || (id.group.is_empty() && id.kind == "ConfigMap" && referenced_by_nodepool(id))
                || forecast.assumed.contains(id)
                || carries_unknown(c)
                || generates_node_objects(c, head)
        })
        // A duplicate definition's change is never explained by the first definition's model.
        .filter(|c| c.shadowed || forecast.assumed.contains(&c.id) || !explained(c))
        .map(|c| c.id.clone())
        .collect::<Vec<_>>();
    // Changes are sorted by identity: an identity changed in several definitions is listed once.
    ids.dedup();
    ids
}

/// Whether objects of an identity's kind can change nodes by themselves.
fn reaches_nodes(id: &crate::inventory::ObjectId) -> bool {
    (crate::inventory::kinds::NODE_GROUPS.contains(&id.group.as_str())
        && reach::cannot_reach_nodes(&id.group, &id.kind).is_none())
        || (id.group.is_empty() && id.kind == "Node")
}

/// Whether a change is to an ACM PolicyGenerator that lists manifests able to affect nodes: its
/// remediation, compliance type, patches and placement decide what the generated Policies do to
/// them, which no model reads yet, so the report assumes a rollout.
fn generates_node_objects(change: &crate::diff::ObjectChange, head: &Inventory) -> bool {
    use crate::inventory::kinds::is_policy_generator;
    if !is_policy_generator(&change.id.group, &change.id.kind) {
        return false;
    }
    let Some(generator) = change.head.and_then(|i| head.objects.get(i)) else {
        // Removed: the Policies it generated stay on the hub until someone deletes them.
        return false;
    };
    let listed = crate::kustomize::kustomization::policy_generator_manifests(
        generator.root(),
        &generator.path,
    );
    head.objects.iter().any(|o| {
        reaches_nodes(&o.id)
            && listed
                .iter()
                .any(|l| crate::kustomize::kustomization::lists(l, &o.path))
    })
}

/// Whether a change touches objects nodecast cannot see: an ACM `object-templates-raw` that
/// was added or changed (the hub renders it), so the report assumes a rollout.
fn carries_unknown(change: &crate::diff::ObjectChange, head: &crate::inventory::Inventory) -> bool {
    let in_head = change
        .head
        .and_then(|i| head.objects.get(i))
        .is_some_and(|o| crate::inventory::wrapped::raw_templates(o.root()).is_some());
    let in_fields = change
        .fields
        .iter()
        .any(|f| f.path.contains("/object-templates-raw"));
    match change.kind {
        crate::diff::ChangeKind::Added => in_head,
        crate::diff::ChangeKind::Changed => in_fields,
        crate::diff::ChangeKind::Removed | crate::diff::ChangeKind::Unreadable => false,
    }
}
