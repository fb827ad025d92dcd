//! What a check keeps of a revision for the next check that compares against it: the producers
//! and the files each reads, the islands (producers whose evaluations read each other,
//! [`super::links`]), and for each island what it finds when the revision is linted on its own
//! and when it is compared with itself (unchanged): a scoped check takes both for every island it
//! does not evaluate. An island whose findings are not known yet (the last change touched it) is
//! *pending*: the next scoped check evaluates it too. The record also holds what a scoped check
//! must verify (each producer's objects, each file's role) or give way to (limits more than a
//! quarter used, change-management policies, links). It holds no value of the repository:
//! findings are kept as fingerprints, places and field paths, private values as keyed hashes
//! ([`super::probe`]).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::links::{self, is_context, Name, Read, NAMED_KINDS, READ_KINDS};
use super::Producer;
use crate::diagnostic::{Diagnostic, State};
use crate::inventory::{Inventory, Object};
use crate::kustomize::{RootInputs, Usage};
use crate::parse::FileEntry;

/// The record's format; a record of another format is never read.
pub const FORMAT: u32 = 2;

/// The island of the files a change adds (producers a record does not know): always evaluated.
pub const NEW_ISLAND: u32 = u32::MAX;

/// A limit shared by the whole run decides nothing until it runs out; a record whose run used
/// more than this part of one is not scoped (the change could make it run out elsewhere).
pub const USAGE_DIVISOR: u64 = 4;

/// What a check keeps of one revision.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Record {
    /// [`FORMAT`].
    pub format: u32,
    /// Every file a producer reads, sorted. Producer `i < paths.len()` is the file `paths[i]`.
    #[serde(with = "front_coded")]
    pub paths: Vec<Arc<str>>,
    /// A hash of each file's role (0 for a file the check does not parse).
    pub roles: Vec<u64>,
    /// Kustomize roots (folders), sorted. Producer `paths.len() + j` is the root `roots[j]`.
    pub roots: Vec<String>,
    /// Each root's kustomization file.
    pub root_files: Vec<String>,
    /// Each rendered root's input fingerprint (`None`: a root whose render is its input, or a
    /// refused one): a root whose fingerprint changed is touched, whatever file changed.
    pub root_prints: Vec<Option<[u8; 32]>>,
    /// The files each root reads (indices into `paths`).
    #[serde(with = "flat_lists")]
    pub root_inputs: Vec<Vec<u32>>,
    /// For each file, the roots that read it (indices into `roots`).
    #[serde(with = "flat_lists")]
    pub readers: Vec<Vec<u32>>,
    /// The folders of rendered roots' closures (every file below them is an input), sorted.
    pub dirs: Vec<(String, u32)>,
    /// Each producer's island.
    pub island: Vec<u32>,
    /// Producers that make objects: their index, a hash of their objects as the inventory holds
    /// them (identity and scope, version, place, origin, cluster), and how many.
    pub shapes: Vec<(u32, u64, u32)>,
    /// Producers whose objects hold private values: keyed hashes of them ([`super::probe`]).
    pub needles: Vec<(u32, Vec<u64>)>,
    /// What each island finds.
    #[serde(with = "compact_islands")]
    pub islands: Vec<Island>,
    /// Producers every scoped check loads ([`links::CONTEXT`]).
    pub context: Vec<u32>,
    /// Definitions of the kinds read by name or kind ([`NAMED_KINDS`], [`READ_KINDS`]): name →
    /// islands, sorted.
    pub names: Vec<(Name, Vec<u32>)>,
    /// Files the revision holds (the report's summary).
    pub file_count: u64,
    /// Objects the revision holds (the report's summary).
    pub object_count: u64,
    /// The base of the keyed hashes of private values ([`super::probe`]).
    pub probe_key: u64,
    /// The lengths private values come in.
    pub probe_lengths: Vec<u32>,
    /// What a change that adds, removes or renames objects may reach ([`super::structure`]).
    pub structure: super::structure::Structure,
    /// The islands holding each cluster's objects (`clusters::key_of`; for `.`, the repository
    /// outside every cluster root, only what the MCO model reads), sorted: a new file joins its
    /// folder's cluster.
    pub clusters: Vec<(String, u32)>,
    /// The cluster roots the models found (a new file's cluster is the one above it).
    pub cluster_roots: Vec<String>,
    /// Whether `--cluster-root` globs find clusters (a new file may make a folder a root).
    pub globbed: bool,
    /// Why no check may be scoped with this record, if one may not.
    pub whole: Option<String>,
}

/// What an island finds, when known.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Island {
    /// Linted on its own (the base of a check: what tells a finding pre-existing).
    pub alone: Option<Found>,
    /// Compared with itself (the head of a check the change does not reach): every finding is
    /// pre-existing, else this is `None` and the island is always evaluated.
    pub unchanged: Option<Found>,
}

