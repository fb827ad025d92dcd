//! Y009: a file could not be read.

use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Location, Severity};
use crate::parse::FileStatus;

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "Y009",
    name: "unreadable-file",
    severity: Severity::Warning,
    summary:
        "A manifest file could not be read (permissions, missing Git object) and is not checked",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for file in ctx.head_files {
        if let FileStatus::Unreadable { reason } = &file.parsed.status {
            let help = if reason.starts_with("symbolic link")
                || reason.contains("levels of symbolic links")
            {
                "point the link at a file or folder inside the repository, or remove it"
            } else {
                "make the file readable (or fetch the missing Git objects) and run again"
            };
            out.push(
                Diagnostic::new(
                    &CODE,
                    format!("file not checked: {reason}"),
                    Location::head_file(&file.path),
                )
                .help(help),
            );
        }
    }
}
