//! W102: A Schema A `permit.recurrence` RRULE string is invalid (RFC 5545 or the proposal's constraints).
//!
//! Found while scheduling (see `crate::schedule`), which needs `--now`; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "W102",
    name: "invalid-rrule",
    severity: Severity::Error,
    summary: "A Schema A `permit.recurrence` RRULE string is invalid (RFC 5545 or the proposal's constraints)",
    check,
};

/// Findings come from `schedule::apply` (they depend on `--now`); nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
