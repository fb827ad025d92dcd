//! H105: a NodePool release changed to or from a pullspec whose version cannot be read; a rollout is predicted.
//!
//! The HyperShift forecast model (`forecast/hypershift`) emits these findings while it models the
//! NodePool controller; this file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "H105",
    name: "release-version-unreadable",
    severity: Severity::Warning,
    summary: "A NodePool release changed to or from a pullspec whose version cannot be read; a rollout is predicted",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
