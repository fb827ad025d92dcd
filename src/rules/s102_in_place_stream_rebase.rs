//! S102: an InPlace NodePool's OS stream change rebases its existing nodes across RHEL majors with no way back.
//!
//! The HyperShift forecast model (`forecast/hypershift/os_stream.rs`) emits these findings while it models the cluster; this file registers the code, its
//! severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "S102",
    name: "in-place-stream-rebase",
    severity: Severity::Warning,
    summary: "An InPlace NodePool's OS stream change rebases its existing nodes across RHEL majors with no way back",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
