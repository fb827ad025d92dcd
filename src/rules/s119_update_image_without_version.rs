//! S119: `ClusterVersion.spec.desiredUpdate.image` without a version.

use super::revisions::{at, pairs, text};
use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "S119",
    name: "update-image-without-version",
    severity: Severity::Info,
    summary: "ClusterVersion desiredUpdate names an image without a version: the version cannot be checked before the update",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (_, cv) in pairs(ctx.base, ctx.head, "config.openshift.io", "ClusterVersion") {
        let image = text(cv, "/spec/desiredUpdate/image").filter(|i| !i.is_empty());
        let version = text(cv, "/spec/desiredUpdate/version").filter(|v| !v.is_empty());
        if image.is_none()
            || version.is_some()
            || text(cv, "/spec/desiredUpdate/architecture").is_some_and(|a| !a.is_empty())
        {
            continue;
        }
        out.push(
            Diagnostic::new(
                &CODE,
                format!("ClusterVersion {} updates to an image without a version: nodecast cannot check the version transition", cv.id.name),
                at(cv, "/spec/desiredUpdate/image"),
            )
            .label("no desiredUpdate.version")
            .help("add desiredUpdate.version matching the image, so downgrades and skipped minors are caught")
            .object(cv.id.to_string()),
        );
    }
}
