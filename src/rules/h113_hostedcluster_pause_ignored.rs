//! H113: hostedCluster spec.pausedUntil does not pause NodePool rollouts.
//!
//! The HyperShift forecast model (`forecast/hypershift`) emits these findings while it models the
//! NodePool controller; this file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "H113",
    name: "hostedcluster-pause-ignored",
    severity: Severity::Info,
    summary: "HostedCluster spec.pausedUntil does not pause NodePool rollouts",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
