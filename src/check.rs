//! The driver: runs the stages in order for `nodecast check` (source → parse → classify →
//! kustomize → inventory → diff → forecast ∥ validate → rules → triage → redact) and hands
//! each stage only the settings it reads. The one module that knows every stage.

use std::collections::BTreeMap;

use crate::diagnostic::Diagnostic;
use crate::diff::Diff;
use crate::forecast::{self, Impact};
use crate::inventory::{Inventory, ObjectId};
use crate::parse::{self, ParsedSides};
use crate::rules;
use crate::source::{self, CompareRequest, SnapshotInfo};
use crate::Fatal;

mod scoped;

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
    /// How many files the head holds (the report's summary; a scoped check parses fewer).
    pub file_count: usize,
    /// How many objects the head holds (the report's summary; a scoped check indexes fewer).
    pub object_count: usize,
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
    /// Why each changed object that reaches no node does not (reports say it beside the change).
    pub no_impact: BTreeMap<ObjectId, crate::forecast::NoImpact>,
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
    /// Findings the base revision already had (listed in `diagnostics` only with `--all`).
    pub pre_existing: usize,
    /// Minutes one node takes to roll (`--per-node-minutes`), for the rollout timeline.
    pub per_node_minutes: u32,
    /// CEL rules nodecast could not evaluate (listed with `--verbose`).
    pub unevaluated_rules: Vec<(ObjectId, crate::validate::Skipped)>,
    /// The private values of both revisions: every report masks them.
    pub redaction: std::sync::Arc<crate::redact::Redaction>,
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
    pub triage: crate::triage::Triage,
    /// Schema validation settings (`--schemas`, `--feature-set`).
    pub validation: crate::validate::Settings,
    /// Boot image metadata given with `--stream-metadata` (else the repository's ConfigMap).
    pub stream_metadata: Option<crate::forecast::boot_images::Metadata>,
    /// The platform assumed when the repository holds no `Infrastructure/cluster` (`platform:`).
    pub assumed_platform: Option<String>,
    /// Whether and how Kustomize roots are rendered.
    pub kustomize: crate::kustomize::Settings,
    /// List pre-existing findings too (`--all`, `report: all`), not only what the change brings.
    pub report_all: bool,
    /// Model every cluster afresh, taking nothing from another evaluation (`--full`: the
    /// reference the shortcuts are tested against).
    pub full: bool,
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
            triage: crate::triage::Triage {
                known: crate::catalog::all(),
                ..Default::default()
            },
            validation: crate::validate::Settings::default(),
            stream_metadata: None,
            assumed_platform: None,
            kustomize: crate::kustomize::Settings::default(),
            report_all: false,
            full: false,
        }
    }
}

impl Options {
    /// Applies a repository's configuration over what the caller (the command line, the editor)
    /// already set: given node counts, cluster roots, a baseline and `--all` / `--require-ack`
    /// win; the configuration adds to them. `root` is what its `baseline` path is relative to.
    pub fn apply_config(
        &mut self,
        config: crate::config::Config,
        root: &std::path::Path,
    ) -> Result<(), Fatal> {
        for (pool, n) in &config.assume_nodes {
            self.assume_nodes.entry(pool.clone()).or_insert(*n);
        }
        for r in &config.cluster_roots {
            if !self.cluster_roots.contains(r) {
                self.cluster_roots.push(r.clone());
            }
        }
        self.assumed_platform = config.platform.clone();
        if let (None, Some(rel)) = (&self.triage.baseline, &config.baseline) {
            let file = root.join(rel);
            let b = crate::triage::baseline::read(&file)?;
            self.triage.baseline = Some((b, crate::config::relative_name(&file, root)));
        }
        self.triage.require_ack |= config.require_ack;
        self.report_all |= config.report_all;
        self.triage.config = config;
        Ok(())
    }
}

