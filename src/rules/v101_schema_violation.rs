//! V101: a value the CRD's structural schema rejects (type, enum, pattern, bounds, required).
//!
//! Produced by the validation stage (`crate::validate`), which needs the compiled schemas; this
//! file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "V101",
    name: "schema-violation",
    severity: Severity::Error,
    summary: "A value the CRD's structural schema rejects (type, enum, pattern, bounds, required)",
    check,
};

fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
