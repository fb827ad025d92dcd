//! M107: a pool's machineConfigSelector is rejected by admission, or empty so the pool is not rendered.
//!
//! Produced by the MCO forecast model (`forecast/mco`) while it renders pools; the rule entry
//! documents the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "M107",
    name: "pool-machine-config-selector",
    severity: Severity::Error,
    summary: "A pool's machineConfigSelector is rejected by admission, or empty so the pool is not rendered",
    check,
};

/// Findings come from the forecast stage (see `forecast::mco`).
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