// Two records' islands, one per producer of a fleet, are alive at a cold check's highest point.
const _: () = assert!(std::mem::size_of::<Island>() == 32);

/// Findings of one island.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Found {
    /// The findings reported, as classification matches them: a list of one pointer, since
    /// nearly every island of a fleet has none and two records' islands are alive at a check's
    /// highest point.
    pub findings: thin_vec::ThinVec<Finding>,
    /// How many findings suppression comments dropped.
    pub suppressed: u32,
}

/// A finding as classification matches it: never its text.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Finding {
    /// The fingerprint (code, object, field).
    pub fingerprint: String,
    /// The file it is in.
    pub path: String,
    /// The object it names (`Kind/ns/name`).
    pub object: String,
    /// The JSON pointer it points at (`""` when none).
    pub pointer: String,
}

impl Finding {
    /// A finding of the head of `files` (a revision linted on its own: `base` empty).
    pub fn of(d: &Diagnostic, base: &[FileEntry], head: &[FileEntry]) -> Self {
        let id = crate::fingerprint::identity(d, base, head);
        Finding {
            fingerprint: id.fingerprint(),
            path: d.location.path.clone(),
            object: id.object.clone(),
            pointer: if id.field.starts_with('/') {
                id.field
            } else {
                String::new()
            },
        }
    }
}

/// The part of a revision a record describes.
pub struct Revision<'a> {
    /// Every file its source listed (those classify drops as not API objects too: a change to
    /// one is a change to a producer of nothing).
    pub listed: &'a [std::sync::Arc<str>],
    /// Its files, classified.
    pub files: &'a [FileEntry],
    /// Its Kustomize roots.
    pub roots: &'a [RootInputs],
    /// Its objects, settled.
    pub inventory: &'a Inventory,
    /// `--cluster-root` globs.
    pub globs: &'a [String],
    /// Each object's private values (by index), as the run's masking found them.
    pub needles: &'a [(usize, Vec<String>)],
    /// What the run's renders used of their shared limits.
    pub usage: Usage,
    /// Whether the revision uses change-management policies or stanzas.
    pub schedules: bool,
}

impl Record {
    /// How many producers.
    pub fn producer_count(&self) -> usize {
        self.paths.len() + self.roots.len()
    }

    /// A producer by index.
    pub fn producer(&self, p: u32) -> Producer {
        let p = p as usize;
        match self.paths.get(p) {
            Some(path) => Producer::File(path.to_string()),
            None => Producer::Root(self.roots[p - self.paths.len()].clone()),
        }
    }

    /// The index of a producer.
    pub fn index(&self, p: &Producer) -> Option<u32> {
        match p {
            Producer::File(path) => self.path_index(path),
            Producer::Root(root) => self
                .roots
                .binary_search(root)
                .ok()
                .map(|j| (self.paths.len() + j) as u32),
        }
    }

    /// The index of an object's producer ([`producer_of`], without a copy of its name).
    pub fn index_of_object(&self, o: &Object) -> Option<u32> {
        match &o.origin.overlay {
            Some(root) => self
                .roots
                .binary_search_by(|r| r.as_str().cmp(root))
                .ok()
                .map(|j| (self.paths.len() + j) as u32),
            None => self.path_index(&o.path),
        }
    }

    /// The index of a file.
    pub fn path_index(&self, path: &str) -> Option<u32> {
        self.paths
            .binary_search_by(|p| (**p).cmp(path))
            .ok()
            .map(|i| i as u32)
    }

    /// The producers that read a file (the file's own, and the roots).
    pub fn readers_of(&self, path: &str) -> Vec<u32> {
        let Some(i) = self.path_index(path) else {
            return Vec::new();
        };
        let base = self.paths.len() as u32;
        std::iter::once(i)
            .chain(self.readers[i as usize].iter().map(|&j| base + j))
            .collect()
    }

    /// The files a producer reads.
    pub fn inputs_of(&self, p: u32) -> Vec<&str> {
        let p = p as usize;
        match self.paths.get(p) {
            Some(path) => vec![&**path],
            None => self.root_inputs[p - self.paths.len()]
                .iter()
                .map(|&i| &*self.paths[i as usize])
                .collect(),
        }
    }

    /// The file whose presence makes a producer yield objects and findings: a plain file
    /// itself, a root's kustomization (none when the record did not see it).
    pub fn own_file(&self, p: u32) -> Option<&str> {
        let p = p as usize;
        match self.paths.get(p) {
            Some(path) => Some(&**path),
            None => self
                .root_files
                .get(p - self.paths.len())
                .map(String::as_str)
                .filter(|f| !f.is_empty()),
        }
    }

