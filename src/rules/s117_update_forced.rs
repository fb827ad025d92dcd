//! S117: `ClusterVersion.spec.desiredUpdate.force` is true.

use nodecast_yaml::Node;

use super::revisions::{at, node, pairs};
use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "S117",
    name: "update-forced",
    severity: Severity::Warning,
    summary:
        "ClusterVersion desiredUpdate.force bypasses signature verification and upgradeable checks",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (_, cv) in pairs(ctx.base, ctx.head, "config.openshift.io", "ClusterVersion") {
        if node(cv, "/spec/desiredUpdate/force").map(Node::to_json)
            != Some(serde_json::Value::Bool(true))
        {
            continue;
        }
        out.push(
            Diagnostic::new(
                &CODE,
                format!("ClusterVersion {} forces the update: release signature verification and Upgradeable=False guards are skipped", cv.id.name),
                at(cv, "/spec/desiredUpdate/force"),
            )
            .label("force: true")
            .help("remove `force: true`; fix what blocks the update (an Upgradeable=False condition) instead")
            .object(cv.id.to_string()),
        );
    }
}
