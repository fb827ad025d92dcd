//! Y001: the file (or an embedded payload) is not valid YAML.

use nodecast_yaml::ProblemKind;

use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Location, Severity};

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "Y001",
    name: "yaml-syntax",
    severity: Severity::Error,
    summary: "The file, or YAML embedded in a ConfigMap, is not valid YAML",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for p in ctx.head_problems() {
        if p.problem.kind != ProblemKind::Syntax {
            continue;
        }
        let message = match p.embedded_in {
            Some(key) => format!(
                "invalid YAML in the ConfigMap's `data.{key}`: {}",
                p.problem.message
            ),
            None => format!("invalid YAML: {}", p.problem.message),
        };
        out.push(
            Diagnostic::new(&CODE, message, Location::head(&p.file.path, p.problem.span))
                .label("the parser stopped here")
                .help(
                    "fix the syntax here; documents after this point in the file are not checked",
                ),
        );
    }
}
