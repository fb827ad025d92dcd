//! Drives the pipeline for `nodecast check`.

use std::collections::BTreeMap;

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
    /// Whether `now` was given (`--now`) rather than read from the clock: only a given time is
    /// printed, so identical inputs give identical reports.
    pub now_given: bool,
    /// Whether more detail was asked for.
    pub verbose: bool,
    /// Findings dropped by suppression comments.
    pub suppressed: usize,
    /// Findings dropped because the baseline holds them.
    pub baselined: usize,
    /// CEL rules nodecast could not evaluate (listed with `--verbose`).
    pub unevaluated_rules: Vec<(ObjectId, crate::validate::Skipped)>,
}

/// Settings of a check run beyond what is compared (models add their knobs here).
#[derive(Clone, Debug)]
pub struct Options {
    /// What to compare.
    pub compare: CompareRequest,
    /// "Now" for time-dependent decisions.
    pub now: jiff::Timestamp,
    /// True when `now` comes from `--now` (it is then printed in the JSON report).
    pub now_given: bool,
    /// Print more detail (fingerprints) in human output.
    pub verbose: bool,
    /// Node counts the repository does not hold, by pool (`--assume-nodes POOL=N`).
    pub assume_nodes: BTreeMap<String, u32>,
    /// Folders (globs) that each hold one standalone cluster (`--cluster-root`).
    pub cluster_roots: Vec<String>,
    /// A disruptive change whose start is not `now` is an error (`--enforce-windows`).
    pub enforce_windows: bool,
    /// Minutes one node takes to roll, to judge whether a rollout fits its window.
    pub per_node_minutes: u32,
    /// Minimum permitted hours in any 32-day span of a schedule (W109).
    pub min_permitted_hours: u32,
    /// Configuration, suppressions, baseline and acknowledgements.
    pub policy: crate::policy::Policy,
    /// Schema validation settings (`--schemas`, `--feature-set`).
    pub validation: crate::validate::Settings,
    /// Boot image metadata given with `--stream-metadata` (else the repository's ConfigMap).
    pub stream_metadata: Option<crate::forecast::boot_images::Metadata>,
    /// The platform assumed when the repository holds no `Infrastructure/cluster` (`platform:`).
    pub assumed_platform: Option<String>,
    /// Whether and how Kustomize roots are rendered.
    pub render: crate::render::Settings,
}

impl Options {
    /// Default settings for a comparison.
    pub fn new(compare: CompareRequest, now: jiff::Timestamp) -> Self {
        Options {
            compare,
            now,
            now_given: false,
            verbose: false,
            assume_nodes: BTreeMap::new(),
            cluster_roots: Vec::new(),
            enforce_windows: false,
            per_node_minutes: 10,
            min_permitted_hours: 48,
            policy: Default::default(),
            validation: crate::validate::Settings::default(),
            stream_metadata: None,
            assumed_platform: None,
            render: crate::render::Settings::default(),
        }
    }
}

