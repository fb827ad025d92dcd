//! The finding codes this stage emits: the Machine Config Operator model. Each code's page is `rules/CODE.md`;
//! `crate::catalog` lists every code of every stage.

use crate::code::{Code, Severity};

/// M101 (blocked-machine-config), emitted here.
pub static M101: Code = Code {
    code: "M101",
    name: "blocked-machine-config",
    severity: Severity::Error,
    summary: "The Machine Config Operator refuses the new rendered configuration of a pool; nothing rolls until it is fixed",
};

/// M102 (paused-pool), emitted here.
pub static M102: Code = Code {
    code: "M102",
    name: "paused-pool",
    severity: Severity::Info,
    summary: "A pool whose configuration changes is paused; the changes accumulate and apply together on unpause",
};

/// M103 (policy-changed-with-configs), emitted here.
pub static M103: Code = Code {
    code: "M103",
    name: "policy-changed-with-configs",
    severity: Severity::Info,
    summary: "The node disruption policy changes in the same change as MachineConfigs; the stronger action of the old and new policy is forecast",
};

/// M104 (storage-override-new-nodes-only), emitted here.
pub static M104: Code = Code {
    code: "M104",
    name: "storage-override-new-nodes-only",
    severity: Severity::Info,
    summary: "A disks/filesystems/raid change accepted by irreconcilableValidationOverrides applies to new nodes only",
};

/// M105 (upgrade-with-paused-required-pool), emitted here.
pub static M105: Code = Code {
    code: "M105",
    name: "upgrade-with-paused-required-pool",
    severity: Severity::Warning,
    summary: "A cluster upgrade is requested while the master or arbiter pool is paused",
};

/// M106 (invalid-label-selector), emitted here.
pub static M106: Code = Code {
    code: "M106",
    name: "invalid-label-selector",
    severity: Severity::Error,
    summary: "A pool or generator label selector is invalid, so it selects nothing",
};

/// M107 (pool-machine-config-selector), emitted here.
pub static M107: Code = Code {
    code: "M107",
    name: "pool-machine-config-selector",
    severity: Severity::Error,
    summary: "A pool's machineConfigSelector is rejected by admission, or empty so the pool is not rendered",
};

/// M108 (generator-selects-no-pool), emitted here.
pub static M108: Code = Code {
    code: "M108",
    name: "generator-selects-no-pool",
    severity: Severity::Warning,
    summary:
        "A KubeletConfig or ContainerRuntimeConfig selects no MachineConfigPool of its cluster",
};

/// M109 (config-selects-no-pool), emitted here.
pub static M109: Code = Code {
    code: "M109",
    name: "config-selects-no-pool",
    severity: Severity::Warning,
    summary: "A changed MachineConfig is selected by no MachineConfigPool in the repository, so its rollout cannot be forecast",
};

/// S106 (pool-stream-unavailable), emitted here.
pub static S106: Code = Code {
    code: "S106",
    name: "pool-stream-unavailable",
    severity: Severity::Error,
    summary: "A MachineConfigPool (or OSImageStream/cluster) names an OS stream that is invalid or not available in the cluster",
};

/// S108 (managed-boot-images-invalid), emitted here.
pub static S108: Code = Code {
    code: "S108",
    name: "managed-boot-images-invalid",
    severity: Severity::Error,
    summary: "MachineConfiguration managedBootImages has an invalid machine manager, selection, or platform",
};

/// S113 (machineset-stream-label), emitted here.
pub static S113: Code = Code {
    code: "S113",
    name: "machineset-stream-label",
    severity: Severity::Warning,
    summary: "A MachineSet that boots nodes for a pool on a non-default OS stream lacks the osstream label",
};

/// S114 (machineset-owned-skipped), emitted here.
pub static S114: Code = Code {
    code: "S114",
    name: "machineset-owned-skipped",
    severity: Severity::Info,
    summary: "A MachineSet with an owner reference is skipped by boot image management although MachineSets are opted in",
};

/// Every code of this stage, for the catalog.
pub static ALL: &[&Code] = &[
    &M101, &M102, &M103, &M104, &M105, &M106, &M107, &M108, &M109, &S106, &S108, &S113, &S114,
];
