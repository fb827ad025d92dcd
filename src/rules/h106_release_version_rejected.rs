//! H106: the NodePool controller rejects the NodePool's release version (newer minor than the HostedCluster, y-stream downgrade, unsupported).
//!
//! The HyperShift forecast model (`forecast/hypershift`) emits these findings while it models the
//! NodePool controller; this file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "H106",
    name: "release-version-rejected",
    severity: Severity::Error,
    summary: "The NodePool controller rejects the NodePool's release version (newer minor than the HostedCluster, y-stream downgrade, unsupported)",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
