//! S123: FeatureGate status lists the incoming version but not the outgoing one during an update.

use nodecast_yaml::Node;

use super::revisions::{at, node, pairs, text};
use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::inventory::Object;

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "S123",
    name: "feature-gate-status-version",
    severity: Severity::Warning,
    summary: "FeatureGate status has the incoming version's gates but not the outgoing version's during an update",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

/// The ClusterVersion (base and head) of the FeatureGate's cluster (see
/// [`speaking_for`](crate::inventory::clusters::speaking_for)): never another cluster's.
fn cluster_version<'a>(
    ctx: &Context<'a>,
    roots: &std::collections::BTreeSet<String>,
    fg: &Object,
) -> Option<(Option<&'a Object>, &'a Object)> {
    let all = pairs(ctx.base, ctx.head, "config.openshift.io", "ClusterVersion");
    let heads: Vec<&Object> = all.iter().map(|(_, cv)| *cv).collect();
    let cv = crate::inventory::clusters::speaking_for(roots, ctx.cluster_roots, fg, &heads)?;
    all.into_iter().find(|(_, h)| std::ptr::eq(*h, cv))
}

/// The outgoing and incoming versions of an update in progress, if one is.
fn transition(b: Option<&Object>, cv: &Object) -> Option<(String, String)> {
    let incoming = text(cv, "/spec/desiredUpdate/version")
        .or_else(|| text(cv, "/status/desired/version"))?
        .to_string();
    let outgoing = b
        .and_then(|b| text(b, "/spec/desiredUpdate/version"))
        .filter(|v| *v != incoming)
        .map(str::to_string)
        .or_else(|| {
            node(cv, "/status/history")
                .and_then(Node::as_seq)?
                .iter()
                .filter(|h| h.get("state").and_then(Node::as_str) == Some("Completed"))
                .find_map(|h| h.get("version").and_then(Node::key_text))
                .filter(|v| *v != incoming)
                .map(str::to_string)
        })?;
    Some((outgoing, incoming))
}

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let roots = std::sync::OnceLock::new();
    for (_, fg) in pairs(ctx.base, ctx.head, "config.openshift.io", "FeatureGate") {
        let Some(entries) = node(fg, "/status/featureGates").and_then(Node::as_seq) else {
            continue;
        };
        let versions: Vec<&str> = entries
            .iter()
            .filter_map(|e| e.get("version").and_then(Node::key_text))
            .collect();
        let roots = roots.get_or_init(|| {
            crate::inventory::clusters::roots(ctx.base, ctx.head, ctx.cluster_roots)
        });
        let Some((b, cv)) = cluster_version(ctx, roots, fg) else {
            continue;
        };
        let Some((outgoing, incoming)) = transition(b, cv) else {
            continue;
        };
        if !versions.contains(&incoming.as_str()) || versions.contains(&outgoing.as_str()) {
            continue;
        }
        out.push(
            Diagnostic::new(
                &CODE,
                format!("components still on {outgoing} cannot read their feature gates: FeatureGate status lists {incoming} but not {outgoing}"),
                at(fg, "/status/featureGates"),
            )
            .label("outgoing version missing")
            .help(format!("keep the status entry for {outgoing} next to {incoming} until the update completes (status is controller-owned; do not prune it in Git)"))
            .note("each component reads the entry for its own payload version; a missing entry makes it fail with `missing desired version` and the update stalls")
            .object(fg.id.to_string()),
        );
    }
}
