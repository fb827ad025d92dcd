//! M105: a cluster upgrade is requested while the master or arbiter pool is paused.
//!
//! Produced by the MCO forecast model (`forecast/mco`) while it renders pools; the rule entry
//! documents the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "M105",
    name: "upgrade-with-paused-required-pool",
    severity: Severity::Warning,
    summary: "A cluster upgrade is requested while the master or arbiter pool is paused",
    check,
};

/// Findings come from the forecast stage (see `forecast::mco`).
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