    /// The shape and object count of a producer's objects (none: an empty hash and 0).
    pub fn shape_of(&self, p: u32) -> (u64, u32) {
        match self.shapes.binary_search_by_key(&p, |s| s.0) {
            Ok(i) => (self.shapes[i].1, self.shapes[i].2),
            Err(_) => (digest64(Sha256::new()), 0),
        }
    }

    /// The record of a revision's structure, every island pending.
    pub fn of(rev: &Revision<'_>) -> Record {
        let inv = rev.inventory;
        // The paths the parse, the source and the renders already share, not copies of them.
        // Each list below is in path order already, so a stable sort merges them in about one
        // pass of comparisons, where a set compared long shared prefixes on each of 120,000
        // inserts (the record stage of the large fleet: 229 → 209 ms); an object's path
        // repeats its file's, by address.
        let mut paths: Vec<&Arc<str>> = rev.files.iter().map(|f| &f.path).collect();
        paths.extend(rev.listed.iter());
        paths.extend(rev.roots.iter().flat_map(|r| r.inputs.iter()));
        paths.extend(distinct_runs(
            inv.objects
                .iter()
                .filter(|o| o.origin.overlay.is_none())
                .map(|o| &o.path),
            Arc::ptr_eq,
        ));
        paths.sort();
        paths.dedup();
        let paths: Vec<Arc<str>> = paths.into_iter().cloned().collect();
        let mut roots: Vec<&str> = rev.roots.iter().map(|r| r.root.as_str()).collect();
        roots.extend(distinct_runs(
            inv.objects
                .iter()
                .filter_map(|o| o.origin.overlay.as_deref()),
            |a, b| std::ptr::eq(a, b),
        ));
        roots.sort();
        roots.dedup();
        let roots: Vec<String> = roots.into_iter().map(str::to_string).collect();
        let mut record = Record {
            format: FORMAT,
            root_files: vec![String::new(); roots.len()],
            root_prints: vec![None; roots.len()],
            root_inputs: vec![Vec::new(); roots.len()],
            readers: vec![Vec::new(); paths.len()],
            paths,
            roots,
            file_count: rev.files.len() as u64,
            object_count: inv.objects.len() as u64,
            probe_key: super::probe::new_key(),
            whole: refusal(rev),
            ..Record::default()
        };
        record.roles = roles(rev.files, &record.paths);
        for r in rev.roots {
            let Ok(j) = record.roots.binary_search(&r.root) else {
                continue;
            };
            record.root_files[j] = r.file.clone();
            record.root_prints[j] = r.fingerprint;
            for path in &r.inputs {
                if let Some(i) = record.path_index(path) {
                    record.root_inputs[j].push(i);
                    record.readers[i as usize].push(j as u32);
                }
            }
            record.dirs.extend(
                r.dirs
                    .iter()
                    .map(|d| (d.clone(), (record.paths.len() + j) as u32)),
            );
        }
        for list in record
            .root_inputs
            .iter_mut()
            .chain(record.readers.iter_mut())
        {
            list.sort_unstable();
            list.dedup();
        }
        record.dirs.sort();
        // Objects come file by file: one search per run of objects with the same producer (a
        // search per object compared long shared path prefixes 15 times each, a tenth of the
        // record's time on the large fleet).
        let mut last: Option<(&Object, u32)> = None;
        let object_producer: Vec<u32> = inv
            .objects
            .iter()
            .map(|o| {
                if let Some((_, p)) = last.filter(|(prev, _)| same_producer(prev, o)) {
                    return p;
                }
                let p = record.index_of_object(o).unwrap_or(0);
                last = Some((o, p));
                p
            })
            .collect();
        // Debug builds check the runs against a search per object, in every suite.
        #[cfg(debug_assertions)]
        for (o, &p) in inv.objects.iter().zip(&object_producer) {
            assert_eq!(record.index_of_object(o).unwrap_or(0), p, "{}", o.id);
        }
        let roots = crate::inventory::clusters::roots(inv, inv, rev.globs);
        let keys = links::keys(inv, &roots, rev.globs);
        record.island = islands(&record, rev, &object_producer, &keys);
        let n_islands = record.island.iter().max().map_or(0, |m| *m as usize + 1);
        record.islands = vec![Island::default(); n_islands];
        // Each producer's objects, private values and shape.
        record.shapes = shapes(inv, &object_producer, &keys);
        let mut needles: BTreeMap<u32, BTreeSet<u64>> = BTreeMap::new();
        let mut lengths: BTreeSet<u32> = BTreeSet::new();
        for (i, list) in rev.needles {
            for needle in list {
                lengths.insert(needle.len() as u32);
                needles
                    .entry(object_producer[*i])
                    .or_default()
                    .insert(super::probe::hash(record.probe_key, needle.as_bytes()));
            }
        }
        record.needles = needles
            .into_iter()
            .map(|(p, h)| (p, h.into_iter().collect()))
            .collect();
        record.probe_lengths = lengths.into_iter().collect();
        // The definitions that made deployment units are read by every evaluation too: each
        // object's scope below a unit depends on them.
        record.context = inv
            .objects
            .iter()
            .enumerate()
            .filter(|(_, o)| is_context(o))
            .map(|(i, _)| object_producer[i])
            .chain(inv.unit_sources.iter().map(|&i| object_producer[i]))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        // Keyed by the identities' own text in `Name`'s order (group, kind, namespace, name); a
        // `Name` is made once per distinct name, not once per object.
        type NameText<'a> = (&'a str, &'a str, Option<&'a str>, &'a str);
        let mut names: BTreeMap<NameText<'_>, BTreeSet<u32>> = BTreeMap::new();
        for (i, o) in inv.objects.iter().enumerate() {
            let named = NAMED_KINDS
                .iter()
                .chain(&READ_KINDS)
                .any(|(g, k)| o.id.group == *g && o.id.kind == *k);
            if named {
                let id = &o.id;
                names
                    .entry((&id.group, &id.kind, id.namespace.as_deref(), &id.name))
                    .or_default()
                    .insert(record.island[object_producer[i] as usize]);
            }
        }
        record.names = names
            .into_iter()
            .map(|((group, kind, namespace, name), v)| {
                let name = Name {
                    group: group.to_string(),
                    kind: kind.to_string(),
                    namespace: namespace.map(str::to_string),
                    name: name.to_string(),
                };
                (name, v.into_iter().collect())
            })
            .collect();
        debug_assert!(
            record.names.windows(2).all(|w| w[0].0 < w[1].0),
            "names in Name's own order"
        );
        let island = &record.island;
        record.structure =
            super::structure::Structure::of(inv, |i| island[object_producer[i] as usize]);
        // Inserted one by one, by the keys' own text: collecting pairs would copy every object's
        // key first (7 MB of the large fleet's peak, for a few thousand pairs).
        let mut clusters: BTreeMap<&str, BTreeSet<u32>> = BTreeMap::new();
        for (i, o) in inv.objects.iter().enumerate() {
            if &*keys[i] != "." || crate::inventory::clusters::is_modelled(o) {
                clusters
                    .entry(&keys[i])
                    .or_default()
                    .insert(island[object_producer[i] as usize]);
            }
        }
        record.clusters = clusters
            .into_iter()
            .flat_map(|(key, islands)| islands.into_iter().map(|i| (key.to_string(), i)))
            .collect();
        record.cluster_roots = roots.into_iter().collect();
        record.globbed = !rev.globs.is_empty();
        record
    }

