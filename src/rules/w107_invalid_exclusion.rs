//! W107: A maintenance exclusion's dates are malformed or empty.
//!
//! Found while scheduling (see `crate::schedule`), which needs `--now`; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "W107",
    name: "invalid-exclusion",
    severity: Severity::Error,
    summary: "A maintenance exclusion's dates are malformed or empty",
    check,
};

/// Findings come from `schedule::apply` (they depend on `--now`); nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
