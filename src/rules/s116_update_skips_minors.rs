//! S116: a ClusterVersion, HostedCluster or NodePool upgrade crosses more than one minor at once.

use semver::Version;

use super::revisions::{at, pairs, text};
use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::forecast::hypershift::version::{as_v4_minor, Release};
use crate::inventory::Object;

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "S116",
    name: "update-skips-minors",
    severity: Severity::Warning,
    summary: "An upgrade crosses more than one minor at once (ClusterVersion, HostedCluster or NodePool release)",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

/// How many minors `from` → `to` crosses (5.y counts as 4.(23+y)).
pub(crate) fn minors(from: &Version, to: &Version) -> u64 {
    as_v4_minor(to).1.saturating_sub(as_v4_minor(from).1)
}

fn release(o: &Object) -> Option<Version> {
    Release::from_pullspec(text(o, "/spec/release/image"))
        .version()
        .cloned()
}

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (b, cv) in pairs(ctx.base, ctx.head, "config.openshift.io", "ClusterVersion") {
        let parse = |o| text(o, "/spec/desiredUpdate/version").and_then(|v| Version::parse(v).ok());
        let (Some(from), Some(to)) = (b.and_then(parse), parse(cv)) else {
            continue;
        };
        let n = minors(&from, &to);
        if n > 1 {
            out.push(
                Diagnostic::new(
                    &CODE,
                    format!("ClusterVersion {} jumps {n} minors at once ({from} → {to}): the cluster-version operator updates one minor at a time", cv.id.name),
                    at(cv, "/spec/desiredUpdate/version"),
                )
                .label("more than one minor")
                .help("update one minor at a time; between EUS releases (e.g. 4.16 → 4.18), pause the worker pools, update the control plane through the intermediate minor, then unpause the workers so they reboot once")
                .object(cv.id.to_string()),
            );
        }
    }
    for kind in ["HostedCluster", "NodePool"] {
        for (b, o) in pairs(ctx.base, ctx.head, "hypershift.openshift.io", kind) {
            let (Some(from), Some(to)) = (b.and_then(release), release(o)) else {
                continue;
            };
            let n = minors(&from, &to);
            if n > 1 {
                out.push(
                    Diagnostic::new(
                        &CODE,
                        format!(
                            "{kind} {} jumps {n} minors at once ({from} → {to})",
                            o.id.name
                        ),
                        at(o, "/spec/release/image"),
                    )
                    .label("more than one minor")
                    .help(
                        "upgrade one minor at a time: the HostedCluster first, then its NodePools",
                    )
                    .object(o.id.to_string()),
                );
            }
        }
    }
}
