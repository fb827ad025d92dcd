//! W112: A `disabledUntil`, `pausedUntil`, `permissiveUntil` or `restrictiveUntil` date is in the past.
//!
//! Found while scheduling (see `crate::schedule`), which needs `--now`; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "W112",
    name: "expired-until",
    severity: Severity::Warning,
    summary: "A `disabledUntil`, `pausedUntil`, `permissiveUntil` or `restrictiveUntil` date is in the past",
    check,
};

/// Findings come from `schedule::apply` (they depend on `--now`); nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
