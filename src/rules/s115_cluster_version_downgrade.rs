//! S115: `ClusterVersion.spec.desiredUpdate` moves to an older version.

use semver::Version;

use super::revisions::{at, pairs, text};
use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "S115",
    name: "cluster-version-downgrade",
    severity: Severity::Error,
    summary: "ClusterVersion desiredUpdate moves to an older version: a minor downgrade is unsupported, a z-stream rollback may fail",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (b, cv) in pairs(ctx.base, ctx.head, "config.openshift.io", "ClusterVersion") {
        let parse = |o| text(o, "/spec/desiredUpdate/version").and_then(|v| Version::parse(v).ok());
        let (Some(from), Some(to)) = (b.and_then(parse), parse(cv)) else {
            continue;
        };
        if to >= from {
            continue;
        }
        let minor = (to.major, to.minor) < (from.major, from.minor);
        let d = Diagnostic::new(
            &CODE,
            if minor {
                format!("ClusterVersion {} cannot go back {from} → {to}: the cluster-version operator rolls back only within the current minor", cv.id.name)
            } else {
                format!("ClusterVersion {} rolls back {from} → {to}: rollbacks within a minor are attempted, but not all succeed", cv.id.name)
            },
            at(cv, "/spec/desiredUpdate/version"),
        )
        .label("older than the current desired version")
        .help("restore the previous version; to recover from a bad update, follow the support process instead of downgrading")
        .object(cv.id.to_string());
        out.push(if minor {
            d
        } else {
            d.severity(Severity::Warning)
        });
    }
}
