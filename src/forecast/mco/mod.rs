//! Standalone OpenShift: per MachineConfigPool, what the Machine Config Operator does to its
//! nodes when the change is applied: the render controller's merge, the daemon's config diff and
//! its node disruption policies (`pkg/controller/render`, `pkg/daemon` of the machine-config-operator).
//!
//! Per cluster (grouped by overlay, Policy or SyncSet, else by folder) and side: pools, user and generated MachineConfigs, and the
//! node disruption policy; per pool: render base and head, diff, refuse or decide the action.

mod causes;
use crate::inventory::clusters as cluster;
pub mod codes;
pub mod config;
pub mod decide;
mod findings;
mod generated;
pub mod ignition;
mod lint;
pub mod memo;
pub mod merge;
pub mod policy;
mod pool;
pub mod refusals;
pub mod registries;
mod scope;
pub mod selector;
mod side;
mod streams;
mod tuned;

use std::collections::BTreeMap;

use self::pool::usable;
use self::pool::Pool;
use self::scope::Scope;
use self::side::{rendered, side_model, SideModel};
use super::{Action, Cause, Forecast, Impact, Input, Rollout, Target, When};
use crate::diagnostic::Side;
use crate::inventory::{Object, ObjectId};

/// Which object field contributed an item (for causes with exact positions).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Src {
    /// The object.
    pub object: crate::inventory::ObjectId,
    /// JSON pointer inside it.
    pub pointer: String,
}

/// A problem with one MachineConfig that makes the MCO refuse to render it.
#[derive(Clone, Debug, PartialEq)]
pub struct Invalid {
    /// What is wrong.
    pub message: String,
    /// Where.
    pub src: Src,
}

/// How the forecast names the cluster of an object carried by a Policy or SyncSet, or rendered
/// from an overlay (see [`Origin::group`](crate::inventory::Origin::group)).
pub fn cluster_label(group: &str) -> String {
    cluster::label(group)
}

/// Every standalone cluster the model sees: its key (root folder, `.` for the repository, or
/// the overlay / wrapper group), how reports name it, and its pool names on either side (the
/// built-in `master` and `worker` included).
pub fn clusters_and_pools(input: &Input<'_>) -> Vec<(String, String, Vec<String>)> {
    cluster::group(input.base, input.head, input.settings.cluster_roots)
        .into_iter()
        .map(|c| {
            let mut objects: Vec<&Object> =
                c.base.iter().map(|&i| &*input.base.objects[i]).collect();
            objects.extend(c.head.iter().map(|&i| &*input.head.objects[i]));
            let mut names: Vec<String> =
                pool::pools(&objects).into_iter().map(|p| p.name).collect();
            names.sort();
            names.dedup();
            let label = cluster::label(&c.root);
            (c.root, label, names)
        })
        .collect()
}

/// The standalone cluster key a repository path belongs to (see [`cluster_key`]).
pub fn cluster_of_path(input: &Input<'_>, path: &str) -> String {
    let roots = cluster::roots(input.base, input.head, input.settings.cluster_roots);
    cluster::path_key(&roots, path)
}

/// Adds the MCO forecast of every standalone cluster in the repository.
pub fn forecast(input: &Input<'_>, out: &mut Forecast) {
    use rayon::prelude::*;
    // Clusters are modelled independently, in parallel; their results are applied in cluster
    // order exactly as a sequential run would (a cluster's removals from `covered` first).
    let clusters = cluster::group(input.base, input.head, input.settings.cluster_roots);
    let modelled: Vec<(Forecast, Vec<ObjectId>)> = clusters
        .par_iter()
        .map(|c| {
            let mut local = Forecast::default();
            let mut removed = Vec::new();
            model_cluster(input, c, &mut local, &mut removed);
            (local, removed)
        })
        .collect();
    for (local, removed) in modelled {
        for id in &removed {
            out.covered.remove(id);
        }
        out.covered.extend(local.covered);
        out.impacts.extend(local.impacts);
        out.diagnostics.extend(local.diagnostics);
    }
}

