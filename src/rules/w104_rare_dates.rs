//! W104: A recurrence selects dates that some months lack (skipped, not moved); an error when no date can ever match.
//!
//! Found while scheduling (see `crate::schedule`), which needs `--now`; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "W104",
    name: "rare-dates",
    severity: Severity::Warning,
    summary: "A recurrence selects dates that some months lack (skipped, not moved); an error when no date can ever match",
    check,
};

/// Findings come from `schedule::apply` (they depend on `--now`); nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
