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

mod candidates;
pub mod codes;
mod identity;
pub mod interrupt;
pub mod kustomization;
mod remap;
pub mod run;
pub mod tree;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use nodecast_yaml::{Node, NodeKind, Span};
use rayon::prelude::*;
use sha2::{Digest, Sha256};

use crate::diagnostic::{Diagnostic, Location, Severity, Side};
use crate::parse::{self, FileEntry, FileStatus, ParsedDoc, ParsedFile, ParsedSides};
use kustomization::{dir_of, is_kustomization_path, is_remote, join, Ref, FILE_NAMES};
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
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            enabled: true,
            program: None,
            timeout: Duration::from_secs(60),
            emulate_identity: true,
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

/// What rendering produced for one side.
#[derive(Debug, Default)]
pub struct SideRender {
    /// Objects of every rendered root.
    pub objects: Vec<RenderedObject>,
    /// Files whose objects the renders replace (they are not inventoried again).
    pub consumed: BTreeSet<String>,
    /// Roots whose render is their input (see `identity`): each overlay folder with the files it
    /// lists; their documents are inventoried as that overlay's objects, unchanged.
    pub identity: Vec<(String, Vec<String>)>,
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
}

/// A root's inputs, gathered from a side's tree.
struct Plan {
    /// The root's folder.
    root: String,
    /// The root's kustomization file.
    file: String,
    /// Copied files (path → bytes), when the root can be rendered.
    inputs: BTreeMap<String, Vec<u8>>,
    /// Files whose objects the render replaces.
    consumed: BTreeSet<String>,
    /// Kustomization files of the closure, parsed.
    kustomizations: Vec<candidates::Kust>,
    /// Why the root is not rendered (refused).
    refused: Option<(String, Location)>,
    /// Hash of the inputs: equal hashes render once for both sides.
    fingerprint: [u8; 32],
}

/// Renders every Kustomize root of both sides.
pub fn render(files: &ParsedSides, trees: (&Tree, &Tree), settings: &Settings) -> Rendered {
    let mut out = Rendered::default();
    // Patches and plugin configurations are Kustomize's input, never objects of their own,
    // whether or not the overlay is rendered.
    out.base.consumed = kustomize_only_inputs(&files.base);
    out.head.consumed = kustomize_only_inputs(&files.head);
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
        let first = head_roots.first().or(base_roots.first());
        if let Some(first) = first {
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
        return with_identity_roots(out, &BTreeSet::new());
    };
    let (base_plans, head_plans): (Vec<Plan>, Vec<Plan>) = rayon::join(
        || {
            base_roots
                .par_iter()
                .map(|f| plan(trees.0, f, Side::Base))
                .collect()
        },
        || {
            head_roots
                .par_iter()
                .map(|f| plan(trees.1, f, Side::Head))
                .collect()
        },
    );

    // One render per distinct (root, inputs).
    let mut jobs: BTreeMap<(String, [u8; 32]), &Plan> = BTreeMap::new();
    for p in base_plans.iter().chain(&head_plans) {
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
    let results = run_jobs(
        &renderer,
        jobs,
        settings.timeout,
        MIN_TOTAL_OUTPUT.max(2 * read),
    );
    if let Some(sig) = interrupt::interrupted() {
        // The handler ends the process once every render has removed its folder.
        std::thread::sleep(Duration::from_secs(15));
        std::process::exit(128 + sig);
    }

    let mut failed_roots: BTreeSet<String> = BTreeSet::new();
    // Head first: a failure on both revisions is reported once, where the user is editing.
    for (side, plans) in [(Side::Head, &head_plans), (Side::Base, &base_plans)] {
        for p in plans {
            if let Some((message, location)) = &p.refused {
                if side == Side::Base {
                    out.base_alone.push(Diagnostic::new(
                        &codes::R102,
                        message.clone(),
                        as_head(location),
                    ));
                }
                if side == Side::Head || !head_plans.iter().any(|h| h.root == p.root) {
                    out.diagnostics.push(
                        Diagnostic::new(&codes::R102, message.clone(), location.clone())
                            .help("nodecast never runs plugins or fetches remote bases; vendor the base into the repository or replace the plugin with built-in fields — until then this root is linted unrendered"),
                    );
                }
                failed_roots.insert(p.root.clone());
                continue;
            }
            if let Some(Err(message)) = results.get(&(p.root.clone(), p.fingerprint)) {
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
                        && d.notes.iter().any(|n| n.ends_with(message.as_str()))
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
                                if side == Side::Base { "base revision" } else { "this revision" },
                                run::concise(message)
                            ),
                            location,
                        )
                        .label("Kustomize stops here")
                        .note(format!("Kustomize said: {message}"))
                        .severity(severity)
                        .help(format!("fix the kustomization so that `{} {}` succeeds", renderer.display(), display_root(&p.root))),
                    );
                }
                failed_roots.insert(p.root.clone());
            }
        }
    }
    // A root that cannot be rendered on one side is linted unrendered on both, so the two sides
    // stay comparable.
    let mut out = with_identity_roots(out, &failed_roots);
    // Rendered documents are parsed in root order against one budget for the whole run, so a
    // hostile overlay rendered many times costs one budget, whatever the thread timing.
    let mut budget = parse::Budget::new(
        parse::RUN_ALIAS_BUDGET / 2,
        parse::RUN_PAYLOAD_BUDGET / 2,
        "the budget of rendered overlays (64 MiB per run)",
    );
    for (plans, side_files, target) in [
        (&base_plans, &files.base, &mut out.base),
        (&head_plans, &files.head, &mut out.head),
    ] {
        for p in plans.iter().filter(|p| !failed_roots.contains(&p.root)) {
            let Some(Ok(text)) = results.get(&(p.root.clone(), p.fingerprint)) else {
                continue;
            };
            target.consumed.extend(p.consumed.iter().cloned());
            target
                .objects
                .extend(place(p, text, side_files, &mut budget));
        }
    }
    out
}

