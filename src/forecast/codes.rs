//! The finding codes this stage emits: the forecast itself: unreadable changes and when rollouts may start. Each code's page is `rules/CODE.md`;
//! `crate::catalog` lists every code of every stage.

use crate::code::{Code, Severity};

/// W118 (rollout-outside-window), emitted here.
pub static W118: Code = Code {
    code: "W118",
    name: "rollout-outside-window",
    severity: Severity::Error,
    summary: "With --enforce-windows: a disruptive change would start outside its permitted window",
};

/// W119 (rollout-exceeds-window), emitted here.
pub static W119: Code = Code {
    code: "W119",
    name: "rollout-exceeds-window",
    severity: Severity::Warning,
    summary: "A multi-wave rollout is expected to take longer than the window it starts in",
};

/// Y010 (unreadable-change), emitted here.
pub static Y010: Code = Code {
    code: "Y010",
    name: "unreadable-change",
    severity: Severity::Error,
    summary: "A changed file cannot be read (binary, too large, not UTF-8, templated, broken YAML, corrupt, a link out of the repository): its node impact is unknown",
};

/// Every code of this stage, for the catalog.
pub static ALL: &[&Code] = &[&W118, &W119, &Y010];
