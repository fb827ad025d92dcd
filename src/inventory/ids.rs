//! The inventory's indexes by identity and by name, holding object indexes only: a fleet has a
//! hundred thousand definitions, and an index that kept a copy of every identity (or a list per
//! name) cost more than the objects themselves.

use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher, RandomState};
use std::sync::Arc;

use super::{Object, ObjectId};

/// Identity → index of its first definition, keyed by a hash of the identity (compared with the
/// object's own on every lookup, so two identities of one hash are still told apart).
#[derive(Debug, Default)]
pub struct FirstDefinitions {
    hasher: RandomState,
    /// Hash → the first definition of the first identity seen with that hash.
    slots: HashMap<u64, u32, BuildHasherDefault<KeyedAlready>>,
    /// First definitions of identities whose hash another identity had first (never, in
    /// practice).
    more: Vec<u32>,
}

impl FirstDefinitions {
    /// Empties the index (the objects are about to change).
    pub fn clear(&mut self) {
        self.slots.clear();
        self.more.clear();
    }

    /// The first definition of `id`.
    pub fn get(&self, objects: &[Arc<Object>], id: &ObjectId) -> Option<usize> {
        let is = |i: u32| objects.get(i as usize).is_some_and(|o| &o.id == id);
        match self.slots.get(&self.hasher.hash_one(id)) {
            Some(&i) if is(i) => Some(i as usize),
            Some(_) => self
                .more
                .iter()
                .copied()
                .find(|&i| is(i))
                .map(|i| i as usize),
            None => None,
        }
    }

    /// Records `index` as the first definition of its identity, or returns the first one when the
    /// identity already has one.
    pub fn insert(&mut self, objects: &[Arc<Object>], index: usize) -> Option<usize> {
        let id = &objects.get(index)?.id;
        if let Some(first) = self.get(objects, id) {
            return Some(first);
        }
        let slot = u32::try_from(index).unwrap_or(u32::MAX);
        match self.slots.entry(self.hasher.hash_one(id)) {
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(slot);
            }
            std::collections::hash_map::Entry::Occupied(_) => self.more.push(slot),
        }
        None
    }

    /// Every identity with its first definition (in no particular order).
    pub fn iter<'a>(
        &'a self,
        objects: &'a [Arc<Object>],
    ) -> impl Iterator<Item = (&'a ObjectId, usize)> + 'a {
        self.slots
            .values()
            .chain(&self.more)
            .filter_map(move |&i| Some((&objects.get(i as usize)?.id, i as usize)))
    }
}

/// The hasher of a table keyed by [`FirstDefinitions`]' own keyed hashes: each key is already a
/// keyed SipHash of an identity (uniform, and unknown to whoever writes the repository), so the
/// table takes it as it is instead of hashing it a second time on every lookup.
#[derive(Default)]
struct KeyedAlready(u64);

impl Hasher for KeyedAlready {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }

    /// Not used by a `u64` key; mixes bytes in for any other.
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
}

/// Objects by a hash of their name (group, kind, namespace, name): (hash, index) pairs sorted by
/// hash, objects of one hash in object order. Callers compare the names themselves.
#[derive(Debug, Default)]
pub struct ByName {
    pairs: Vec<(u64, u32)>,
}

impl ByName {
    /// The index of `(hash, index)` pairs, in any order.
    pub fn new(mut pairs: Vec<(u64, u32)>) -> Self {
        pairs.sort_unstable();
        pairs.shrink_to_fit();
        ByName { pairs }
    }

    /// The objects under `hash`, in object order.
    pub fn get(&self, hash: u64) -> impl Iterator<Item = usize> + '_ {
        let start = self.pairs.partition_point(|&(h, _)| h < hash);
        self.pairs[start..]
            .iter()
            .take_while(move |&&(h, _)| h == hash)
            .map(|&(_, i)| i as usize)
    }
}
