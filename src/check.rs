//! Drives the pipeline for `nodecast check`.

use crate::diagnostic::Diagnostic;
use crate::diff::Diff;
use crate::forecast::{self, Impact};
use crate::inventory::{Inventory, ObjectId};
use crate::parse::{self, ParsedSides};
use crate::rules;
use crate::source::{self, CompareRequest, SnapshotInfo};
use crate::Fatal;

/// Everything a check produced, for the report stage.
pub struct Outcome {
    /// What was compared.
    pub base_info: SnapshotInfo,
    /// What was compared.
    pub head_info: SnapshotInfo,
    /// Whether there was a base to compare with.
    pub has_base: bool,
    /// Parsed files of both sides.
    pub files: ParsedSides,
    /// Base objects.
    pub base: Inventory,
    /// Head objects.
    pub head: Inventory,
    /// Differences.
    pub diff: Diff,
    /// Forecast entries.
    pub forecast: Vec<Impact>,
    /// Changed objects that may affect nodes but that no forecast model covers yet.
    pub unforecast: Vec<ObjectId>,
    /// Findings, sorted.
    pub diagnostics: Vec<Diagnostic>,
    /// The time used for time-dependent decisions (`--now`).
    pub now: jiff::Timestamp,
}

/// Loads, parses, indexes, diffs, forecasts and lints.
pub fn run(req: &CompareRequest, now: jiff::Timestamp) -> Result<Outcome, Fatal> {
    let loaded = source::load(req)?;
    let files = parse::parse_sides(&loaded.base, &loaded.head);
    let (base, head) = rayon::join(
        || Inventory::build(&files.base),
        || Inventory::build(&files.head),
    );
    let diff = Diff::compute(&base, &head, loaded.has_base);
    let forecast = forecast::forecast(&base, &head, &diff);
    let unforecast = forecast::unforecast(&head, &diff, &forecast);
    let diagnostics = rules::run(&rules::Context {
        base_files: &files.base,
        head_files: &files.head,
        base: &base,
        head: &head,
        diff: &diff,
        forecast: &forecast,
    });
    Ok(Outcome {
        base_info: loaded.base.info,
        head_info: loaded.head.info,
        has_base: loaded.has_base,
        files,
        base,
        head,
        diff,
        forecast,
        unforecast,
        diagnostics,
        now,
    })
}
