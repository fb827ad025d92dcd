//! Kustomize stage (between parse and inventory): Kustomize roots rendered for both revisions, so
//! the inventory holds what the cluster will see rather than the raw files.
//!
//! A *root* is a kustomization that no other kustomization of the side lists as a resource or
//! component. Each root's inputs are copied (from Git objects or disk) into a temporary folder,
//! rendered through a wrapper kustomization with `buildMetadata: [originAnnotations]`, and every
//! rendered object is placed back into the repository: each value at the line that writes it (the
//! origin file, a patch, a kustomization field), else at the object's first line in its origin
//! file. Plugins, Helm charts and remote bases are never run or fetched; such roots, and roots
//! that fail to render, are linted unrendered.
//!
//! This module runs the stage (which roots, one render per distinct input, the diagnostics);
//! `plan` reads each root's closure from the tree and `place` puts the rendered objects back
//! into the repository's files.

pub mod cache;
mod candidates;
pub mod codes;
mod identity;
pub mod interrupt;
pub mod kustomization;
mod place;
mod plan;
mod queue;
mod remap;
pub mod run;
pub mod tree;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use nodecast_yaml::Span;
use rayon::prelude::*;

use crate::diagnostic::{Diagnostic, Location, Severity, Side};
use crate::parse::{self, FileEntry, ParsedFile, ParsedSides};
use kustomization::{dir_of, is_kustomization_path, join};
use place::place;
use plan::{plan, roots, Plan};
pub use run::Renderer;
pub use tree::Tree;

/// How to render (`--no-render`, `--kustomize`, `--render-timeout`).
#[derive(Clone, Debug)]
pub struct Settings {
    /// Render at all.
    pub enabled: bool,
    /// The configured program (`kubectl` or `kustomize`, or a path); `None` = look on PATH.
    pub program: Option<PathBuf>,
    /// Longest time one render may take.
    pub timeout: Duration,
    /// Take roots that only list plain files from the parsed files instead of running the
    /// renderer (off only in tests that compare the two).
    pub emulate_identity: bool,
    /// The cache folder (`--cache-dir`, else the platform's cache folder); `None` renders every
    /// root (`--no-cache`, `--full`).
    pub cache_dir: Option<PathBuf>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            enabled: true,
            program: None,
            timeout: Duration::from_secs(60),
            emulate_identity: true,
            cache_dir: None,
        }
    }
}

/// One rendered object, placed in the repository.
#[derive(Clone, Debug)]
pub struct RenderedObject {
    /// Repository-relative path of the file the object comes from (its origin).
    pub path: String,
    /// The kustomization folder (root) it was rendered from.
    pub overlay: String,
    /// The object as one parsed document whose spans point into `path`'s text, except
    /// those listed in `elsewhere`.
    pub file: Arc<ParsedFile>,
    /// Spans that point into another file (a patch, a kustomization field), with that file.
    pub elsewhere: Arc<Vec<(Span, String)>>,
}

/// A Kustomize root of one side and what its render reads, so a change is known to reach it (or
/// not) without rendering it.
#[derive(Clone, Debug, Default)]
pub struct RootInputs {
    /// The root's folder.
    pub root: String,
    /// The root's kustomization file.
    pub file: String,
    /// A rendered root's input fingerprint (`None`: a root whose render is its input, or one
    /// refused): equal fingerprints render the same.
    pub fingerprint: Option<[u8; 32]>,
    /// Every file the render reads (a rendered root: each file below its closure's folders; a
    /// root whose render is its input: its kustomization and the files it lists; shared with the
    /// render's own lists, one path per file of a large fleet).
    pub inputs: Vec<Arc<str>>,
    /// Folders any file below which is an input (a rendered root's closure; none for a root
    /// whose render is its input, which reads only what it lists).
    pub dirs: Vec<String>,
    /// Linted unrendered (refused, failed or over a limit): its files are objects of their own.
    pub unrendered: bool,
    /// The closure reached the limit of files a render may read: which files it read depends on
    /// the order of the tree.
    pub truncated: bool,
}