/// What a long-lived caller (the language server) keeps from one check to the next of the same
/// repository, so a keystroke redoes what changed, not everything: the files read (a commit's by
/// tree, the working tree's by size and time), the parse of every content (by blob id), the
/// objects each Kustomize render placed (by root and inputs), each unchanged document's schema
/// validation, and the base revision's own findings (while the base,
/// the settings and the minute stay the same). Reused results are what computing them again
/// gives; the outcome is the same.
#[derive(Default)]
pub struct Reuse {
    /// A long-lived caller: what one check computes serves the next.
    keeping: bool,
    /// The record of the last base a scoped check read (a long-lived caller reads it once).
    record: Option<(String, std::sync::Arc<crate::scope::record::Record>)>,
    sources: source::Kept,
    parses: parse::Parses,
    renders: crate::kustomize::Kept,
    validation: crate::validate::Kept,
    clusters: crate::forecast::mco::memo::Memo,
    base_findings: Option<(String, jiff::Timestamp, BaseAlone)>,
}

impl Reuse {
    /// An empty store that keeps what each check computes for the next.
    pub fn keeping() -> Self {
        Reuse {
            keeping: true,
            sources: source::Kept::keeping(),
            renders: crate::kustomize::Kept::keeping(),
            validation: crate::validate::Kept::keeping(),
            ..Reuse::default()
        }
    }
}

/// How long the base revision's findings are reused: "now" decides maintenance-window findings,
/// and a minute is the unit they are written in.
const BASE_FINDINGS_TTL: jiff::SignedDuration = jiff::SignedDuration::from_secs(60);

/// Loads, parses, indexes, diffs, forecasts and lints.
pub fn run(options: &Options) -> Result<Outcome, Fatal> {
    run_reusing(options, &mut Reuse::default())
}

/// [`run`], reusing what `reuse` kept from earlier runs and keeping what the next one can reuse.
pub fn run_reusing(options: &Options, reuse: &mut Reuse) -> Result<Outcome, Fatal> {
    let mut clock = Stopwatch::from_env();
    // A check of two revisions with a record of its base evaluates the islands the change
    // reaches and takes the rest from the record ([`crate::scope`], [`scoped`]).
    let mut scoping = if options.full {
        None
    } else {
        scoped::Scoping::of(options, reuse)?
    };
    if let Some(s) = &mut scoping {
        if let Some(outcome) = s.before_load(options, reuse, &mut clock)? {
            return Ok(outcome);
        }
        s.going_whole();
    }
    let mut loaded = source::load_reusing(&options.compare, &mut reuse.sources)?;
    crate::triage::select_files(&options.triage, &mut loaded);
    clock.lap("source");
    if let Some(s) = &scoping {
        if let Some(outcome) = s.after_load(options, &mut loaded, reuse, &mut clock)? {
            return Ok(outcome);
        }
    }
    let mode = Mode {
        base_alone: scoping.is_some(),
        disk_validation: true,
        probe: None,
    };
    let mut checked = check_loaded(options, loaded, reuse, &mut clock, mode)?;
    if !reuse.keeping {
        // Nothing runs after this check: what it kept for a next one goes before the record is
        // built, the last and highest point of its memory.
        reuse.clusters = Default::default();
        reuse.parses = Default::default();
        reuse.base_findings = None;
    }
    if let Some(s) = &scoping {
        s.learn(options, &checked, reuse);
        clock.lap("record");
    }
    if !options.report_all {
        checked.outcome.diagnostics.retain(|d| d.state.introduced());
    }
    Ok(checked.outcome)
}

/// How [`check_loaded`] runs beyond the options.
struct Mode<'a> {
    /// Lint the base on its own even when the head has no findings (a record needs it).
    base_alone: bool,
    /// Take and leave validation results in the cache folder (a scoped check validates too few
    /// documents for the folder's file to pay).
    disk_validation: bool,
    /// Probe every text a report could print, before masking, for private values of files the
    /// check did not read.
    probe: Option<&'a crate::scope::probe::Probe>,
}

