//! V102: a field the kind's schema does not declare (dropped by the API server; rejected with strict field validation).
//!
//! Produced by the validation stage (`crate::validate`), which needs the compiled schemas; this
//! file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "V102",
    name: "unknown-field",
    severity: Severity::Warning,
    summary: "A field the kind's schema does not declare (dropped by the API server; rejected with strict field validation)",
    check,
};

fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
