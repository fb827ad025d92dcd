//! HyperShift model: for every NodePool whose inputs differ between base and head, what the
//! NodePool controller does — replace, update in place, nothing, or refuse — and when
//! (`shared/domain/hypershift-rollouts.md`).

mod checks;
mod compare;
mod fingerprint;
mod inputs;
mod locate;
mod paused;
mod shape;
mod template;
mod version;

use std::collections::BTreeSet;

use nodecast_yaml::Node;

use super::{Action, Forecast, Impact, Input, Rollout, Target, When};
use crate::diagnostic::{Diagnostic, Location};
use crate::diff::ChangeKind;
use crate::inventory::{Object, ObjectId, ReferenceKind};
use crate::rules::{
    h103_config_change_no_rollout as h103, h104_config_unreferenced as h104,
    h111_in_place_template_change as h111, h113_hostedcluster_pause_ignored as h113,
    h114_generated_config_may_roll as h114, h115_nodepool_field_not_modelled as h115,
    h116_tuning_rollout_possible as h116, h117_nodepool_deleted as h117,
};
use compare::Triggered;
use inputs::{Side, Trigger};
use paused::Pause;

const GROUP: &str = "hypershift.openshift.io";

/// Adds the HyperShift entries, findings and judged objects to `out`.
pub fn forecast(input: &Input<'_>, out: &mut Forecast) {
    let mut ids: BTreeSet<&ObjectId> = BTreeSet::new();
    ids.extend(input.base.of_kind(GROUP, "NodePool").map(|o| &o.id));
    ids.extend(input.head.of_kind(GROUP, "NodePool").map(|o| &o.id));
    let mut diagnostics = Vec::new();
    let mut cms_rolling: BTreeSet<String> = BTreeSet::new();
    for id in ids {
        if input.diff.change_of(id).is_some() {
            out.covered.insert(id.clone());
        }
        match (input.base.get(id), input.head.get(id)) {
            (None, Some(h)) => {
                let hs = Side::build(input.head, h);
                diagnostics.extend(checks::nodepool(input, None, &hs).diagnostics);
            }
            (Some(b), None) => diagnostics.push(deleted(b)),
            (Some(b), Some(h)) => {
                let bs = Side::build(input.base, b);
                let hs = Side::build(input.head, h);
                let verdict = checks::nodepool(input, Some(&bs), &hs);
                diagnostics.extend(verdict.diagnostics);
                let triggered = compare::causes(input, &bs, &hs);
                if triggered.is_empty() {
                    continue;
                }
                for t in &triggered {
                    if t.trigger != Trigger::Never && t.cause.object.starts_with("ConfigMap/") {
                        cms_rolling.insert(t.cause.object.clone());
                    }
                }
                let (impact, extra) = impact(input, &bs, &hs, triggered, verdict.blocked);
                diagnostics.extend(extra);
                out.impacts.push(impact);
            }
            (None, None) => {}
        }
    }
    diagnostics.extend(hosted_clusters(input, out));
    diagnostics.extend(config_maps(input, out, &cms_rolling));
    let mut seen = BTreeSet::new();
    diagnostics.retain(|d| seen.insert((d.code, d.location.clone(), d.message.clone())));
    out.diagnostics.extend(diagnostics);
}

fn deleted(b: &Object) -> Diagnostic {
    let nodes = shape::size(b.root())
        .map(|s| format!("its {} node(s)", s.nodes))
        .unwrap_or_else(|| "all its nodes".into());
    Diagnostic::new(
        &h117::RULE,
        format!(
            "NodePool {} is deleted: {nodes} are drained and removed",
            b.id.name
        ),
        Location::base(&b.path, b.root().span),
    )
    .label("deleted in this change")
    .help("make sure the workloads fit on the remaining NodePools before merging")
    .object(b.id.to_string())
}

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
            .options
            .assume_nodes
            .get(&full)
            .or_else(|| input.options.assume_nodes.get(&id.name))
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

