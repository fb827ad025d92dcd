//! Scope: a check costs what the change touches, and says exactly what a whole check says.
//!
//! A whole check parses, renders, models and lints every file of both revisions, though a pull
//! request touches a few. After a whole check, a *record* of the base revision is kept in the
//! cache folder ([`record`], [`store`]): which files each producer reads (a Kustomize root's
//! render, or a file's own documents), which producers read each other's objects (the
//! *islands*, [`links`]: one cluster's MCO model, a NodePool and what it names, duplicates,
//! namesakes, …), and what each island found when the revision was linted on its own. The next
//! check with that base revision evaluates only the islands the changed paths reach, with the
//! producers every island reads (CRDs, FeatureGates, boot image metadata: [`links::CONTEXT`]),
//! through the very same pipeline ([`plan`]); what the other islands found is taken from the
//! record ([`finish`]).
//!
//! That is exact only when nothing the change can reach is left out, so the shortcut gives way
//! to a whole check whenever the record cannot say: a kustomization, a CRD, a FeatureGate or a
//! change-management policy changed, an object was added, removed or renamed, a reference or a
//! name now reaches an island left out, a finding cannot be told apart from another island's,
//! a shared limit was more than a quarter used, a private value of a file left out would have
//! to be masked, the run lists pre-existing findings. Every evaluation is checked against the
//! record too: the base revision's own findings in the evaluated islands must be what the record
//! says, else the record is not trusted. `--full` and `--no-cache` never take the shortcut; the
//! differential tests run both on every commit of the test repositories and compare the JSON.

pub mod finish;
pub mod learn;
pub mod links;
pub mod plan;
pub mod probe;
pub mod record;
pub mod store;
pub mod structure;

use serde::{Deserialize, Serialize};

use crate::inventory::Object;

/// What makes objects reach the cluster: a Kustomize root's render, or a file's own documents.
/// Islands are made of producers, so a base many overlays share joins none of them together.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Producer {
    /// A Kustomize root (its folder).
    Root(String),
    /// A file (its path).
    File(String),
}

/// The producer that makes an object reach the cluster: the root that rendered it, else the file
/// that holds it (a wrapped object is its wrapper's).
pub fn producer_of(o: &Object) -> Producer {
    match &o.origin.overlay {
        Some(root) => Producer::Root(root.to_string()),
        None => Producer::File(o.path.to_string()),
    }
}

/// Why a check is not scoped, for the log (`NODECAST_SCOPE_LOG`) and the tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Whole {
    /// The reason.
    pub why: String,
    /// The evaluation disagrees with the record: a record that should not have been trusted (an
    /// error under `NODECAST_SCOPE_STRICT`), not a change the record cannot scope.
    pub mismatch: bool,
}

impl Whole {
    /// A change the record cannot scope.
    pub fn because(why: impl Into<String>) -> Self {
        Whole {
            why: why.into(),
            mismatch: false,
        }
    }

    /// An evaluation that disagrees with the record.
    pub fn mismatch(why: impl Into<String>) -> Self {
        Whole {
            why: why.into(),
            mismatch: true,
        }
    }
}

/// Prints what the scoping decided when `NODECAST_SCOPE_LOG` is set (tests and benchmarks read
/// it; reports never change).
pub fn log(message: impl FnOnce() -> String) {
    if std::env::var_os("NODECAST_SCOPE_LOG").is_some() {
        eprintln!("nodecast scope: {}", message());
    }
}

/// Whether a record that disagrees with an evaluation is an error (`NODECAST_SCOPE_STRICT`, set
/// by the differential tests) rather than a reason for a whole check.
pub fn strict() -> bool {
    std::env::var_os("NODECAST_SCOPE_STRICT").is_some()
}