/// What a check of two loaded snapshots gives.
pub(crate) struct Checked {
    /// The outcome for the reports (every finding, pre-existing ones included).
    pub outcome: Outcome,
    /// The base revision's own findings, when they were asked for or needed.
    pub base_alone: Option<BaseAlone>,
    /// What suppression comments dropped of the head's findings (with the base's own findings).
    pub head_suppressed: Option<Vec<Diagnostic>>,
    /// Each side's Kustomize roots and what they read.
    pub base_roots: Vec<crate::kustomize::RootInputs>,
    /// Each side's Kustomize roots and what they read.
    pub head_roots: Vec<crate::kustomize::RootInputs>,
    /// What the renders used of their shared limits.
    pub render_usage: crate::kustomize::Usage,
    /// Whether a text the report could print holds a value the probe looks for.
    pub probe_hit: bool,
    /// Every file each side's source listed (base, head), before classify drops those that are
    /// not API objects.
    pub listed: (Vec<std::sync::Arc<str>>, Vec<std::sync::Arc<str>>),
    /// Each object's private values, as masking found them (base, head).
    pub needles: crate::redact::Needles,
}

/// The findings of the base revision linted on its own, as triage left them.
#[derive(Clone, Debug, Default)]
pub(crate) struct BaseAlone {
    /// What is reported.
    pub findings: Vec<Diagnostic>,
    /// What suppression comments dropped.
    pub suppressed: Vec<Diagnostic>,
}

