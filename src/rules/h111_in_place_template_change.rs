//! H111: a machine-template change on an InPlace NodePool reaches only machines created later.
//!
//! The HyperShift forecast model (`forecast/hypershift`) emits these findings while it models the
//! NodePool controller; this file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "H111",
    name: "in-place-template-change",
    severity: Severity::Info,
    summary: "A machine-template change on an InPlace NodePool reaches only machines created later",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
