//! Y008: a file that is not UTF-8 is skipped.

use nodecast_yaml::Span;

use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Location, Severity};
use crate::parse::FileStatus;

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "Y008",
    name: "non-utf8-file",
    severity: Severity::Warning,
    summary: "The file is not valid UTF-8 and is not checked",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for file in ctx.head_files {
        if let Some(encoding) = file.parsed.encoding {
            out.push(
                Diagnostic::new(
                    &CODE,
                    format!("file is {encoding}, not UTF-8: nodecast reads it decoded, Kubernetes tools may not"),
                    Location::head_file(&file.path),
                )
                .help("re-encode it as UTF-8 without a byte order mark (`iconv -f UTF-16 -t UTF-8`)"),
            );
        }
        if let FileStatus::NotUtf8 { at, detail } = &file.parsed.status {
            // No text to frame, but the position is exact: the report prints it without a frame.
            let location = Location::head(
                &file.path,
                Span {
                    start: *at,
                    end: *at,
                },
            );
            out.push(
                Diagnostic::new(&CODE, format!("file is not UTF-8: {detail}"), location)
                    .help("re-encode it as UTF-8 (`iconv -f LATIN1 -t UTF-8`); Kubernetes only reads UTF-8 manifests"),
            );
        }
    }
}
