//! The finding codes this stage emits: the HyperShift NodePool model. Each code's page is `rules/CODE.md`;
//! `crate::catalog` lists every code of every stage.

use crate::code::{Code, Severity};

/// H101 (config-document-invalid), emitted here.
pub static H101: Code = Code {
    code: "H101",
    name: "config-document-invalid",
    severity: Severity::Error,
    summary: "A NodePool's spec.config or spec.tuningConfig ConfigMap holds a document the NodePool controller refuses, so the NodePool rolls out nothing",
};

/// H102 (config-reference-unresolved), emitted here.
pub static H102: Code = Code {
    code: "H102",
    name: "config-reference-unresolved",
    severity: Severity::Error,
    summary: "A NodePool references a ConfigMap that this change deletes (blocked) or that is not in the repository (content unknown, rollout assumed)",
};

/// H103 (config-change-no-rollout), emitted here.
pub static H103: Code = Code {
    code: "H103",
    name: "config-change-no-rollout",
    severity: Severity::Info,
    summary: "A ConfigMap used by NodePools changed, but not in a way the NodePool controller hashes: no rollout",
};

/// H104 (config-unreferenced), emitted here.
pub static H104: Code = Code {
    code: "H104",
    name: "config-unreferenced",
    severity: Severity::Info,
    summary: "A ConfigMap holding NodePool configuration changed, but no NodePool references it",
};

/// H105 (release-version-unreadable), emitted here.
pub static H105: Code = Code {
    code: "H105",
    name: "release-version-unreadable",
    severity: Severity::Warning,
    summary: "A NodePool release changed to or from a pullspec whose version cannot be read; a rollout is predicted",
};

/// H106 (release-version-rejected), emitted here.
pub static H106: Code = Code {
    code: "H106",
    name: "release-version-rejected",
    severity: Severity::Error,
    summary: "The NodePool controller rejects the NodePool's release version (newer minor than the HostedCluster, y-stream downgrade, unsupported)",
};

/// H107 (release-version-skew), emitted here.
pub static H107: Code = Code {
    code: "H107",
    name: "release-version-skew",
    severity: Severity::Warning,
    summary: "A NodePool's release is newer than its HostedCluster's or too many minors behind it",
};

/// H108 (os-image-stream-invalid), emitted here.
pub static H108: Code = Code {
    code: "H108",
    name: "os-image-stream-invalid",
    severity: Severity::Error,
    summary: "A NodePool's osImageStream is invalid for its release or runtime, or changes in a way the API server rejects",
};

/// H109 (replace-strategy-invalid), emitted here.
pub static H109: Code = Code {
    code: "H109",
    name: "replace-strategy-invalid",
    severity: Severity::Error,
    summary: "A Replace NodePool's rolling-update settings are invalid, so the controller updates no machines",
};

/// H110 (nodepool-immutable-field), emitted here.
pub static H110: Code = Code {
    code: "H110",
    name: "nodepool-immutable-field",
    severity: Severity::Error,
    summary: "A change to an immutable NodePool field, which the API server rejects",
};

/// H111 (in-place-template-change), emitted here.
pub static H111: Code = Code {
    code: "H111",
    name: "in-place-template-change",
    severity: Severity::Info,
    summary: "A machine-template change on an InPlace NodePool reaches only machines created later",
};

/// H112 (paused-until-invalid), emitted here.
pub static H112: Code = Code {
    code: "H112",
    name: "paused-until-invalid",
    severity: Severity::Warning,
    summary:
        "A NodePool's spec.pausedUntil is not a value the controller can read, so it does not pause",
};

/// H113 (hostedcluster-pause-ignored), emitted here.
pub static H113: Code = Code {
    code: "H113",
    name: "hostedcluster-pause-ignored",
    severity: Severity::Info,
    summary: "HostedCluster spec.pausedUntil does not pause NodePool rollouts",
};

/// H114 (generated-config-may-roll), emitted here.
pub static H114: Code = Code {
    code: "H114",
    name: "generated-config-may-roll",
    severity: Severity::Warning,
    summary: "A HostedCluster release or control-plane operator image change may roll NodePools through generated configuration",
};

/// H115 (nodepool-field-not-modelled), emitted here.
pub static H115: Code = Code {
    code: "H115",
    name: "nodepool-field-not-modelled",
    severity: Severity::Warning,
    summary: "A NodePool field changed that nodecast does not model; a rollout is assumed",
};

/// H116 (tuning-rollout-possible), emitted here.
pub static H116: Code = Code {
    code: "H116",
    name: "tuning-rollout-possible",
    severity: Severity::Info,
    summary: "A Tuned without boot-time settings changed: a rollout is possible, not certain",
};

/// H117 (nodepool-deleted), emitted here.
pub static H117: Code = Code {
    code: "H117",
    name: "nodepool-deleted",
    severity: Severity::Warning,
    summary: "A NodePool is deleted: all its nodes are drained and removed",
};

/// S101 (nodepool-runc-dropin), emitted here.
pub static S101: Code = Code {
    code: "S101",
    name: "nodepool-runc-dropin",
    severity: Severity::Error,
    summary: "A MachineConfig CRI-O drop-in in a RHEL 10 NodePool's config makes runc the default runtime, which RHEL 10 lacks",
};

/// S102 (in-place-stream-rebase), emitted here.
pub static S102: Code = Code {
    code: "S102",
    name: "in-place-stream-rebase",
    severity: Severity::Warning,
    summary: "An InPlace NodePool's OS stream change rebases its existing nodes across RHEL majors with no way back",
};

/// S103 (explicit-default-stream), emitted here.
pub static S103: Code = Code {
    code: "S103",
    name: "explicit-default-stream",
    severity: Severity::Info,
    summary: "A NodePool now pins the OS stream its release uses anyway: no rollout",
};

/// S104 (release-changes-os-stream), emitted here.
pub static S104: Code = Code {
    code: "S104",
    name: "release-changes-os-stream",
    severity: Severity::Warning,
    summary: "A release upgrade moves an unpinned NodePool to another OS major (RHEL 9 → RHEL 10)",
};

/// S105 (stream-needs-feature-gate), emitted here.
pub static S105: Code = Code {
    code: "S105",
    name: "stream-needs-feature-gate",
    severity: Severity::Warning,
    summary: "A NodePool sets osImageStream, but its HostedCluster's feature set and release do not enable the OSStreams gate",
};

/// S107 (boot-image-unavailable), emitted here.
pub static S107: Code = Code {
    code: "S107",
    name: "boot-image-unavailable",
    severity: Severity::Error,
    summary: "The release's boot image metadata has no image for a NodePool's stream, architecture, platform and region",
};

/// Every code of this stage, for the catalog.
pub static ALL: &[&Code] = &[
    &H101, &H102, &H103, &H104, &H105, &H106, &H107, &H108, &H109, &H110, &H111, &H112, &H113,
    &H114, &H115, &H116, &H117, &S101, &S102, &S103, &S104, &S105, &S107,
];
