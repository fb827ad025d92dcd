//! W106: A window's duration is longer than its recurrence period, so windows overlap.
//!
//! Found while scheduling (see `crate::schedule`), which needs `--now`; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "W106",
    name: "overlapping-windows",
    severity: Severity::Warning,
    summary: "A window's duration is longer than its recurrence period, so windows overlap",
    check,
};

/// Findings come from `schedule::apply` (they depend on `--now`); nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
