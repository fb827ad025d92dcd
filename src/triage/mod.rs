//! Triage stage (after rules): what the repository and the run decide about findings — rule levels
//! and file selection from `.nodecast.yaml`, suppression comments, the baseline, and rollout
//! acknowledgements.

pub mod ack;
pub mod baseline;
pub mod codes;
pub mod introduced;
pub mod suppress;

use crate::config::{Config, Level};
use crate::diagnostic::Diagnostic;
use crate::diff::Diff;
use crate::forecast::Impact;
use crate::inventory::{Inventory, ObjectId};
use crate::parse::ParsedSides;
use crate::source::Loaded;

/// The run's triage settings: configuration, baseline, acknowledgements.
#[derive(Clone, Debug, Default)]
pub struct Triage {
    /// The configuration (default when there is no file).
    pub config: Config,
    /// `--baseline FILE` (or `baseline:`): the baseline and how findings name it.
    pub baseline: Option<(baseline::Baseline, String)>,
    /// `require-ack` (config) or `--require-ack`.
    pub require_ack: bool,
    /// `--ack TARGET` values.
    pub acks: Vec<String>,
    /// Every finding code (the catalog, passed down by the driver), to tell a suppression of an
    /// unknown code from an unused one.
    pub known: &'static [&'static crate::code::Code],
}

/// Drops the files the configuration does not select (and configuration files themselves).
pub fn select_files(triage: &Triage, loaded: &mut Loaded) {
    loaded.base.files.retain(|f| triage.config.selects(&f.path));
    loaded.head.files.retain(|f| triage.config.selects(&f.path));
}

/// What triage reads besides the findings.
pub struct Input<'a> {
    /// Parsed files of both sides.
    pub files: &'a ParsedSides,
    /// The forecast.
    pub forecast: &'a [Impact],
    /// Changed node-affecting objects no model judged.
    pub unforecast: &'a [ObjectId],
    /// Differences (for where unmodelled changes are).
    pub diff: &'a Diff,
    /// Base objects.
    pub base: &'a Inventory,
    /// Head objects.
    pub head: &'a Inventory,
    /// Acknowledgements found in the compared commits' trailers.
    pub trailer_acks: Vec<String>,
}

/// What triage did.
#[derive(Debug, Default)]
pub struct Applied {
    /// The findings to report.
    pub diagnostics: Vec<Diagnostic>,
    /// Findings dropped by suppression comments.
    pub suppressed: Vec<Diagnostic>,
    /// Findings dropped because the baseline holds them.
    pub baselined: usize,
}

/// Applies suppressions, acknowledgements, configuration findings, rule levels and the baseline,
/// in that order.
pub fn apply(triage: &Triage, input: Input<'_>, diagnostics: Vec<Diagnostic>) -> Applied {
    let (mut out, suppressed) = suppress::apply(&input.files.head, diagnostics, triage.known);
    if triage.require_ack {
        let mut acks = triage.acks.clone();
        acks.extend(input.trailer_acks);
        let unmodelled: Vec<ack::Unmodelled<'_>> = input
            .unforecast
            .iter()
            .map(|id| {
                let change = input.diff.changes.iter().find(|c| &c.id == id);
                ack::Unmodelled {
                    id: id.to_string(),
                    location: change.and_then(|c| c.fields.iter().find_map(|f| f.head.as_ref())),
                    file: change
                        .and_then(|c| c.head)
                        .and_then(|i| input.head.objects.get(i))
                        .map(|o| &*o.path),
                    base_file: change
                        .and_then(|c| c.base)
                        .and_then(|i| input.base.objects.get(i))
                        .map(|o| &*o.path),
                }
            })
            .collect();
        out.extend(ack::check(
            input.forecast,
            &unmodelled,
            &acks,
            &input.files.head,
        ));
    }
    out.extend(triage.config.diagnostics.iter().cloned());
    let mut out: Vec<Diagnostic> = out
        .into_iter()
        .filter_map(
            |mut d| match triage.config.level(d.code, &d.location.path) {
                Some(Level::Off) => None,
                Some(Level::Severity(s)) => {
                    d.severity = s;
                    Some(d)
                }
                None => Some(d),
            },
        )
        .collect();
    let mut baselined = 0;
    if let Some((b, name)) = &triage.baseline {
        let (kept, n) = baseline::apply(b, name, out, input.files);
        out = kept;
        baselined = n;
    }
    out.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    Applied {
        diagnostics: out,
        suppressed,
        baselined,
    }
}
