//! W103: An RRULE is valid but relies on defaults or parts a controller may read differently.
//!
//! Found while scheduling (see `crate::schedule`), which needs `--now`; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "W103",
    name: "rrule-portability",
    severity: Severity::Warning,
    summary: "An RRULE is valid but relies on defaults or parts a controller may read differently",
    check,
};

/// Findings come from `schedule::apply` (they depend on `--now`); nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
