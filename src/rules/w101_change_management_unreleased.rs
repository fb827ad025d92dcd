//! W101: The repository uses change-management kinds or stanzas, an API no OpenShift release serves.
//!
//! Found while scheduling (see `crate::schedule`), which needs `--now`; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "W101",
    name: "change-management-unreleased",
    severity: Severity::Info,
    summary:
        "The repository uses change-management kinds or stanzas, an API no OpenShift release serves",
    check,
};

/// Findings come from `schedule::apply` (they depend on `--now`); nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
