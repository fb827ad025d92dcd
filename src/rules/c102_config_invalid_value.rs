//! C102: A value in .nodecast.yaml has the wrong type or an unknown rule code, level or glob; it is ignored.
//!
//! Produced by the configuration loader (src/config.rs), which runs after the rules; this entry registers the code,
//! its default severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "C102",
    name: "config-invalid-value",
    severity: Severity::Error,
    summary: "A value in .nodecast.yaml has the wrong type or an unknown rule code, level or glob; it is ignored",
    check,
};

fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
