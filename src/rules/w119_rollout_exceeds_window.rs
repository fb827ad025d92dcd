//! W119: A multi-wave rollout is expected to take longer than the window it starts in.
//!
//! Found while scheduling (see `crate::schedule`), which needs `--now`; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "W119",
    name: "rollout-exceeds-window",
    severity: Severity::Warning,
    summary: "A multi-wave rollout is expected to take longer than the window it starts in",
    check,
};

/// Findings come from `schedule::apply` (they depend on `--now`); nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
