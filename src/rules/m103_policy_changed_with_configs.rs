//! M103: the node disruption policy changes in the same change as MachineConfigs; the stronger action of the old and new policy is forecast.
//!
//! Produced by the MCO forecast model (`forecast/mco`) while it renders pools; the rule entry
//! documents the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "M103",
    name: "policy-changed-with-configs",
    severity: Severity::Info,
    summary: "The node disruption policy changes in the same change as MachineConfigs; the stronger action of the old and new policy is forecast",
    check,
};

/// Findings come from the forecast stage (see `forecast::mco`).
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
