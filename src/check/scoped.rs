//! The driver's side of scoped checks ([`crate::scope`]): which revisions a check compares, where
//! their records are, a scoped check when the record of its base can vouch for it, and the
//! records a whole check leaves.
//!
//! Two kinds of head: a Git revision (a commit or the index: what changed is listed from Git's
//! trees without reading a blob, and only the files the plan names are read), and the working
//! tree (the language server's, with the editor's buffers: its files are listed as a whole check
//! lists them, and a rendered root whose inputs changed is found by its fingerprint, since a
//! generator's file is no manifest).

use std::collections::BTreeSet;
use std::sync::Arc;

use super::{check_loaded, Checked, Mode, Options, Outcome, Reuse, Stopwatch};
use crate::scope::record::Record;
use crate::scope::store::Store;
use crate::scope::Whole;
use crate::source::subset::{Changed, Revisions};
use crate::source::{self, CompareRequest};
use crate::Fatal;

/// Where a check keeps the records of revisions, and what it compares.
pub(super) struct Scoping {
    /// The cache folder's records (`None`: a language server without a cache folder keeps them
    /// in memory only).
    store: Option<Store>,
    target: Target,
    /// What every record of this check depends on beyond the revision (settings, renderer,
    /// schemas, this build).
    settings: Vec<u8>,
}

/// What a check compares, for scoping.
enum Target {
    /// A base commit and a head commit or the index.
    Git(Box<Revisions>),
    /// A base commit and the working tree (with an editor's buffers).
    Worktree,
}

impl Scoping {
    /// Scoping for a check of Git revisions (or the working tree) whose records can be kept: in
    /// a cache folder, or by a long-lived caller; `None` otherwise.
    pub(super) fn of(options: &Options, reuse: &Reuse) -> Result<Option<Scoping>, Fatal> {
        let store = options.kustomize.cache_dir.as_deref().and_then(Store::open);
        if store.is_none() && !reuse.keeping {
            return Ok(None);
        }
        let req = &options.compare;
        let worktree = req.head.is_none() && !req.staged && req.base_dir.is_none() && !req.no_base;
        let target = if worktree {
            let in_repo = git2::Repository::discover(&req.path)
                .ok()
                .is_some_and(|r| r.workdir().is_some());
            if !in_repo {
                return Ok(None);
            }
            Target::Worktree
        } else {
            match Revisions::resolve(req)? {
                Some(mut r) => {
                    r.cross_check = crate::scope::strict();
                    Target::Git(Box::new(r))
                }
                None => return Ok(None),
            }
        };
        let mut settings = options.clone();
        settings.compare = CompareRequest::default();
        settings.now = jiff::Timestamp::UNIX_EPOCH;
        settings.now_given = false;
        settings.verbose = false;
        settings.report_all = false;
        settings.triage.acks.clear();
        settings.triage.require_ack = false;
        settings.triage.baseline = None;
        settings.kustomize.cache_dir = None;
        let scope = match &target {
            Target::Git(r) => r.scope.clone(),
            Target::Worktree => source::scope_of_path(&req.path)?,
        };
        let text = format!(
            "{settings:?}\0{scope}\0{}\0{}\0{}\0{}",
            req.max_file_size,
            crate::kustomize::renderer_identity(&options.kustomize),
            crate::validate::settings_fingerprint(&options.validation),
            crate::validate::build(),
        );
        Ok(Some(Scoping {
            store,
            target,
            settings: text.into_bytes(),
        }))
    }

    /// The name of the record of a tree.
    fn key(&self, tree: &[u8]) -> String {
        Store::key(&[tree, &self.settings])
    }

    /// The record under `key`: the one a long-lived caller read last, else the cache folder's.
    fn record(&self, key: &str, reuse: &mut Reuse) -> Option<Arc<Record>> {
        if let Some((k, r)) = &reuse.record {
            if k == key {
                return Some(r.clone());
            }
        }
        let record = Arc::new(self.store.as_ref()?.get(key)?);
        if reuse.keeping {
            reuse.record = Some((key.to_string(), record.clone()));
        }
        Some(record)
    }