/// Parses, renders, indexes, diffs, forecasts and lints two loaded snapshots; lints the base on
/// its own when the head has findings (to tell pre-existing ones), or always with `base_alone`.
fn check_loaded(
    options: &Options,
    mut loaded: source::Loaded,
    reuse: &mut Reuse,
    clock: &mut Stopwatch,
    mode: Mode<'_>,
) -> Result<Checked, Fatal> {
    let base_alone = mode.base_alone;
    let now = options.now;
    let mut files =
        parse::parse_sides_reusing(&mut loaded.base, &mut loaded.head, &mut reuse.parses);
    // One entry per listed file until classify drops those that are not API objects.
    let paths = |s: &[parse::FileEntry]| s.iter().map(|f| f.path.clone()).collect();
    let listed = (paths(&files.base), paths(&files.head));
    crate::classify::assign(&mut files);
    clock.lap("parse");
    let trees = crate::kustomize::tree::trees(&loaded, &options.compare);
    let mut rendered = crate::kustomize::render_reusing(
        &files,
        (&trees.0, &trees.1),
        &options.kustomize,
        &mut reuse.renders,
    );
    clock.lap("render");
    // The parse holds everything later stages read; the raw bytes are not needed any more.
    loaded.base.files = Vec::new();
    loaded.head.files = Vec::new();
    let (mut base, mut head) =
        Inventory::build_pair((&files.base, &rendered.base), (&files.head, &rendered.head));
    let units = crate::inventory::settle(&mut base, &mut head, &options.cluster_roots);
    crate::inventory::share_unchanged(&base, &mut head);
    clock.lap("inventory");
    let mut diff = diff_of(options, &base, &head, loaded.has_base);
    crate::diff::unreadable::mark(&mut diff, &files, &base, &head, loaded.has_base);
    // Private values never reach a model, a rule or a report as text.
    let private = &options.triage.config.redact;
    crate::redact::fields(&mut diff, &base, &head, private);
    clock.lap("diff");
    // A check validates twice: the head against the base, then (for pre-existing findings) the
    // base on its own. The second takes the first's result for every document the change left
    // alone, so a one-off check keeps its results for the length of the check, and takes and
    // leaves results in the cache folder for the next one-off check.
    let disk = options
        .kustomize
        .cache_dir
        .as_deref()
        .filter(|_| mode.disk_validation);
    let mut for_this_check =
        crate::validate::Kept::keeping().with_cache(disk, &options.compare.path);
    let one_off = !reuse.validation.is_keeping() && !options.full;
    let validation = if one_off {
        &mut for_this_check
    } else {
        &mut reuse.validation
    };
    // The head's findings of the rules that read one file at a time, for the base's lint below.
    let mut head_by_file = rules::ByFile::default();
    let evaluated = evaluate(
        options,
        Pair {
            base_files: &files.base,
            head_files: &files.head,
            base: &base,
            head: &head,
            diff: &diff,
        },
        rendered.diagnostics.clone(),
        validation,
        &reuse.clusters,
        // `--full` lints the base revision afresh too (the differential tests compare the two).
        if options.full {
            rules::Sharing::None
        } else {
            rules::Sharing::Keep(&mut head_by_file)
        },
    )?;
    clock.lap("forecast+validate+rules");
    let trailer_acks = if options.triage.require_ack {
        crate::triage::ack::trailers(
            &options.compare.path,
            loaded.base.info.rev.as_deref(),
            loaded.head.info.rev.as_deref(),
        )
    } else {
        Vec::new()
    };
    let applied = crate::triage::apply(
        &options.triage,
        crate::triage::Input {
            files: &files,
            forecast: &evaluated.forecast,
            unforecast: &evaluated.unforecast,
            diff: &diff,
            base: &base,
            head: &head,
            trailer_acks,
        },
        evaluated.diagnostics,
    );
    let mut diagnostics = applied.diagnostics;
    clock.lap("policy");
    let mut pre_existing = 0;
    let mut alone = None;
    if loaded.has_base && (!diagnostics.is_empty() || base_alone) {
        // What the base revision already had, linted on its own exactly as the head is: a
        // finding found there too is pre-existing, not something this change introduces.
        let key = base_findings_key(
            options,
            &files.base,
            &rendered.base_alone,
            &(&units, &base.dormant, &head.dormant),
        );
        let before = match reuse.base_findings.take() {
            Some((k, at, before))
                if k == key && now.duration_since(at).abs() < BASE_FINDINGS_TTL =>
            {
                (k, at, before)
            }
            _ => (
                key,
                now,
                lint_alone(
                    options,
                    &files.base,
                    &base,
                    &rendered.base_alone,
                    validation,
                    &reuse.clusters,
                    (!options.full).then_some((&head_by_file, &files.head)),
                )?,
            ),
        };
        let before = &reuse.base_findings.insert(before).2;
        pre_existing =
            crate::triage::introduced::classify(&mut diagnostics, &before.findings, &files, &diff);
        alone = base_alone.then(|| before.clone());
        clock.lap("pre-existing");
    }
    reuse.clusters.next_run();
    validation.save();
    let mut forecast = evaluated.forecast;
    let probe_hit = mode.probe.is_some_and(|p| {
        p.without(&[&base, &head], private).hits_outcome(
            &mut diagnostics,
            &mut forecast,
            &mut diff,
            &files,
        )
    });
    let (redaction, needles) = crate::redact::Redaction::build_with_needles(&base, &head, private);
    clock.lap("redact-scan");
    crate::redact::outcome(&redaction, &mut diagnostics, &mut forecast, &mut diff);
    clock.lap("redact");
    let outcome = Outcome {
        base_info: loaded.base.info,
        head_info: loaded.head.info,
        has_base: loaded.has_base,
        file_count: files.head.len(),
        object_count: head.objects.len(),
        files,
        base,
        head,
        diff,
        forecast,
        unforecast: evaluated.unforecast,
        no_impact: evaluated.no_impact,
        diagnostics,
        pre_existing,
        per_node_minutes: options.per_node_minutes,
        now,
        now_given: options.now_given,
        verbose: options.verbose,
        suppressed: applied.suppressed.len(),
        baselined: applied.baselined,
        unevaluated_rules: evaluated.skipped,
        redaction: std::sync::Arc::new(redaction),
    };
    Ok(Checked {
        outcome,
        head_suppressed: alone.is_some().then_some(applied.suppressed),
        base_alone: alone,
        base_roots: std::mem::take(&mut rendered.base.roots),
        head_roots: std::mem::take(&mut rendered.head.roots),
        render_usage: rendered.usage,
        probe_hit,
        needles,
        listed,
    })
}

