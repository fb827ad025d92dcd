//! M108: a KubeletConfig or ContainerRuntimeConfig selects no MachineConfigPool of its cluster.
//!
//! Produced by the MCO forecast model (`forecast/mco`) while it renders pools; the rule entry
//! documents the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "M108",
    name: "generator-selects-no-pool",
    severity: Severity::Warning,
    summary:
        "A KubeletConfig or ContainerRuntimeConfig selects no MachineConfigPool of its cluster",
    check,
};

/// Findings come from the forecast stage (see `forecast::mco`).
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
