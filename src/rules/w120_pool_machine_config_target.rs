//! W120: A MachineConfigPool's `spec.machineConfig` target (change-management revisions) is invalid.
//!
//! Found while scheduling (see `crate::schedule`), which needs `--now`; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "W120",
    name: "pool-machine-config-target",
    severity: Severity::Error,
    summary: "A MachineConfigPool's `spec.machineConfig` (name, validation, validAfter) is invalid",
    check,
};

/// Findings come from `schedule::apply` (they depend on `--now`); nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