    /// The island of a producer: a file the record does not know (one the change adds) is in
    /// [`NEW_ISLAND`].
    pub fn island_of(&self, p: u32) -> u32 {
        self.island.get(p as usize).copied().unwrap_or(NEW_ISLAND)
    }

    /// The islands holding a cluster's objects.
    pub fn cluster_islands(&self, key: &str) -> Vec<u32> {
        let from = self.clusters.partition_point(|(k, _)| k.as_str() < key);
        self.clusters[from..]
            .iter()
            .take_while(|(k, _)| k == key)
            .map(|(_, i)| *i)
            .collect()
    }
}

/// Whether two objects have the same producer ([`Record::index_of_object`]): the same overlay,
/// or no overlay and the same file.
fn same_producer(a: &Object, b: &Object) -> bool {
    match (&a.origin.overlay, &b.origin.overlay) {
        (Some(x), Some(y)) => x == y,
        (None, None) => a.path == b.path,
        _ => false,
    }
}

/// The role hash of each of `paths` ([`role_hash`]; 0 for a file the check does not parse). The
/// files come sorted by path, so each is found by a binary search, without an index of them
/// all at the record's peak; files in another order are indexed.
fn roles(files: &[FileEntry], paths: &[Arc<str>]) -> Vec<u64> {
    if files.is_sorted_by(|a, b| a.path < b.path) {
        return paths
            .iter()
            .map(|p| {
                files
                    .binary_search_by(|f| (*f.path).cmp(p))
                    .map_or(0, |i| role_hash(&files[i]))
            })
            .collect();
    }
    let roles: HashMap<&str, u64> = files.iter().map(|f| (&*f.path, role_hash(f))).collect();
    paths
        .iter()
        .map(|p| roles.get(&**p).copied().unwrap_or(0))
        .collect()
}

