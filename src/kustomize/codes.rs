//! The finding codes this stage emits: Kustomize rendering. Each code's page is `rules/CODE.md`;
//! `crate::catalog` lists every code of every stage.

use crate::code::{Code, Severity};

/// R101 (render-failed), emitted here.
pub static R101: Code = Code {
    code: "R101",
    name: "render-failed",
    severity: Severity::Error,
    summary: "A Kustomize root does not render, so what it deploys is unknown",
};

/// R102 (render-refused), emitted here.
pub static R102: Code = Code {
    code: "R102",
    name: "render-refused",
    severity: Severity::Warning,
    summary: "A Kustomize root needs plugins, Helm or remote bases, which nodecast never runs; it is linted unrendered",
};

/// R103 (renderer-missing), emitted here.
pub static R103: Code = Code {
    code: "R103",
    name: "renderer-missing",
    severity: Severity::Info,
    summary:
        "Kustomize roots are linted unrendered because neither kubectl nor kustomize is available",
};

/// Every code of this stage, for the catalog.
pub static ALL: &[&Code] = &[&R101, &R102, &R103];
