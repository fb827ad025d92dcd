//! C103: A # nodecast: ignore[...] comment gives no reason or is malformed.
//!
//! Produced by the policy stage (src/policy/suppress.rs), which runs after the rules; this entry registers the code,
//! its default severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "C103",
    name: "incomplete-suppression",
    severity: Severity::Warning,
    summary: "A `# nodecast: ignore[...]` comment gives no reason or is malformed",
    check,
};

fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