/// Which islands make up a revision: producers joined by every read that crosses them.
fn islands(
    record: &Record,
    rev: &Revision<'_>,
    object_producer: &[u32],
    keys: &[Arc<str>],
) -> Vec<u32> {
    let inv = rev.inventory;
    let mut union = Union((0..record.producer_count() as u32).collect());
    // Roots linted unrendered make objects of their files.
    for r in rev.roots.iter().filter(|r| r.unrendered) {
        if let Some(root) = record.index(&Producer::Root(r.root.clone())) {
            for path in &r.inputs {
                if let Some(f) = record.path_index(path) {
                    union.join(root, f);
                }
            }
        }
    }
    let mut by_name: HashMap<Name, Vec<usize>> = HashMap::new();
    for (i, o) in inv.objects.iter().enumerate() {
        if NAMED_KINDS
            .iter()
            .any(|(g, k)| o.id.group == *g && o.id.kind == *k)
        {
            by_name.entry(Name::of(&o.id)).or_default().push(i);
        }
    }
    links::reads(
        inv,
        keys,
        |_| true,
        |i, read| match read {
            Read::Object(j) => union.join(object_producer[i], object_producer[j]),
            Read::Name(name) => {
                for &j in by_name.get(&name).map(Vec::as_slice).unwrap_or_default() {
                    union.join(object_producer[i], object_producer[j]);
                }
            }
            Read::Kind(group, kind) => {
                for (j, o) in inv.objects.iter().enumerate() {
                    if o.id.group == group && o.id.kind == kind {
                        union.join(object_producer[i], object_producer[j]);
                    }
                }
            }
        },
    );
    let mut numbers: HashMap<u32, u32> = HashMap::new();
    (0..record.producer_count() as u32)
        .map(|p| {
            let r = union.find(p);
            let next = numbers.len() as u32;
            *numbers.entry(r).or_insert(next)
        })
        .collect()
}

/// Union-find over producers.
struct Union(Vec<u32>);

impl Union {
    fn find(&mut self, mut i: u32) -> u32 {
        while self.0[i as usize] != i {
            let up = self.0[self.0[i as usize] as usize];
            self.0[i as usize] = up;
            i = up;
        }
        i
    }

    fn join(&mut self, a: u32, b: u32) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.0[a.max(b) as usize] = a.min(b);
        }
    }
}

/// Why no check may be scoped with a revision's record.
fn refusal(rev: &Revision<'_>) -> Option<String> {
    if rev.schedules {
        return Some("the repository uses change-management policies or stanzas".into());
    }
    if rev.files.iter().any(|f| f.via_link) {
        return Some("the repository reads files through symbolic links".into());
    }
    if rev.roots.iter().any(|r| r.truncated) {
        return Some("a Kustomize root reads more files than a render may".into());
    }
    if over_quarter(rev.usage, &[rev.inventory], [rev.files, &[]]) {
        return Some("the run used more than a quarter of a limit it shares".into());
    }
    None
}

/// Whether a run needed the parse budget its files share, or used more than a quarter of a
/// limit its renders or the objects Policies carry share.
pub fn over_quarter(u: Usage, inventories: &[&Inventory], files: [&[FileEntry]; 2]) -> bool {
    use crate::parse::FileStatus;
    let second_pass = files
        .iter()
        .flat_map(|f| f.iter())
        .any(|f| f.parsed.status == FileStatus::Parsed && f.parsed.blob.is_none());
    let carried = inventories.iter().any(|inv| {
        let (alias, payload, hit) = inv.carried_budget;
        hit || alias as u64 > crate::parse::RUN_ALIAS_BUDGET as u64 / USAGE_DIVISOR
            || payload > (crate::parse::RUN_PAYLOAD_BUDGET / 2) / USAGE_DIVISOR
    });
    second_pass
        || carried
        || u.hit
        || u.output > crate::kustomize::MIN_TOTAL_OUTPUT / USAGE_DIVISOR
        || u.alias as u64 > (crate::parse::RUN_ALIAS_BUDGET as u64 / 2) / USAGE_DIVISOR
        || u.payload > (crate::parse::RUN_PAYLOAD_BUDGET / 2) / USAGE_DIVISOR
}

