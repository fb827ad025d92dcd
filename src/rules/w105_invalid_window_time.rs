//! W105: A window's `startTime` or `duration` is malformed or not positive.
//!
//! Found while scheduling (see `crate::schedule`), which needs `--now`; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "W105",
    name: "invalid-window-time",
    severity: Severity::Error,
    summary: "A window's `startTime` or `duration` is malformed or not positive",
    check,
};

/// Findings come from `schedule::apply` (they depend on `--now`); nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
