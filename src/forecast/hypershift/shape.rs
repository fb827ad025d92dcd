//! The rollout's shape: how many nodes, how many at a time, in how many waves (`capi.go` for Replace, `getInPlaceMaxUnavailable` for InPlace).

use nodecast_yaml::{Node, NodeKind, Scalar};

use crate::forecast::Rollout;

/// How many nodes a NodePool has, and whether that is an autoscaling upper bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Node count (`replicas`, or `autoScaling.max`).
    pub nodes: u32,
    /// `Some(min)` when `nodes` is the autoscaling maximum.
    pub autoscaling_min: Option<u32>,
}

fn uint(node: Option<Node<'_>>) -> Option<u32> {
    match node.map(|n| n.kind()) {
        Some(NodeKind::Scalar {
            value: Scalar::Int(i),
            ..
        }) => u32::try_from(i).ok(),
        _ => None,
    }
}

/// The NodePool's size from `spec.replicas` or `spec.autoScaling`.
pub fn size(np: Node<'_>) -> Option<Size> {
    if let Some(n) = uint(np.path(&["spec", "replicas"])) {
        return Some(Size {
            nodes: n,
            autoscaling_min: None,
        });
    }
    let max = uint(np.path(&["spec", "autoScaling", "max"]))?;
    Some(Size {
        nodes: max,
        autoscaling_min: Some(uint(np.path(&["spec", "autoScaling", "min"])).unwrap_or(0)),
    })
}

/// An int-or-percent value scaled against `total`; percentages round up or down.
fn scaled(node: Option<Node<'_>>, total: u32, round_up: bool) -> Option<u32> {
    let node = node?;
    if let Some(i) = uint(Some(node)) {
        return Some(i);
    }
    let pct: u64 = node.as_str()?.strip_suffix('%')?.trim().parse().ok()?;
    let prod = pct * u64::from(total);
    let v = if round_up {
        prod.div_ceil(100)
    } else {
        prod / 100
    };
    u32::try_from(v).ok()
}

/// Replace strategy parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Rolling update with surge and unavailability.
    Rolling {
        /// Extra machines at a time.
        surge: u32,
        /// Machines down at a time.
        unavailable: u32,
    },
    /// New configuration waits for manual machine deletion.
    OnDelete,
    /// Invalid (the controller refuses): why.
    Invalid(String),
}

/// The Replace strategy of a NodePool, against `nodes` machines.
///
/// HyperShift checks only the strategy (`validateManagement`) and copies `maxSurge` and
/// `maxUnavailable` to the MachineDeployment; Cluster API resolves values that both come to 0
/// (`ResolveFenceposts`) to `maxUnavailable: 1`, so the rollout replaces one machine at a time
/// without surge. Both written as the integer 0 is flagged separately ([`both_zero`]).
pub fn replace_strategy(np: Node<'_>, nodes: u32) -> Strategy {
    let replace = np.path(&["spec", "management", "replace"]);
    let Some(replace) = replace else {
        // CRD default: RollingUpdate, maxSurge 1, maxUnavailable 0.
        return Strategy::Rolling {
            surge: 1,
            unavailable: 0,
        };
    };
    match replace.get("strategy").and_then(Node::as_str) {
        Some("OnDelete") => Strategy::OnDelete,
        Some("RollingUpdate") | None => {
            let Some(ru) = replace.get("rollingUpdate") else {
                return Strategy::Invalid(
                    "strategy RollingUpdate without `rollingUpdate` parameters".into(),
                );
            };
            let surge = scaled(ru.get("maxSurge"), nodes, true).unwrap_or(1);
            let unavailable = scaled(ru.get("maxUnavailable"), nodes, false).unwrap_or(0);
            if surge == 0 && unavailable == 0 {
                return Strategy::Rolling {
                    surge: 0,
                    unavailable: 1,
                };
            }
            Strategy::Rolling { surge, unavailable }
        }
        Some(other) => Strategy::Invalid(format!(
            "strategy `{other}` is neither RollingUpdate nor OnDelete"
        )),
    }
}

/// `rollingUpdate.maxSurge` and `maxUnavailable` when both are written as the integer 0 (the
/// combination Cluster API's MachineDeployment webhook rejects from v1.11 on).
pub fn both_zero(np: Node<'_>) -> Option<(Node<'_>, Node<'_>)> {
    let replace = np.path(&["spec", "management", "replace"])?;
    if !matches!(
        replace.get("strategy").and_then(Node::as_str),
        Some("RollingUpdate") | None
    ) {
        return None;
    }
    let ru = replace.get("rollingUpdate")?;
    let (surge, unavailable) = (ru.get("maxSurge")?, ru.get("maxUnavailable")?);
    (uint(Some(surge)) == Some(0) && uint(Some(unavailable)) == Some(0))
        .then_some((surge, unavailable))
}

/// InPlace `maxUnavailable` (`getInPlaceMaxUnavailable`): int or percent of replicas, rounded
/// down, at least 1; 1 with autoscaling.
pub fn in_place_max_unavailable(np: Node<'_>) -> u32 {
    let Some(replicas) = uint(np.path(&["spec", "replicas"])) else {
        return 1;
    };
    scaled(
        np.path(&["spec", "management", "inPlace", "maxUnavailable"]),
        replicas,
        false,
    )
    .unwrap_or(1)
    .max(1)
}

fn nodes_text(size: Option<Size>) -> String {
    match size {
        Some(Size {
            nodes,
            autoscaling_min: Some(min),
        }) => format!("up to {nodes} nodes (autoscaling {min}..{nodes})"),
        Some(Size { nodes: 1, .. }) => "1 node".into(),
        Some(Size { nodes, .. }) => format!("{nodes} nodes"),
        None => "node count unknown".into(),
    }
}

