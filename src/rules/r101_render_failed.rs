//! R101: A Kustomize root does not render, so what it deploys is unknown.
//!
//! Found while rendering (see `crate::render`), before the inventory exists; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "R101",
    name: "render-failed",
    severity: Severity::Error,
    summary: "A Kustomize root does not render, so what it deploys is unknown",
    check,
};

/// Findings come from `render::render`; nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
