//! Y010: a changed file cannot be read, so its node impact is unknown: assume a rollout.
//!
//! The forecast (`forecast/unreadable`) emits these findings with the pools the file could reach;
//! this file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "Y010",
    name: "unreadable-change",
    severity: Severity::Error,
    summary: "A changed file cannot be read (binary, too large, not UTF-8, templated, broken YAML, corrupt, a link out of the repository): its node impact is unknown",
    check,
};

/// Findings come from the forecast stage, which knows the pools.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
