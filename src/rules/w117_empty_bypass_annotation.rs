//! W117: The bypass-change-management annotation on a MachineConfig is empty and has no effect.
//!
//! Found while scheduling (see `crate::schedule`), which needs `--now`; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "W117",
    name: "empty-bypass-annotation",
    severity: Severity::Warning,
    summary:
        "The bypass-change-management annotation on a MachineConfig is empty and has no effect",
    check,
};

/// Findings come from `schedule::apply` (they depend on `--now`); nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
