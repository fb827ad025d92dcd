//! H109: a Replace NodePool's rolling-update settings are invalid, so the controller updates no machines.
//!
//! The HyperShift forecast model (`forecast/hypershift`) emits these findings while it models the
//! NodePool controller; this file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "H109",
    name: "replace-strategy-invalid",
    severity: Severity::Error,
    summary: "A Replace NodePool's rolling-update settings are invalid, so the controller updates no machines",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
