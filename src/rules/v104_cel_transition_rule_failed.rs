//! V104: a CEL transition rule (oldSelf) rejects the change from the base revision.
//!
//! Produced by the validation stage (`crate::validate`), which needs the compiled schemas; this
//! file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "V104",
    name: "cel-transition-rule-failed",
    severity: Severity::Error,
    summary: "A CEL transition rule (oldSelf) rejects the change from the base revision",
    check,
};

fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
