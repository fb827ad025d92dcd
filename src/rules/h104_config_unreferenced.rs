//! H104: a ConfigMap holding NodePool configuration changed, but no NodePool references it.
//!
//! The HyperShift forecast model (`forecast/hypershift`) emits these findings while it models the
//! NodePool controller; this file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "H104",
    name: "config-unreferenced",
    severity: Severity::Info,
    summary: "A ConfigMap holding NodePool configuration changed, but no NodePool references it",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
