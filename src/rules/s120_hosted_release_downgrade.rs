//! S120: a HostedCluster's release moves to an older minor.

use super::revisions::{at, pairs, text};
use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::forecast::hypershift::version::{as_v4_minor, Release};

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "S120",
    name: "hosted-release-downgrade",
    severity: Severity::Error,
    summary: "A HostedCluster's release moves to an older minor (y-stream downgrade)",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (b, hc) in pairs(
        ctx.base,
        ctx.head,
        "hypershift.openshift.io",
        "HostedCluster",
    ) {
        let read = |o| {
            Release::from_pullspec(text(o, "/spec/release/image"))
                .version()
                .cloned()
        };
        let (Some(from), Some(to)) = (b.and_then(read), read(hc)) else {
            continue;
        };
        if as_v4_minor(&to) >= as_v4_minor(&from) {
            continue;
        }
        out.push(
            Diagnostic::new(
                &CODE,
                format!("HostedCluster {} cannot go back {from} → {to}: control planes are not downgraded across minors", hc.id.name),
                at(hc, "/spec/release/image"),
            )
            .label("y-stream downgrade")
            .help("restore the previous release; NodePools cannot run a newer minor than their HostedCluster either")
            .object(hc.id.to_string()),
        );
    }
}
