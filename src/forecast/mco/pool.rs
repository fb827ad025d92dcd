//! MachineConfigPools of a cluster side, including the built-in pools that always exist.

use nodecast_yaml::{Node, Span};

use super::config::Src;
use super::selector::{self, Labels, Selector, SelectorError};
use crate::inventory::{Object, ObjectId};

/// `maxUnavailable` as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MaxUnavailable {
    /// A node count.
    Count(u32),
    /// A percentage of the pool.
    Percent(u32),
}

/// A pool as the controllers see it.
#[derive(Clone, Debug)]
pub struct Pool {
    /// Name.
    pub name: String,
    /// Labels (KubeletConfig / ContainerRuntimeConfig select on them).
    pub labels: Labels,
    /// `spec.machineConfigSelector`: absent, invalid, or parsed.
    pub selector: Result<Option<Selector>, SelectorError>,
    /// `spec.nodeSelector` (which nodes the pool owns).
    pub node_selector: Option<Selector>,
    /// `spec.paused`.
    pub paused: Option<Span>,
    /// `spec.maxUnavailable`.
    pub max_unavailable: Option<MaxUnavailable>,
    /// `spec.osImageStream.name`.
    pub stream: Option<(String, Src)>,
    /// The object, when the repository defines the pool.
    pub object: Option<ObjectId>,
    /// Span of the selector (or of the object's name) for findings.
    pub selector_span: Option<Span>,
}

/// Built-in pools the MCO always has.
pub const BUILT_IN: [&str; 3] = ["master", "worker", "arbiter"];

const ROLE: &str = "machineconfiguration.openshift.io/role";

/// The selector a pool has when its manifest names none: its role (built-in pools), or
/// `role In [worker, <pool>]` (custom pools, the form the admission policy expects).
pub fn standard_selector(name: &str) -> Selector {
    if BUILT_IN.contains(&name) {
        Selector {
            labels: [(ROLE.to_string(), name.to_string())].into(),
            expressions: Vec::new(),
        }
    } else {
        Selector {
            labels: Default::default(),
            expressions: vec![selector::Requirement {
                key: ROLE.to_string(),
                operator: selector::Operator::In,
                values: vec!["worker".to_string(), name.to_string()],
            }],
        }
    }
}

/// The standard pool a built-in name stands for, when the repository does not define it.
pub fn implicit(name: &str) -> Pool {
    Pool {
        name: name.into(),
        labels: [
            (
                format!("pools.operator.machineconfiguration.openshift.io/{name}"),
                String::new(),
            ),
            (
                "machineconfiguration.openshift.io/mco-built-in".into(),
                String::new(),
            ),
        ]
        .into(),
        selector: Ok(Some(standard_selector(name))),
        node_selector: Some(Selector {
            labels: [(format!("node-role.kubernetes.io/{name}"), String::new())].into(),
            expressions: Vec::new(),
        }),
        paused: None,
        max_unavailable: None,
        stream: None,
        object: None,
        selector_span: None,
    }
}

