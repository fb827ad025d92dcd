//! R102: A Kustomize root needs plugins, Helm or remote bases, which nodecast never runs; it is linted unrendered.
//!
//! Found while rendering (see `crate::render`), before the inventory exists; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "R102",
    name: "render-refused",
    severity: Severity::Warning,
    summary: "A Kustomize root needs plugins, Helm or remote bases, which nodecast never runs; it is linted unrendered",
    check,
};

/// Findings come from `render::render`; nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