/// What a run's renders used of the limits they share (output kept, alias expansion and decoded
/// payloads of placed objects): a limit decides nothing until it runs out, so a run that used a
/// small part of each decided nothing by them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Rendered output kept, in bytes.
    pub output: u64,
    /// Alias nodes charged to the placement budget.
    pub alias: usize,
    /// Decoded payload bytes charged to the placement budget.
    pub payload: u64,
    /// Whether any render was cut short or refused by one of these limits.
    pub hit: bool,
}

/// What rendering produced for one side.
#[derive(Debug, Default)]
pub struct SideRender {
    /// Every root of the side with its inputs.
    pub roots: Vec<RootInputs>,
    /// Objects of every rendered root.
    pub objects: Vec<RenderedObject>,
    /// Files whose objects the renders replace (they are not inventoried again); shared with
    /// `identity`'s lists, which name most of them.
    pub consumed: BTreeSet<Arc<str>>,
    /// Roots whose render is their input (see `identity`): each overlay folder with the files it
    /// lists; their documents are inventoried as that overlay's objects, unchanged.
    pub identity: Vec<(String, Vec<Arc<str>>)>,
}

/// What rendering produced for both sides.
#[derive(Debug, Default)]
pub struct Rendered {
    /// Base side.
    pub base: SideRender,
    /// Head side.
    pub head: SideRender,
    /// Render errors, refusals, a missing renderer.
    pub diagnostics: Vec<Diagnostic>,
    /// What the base revision alone reports (as its own head), to tell a finding the change
    /// brings from one the base already had.
    pub base_alone: Vec<Diagnostic>,
    /// What this run's renders used of the limits they share.
    pub usage: Usage,
}

/// The rendered output (or the error) of each distinct (root, inputs fingerprint).
type Results = HashMap<(String, [u8; 32]), Result<String, String>>;

/// What one run's placements keep for the next (the language server): by (root, inputs
/// fingerprint), the objects its render placed in the repository and the parse budget that took.
/// The fingerprint covers every file of the root's closure and the render is a function of them,
/// so a kept placement is what placing again gives — as long as the run's budget still holds what
/// it used (then it is charged the same amount).
#[derive(Default)]
pub struct Kept {
    keep: bool,
    placed: HashMap<(String, [u8; 32]), Placed>,
}

/// One render's placed objects and the budget placing them used.
#[derive(Clone)]
struct Placed {
    objects: Vec<RenderedObject>,
    alias: usize,
    payload: u64,
}

impl Kept {
    /// Keeps each run's placements for the next (the default keeps nothing: a one-off check).
    pub fn keeping() -> Self {
        Kept {
            keep: true,
            ..Kept::default()
        }
    }
}

/// The renderer these settings would run, as a record's key names it: its program, kind, size
/// and modification time (an upgraded `kubectl` renders anew), or what says none would run.
pub fn renderer_identity(settings: &Settings) -> String {
    if !settings.enabled {
        return "no rendering".into();
    }
    let renderer = match &settings.program {
        Some(p) => Renderer::configured(p),
        None => Renderer::auto(),
    };
    match renderer {
        Some(r) => cache::identity(&r),
        None => "no renderer".into(),
    }
}

/// The input fingerprint each of these roots (by kustomization file) has on a side's tree, as a
/// render plans it (`None`: refused): whether a root's inputs changed, without parsing or
/// rendering anything.
pub fn fingerprints(tree: &Tree, root_files: &[String]) -> Vec<Option<[u8; 32]>> {
    let reads = tree::Reads::new(tree);
    root_files
        .par_iter()
        .map(|f| {
            let p = plan(&reads, f, Side::Head);
            p.refused.is_none().then_some(p.fingerprint)
        })
        .collect()
}

/// Renders every Kustomize root of both sides.
pub fn render(files: &ParsedSides, trees: (&Tree, &Tree), settings: &Settings) -> Rendered {
    render_reusing(files, trees, settings, &mut Kept::default())
}

