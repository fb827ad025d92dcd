//! W118: With --enforce-windows: a disruptive change would start outside its permitted window.
//!
//! Found while scheduling (see `crate::schedule`), which needs `--now`; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "W118",
    name: "rollout-outside-window",
    severity: Severity::Error,
    summary: "With --enforce-windows: a disruptive change would start outside its permitted window",
    check,
};

/// Findings come from `schedule::apply` (they depend on `--now`); nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