/// Reads a MachineConfigPool object.
pub fn read(obj: &Object) -> Pool {
    let root = obj.root();
    let spec = root.get("spec");
    let sel_node = spec.and_then(|s| s.get("machineConfigSelector"));
    let name = obj.id.name.as_str();
    // Pool manifests in GitOps repositories are often partial (applied over the live object):
    // a missing selector is the live one, assumed to be the standard role selector.
    let selector = match sel_node {
        Some(n) if !n.is_null() => selector::parse(n).map(Some),
        _ => Ok(Some(standard_selector(name))),
    };
    let mut labels = selector::labels_of(root);
    if BUILT_IN.contains(&name) {
        for (k, v) in implicit(name).labels {
            labels.entry(k).or_insert(v);
        }
    }
    let paused = spec
        .and_then(|s| s.entry("paused"))
        .filter(|e| e.value.to_json().as_bool() == Some(true))
        .map(|e| e.key.span());
    let max_unavailable =
        spec.and_then(|s| s.get("maxUnavailable"))
            .and_then(|n| match n.to_json() {
                serde_json::Value::Number(x) => x
                    .as_u64()
                    .map(|v| MaxUnavailable::Count(u32::try_from(v).unwrap_or(u32::MAX))),
                serde_json::Value::String(s) => s
                    .strip_suffix('%')
                    .and_then(|p| p.trim().parse().ok())
                    .map(MaxUnavailable::Percent),
                _ => None,
            });
    let stream = spec
        .and_then(|s| s.path(&["osImageStream", "name"]))
        .and_then(Node::as_str)
        .filter(|s| !s.is_empty())
        .map(|s| {
            (
                s.to_string(),
                Src {
                    object: obj.id.clone(),
                    pointer: "/spec/osImageStream/name".into(),
                },
            )
        });
    Pool {
        name: obj.id.name.to_string(),
        labels,
        selector,
        node_selector: spec
            .and_then(|s| s.get("nodeSelector"))
            .and_then(|n| selector::parse(n).ok())
            .filter(|s| !s.is_empty()),
        paused,
        max_unavailable,
        stream,
        object: Some(obj.id.clone()),
        selector_span: Some(
            spec.and_then(|s| s.entry("machineConfigSelector"))
                .map(|e| e.key.span())
                .or_else(|| root.path(&["metadata", "name"]).map(|n| n.span()))
                .unwrap_or(root.span()),
        ),
    }
}

