//! C105: With require-ack, a forecast replace, in-place, reboot or drain that no Nodecast-Ack trailer or --ack acknowledges.
//!
//! Produced by the policy stage (src/policy/ack.rs), which runs after the rules; this entry registers the code,
//! its default severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "C105",
    name: "unacknowledged-rollout",
    severity: Severity::Error,
    summary: "With require-ack, a forecast replace, in-place, reboot or drain that no Nodecast-Ack trailer or --ack acknowledges",
    check,
};

fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