/// [`render`], taking a render's placed objects from `kept` when an earlier run (or the other
/// side of this one) placed the very same render, and keeping this run's for the next.
pub fn render_reusing(
    files: &ParsedSides,
    trees: (&Tree, &Tree),
    settings: &Settings,
    kept: &mut Kept,
) -> Rendered {
    let mut out = Rendered::default();
    // Patches and plugin configurations are Kustomize's input, never objects of their own,
    // whether or not the overlay is rendered.
    let (base_consumed, head_consumed) = rayon::join(
        || kustomize_only_inputs(&files.base),
        || kustomize_only_inputs(&files.head),
    );
    out.base.consumed = base_consumed.into_iter().map(Arc::from).collect();
    out.head.consumed = head_consumed.into_iter().map(Arc::from).collect();
    if !settings.enabled {
        return out;
    }
    let mut base_roots = roots(&files.base);
    let mut head_roots = roots(&files.head);
    if settings.emulate_identity {
        rayon::join(
            || identity_roots(&files.base, &mut base_roots, &mut out.base),
            || identity_roots(&files.head, &mut head_roots, &mut out.head),
        );
    }
    if base_roots.is_empty() && head_roots.is_empty() {
        return with_identity_roots(out, &BTreeSet::new());
    }
    let renderer = match &settings.program {
        Some(p) => Renderer::configured(p),
        None => Renderer::auto(),
    };
    let Some(renderer) = renderer else {
        no_renderer(&mut out, settings, &base_roots, &head_roots);
        return with_identity_roots(out, &BTreeSet::new());
    };
    // Roots of a fleet share bases and components: each side reads a file or folder once.
    let reads = (tree::Reads::new(trees.0), tree::Reads::new(trees.1));
    let (base_plans, head_plans): (Vec<Plan>, Vec<Plan>) = rayon::join(
        || {
            base_roots
                .par_iter()
                .map(|f| plan(&reads.0, f, Side::Base))
                .collect()
        },
        || {
            head_roots
                .par_iter()
                .map(|f| plan(&reads.1, f, Side::Head))
                .collect()
        },
    );
    drop(reads);
    let results = render_distinct(&renderer, files, (&base_plans, &head_plans), settings);
    let failed_roots = report_failures(&mut out, &renderer, (&base_plans, &head_plans), &results);
    // A root that cannot be rendered on one side is linted unrendered on both, so the two sides
    // stay comparable.
    let mut out = with_identity_roots(out, &failed_roots);
    out.usage = collect(
        &mut out,
        files,
        (&base_plans, &head_plans),
        &results,
        &failed_roots,
        kept,
    );
    out.usage.output = results
        .values()
        .filter_map(|r| r.as_ref().ok())
        .map(|t| t.len() as u64)
        .sum();
    out.usage.hit |= results
        .values()
        .any(|r| r.as_ref().is_err_and(|e| e.starts_with(OVER_BUDGET)));
    for (side, plans) in [(&mut out.base, &base_plans), (&mut out.head, &head_plans)] {
        side.roots.extend(plans.iter().map(|p| {
            RootInputs {
                root: p.root.clone(),
                file: p.file.clone(),
                fingerprint: p.refused.is_none().then_some(p.fingerprint),
                inputs: p
                    .inputs
                    .keys()
                    .chain(&p.consumed)
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .map(|path| Arc::from(path.as_str()))
                    .collect(),
                dirs: p.dirs.clone(),
                unrendered: failed_roots.contains(&p.root),
                truncated: p.inputs.len() >= tree::MAX_FILES,
            }
        }));
        side.roots.sort_by(|a, b| a.root.cmp(&b.root));
    }
    out
}

/// Says, once per run, that the roots are linted unrendered because no renderer was found.
fn no_renderer(
    out: &mut Rendered,
    settings: &Settings,
    base_roots: &[String],
    head_roots: &[String],
) {
    let Some(first) = head_roots.first().or(base_roots.first()) else {
        return;
    };
    let wanted = settings
        .program
        .as_ref()
        .map(|p| format!("`{}`", p.display()))
        .unwrap_or_else(|| "`kubectl` or `kustomize`".into());
    out.diagnostics.push(
        Diagnostic::new(
            &codes::R103,
            format!(
                "{} kustomization root(s) linted unrendered: {wanted} is not on PATH, so labels and patches that overlays add are not seen",
                head_roots.len().max(base_roots.len())
            ),
            Location::head_file(first),
        )
        .help("install kubectl (its `kubectl kustomize` is used) or kustomize, or pass --no-render to silence this"),
    );
    // Not in `base_alone`: a missing renderer is a fact of this run, not of a revision,
    // and every run must say that its forecast was made on raw files.
}