/// The pools of one side: the repository's, plus `master` and `worker` when not defined.
pub fn pools(objects: &[&Object]) -> Vec<Pool> {
    let mut out: Vec<Pool> = objects
        .iter()
        .filter(|o| o.id.kind == "MachineConfigPool")
        .map(|o| read(o))
        .collect();
    for name in ["master", "worker"] {
        if !out.iter().any(|p| p.name == name) {
            out.push(implicit(name));
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// Node counts by pool from the cluster's MachineSets: each MachineSet's nodes belong to the one
/// custom pool whose nodeSelector matches its node labels, else master, else worker
/// (`GetPoolsForNode`). Pools no MachineSet feeds are absent (count unknown).
pub fn machine_set_nodes(
    objects: &[&Object],
    pools: &[Pool],
) -> std::collections::BTreeMap<String, u32> {
    let mut out = std::collections::BTreeMap::new();
    for o in objects
        .iter()
        .filter(|o| o.id.group == "machine.openshift.io" && o.id.kind == "MachineSet")
    {
        let root = o.root();
        let labels = root
            .path(&["spec", "template", "spec", "metadata", "labels"])
            .map(|n| {
                n.as_map()
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|e| {
                        let v = match e.value.to_json() {
                            serde_json::Value::String(s) => s,
                            serde_json::Value::Null => String::new(),
                            other => other.to_string(),
                        };
                        Some((e.key.key_text()?.to_string(), v))
                    })
                    .collect::<Labels>()
            })
            .unwrap_or_default();
        let replicas = root
            .path(&["spec", "replicas"])
            .and_then(|n| n.to_json().as_u64())
            .map_or(1, |v| u32::try_from(v).unwrap_or(u32::MAX));
        let matching: Vec<&Pool> = pools
            .iter()
            .filter(|p| p.node_selector.as_ref().is_some_and(|s| s.matches(&labels)))
            .collect();
        let custom: Vec<&&Pool> = matching
            .iter()
            .filter(|p| !BUILT_IN.contains(&p.name.as_str()))
            .collect();
        let owner = match custom.len() {
            1 => Some(custom[0].name.clone()),
            0 => ["master", "arbiter", "worker"]
                .iter()
                .find(|n| matching.iter().any(|p| p.name == **n))
                .map(|n| n.to_string()),
            _ => None,
        };
        if let Some(name) = owner {
            *out.entry(name).or_insert(0u32) += replicas;
        }
    }
    out
}

/// Why the `custom-machine-config-pool-selector` admission policy rejects a custom pool's
/// selector (it must select role master/worker/arbiter, or `In` with worker / `NotIn` without).
pub fn admission_problem(pool: &Pool) -> Option<String> {
    if BUILT_IN.contains(&pool.name.as_str()) {
        return None;
    }
    let Ok(Some(sel)) = &pool.selector else {
        return None;
    };
    if sel.is_empty() {
        return Some(format!(
            "custom pool `{}` has an empty machineConfigSelector; the admission policy custom-machine-config-pool-selector rejects it (it must select role worker)",
            pool.name
        ));
    }
    if sel
        .labels
        .get(ROLE)
        .is_some_and(|v| BUILT_IN.contains(&v.as_str()))
    {
        return None;
    }
    let ok = sel.expressions.iter().any(|r| {
        r.key == ROLE
            && match r.operator {
                selector::Operator::In => r.values.iter().any(|v| v == "worker"),
                selector::Operator::NotIn => !r.values.iter().any(|v| v == "worker"),
                _ => false,
            }
    });
    (!ok).then(|| {
        format!(
            "custom pool `{}` must select role worker (matchLabels role master/worker/arbiter, or `{ROLE} In [worker, …]`); the admission policy custom-machine-config-pool-selector rejects it",
            pool.name
        )
    })
}

/// Node count and rollout shape: maxUnavailable (percent rounds down, at least 1; arbiter 1).
pub fn shape(pool: &Pool, nodes: Option<u32>) -> (Option<u32>, Option<u32>, String) {
    let mu = if pool.name == "arbiter" {
        Some(1)
    } else {
        match (&pool.max_unavailable, nodes) {
            (None, _) => Some(1),
            (Some(MaxUnavailable::Count(n)), _) => Some((*n).max(1)),
            (Some(MaxUnavailable::Percent(p)), Some(n)) => {
                let count = u64::from(n) * u64::from(*p) / 100;
                Some(u32::try_from(count).unwrap_or(u32::MAX).max(1))
            }
            (Some(MaxUnavailable::Percent(_)), None) => None,
        }
    };
    let at_a_time = match (&mu, &pool.max_unavailable) {
        (Some(m), _) => format!("{m} at a time"),
        (None, Some(MaxUnavailable::Percent(p))) => format!("{p}% at a time"),
        _ => String::new(),
    };
    match (nodes, mu) {
        (Some(n), Some(m)) => {
            let waves = n.div_ceil(m);
            (
                mu,
                Some(waves),
                format!(
                    "{n} {}, {at_a_time}: {waves} {}",
                    if n == 1 { "node" } else { "nodes" },
                    if waves == 1 { "wave" } else { "waves" }
                ),
            )
        }
        _ => (mu, None, format!("all nodes in pool, {at_a_time}")),
    }
}

/// The pool's selector when the controller renders the pool (valid and not empty).
pub fn usable(p: &Pool) -> Option<&Selector> {
    match &p.selector {
        Ok(Some(s)) if !s.is_empty() => Some(s),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_unavailable_rounds_down_with_a_minimum_of_one() {
        let mut p = implicit("worker");
        assert_eq!(shape(&p, Some(3)).1, Some(3));
        p.max_unavailable = Some(MaxUnavailable::Percent(25));
        assert_eq!(
            shape(&p, Some(10)),
            (Some(2), Some(5), "10 nodes, 2 at a time: 5 waves".into())
        );
        assert_eq!(shape(&p, Some(3)).0, Some(1));
        assert_eq!(shape(&p, None).2, "all nodes in pool, 25% at a time");
        p.max_unavailable = Some(MaxUnavailable::Count(2));
        p.name = "arbiter".into();
        assert_eq!(shape(&p, Some(2)).0, Some(1));
    }
}
