//! H114: a HostedCluster release or control-plane operator image change may roll NodePools through generated configuration.
//!
//! The HyperShift forecast model (`forecast/hypershift`) emits these findings while it models the
//! NodePool controller; this file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "H114",
    name: "generated-config-may-roll",
    severity: Severity::Warning,
    summary: "A HostedCluster release or control-plane operator image change may roll NodePools through generated configuration",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
