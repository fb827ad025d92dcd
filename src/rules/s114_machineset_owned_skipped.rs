//! S114: a MachineSet with an owner reference is skipped by boot image management although MachineSets are opted in.
//!
//! The MCO forecast model (`forecast/mco/streams.rs`) emits these findings while it models the cluster; this file registers the code, its
//! severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "S114",
    name: "machineset-owned-skipped",
    severity: Severity::Info,
    summary: "A MachineSet with an owner reference is skipped by boot image management although MachineSets are opted in",
    check,
};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
