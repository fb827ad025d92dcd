//! W113: A stanza refers to a change-management policy that is not in the repository.
//!
//! Found while scheduling (see `crate::schedule`), which needs `--now`; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "W113",
    name: "unresolved-policy",
    severity: Severity::Error,
    summary: "A stanza refers to a change-management policy that is not in the repository",
    check,
};

/// Findings come from `schedule::apply` (they depend on `--now`); nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