/// Each producer's objects as the inventory holds them (identity and scope, version, place,
/// origin, cluster, presence), hashed in object order, and how many: a scoped check must index
/// them the same way. `of[i]` is object `i`'s producer, `keys[i]` its cluster.
pub fn shapes(inv: &Inventory, of: &[u32], keys: &[Arc<str>]) -> Vec<(u32, u64, u32)> {
    // A producer's hash is finished at its last object: objects come by file, so few are open
    // at once (a hash state for every producer of a fleet was 4 MB a side at the record's peak).
    let mut last: HashMap<u32, usize> = HashMap::new();
    for (i, p) in of.iter().enumerate().take(inv.objects.len()) {
        last.insert(*p, i);
    }
    let mut open: HashMap<u32, (Sha256, u32)> = HashMap::new();
    let mut out = Vec::with_capacity(last.len());
    for (i, o) in inv.objects.iter().enumerate() {
        let (h, n) = open.entry(of[i]).or_insert_with(|| (Sha256::new(), 0));
        *n += 1;
        let id = &o.id;
        let ns = id.namespace.as_deref();
        let wrapper = o.origin.wrapper.as_ref();
        for part in [
            id.group.as_str(),
            &id.kind,
            ns.unwrap_or("\u{1}"),
            &id.name,
            &id.scope,
            o.api_version(),
            &o.path,
            o.origin.overlay.as_deref().unwrap_or("\u{1}"),
            wrapper.map_or("\u{1}", |w| w.pointer.as_str()),
            &keys[i],
        ] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part.as_bytes());
        }
        if let Some(w) = wrapper {
            h.update(format!("{}|{:?}", w.id, w.how).as_bytes());
        }
        h.update((o.doc_index as u64).to_le_bytes());
        h.update([u8::from(inv.is_absent(i))]);
        if last.get(&of[i]) == Some(&i) {
            if let Some((h, n)) = open.remove(&of[i]) {
                out.push((of[i], digest64(h), n));
            }
        }
    }
    out.sort_unstable_by_key(|&(p, _, _)| p);
    out
}

/// A hash of a file's role (0 is no role).
pub fn role_hash(f: &FileEntry) -> u64 {
    let mut h = Sha256::new();
    h.update(format!("{:?}", f.role).as_bytes());
    digest64(h).max(1)
}

/// The first eight bytes of a SHA-256.
pub fn digest64(h: Sha256) -> u64 {
    let d = h.finalize();
    let mut b = [0u8; 8];
    b.copy_from_slice(&d[..8]);
    u64::from_le_bytes(b)
}

/// Which producers made a finding: those that read its file and, when it names an object, make
/// one so named (else every producer that reads its file).
pub struct Attribution<'a> {
    record: &'a Record,
    /// (kind, namespace, name) → the producers making an object so named.
    /// (a few producers each, sorted: a vector, not a tree node per name).
    by_name: HashMap<(&'a str, &'a str, &'a str), Vec<u32>>,
    /// Files the change adds, each a producer of its own (after the record's).
    added: HashMap<String, u32>,
}

