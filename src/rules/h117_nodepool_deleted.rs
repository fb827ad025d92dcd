//! H117: a NodePool is deleted: all its nodes are drained and removed.
//!
//! The HyperShift forecast model (`forecast/hypershift`) emits these findings while it models the
//! NodePool controller; this file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "H117",
    name: "nodepool-deleted",
    severity: Severity::Warning,
    summary: "A NodePool is deleted: all its nodes are drained and removed",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
