//! H102: a NodePool references a ConfigMap that this change deletes (blocked) or that is not in the repository (content unknown, rollout assumed).
//!
//! The HyperShift forecast model (`forecast/hypershift`) emits these findings while it models the
//! NodePool controller; this file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "H102",
    name: "config-reference-unresolved",
    severity: Severity::Error,
    summary: "A NodePool references a ConfigMap that this change deletes (blocked) or that is not in the repository (content unknown, rollout assumed)",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