impl<'a> Attribution<'a> {
    /// Over a record's producers and every object of the given sides, with the files a change
    /// adds as producers of their own.
    pub fn with_added(
        record: &'a Record,
        sides: &[&'a Inventory],
        added: &BTreeSet<String>,
    ) -> Self {
        Attribution::indexing(record, sides, added, |_| true)
    }

    /// Over a record's producers, for these findings only: it indexes the objects they name, not
    /// every object of both sides (5 MB of the large fleet's peak, for a few hundred findings). Another
    /// finding naming an object is attributed to every producer reading its file: more islands,
    /// so more of them pending, never fewer.
    pub fn for_findings(
        record: &'a Record,
        sides: &[&'a Inventory],
        findings: &[&[Diagnostic]],
    ) -> Self {
        let wanted: std::collections::HashSet<(&str, &str, &str)> = findings
            .iter()
            .flat_map(|list| list.iter())
            .filter_map(object_key)
            .collect();
        Attribution::indexing(record, sides, &BTreeSet::new(), |key| wanted.contains(key))
    }

    fn indexing(
        record: &'a Record,
        sides: &[&'a Inventory],
        added: &BTreeSet<String>,
        wanted: impl Fn(&(&str, &str, &str)) -> bool,
    ) -> Self {
        let base = record.producer_count() as u32;
        let added: HashMap<String, u32> = added
            .iter()
            .enumerate()
            .map(|(k, p)| (p.clone(), base + k as u32))
            .collect();
        let mut by_name: HashMap<(&str, &str, &str), Vec<u32>> = HashMap::new();
        for inv in sides {
            for o in &inv.objects {
                let ns = o.id.namespace.as_deref().unwrap_or_default();
                let key = (&*o.id.kind, ns, &*o.id.name);
                if !wanted(&key) {
                    continue;
                }
                let p = record.index_of_object(o).or_else(|| {
                    o.origin
                        .overlay
                        .is_none()
                        .then(|| added.get(&*o.path).copied())
                        .flatten()
                });
                if let Some(p) = p {
                    let producers = by_name.entry(key).or_default();
                    if let Err(at) = producers.binary_search(&p) {
                        producers.insert(at, p);
                    }
                }
            }
        }
        by_name.shrink_to_fit();
        Attribution {
            record,
            by_name,
            added,
        }
    }

    /// The producer of an object: the record's, or an added file's.
    pub fn producer_of(&self, o: &Object) -> Option<u32> {
        self.record.index_of_object(o).or_else(|| {
            o.origin
                .overlay
                .is_none()
                .then(|| self.added.get(&*o.path).copied())
                .flatten()
        })
    }

    /// The producers of a finding (empty: none reads its file).
    pub fn candidates(&self, d: &Diagnostic) -> BTreeSet<u32> {
        let mut readers: BTreeSet<u32> = self
            .record
            .readers_of(&d.location.path)
            .into_iter()
            .collect();
        readers.extend(self.added.get(&d.location.path));
        let named = object_key(d)
            .and_then(|k| self.by_name.get(&k))
            .map(|p| {
                p.iter()
                    .filter(|x| readers.contains(x))
                    .copied()
                    .collect::<BTreeSet<u32>>()
            })
            .filter(|p| !p.is_empty());
        named.unwrap_or(readers)
    }

    /// The islands of a finding.
    pub fn islands(&self, d: &Diagnostic) -> BTreeSet<u32> {
        self.candidates(d)
            .into_iter()
            .map(|p| self.record.island_of(p))
            .collect()
    }
}

/// The (kind, namespace, name) a finding names: findings name objects as reports do,
/// `Kind/ns/name` or `Kind/name`.
fn object_key(d: &Diagnostic) -> Option<(&str, &str, &str)> {
    let mut parts = d.object.as_deref()?.splitn(3, '/');
    let (kind, second, third) = (parts.next()?, parts.next()?, parts.next());
    Some(match third {
        Some(name) => (kind, second, name),
        None => (kind, "", second),
    })
}

/// Findings of a revision by the one island each belongs to; findings several islands could
/// have made are left out, and their islands returned: they stay pending.
pub fn by_island(
    attribution: &Attribution<'_>,
    findings: &[Diagnostic],
    suppressed: &[Diagnostic],
    finding: impl Fn(&Diagnostic) -> Finding,
) -> (BTreeMap<u32, Found>, BTreeSet<u32>) {
    let mut out: BTreeMap<u32, Found> = BTreeMap::new();
    let mut unclear = BTreeSet::new();
    for (list, dropped) in [(findings, false), (suppressed, true)] {
        for d in list {
            let islands = attribution.islands(d);
            match islands.iter().next() {
                Some(&i) if islands.len() == 1 => {
                    let found = out.entry(i).or_default();
                    if dropped {
                        found.suppressed += 1;
                    } else {
                        found.findings.push(finding(d));
                    }
                }
                _ => unclear.extend(islands),
            }
        }
    }
    for f in out.values_mut() {
        f.findings.sort();
    }
    (out, unclear)
}

/// Whether what an island finds unchanged is matched, finding for finding, by what it finds on
/// its own at the same place (classification's first pass): then it never takes another
/// island's finding, and only what is left of its own findings can match another island's.
pub fn unchanged_within_alone(unchanged: &Found, alone: &Found) -> bool {
    let mut left: HashMap<(&str, &str), usize> = HashMap::new();
    for f in &alone.findings {
        *left.entry((&f.fingerprint, &f.path)).or_default() += 1;
    }
    unchanged.findings.iter().all(|f| {
        left.get_mut(&(f.fingerprint.as_str(), f.path.as_str()))
            .filter(|n| **n > 0)
            .map(|n| *n -= 1)
            .is_some()
    })
}

/// The fingerprints of an island's findings on its own that its unchanged findings leave
/// unmatched (what classification's second pass may match anywhere).
pub fn leftover<'a>(unchanged: &Found, alone: &'a Found) -> Vec<&'a str> {
    let mut used: HashMap<(&str, &str), usize> = HashMap::new();
    for f in &unchanged.findings {
        *used.entry((&f.fingerprint, &f.path)).or_default() += 1;
    }
    alone
        .findings
        .iter()
        .filter(
            |f| match used.get_mut(&(f.fingerprint.as_str(), f.path.as_str())) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    false
                }
                _ => true,
            },
        )
        .map(|f| f.fingerprint.as_str())
        .collect()
}

/// Whether a head finding of an island the change did not reach is what a record may keep: a
/// pre-existing one (an unchanged island that reports something new is always evaluated).
pub fn kept_unchanged(d: &Diagnostic) -> bool {
    d.state == State::PreExisting
}

