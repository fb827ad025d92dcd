//! Y005: a Go/Helm-templated file is skipped.

use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Location, Severity};
use crate::parse::{FileStatus, UnreadKind};

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "Y005",
    name: "templated-file",
    severity: Severity::Info,
    summary: "The file holds Go/Helm template actions ({{ … }}) and is skipped until rendered",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for file in ctx.head_files {
        if file.parsed.status == FileStatus::Parsed {
            // Templated documents of a file whose other documents are read.
            for part in &file.parsed.unread {
                if let (UnreadKind::Templated, Some(at)) = (part.kind, part.at) {
                    out.push(
                        Diagnostic::new(
                            &CODE,
                            "templated document skipped: it is a template, not a manifest yet (the file's other documents are read)",
                            Location::head(&file.path, at),
                        )
                        .label("template action")
                        .help("render it (`helm template`, `kustomize build`) and check the output with `nodecast check --base-dir`, or exclude the path"),
                    );
                }
            }
        }
        if let FileStatus::Templated { at } = file.parsed.status {
            out.push(
                Diagnostic::new(
                    &CODE,
                    "templated file skipped: it is a template, not a manifest yet",
                    Location::head(&file.path, at),
                )
                .label("template action")
                .help("render it (`helm template`, `kustomize build`) and check the output with `nodecast check --base-dir`, or exclude the path"),
            );
        }
    }
}
