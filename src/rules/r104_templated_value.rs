//! R104: a changed value is a placeholder filled in at deploy time, so it cannot be checked.

use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::diff::ChangeKind;
use crate::placeholder::placeholder;

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "R104",
    name: "templated-value",
    severity: Severity::Info,
    summary: "A changed value is a placeholder (vault plugin, Go/Helm or ACM hub template) that cannot be checked",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for change in ctx
        .diff
        .changes
        .iter()
        .filter(|c| c.kind == ChangeKind::Changed)
    {
        for f in &change.fields {
            let Some(location) = f.head.clone() else {
                continue;
            };
            let templated = [&f.after, &f.before]
                .into_iter()
                .flatten()
                .find_map(|v| placeholder(v));
            let Some(found) = templated else {
                continue;
            };
            out.push(
                Diagnostic::new(
                    &CODE,
                    format!(
                        "cannot check: templated value ({found}) at {}; the change is treated as a real change",
                        f.path
                    ),
                    location,
                )
                .label("filled in at deploy time")
                .help("render the manifests with their values and compare the rendered trees with --base-dir to check the value")
                .object(change.id.to_string()),
            );
        }
    }
}
