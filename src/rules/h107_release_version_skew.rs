//! H107: a NodePool's release is newer than its HostedCluster's or too many minors behind it.
//!
//! The HyperShift forecast model (`forecast/hypershift`) emits these findings while it models the
//! NodePool controller; this file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "H107",
    name: "release-version-skew",
    severity: Severity::Warning,
    summary: "A NodePool's release is newer than its HostedCluster's or too many minors behind it",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
