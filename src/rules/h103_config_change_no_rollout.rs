//! H103: a ConfigMap used by NodePools changed, but not in a way the NodePool controller hashes: no rollout.
//!
//! The HyperShift forecast model (`forecast/hypershift`) emits these findings while it models the
//! NodePool controller; this file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "H103",
    name: "config-change-no-rollout",
    severity: Severity::Info,
    summary: "A ConfigMap used by NodePools changed, but not in a way the NodePool controller hashes: no rollout",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
