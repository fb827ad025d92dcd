//! Standalone OpenShift: per MachineConfigPool, what the Machine Config Operator does to its
//! nodes when the change is applied (mco-disruption.md).
//!
//! Per cluster (grouped by folder) and side: pools, user and generated MachineConfigs, and the
//! node disruption policy; per pool: render base and head, diff, refuse or decide the action.

mod causes;
mod cluster;
pub mod config;
pub mod decide;
mod generated;
mod lint;
pub mod policy;
mod pool;
pub mod refusals;
pub mod registries;
pub mod render;
mod scope;
pub mod selector;

use nodecast_yaml::Node;

use self::config::Mc;
use self::pool::Pool;
use super::{Action, Forecast, Impact, Input, Rollout, Target, When};
use crate::diagnostic::{Diagnostic, Location};
use crate::inventory::Object;
use crate::rules::{
    m101_blocked_config, m102_paused_pool, m103_policy_changed_with_configs, m104_storage_override,
    m105_upgrade_with_paused_required_pool, m109_config_selects_no_pool,
};

/// One side of a cluster as the controllers see it.
struct SideModel<'a> {
    objects: Vec<&'a Object>,
    pools: Vec<Pool>,
    mcs: Vec<Mc>,
    policies: policy::Policies,
    storage_overrides: Vec<String>,
}

fn machine_configuration<'a>(objects: &[&'a Object]) -> Option<&'a Object> {
    objects.iter().copied().find(|o| {
        o.id.group == "operator.openshift.io"
            && o.id.kind == "MachineConfiguration"
            && o.id.name == "cluster"
    })
}

fn side_model<'a>(objects: Vec<&'a Object>, managed: generated::Managed) -> SideModel<'a> {
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
    let policies = policy::merged(mc_obj.map(|o| (o.root(), &o.id)));
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

fn usable(p: &Pool) -> Option<&selector::Selector> {
    match &p.selector {
        Ok(Some(s)) if !s.is_empty() => Some(s),
        _ => None,
    }
}

fn rendered(side: &SideModel<'_>, sel: &selector::Selector) -> render::Rendered {
    let chosen: Vec<&Mc> = side.mcs.iter().filter(|m| sel.matches(&m.labels)).collect();
    render::render(&chosen)
}

/// Whether two definitions of one identity live in different standalone clusters: then they are
/// two objects (every cluster has a `worker` pool), not a duplicate.
pub fn in_different_clusters(
    base: &crate::inventory::Inventory,
    head: &crate::inventory::Inventory,
    a: &Object,
    b: &Object,
) -> bool {
    if !cluster::is_modelled(a) {
        return false;
    }
    let roots = cluster::roots(base, head, &[]);
    cluster::root_of(&roots, &a.path) != cluster::root_of(&roots, &b.path)
}

/// Adds the MCO forecast of every standalone cluster in the repository.
pub fn forecast(input: &Input<'_>, out: &mut Forecast) {
    for c in cluster::group(input.base, input.head, &input.options.cluster_roots) {
        model_cluster(input, &c, out);
    }
}