/// Output all renders of a run may keep at least; the limit is this or twice the YAML read,
/// whichever is larger. Later renders (in root order) are reported instead.
pub const MIN_TOTAL_OUTPUT: u64 = 32 * 1024 * 1024;

/// Runs the renders, a batch of one per thread at a time, keeping outputs in job order until
/// `limit` bytes: which renders fit never depends on thread timing, and at most one batch of
/// outputs is held beyond the limit.
fn run_jobs(
    renderer: &Renderer,
    jobs: BTreeMap<(String, [u8; 32]), &Plan>,
    timeout: Duration,
    limit: u64,
) -> HashMap<(String, [u8; 32]), Result<String, String>> {
    interrupt::install();
    let jobs: Vec<((String, [u8; 32]), &Plan)> = jobs.into_iter().collect();
    let batch = rayon::current_num_threads().max(1);
    let mut kept: u64 = 0;
    let mut out = HashMap::with_capacity(jobs.len());
    for chunk in jobs.chunks(batch) {
        if kept > limit {
            for (key, _) in chunk {
                out.insert(key.clone(), Err(over_budget(limit)));
            }
            continue;
        }
        let done: Vec<Result<String, String>> = chunk
            .par_iter()
            .map(|(_, p)| render_plan(renderer, p, timeout))
            .collect();
        for ((key, _), result) in chunk.iter().zip(done) {
            let result = match result {
                Ok(text) if kept + text.len() as u64 > limit => {
                    kept = limit + 1;
                    Err(over_budget(limit))
                }
                Ok(text) => {
                    kept += text.len() as u64;
                    Ok(text)
                }
                Err(e) => Err(e),
            };
            out.insert(key.clone(), result);
        }
    }
    out
}

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
            if failed_roots.contains(&root) {
                continue;
            }
            side.consumed.insert(root_file);
            side.consumed.extend(listed.iter().cloned());
            side.identity.push((root, listed));
        }
    }
    out
}

/// Takes the roots whose render is their input out of `roots` and records them in `out`.
fn identity_roots(files: &[FileEntry], roots: &mut Vec<String>, out: &mut SideRender) {
    let by_path: HashMap<&str, &FileEntry> = files.iter().map(|f| (f.path.as_str(), f)).collect();
    // Each root is judged on its own (a walk over its documents): in parallel, kept in order.
    let judged: Vec<Option<Vec<String>>> = roots
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
    for f in files.iter().filter(|f| is_kustomization_path(&f.path)) {
        let Some(doc) = f.parsed.docs.first() else {
            continue;
        };
        let refs = kustomization::refs(&doc.doc.root);
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
                out.insert(path);
            }
        }
    }
    out
}

