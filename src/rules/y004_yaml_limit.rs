//! Y004: alias expansion or nesting exceeded the safety limits.

use nodecast_yaml::ProblemKind;

use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Location, Severity};

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "Y004",
    name: "yaml-limit",
    severity: Severity::Error,
    summary: "Alias expansion (billion laughs) or nesting depth exceeds the safety limit; the document is not checked",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for p in ctx.head_problems() {
        if p.problem.kind != ProblemKind::Limit {
            continue;
        }
        out.push(
            Diagnostic::new(
                &CODE,
                format!("{}; this document is not checked", p.problem.message),
                Location::head(&p.file.path, p.problem.span),
            )
            .label("limit reached here")
            .help("write the values out instead of nesting aliases of aliases; the API server refuses such documents too"),
        );
    }
}
