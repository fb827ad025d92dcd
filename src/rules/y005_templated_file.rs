//! Y005: a Go/Helm-templated file is skipped.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Location, Severity};
use crate::parse::FileStatus;

/// The rule.
pub static RULE: Rule = Rule {
    code: "Y005",
    name: "templated-file",
    severity: Severity::Info,
    summary: "The file holds Go/Helm template actions ({{ … }}) and is skipped until rendered",
    check,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for file in ctx.head_files {
        if let FileStatus::Templated { at } = file.parsed.status {
            out.push(
                Diagnostic::new(
                    &RULE,
                    "templated file skipped: it is a template, not a manifest yet",
                    Location::head(&file.path, at),
                )
                .label("template action")
                .help("render it (`helm template`, `kustomize build`) and check the output with `nodecast check --base-dir`, or exclude the path"),
            );
        }
    }
}
