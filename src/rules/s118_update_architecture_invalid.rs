//! S118: `ClusterVersion.spec.desiredUpdate.architecture` is combined with an image, lacks a version, or is unknown.

use super::revisions::{at, pairs, text};
use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "S118",
    name: "update-architecture-invalid",
    severity: Severity::Error,
    summary: "ClusterVersion desiredUpdate.architecture is set with an image, without a version, or to a value other than Multi",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (_, cv) in pairs(ctx.base, ctx.head, "config.openshift.io", "ClusterVersion") {
        let Some(arch) = text(cv, "/spec/desiredUpdate/architecture").filter(|a| !a.is_empty())
        else {
            continue;
        };
        let image = text(cv, "/spec/desiredUpdate/image").filter(|i| !i.is_empty());
        let version = text(cv, "/spec/desiredUpdate/version").filter(|v| !v.is_empty());
        let problem = if arch != "Multi" {
            Some(format!("architecture `{arch}` is not Multi (or empty)"))
        } else if image.is_some() {
            Some("cannot set both Architecture and Image".to_string())
        } else if version.is_none() {
            Some("Version must be set if Architecture is set".to_string())
        } else {
            None
        };
        if let Some(problem) = problem {
            out.push(
                Diagnostic::new(
                    &CODE,
                    format!("ClusterVersion {} is rejected: {problem}", cv.id.name),
                    at(cv, "/spec/desiredUpdate/architecture"),
                )
                .label("invalid architecture update")
                .help(
                    "to migrate to multi-arch, set architecture: Multi with a version and no image",
                )
                .object(cv.id.to_string()),
            );
        }
    }
}
