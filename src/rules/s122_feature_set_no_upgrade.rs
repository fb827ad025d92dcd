//! S122: a `featureSet` enters a NoUpgrade set (irreversible; blocks minor upgrades).

use nodecast_yaml::Node;

use super::revisions::{at, node};
use super::s121_feature_set_change_rejected::{feature_set_fields, no_upgrade};
use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "S122",
    name: "feature-set-no-upgrade",
    severity: Severity::Warning,
    summary: "A featureSet enters TechPreviewNoUpgrade, DevPreviewNoUpgrade or CustomNoUpgrade: permanent, and minor upgrades are blocked",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (b, o, pointer) in feature_set_fields(ctx) {
        let Some(head) = node(o, pointer).and_then(Node::key_text) else {
            continue;
        };
        let base = b
            .and_then(|b| node(b, pointer))
            .and_then(Node::key_text)
            .unwrap_or("");
        if !no_upgrade(head) || no_upgrade(base) || b.is_none() {
            continue;
        }
        let mut d = Diagnostic::new(
            &CODE,
            format!("{} {} enters {head}: this cannot be undone and blocks every minor upgrade of the cluster", o.id.kind, o.id.name),
            at(o, pointer),
        )
        .label("permanent feature set")
        .help("use a NoUpgrade feature set only on disposable test clusters")
        .object(o.id.to_string());
        if o.id.kind == "FeatureGate" {
            d = d.note("standalone clusters: the generated kubelet config of every pool changes, so every MachineConfigPool reboots");
        }
        out.push(d);
    }
}