fn impact(
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
    for t in &triggered {
        let loc = t.location.clone();
        match t.trigger {
            Trigger::Template | Trigger::FailureDomain if in_place && action != Action::Blocked => {
                extra.push(
                    Diagnostic::new(
                        &h111::RULE,
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
            Trigger::Unknown
                if t.cause.object == np && !t.cause.summary.starts_with("new reference") =>
            {
                extra.push(
                    Diagnostic::new(
                        &h115::RULE,
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
        if t.cause.summary.contains("rollout possible") {
            extra.push(
                Diagnostic::new(
                    &h116::RULE,
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
    let when = when(input, h, &triggered, action);
    let impact = Impact {
        target: Target {
            cluster: cluster_of(h),
            kind: "NodePool".into(),
            namespace: h.np.id.namespace.clone(),
            name: h.np.id.name.clone(),
        },
        action,
        drain: matches!(action, Action::Replace | Action::InPlace),
        nodes,
        causes,
        when,
        rollout: rollout.or_else(|| {
            (action == Action::None).then(|| Rollout {
                max_surge: None,
                max_unavailable: None,
                waves: None,
                summary: format!("{}, none disrupted", shape::count_only(size)),
            })
        }),
        fingerprint: Some(super::Fingerprint {
            base: Some(fingerprint::of(b)),
            head: Some(fingerprint::of(h)),
        }),
    };
    (impact, extra)
}

fn when(input: &Input<'_>, h: &Side<'_>, triggered: &[Triggered], action: Action) -> When {
    let now = input.options.now;
    let np_pause = paused::read(
        h.np.root()
            .path(&["spec", "pausedUntil"])
            .and_then(Node::key_text),
        now,
    );
    match np_pause {
        Pause::Indefinite => {
            return When {
                state: "paused".into(),
                at: None,
                reason: "NodePool spec.pausedUntil is true: nothing rolls until the field is removed or set to false".into(),
            }
        }
        Pause::Until(at) => {
            return When {
                state: "paused".into(),
                at: Some(at.to_string()),
                reason: format!("NodePool spec.pausedUntil: changes accumulate and roll together after {at}"),
            }
        }
        Pause::Active | Pause::Invalid { .. } => {}
    }
    let disruptive: Vec<&Triggered> = triggered
        .iter()
        .filter(|t| t.trigger != Trigger::Never)
        .collect();
    let via_cpo = !disruptive.is_empty()
        && disruptive
            .iter()
            .all(|t| t.trigger == Trigger::HashViaControlPlane);
    if via_cpo && matches!(action, Action::Replace | Action::InPlace) {
        let hc_pause =
            h.hc.map(|hc| {
                paused::read(
                    hc.root()
                        .path(&["spec", "pausedUntil"])
                        .and_then(Node::key_text),
                    now,
                )
            })
            .unwrap_or(Pause::Active);
        let reason = "the HostedCluster is paused and these inputs (SSH key, image content sources) are produced by its control-plane operator".to_string();
        match hc_pause {
            Pause::Indefinite => {
                return When {
                    state: "paused".into(),
                    at: None,
                    reason,
                }
            }
            Pause::Until(at) => {
                return When {
                    state: "paused".into(),
                    at: Some(at.to_string()),
                    reason,
                }
            }
            _ => {}
        }
    }
    When::now()
}

/// HostedCluster-level findings: release changes that may roll NodePools through generated
/// configuration, and pauses that do not pause NodePools.
fn hosted_clusters(input: &Input<'_>, out: &mut Forecast) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for change in input
        .diff
        .changes
        .iter()
        .filter(|c| c.id.group == GROUP && c.id.kind == "HostedCluster")
    {
        out.covered.insert(change.id.clone());
        let Some(hc) = input.head.get(&change.id) else {
            continue;
        };
        let cpo = "/metadata/annotations/hypershift.openshift.io~1control-plane-operator-image";
        let release_field = change.fields.iter().find(|f| {
            ["/spec/release", "/spec/controlPlaneRelease", cpo]
                .iter()
                .any(|p| compare::under(&f.path, p))
        });
        if let (Some(f), false) = (release_field, inputs::has_https_proxy(hc.root())) {
            let pools = nodepools_of(input, hc);
            if !pools.is_empty() {
                diags.push(
                    Diagnostic::new(
                        &h114::RULE,
                        format!(
                            "HostedCluster {} release change may roll its {} NodePool(s) through generated configuration (HAProxy, core configs)",
                            hc.id.name,
                            pools.len()
                        ),
                        Location::head(&hc.path, locate::field_span(hc, &f.path)),
                    )
                    .label("control-plane release")
                    .help("upgrade during a maintenance window, or pause the NodePools (spec.pausedUntil) until the control plane has settled")
                    .note("HyperShift includes generated configuration in each NodePool's config hash; whether a control-plane upgrade changes it is not knowable statically")
                    .object(hc.id.to_string()),
                );
            }
        }
    }
    for hc in input.head.of_kind(GROUP, "HostedCluster") {
        let Some(value) = hc.root().path(&["spec", "pausedUntil"]) else {
            continue;
        };
        let paused = matches!(
            paused::read(value.key_text(), input.options.now),
            Pause::Indefinite | Pause::Until(_)
        );
        let cluster = format!(
            "HostedCluster/{}/{}",
            hc.id.namespace.as_deref().unwrap_or_default(),
            hc.id.name
        );
        let rolling: Vec<&str> = out
            .impacts
            .iter()
            .filter(|i| i.target.cluster == cluster && i.when.state == "now")
            .filter(|i| matches!(i.action, Action::Replace | Action::InPlace))
            .map(|i| i.target.name.as_str())
            .collect();
        if paused && !rolling.is_empty() {
            let span = hc
                .root()
                .entry("spec")
                .and_then(|s| s.value.entry("pausedUntil"))
                .map(|e| e.key.span)
                .unwrap_or(value.span);
            diags.push(
                Diagnostic::new(
                    &h113::RULE,
                    format!(
                        "HostedCluster {} is paused, but that does not pause its NodePools: {} roll(s) anyway",
                        hc.id.name,
                        rolling.join(", ")
                    ),
                    Location::head(&hc.path, span),
                )
                .label("pauses the control plane only")
                .help("set spec.pausedUntil on each NodePool to hold its rollout")
                .note("the NodePool controller ignores HostedCluster.spec.pausedUntil; only SSH-key and image-content-source changes wait for it")
                .object(hc.id.to_string()),
            );
        }
    }
    diags
}

fn nodepools_of<'a>(input: &Input<'a>, hc: &Object) -> Vec<&'a Object> {
    input
        .head
        .references
        .iter()
        .filter(|r| r.kind == ReferenceKind::NodePoolCluster && r.target == hc.id)
        .map(|r| &input.head.objects[r.from])
        .collect()
}

/// ConfigMap-level findings: changes no NodePool hashes, and configuration nobody references.
fn config_maps(
    input: &Input<'_>,
    out: &mut Forecast,
    rolling: &BTreeSet<String>,
) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let referenced = |id: &ObjectId| {
        [input.base, input.head].iter().any(|inv| {
            inv.references.iter().any(|r| {
                &r.target == id
                    && matches!(
                        r.kind,
                        ReferenceKind::NodePoolConfig | ReferenceKind::NodePoolTuning
                    )
            })
        })
    };
    for change in input
        .diff
        .changes
        .iter()
        .filter(|c| c.id.group.is_empty() && c.id.kind == "ConfigMap")
    {
        let obj = change
            .head
            .map(|i| &input.head.objects[i])
            .or_else(|| change.base.map(|i| &input.base.objects[i]));
        let Some(obj) = obj else { continue };
        let first = change.fields.first();
        let loc = match (change.kind, first, change.head) {
            (ChangeKind::Changed, Some(f), Some(_)) => match &f.after {
                Some(_) => Location::head(&obj.path, locate::field_span(obj, &f.path)),
                None => f
                    .head
                    .clone()
                    .unwrap_or_else(|| Location::head_file(&obj.path)),
            },
            (ChangeKind::Removed, _, _) => Location::base(&obj.path, obj.root().span),
            _ => Location::head(&obj.path, locate::key_span(obj.root(), "/metadata/name")),
        };
        if referenced(&change.id) {
            out.covered.insert(change.id.clone());
            if change.kind == ChangeKind::Changed && !rolling.contains(&change.id.to_string()) {
                diags.push(
                    Diagnostic::new(
                        &h103::RULE,
                        format!(
                            "ConfigMap {} changed, but not in anything the NodePool controller hashes: no rollout",
                            change.id.name
                        ),
                        loc,
                    )
                    .label("no effect on nodes")
                    .help("nothing to do; formatting, comments, document order, the role label and pool selectors are normalised away")
                    .object(change.id.to_string()),
                );
            }
            continue;
        }
        let holds_manifests = [
            change.base.map(|i| &input.base.objects[i]),
            change.head.map(|i| &input.head.objects[i]),
        ]
        .into_iter()
        .flatten()
        .any(|o| !o.parsed().embedded.is_empty());
        if holds_manifests && change.kind != ChangeKind::Removed {
            out.covered.insert(change.id.clone());
            diags.push(
                Diagnostic::new(
                    &h104::RULE,
                    format!(
                        "ConfigMap {} holds NodePool configuration but no NodePool references it: the change rolls nothing",
                        change.id.name
                    ),
                    loc,
                )
                .label("unreferenced")
                .help(format!(
                    "add `- name: {}` to a NodePool's spec.config (or spec.tuningConfig), or delete the ConfigMap",
                    change.id.name
                ))
                .object(change.id.to_string()),
            );
        }
    }
    for change in input
        .diff
        .changes
        .iter()
        .filter(|c| c.id.group.is_empty() && c.id.kind == "Secret")
    {
        let used = [input.base, input.head].iter().any(|inv| {
            inv.of_kind(GROUP, "HostedCluster").any(|hc| {
                hc.id.namespace == change.id.namespace
                    && ["sshKey", "pullSecret", "additionalTrustBundle"]
                        .iter()
                        .any(|k| {
                            hc.root().path(&["spec", k, "name"]).and_then(Node::as_str)
                                == Some(change.id.name.as_str())
                        })
            })
        });
        if used {
            out.covered.insert(change.id.clone());
        }
    }
    diags
}
