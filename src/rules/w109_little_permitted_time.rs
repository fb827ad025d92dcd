//! W109: A schedule permits less than the minimum time (default 48 h) in some 32-day span.
//!
//! Found while scheduling (see `crate::schedule`), which needs `--now`; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "W109",
    name: "little-permitted-time",
    severity: Severity::Warning,
    summary: "A schedule permits less than the minimum time (default 48 h) in some 32-day span",
    check,
};

/// Findings come from `schedule::apply` (they depend on `--now`); nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