/// Renders each distinct (root, inputs) once for both sides, within the run's output limit;
/// ends the process when the user interrupted the renders.
fn render_distinct(
    renderer: &Renderer,
    files: &ParsedSides,
    (base_plans, head_plans): (&[Plan], &[Plan]),
    settings: &Settings,
) -> Results {
    // One render per distinct (root, inputs).
    let mut jobs: BTreeMap<(String, [u8; 32]), &Plan> = BTreeMap::new();
    for p in base_plans.iter().chain(head_plans) {
        if p.refused.is_none() {
            jobs.entry((p.root.clone(), p.fingerprint)).or_insert(p);
        }
    }
    let read: u64 = files
        .base
        .iter()
        .chain(&files.head)
        .filter_map(|f| f.parsed.text.as_ref())
        .map(|t| t.len() as u64)
        .sum();
    let cache = settings
        .cache_dir
        .as_deref()
        .and_then(|dir| cache::Cache::open(dir, renderer));
    let results = run_jobs(
        renderer,
        cache.as_ref(),
        jobs,
        settings.timeout,
        MIN_TOTAL_OUTPUT.max(2 * read),
    );
    if let Some(sig) = interrupt::interrupted() {
        // The handler ends the process once every render has removed its folder.
        std::thread::sleep(Duration::from_secs(15));
        std::process::exit(128 + sig);
    }
    results
}

/// Reports refused roots and failed renders (head first: a failure on both revisions is
/// reported once, where the user is editing); the roots that are not rendered.
fn report_failures(
    out: &mut Rendered,
    renderer: &Renderer,
    (base_plans, head_plans): (&[Plan], &[Plan]),
    results: &Results,
) -> BTreeSet<String> {
    let mut failed_roots: BTreeSet<String> = BTreeSet::new();
    for (side, plans) in [(Side::Head, head_plans), (Side::Base, base_plans)] {
        for p in plans {
            if let Some((message, location)) = &p.refused {
                let on_head = head_plans.iter().any(|h| h.root == p.root);
                refusal(out, side, message, location, on_head);
                failed_roots.insert(p.root.clone());
                continue;
            }
            if let Some(Err(message)) = results.get(&(p.root.clone(), p.fingerprint)) {
                render_failure(out, renderer, side, p, message);
                failed_roots.insert(p.root.clone());
            }
        }
    }
    failed_roots
}

/// A refused root (remote base, plugin): reported on the head, or on the base when the head does
/// not have the root.
fn refusal(out: &mut Rendered, side: Side, message: &str, location: &Location, on_head: bool) {
    if side == Side::Base {
        out.base_alone.push(Diagnostic::new(
            &codes::R102,
            message.to_string(),
            as_head(location),
        ));
    }
    if side == Side::Head || !on_head {
        out.diagnostics.push(
            Diagnostic::new(&codes::R102, message.to_string(), location.clone())
                .help("nodecast never runs plugins or fetches remote bases; vendor the base into the repository or replace the plugin with built-in fields — until then this root is linted unrendered"),
        );
    }
}

