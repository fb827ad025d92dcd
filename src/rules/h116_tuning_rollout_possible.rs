//! H116: a Tuned without boot-time settings changed: a rollout is possible, not certain.
//!
//! The HyperShift forecast model (`forecast/hypershift`) emits these findings while it models the
//! NodePool controller; this file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "H116",
    name: "tuning-rollout-possible",
    severity: Severity::Info,
    summary: "A Tuned without boot-time settings changed: a rollout is possible, not certain",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
