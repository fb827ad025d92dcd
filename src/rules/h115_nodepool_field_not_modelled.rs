//! H115: a NodePool field changed that nodecast does not model; a rollout is assumed.
//!
//! The HyperShift forecast model (`forecast/hypershift`) emits these findings while it models the
//! NodePool controller; this file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "H115",
    name: "nodepool-field-not-modelled",
    severity: Severity::Warning,
    summary: "A NodePool field changed that nodecast does not model; a rollout is assumed",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
