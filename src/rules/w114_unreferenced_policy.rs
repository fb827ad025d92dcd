//! W114: A change-management policy is referenced by no stanza.
//!
//! Found while scheduling (see `crate::schedule`), which needs `--now`; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "W114",
    name: "unreferenced-policy",
    severity: Severity::Info,
    summary: "A change-management policy is referenced by no stanza",
    check,
};

/// Findings come from `schedule::apply` (they depend on `--now`); nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