/// What one cluster's model needs across its pools.
struct Ctx<'a, 'b> {
    input: &'b Input<'a>,
    scope: &'b Scope<'a>,
    cluster: &'b str,
    base: &'b SideModel<'a>,
    head: &'b SideModel<'a>,
    policy_changed: bool,
    machine_set_nodes: BTreeMap<String, u32>,
}

fn model_cluster(
    input: &Input<'_>,
    c: &cluster::Cluster,
    out: &mut Forecast,
    removed: &mut Vec<ObjectId>,
) {
    let scope = Scope::new(input, c);
    let label = cluster::label(&c.root);
    for id in scope.changes.keys() {
        // Infrastructure is only read (topology) and MachineSets only for node counts: their
        // changes are not judged here. A Tuned is judged only where it reaches a pool's kernel
        // arguments (a forecast cause names it); its other changes are not modelled.
        if !matches!(id.kind.as_str(), "Infrastructure" | "MachineSet" | "Tuned") {
            out.covered.insert(id.clone());
        }
    }
    let base_objs: Vec<&Object> = scope.base.values().copied().collect();
    let head_objs: Vec<&Object> = scope.head.values().copied().collect();
    let managed = generated::managed([&base_objs, &head_objs]);
    // Nothing changed in the cluster: its model reads only these (see `memo`).
    let unchanged = scope.changes.is_empty().then(|| memo::Key {
        label: &label,
        managed,
        platform: input.settings.assumed_platform,
        objects: &head_objs,
    });
    let kept = unchanged.as_ref().zip(input.memo);
    if let Some(diagnostics) = kept.and_then(|(key, memo)| memo.get(key)) {
        out.diagnostics.extend(diagnostics);
        return;
    }
    let head = side_model(head_objs.clone(), managed);
    for id in lint::lint(&scope, &head.objects, &head.pools, &mut out.diagnostics) {
        if scope.changes.contains_key(&id) {
            out.covered.remove(&id);
            removed.push(id);
        }
    }
    streams::lint(
        &scope,
        &head,
        input.settings.assumed_platform,
        &mut out.diagnostics,
    );
    if let Some((key, memo)) = kept {
        memo.put(key, &out.diagnostics);
    }
    if scope.changes.is_empty() {
        return;
    }
    let base = side_model(base_objs, managed);
    for id in findings::unselected_configs(&scope, &base, &head, &mut out.diagnostics) {
        out.covered.remove(&id);
        removed.push(id);
    }
    let ctx = Ctx {
        input,
        scope: &scope,
        cluster: &label,
        policy_changed: base.policies.files != head.policies.files
            || base.policies.units != head.policies.units
            || base.policies.sshkey != head.policies.sshkey,
        machine_set_nodes: pool::machine_set_nodes(&head.objects, &head.pools),
        base: &base,
        head: &head,
    };
    let mut policy_used = false;
    for p in &head.pools {
        if let Some(impact) = pool_impact(&ctx, p, &mut policy_used, &mut out.diagnostics) {
            out.impacts.push(impact);
        }
    }
    if policy_used && ctx.policy_changed {
        out.diagnostics
            .extend(findings::policy_changed(&scope, &label, &head, &base));
    }
    out.diagnostics
        .extend(findings::upgrade_with_paused(&head, &base));
}

