//! S121: a `featureSet` change the API server rejects (FeatureGate and HostedCluster).

use nodecast_yaml::Node;

use super::revisions::{at, node, pairs};
use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::inventory::Object;

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "S121",
    name: "feature-set-change-rejected",
    severity: Severity::Error,
    summary: "A featureSet leaves a NoUpgrade set, goes OKD → Default, is removed, or is not a known set: the API server rejects it",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

/// The feature sets the API accepts.
pub(crate) const FEATURE_SETS: [&str; 5] = [
    "",
    "TechPreviewNoUpgrade",
    "DevPreviewNoUpgrade",
    "CustomNoUpgrade",
    "OKD",
];

/// Whether a feature set can never be left.
pub(crate) fn no_upgrade(set: &str) -> bool {
    set.ends_with("NoUpgrade")
}

/// The featureSet fields: FeatureGate `spec.featureSet`, HostedCluster `spec.configuration.featureGate.featureSet`.
pub(crate) fn feature_set_fields<'a>(
    ctx: &Context<'a>,
) -> Vec<(Option<&'a Object>, &'a Object, &'static str)> {
    let mut out = Vec::new();
    for (b, o) in pairs(ctx.base, ctx.head, "config.openshift.io", "FeatureGate") {
        out.push((b, o, "/spec/featureSet"));
    }
    for (b, o) in pairs(
        ctx.base,
        ctx.head,
        "hypershift.openshift.io",
        "HostedCluster",
    ) {
        out.push((b, o, "/spec/configuration/featureGate/featureSet"));
    }
    out
}

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (b, o, pointer) in feature_set_fields(ctx) {
        let head = node(o, pointer).and_then(Node::key_text);
        let base = b.and_then(|b| node(b, pointer)).and_then(Node::key_text);
        let what = format!("{} {}", o.id.kind, o.id.name);
        let problem = match (base, head) {
            (_, Some(h)) if !FEATURE_SETS.contains(&h) => Some(format!("featureSet `{h}` is not a feature set (\"\", TechPreviewNoUpgrade, DevPreviewNoUpgrade, CustomNoUpgrade, OKD)")),
            (Some(b), None) => Some(format!(".spec.featureSet cannot be removed (it was `{b}`)")),
            (Some(b), Some(h)) if b != h && no_upgrade(b) => Some(format!(
                "{b} may not be changed (to {}): NoUpgrade feature sets are permanent",
                if h.is_empty() { "Default".to_string() } else { format!("`{h}`") }
            )),
            (Some("OKD"), Some("")) => Some("OKD cannot transition to Default".to_string()),
            _ => None,
        };
        if let Some(problem) = problem {
            out.push(
                Diagnostic::new(&CODE, format!("{what} is rejected: {problem}"), at(o, pointer))
                    .label("irreversible feature set")
                    .help("restore the previous featureSet; a cluster on a NoUpgrade set stays on it for its lifetime")
                    .object(o.id.to_string()),
            );
        }
    }
}
