//! S105: a NodePool sets osImageStream, but its HostedCluster's feature set and release do not enable the OSStreams gate.
//!
//! The HyperShift forecast model (`forecast/hypershift/os_stream.rs`) emits these findings while it models the cluster; this file registers the code, its
//! severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "S105",
    name: "stream-needs-feature-gate",
    severity: Severity::Warning,
    summary: "A NodePool sets osImageStream, but its HostedCluster's feature set and release do not enable the OSStreams gate",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
