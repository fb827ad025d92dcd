//! What a change that adds, removes or renames objects may reach beyond the islands it touches,
//! and what a record keeps to tell (a configMapGenerator's hash suffix renames a ConfigMap at
//! every change of its file; a pull request adds a MachineConfig to a cluster's file).
//!
//! A definition added or removed changes, elsewhere in the repository:
//! - what every reference to its name resolves to, and what R001 says of it (`referred`);
//! - the deployment units, where a plain object of the same identity is defined in another
//!   folder, and the duplicates (`plain_ids`);
//! - whether a Secret or ConfigMap of that name may feed nodes, for every HostedCluster that
//!   names it (`mentioned`);
//! - what a missing reference says, when it brings the first object of its kind or takes the
//!   last (`kinds`);
//! - which folders are cluster roots, when it is a plain MachineConfigPool or ClusterVersion
//!   (`root_candidates`);
//! - what every object reads, when it is context or a cluster singleton.
//!
//! Any of these reaching an island left out makes the check whole.

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};

use serde::{Deserialize, Serialize};

use super::links::{Name, NAMED_KINDS, READ_KINDS};
use super::Whole;
use crate::inventory::clusters::parent;
use crate::inventory::{Inventory, Object};

/// A hash of a name, the same in every run of one build (the standard library's default hasher
/// with its fixed keys).
pub fn name_hash(n: &Name) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    n.hash(&mut h);
    h.finish()
}

/// A Bloom filter of strings: whether a string may be in the set (a false "maybe" only makes a
/// check whole). The head's record adds the strings of its changed HostedClusters and removes
/// none (a string no longer named stays a "maybe").
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Bloom {
    bits: Vec<u64>,
}

/// Bits per string the filter holds, and bits probed per string: about one false "maybe" in a
/// hundred thousand, so a change that adds or renames a hundred ConfigMaps is scoped 999 times
/// in a thousand.
const BITS_PER_STRING: usize = 24;
const PROBES: u64 = 16;

impl Bloom {
    /// A filter sized for `n` strings.
    pub fn with_capacity(n: usize) -> Self {
        Bloom {
            bits: vec![0; (n * BITS_PER_STRING).div_ceil(64).max(1)],
        }
    }

    fn positions(&self, key: &str) -> impl Iterator<Item = (usize, u64)> + '_ {
        let mut h = std::hash::DefaultHasher::new();
        key.hash(&mut h);
        let a = h.finish();
        let b = a.rotate_left(32) | 1;
        let m = (self.bits.len() * 64) as u64;
        (0..PROBES).map(move |i| {
            let bit = a.wrapping_add(i.wrapping_mul(b)) % m;
            ((bit / 64) as usize, 1u64 << (bit % 64))
        })
    }

    /// Adds a string.
    pub fn insert(&mut self, key: &str) {
        let at: Vec<(usize, u64)> = self.positions(key).collect();
        for (word, mask) in at {
            self.bits[word] |= mask;
        }
    }

    /// Whether the string may have been added.
    pub fn may_hold(&self, key: &str) -> bool {
        !self.bits.is_empty() && self.positions(key).all(|(w, m)| self.bits[w] & m != 0)
    }
}

/// What a HostedCluster's value names: its namespace and the value.
pub fn mention(namespace: &str, value: &str) -> String {
    format!("{namespace}\0{value}")
}

/// Whether an object is plain: as written in a file, neither rendered nor carried.
pub fn is_plain(o: &Object) -> bool {
    o.origin.overlay.is_none() && o.origin.wrapper.is_none()
}

/// Whether an object makes its folder a cluster root candidate.
pub fn is_root_candidate(o: &Object) -> bool {
    is_plain(o)
        && o.id.group == "machineconfiguration.openshift.io"
        && o.id.kind == "MachineConfigPool"
        || is_plain(o) && o.id.group == "config.openshift.io" && o.id.kind == "ClusterVersion"
}

/// The structure a record keeps of a revision's objects: kinds, plain identities, referred
/// names, what HostedClusters name, cluster root candidates.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Structure {
    /// How many objects of each kind (group, kind).
    pub kinds: Vec<((String, String), u32)>,
    /// Plain objects' identities (a hash) and their islands, sorted.
    pub plain_ids: Vec<(u64, u32)>,
    /// Names NodePools refer to (a hash) and the referring islands, sorted.
    pub referred: Vec<(u64, u32)>,
    /// What HostedClusters' values name ([`mention`]).
    pub mentioned: Bloom,
    /// Folders holding a plain MachineConfigPool or ClusterVersion, sorted.
    pub root_candidates: Vec<String>,
}

