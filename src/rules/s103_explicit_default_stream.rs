//! S103: a NodePool now pins the OS stream its release uses anyway: no rollout.
//!
//! The HyperShift forecast model (`forecast/hypershift/os_stream.rs`) emits these findings while it models the cluster; this file registers the code, its
//! severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "S103",
    name: "explicit-default-stream",
    severity: Severity::Info,
    summary: "A NodePool now pins the OS stream its release uses anyway: no rollout",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
