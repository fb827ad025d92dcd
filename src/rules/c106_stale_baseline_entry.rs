//! C106: A baseline entry whose finding no longer occurs.
//!
//! Produced by the policy stage (src/policy/baseline.rs), which runs after the rules; this entry registers the code,
//! its default severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "C106",
    name: "stale-baseline-entry",
    severity: Severity::Info,
    summary: "A baseline entry whose finding no longer occurs",
    check,
};

fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
