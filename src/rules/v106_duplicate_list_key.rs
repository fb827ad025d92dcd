//! V106: two items of a listType map/set list have the same key.
//!
//! Produced by the validation stage (`crate::validate`), which needs the compiled schemas; this
//! file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "V106",
    name: "duplicate-list-key",
    severity: Severity::Error,
    summary: "Two items of a listType map/set list have the same key",
    check,
};

fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
