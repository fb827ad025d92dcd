//! S112: an upgrade moves to a minor whose RHEL differs from the recorded boot image version.

use semver::Version;

use super::revisions::{at, pairs, text};
use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::forecast::streams::{rhel_of_ocp, rhel_of_rhcos};
use crate::inventory::Object;

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "S112",
    name: "recorded-boot-image-stale",
    severity: Severity::Warning,
    summary: "ClusterVersion moves to a minor on another RHEL minor than the recorded boot image: update the recorded version",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

fn version(o: &Object) -> Option<Version> {
    text(o, "/spec/desiredUpdate/version").and_then(|v| Version::parse(v).ok())
}

/// The MachineConfiguration of the ClusterVersion's cluster (see
/// [`speaking_for`](crate::inventory::clusters::speaking_for)): never another cluster's.
fn machine_configuration<'a>(
    ctx: &Context<'a>,
    roots: &std::collections::BTreeSet<String>,
    cv: &Object,
) -> Option<&'a Object> {
    let all: Vec<&Object> = ctx
        .head
        .objects
        .iter()
        .filter(|m| m.id.group == "operator.openshift.io" && m.id.kind == "MachineConfiguration")
        .map(|m| &**m)
        .collect();
    crate::inventory::clusters::speaking_for(roots, ctx.cluster_roots, cv, &all)
}

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let roots = std::sync::OnceLock::new();
    for (b, cv) in pairs(ctx.base, ctx.head, "config.openshift.io", "ClusterVersion") {
        let (Some(from), Some(to)) = (b.and_then(version), version(cv)) else {
            continue;
        };
        if (from.major, from.minor) == (to.major, to.minor) {
            continue;
        }
        let Some(target) = rhel_of_ocp(&to) else {
            continue;
        };
        let roots = roots.get_or_init(|| {
            crate::inventory::clusters::roots(ctx.base, ctx.head, ctx.cluster_roots)
        });
        let Some(mc) = machine_configuration(ctx, roots, cv) else {
            continue;
        };
        let block = "/spec/bootImageSkewEnforcement/manual";
        let (field, recorded) = match (
            text(mc, &format!("{block}/rhcosVersion")),
            text(mc, &format!("{block}/ocpVersion")),
        ) {
            (Some(r), _) => ("rhcosVersion", rhel_of_rhcos(r)),
            (None, Some(o)) => (
                "ocpVersion",
                Version::parse(o).ok().as_ref().and_then(rhel_of_ocp),
            ),
            _ => continue,
        };
        let Some(recorded) = recorded else { continue };
        if recorded == target {
            continue;
        }
        out.push(
            Diagnostic::new(
                &CODE,
                format!(
                    "the recorded boot image (RHEL {}.{}) falls behind: ClusterVersion moves {from} → {to}, which ships RHEL {}.{}",
                    recorded.0, recorded.1, target.0, target.1
                ),
                at(mc, &format!("{block}/{field}")),
            )
            .label("recorded boot image version")
            .related(at(cv, "/spec/desiredUpdate/version"), "the upgrade")
            .help("after updating the boot images of the MachineSets, record the new boot image version here")
            .note("the skew limit follows the payload's RHEL minor: an old recorded version blocks a later minor upgrade")
            .object(mc.id.to_string()),
        );
    }
}
