//! R103: Kustomize roots are linted unrendered because neither kubectl nor kustomize is available.
//!
//! Found while rendering (see `crate::render`), before the inventory exists; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "R103",
    name: "renderer-missing",
    severity: Severity::Info,
    summary:
        "Kustomize roots are linted unrendered because neither kubectl nor kustomize is available",
    check,
};

/// Findings come from `render::render`; nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
