//! W115: The master MachineConfigPool's stanza differs from ClusterVersion's and will be overwritten.
//!
//! Found while scheduling (see `crate::schedule`), which needs `--now`; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "W115",
    name: "master-stanza-differs",
    severity: Severity::Warning,
    summary: "The master MachineConfigPool's stanza differs from ClusterVersion's and will be overwritten",
    check,
};

/// Findings come from `schedule::apply` (they depend on `--now`); nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
