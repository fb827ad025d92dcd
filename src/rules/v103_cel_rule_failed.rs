//! V103: an x-kubernetes-validations CEL rule of the CRD is false for the object.
//!
//! Produced by the validation stage (`crate::validate`), which needs the compiled schemas; this
//! file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "V103",
    name: "cel-rule-failed",
    severity: Severity::Error,
    summary: "An x-kubernetes-validations CEL rule of the CRD is false for the object",
    check,
};

fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
