//! C101: A key in .nodecast.yaml that nodecast does not know (likely a typo); it is ignored.
//!
//! Produced by the configuration loader (src/config.rs), which runs after the rules; this entry registers the code,
//! its default severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "C101",
    name: "config-unknown-key",
    severity: Severity::Error,
    summary: "A key in .nodecast.yaml that nodecast does not know (likely a typo); it is ignored",
    check,
};

fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
