//! C104: A suppression comment that suppresses no finding.
//!
//! Produced by the policy stage (src/policy/suppress.rs), which runs after the rules; this entry registers the code,
//! its default severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "C104",
    name: "unused-suppression",
    severity: Severity::Warning,
    summary: "A suppression comment that suppresses no finding",
    check,
};

fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
