//! S104: a release upgrade moves an unpinned NodePool to another OS major (RHEL 9 → RHEL 10).
//!
//! The HyperShift forecast model (`forecast/hypershift/os_stream.rs`) emits these findings while it models the cluster; this file registers the code, its
//! severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "S104",
    name: "release-changes-os-stream",
    severity: Severity::Warning,
    summary: "A release upgrade moves an unpinned NodePool to another OS major (RHEL 9 → RHEL 10)",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
