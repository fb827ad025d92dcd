//! Assembles a NodePool's forecast entry: the action its causes lead to under its upgrade type,
//! the node count and rollout shape, when it starts, and the fingerprints (rollout shape per upgrade type; one cause per changed input).

use crate::forecast::hypershift::codes;
use nodecast_yaml::Node;

use super::compare::Triggered;
use super::inputs::{Side, Trigger};
use super::{fingerprint, paused, shape};
use crate::diagnostic::Diagnostic;
use crate::forecast::{Action, Fingerprint, Impact, Input, Rollout, Target};

/// `HostedCluster/<namespace>/<name>`, the contract's `target.cluster` of a NodePool.
fn cluster_of(side: &Side<'_>) -> String {
    let ns = side.np.id.namespace.clone().unwrap_or_default();
    let name = side
        .np
        .root()
        .path(&["spec", "clusterName"])
        .and_then(Node::as_str)
        .unwrap_or_default();
    format!("HostedCluster/{ns}/{name}")
}

/// The pool size from the manifest, else from `--assume-nodes` (`ns/name` or `name`).
fn node_count(input: &Input<'_>, side: &Side<'_>) -> (Option<shape::Size>, Option<u32>) {
    let size = shape::size(side.np.root());
    let assumed = || {
        let id = &side.np.id;
        let full = format!(
            "{}/{}",
            id.namespace.as_deref().unwrap_or_default(),
            id.name
        );
        input
            .settings
            .assume_nodes
            .get(&full)
            .or_else(|| input.settings.assume_nodes.get(id.name.as_str()))
            .copied()
    };
    match size {
        Some(s) => (Some(s), Some(s.nodes)),
        None => {
            let n = assumed();
            (
                n.map(|nodes| shape::Size {
                    nodes,
                    autoscaling_min: None,
                }),
                n,
            )
        }
    }
}

/// The forecast entry of a NodePool whose inputs differ, with the findings its causes raise.
pub fn impact(
    input: &Input<'_>,
    b: &Side<'_>,
    h: &Side<'_>,
    triggered: Vec<Triggered>,
    blocked: bool,
) -> (Impact, Vec<Diagnostic>) {
    let mut extra = Vec::new();
    let root = h.np.root();
    let in_place = root
        .path(&["spec", "management", "upgradeType"])
        .and_then(Node::as_str)
        == Some("InPlace");
    let rolls = |t: &Triggered| {
        if in_place {
            t.trigger.rolls_in_place()
        } else {
            t.trigger.rolls_replace()
        }
    };
    let (size, nodes) = node_count(input, h);
    let action = if blocked {
        Action::Blocked
    } else if triggered.iter().any(rolls) {
        if in_place {
            Action::InPlace
        } else {
            Action::Replace
        }
    } else {
        Action::None
    };
    let np = h.np.id.to_string();
    let mut template_noted = false;
    for t in &triggered {
        let loc = t.location.clone();
        match t.trigger {
            Trigger::Template | Trigger::FailureDomain
                if in_place && action != Action::Blocked && !template_noted =>
            {
                template_noted = true;
                extra.push(
                    Diagnostic::new(
                        &codes::H111,
                        format!(
                            "NodePool {} is InPlace: the new machine template reaches only machines created later; existing nodes keep the old one",
                            h.np.id.name
                        ),
                        loc.clone(),
                    )
                    .label("new machines only")
                    .help("to move existing nodes to the new template, scale the NodePool down and up or replace it with a new NodePool")
                    .object(np.clone()),
                );
            }
            Trigger::Unknown if t.unmodelled => {
                extra.push(
                    Diagnostic::new(
                        &codes::H115,
                        format!(
                            "NodePool {}: nodecast does not know whether `{}` rolls nodes, so it assumes it does",
                            h.np.id.name, t.cause.field
                        ),
                        loc.clone(),
                    )
                    .label("not modelled")
                    .help("check the HyperShift documentation for this field; report it to nodecast so the model can learn it")
                    .object(np.clone()),
                );
            }
            _ => {}
        }
        if t.possible {
            extra.push(
                Diagnostic::new(
                    &codes::H116,
                    format!(
                        "NodePool {}: this Tuned has no boot-time settings, so NTO normally applies it live; a rollout is possible, not certain",
                        h.np.id.name
                    ),
                    loc.clone(),
                )
                .label("runtime tuning")
                .help("expect a rollout to be safe; a Tuned with only [sysctl]-style sections is usually applied without a reboot")
                .object(np.clone()),
            );
        }
    }
    let rollout: Option<Rollout> = match action {
        Action::Replace => Some(shape::replace(root, size)),
        Action::InPlace => Some(shape::in_place(root, size)),
        _ => None,
    };
    let causes = triggered.iter().map(|t| t.cause.clone()).collect();
    let when = paused::when(input, h, &triggered, action);
    let impact = Impact {
        target: Target {
            cluster: cluster_of(h),
            kind: "NodePool".into(),
            namespace: h.np.id.namespace.as_deref().map(str::to_string),
            name: h.np.id.name.to_string(),
            scope: h.np.id.scope.to_string(),
        },
        action,
        drain: matches!(action, Action::Replace | Action::InPlace),
        nodes,
        causes,
        when,
        rollout: rollout.or_else(|| {
            let what = match action {
                Action::Blocked => "nothing rolls until the refusal is fixed",
                _ => "none disrupted",
            };
            Some(Rollout {
                max_surge: None,
                max_unavailable: None,
                waves: None,
                summary: format!("{}, {what}", shape::count_only(size)),
            })
        }),
        fingerprint: Some(Fingerprint {
            base: Some(fingerprint::of(b)),
            head: Some(fingerprint::of(h)),
        }),
    };
    (impact, extra)
}
