//! The finding codes this stage emits: schema and CEL validation. Each code's page is `rules/CODE.md`;
//! `crate::catalog` lists every code of every stage.

use crate::code::{Code, Severity};

/// V101 (schema-violation), emitted here.
pub static V101: Code = Code {
    code: "V101",
    name: "schema-violation",
    severity: Severity::Error,
    summary: "A value the CRD's structural schema rejects (type, enum, pattern, bounds, required)",
};

/// V102 (unknown-field), emitted here.
pub static V102: Code = Code {
    code: "V102",
    name: "unknown-field",
    severity: Severity::Warning,
    summary: "A field the kind's schema does not declare (dropped by the API server; rejected with strict field validation)",
};

/// V103 (cel-rule-failed), emitted here.
pub static V103: Code = Code {
    code: "V103",
    name: "cel-rule-failed",
    severity: Severity::Error,
    summary: "An x-kubernetes-validations CEL rule of the CRD is false for the object",
};

/// V104 (cel-transition-rule-failed), emitted here.
pub static V104: Code = Code {
    code: "V104",
    name: "cel-transition-rule-failed",
    severity: Severity::Error,
    summary: "A CEL transition rule (oldSelf) rejects the change from the base revision",
};

/// V105 (no-schema), emitted here.
pub static V105: Code = Code {
    code: "V105",
    name: "no-schema",
    severity: Severity::Info,
    summary: "A kind of a modelled OpenShift/HyperShift group has no schema, so its objects are not validated",
};

/// V106 (duplicate-list-key), emitted here.
pub static V106: Code = Code {
    code: "V106",
    name: "duplicate-list-key",
    severity: Severity::Error,
    summary: "Two items of a listType map/set list have the same key",
};

/// Every code of this stage, for the catalog.
pub static ALL: &[&Code] = &[&V101, &V102, &V103, &V104, &V105, &V106];
