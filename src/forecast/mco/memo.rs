//! The model of a cluster in which nothing changed, kept by exactly what that model reads.
//!
//! Most clusters of a fleet are untouched by a change, yet each is modelled for its findings in
//! the head, again for the base revision alone (to tell pre-existing findings), and again at
//! every keystroke in the editor. With no change in the cluster, its model reads only the head's
//! objects of the cluster (each a document of a parse, shared by every side and run that holds
//! the same content), the cluster's label, which generated files the controller writes, and the
//! assumed platform; nothing else of the run. So its findings are kept under those, and a model
//! whose inputs are the very same definitions is not run again.
//! `tests/generated_repo.rs::kept_cluster_models_give_the_full_report` tests reports that reuse
//! these against `--full`, which models every cluster afresh.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

use super::generated::Managed;
use crate::diagnostic::Diagnostic;
use crate::inventory::Object;
use crate::parse::ParsedFile;

/// What an unchanged cluster's model reads.
pub(super) struct Key<'a> {
    pub label: &'a str,
    pub managed: Managed,
    pub platform: Option<&'a str>,
    pub objects: &'a [&'a Object],
}

impl Key<'_> {
    fn hash(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.label.hash(&mut h);
        for o in self.objects {
            o.definition_hash(&mut h);
        }
        h.finish()
    }

    /// What the model reads besides the documents themselves ([`Entry::rest`]).
    fn rest(&self) -> (u64, u64) {
        struct Placements<'a>(&'a [&'a Object]);
        impl Hash for Placements<'_> {
            fn hash<H: Hasher>(&self, h: &mut H) {
                for o in self.0 {
                    o.hash_placement(h);
                }
            }
        }
        crate::keyed_hash::of(&(
            self.label,
            self.managed,
            self.platform,
            Placements(self.objects),
        ))
    }
}

/// One kept model: its inputs and findings. The documents it read are held (so the parses they
/// point into stay theirs and no other parse can take their address) and compared by address;
/// the rest of what it read (the label, the generated files, the platform, and each object's
/// identity, path, origin and values written elsewhere) as a 128-bit keyed hash
/// ([`crate::keyed_hash`]): a copy of every object of a fleet's unchanged clusters was the
/// largest thing a one-off check kept for its base revision's lint (9 MB on the large fleet).
#[derive(Clone)]
struct Entry {
    documents: Vec<(Arc<ParsedFile>, usize)>,
    rest: (u64, u64),
    diagnostics: Vec<Diagnostic>,
}

impl Entry {
    fn is(&self, key: &Key<'_>, rest: (u64, u64)) -> bool {
        self.rest == rest
            && self.documents.len() == key.objects.len()
            && self
                .documents
                .iter()
                .zip(key.objects)
                .all(|((file, index), o)| Arc::ptr_eq(file, o.file()) && *index == o.doc_index)
    }
}

/// Kept models of unchanged clusters: those of the run under way, and those of the run before
/// (which the next run may take; the rest are dropped at each [`Memo::next_run`]).
#[derive(Default)]
pub struct Memo {
    current: Mutex<HashMap<u64, Vec<Entry>>>,
    previous: HashMap<u64, Vec<Entry>>,
}

impl Memo {
    /// The findings of the model whose inputs are `key`, when a model of the same inputs ran.
    pub(super) fn get(&self, key: &Key<'_>) -> Option<Vec<Diagnostic>> {
        let hash = key.hash();
        let mut current = self.current.lock().unwrap_or_else(|e| e.into_inner());
        // The rest is hashed only where a model of the same documents is kept: a cluster
        // modelled for the first time is hashed once, when it is kept.
        if !current.contains_key(&hash) && !self.previous.contains_key(&hash) {
            return None;
        }
        let rest = key.rest();
        if let Some(e) = current
            .get(&hash)
            .and_then(|v| v.iter().find(|e| e.is(key, rest)))
        {
            return Some(e.diagnostics.clone());
        }
        let e = self.previous.get(&hash)?.iter().find(|e| e.is(key, rest))?;
        current.entry(hash).or_default().push(e.clone());
        Some(e.diagnostics.clone())
    }

    /// Keeps the findings of the model whose inputs are `key`.
    pub(super) fn put(&self, key: &Key<'_>, diagnostics: &[Diagnostic]) {
        let rest = key.rest();
        let entry = Entry {
            documents: key
                .objects
                .iter()
                .map(|o| (o.file().clone(), o.doc_index))
                .collect(),
            rest,
            diagnostics: diagnostics.to_vec(),
        };
        let mut current = self.current.lock().unwrap_or_else(|e| e.into_inner());
        let slot = current.entry(key.hash()).or_default();
        if !slot.iter().any(|e| e.is(key, rest)) {
            slot.push(entry);
        }
    }

    /// Ends a run: what it used or made is what the next may take.
    pub fn next_run(&mut self) {
        let current = std::mem::take(self.current.get_mut().unwrap_or_else(|e| e.into_inner()));
        self.previous = current;
    }
}
