//! What a file is to the cluster. The parse stage carries it on every file (a manifest until told
//! otherwise); `crate::classify` decides it from the files around.

/// What a file is to the cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Objects the cluster receives (or would, once rendered).
    Manifest,
    /// Partial objects: checked for what they hold, never for completeness.
    Partial(Partial),
    /// Not an API object file (a CI workflow, a Helm chart's metadata …): not read further.
    Foreign(&'static str),
}

/// Why a file holds partial objects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Partial {
    /// A patch, replacement or transformer/generator configuration a kustomization reads.
    KustomizeInput,
    /// A file in a Kustomize folder that no kustomization refers to: Kustomize never deploys
    /// it (a leftover patch, most often).
    Unreferenced,
    /// A manifest of an ACM `PolicyGenerator`: object templates may leave the name out to match
    /// every object of the kind, or hold only `status` for an inform check.
    GeneratorManifest,
    /// A Hive `SyncSet` patch entry kept as a file (`name`, `patch`, `patchType`).
    HivePatch,
}

impl Role {
    /// Whether the file's documents are objects the cluster receives.
    pub fn is_manifest(self) -> bool {
        self == Role::Manifest
    }

    /// Whether the file holds objects, whole or partial (YAML hygiene and schema checks apply).
    pub fn holds_objects(self) -> bool {
        !matches!(self, Role::Foreign(_))
    }
}