    /// Keeps a record under `key` (and, for a long-lived caller, in memory).
    fn keep(&self, key: &str, record: Record, reuse: &mut Reuse) {
        if let Some(store) = &self.store {
            store.put(key, &record);
        }
        if reuse.keeping {
            reuse.record = Some((key.to_string(), Arc::new(record)));
        }
    }

    /// A scoped check of Git revisions, before anything is read.
    pub(super) fn before_load(
        &self,
        options: &Options,
        reuse: &mut Reuse,
        clock: &mut Stopwatch,
    ) -> Result<Option<Outcome>, Fatal> {
        let Target::Git(revisions) = &self.target else {
            return Ok(None);
        };
        let tried = self.git(revisions, options, reuse, clock)?;
        self.settle(tried)
    }

    /// Before a whole check of Git revisions: what its record will ask of them is answered now
    /// and their repository closed ([`Revisions::close`]).
    pub(super) fn going_whole(&mut self) {
        if let Target::Git(revisions) = &mut self.target {
            revisions.close();
        }
    }

    /// A scoped check of the working tree, once its files are listed.
    pub(super) fn after_load(
        &self,
        options: &Options,
        loaded: &mut source::Loaded,
        reuse: &mut Reuse,
        clock: &mut Stopwatch,
    ) -> Result<Option<Outcome>, Fatal> {
        let Target::Worktree = &self.target else {
            return Ok(None);
        };
        let tried = self.worktree(options, loaded, reuse, clock)?;
        self.settle(tried)
    }

    /// The outcome of a scoped check, or `None` (logged) for a whole one; a scoped evaluation that
    /// disagrees with its record is an error under `NODECAST_SCOPE_STRICT`.
    fn settle(&self, tried: Result<Outcome, Whole>) -> Result<Option<Outcome>, Fatal> {
        match tried {
            Ok(outcome) => Ok(Some(outcome)),
            Err(whole) if whole.mismatch && crate::scope::strict() => Err(Fatal::new(
                format!("scoped check disagrees with its record: {}", whole.why),
                "NODECAST_SCOPE_STRICT is set (the differential tests): this is a bug",
            )),
            Err(whole) => {
                crate::scope::log(|| format!("whole: {}", whole.why));
                Ok(None)
            }
        }
    }

    fn git(
        &self,
        revisions: &Revisions,
        options: &Options,
        reuse: &mut Reuse,
        clock: &mut Stopwatch,
    ) -> Result<Result<Outcome, Whole>, Fatal> {
        if let Some(w) = refusal(options) {
            return Ok(Err(w));
        }
        let key = self.key(revisions.base.0.as_bytes());
        let Some(record) = self.record(&key, reuse) else {
            return Ok(Err(Whole::because("no record of the base revision")));
        };
        clock.lap("record-load");
        let Some(changed) = revisions.changed() else {
            return Ok(Err(Whole::because("Git cannot list what changed")));
        };
        clock.lap("changed");
        let plan =
            match crate::scope::plan::plan(&record, &changed, BTreeSet::new(), &revisions.scope) {
                Ok(p) => p,
                Err(w) => return Ok(Err(w)),
            };
        let Some(mut loaded) = revisions.load(&plan.files)? else {
            return Ok(Err(Whole::because("a file to read is not a plain file")));
        };
        crate::triage::select_files(&options.triage, &mut loaded);
        clock.lap("source");
        // A head that is a tree or the index will be the base of a later check (once committed):
        // its record is kept, unless an earlier check of the same revision kept one.
        let head_key = revisions
            .head_tree()
            .map(|t| self.key(t.as_bytes()))
            .filter(|k| self.store.as_ref().is_some_and(|s| !s.has(k)));
        self.evaluate(
            options,
            &record,
            &plan,
            loaded,
            (&key, head_key),
            reuse,
            clock,
        )
    }