/// What the base revision's own findings depend on: its files (path and content), its render's
/// findings, the deployment units its objects are scoped by and the objects the head's Policies
/// newly enforce (both found with the head's, so they can change when only the head does), and
/// every setting (the editor's buffers and the time aside).
fn base_findings_key(
    options: &Options,
    files: &[parse::FileEntry],
    rendered: &[Diagnostic],
    scoping: &(impl std::fmt::Debug + ?Sized),
) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for f in files {
        h.update(f.path.as_bytes());
        h.update([0]);
        h.update(f.id.unwrap_or_default());
    }
    let mut settings = options.clone();
    settings.compare.overlay = Default::default();
    settings.now = jiff::Timestamp::UNIX_EPOCH;
    h.update(format!("{settings:?}\0{rendered:?}\0{scoping:?}").as_bytes());
    format!("{:x}", h.finalize())
}

/// Pairs base and head definitions; one identity may be defined once per standalone cluster.
fn diff_of(options: &Options, base: &Inventory, head: &Inventory, has_base: bool) -> Diff {
    // The clusters the models and K004 see (`--cluster-root` globs included): grouped without
    // them, two glob roots' definitions of one MachineConfig were one cluster's duplicates here
    // and their own clusters' changes in the models.
    let roots = crate::inventory::clusters::roots(base, head, &options.cluster_roots);
    Diff::compute_grouped(base, head, has_base, &|o| {
        crate::inventory::clusters::key_of(&roots, &options.cluster_roots, o)
    })
}

/// The forecast's settings, from the run's options.
pub fn forecast_settings(options: &Options) -> forecast::Settings<'_> {
    forecast::Settings {
        now: options.now,
        assume_nodes: &options.assume_nodes,
        assumed_platform: options.assumed_platform.as_deref(),
        cluster_roots: &options.cluster_roots,
        enforce_windows: options.enforce_windows,
        min_permitted_hours: options.min_permitted_hours,
        per_node_minutes: options.per_node_minutes,
        stream_metadata: options.stream_metadata.as_ref(),
    }
}

/// The two revisions one evaluation reads.
#[derive(Clone, Copy)]
struct Pair<'a> {
    base_files: &'a [parse::FileEntry],
    head_files: &'a [parse::FileEntry],
    base: &'a Inventory,
    head: &'a Inventory,
    diff: &'a Diff,
}

/// What the models, validation and rules found for one pair of revisions (before the policy).
struct Evaluation {
    forecast: Vec<Impact>,
    unforecast: Vec<ObjectId>,
    no_impact: BTreeMap<ObjectId, crate::forecast::NoImpact>,
    diagnostics: Vec<Diagnostic>,
    skipped: Vec<(ObjectId, crate::validate::Skipped)>,
}

