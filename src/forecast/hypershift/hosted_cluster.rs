//! HostedCluster-level findings: release changes that may roll NodePools through generated
//! configuration (the generated HAProxy and ignition configuration follow the control-plane release), and pauses that do not pause NodePools (`pausedUntil` on a HostedCluster pauses its own reconciliation, not the NodePool controller).

use std::collections::HashMap;

use super::paused::{self, Pause};
use super::{inputs, locate, template, GROUP};
use crate::diagnostic::Diagnostic;
use crate::forecast::hypershift::codes;
use crate::forecast::{Action, Forecast, Input};
use crate::inventory::{Inventory, Object, ReferenceKind};

/// Says why a changed pull secret or trust bundle of a HostedCluster rolls no NodePool: the
/// NodePool controller hashes their names into the configuration, never their content (CRD
/// descriptions of `spec.pullSecret` and `spec.additionalTrustBundle`).
pub fn content_not_hashed(input: &Input<'_>, out: &mut Forecast) {
    // The first HostedCluster of each revision naming each (namespace, field, name), head first:
    // looked up once per changed Secret or ConfigMap instead of a walk of every HostedCluster.
    let mut maps: Option<[Named<'_>; 2]> = None;
    for change in &input.diff.changes {
        let id = &change.id;
        let (field, what) = match (id.group.as_str(), id.kind.as_str()) {
            ("", "Secret") => ("pullSecret", "pull secret"),
            ("", "ConfigMap") => ("additionalTrustBundle", "additional trust bundle"),
            _ => continue,
        };
        let maps = maps.get_or_insert_with(|| [named(input.head), named(input.base)]);
        let key = (id.namespace.as_deref(), field, id.name.as_str());
        let hc = maps.iter().find_map(|m| m.get(&key).copied());
        let Some(hc) = hc else { continue };
        out.no_impact.insert(
            id.clone(),
            crate::forecast::NoImpact {
                why: format!(
                    "only the {what}'s name is hashed into the NodePool configuration of HostedCluster {}; its content is not, so no NodePool rolls",
                    match &hc.id.namespace {
                        Some(ns) => format!("{ns}/{}", hc.id.name),
                        None => hc.id.name.to_string(),
                    }
                ),
                specific: true,
            },
        );
    }
}

/// The HostedClusters of one revision by what their `field`'s `name` names: (namespace, field,
/// name) → the first one, in the revision's order.
type Named<'a> = HashMap<(Option<&'a str>, &'static str, &'a str), &'a Object>;

fn named(inv: &Inventory) -> Named<'_> {
    let mut map = Named::new();
    for hc in inv.of_kind(GROUP, "HostedCluster") {
        for field in ["pullSecret", "additionalTrustBundle"] {
            let name = hc
                .root()
                .path(&["spec", field, "name"])
                .and_then(|n| n.as_str());
            if let Some(name) = name {
                map.entry((hc.id.namespace.as_deref(), field, name))
                    .or_insert(hc);
            }
        }
    }
    map
}

/// HostedCluster-level findings: release changes that may roll NodePools through generated
/// configuration, and pauses that do not pause NodePools.
pub fn findings(input: &Input<'_>, out: &mut Forecast) -> Vec<Diagnostic> {
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
        let Some(base) = input.base.get(&change.id) else {
            continue;
        };
        let cpo = "/metadata/annotations/hypershift.openshift.io~1control-plane-operator-image";
        let release_field = [
            "/spec/release/image",
            "/spec/controlPlaneRelease/image",
            cpo,
        ]
        .into_iter()
        .find(|p| {
            let value = |o: &Object| {
                template::at(o.root(), p).and_then(|n| n.key_text().map(str::to_string))
            };
            value(base) != value(hc)
        });
        if let (Some(field), false) = (release_field, inputs::has_https_proxy(hc.root())) {
            let pools = nodepools_of(input, hc);
            if !pools.is_empty() {
                diags.push(
                    Diagnostic::new(
                        &codes::H114,
                        format!(
                            "HostedCluster {} release change may roll its {} NodePool(s) through generated configuration (HAProxy, core configs)",
                            hc.id.name,
                            pools.len()
                        ),
                        hc.head_location(locate::field_span(hc, field)),
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
            paused::read(value.key_text(), input.settings.now),
            Pause::Indefinite | Pause::Until(_)
        );
        let own = nodepools_of(input, hc);
        let rolling: Vec<&str> = out
            .impacts
            .iter()
            .filter(|i| i.when.state == "now")
            // Its own NodePools, as their references resolve (another unit's HostedCluster of
            // the same name is another cluster; a target's cluster is only its display name).
            .filter(|i| {
                own.iter().any(|np| {
                    i.target.kind == "NodePool"
                        && np.id.name == i.target.name
                        && np.id.namespace.as_deref() == i.target.namespace.as_deref()
                        && np.id.scope == i.target.scope
                })
            })
            .filter(|i| matches!(i.action, Action::Replace | Action::InPlace))
            .map(|i| i.target.name.as_str())
            .collect();
        if paused && !rolling.is_empty() {
            let span = hc
                .root()
                .entry("spec")
                .and_then(|s| s.value.entry("pausedUntil"))
                .map(|e| e.key.span())
                .unwrap_or(value.span());
            diags.push(
                Diagnostic::new(
                    &codes::H113,
                    format!(
                        "HostedCluster {} is paused, but that does not pause its NodePools: {} roll(s) anyway",
                        hc.id.name,
                        rolling.join(", ")
                    ),
                    hc.head_location(span),
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
        .map(|r| &*input.head.objects[r.from])
        .collect()
}
