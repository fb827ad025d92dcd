//! H112: a NodePool's spec.pausedUntil is not a value the controller can read, so it does not pause.
//!
//! The HyperShift forecast model (`forecast/hypershift`) emits these findings while it models the
//! NodePool controller; this file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "H112",
    name: "paused-until-invalid",
    severity: Severity::Warning,
    summary:
        "A NodePool's spec.pausedUntil is not a value the controller can read, so it does not pause",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