/// Forecasts, validates and runs the rules on one pair of revisions.
fn evaluate(
    options: &Options,
    pair: Pair<'_>,
    rendered: Vec<Diagnostic>,
    validation: &mut crate::validate::Kept,
    clusters: &crate::forecast::mco::memo::Memo,
    by_file: rules::Sharing<'_>,
) -> Result<Evaluation, Fatal> {
    let input = forecast::Input {
        base: pair.base,
        head: pair.head,
        diff: pair.diff,
        settings: forecast_settings(options),
        memo: (!options.full).then_some(clusters),
    };
    // The models and schema validation read the same inventories and nothing of each other:
    // they run side by side (validation spreads over the cores the models leave idle).
    let ((forecast, unforecast, no_impact, mut diagnostics), validation) = rayon::join(
        || {
            let modelled = forecast::forecast(&input);
            let unforecast = forecast::unforecast(pair.base, pair.head, pair.diff, &modelled);
            (
                modelled.impacts,
                unforecast,
                modelled.no_impact,
                modelled.diagnostics,
            )
        },
        || {
            crate::validate::run_reusing(
                pair.base,
                pair.head,
                pair.head_files,
                (&options.validation, &options.cluster_roots),
                validation,
            )
        },
    );
    let validation = validation?;
    diagnostics.extend(rendered);
    diagnostics.extend(validation.diagnostics);
    diagnostics.extend(rules::run_sharing(
        &rules::Context {
            base_files: pair.base_files,
            head_files: pair.head_files,
            base: pair.base,
            head: pair.head,
            diff: pair.diff,
            forecast: &forecast,
            cluster_roots: &options.cluster_roots,
            undecoded: Default::default(),
        },
        by_file,
    ));
    supersede_duplicate_findings(&mut diagnostics);
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    Ok(Evaluation {
        forecast,
        unforecast,
        no_impact,
        diagnostics,
        skipped: validation.skipped,
    })
}

/// The findings of the base revision linted on its own (no base to compare it with), through
/// the same suppressions and rule levels as the head; configuration, baseline and
/// acknowledgement findings belong to the run, not to a revision, and are left out.
fn lint_alone(
    options: &Options,
    files: &[parse::FileEntry],
    inventory: &Inventory,
    rendered: &[Diagnostic],
    validation: &mut crate::validate::Kept,
    clusters: &crate::forecast::mco::memo::Memo,
    head_by_file: Option<(&rules::ByFile, &[parse::FileEntry])>,
) -> Result<BaseAlone, Fatal> {
    let empty = Inventory::default();
    let diff = diff_of(options, &empty, inventory, false);
    // `--full` validates the base afresh; otherwise each document the change left alone takes
    // the head's result (the validation's key says when the base document matters), and the
    // head's results stay what is kept.
    let mut fresh = crate::validate::Kept::default();
    let validation = if options.full { &mut fresh } else { validation };
    let keeping = validation.set_keeping(false);
    let evaluated = evaluate(
        options,
        Pair {
            base_files: &[],
            head_files: files,
            base: &empty,
            head: inventory,
            diff: &diff,
        },
        rendered.to_vec(),
        validation,
        clusters,
        head_by_file.map_or(rules::Sharing::None, |(by_file, head)| {
            rules::Sharing::Take(by_file, head)
        }),
    );
    validation.set_keeping(keeping);
    let evaluated = evaluated?;
    let sides = ParsedSides {
        base: Vec::new(),
        head: files.to_vec(),
        parsed_count: 0,
    };
    let mut triage = options.triage.clone();
    triage.baseline = None;
    triage.require_ack = false;
    triage.config.diagnostics.clear();
    let applied = crate::triage::apply(
        &triage,
        crate::triage::Input {
            files: &sides,
            forecast: &evaluated.forecast,
            unforecast: &evaluated.unforecast,
            diff: &diff,
            base: &empty,
            head: inventory,
            trailer_acks: Vec::new(),
        },
        evaluated.diagnostics,
    );
    Ok(BaseAlone {
        findings: applied.diagnostics,
        suppressed: applied.suppressed,
    })
}

/// Two rules that report the same problem on the same line: the first of each pair gives way to
/// the second. The CRD's transition rule (V104) speaks for the HyperShift model's immutable-field
/// finding (H110: the forecast still says `blocked`); the stream rule S105 (the OSStreams gate is
/// off, so the API server drops `osImageStream`) explains the generic unknown-field V102; the
/// API server's type error (V101) says what a YAML 1.1 reading (Y003) did to the value; the
/// HyperShift model's unresolved config reference (H102, with what it means for the rollout)
/// speaks for the generic missing reference (R001); a
/// changed file that cannot be read (Y010, with the pools it may roll) speaks for the finding
/// that says why it is not read (Y001, Y005–Y009).
const SUPERSEDED: [(&str, &str); 10] = [
    ("H110", "V104"),
    ("R001", "H102"),
    ("V102", "S105"),
    ("Y003", "V101"),
    ("Y001", "Y010"),
    ("Y005", "Y010"),
    ("Y006", "Y010"),
    ("Y007", "Y010"),
    ("Y008", "Y010"),
    ("Y009", "Y010"),
];

