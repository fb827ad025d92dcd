//! Y007: a manifest-named file with NUL bytes is skipped.

use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Location, Severity};
use crate::parse::FileStatus;

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "Y007",
    name: "binary-file",
    severity: Severity::Warning,
    summary: "A .yaml/.yml/.json file contains NUL bytes and is not checked",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for file in ctx.head_files {
        if file.parsed.status == FileStatus::Binary {
            out.push(
                Diagnostic::new(&CODE, "binary file skipped: it contains NUL bytes", Location::head_file(&file.path))
                    .help("if this is an encrypted or binary artefact, rename it; if it is a manifest, save it as UTF-8 text"),
            );
        }
    }
}
