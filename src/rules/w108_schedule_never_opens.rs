//! W108: A policy's schedule permits no change within the next 1000 days.
//!
//! Found while scheduling (see `crate::schedule`), which needs `--now`; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "W108",
    name: "schedule-never-opens",
    severity: Severity::Error,
    summary: "A policy's schedule permits no change within the next 1000 days",
    check,
};

/// Findings come from `schedule::apply` (they depend on `--now`); nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
