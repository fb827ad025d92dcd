//! S113: a MachineSet that boots nodes for a pool on a non-default OS stream lacks the osstream label.
//!
//! The MCO forecast model (`forecast/mco/streams.rs`) emits these findings while it models the cluster; this file registers the code, its
//! severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "S113",
    name: "machineset-stream-label",
    severity: Severity::Warning,
    summary: "A MachineSet that boots nodes for a pool on a non-default OS stream lacks the osstream label",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