fn model_cluster(input: &Input<'_>, c: &cluster::Cluster, out: &mut Forecast) {
    let scope = scope::Scope::new(input, c);
    for (id, ch) in &scope.changes {
        // A pool's OS stream selects its OS image; that model belongs to the stream rules, so a
        // stream change stays listed as not forecast rather than judged here.
        let stream_change = id.kind == "MachineConfigPool"
            && (ch.fields.iter().any(|f| f.path.starts_with("/spec/osImageStream"))
                || (ch.kind == crate::diff::ChangeKind::Added
                    && ch
                        .head
                        .is_some_and(|h| h.root().path(&["spec", "osImageStream"]).is_some())));
        if !stream_change {
            out.covered.insert(id.clone());
        }
    }
    let changed = !scope.changes.is_empty();
    let base_objs: Vec<&Object> = scope.base.values().copied().collect();
    let head_objs: Vec<&Object> = scope.head.values().copied().collect();
    let managed = generated::managed([&base_objs, &head_objs]);
    let head = side_model(head_objs, managed);
    lint::lint(&scope, &head.objects, &head.pools, &mut out.diagnostics);
    if !changed {
        return;
    }
    let base = side_model(base_objs, managed);
    unselected_configs(&scope, &base, &head, out);
    let policy_changed = base.policies != head.policies;
    let mut policy_noted = false;
    let mut paused_required = Vec::new();
    let machine_set_nodes = pool::machine_set_nodes(&head.objects, &head.pools);
    for p in &head.pools {
        let Some(head_sel) = usable(p) else { continue };
        let base_pool = base
            .pools
            .iter()
            .find(|b| b.name == p.name)
            .or_else(|| base.pools.iter().find(|b| b.name == "worker"));
        let base_sel = base_pool.and_then(usable).unwrap_or(head_sel);
        let a = rendered(&base, base_sel);
        let b = rendered(&head, head_sel);
        let delta = decide::delta(&a, &b);
        if delta.is_empty() {
            continue;
        }
        let stream = p.stream.clone().or_else(|| {
            if pool::BUILT_IN.contains(&p.name.as_str()) {
                None
            } else {
                head.pools
                    .iter()
                    .find(|w| w.name == "worker")
                    .and_then(|w| w.stream.clone())
            }
        });
        let facts = refusals::PoolFacts {
            stream,
            storage_overrides: head.storage_overrides.clone(),
        };
        let refused = refusals::refusals(&a, &b, &facts);
        let target = Target {
            cluster: c.root.clone(),
            kind: "MachineConfigPool".into(),
            namespace: None,
            name: p.name.clone(),
        };
        let (action, drain, causes) = if refused.iter().any(|r| !r.overridden) {
            let mut list = Vec::new();
            for r in refused.iter().filter(|r| !r.overridden) {
                let reason = decide::Reason {
                    summary: format!("refused: {}", r.message),
                    srcs: r
                        .src
                        .iter()
                        .map(|s| (crate::diagnostic::Side::Head, s.clone()))
                        .collect(),
                };
                let found = causes::resolve(&scope, &reason);
                let pool_loc = p
                    .object
                    .as_ref()
                    .and_then(|id| scope.head.get(id))
                    .map(|o| Location::head(&o.path, config::locate(o.root(), "/metadata/name")));
                let first_cause = found.first().map(|c| Location::head_file(&c.file));
                if let Some(loc) = causes::location(&scope, r.src.as_ref())
                    .or(pool_loc)
                    .or(first_cause)
                {
                    out.diagnostics.push(
                        Diagnostic::new(
                            &m101_blocked_config::RULE,
                            format!(
                                "pool `{}` of cluster `{}` will not update: the MCO refuses this configuration: {}",
                                p.name, c.root, r.message
                            ),
                            loc,
                        )
                        .label("refused")
                        .help("revert this change, or apply it by reprovisioning the nodes; the pool stays RenderDegraded until the configuration is fixed")
                        .object(r.src.as_ref().map(|s| s.object.to_string()).unwrap_or_default()),
                    );
                }
                list.extend(found);
            }
            (Action::Blocked, false, list)
        } else {
            for r in refused.iter().filter(|r| r.overridden) {
                if let Some(loc) = causes::location(&scope, r.src.as_ref()) {
                    out.diagnostics.push(
                        Diagnostic::new(
                            &m104_storage_override::RULE,
                            format!(
                                "pool `{}`: {}, but irreconcilableValidationOverrides accepts it for new nodes only",
                                p.name, r.message
                            ),
                            loc,
                        )
                        .help("existing nodes keep their current storage layout; reprovision them to apply it"),
                    );
                }
            }
            let mut d = decide::decide(&a, &b, &delta, &head.policies);
            if policy_changed {
                let other = decide::decide(&a, &b, &delta, &base.policies);
                if other.action < d.action || (other.action == d.action && other.drain && !d.drain)
                {
                    d = other;
                }
                if !policy_noted {
                    policy_noted = true;
                    if let Some(loc) = policy_location(&scope, &head.objects, &base.objects) {
                        out.diagnostics.push(
                            Diagnostic::new(
                                &m103_policy_changed_with_configs::RULE,
                                format!(
                                    "the node disruption policy changes together with MachineConfigs in cluster `{}`: the daemon may still read the old policy, so the stronger action of both is forecast",
                                    c.root
                                ),
                                loc,
                            )
                            .help("merge the MachineConfiguration change first, then the MachineConfig change, to rely on the new policy"),
                        );
                    }
                }
            }
            let mut list = Vec::new();
            for r in &d.reasons {
                list.extend(causes::resolve(&scope, r));
            }
            (d.action, d.drain, list)
        };
        let nodes = input
            .options
            .assume_nodes
            .get(&format!("{}/{}", c.root, p.name))
            .or_else(|| input.options.assume_nodes.get(&p.name))
            .copied()
            .or_else(|| machine_set_nodes.get(&p.name).copied());
        let (mu, waves, summary) = pool::shape(p, nodes);
        let when = match p.paused {
            Some(span) => {
                if let Some(obj) = p.object.as_ref().and_then(|id| scope.head.get(id)) {
                    out.diagnostics.push(
                        Diagnostic::new(
                            &m102_paused_pool::RULE,
                            format!(
                                "pool `{}` is paused: its {} accumulates with later changes and applies together on unpause",
                                p.name,
                                super_action(action)
                            ),
                            Location::head(&obj.path, span),
                        )
                        .help("set spec.paused: false when the nodes may update")
                        .object(obj.id.to_string()),
                    );
                }
                if p.name == "master" || p.name == "arbiter" {
                    paused_required.push(p.name.clone());
                }
                When {
                    state: "paused".into(),
                    at: None,
                    reason: format!(
                        "pool `{}` is paused (spec.paused: true): changes accumulate and apply together on unpause",
                        p.name
                    ),
                }
            }
            None => When::now(),
        };
        out.impacts.push(Impact {
            target,
            action,
            drain,
            nodes,
            causes: dedupe(causes),
            when,
            rollout: Some(Rollout {
                max_surge: None,
                max_unavailable: mu,
                waves,
                summary,
            }),
            fingerprint: None,
        });
    }
    upgrade_with_paused(&head, &base, &paused_required, out);
}