impl Structure {
    /// The structure of a side's objects; `island_of(i)` is object `i`'s island.
    pub fn of(inv: &Inventory, island_of: impl Fn(usize) -> u32) -> Structure {
        let mut kinds: BTreeMap<(String, String), u32> = BTreeMap::new();
        let mut plain_ids = BTreeSet::new();
        let mut roots = BTreeSet::new();
        let mut hosted = Vec::new();
        for (i, o) in inv.objects.iter().enumerate() {
            *kinds
                .entry((o.id.group.to_string(), o.id.kind.to_string()))
                .or_default() += 1;
            if is_plain(o) {
                plain_ids.insert((name_hash(&Name::of(&o.id)), island_of(i)));
            }
            if is_root_candidate(o) {
                roots.insert(parent(&o.path).to_string());
            }
            if o.id.group == "hypershift.openshift.io" && o.id.kind == "HostedCluster" {
                hosted.push(o);
            }
        }
        let referred: BTreeSet<(u64, u32)> = inv
            .references
            .iter()
            .map(|r| (name_hash(&Name::of(&r.target)), island_of(r.from)))
            .collect();
        let mut values = BTreeSet::new();
        for hc in hosted {
            let ns = hc.id.namespace.as_deref().unwrap_or_default();
            super::links::strings(hc.root(), &mut |s| {
                values.insert(mention(ns, s));
            });
        }
        let mut mentioned = Bloom::with_capacity(values.len());
        for v in &values {
            mentioned.insert(v);
        }
        Structure {
            kinds: kinds.into_iter().collect(),
            plain_ids: plain_ids.into_iter().collect(),
            referred: referred.into_iter().collect(),
            mentioned,
            root_candidates: roots.into_iter().collect(),
        }
    }

    /// The islands keyed by `hash` in a sorted list.
    fn islands(list: &[(u64, u32)], hash: u64) -> impl Iterator<Item = u32> + '_ {
        let from = list.partition_point(|(h, _)| *h < hash);
        list[from..]
            .iter()
            .take_while(move |(h, _)| *h == hash)
            .map(|(_, i)| *i)
    }

    fn kind_count(&self, group: &str, kind: &str) -> u32 {
        self.kinds
            .binary_search_by(|((g, k), _)| (g.as_str(), k.as_str()).cmp(&(group, kind)))
            .map(|i| self.kinds[i].1)
            .unwrap_or(0)
    }
}

/// The definitions an evaluation adds and removes (by name, with how many), and each side's root
/// candidates among the evaluated objects.
#[derive(Debug)]
pub struct Delta {
    added: BTreeMap<Name, u32>,
    removed: BTreeMap<Name, u32>,
    plain: BTreeSet<Name>,
    candidates: (BTreeSet<String>, BTreeSet<String>),
}

impl Delta {
    /// What the evaluated objects (`evaluated(i)`, on each side) add and remove.
    pub fn of(
        (base, head): (&Inventory, &Inventory),
        (base_evaluated, head_evaluated): (&dyn Fn(usize) -> bool, &dyn Fn(usize) -> bool),
    ) -> Delta {
        let mut counts: BTreeMap<Name, i64> = BTreeMap::new();
        let mut plain = BTreeSet::new();
        let mut candidates = (BTreeSet::new(), BTreeSet::new());
        for (inv, evaluated, sign, cands) in [
            (base, base_evaluated, -1, &mut candidates.0),
            (head, head_evaluated, 1, &mut candidates.1),
        ] {
            for (i, o) in inv.objects.iter().enumerate() {
                if !evaluated(i) {
                    continue;
                }
                let n = Name::of(&o.id);
                if is_plain(o) {
                    plain.insert(n.clone());
                }
                if is_root_candidate(o) {
                    cands.insert(parent(&o.path).to_string());
                }
                *counts.entry(n).or_default() += sign;
            }
        }
        let mut added = BTreeMap::new();
        let mut removed = BTreeMap::new();
        for (n, c) in counts {
            match c {
                c if c > 0 => {
                    added.insert(n, c as u32);
                }
                c if c < 0 => {
                    removed.insert(n, (-c) as u32);
                }
                _ => {}
            }
        }
        Delta {
            added,
            removed,
            plain,
            candidates,
        }
    }