/// A render that failed: an error on the head, information on the base (the change fixes it),
/// and not again when the same failure was reported for the other side.
fn render_failure(out: &mut Rendered, renderer: &Renderer, side: Side, p: &Plan, message: &str) {
    let location = error_location(p, message, side);
    if side == Side::Base {
        out.base_alone.push(Diagnostic::new(
            &codes::R101,
            format!(
                "overlay {} does not render (this revision), so what it deploys is unknown: {}",
                display_root(&p.root),
                run::concise(message)
            ),
            as_head(&location),
        ));
    }
    let already = out.diagnostics.iter().any(|d| {
        d.code == codes::R101.code
            && d.message
                .starts_with(&format!("overlay {} ", display_root(&p.root)))
            && d.notes.iter().any(|n| n.ends_with(message))
    });
    // Only the base failing (this change fixes the overlay) is not this change's
    // error; the overlay is still compared unrendered on both sides.
    let severity = if side == Side::Base {
        Severity::Info
    } else {
        Severity::Error
    };
    if !already {
        out.diagnostics.push(
            Diagnostic::new(
                &codes::R101,
                format!(
                    "overlay {} does not render ({}), so what it deploys is unknown: {}",
                    display_root(&p.root),
                    if side == Side::Base {
                        "base revision"
                    } else {
                        "this revision"
                    },
                    run::concise(message)
                ),
                location,
            )
            .label("Kustomize stops here")
            .note(format!("Kustomize said: {message}"))
            .severity(severity)
            .help(format!(
                "fix the kustomization so that `{} {}` succeeds",
                renderer.display(),
                display_root(&p.root)
            )),
        );
    }
}

/// Places the rendered roots' objects into the repository, side by side, and marks the files
/// they replace.
fn collect(
    out: &mut Rendered,
    files: &ParsedSides,
    (base_plans, head_plans): (&[Plan], &[Plan]),
    results: &Results,
    failed_roots: &BTreeSet<String>,
    kept: &mut Kept,
) -> Usage {
    // Rendered documents are parsed in root order against one budget for the whole run, so a
    // hostile overlay rendered many times costs one budget, whatever the thread timing.
    let mut budget = parse::Budget::new(
        parse::RUN_ALIAS_BUDGET / 2,
        parse::RUN_PAYLOAD_BUDGET / 2,
        "the budget of rendered overlays (64 MiB per run)",
    );
    // A root whose inputs are the same on both sides renders the same and is placed in the same
    // bytes (every file a render reads is one of its inputs): the base's placement serves the
    // head too, so it is parsed once (and, kept, serves the next run too).
    let previous = std::mem::take(&mut kept.placed);
    let by_path: [ByPath<'_>; 2] =
        [&files.base, &files.head].map(|side| side.iter().map(|f| (&*f.path, f)).collect());
    // Every render the run takes, in root order (the base's roots, then the head's).
    let mut steps: Vec<Step<'_>> = Vec::new();
    for (side, plans) in [base_plans, head_plans].into_iter().enumerate() {
        for p in plans.iter().filter(|p| !failed_roots.contains(&p.root)) {
            if let Some(Ok(text)) = results.get(&(p.root.clone(), p.fingerprint)) {
                steps.push(Step { side, p, text });
            }
        }
    }
    // The renders this run places itself: the first step of each (root, inputs) that no earlier
    // run placed. They are placed ahead, a batch of one per thread at a time, each within an
    // equal share of what the run's budget has left. Taken in root order, a placement that stayed
    // within its share and fits what the budget has left then is exactly what placing it then
    // gives (a budget decides nothing until it runs out); any other is placed again there.
    let mut seen = BTreeSet::new();
    let to_place: Vec<usize> = (0..steps.len())
        .filter(|&i| {
            let key = (steps[i].p.root.clone(), steps[i].p.fingerprint);
            !previous.contains_key(&key) && seen.insert(key)
        })
        .collect();
    let threads = rayon::current_num_threads().max(1);
    // Placements made ahead that stayed within their share, by step; `tried` of `to_place` are
    // placed ahead (or were skipped: with the budget run out, the rest are placed in turn).
    let mut ahead: HashMap<usize, Placed> = HashMap::new();
    let mut tried = 0;
    let mut placed: HashMap<(&str, [u8; 32]), Vec<RenderedObject>> = HashMap::new();
    for (i, step) in steps.iter().enumerate() {
        let p = step.p;
        let target = if step.side == 0 {
            &mut out.base
        } else {
            &mut out.head
        };
        target
            .consumed
            .extend(p.consumed.iter().map(|c| Arc::from(c.as_str())));
        if let Some(objects) = placed.get(&(p.root.as_str(), p.fingerprint)) {
            target.objects.extend(objects.iter().cloned());
            continue;
        }
        let key = (p.root.clone(), p.fingerprint);
        if to_place.get(tried) == Some(&i) && !budget.alias_hit && !budget.payload.hit {
            let batch = &to_place[tried..(tried + threads).min(to_place.len())];
            tried += batch.len();
            let mut share = budget;
            share.alias_left /= threads;
            share.payload.left /= threads as u64;
            let done: Vec<(usize, Placed)> = batch
                .par_iter()
                .filter_map(|&j| {
                    let s = &steps[j];
                    let ((c, hit), _) = place_within(s.p, s.text, &by_path[s.side], share);
                    (!hit).then_some((j, c))
                })
                .collect();
            ahead.extend(done);
        }
        // Placed by an earlier run (charged what placing it took, as placing again would be), or
        // ahead by this one: taken when it fits what the budget has left.
        let ready = previous.get(&key).cloned().or_else(|| ahead.remove(&i));
        let objects = match ready
            .filter(|c| budget.alias_left >= c.alias && budget.payload.left >= c.payload)
        {
            Some(c) => {
                budget.alias_left -= c.alias;
                budget.payload.left -= c.payload;
                if kept.keep {
                    kept.placed.insert(key, c.clone());
                }
                c.objects
            }
            None => {
                let ((c, hit), after) = place_within(p, step.text, &by_path[step.side], budget);
                budget = after;
                // A placement the budget cut short depends on what came before it: not kept.
                if kept.keep && !hit {
                    kept.placed.insert(key, c.clone());
                }
                c.objects
            }
        };
        placed.insert((p.root.as_str(), p.fingerprint), objects.clone());
        target.objects.extend(objects);
    }
    Usage {
        output: 0,
        alias: (parse::RUN_ALIAS_BUDGET / 2).saturating_sub(budget.alias_left),
        payload: (parse::RUN_PAYLOAD_BUDGET / 2).saturating_sub(budget.payload.left),
        hit: budget.alias_hit || budget.payload.hit,
    }
}

/// A side's files by path (where a rendered value may be written).
type ByPath<'a> = HashMap<&'a str, &'a FileEntry>;

/// One render a run takes: the side, the root and its output.
struct Step<'a> {
    side: usize,
    p: &'a Plan,
    text: &'a str,
}

