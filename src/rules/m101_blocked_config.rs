//! M101: the Machine Config Operator refuses the new rendered configuration of a pool; nothing rolls until it is fixed.
//!
//! Produced by the MCO forecast model (`forecast/mco`) while it renders pools; the rule entry
//! documents the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "M101",
    name: "blocked-machine-config",
    severity: Severity::Error,
    summary: "The Machine Config Operator refuses the new rendered configuration of a pool; nothing rolls until it is fixed",
    check,
};

/// Findings come from the forecast stage (see `forecast::mco`).
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