    /// Whether the evaluation adds or removes nothing.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty()
    }

    /// Whether what is added and removed stays within the evaluated islands (`evaluated`):
    /// `Err` names the first thing that reaches one left out.
    pub fn check(
        &self,
        s: &Structure,
        evaluated: &BTreeSet<u32>,
        islands_named: &dyn Fn(&Name) -> Vec<u32>,
    ) -> Result<(), Whole> {
        if self.candidates.0 != self.candidates.1 {
            return Err(Whole::because(
                "the change adds or removes a cluster root's pools or ClusterVersion",
            ));
        }
        let outside = |islands: Vec<u32>| islands.iter().any(|i| !evaluated.contains(i));
        let mut kinds: BTreeMap<(&str, &str), i64> = BTreeMap::new();
        for (n, sign) in self
            .added
            .iter()
            .map(|(n, c)| (n, i64::from(*c)))
            .chain(self.removed.iter().map(|(n, c)| (n, -i64::from(*c))))
        {
            *kinds.entry((&n.group, &n.kind)).or_default() += sign;
            let what = || format!("{}/{}", n.kind, n.name);
            let singleton = READ_KINDS
                .iter()
                .any(|(g, k)| n.group == *g && n.kind == *k);
            let context = is_context_name(n);
            if singleton || context {
                return Err(Whole::because(format!(
                    "the change adds or removes {}, which every evaluation may read",
                    what()
                )));
            }
            let hash = name_hash(n);
            if self.plain.contains(n) && outside(Structure::islands(&s.plain_ids, hash).collect()) {
                return Err(Whole::because(format!(
                    "{} is defined in an island left out too",
                    what()
                )));
            }
            let named = NAMED_KINDS
                .iter()
                .any(|(g, k)| n.group == *g && n.kind == *k);
            if named
                && (outside(Structure::islands(&s.referred, hash).collect())
                    || outside(islands_named(n)))
            {
                return Err(Whole::because(format!(
                    "an island left out refers to or defines {}",
                    what()
                )));
            }
            let fed = n.group.is_empty() && matches!(n.kind.as_str(), "Secret" | "ConfigMap");
            let ns = n.namespace.as_deref().unwrap_or_default();
            if fed && s.mentioned.may_hold(&mention(ns, &n.name)) {
                return Err(Whole::because(format!(
                    "a HostedCluster may name {}",
                    what()
                )));
            }
        }
        for ((group, kind), delta) in kinds {
            let before = i64::from(s.kind_count(group, kind));
            if (before == 0) != (before + delta == 0) {
                return Err(Whole::because(format!(
                    "the change brings the first or takes the last {kind}"
                )));
            }
        }
        Ok(())
    }

    /// The record's structure after this delta, for the head's record: the evaluated islands'
    /// entries replaced by what the head's evaluated objects hold.
    pub fn apply(
        &self,
        s: &Structure,
        head: &Inventory,
        touched: &BTreeSet<u32>,
        island_of: &dyn Fn(usize) -> Option<u32>,
    ) -> Structure {
        let mut kinds: BTreeMap<(String, String), i64> = s
            .kinds
            .iter()
            .map(|(k, c)| (k.clone(), i64::from(*c)))
            .collect();
        for (n, c) in &self.added {
            *kinds.entry((n.group.clone(), n.kind.clone())).or_default() += i64::from(*c);
        }
        for (n, c) in &self.removed {
            *kinds.entry((n.group.clone(), n.kind.clone())).or_default() -= i64::from(*c);
        }
        let mut plain_ids: BTreeSet<(u64, u32)> = s
            .plain_ids
            .iter()
            .copied()
            .filter(|(_, i)| !touched.contains(i))
            .collect();
        let mut referred: BTreeSet<(u64, u32)> = s
            .referred
            .iter()
            .copied()
            .filter(|(_, i)| !touched.contains(i))
            .collect();
        let mut mentioned = s.mentioned.clone();
        for (i, o) in head.objects.iter().enumerate() {
            let Some(island) = island_of(i).filter(|x| touched.contains(x)) else {
                continue;
            };
            if is_plain(o) {
                plain_ids.insert((name_hash(&Name::of(&o.id)), island));
            }
            if o.id.group == "hypershift.openshift.io" && o.id.kind == "HostedCluster" {
                let ns = o.id.namespace.as_deref().unwrap_or_default();
                super::links::strings(o.root(), &mut |v| mentioned.insert(&mention(ns, v)));
            }
        }
        for r in &head.references {
            if let Some(island) = island_of(r.from).filter(|x| touched.contains(x)) {
                referred.insert((name_hash(&Name::of(&r.target)), island));
            }
        }
        Structure {
            kinds: kinds
                .into_iter()
                .filter(|(_, c)| *c > 0)
                .map(|(k, c)| (k, c as u32))
                .collect(),
            plain_ids: plain_ids.into_iter().collect(),
            referred: referred.into_iter().collect(),
            mentioned,
            root_candidates: s.root_candidates.clone(),
        }
    }
}

/// Whether a name is of a context kind ([`super::links::CONTEXT`]).
fn is_context_name(n: &Name) -> bool {
    super::links::CONTEXT
        .iter()
        .any(|(g, k, name)| n.group == *g && n.kind == *k && name.is_none_or(|x| n.name == x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bloom_filter_holds_what_was_added_and_seldom_anything_else() {
        let mut b = Bloom::with_capacity(10_000);
        for i in 0..10_000 {
            b.insert(&mention("clusters", &format!("hc-{i:05}-pull-secret")));
        }
        for i in 0..10_000 {
            assert!(b.may_hold(&mention("clusters", &format!("hc-{i:05}-pull-secret"))));
        }
        let false_maybes = (0..100_000)
            .filter(|i| b.may_hold(&mention("clusters", &format!("cm-{i}"))))
            .count();
        assert!(false_maybes < 20, "{false_maybes} false maybes in 100,000");
        assert!(!Bloom::default().may_hold("anything"));
    }
}
