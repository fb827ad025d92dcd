//! The finding codes this stage emits: `.nodecast.yaml` mistakes. Each code's page is `rules/CODE.md`;
//! `crate::catalog` lists every code of every stage.

use crate::code::{Code, Severity};

/// C101 (config-unknown-key), emitted here.
pub static C101: Code = Code {
    code: "C101",
    name: "config-unknown-key",
    severity: Severity::Error,
    summary: "A key in .nodecast.yaml that nodecast does not know (likely a typo); it is ignored",
};

/// C102 (config-invalid-value), emitted here.
pub static C102: Code = Code {
    code: "C102",
    name: "config-invalid-value",
    severity: Severity::Error,
    summary: "A value in .nodecast.yaml has the wrong type or an unknown rule code, level or glob; it is ignored",
};

/// Every code of this stage, for the catalog.
pub static ALL: &[&Code] = &[&C101, &C102];
