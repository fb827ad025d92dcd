//! S110: the recorded boot image version is below the MCO's skew limit, which blocks the next minor upgrade.

use semver::Version;

use super::revisions::{at, pairs, text};
use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::forecast::streams::{rhel_of_rhcos, SKEW_LIMIT_OCP, SKEW_LIMIT_RHEL};

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "S110",
    name: "boot-image-skew-limit",
    severity: Severity::Warning,
    summary: "The recorded boot image is older than the skew limit (OCP 4.13.0 / RHEL 9.2): the MCO blocks the next minor upgrade",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

/// Why a recorded version is below the limit, if it is.
pub(crate) fn below_limit(ocp: Option<&str>, rhcos: Option<&str>) -> Option<String> {
    if let Some(v) = ocp.and_then(|v| Version::parse(v).ok()) {
        if (v.major, v.minor, v.patch) < SKEW_LIMIT_OCP {
            return Some(format!(
                "boot image OCP version {v} is older than {}.{}.{}",
                SKEW_LIMIT_OCP.0, SKEW_LIMIT_OCP.1, SKEW_LIMIT_OCP.2
            ));
        }
    }
    if let Some((raw, rhel)) = rhcos.and_then(|v| rhel_of_rhcos(v).map(|r| (v, r))) {
        if rhel < SKEW_LIMIT_RHEL {
            return Some(format!(
                "boot image RHCOS {raw} (RHEL {}.{}) is older than RHEL {}.{}",
                rhel.0, rhel.1, SKEW_LIMIT_RHEL.0, SKEW_LIMIT_RHEL.1
            ));
        }
    }
    None
}

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (_, o) in pairs(
        ctx.base,
        ctx.head,
        "operator.openshift.io",
        "MachineConfiguration",
    ) {
        for block in [
            "/spec/bootImageSkewEnforcement/manual",
            "/status/bootImageSkewEnforcementStatus/manual",
            "/status/bootImageSkewEnforcementStatus/automatic",
        ] {
            let ocp = text(o, &format!("{block}/ocpVersion"));
            let rhcos = text(o, &format!("{block}/rhcosVersion"));
            let Some(why) = below_limit(ocp, rhcos) else {
                continue;
            };
            let field = if ocp.is_some() {
                "ocpVersion"
            } else {
                "rhcosVersion"
            };
            out.push(
                Diagnostic::new(
                    &CODE,
                    format!("the MCO will set Upgradeable=False and block the next minor upgrade: {why}"),
                    at(o, &format!("{block}/{field}")),
                )
                .label("below the boot image skew limit")
                .help("update the boot images of the MachineSets (or the cloud templates used to scale), then record the new version")
                .note("in Manual and Automatic mode the MCO compares the recorded boot image with OCP 4.13.0 / RHEL 9.2")
                .object(o.id.to_string()),
            );
        }
    }
}