/// The forecast entry of one pool, when its rendered configuration changes.
fn pool_impact(
    ctx: &Ctx<'_, '_>,
    p: &Pool,
    policy_used: &mut bool,
    diags: &mut Vec<crate::diagnostic::Diagnostic>,
) -> Option<Impact> {
    let head_sel = usable(p)?;
    // A pool new in head gets its nodes from the worker pool.
    let base_pool = ctx
        .base
        .pools
        .iter()
        .find(|b| b.name == p.name)
        .or_else(|| ctx.base.pools.iter().find(|b| b.name == "worker"));
    let base_sel = base_pool.and_then(usable).unwrap_or(head_sel);
    let a = rendered(ctx.base, base_sel);
    let b = rendered(ctx.head, head_sel);
    let delta = decide::delta(&a, &b);
    let stream_change = streams::change(ctx.base, ctx.head, p);
    if delta.is_empty() && stream_change.is_none() {
        return None;
    }
    let facts = refusals::PoolFacts {
        stream: side::effective_stream(ctx.head, p),
        os_stream: Some(streams::effective(ctx.head, p).0),
        storage_overrides: ctx.head.storage_overrides.clone(),
    };
    let refused = refusals::refusals(&a, &b, &facts);
    let (action, drain, causes) = if refused.iter().any(|r| !r.overridden) {
        let mut list = Vec::new();
        for r in refused.iter().filter(|r| !r.overridden) {
            let reason = decide::Reason {
                summary: format!("refused: {}", r.message),
                srcs: r.src.iter().map(|s| (Side::Head, s.clone())).collect(),
            };
            let found = causes::resolve(ctx.scope, &reason);
            diags.extend(findings::blocked(ctx.scope, ctx.cluster, p, r, &found));
            list.extend(found);
        }
        (Action::Blocked, false, list)
    } else {
        for r in refused.iter().filter(|r| r.overridden) {
            diags.extend(findings::overridden(ctx.scope, p, r));
        }
        let mut d = decide::decide(&a, &b, &delta, &ctx.head.policies);
        if ctx.policy_changed {
            *policy_used = true;
            let mut old = decide::decide(&a, &b, &delta, &ctx.base.policies);
            if old.action < d.action || (old.action == d.action && old.drain && !d.drain) {
                for r in &mut old.reasons {
                    r.summary.push_str(" [base policy]");
                }
                d = old;
            }
        }
        if let Some(r) = stream_change {
            d.action = d.action.min(Action::Reboot);
            d.drain = true;
            d.reasons.push(r);
        }
        let mut list = Vec::new();
        for r in &d.reasons {
            list.extend(causes::resolve(ctx.scope, r));
        }
        (d.action, d.drain, list)
    };
    let opts = &ctx.input.settings.assume_nodes;
    let nodes = opts
        .get(&format!("{}/{}", ctx.cluster, p.name))
        .or_else(|| opts.get(&p.name))
        .copied()
        .or_else(|| ctx.machine_set_nodes.get(&p.name).copied());
    let (max_unavailable, waves, mut summary) = pool::shape(p, nodes);
    let drain = if drain && action == Action::Reboot && side::single_node(ctx.head) {
        summary.push_str(" (single-node: no drain)");
        false
    } else {
        drain
    };
    let when = match p.paused {
        Some(_) => {
            diags.extend(findings::paused(ctx.scope, p, action));
            When {
                state: "paused".into(),
                at: None,
                reason: format!(
                    "pool `{}` is paused (spec.paused: true): changes accumulate and apply together on unpause",
                    p.name
                ),
                windows: Vec::new(),
            }
        }
        None => When::now(),
    };
    Some(Impact {
        target: Target {
            cluster: ctx.cluster.to_string(),
            kind: "MachineConfigPool".into(),
            namespace: None,
            name: p.name.clone(),
            scope: String::new(),
        },
        action,
        drain,
        nodes,
        causes: dedupe(causes),
        when,
        rollout: Some(Rollout {
            max_surge: None,
            max_unavailable,
            waves,
            summary,
        }),
        fingerprint: None,
    })
}

fn dedupe(causes: Vec<Cause>) -> Vec<Cause> {
    let mut out: Vec<Cause> = Vec::new();
    for c in causes {
        if !out.iter().any(|o| {
            o.file == c.file && o.line == c.line && o.column == c.column && o.summary == c.summary
        }) {
            out.push(c);
        }
    }
    out
}
