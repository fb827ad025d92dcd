//! S111: boot image skew enforcement is turned off (`mode: None`).

use super::revisions::{at, pairs, text};
use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "S111",
    name: "skew-enforcement-disabled",
    severity: Severity::Warning,
    summary: "Boot image skew enforcement is off: old boot images may fail to scale up, and an alert fires",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (_, o) in pairs(
        ctx.base,
        ctx.head,
        "operator.openshift.io",
        "MachineConfiguration",
    ) {
        if text(o, "/spec/bootImageSkewEnforcement/mode") != Some("None") {
            continue;
        }
        out.push(
            Diagnostic::new(
                &CODE,
                "boot image skew is no longer checked: scaling up with an old boot image may fail, and the MCO fires an alert",
                at(o, "/spec/bootImageSkewEnforcement/mode"),
            )
            .label("skew enforcement off")
            .help("keep boot images current (managedBootImages), or use mode: Manual and record the boot image version")
            .object(o.id.to_string()),
        );
    }
}