/// The root kustomization files of a side: those no other kustomization refers to.
fn roots(files: &[FileEntry]) -> Vec<String> {
    let kust: Vec<&FileEntry> = files
        .iter()
        .filter(|f| is_kustomization_path(&f.path))
        .collect();
    let dirs: BTreeSet<&str> = kust.iter().map(|f| dir_of(&f.path)).collect();
    let mut referenced: BTreeSet<String> = BTreeSet::new();
    for f in &kust {
        let Some(doc) = f.parsed.docs.first() else {
            continue;
        };
        for r in kustomization::refs(&doc.doc.root).inputs {
            if let Some(target) = join(dir_of(&f.path), &r.text) {
                if dirs.contains(target.as_str()) {
                    referenced.insert(target);
                }
            }
        }
    }
    let mut seen_dirs = BTreeSet::new();
    kust.iter()
        .filter(|f| !referenced.contains(dir_of(&f.path)))
        .filter(|f| f.parsed.status == FileStatus::Parsed)
        // A Component is only ever built into a kustomization that lists it; Kustomize refuses
        // to build one on its own, so an unused one is no root.
        .filter(|f| !is_component(f))
        // Kustomize reads only the first name found in a folder.
        .filter(|f| seen_dirs.insert(dir_of(&f.path).to_string()))
        .map(|f| f.path.clone())
        .collect()
}

/// A base-revision location seen as the lone revision's own (for [`Rendered::base_alone`]).
fn as_head(location: &Location) -> Location {
    Location {
        side: Side::Head,
        ..location.clone()
    }
}

fn is_component(f: &FileEntry) -> bool {
    f.parsed.docs.first().is_some_and(|d| {
        parse::type_meta(&d.doc.root).is_some_and(|(api, kind)| {
            kind == "Component" && api.starts_with("kustomize.config.k8s.io/")
        })
    })
}

fn display_root(root: &str) -> &str {
    if root.is_empty() {
        "."
    } else {
        root
    }
}

fn location(side: Side, path: &str, span: Span) -> Location {
    match side {
        Side::Base => Location::base(path, span),
        Side::Head => Location::head(path, span),
    }
}

/// Gathers a root's closure from the side's tree and decides whether it may be rendered.
fn plan(tree: &Tree, root_file: &str, side: Side) -> Plan {
    let root = dir_of(root_file).to_string();
    let mut p = Plan {
        root: root.clone(),
        file: root_file.to_string(),
        inputs: BTreeMap::new(),
        consumed: BTreeSet::new(),
        kustomizations: Vec::new(),
        refused: None,
        fingerprint: [0; 32],
    };
    let mut queue = vec![root.clone()];
    let mut visited: BTreeSet<String> = BTreeSet::new();
    let mut dirs: Vec<String> = Vec::new();
    while let Some(dir) = queue.pop() {
        if !visited.insert(dir.clone()) {
            continue;
        }
        let Some((path, bytes)) = FILE_NAMES.iter().find_map(|name| {
            let path = join(&dir, name)?;
            Some((path.clone(), tree.read(&path)?))
        }) else {
            continue;
        };
        dirs.push(dir.clone());
        p.consumed.insert(path.clone());
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let parsed = nodecast_yaml::parse(&text, &Default::default());
        let Some(doc) = parsed.documents.into_iter().next() else {
            continue;
        };
        let refs = kustomization::refs(&doc.root);
        for r in refs.inputs.iter().chain(&refs.files) {
            // Kustomize reads a local file of that name first; anything else that looks remote
            // to it is fetched or cloned.
            let local_file = join(&dir, &r.text).is_some_and(|t| tree.read(&t).is_some());
            if is_remote(&r.text) && !local_file {
                p.refused.get_or_insert((
                    format!(
                        "overlay {} is linted unrendered: `{}` is a remote {} (Kustomize would {} it), and nodecast never uses the network",
                        display_root(&root),
                        r.text,
                        if matches!(r.field, "resources" | "bases" | "components") { "base" } else { "file" },
                        if kustomization::is_git_url(&r.text) { "clone" } else { "download" },
                    ),
                    location(side, &path, r.span),
                ));
                continue;
            }
            if r.field != "resources" && r.field != "bases" && r.field != "components" {
                continue;
            }
            let Some(target) = join(&dir, &r.text) else {
                continue;
            };
            let is_kustomization_dir = FILE_NAMES
                .iter()
                .any(|n| join(&target, n).is_some_and(|f| tree.read(&f).is_some()));
            if is_kustomization_dir {
                queue.push(target);
            } else {
                p.consumed.insert(target);
            }
        }
        for r in &refs.files {
            if let Some(target) = join(&dir, &r.text) {
                p.consumed.insert(target);
            }
        }
        for r in &refs.plugins {
            if let Some(reason) = plugin_refusal(tree, &dir, r, &doc.root) {
                p.refused.get_or_insert((
                    format!(
                        "overlay {} is linted unrendered: {reason}, and nodecast never runs plugins",
                        display_root(&root)
                    ),
                    location(side, &path, r.span),
                ));
            }
        }
        p.kustomizations.push(candidates::Kust {
            path,
            root: doc.root,
            text: text.into(),
        });
    }
    if p.refused.is_some() {
        return p;
    }
    for dir in &dirs {
        for (path, bytes) in tree.files_under(dir) {
            if p.inputs.len() >= tree::MAX_FILES {
                break;
            }
            p.inputs.entry(path).or_insert(bytes);
        }
    }
    let mut hasher = Sha256::new();
    hasher.update(root.as_bytes());
    for (path, bytes) in &p.inputs {
        hasher.update((path.len() as u64).to_le_bytes());
        hasher.update(path.as_bytes());
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    }
    p.fingerprint = hasher.finalize().into();
    p
}

