//! M102: a pool whose configuration changes is paused; the changes accumulate and apply together on unpause.
//!
//! Produced by the MCO forecast model (`forecast/mco`) while it renders pools; the rule entry
//! documents the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "M102",
    name: "paused-pool",
    severity: Severity::Info,
    summary: "A pool whose configuration changes is paused; the changes accumulate and apply together on unpause",
    check,
};

/// Findings come from the forecast stage (see `forecast::mco`).
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
