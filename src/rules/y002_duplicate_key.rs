//! Y002: a mapping repeats a key.

use nodecast_yaml::ProblemKind;

use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Location, Severity};

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "Y002",
    name: "duplicate-key",
    severity: Severity::Error,
    summary: "A mapping repeats a key: strict decoding rejects it, lenient decoding keeps only the last value",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for p in ctx.head_problems() {
        if p.problem.kind != ProblemKind::DuplicateKey {
            continue;
        }
        let key = p.source_text().trim_end_matches(':').trim();
        let mut d = Diagnostic::new(
            &CODE,
            format!("duplicate key `{key}`: the API server rejects it in strict mode, otherwise only this later value is kept"),
            Location::head(&p.file.path, p.problem.span),
        )
        .label("repeated here")
        .help("remove one of the two entries (merge their values if both matter)");
        if let Some(first) = p.problem.other {
            d = d.related(
                Location::head(&p.file.path, first),
                "first defined here; this value is silently dropped",
            );
        }
        out.push(d);
    }
}