/// Why a plugin entry must not run (`None` for built-in plugin configurations).
fn plugin_refusal(tree: &Tree, dir: &str, r: &Ref, kust: &Node) -> Option<String> {
    if r.field == "helmCharts" || r.field == "helmChartInflationGenerator" {
        return Some(format!("`{}` needs Helm and chart downloads", r.field));
    }
    let items = kust.get(r.field).and_then(Node::as_seq).unwrap_or_default();
    let inline = items
        .iter()
        .find(|n| n.span == r.span && n.as_map().is_some());
    let docs: Vec<Node> = match inline {
        Some(node) => vec![node.clone()],
        None => {
            let path = join(dir, &r.text)?;
            let Some(bytes) = tree.read(&path) else {
                // A folder of plugin configurations, or a missing file: Kustomize reports it.
                return None;
            };
            let text = String::from_utf8_lossy(&bytes).into_owned();
            nodecast_yaml::parse(&text, &Default::default())
                .documents
                .into_iter()
                .map(|d| d.root)
                .collect()
        }
    };
    docs.iter()
        .find(|d| !kustomization::is_builtin_plugin(d))
        .map(|d| {
            let kind = d.get("kind").and_then(Node::as_str).unwrap_or("plugin");
            format!("`{}` lists the exec/KRM function plugin {kind}", r.field)
        })
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
        let (path, refs) = (&k.path, kustomization::refs(&k.root));
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

/// Turns Kustomize's output into objects placed in the repository.
fn place(
    p: &Plan,
    text: &str,
    files: &[FileEntry],
    budget: &mut parse::Budget,
) -> Vec<RenderedObject> {
    let opts = nodecast_yaml::Options::default();
    let parsed = nodecast_yaml::parse(text, &budget.options(&opts));
    budget.take(&parsed);
    let by_path: HashMap<&str, &FileEntry> = files.iter().map(|f| (f.path.as_str(), f)).collect();
    let mut cache: HashMap<String, Arc<ParsedFile>> = HashMap::new();
    let mut file_of = |path: &str| -> Option<Arc<ParsedFile>> {
        if let Some(f) = by_path.get(path) {
            return Some(f.parsed.clone());
        }
        if let Some(f) = cache.get(path) {
            return Some(f.clone());
        }
        let bytes = p.inputs.get(path)?;
        let f = Arc::new(parse::parse_file(bytes));
        cache.insert(path.to_string(), f.clone());
        Some(f)
    };
    let mut out = Vec::new();
    for doc in parsed.documents {
        let mut pd = parse::decode_doc_within(text, doc, &opts, budget);
        let origin = take_origin(&mut pd.doc.root);
        let origin_path = origin
            .as_ref()
            .and_then(|o| o.path.clone())
            .unwrap_or_else(|| p.file.clone());
        let Some(origin_file) = file_of(&origin_path) else {
            continue;
        };
        let kind = pd
            .doc
            .root
            .get("kind")
            .and_then(Node::as_str)
            .unwrap_or_default()
            .to_string();
        let name = pd
            .doc
            .root
            .path(&["metadata", "name"])
            .and_then(Node::as_str)
            .unwrap_or_default()
            .to_string();
        let origin_doc: Option<&ParsedDoc> =
            if origin.as_ref().and_then(|o| o.path.as_ref()).is_some() {
                matching_doc(&origin_file.docs, &kind, &name)
            } else {
                None
            };
        let origin_name = origin_doc
            .and_then(|d| d.doc.root.path(&["metadata", "name"]))
            .and_then(Node::as_str)
            .unwrap_or(&name)
            .to_string();
        let fallback = match origin_doc {
            Some(d) => first_line(&d.doc.root),
            None => origin
                .as_ref()
                .and_then(|o| o.generator.as_deref())
                .and_then(|g| origin_file.docs.first().and_then(|d| d.doc.root.entry(g)))
                .map(|e| e.key.span)
                .unwrap_or_else(|| {
                    origin_file
                        .docs
                        .first()
                        .map(|d| first_line(&d.doc.root))
                        .unwrap_or_default()
                }),
        };
        // Candidates: the origin document, then patches and kustomization fields of the closure.
        let gathered = candidates::gather(
            &p.kustomizations,
            &origin_path,
            &kind,
            &origin_name,
            &mut file_of,
        );
        let mut tags = gathered.files.clone();
        let mut cands: Vec<remap::Cand<'_>> = Vec::new();
        if let Some(d) = origin_doc {
            cands.push((&d.doc.root, 0));
        }
        cands.extend(gathered.nodes.iter().map(|(n, t)| (n, *t)));
        let mut elsewhere: Vec<(Span, usize)> = Vec::new();
        remap::remap(&mut pd.doc.root, &cands, (fallback, 0), &mut elsewhere);
        pd.doc.span = origin_doc.map(|d| d.doc.span).unwrap_or(fallback);
        let generated = origin.as_ref().is_some_and(|o| o.generator.is_some());
        for emb in &mut pd.embedded {
            // A generated ConfigMap's payload is a file of its own: locate it there.
            let source = generated
                .then(|| candidates::generator_source(&p.kustomizations, &kind, &name, &emb.key))
                .flatten();
            let source_file = source.as_ref().and_then(|s| file_of(&s.file));
            let before = origin_doc.and_then(|d| d.embedded.iter().find(|e| e.key == emb.key));
            emb.value_span = pd
                .doc
                .root
                .path(&["data", &emb.key])
                .map(|n| n.span)
                .unwrap_or(fallback);
            let mut source_tag = 0;
            if let (Some(src), Some(_)) = (&source, &source_file) {
                emb.value_span = src.entry;
                if let Some(ktag) = tags.iter().position(|t| t == &src.kustomization) {
                    elsewhere.push((src.entry, ktag));
                    if let Some(value) = data_value_mut(&mut pd.doc.root, &emb.key) {
                        value.span = src.entry;
                    }
                }
                source_tag = tags.len();
                tags.push(src.file.clone());
            }
            emb.problems.clear();
            for (i, inner) in emb.docs.iter_mut().enumerate() {
                let cand = match &source_file {
                    Some(f) => f.docs.get(i).map(|d| (&d.doc.root, source_tag)),
                    None => before.and_then(|b| b.docs.get(i)).map(|d| (&d.doc.root, 0)),
                };
                let fb = match cand {
                    Some((c, tag)) => (first_line(c), tag),
                    None => (emb.value_span, 0),
                };
                let cands: Vec<remap::Cand<'_>> = cand.into_iter().collect();
                remap::remap(&mut inner.doc.root, &cands, fb, &mut elsewhere);
                inner.doc.span = fb.0;
            }
        }
        // The files were decoded before the spans were moved; give back what they took, so the
        // budget counts each rendered payload once.
        if !budget.payload.hit {
            budget.payload.left += pd
                .ignition
                .iter()
                .filter_map(|f| f.decoded.as_ref().ok())
                .map(|b| b.len() as u64)
                .sum::<u64>();
        }
        pd.ignition = parse::ignition_of(&pd.doc.root, budget);
        let elsewhere: Vec<(Span, String)> = remap::elsewhere(&elsewhere)
            .into_iter()
            .filter_map(|(span, tag)| Some((span, tags.get(tag)?.clone())))
            .collect();
        out.push(RenderedObject {
            elsewhere: Arc::new(elsewhere),
            path: origin_path,
            overlay: display_root(&p.root).to_string(),
            file: Arc::new(ParsedFile {
                text: origin_file.text.clone(),
                status: FileStatus::Parsed,
                docs: vec![pd],
                problems: Vec::new(),
                unread: Vec::new(),
                encoding: None,
            }),
        });
    }
    out
}

/// The value node of `data.<key>`, to place a generated payload at its generator entry.
fn data_value_mut<'a>(root: &'a mut Node, key: &str) -> Option<&'a mut Node> {
    let NodeKind::Map(entries) = &mut root.kind else {
        return None;
    };
    let data = entries
        .iter_mut()
        .find(|e| e.key.as_str() == Some("data"))?;
    let NodeKind::Map(items) = &mut data.value.kind else {
        return None;
    };
    items
        .iter_mut()
        .find(|e| e.key.as_str() == Some(key))
        .map(|e| &mut e.value)
}