    fn worktree(
        &self,
        options: &Options,
        loaded: &mut source::Loaded,
        reuse: &mut Reuse,
        clock: &mut Stopwatch,
    ) -> Result<Result<Outcome, Whole>, Fatal> {
        if let Some(w) = refusal(options) {
            return Ok(Err(w));
        }
        let Some(tree) = base_tree(options, loaded) else {
            return Ok(Err(Whole::because("the base is no commit")));
        };
        let key = self.key(tree.as_bytes());
        let Some(record) = self.record(&key, reuse) else {
            return Ok(Err(Whole::because("no record of the base revision")));
        };
        clock.lap("record-load");
        let changed = listed_changes(loaded);
        // A rendered root whose inputs changed on disk, whichever file (a generator's is no
        // manifest: the listing does not show it).
        let head_tree = crate::kustomize::tree::trees(loaded, &options.compare).1;
        let rendered: Vec<usize> = (0..record.roots.len())
            .filter(|&j| record.root_prints[j].is_some())
            .collect();
        let files: Vec<String> = rendered
            .iter()
            .map(|&j| record.root_files[j].clone())
            .collect();
        let prints = crate::kustomize::fingerprints(&head_tree, &files);
        let touched: BTreeSet<u32> = rendered
            .iter()
            .zip(prints)
            .filter(|(&j, print)| *print != record.root_prints[j])
            .map(|(&j, _)| (record.paths.len() + j) as u32)
            .collect();
        clock.lap("changed");
        let scope = source::scope_of_path(&options.compare.path)?;
        let plan = match crate::scope::plan::plan(&record, &changed, touched, &scope) {
            Ok(p) => p,
            Err(w) => return Ok(Err(w)),
        };
        let keep = |files: &[source::SourceFile]| -> Vec<source::SourceFile> {
            files
                .iter()
                .filter(|f| plan.files.contains(&f.path))
                .cloned()
                .collect()
        };
        let mut subset = source::Loaded {
            base: source::Snapshot {
                info: loaded.base.info.clone(),
                files: keep(&loaded.base.files),
            },
            head: source::Snapshot {
                info: loaded.head.info.clone(),
                files: keep(&loaded.head.files),
            },
            root: loaded.root.clone(),
            has_base: loaded.has_base,
        };
        if subset
            .base
            .files
            .iter()
            .chain(&subset.head.files)
            .any(|f| f.via_link)
        {
            return Ok(Err(Whole::because("a file to read is read through a link")));
        }
        // The working tree was read whole (its files' ids tell what changed); a one-off check
        // lets go of the bytes the plan does not read, most of them, and reads the tree again
        // in the rare case the evaluation turns out whole.
        let released = !reuse.sources.keeps() && release_bytes(loaded);
        if released {
            // The files read are scattered among those let go: copied, they fill the freed
            // pages instead of pinning them (the parse keeps a file's bytes as its text).
            compact_bytes(&mut subset);
        }
        let evaluated =
            self.evaluate(options, &record, &plan, subset, (&key, None), reuse, clock)?;
        if released && evaluated.is_err() {
            *loaded = source::load_reusing(&options.compare, &mut reuse.sources)?;
            crate::triage::select_files(&options.triage, loaded);
        }
        Ok(evaluated)
    }

