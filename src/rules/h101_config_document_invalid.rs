//! H101: a NodePool's spec.config or spec.tuningConfig ConfigMap holds a document the NodePool controller refuses, so the NodePool rolls out nothing.
//!
//! The HyperShift forecast model (`forecast/hypershift`) emits these findings while it models the
//! NodePool controller; this file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "H101",
    name: "config-document-invalid",
    severity: Severity::Error,
    summary: "A NodePool's spec.config or spec.tuningConfig ConfigMap holds a document the NodePool controller refuses, so the NodePool rolls out nothing",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
