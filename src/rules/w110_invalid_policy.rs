//! W110: A change-management policy's spec or scope is invalid.
//!
//! Found while scheduling (see `crate::schedule`), which needs `--now`; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "W110",
    name: "invalid-policy",
    severity: Severity::Error,
    summary: "A change-management policy's spec or scope is invalid",
    check,
};

/// Findings come from `schedule::apply` (they depend on `--now`); nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