    /// Evaluates a plan's files, verifies the evaluation against the record, merges the counts
    /// into the outcome and keeps what it taught (the head's record under `keys.1`, the base's
    /// under `keys.0` when it learnt something).
    #[allow(clippy::too_many_arguments)]
    fn evaluate(
        &self,
        options: &Options,
        record: &Record,
        plan: &crate::scope::plan::Plan,
        loaded: source::Loaded,
        keys: (&str, Option<String>),
        reuse: &mut Reuse,
        clock: &mut Stopwatch,
    ) -> Result<Result<Outcome, Whole>, Fatal> {
        let probe = crate::scope::probe::Probe::new(
            record.probe_key,
            &record.probe_lengths,
            record
                .needles
                .iter()
                .filter(|(p, _)| !plan.loaded.contains(p))
                .flat_map(|(_, h)| h.iter().copied()),
        );
        let mut all = options.clone();
        all.report_all = true;
        let mode = Mode {
            base_alone: true,
            disk_validation: false,
            probe: Some(&probe),
        };
        let checked = check_loaded(&all, loaded, reuse, clock, mode)?;
        if checked.probe_hit {
            return Ok(Err(Whole::because(
                "a text may show a private value of a file left out",
            )));
        }
        let (Some(alone), Some(head_suppressed)) = (&checked.base_alone, &checked.head_suppressed)
        else {
            return Ok(Err(Whole::because("no base to compare with")));
        };
        let mut o = checked.outcome;
        let ev = crate::scope::finish::Evaluation {
            files: &o.files,
            base: &o.base,
            head: &o.head,
            diff: &o.diff,
            findings: &o.diagnostics,
            suppressed: head_suppressed,
            base_findings: &alone.findings,
            base_suppressed: &alone.suppressed,
            globs: &options.cluster_roots,
            usage: checked.render_usage,
        };
        let merged = match crate::scope::finish::finish(record, plan, &ev) {
            Ok(m) => m,
            Err(w) => return Ok(Err(w)),
        };
        clock.lap("finish");
        // A head that adds files is recorded by the next whole check (its record would need the
        // new producers and the islands they join).
        if let Some(head_key) = keys.1.as_ref().filter(|_| plan.new_files.is_empty()) {
            let head = crate::scope::finish::head_record(
                record,
                plan,
                &merged,
                &o.head,
                &checked.needles.1,
            );
            if let Some(store) = &self.store {
                store.put(head_key, &head);
            }
        }
        if let Some(base) = crate::scope::finish::base_record(record, plan, &merged) {
            self.keep(keys.0, base, reuse);
        }
        crate::scope::log(|| {
            format!(
                "scoped: {} of {} islands evaluated ({} touched), {} files read",
                plan.evaluated.len(),
                record.islands.len(),
                plan.touched.len(),
                o.files.head.len()
            )
        });
        let mut keep = merged.keep.iter();
        o.diagnostics
            .retain(|d| keep.next().copied().unwrap_or(false) && d.state.introduced());
        o.pre_existing = merged.pre_existing;
        o.suppressed = merged.suppressed;
        o.file_count = merged.file_count;
        o.object_count = merged.object_count;
        clock.lap("scope");
        Ok(Ok(o))
    }

    /// Keeps the records a whole check teaches: its base's and, when its head is a tree or the
    /// index, its head's.
    pub(super) fn learn(&self, options: &Options, checked: &Checked, reuse: &mut Reuse) {
        let (Some(alone), Some(head_suppressed)) = (&checked.base_alone, &checked.head_suppressed)
        else {
            return;
        };
        let o = &checked.outcome;
        let (base_tree, head_tree, changed) = match &self.target {
            Target::Git(revisions) => {
                let Some(changed) = revisions.changed() else {
                    return;
                };
                (
                    Some(revisions.base.0),
                    revisions.head_tree(),
                    changed.into_iter().map(|c| c.path).collect(),
                )
            }
            Target::Worktree => (
                commit_tree(&options.compare, o.base_info.rev.as_deref()),
                None,
                parsed_changes(o),
            ),
        };
        let Some(base_tree) = base_tree else {
            return;
        };
        let side = |listed, files, roots, inventory, needles| crate::scope::record::Revision {
            listed,
            files,
            roots,
            inventory,
            needles,
            globs: &options.cluster_roots,
            usage: checked.render_usage,
            schedules: crate::schedule::model::in_use(inventory),
        };
        let base = side(
            &checked.listed.0[..],
            &o.files.base[..],
            &checked.base_roots[..],
            &o.base,
            &checked.needles.0[..],
        );
        let head = side(
            &checked.listed.1[..],
            &o.files.head[..],
            &checked.head_roots[..],
            &o.head,
            &checked.needles.1[..],
        );
        let (a, b) = crate::scope::learn::records(
            &base,
            &head,
            &o.files,
            crate::scope::learn::Findings {
                reported: &alone.findings,
                suppressed: &alone.suppressed,
            },
            crate::scope::learn::Findings {
                reported: &o.diagnostics,
                suppressed: head_suppressed,
            },
            &changed,
        );
        self.keep(&self.key(base_tree.as_bytes()), a, reuse);
        if let (Some(tree), Some(store)) = (head_tree, &self.store) {
            store.put(&self.key(tree.as_bytes()), &b);
        }
        crate::scope::log(|| "recorded the base and the head".to_string());
    }
}

/// Lets go of the bytes of every loaded file (the subset a scoped check reads holds its own
/// share of those it reads); whether any were held.
fn release_bytes(loaded: &mut source::Loaded) -> bool {
    let mut released = false;
    for f in loaded
        .base
        .files
        .iter_mut()
        .chain(loaded.head.files.iter_mut())
    {
        if let source::Content::Bytes { bytes, .. } = &mut f.content {
            *bytes = std::sync::Arc::from(&[][..]);
            released = true;
        }
    }
    released
}