fn supersede_duplicate_findings(diagnostics: &mut Vec<Diagnostic>) {
    type Place = (&'static str, String, Option<u32>);
    let line = |d: &Diagnostic| d.location.span.map(|s| s.start.line);
    let present: Vec<Place> = diagnostics
        .iter()
        .map(|d| (d.code, d.location.path.clone(), line(d)))
        .collect();
    // The finding that stays keeps the higher severity of the two: one finding, never a
    // weaker verdict (an unresolved reference the model calls a warning is still an error
    // when the repository manages that kind and the object is missing).
    let mut raise: Vec<(Place, crate::diagnostic::Severity)> = Vec::new();
    diagnostics.retain(|d| {
        let superseded_by = SUPERSEDED.iter().find(|(weaker, stronger)| {
            d.code == *weaker && present.contains(&(*stronger, d.location.path.clone(), line(d)))
        });
        if let Some((_, stronger)) = superseded_by {
            raise.push(((*stronger, d.location.path.clone(), line(d)), d.severity));
        }
        superseded_by.is_none()
    });
    for d in diagnostics.iter_mut() {
        let place = (d.code, d.location.path.clone(), line(d));
        if let Some(s) = raise
            .iter()
            .filter(|(p, _)| *p == place)
            .map(|(_, s)| *s)
            .max()
        {
            d.severity = d.severity.max(s);
        }
    }
}

/// The process's current and peak resident memory ("" where `/proc` does not say), so the stage
/// that grows memory shows beside the time it takes.
fn resident() -> String {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return String::new();
    };
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse::<u64>().ok())
            .map(|kb| kb / 1024)
    };
    match (field("VmRSS:"), field("VmHWM:")) {
        (Some(now), Some(peak)) => format!(
            "  rss {now} MiB (peak {peak} MiB; anon {} MiB, file {} MiB)",
            field("RssAnon:").unwrap_or(0),
            field("RssFile:").unwrap_or(0)
        ),
        _ => String::new(),
    }
}

/// The CPU time of every thread of the process so far, in ticks of 10 ms (user and system; `None`
/// where `/proc` does not say).
fn cpu_ticks() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name in parentheses may hold spaces; the fields count from after it.
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_ascii_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(user + system)
}

/// Stage times on stderr when `NODECAST_TIMINGS` is set: where a slow run spends its time, without
/// a profiler (the benchmark script and performance reports use it).
pub struct Stopwatch {
    last: Option<(std::time::Instant, Option<u64>)>,
}

impl Stopwatch {
    /// A stopwatch that runs only when `NODECAST_TIMINGS` is set, so timing costs nothing otherwise.
    pub fn from_env() -> Self {
        Stopwatch {
            last: std::env::var_os("NODECAST_TIMINGS")
                .map(|_| (std::time::Instant::now(), cpu_ticks())),
        }
    }

    /// Prints the time since the last lap, the CPU time all threads spent in it (below the wall
    /// time, the stage left cores idle) and the memory now, so each stage's cost is its own.
    pub fn lap(&mut self, stage: &str) {
        if let Some((last, last_cpu)) = self.last {
            let now = std::time::Instant::now();
            let cpu = cpu_ticks();
            let spent = match (last_cpu, cpu) {
                (Some(a), Some(b)) => format!("  cpu {:>6} ms", b.saturating_sub(a) * 10),
                _ => String::new(),
            };
            eprintln!(
                "nodecast timing: {stage:<10} {:>8.1} ms{spent}{}",
                (now - last).as_secs_f64() * 1e3,
                resident()
            );
            self.last = Some((now, cpu));
        }
    }
}
