//! M104: a disks/filesystems/raid change accepted by irreconcilableValidationOverrides applies to new nodes only.
//!
//! Produced by the MCO forecast model (`forecast/mco`) while it renders pools; the rule entry
//! documents the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "M104",
    name: "storage-override-new-nodes-only",
    severity: Severity::Info,
    summary: "A disks/filesystems/raid change accepted by irreconcilableValidationOverrides applies to new nodes only",
    check,
};

/// Findings come from the forecast stage (see `forecast::mco`).
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
