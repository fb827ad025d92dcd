//! Y006: a file over the size limit is skipped.

use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Location, Severity};
use crate::parse::FileStatus;

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "Y006",
    name: "file-too-large",
    severity: Severity::Warning,
    summary: "The file is larger than the size limit and is not checked",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for file in ctx.head_files {
        if let FileStatus::TooLarge { size } = file.parsed.status {
            out.push(
                Diagnostic::new(
                    &CODE,
                    format!("file skipped: {size} bytes is over the size limit"),
                    Location::head_file(&file.path),
                )
                .help("raise the limit with --max-file-size BYTES if this really is a manifest, or split the file"),
            );
        }
    }
}
