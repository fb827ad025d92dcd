//! The finding codes this stage emits: change-management policies and stanzas. Each code's page is `rules/CODE.md`;
//! `crate::catalog` lists every code of every stage.

use crate::code::{Code, Severity};

/// W101 (change-management-unreleased), emitted here.
pub static W101: Code = Code {
    code: "W101",
    name: "change-management-unreleased",
    severity: Severity::Info,
    summary:
        "The repository uses change-management kinds or stanzas, an API no OpenShift release serves",
};

/// W102 (invalid-rrule), emitted here.
pub static W102: Code = Code {
    code: "W102",
    name: "invalid-rrule",
    severity: Severity::Error,
    summary: "A Schema A `permit.recurrence` RRULE string is invalid (RFC 5545 or the proposal's constraints)",
};

/// W103 (rrule-portability), emitted here.
pub static W103: Code = Code {
    code: "W103",
    name: "rrule-portability",
    severity: Severity::Warning,
    summary: "An RRULE is valid but relies on defaults or parts a controller may read differently",
};

/// W104 (rare-dates), emitted here.
pub static W104: Code = Code {
    code: "W104",
    name: "rare-dates",
    severity: Severity::Warning,
    summary: "A recurrence selects dates that some months lack (skipped, not moved); an error when no date can ever match",
};

/// W105 (invalid-window-time), emitted here.
pub static W105: Code = Code {
    code: "W105",
    name: "invalid-window-time",
    severity: Severity::Error,
    summary: "A window's `startTime` or `duration` is malformed or not positive",
};

/// W106 (overlapping-windows), emitted here.
pub static W106: Code = Code {
    code: "W106",
    name: "overlapping-windows",
    severity: Severity::Warning,
    summary: "A window's duration is longer than its recurrence period, so windows overlap",
};

/// W107 (invalid-exclusion), emitted here.
pub static W107: Code = Code {
    code: "W107",
    name: "invalid-exclusion",
    severity: Severity::Error,
    summary: "A maintenance exclusion's dates are malformed or empty",
};

/// W108 (schedule-never-opens), emitted here.
pub static W108: Code = Code {
    code: "W108",
    name: "schedule-never-opens",
    severity: Severity::Error,
    summary: "A policy's schedule permits no change within the next 1000 days",
};

/// W109 (little-permitted-time), emitted here.
pub static W109: Code = Code {
    code: "W109",
    name: "little-permitted-time",
    severity: Severity::Warning,
    summary: "A schedule permits less than the minimum time (default 48 h) in some 32-day span",
};

/// W110 (invalid-policy), emitted here.
pub static W110: Code = Code {
    code: "W110",
    name: "invalid-policy",
    severity: Severity::Error,
    summary: "A change-management policy's spec or scope is invalid",
};

/// W111 (invalid-stanza), emitted here.
pub static W111: Code = Code {
    code: "W111",
    name: "invalid-stanza",
    severity: Severity::Error,
    summary: "A `spec.changeManagement` stanza is malformed, mixes schema revisions, or uses an unsupported revision",
};

/// W112 (expired-until), emitted here.
pub static W112: Code = Code {
    code: "W112",
    name: "expired-until",
    severity: Severity::Warning,
    summary: "A `disabledUntil`, `pausedUntil`, `permissiveUntil` or `restrictiveUntil` date is in the past",
};

/// W113 (unresolved-policy), emitted here.
pub static W113: Code = Code {
    code: "W113",
    name: "unresolved-policy",
    severity: Severity::Error,
    summary: "A stanza refers to a change-management policy that is not in the repository",
};

/// W114 (unreferenced-policy), emitted here.
pub static W114: Code = Code {
    code: "W114",
    name: "unreferenced-policy",
    severity: Severity::Info,
    summary: "A change-management policy is referenced by no stanza",
};

/// W115 (master-stanza-differs), emitted here.
pub static W115: Code = Code {
    code: "W115",
    name: "master-stanza-differs",
    severity: Severity::Warning,
    summary: "The master MachineConfigPool's stanza differs from ClusterVersion's and will be overwritten",
};

/// W116 (windows-never-overlap), emitted here.
pub static W116: Code = Code {
    code: "W116",
    name: "windows-never-overlap",
    severity: Severity::Warning,
    summary: "A worker pool's or NodePool's windows never overlap its control plane's windows",
};

/// W117 (empty-bypass-annotation), emitted here.
pub static W117: Code = Code {
    code: "W117",
    name: "empty-bypass-annotation",
    severity: Severity::Warning,
    summary:
        "The bypass-change-management annotation on a MachineConfig is empty and has no effect",
};

/// W120 (pool-machine-config-target), emitted here.
pub static W120: Code = Code {
    code: "W120",
    name: "pool-machine-config-target",
    severity: Severity::Error,
    summary: "A MachineConfigPool's `spec.machineConfig` (name, validation, validAfter) is invalid",
};

/// Every code of this stage, for the catalog.
pub static ALL: &[&Code] = &[
    &W101, &W102, &W103, &W104, &W105, &W106, &W107, &W108, &W109, &W110, &W111, &W112, &W113,
    &W114, &W115, &W116, &W117, &W120,
];
