//! S101: a MachineConfig CRI-O drop-in in a RHEL 10 NodePool's config makes runc the default runtime, which RHEL 10 lacks.
//!
//! The HyperShift forecast model (`forecast/hypershift/os_stream.rs`) emits these findings while it models the cluster; this file registers the code, its
//! severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "S101",
    name: "nodepool-runc-dropin",
    severity: Severity::Error,
    summary: "A MachineConfig CRI-O drop-in in a RHEL 10 NodePool's config makes runc the default runtime, which RHEL 10 lacks",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
