//! Findings about the head's pools and generators that the model notices while reading them.

use super::generated;
use super::pool::{self, Pool};
use super::scope::Scope;
use super::selector;
use crate::diagnostic::{Diagnostic, Severity};
use crate::forecast::mco::codes;
use crate::inventory::{Object, ObjectId};

/// Checks pool selectors, custom-pool admission and generator selectors of one cluster's head.
/// Returns the generators whose pools cannot be known (their rollout is not forecast).
pub fn lint(
    scope: &Scope<'_>,
    objects: &[&Object],
    pools: &[Pool],
    out: &mut Vec<Diagnostic>,
) -> Vec<ObjectId> {
    let mut unknown = Vec::new();
    for p in pools {
        let Some(obj) = p.object.as_ref().and_then(|id| scope.head.get(id)) else {
            continue;
        };
        let at = |span| obj.head_location(span);
        match &p.selector {
            Err(e) => out.push(
                Diagnostic::new(
                    &codes::M106,
                    format!("pool `{}` selects no MachineConfigs: {}", p.name, e.message),
                    at(e.span),
                )
                .help("use matchLabels, or matchExpressions with operator In, NotIn, Exists or DoesNotExist")
                .object(obj.id.to_string()),
            ),
            Ok(sel) => {
                let span = p.selector_span.unwrap_or(obj.root().span());
                if let Some(problem) = pool::admission_problem(p) {
                    out.push(
                        Diagnostic::new(&codes::M107, problem, at(span))
                            .help("select `machineconfiguration.openshift.io/role In [worker, <pool>]` so the pool inherits worker configs")
                            .object(obj.id.to_string()),
                    );
                } else if sel.as_ref().is_some_and(selector::Selector::is_empty) {
                    out.push(
                        Diagnostic::new(
                            &codes::M107,
                            format!(
                                "pool `{}` has an empty machineConfigSelector: the controller does not render it and its nodes get no configuration updates",
                                p.name
                            ),
                            at(span),
                        )
                        .severity(Severity::Warning)
                        .help(format!("select `machineconfiguration.openshift.io/role: {}`", p.name))
                        .object(obj.id.to_string()),
                    );
                }
            }
        }
    }
    for o in objects {
        let is_gen = o.id.group == "machineconfiguration.openshift.io"
            && (o.id.kind == "KubeletConfig" || o.id.kind == "ContainerRuntimeConfig");
        if !is_gen {
            continue;
        }
        if let Some(Err(e)) = o
            .root()
            .path(&["spec", "machineConfigPoolSelector"])
            .map(selector::parse)
        {
            out.push(
                Diagnostic::new(
                    &codes::M106,
                    format!("{} applies to no pool: {}", o.id, e.message),
                    o.head_location(e.span),
                )
                .help("use matchLabels, or matchExpressions with operator In, NotIn, Exists or DoesNotExist")
                .object(o.id.to_string()),
            );
        }
    }
    for (id, span) in generated::unmatched(objects, pools) {
        let Some(obj) = scope.head.get(&id) else {
            continue;
        };
        let empty = obj
            .root()
            .path(&["spec", "machineConfigPoolSelector"])
            .is_none_or(|n| n.is_null() || n.as_map().is_some_and(|m| m.is_empty()));
        if obj
            .root()
            .path(&["spec", "machineConfigPoolSelector"])
            .and_then(|n| selector::parse(n).err())
            .is_some()
        {
            continue;
        }
        // Without pool manifests in the cluster, its pools are the built-in ones with whatever
        // labels were put on them on the cluster (`oc label mcp worker custom-kubelet=…` is the
        // documented way): a selector of other labels may well match, so nothing is known.
        let pools_unknown = !empty && pools.iter().all(|p| p.object.is_none());
        let at = obj.head_location(span);
        if pools_unknown {
            out.push(
                Diagnostic::new(
                    &codes::M108,
                    format!(
                        "{id} selects no built-in pool by its standard labels, and this cluster's MachineConfigPools are not in the repository: a pool labelled on the cluster may match, so its rollout cannot be forecast; assume its nodes reboot"
                    ),
                    at,
                )
                .severity(Severity::Info)
                .help("add the selected MachineConfigPool's manifest (with its labels) to the cluster's folder, or select a built-in pool, e.g. `pools.operator.machineconfiguration.openshift.io/worker: \"\"`")
                .object(id.to_string()),
            );
            unknown.push(id);
            continue;
        }
        out.push(
            Diagnostic::new(
                &codes::M108,
                format!(
                    "{id} selects no MachineConfigPool of this cluster, so it changes no node{}",
                    if empty { " (an empty machineConfigPoolSelector matches nothing)" } else { "" }
                ),
                at,
            )
            .help("select a pool by its labels, e.g. `pools.operator.machineconfiguration.openshift.io/worker: \"\"`")
            .object(id.to_string()),
        );
    }
    unknown
}
