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
use std::sync::Mutex;

use super::generated::Managed;
use crate::diagnostic::Diagnostic;
use crate::inventory::Object;

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
}

/// One kept model: its inputs (held, so the parses they point into stay theirs) and findings.
#[derive(Clone)]
struct Entry {
    label: String,
    managed: Managed,
    platform: Option<String>,
    objects: Vec<Object>,
    diagnostics: Vec<Diagnostic>,
}

impl Entry {
    fn is(&self, key: &Key<'_>) -> bool {
        self.label == key.label
            && self.managed == key.managed
            && self.platform.as_deref() == key.platform
            && self.objects.len() == key.objects.len()
            && self
                .objects
                .iter()
                .zip(key.objects)
                .all(|(a, b)| a.same_definition(b))
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
        if let Some(e) = current
            .get(&hash)
            .and_then(|v| v.iter().find(|e| e.is(key)))
        {
            return Some(e.diagnostics.clone());
        }
        let e = self.previous.get(&hash)?.iter().find(|e| e.is(key))?;
        current.entry(hash).or_default().push(e.clone());
        Some(e.diagnostics.clone())
    }

    /// Keeps the findings of the model whose inputs are `key`.
    pub(super) fn put(&self, key: &Key<'_>, diagnostics: &[Diagnostic]) {
        let entry = Entry {
            label: key.label.to_string(),
            managed: key.managed,
            platform: key.platform.map(str::to_string),
            objects: key.objects.iter().map(|o| (*o).clone()).collect(),
            diagnostics: diagnostics.to_vec(),
        };
        let mut current = self.current.lock().unwrap_or_else(|e| e.into_inner());
        let slot = current.entry(key.hash()).or_default();
        if !slot.iter().any(|e| e.is(key)) {
            slot.push(entry);
        }
    }

    /// Ends a run: what it used or made is what the next may take.
    pub fn next_run(&mut self) {
        let current = std::mem::take(self.current.get_mut().unwrap_or_else(|e| e.into_inner()));
        self.previous = current;
    }
}