/// Copies each loaded content into an allocation of its own (one per content, as both sides
/// shared it), letting go of the old one.
fn compact_bytes(loaded: &mut source::Loaded) {
    let mut copies: std::collections::HashMap<[u8; 20], std::sync::Arc<[u8]>> =
        std::collections::HashMap::new();
    for f in loaded
        .base
        .files
        .iter_mut()
        .chain(loaded.head.files.iter_mut())
    {
        if let source::Content::Bytes { id, bytes } = &mut f.content {
            let copy = copies.entry(*id).or_insert_with(|| source::kept(bytes));
            *bytes = copy.clone();
        }
    }
}

/// What no record can scope: a run that lists pre-existing findings (`--all`, a baseline) or
/// unevaluated rules (`--verbose`).
fn refusal(options: &Options) -> Option<Whole> {
    (options.report_all || options.verbose || options.triage.baseline.is_some()).then(|| {
        Whole::because("the run lists pre-existing findings, unevaluated rules or a baseline")
    })
}

/// The tree of the commit a working-tree check's base is.
fn base_tree(options: &Options, loaded: &source::Loaded) -> Option<git2::Oid> {
    loaded.has_base.then_some(())?;
    commit_tree(&options.compare, loaded.base.info.rev.as_deref())
}

/// The tree of a commit of the repository the request names.
fn commit_tree(req: &CompareRequest, rev: Option<&str>) -> Option<git2::Oid> {
    let repo = git2::Repository::discover(&req.path).ok()?;
    let commit = repo.find_commit(git2::Oid::from_str(rev?).ok()?).ok()?;
    Some(commit.tree_id())
}

/// The paths whose files differ between two listed snapshots (content, presence, or how they
/// are read).
fn listed_changes(loaded: &source::Loaded) -> Vec<Changed> {
    let key = |f: &source::SourceFile| (f.content.id(), f.via_link, unread(f));
    let mut out = Vec::new();
    let (mut b, mut h) = (
        loaded.base.files.iter().peekable(),
        loaded.head.files.iter().peekable(),
    );
    loop {
        match (b.peek(), h.peek()) {
            (Some(x), Some(y)) if x.path == y.path => {
                if key(x) != key(y) {
                    out.push(changed(&x.path, true, true));
                }
                b.next();
                h.next();
            }
            (Some(x), Some(y)) if x.path < y.path => {
                out.push(changed(&x.path, true, false));
                b.next();
            }
            (Some(_), Some(y)) => {
                out.push(changed(&y.path, false, true));
                h.next();
            }
            (Some(x), None) => {
                out.push(changed(&x.path, true, false));
                b.next();
            }
            (None, Some(y)) => {
                out.push(changed(&y.path, false, true));
                h.next();
            }
            (None, None) => break,
        }
    }
    out
}

/// Whether a file was not read (its reason), so an unreadable file that stays unreadable for
/// another reason still counts as changed.
fn unread(f: &source::SourceFile) -> Option<String> {
    match &f.content {
        source::Content::Unreadable { reason, .. } => Some(reason.clone()),
        source::Content::TooLarge { size, .. } => Some(size.to_string()),
        source::Content::Bytes { .. } => None,
    }
}

fn changed(path: &str, in_base: bool, in_head: bool) -> Changed {
    Changed {
        path: path.to_string(),
        in_base,
        in_head,
    }
}

/// The paths whose parsed files differ between a whole check's revisions.
fn parsed_changes(o: &Outcome) -> BTreeSet<String> {
    let base: std::collections::HashMap<&str, Option<[u8; 20]>> =
        o.files.base.iter().map(|f| (&*f.path, f.id)).collect();
    let mut out: BTreeSet<String> = o
        .files
        .head
        .iter()
        .filter(|f| base.get(&*f.path) != Some(&f.id) || f.id.is_none())
        .map(|f| f.path.to_string())
        .collect();
    let head: BTreeSet<&str> = o.files.head.iter().map(|f| &*f.path).collect();
    out.extend(
        o.files
            .base
            .iter()
            .filter(|f| !head.contains(&*f.path) || f.id.is_none())
            .map(|f| f.path.to_string()),
    );
    out
}