/// Changed MachineConfigs that no pool of the cluster selects (on either side): their pool is
/// not in the repository, so their rollout cannot be forecast — say so instead of staying silent.
fn unselected_configs(
    scope: &scope::Scope<'_>,
    base: &SideModel<'_>,
    head: &SideModel<'_>,
    out: &mut Forecast,
) {
    for (id, ch) in &scope.changes {
        if id.group != "machineconfiguration.openshift.io" || id.kind != "MachineConfig" {
            continue;
        }
        let selected = |side: &SideModel<'_>, obj: Option<&Object>| {
            obj.is_some_and(|o| {
                let labels = selector::labels_of(o.root());
                side.pools
                    .iter()
                    .filter_map(usable)
                    .any(|s| s.matches(&labels))
            })
        };
        if selected(head, ch.head) || selected(base, ch.base) {
            continue;
        }
        out.covered.remove(id);
        let (loc, obj) = match (ch.head, ch.base) {
            (Some(h), _) => (
                Location::head(&h.path, config::locate(h.root(), "/metadata/labels")),
                h,
            ),
            (None, Some(b)) => (
                Location::base(&b.path, config::locate(b.root(), "/metadata/labels")),
                b,
            ),
            (None, None) => continue,
        };
        let role = selector::labels_of(obj.root())
            .get("machineconfiguration.openshift.io/role")
            .cloned()
            .unwrap_or_default();
        out.diagnostics.push(
            Diagnostic::new(
                &m109_config_selects_no_pool::RULE,
                format!(
                    "{id} changed but no MachineConfigPool in this repository selects it (role `{role}`): its rollout cannot be forecast; assume its nodes reboot"
                ),
                loc,
            )
            .help("add the pool's MachineConfigPool manifest next to the cluster's other pools, or fix the role label")
            .object(id.to_string()),
        );
    }
}

fn super_action(a: Action) -> &'static str {
    match a {
        Action::Blocked => "refused change",
        Action::Reboot => "reboot",
        Action::Drain => "drain",
        Action::Restart => "service restart",
        Action::Reload => "service reload",
        _ => "change",
    }
}

fn dedupe(causes: Vec<super::Cause>) -> Vec<super::Cause> {
    let mut out: Vec<super::Cause> = Vec::new();
    for c in causes {
        if !out.iter().any(|o| {
            o.file == c.file && o.line == c.line && o.column == c.column && o.summary == c.summary
        }) {
            out.push(c);
        }
    }
    out
}

/// The changed node disruption policy field in head (or the object).
fn policy_location(
    scope: &scope::Scope<'_>,
    head: &[&Object],
    base: &[&Object],
) -> Option<Location> {
    let obj = machine_configuration(head).or_else(|| machine_configuration(base))?;
    let ch = scope.changes.get(&obj.id);
    let field = ch
        .and_then(|c| {
            c.fields
                .iter()
                .find(|f| f.path.starts_with("/spec/nodeDisruptionPolicy"))
        })
        .map(|f| f.path.clone())
        .unwrap_or_else(|| "/spec/nodeDisruptionPolicy".into());
    causes::location(
        scope,
        Some(&config::Src {
            object: obj.id.clone(),
            pointer: field,
        }),
    )
}

fn upgrade_with_paused(
    head: &SideModel<'_>,
    base: &SideModel<'_>,
    paused: &[String],
    out: &mut Forecast,
) {
    let cv = |s: &SideModel<'_>| {
        s.objects
            .iter()
            .copied()
            .find(|o| o.id.group == "config.openshift.io" && o.id.kind == "ClusterVersion")
            .and_then(|o| o.root().path(&["spec", "desiredUpdate"]).map(Node::to_json))
    };
    let mut required: Vec<String> = paused.to_vec();
    for p in &head.pools {
        if (p.name == "master" || p.name == "arbiter")
            && p.paused.is_some()
            && !required.contains(&p.name)
        {
            required.push(p.name.clone());
        }
    }
    if required.is_empty() || cv(head) == cv(base) || cv(head).is_none() {
        return;
    }
    let Some(obj) = head
        .objects
        .iter()
        .find(|o| o.id.group == "config.openshift.io" && o.id.kind == "ClusterVersion")
    else {
        return;
    };
    let span = config::locate(obj.root(), "/spec/desiredUpdate");
    out.diagnostics.push(
        Diagnostic::new(
            &m105_upgrade_with_paused_required_pool::RULE,
            format!(
                "the cluster upgrade will report an error until required pool(s) {} are unpaused",
                required.join(", ")
            ),
            Location::head(&obj.path, span),
        )
        .help("unpause the master (and arbiter) pool before changing spec.desiredUpdate")
        .object(obj.id.to_string()),
    );
}