fn waves(size: Option<Size>, per_wave: u32) -> Option<u32> {
    let n = size?.nodes;
    Some(n.div_ceil(per_wave.max(1)))
}

fn waves_text(w: Option<u32>, size: Option<Size>) -> String {
    let upto = if size.is_some_and(|s| s.autoscaling_min.is_some()) {
        "up to "
    } else {
        ""
    };
    match w {
        Some(1) => format!("{upto}1 wave"),
        Some(w) => format!("{upto}{w} waves"),
        None => "waves unknown".into(),
    }
}

/// The shape of a Replace rollout.
pub fn replace(np: Node<'_>, size: Option<Size>) -> Rollout {
    let nodes = size.map(|s| s.nodes).unwrap_or(0);
    match replace_strategy(np, nodes) {
        Strategy::Rolling { surge, unavailable } => {
            let at_once = surge + unavailable;
            let w = waves(size, at_once);
            Rollout {
                max_surge: Some(surge),
                max_unavailable: Some(unavailable),
                waves: w,
                summary: format!(
                    "{}, {at_once} at a time: {} (maxSurge {surge}, maxUnavailable {unavailable})",
                    nodes_text(size),
                    waves_text(w, size)
                ),
            }
        }
        Strategy::OnDelete => Rollout {
            max_surge: None,
            max_unavailable: None,
            waves: None,
            summary: format!(
                "{}; waits for manual machine deletion (OnDelete)",
                nodes_text(size)
            ),
        },
        Strategy::Invalid(why) => Rollout {
            max_surge: None,
            max_unavailable: None,
            waves: None,
            summary: format!("{}; not rolled: {why}", nodes_text(size)),
        },
    }
}

/// The shape of an InPlace rollout.
pub fn in_place(np: Node<'_>, size: Option<Size>) -> Rollout {
    let mu = in_place_max_unavailable(np);
    let w = waves(size, mu);
    Rollout {
        max_surge: None,
        max_unavailable: Some(mu),
        waves: w,
        summary: format!(
            "{}, {mu} at a time: {} (in place, maxUnavailable {mu})",
            nodes_text(size),
            waves_text(w, size)
        ),
    }
}

/// The node count alone, for entries that roll nothing.
pub fn count_only(size: Option<Size>) -> String {
    nodes_text(size)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The document's root (the document is kept for the rest of the test run).
    fn np(spec: &str) -> Node<'static> {
        let text = format!("spec:\n{spec}");
        let mut parsed = nodecast_yaml::parse(&text, &nodecast_yaml::Options::default());
        Box::leak(Box::new(parsed.documents.swap_remove(0))).root()
    }

    #[test]
    fn replace_defaults_and_percentages() {
        let n = np("  replicas: 3\n  management:\n    upgradeType: Replace\n");
        let r = replace(n, size(n));
        assert_eq!(
            (r.max_surge, r.max_unavailable, r.waves),
            (Some(1), Some(0), Some(3))
        );
        assert!(
            r.summary.starts_with("3 nodes, 1 at a time: 3 waves"),
            "{}",
            r.summary
        );
        let n = np("  replicas: 10\n  management:\n    replace:\n      strategy: RollingUpdate\n      rollingUpdate:\n        maxSurge: 25%\n        maxUnavailable: 25%\n");
        let r = replace(n, size(n));
        assert_eq!(
            (r.max_surge, r.max_unavailable, r.waves),
            (Some(3), Some(2), Some(2))
        );
        let n = np("  replicas: 3\n  management:\n    replace:\n      strategy: RollingUpdate\n");
        assert!(matches!(replace_strategy(n, 3), Strategy::Invalid(_)));
        // Cluster API's ResolveFenceposts: values that come to 0/0 become maxUnavailable 1.
        let zero = Strategy::Rolling {
            surge: 0,
            unavailable: 1,
        };
        let n = np("  replicas: 3\n  management:\n    replace:\n      strategy: RollingUpdate\n      rollingUpdate:\n        maxSurge: 0\n        maxUnavailable: 0\n");
        assert_eq!(replace_strategy(n, 3), zero);
        assert!(both_zero(n).is_some());
        let n = np("  replicas: 3\n  management:\n    replace:\n      strategy: RollingUpdate\n      rollingUpdate:\n        maxSurge: 0%\n        maxUnavailable: 10%\n");
        assert_eq!(replace_strategy(n, 3), zero);
        assert!(both_zero(n).is_none(), "percentages pass the webhook");
    }

    #[test]
    fn in_place_max_unavailable_rules() {
        let n = np("  replicas: 10\n  management:\n    inPlace:\n      maxUnavailable: 2\n");
        assert_eq!(in_place_max_unavailable(n), 2);
        let n = np("  replicas: 10\n  management:\n    inPlace:\n      maxUnavailable: 25%\n");
        assert_eq!(in_place_max_unavailable(n), 2);
        let n = np("  replicas: 3\n  management:\n    inPlace:\n      maxUnavailable: 10%\n");
        assert_eq!(in_place_max_unavailable(n), 1);
        let n = np("  autoScaling:\n    min: 1\n    max: 5\n  management:\n    inPlace:\n      maxUnavailable: 3\n");
        assert_eq!(in_place_max_unavailable(n), 1);
        assert_eq!(
            size(n),
            Some(Size {
                nodes: 5,
                autoscaling_min: Some(1)
            })
        );
    }
}
