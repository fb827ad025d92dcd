//! H108: a NodePool's osImageStream is invalid for its release or runtime, or changes in a way the API server rejects.
//!
//! The HyperShift forecast model (`forecast/hypershift`) emits these findings while it models the
//! NodePool controller; this file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "H108",
    name: "os-image-stream-invalid",
    severity: Severity::Error,
    summary: "A NodePool's osImageStream is invalid for its release or runtime, or changes in a way the API server rejects",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
