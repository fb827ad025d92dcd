//! M109: a changed MachineConfig that no MachineConfigPool of its cluster selects.
//!
//! Produced by the MCO forecast model (`forecast/mco`) while it renders pools; the rule entry
//! documents the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "M109",
    name: "config-selects-no-pool",
    severity: Severity::Warning,
    summary: "A changed MachineConfig is selected by no MachineConfigPool in the repository, so its rollout cannot be forecast",
    check,
};

/// Findings come from the forecast stage (see `forecast::mco`).
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