/// Places one render within `budget`: its objects with what placing them used, whether the
/// budget may have cut it short (it has run out, now or before), and the budget left.
fn place_within(
    p: &Plan,
    text: &str,
    files: &ByPath<'_>,
    mut budget: parse::Budget,
) -> ((Placed, bool), parse::Budget) {
    let before = budget;
    let objects = place(p, text, files, &mut budget);
    let hit = budget.alias_hit || budget.payload.hit;
    let placed = Placed {
        objects,
        alias: before.alias_left - budget.alias_left,
        payload: before.payload.left - budget.payload.left,
    };
    ((placed, hit), budget)
}

/// Output all renders of a run may keep at least; the limit is this or twice the YAML read,
/// whichever is larger. Later renders (in root order) are reported instead.
pub const MIN_TOTAL_OUTPUT: u64 = 32 * 1024 * 1024;

/// Runs the renders, one per thread ([`queue::in_order`]), keeping outputs in job order until
/// `limit` bytes: which renders fit never depends on thread timing (the first output that does
/// not fit and every later job are reported instead), and at most one finished output per thread
/// waits beyond the one taken.
fn run_jobs(
    renderer: &Renderer,
    cache: Option<&cache::Cache>,
    jobs: BTreeMap<(String, [u8; 32]), &Plan>,
    timeout: Duration,
    limit: u64,
) -> HashMap<(String, [u8; 32]), Result<String, String>> {
    interrupt::install();
    let jobs: Vec<((String, [u8; 32]), &Plan)> = jobs.into_iter().collect();
    let mut kept: u64 = 0;
    let mut out = HashMap::with_capacity(jobs.len());
    // A render the cache holds is taken from it; the rest run, and successes are stored.
    let render = |i: usize| {
        let p = jobs[i].1;
        let key = cache.map(|c| c.key(&p.fingerprint));
        if let Some(text) = cache.zip(key.as_deref()).and_then(|(c, k)| c.get(k)) {
            return Ok(text);
        }
        let result = render_plan(renderer, p, timeout);
        if let (Some(c), Some(k), Ok(text)) = (cache, key.as_deref(), &result) {
            c.put(k, text);
        }
        result
    };
    queue::in_order(
        jobs.len(),
        rayon::current_num_threads(),
        render,
        |i, result| {
            let fits = match &result {
                Ok(text) => kept + text.len() as u64 <= limit,
                Err(_) => true,
            };
            if let (true, Ok(text)) = (fits, &result) {
                kept += text.len() as u64;
            }
            out.insert(
                jobs[i].0.clone(),
                if fits {
                    result
                } else {
                    Err(over_budget(limit))
                },
            );
            fits
        },
    );
    for (key, _) in &jobs {
        out.entry(key.clone())
            .or_insert_with(|| Err(over_budget(limit)));
    }
    if let (false, Some(c)) = (jobs.is_empty(), cache) {
        c.evict(cache::MAX_BYTES);
    }
    out
}