/// Sorted paths stored as the length each shares with the one before and the rest: a fleet's
/// paths share most of their folders, and the record is read at every scoped check.
mod front_coded {
    use std::sync::Arc;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(paths: &[Arc<str>], s: S) -> Result<S::Ok, S::Error> {
        let mut previous = "";
        let coded: Vec<(u32, &str)> = paths
            .iter()
            .map(|p| {
                let shared = previous
                    .bytes()
                    .zip(p.bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
                // Cut at a character boundary.
                let shared = (0..=shared)
                    .rev()
                    .find(|&i| p.is_char_boundary(i))
                    .unwrap_or(0);
                previous = p;
                (shared as u32, &p[shared..])
            })
            .collect();
        coded.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Arc<str>>, D::Error> {
        // Borrowed from the record's bytes: one allocation per path, its own.
        let coded: Vec<(u32, &'de str)> = Vec::deserialize(d)?;
        let mut out: Vec<Arc<str>> = Vec::with_capacity(coded.len());
        let mut path = String::new();
        for (shared, rest) in coded {
            if !path.is_char_boundary(shared as usize) || shared as usize > path.len() {
                return Err(serde::de::Error::custom(
                    "a path shares more than the path before it holds",
                ));
            }
            path.truncate(shared as usize);
            path.push_str(rest);
            out.push(Arc::from(path.as_str()));
        }
        Ok(out)
    }
}

/// Lists of numbers as their lengths and one list of all: most of them are empty (a file no
/// Kustomize root reads), and a list decoded per element cost more than the numbers.
mod flat_lists {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(lists: &[Vec<u32>], s: S) -> Result<S::Ok, S::Error> {
        let lengths: Vec<u32> = lists.iter().map(|l| l.len() as u32).collect();
        let all: Vec<u32> = lists.iter().flatten().copied().collect();
        (lengths, all).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<u32>>, D::Error> {
        let (lengths, all): (Vec<u32>, Vec<u32>) = Deserialize::deserialize(d)?;
        let mut rest = all.as_slice();
        let lists = lengths
            .into_iter()
            .map(|n| {
                let (list, after) = rest
                    .split_at_checked(n as usize)
                    .ok_or_else(|| serde::de::Error::custom("a list is longer than the numbers"))?;
                rest = after;
                Ok(list.to_vec())
            })
            .collect::<Result<Vec<_>, D::Error>>()?;
        if !rest.is_empty() {
            return Err(serde::de::Error::custom("numbers belong to no list"));
        }
        Ok(lists)
    }
}

/// Islands as one byte each for the common states (each side unknown or known with no
/// finding), the rest listed whole: a large fleet's tens of thousands of islands are nearly all
/// alike, and decoding them one by one was a quarter of loading a record.
mod compact_islands {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{Found, Island};

    /// The state byte of an island, `None` when it is listed whole.
    fn state(island: &Island) -> Option<u8> {
        let side = |f: &Option<Found>| match f {
            None => Some(0),
            Some(f) if f.findings.is_empty() && f.suppressed == 0 => Some(1),
            Some(_) => None,
        };
        Some(side(&island.alone)? | side(&island.unchanged)? << 1)
    }

    /// Listed whole.
    const WHOLE: u8 = 4;

    pub fn serialize<S: Serializer>(islands: &[Island], s: S) -> Result<S::Ok, S::Error> {
        let states: Vec<u8> = islands.iter().map(|x| state(x).unwrap_or(WHOLE)).collect();
        let whole: Vec<&Island> = islands.iter().filter(|x| state(x).is_none()).collect();
        (states, whole).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Island>, D::Error> {
        let (states, whole): (Vec<u8>, Vec<Island>) = Deserialize::deserialize(d)?;
        let mut whole = whole.into_iter();
        let side = |bit: u8| (bit != 0).then(Found::default);
        let islands = states
            .into_iter()
            .map(|b| match b {
                WHOLE => whole
                    .next()
                    .ok_or_else(|| serde::de::Error::custom("an island listed whole is missing")),
                0..=3 => Ok(Island {
                    alone: side(b & 1),
                    unchanged: side(b & 2),
                }),
                _ => Err(serde::de::Error::custom("an island's state is unknown")),
            })
            .collect::<Result<Vec<Island>, D::Error>>()?;
        if whole.next().is_some() {
            return Err(serde::de::Error::custom(
                "an island listed whole belongs to none",
            ));
        }
        Ok(islands)
    }
}

/// `items` less each item the same (by `same`, a cheap test such as the address) as the one just
/// before it: the objects of one file or one overlay come together.
fn distinct_runs<T: Copy>(
    items: impl Iterator<Item = T>,
    same: impl Fn(T, T) -> bool,
) -> impl Iterator<Item = T> {
    let mut last: Option<T> = None;
    items.filter(move |&item| {
        let repeat = last.is_some_and(|l| same(l, item));
        last = Some(item);
        !repeat
    })
}
