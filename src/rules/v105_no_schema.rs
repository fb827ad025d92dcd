//! V105: a kind of a modelled OpenShift/HyperShift group has no schema, so its objects are not validated.
//!
//! Produced by the validation stage (`crate::validate`), which needs the compiled schemas; this
//! file registers the code, its severity and its page.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "V105",
    name: "no-schema",
    severity: Severity::Info,
    summary: "A kind of a modelled OpenShift/HyperShift group has no schema, so its objects are not validated",
    check,
};

fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