/// Loads, parses, indexes, diffs, forecasts and lints.
pub fn run(options: &Options) -> Result<Outcome, Fatal> {
    let now = options.now;
    let mut clock = Stopwatch::from_env();
    let mut loaded = source::load(&options.compare)?;
    crate::policy::select_files(&options.policy, &mut loaded);
    clock.lap("source");
    let files = parse::parse_sides(&loaded.base, &loaded.head);
    clock.lap("parse");
    let trees = crate::render::tree::trees(&loaded, &options.compare);
    let rendered = crate::render::render(&files, (&trees.0, &trees.1), &options.render);
    clock.lap("render");
    // The parse holds everything later stages read; the raw bytes are not needed any more.
    loaded.base.files = Vec::new();
    loaded.head.files = Vec::new();
    let (base, head) = rayon::join(
        || Inventory::build_with(&files.base, &rendered.base),
        || Inventory::build_with(&files.head, &rendered.head),
    );
    clock.lap("inventory");
    // One identity may be defined once per standalone cluster: pair definitions by cluster.
    let roots = forecast::mco::cluster_roots(&base, &head);
    let diff = Diff::compute_grouped(&base, &head, loaded.has_base, &|o| {
        forecast::mco::cluster_key(&roots, &options.cluster_roots, o)
    });
    clock.lap("diff");
    let input = forecast::Input {
        base: &base,
        head: &head,
        diff: &diff,
        options,
    };
    // The models and schema validation read the same inventories and nothing of each other:
    // they run side by side (validation spreads over the cores the models leave idle).
    let ((forecast, unforecast, mut diagnostics), validation) = rayon::join(
        || {
            let modelled = forecast::forecast(&input);
            let unforecast = forecast::unforecast(&head, &diff, &modelled);
            let mut forecast = modelled.impacts;
            let mut diagnostics = modelled.diagnostics;
            crate::schedule::apply(&mut forecast, &input, &mut diagnostics);
            (forecast, unforecast, diagnostics)
        },
        || crate::validate::run(&base, &head, &files.head, &options.validation),
    );
    let validation = validation?;
    clock.lap("forecast+validate");
    diagnostics.extend(rendered.diagnostics);
    diagnostics.extend(validation.diagnostics);
    supersede_duplicate_findings(&mut diagnostics);
    diagnostics.extend(rules::run(&rules::Context {
        base_files: &files.base,
        head_files: &files.head,
        base: &base,
        head: &head,
        diff: &diff,
        forecast: &forecast,
    }));
    clock.lap("rules");
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    let trailer_acks = if options.policy.require_ack {
        crate::policy::ack::trailers(
            &options.compare.path,
            loaded.base.info.rev.as_deref(),
            loaded.head.info.rev.as_deref(),
        )
    } else {
        Vec::new()
    };
    let applied = crate::policy::apply(
        &options.policy,
        crate::policy::Input {
            files: &files,
            forecast: &forecast,
            unforecast: &unforecast,
            diff: &diff,
            base: &base,
            head: &head,
            trailer_acks,
        },
        diagnostics,
    );
    let diagnostics = applied.diagnostics;
    clock.lap("policy");
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
        now_given: options.now_given,
        verbose: options.verbose,
        suppressed: applied.suppressed,
        baselined: applied.baselined,
        unevaluated_rules: validation.skipped,
    })
}

/// Two rules that report the same problem on the same line: the first of each pair gives way to
/// the second. The CRD's transition rule (V104) speaks for the HyperShift model's immutable-field
/// finding (H110: the forecast still says `blocked`); the stream rule S105 (the OSStreams gate is
/// off, so the API server drops `osImageStream`) explains the generic unknown-field V102.
const SUPERSEDED: [(&str, &str); 2] = [("H110", "V104"), ("V102", "S105")];

fn supersede_duplicate_findings(diagnostics: &mut Vec<Diagnostic>) {
    let line = |d: &Diagnostic| d.location.span.map(|s| s.start.line);
    let present: Vec<(&'static str, String, Option<u32>)> = diagnostics
        .iter()
        .map(|d| (d.code, d.location.path.clone(), line(d)))
        .collect();
    diagnostics.retain(|d| {
        !SUPERSEDED.iter().any(|(weaker, stronger)| {
            d.code == *weaker && present.contains(&(*stronger, d.location.path.clone(), line(d)))
        })
    });
}

/// Stage times on stderr when `NODECAST_TIMINGS` is set: where a slow run spends its time, without
/// a profiler (the benchmark script and performance reports use it).
struct Stopwatch {
    last: Option<std::time::Instant>,
}

impl Stopwatch {
    fn from_env() -> Self {
        Stopwatch {
            last: std::env::var_os("NODECAST_TIMINGS").map(|_| std::time::Instant::now()),
        }
    }

    fn lap(&mut self, stage: &str) {
        if let Some(last) = self.last {
            let now = std::time::Instant::now();
            eprintln!(
                "nodecast timing: {stage:<10} {:>8.1} ms",
                (now - last).as_secs_f64() * 1e3
            );
            self.last = Some(now);
        }
    }
}
