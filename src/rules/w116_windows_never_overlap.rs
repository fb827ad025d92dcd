//! W116: A worker pool's or NodePool's windows never overlap its control plane's windows.
//!
//! Found while scheduling (see `crate::schedule`), which needs `--now`; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "W116",
    name: "windows-never-overlap",
    severity: Severity::Warning,
    summary: "A worker pool's or NodePool's windows never overlap its control plane's windows",
    check,
};

/// Findings come from `schedule::apply` (they depend on `--now`); nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