/// The first key of a document (its first line), where an object without a better place is shown.
fn first_line(root: &Node) -> Span {
    root.as_map()
        .and_then(|e| e.first())
        .map(|e| e.key.span)
        .unwrap_or(root.span)
}

/// The document of a file that a rendered object comes from (same kind; name kept or prefixed).
fn matching_doc<'a>(docs: &'a [ParsedDoc], kind: &str, name: &str) -> Option<&'a ParsedDoc> {
    let same_kind: Vec<&ParsedDoc> = docs
        .iter()
        .filter(|d| d.doc.root.get("kind").and_then(Node::as_str) == Some(kind))
        .collect();
    fn named<'d>(d: &&'d ParsedDoc) -> Option<&'d str> {
        d.doc
            .root
            .path(&["metadata", "name"])
            .and_then(Node::as_str)
    }
    same_kind
        .iter()
        .find(|d| named(d) == Some(name))
        .or_else(|| {
            same_kind
                .iter()
                .filter(|d| named(d).is_some_and(|n| !n.is_empty() && name.contains(n)))
                .max_by_key(|d| named(d).map(str::len))
        })
        .or_else(|| (same_kind.len() == 1).then(|| &same_kind[0]))
        .copied()
}

struct OriginInfo {
    path: Option<String>,
    generator: Option<String>,
}