/// How the error of a render over the run's output limit starts.
const OVER_BUDGET: &str = "not rendered: with this overlay the rendered output";

/// The error for a render that would exceed the run's output limit.
fn over_budget(limit: u64) -> String {
    format!(
        "not rendered: with this overlay the rendered output of the run (overlays in root order) would exceed {} MiB, nodecast's limit (32 MiB, or twice the YAML read)",
        limit / 1024 / 1024
    )
}

/// Turns the recorded identity roots (kustomization file, listed files) into overlays whose
/// files the inventory takes as rendered — except roots that fail on the other side.
fn with_identity_roots(mut out: Rendered, failed_roots: &BTreeSet<String>) -> Rendered {
    for side in [&mut out.base, &mut out.head] {
        let recorded = std::mem::take(&mut side.identity);
        for (root_file, listed) in recorded {
            let root = dir_of(&root_file).to_string();
            let mut inputs: Vec<Arc<str>> = vec![root_file.as_str().into()];
            inputs.extend(listed.iter().cloned());
            side.roots.push(RootInputs {
                root: root.clone(),
                file: root_file.clone(),
                fingerprint: None,
                inputs,
                dirs: Vec::new(),
                unrendered: failed_roots.contains(&root),
                truncated: false,
            });
            if failed_roots.contains(&root) {
                continue;
            }
            side.consumed.insert(root_file.into());
            side.consumed.extend(listed.iter().cloned());
            side.identity.push((root, listed));
        }
    }
    out
}

/// Takes the roots whose render is their input out of `roots` and records them in `out`.
fn identity_roots(files: &[FileEntry], roots: &mut Vec<String>, out: &mut SideRender) {
    let by_path: HashMap<&str, &FileEntry> = files.iter().map(|f| (&*f.path, f)).collect();
    // Each root is judged on its own (a walk over its documents): in parallel, kept in order.
    let judged: Vec<Option<Vec<Arc<str>>>> = roots
        .par_iter()
        .map(|root_file| identity::resources(root_file, &by_path))
        .collect();
    let mut rest = Vec::new();
    for (root_file, listed) in std::mem::take(roots).into_iter().zip(judged) {
        match listed {
            Some(listed) => out.identity.push((root_file, listed)),
            None => rest.push(root_file),
        }
    }
    *roots = rest;
}

