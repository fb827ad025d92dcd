//! Report stage: the outcome for people (human, Markdown, HTML) and programs (JSON, SARIF, GitHub
//! annotations, JUnit, GitLab Code Quality). It only reads the outcome; it decides nothing.

pub mod github;
pub mod gitlab;
pub mod html;
pub mod human;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod sarif;
pub mod timeline;

use std::collections::HashMap;
use std::sync::Arc;

use crate::check::Outcome;
use crate::diagnostic::{Severity, Side};
use crate::forecast::Action;

/// Counts for the summary line and the JSON `summary`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Files read on the head side.
    pub files: usize,
    /// Objects on the head side.
    pub objects: usize,
    /// Error findings.
    pub errors: usize,
    /// Warning findings.
    pub warnings: usize,
    /// Info findings.
    pub infos: usize,
    /// Forecast entries that disrupt nodes.
    pub disruptive: usize,
    /// Findings the base revision already had: counted here, not in errors/warnings/infos.
    pub pre_existing: usize,
}

/// Counts the outcome.
pub fn counts(o: &Outcome) -> Counts {
    let by = |s: Severity| {
        o.diagnostics
            .iter()
            .filter(|d| d.severity == s && d.state.introduced())
            .count()
    };
    Counts {
        files: o.file_count,
        objects: o.object_count,
        errors: by(Severity::Error),
        warnings: by(Severity::Warning),
        infos: by(Severity::Info),
        disruptive: o
            .forecast
            .iter()
            .filter(|i| i.action != Action::None)
            .count(),
        pre_existing: o.pre_existing,
    }
}

/// How reports name a pool: `NodePool clusters/workers`, `MachineConfigPool worker`.
pub fn pool_label(t: &crate::forecast::Target) -> String {
    match &t.namespace {
        Some(ns) => format!("{} {ns}/{}", t.kind, t.name),
        None => format!("{} {}", t.kind, t.name),
    }
}

/// The contract name of an action (`in-place`, `reboot`, …).
pub fn action_name(a: Action) -> String {
    serde_json::to_value(a)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// File texts by side and path, for code frames cut from the right revision. Every text handed
/// out is masked where private values are written ([`crate::redact::Redaction::mask`]): no
/// format can cut a frame or a snippet that shows one.
#[derive(Default)]
pub struct Texts {
    map: HashMap<(Side, Arc<str>), Arc<str>>,
    redaction: Arc<crate::redact::Redaction>,
    masked: std::cell::RefCell<HashMap<(Side, String), Arc<str>>>,
}

impl Texts {
    /// Collects the texts of both sides.
    pub fn new(o: &Outcome) -> Self {
        let mut map = HashMap::new();
        for (side, files) in [(Side::Base, &o.files.base), (Side::Head, &o.files.head)] {
            for f in files {
                if let Some(text) = &f.parsed.text {
                    map.insert((side, f.path.clone()), text.clone());
                }
            }
        }
        Texts {
            map,
            redaction: o.redaction.clone(),
            masked: Default::default(),
        }
    }

    /// The text of a file of a side, private values masked (masked once per file and run).
    pub fn get(&self, side: Side, path: &str) -> Option<Arc<str>> {
        let key = (side, path.to_string());
        if let Some(t) = self.masked.borrow().get(&key) {
            return Some(t.clone());
        }
        let original = self.map.get(&(side, Arc::from(path)))?;
        let masked: Arc<str> = self.redaction.mask(side, path, original).into();
        self.masked.borrow_mut().insert(key, masked.clone());
        Some(masked)
    }
}
