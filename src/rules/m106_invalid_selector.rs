//! M106: a pool or generator label selector is invalid, so it selects nothing.
//!
//! Produced by the MCO forecast model (`forecast/mco`) while it renders pools; the rule entry
//! documents the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "M106",
    name: "invalid-label-selector",
    severity: Severity::Error,
    summary: "A pool or generator label selector is invalid, so it selects nothing",
    check,
};

/// Findings come from the forecast stage (see `forecast::mco`).
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
