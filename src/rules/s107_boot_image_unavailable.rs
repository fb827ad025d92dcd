//! S107: the release's boot image metadata has no image for a NodePool's stream, architecture, platform and region.
//!
//! The HyperShift forecast model (`forecast/hypershift/os_stream.rs`) emits these findings while it models the cluster; this file registers the code, its
//! severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "S107",
    name: "boot-image-unavailable",
    severity: Severity::Error,
    summary: "The release's boot image metadata has no image for a NodePool's stream, architecture, platform and region",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