/// Reads and removes Kustomize's origin annotation (it is not part of the object).
fn take_origin(root: &mut Node) -> Option<OriginInfo> {
    const KEY: &str = "config.kubernetes.io/origin";
    let NodeKind::Map(entries) = &mut root.kind else {
        return None;
    };
    let meta = entries
        .iter_mut()
        .find(|e| e.key.as_str() == Some("metadata"))?;
    let NodeKind::Map(meta_entries) = &mut meta.value.kind else {
        return None;
    };
    let ann_index = meta_entries
        .iter()
        .position(|e| e.key.as_str() == Some("annotations"))?;
    let NodeKind::Map(anns) = &mut meta_entries[ann_index].value.kind else {
        return None;
    };
    let i = anns.iter().position(|e| e.key.as_str() == Some(KEY))?;
    let text = anns
        .remove(i)
        .value
        .as_str()
        .unwrap_or_default()
        .to_string();
    if anns.is_empty() {
        meta_entries.remove(ann_index);
    }
    let parsed = nodecast_yaml::parse(&text, &Default::default());
    let doc = parsed.documents.into_iter().next()?;
    let origin_path = doc
        .root
        .get("path")
        .or_else(|| doc.root.path(&["configuredIn"]))
        .and_then(Node::as_str)
        .and_then(|p| join("wrap", p))
        .and_then(|p| {
            p.strip_prefix("tree/")
                .map(str::to_string)
                .or_else(|| (p == "tree").then(String::new))
        });
    let generator = doc
        .root
        .path(&["configuredBy", "kind"])
        .and_then(Node::as_str)
        .map(|k| {
            let mut c = k.chars();
            c.next()
                .map(|f| f.to_lowercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        });
    Some(OriginInfo {
        path: origin_path,
        generator,
    })
}
