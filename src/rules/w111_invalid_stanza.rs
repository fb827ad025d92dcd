//! W111: A `spec.changeManagement` stanza is malformed, mixes schema revisions, or uses an unsupported revision.
//!
//! Found while scheduling (see `crate::schedule`), which needs `--now`; this file registers the code.

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};

/// The rule.
pub static RULE: Rule = Rule {
    code: "W111",
    name: "invalid-stanza",
    severity: Severity::Error,
    summary: "A `spec.changeManagement` stanza is malformed, mixes schema revisions, or uses an unsupported revision",
    check,
};

/// Findings come from `schedule::apply` (they depend on `--now`); nothing to do here.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {}
