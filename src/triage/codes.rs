//! The finding codes this stage emits: suppression comments, the baseline and rollout acknowledgements. Each code's page is `rules/CODE.md`;
//! `crate::catalog` lists every code of every stage.

use crate::code::{Code, Severity};

/// C103 (incomplete-suppression), emitted here.
pub static C103: Code = Code {
    code: "C103",
    name: "incomplete-suppression",
    severity: Severity::Warning,
    summary: "A `# nodecast: ignore[...]` comment gives no reason or is malformed",
};

/// C104 (unused-suppression), emitted here.
pub static C104: Code = Code {
    code: "C104",
    name: "unused-suppression",
    severity: Severity::Warning,
    summary: "A suppression comment that suppresses no finding",
};

/// C105 (unacknowledged-rollout), emitted here.
pub static C105: Code = Code {
    code: "C105",
    name: "unacknowledged-rollout",
    severity: Severity::Error,
    summary: "With require-ack, a forecast replace, in-place, reboot or drain that no Nodecast-Ack trailer or --ack acknowledges",
};

/// C106 (stale-baseline-entry), emitted here.
pub static C106: Code = Code {
    code: "C106",
    name: "stale-baseline-entry",
    severity: Severity::Info,
    summary: "A baseline entry whose finding no longer occurs",
};

/// Every code of this stage, for the catalog.
pub static ALL: &[&Code] = &[&C103, &C104, &C105, &C106];
