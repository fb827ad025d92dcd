//! S106: a MachineConfigPool (or OSImageStream/cluster) names an OS stream that is invalid or not available in the cluster.
//!
//! The MCO forecast model (`forecast/mco/streams.rs`) emits these findings while it models the cluster; this file registers the code, its
//! severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "S106",
    name: "pool-stream-unavailable",
    severity: Severity::Error,
    summary: "A MachineConfigPool (or OSImageStream/cluster) names an OS stream that is invalid or not available in the cluster",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
