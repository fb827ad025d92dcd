//! A 128-bit keyed hash for results kept under what they depend on (a document's schema
//! validation, an unchanged cluster's model): the key costs 16 bytes instead of a copy of the
//! names, paths and origins it stands for. Two independently keyed SipHash hashers, fixed for the
//! process (kept results outlive a run) and unknown to whoever writes the repository, so two
//! different inputs share a key with probability 2^-128, not by construction.

use std::hash::{BuildHasher, Hash, RandomState};

/// The two hashers, the same for the whole process.
fn hashers() -> &'static (RandomState, RandomState) {
    static HASHERS: std::sync::OnceLock<(RandomState, RandomState)> = std::sync::OnceLock::new();
    HASHERS.get_or_init(|| (RandomState::new(), RandomState::new()))
}

/// The 128-bit key of `value`.
pub(crate) fn of(value: &impl Hash) -> (u64, u64) {
    let (a, b) = hashers();
    (a.hash_one(value), b.hash_one(value))
}