/// Files kustomizations read as patches, replacements or plugin configurations.
fn kustomize_only_inputs(files: &[FileEntry]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    // A PolicyGenerator stays an object of the repository (`classify` says why).
    let generators: BTreeSet<&str> = files
        .par_iter()
        .filter(|f| {
            f.parsed
                .docs
                .iter()
                .any(|d| kustomization::is_policy_generator(d.doc.root()))
        })
        .map(|f| &*f.path)
        .collect();
    for f in files.iter().filter(|f| is_kustomization_path(&f.path)) {
        let Some(doc) = f.parsed.docs.first() else {
            continue;
        };
        let refs = kustomization::refs(doc.doc.root());
        let dir = dir_of(&f.path);
        for r in refs.files.iter().chain(&refs.plugins) {
            let only_input = matches!(
                r.field,
                "patches"
                    | "patchesStrategicMerge"
                    | "patchesJson6902"
                    | "replacements"
                    | "configurations"
                    | "generators"
                    | "transformers"
                    | "validators"
            );
            if let Some(path) = join(dir, &r.text).filter(|_| only_input) {
                if generators.contains(path.as_str()) {
                    continue;
                }
                out.insert(path);
            }
        }
    }
    out
}

/// A base-revision location seen as the lone revision's own (for [`Rendered::base_alone`]).
fn as_head(location: &Location) -> Location {
    Location {
        side: Side::Head,
        ..location.clone()
    }
}

/// A root folder as shown in messages (`.` for the repository's top).
fn display_root(root: &str) -> &str {
    if root.is_empty() {
        "."
    } else {
        root
    }
}

/// A position on either side, for refusals and render errors.
fn location(side: Side, path: &str, span: Span) -> Location {
    match side {
        Side::Base => Location::base(path, span),
        Side::Head => Location::head(path, span),
    }
}

/// Copies the inputs into a temporary folder and renders the root through an origin wrapper.
fn render_plan(renderer: &Renderer, p: &Plan, timeout: Duration) -> Result<String, String> {
    // Declared before the folder, so the slot is released after the folder is removed.
    let Some(_slot) = interrupt::begin() else {
        return Err(format!("{} was interrupted", renderer.display()));
    };
    let tmp = tempfile::Builder::new()
        .prefix("nodecast-render-")
        .tempdir()
        .map_err(|e| format!("cannot create a temporary folder: {e}"))?;
    let tree_dir = tmp.path().join("tree");
    for (path, bytes) in &p.inputs {
        let dest = tree_dir.join(path);
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("cannot copy {path}: {e}"))?;
        }
        std::fs::write(&dest, bytes).map_err(|e| format!("cannot copy {path}: {e}"))?;
    }
    std::fs::create_dir_all(&tree_dir).map_err(|e| e.to_string())?;
    let wrap = tmp.path().join("wrap");
    std::fs::create_dir_all(&wrap).map_err(|e| e.to_string())?;
    let target = if p.root.is_empty() {
        "../tree".to_string()
    } else {
        format!("../tree/{}", p.root)
    };
    std::fs::write(
        wrap.join("kustomization.yaml"),
        format!(
            "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- {target}\nbuildMetadata: [originAnnotations]\n"
        ),
    )
    .map_err(|e| e.to_string())?;
    let result = run::run(renderer, &wrap, tmp.path(), timeout);
    // Paths in messages are the temporary copy's; show them repository-relative.
    let prefix = format!("{}/", tree_dir.display());
    result.map_err(|m| {
        m.replace(&prefix, "")
            .replace(&tree_dir.display().to_string(), ".")
            .replace("../tree/", "")
    })
}

/// Where a render error points: the kustomization line naming what Kustomize complains about,
/// else the root kustomization file.
fn error_location(p: &Plan, message: &str, side: Side) -> Location {
    for k in &p.kustomizations {
        let (path, refs) = (&k.path, kustomization::refs(k.root()));
        for r in refs.inputs.iter().chain(&refs.files) {
            let quoted = [format!("'{}'", r.text), format!("\"{}\"", r.text)];
            let resolved = join(dir_of(path), &r.text);
            let mentioned = quoted.iter().any(|q| message.contains(q.as_str()))
                || resolved.is_some_and(|t| {
                    message.contains(&format!("{t}'"))
                        || message.contains(&format!("{t}:"))
                        || message.contains(&format!("{t}\""))
                });
            if mentioned {
                return location(side, path, r.span);
            }
        }
    }
    match side {
        Side::Base => Location {
            side: Side::Base,
            path: p.file.clone(),
            span: None,
        },
        Side::Head => Location::head_file(&p.file),
    }
}
