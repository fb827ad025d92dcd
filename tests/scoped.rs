//! SCOPE's safety net: a scoped check — the record of its base revision in the cache folder says
//! what the islands the change does not reach find, and only the others are evaluated — reports
//! exactly what a whole one (`--full`) reports.
//!
//! Every scenario of the test suites (HyperShift, MCO, rule fixtures, real-repository layouts,
//! repository shapes, the demo) becomes a Git repository: its `before` tree, its `after` tree,
//! and one commit per changed file that changes only that file. Each pair is checked with
//! `--full`, then twice with a cache folder (the first run of a base records it; every later
//! one may be scoped), in both directions (the reverse pair's base record is the one the
//! forward pair left for its head: a record written by another revision's check), and the JSON
//! reports must be byte-identical. `NODECAST_SCOPE_STRICT` makes a scoped check that disagrees
//! with its record an error rather than a quiet whole check. The generated fleets (plain and
//! Kustomize) get the same treatment on every commit and branch, and a staged change twice.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{fixture, git_in, nodecast_env, project_root};

/// What the checks of one corpus did, and why the whole ones were whole (printed with
/// `--nocapture`: where the shortcut gives way most often).
#[derive(Default)]
struct Tally {
    checks: AtomicUsize,
    scoped: AtomicUsize,
    whole: std::sync::Mutex<std::collections::BTreeMap<String, usize>>,
}

impl Tally {
    fn count(&self, stderr: &str) {
        self.checks.fetch_add(1, Ordering::Relaxed);
        if stderr.contains("nodecast scope: scoped:") {
            self.scoped.fetch_add(1, Ordering::Relaxed);
        }
        for why in stderr
            .lines()
            .filter_map(|l| l.strip_prefix("nodecast scope: whole: "))
        {
            // Reasons name paths and objects: keep their first words.
            let head: String = why.split_whitespace().take(6).collect::<Vec<_>>().join(" ");
            if let Ok(mut w) = self.whole.lock() {
                *w.entry(head).or_default() += 1;
            }
        }
    }

    /// (checks, scoped), after printing the reasons for whole checks.
    fn report(&self) -> (usize, usize) {
        let (checks, scoped) = (
            self.checks.load(Ordering::Relaxed),
            self.scoped.load(Ordering::Relaxed),
        );
        eprintln!("{scoped} of {checks} checks scoped");
        if let Ok(w) = self.whole.lock() {
            let mut reasons: Vec<(&String, &usize)> = w.iter().collect();
            reasons.sort_by(|a, b| b.1.cmp(a.1));
            for (why, n) in reasons.iter().take(15) {
                eprintln!("  {n:5} whole: {why}");
            }
        }
        (checks, scoped)
    }
}

/// One scenario as a Git repository: `base` and `head` commits and the single-file commits.
struct Case {
    name: String,
    /// Holds `repo/` and the scenario's other files (configurations, baselines, metadata its
    /// arguments name).
    dir: tempfile::TempDir,
    args: Vec<String>,
    base: String,
    head: String,
    partial: Vec<String>,
}

fn git(dir: &Path, args: &[&str]) -> String {
    git_in(dir, args).trim().to_string()
}

/// A repository holding `before` (or nothing) and then `after`, and from `before`, one commit
/// for each path the two differ in.
fn case(folder: &Path) -> Option<Case> {
    if folder.join("needs-kubectl").is_file() && !common::kubectl_available() {
        return None;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    fixture::materialise(folder, dir.path());
    let root = dir.path();
    let (before, after) = if root.join("after").is_dir() {
        (root.join("before"), root.join("after"))
    } else {
        // A tree without revisions (a shape, the demo's folders are handled by the caller).
        return None;
    };
    let repo = root.join("repo");
    std::fs::create_dir_all(&repo).expect("mkdir");
    git(&repo, &["init", "-q"]);
    let commit = |msg: &str| -> String {
        git(&repo, &["add", "-A"]);
        git(&repo, &["commit", "-q", "--allow-empty", "-m", msg]);
        git(&repo, &["rev-parse", "HEAD"])
    };
    let clear = || {
        for e in std::fs::read_dir(&repo).expect("read") {
            let p = e.expect("entry").path();
            if p.file_name().is_some_and(|n| n != ".git") {
                if p.is_dir() {
                    std::fs::remove_dir_all(&p).expect("rm");
                } else {
                    std::fs::remove_file(&p).expect("rm");
                }
            }
        }
    };
    if before.is_dir() {
        common::copy_tree(&before, &repo);
    }
    let base = commit("before");
    clear();
    common::copy_tree(&after, &repo);
    let head = commit("after");
    // One commit per changed path, on top of `before`, built from the index alone.
    let changed = git(
        &repo,
        &["diff", "--name-only", "--no-renames", &base, &head],
    );
    let mut partial = Vec::new();
    for path in changed.lines().filter(|l| !l.is_empty()) {
        git(&repo, &["read-tree", &base]);
        let in_head = git(&repo, &["ls-tree", &head, "--", path]);
        match in_head.split_whitespace().collect::<Vec<_>>().as_slice() {
            [mode, _, blob, ..] => {
                let info = format!("{mode},{blob},{path}");
                git(&repo, &["update-index", "--add", "--cacheinfo", &info]);
            }
            _ => {
                git(&repo, &["rm", "-q", "--cached", "--", path]);
            }
        }
        let tree = git(&repo, &["write-tree"]);
        partial.push(git(
            &repo,
            &[
                "commit-tree",
                &tree,
                "-p",
                &base,
                "-m",
                &format!("only {path}"),
            ],
        ));
    }
    git(&repo, &["read-tree", &head]);
    let mut args: Vec<String> = std::fs::read_to_string(root.join("args"))
        .map(|a| a.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    if !args.iter().any(|a| a == "--now") {
        args.extend(["--now".into(), "2026-11-21T12:00:00Z".into()]);
    }
    Some(Case {
        name: folder
            .strip_prefix(project_root())
            .unwrap_or(folder)
            .display()
            .to_string(),
        dir,
        args,
        base,
        head,
        partial,
    })
}

/// Runs a check with `--full`, then twice with the cache folder `cache`; panics unless all three
/// give the same exit code and byte-identical output.
fn twice_like_full(what: &str, cache: &Path, run: impl Fn(&[&str]) -> common::Run, tally: &Tally) {
    let full = run(&["--full"]);
    assert_ne!(full.code, 2, "{what}: --full: {}", full.stderr);
    let cache = cache.display().to_string();
    for attempt in ["first", "second"] {
        let r = run(&["--cache-dir", &cache]);
        tally.count(&r.stderr);
        assert_eq!(
            (r.code, &r.stdout),
            (full.code, &full.stdout),
            "{what}: the {attempt} check with a cache folder differs from --full\n{}",
            r.stderr
        );
    }
}

/// Runs `nodecast ARGS` in `cwd` as the differential checks do: strict and logging.
fn strict(cwd: &Path, args: &[&str]) -> common::Run {
    nodecast_env(
        cwd,
        args,
        &[("NODECAST_SCOPE_STRICT", "1"), ("NODECAST_SCOPE_LOG", "1")],
    )
}

/// Checks `base..head` of the repository at `cwd/repo` ([`twice_like_full`]).
fn same_as_full(
    cwd: &Path,
    what: &str,
    (base, head): (&str, &str),
    extra: &[String],
    cache: &Path,
    tally: &Tally,
) {
    let what = format!("{what} {base}..{head}");
    twice_like_full(
        &what,
        cache,
        |more| {
            let mut argv: Vec<&str> = vec!["check", "--base", base, "--head", head, "repo"];
            argv.extend(extra.iter().map(String::as_str));
            argv.extend(["--format", "json"]);
            argv.extend(more);
            strict(cwd, &argv)
        },
        tally,
    );
}

/// Runs every pair of a case: forward, each single-file change, and backward; then the same
/// changes in the working tree (what `nodecast check` and the editor compare with `HEAD`).
fn check_case(c: &Case, tally: &Tally) {
    let cwd = c.dir.path();
    let cache = cwd.join("cache");
    let args = &c.args;
    same_as_full(cwd, &c.name, (&c.base, &c.head), args, &cache, tally);
    for p in &c.partial {
        same_as_full(cwd, &c.name, (&c.base, p), args, &cache, tally);
    }
    same_as_full(cwd, &c.name, (&c.head, &c.base), args, &cache, tally);
    let repo = cwd.join("repo");
    git(&repo, &["checkout", "-q", "--detach", &c.base]);
    for target in std::iter::once(&c.head).chain(&c.partial) {
        // The index and the working tree become `target`; HEAD stays the base.
        git(&repo, &["read-tree", "-u", "--reset", target]);
        let what = format!("{} working tree {}..{target}", c.name, c.base);
        twice_like_full(
            &what,
            &cache,
            |more| {
                let mut argv: Vec<&str> = vec!["check", "--base", "HEAD", "repo"];
                argv.extend(args.iter().map(String::as_str));
                argv.extend(["--format", "json"]);
                argv.extend(more);
                strict(cwd, &argv)
            },
            tally,
        );
    }
}

/// Every case of the scenario suites, checked in parallel; returns (checks, scoped).
fn suites(suites: &[&str]) -> (usize, usize) {
    let folders: Vec<PathBuf> = suites
        .iter()
        .flat_map(|s| fixture::cases(&project_root().join("testdata").join(s)))
        .collect();
    let tally = Tally::default();
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(folder) = folders.get(i) else { break };
                if let Some(c) = case(folder) {
                    check_case(&c, &tally);
                }
            });
        }
    });
    tally.report()
}

#[test]
fn every_scenario_scoped_reports_what_a_whole_check_does() {
    let (checks, scoped) = suites(&["hcp", "mco", "real"]);
    assert!(checks > 300, "{checks} checks");
    assert!(
        scoped * 4 > checks,
        "only {scoped} of {checks} checks were scoped: the shortcut is not exercised"
    );
}

#[test]
fn every_rule_fixture_scoped_reports_what_a_whole_check_does() {
    let (checks, scoped) = suites(&["rules"]);
    assert!(checks > 200, "{checks} checks");
    assert!(scoped > 0, "no check was scoped");
}

/// A generated fleet: its history checked commit by commit, and a staged change twice (the
/// pre-commit case), scoped and whole.
#[test]
fn generated_fleets_scoped_report_what_a_whole_check_does() {
    let tally = Tally::default();
    for size in ["small", "kustomize-small"] {
        let kustomize = size.starts_with("kustomize");
        if kustomize && !common::kubectl_available() {
            continue;
        }
        let dir = tempfile::tempdir().expect("tempdir");
        let repo = dir.path().join("repo");
        if kustomize {
            repogen::generate_kustomize(
                repogen::Size::Small,
                1,
                repogen::kustomize::Variant::Fleet,
                &repo,
            )
            .expect("generate");
        } else {
            repogen::generate(repogen::Size::Small, 1, &repo).expect("generate");
        }
        let cache = dir.path().join("cache");
        let none: &[String] = &["--now".into(), "2026-11-21T12:00:00Z".into()];
        let refs = git(
            &repo,
            &["for-each-ref", "--format=%(refname:short)", "refs/heads"],
        );
        let log = git(&repo, &["log", "--format=%H", "--reverse", "HEAD"]);
        let commits: Vec<&str> = log.lines().collect();
        for w in commits.windows(2) {
            same_as_full(dir.path(), size, (w[0], w[1]), none, &cache, &tally);
            same_as_full(dir.path(), size, (w[1], w[0]), none, &cache, &tally);
        }
        let main = git(&repo, &["rev-parse", "HEAD"]);
        for branch in refs.lines().filter(|b| b.starts_with("pr/")) {
            let tip = git(&repo, &["rev-parse", branch]);
            same_as_full(dir.path(), size, (&main, &tip), none, &cache, &tally);
        }
        // Three files staged (as the benchmark stages them), checked twice.
        let files = git(
            &repo,
            &[
                "ls-files",
                "--",
                "*nodepool*.yaml",
                "*machineconfigs/*.yaml",
            ],
        );
        let files: Vec<&str> = files.lines().collect();
        for f in [files.first(), files.get(files.len() / 2), files.last()]
            .into_iter()
            .flatten()
        {
            let p = repo.join(f);
            let text = std::fs::read_to_string(&p).expect("read");
            let changed = text
                .replacen("replicas: ", "replicas: 1", 1)
                .replacen("audit=1", "audit=0", 1);
            std::fs::write(&p, changed).expect("write");
            git(&repo, &["add", "--", f]);
        }
        twice_like_full(
            &format!("{size} staged"),
            &cache,
            |more| {
                let mut argv = vec!["check", "--staged", "repo", "--format", "json"];
                argv.extend(none.iter().map(String::as_str));
                argv.extend(more);
                strict(dir.path(), &argv)
            },
            &tally,
        );
    }
    let (_, scoped) = tally.report();
    assert!(scoped > 0, "no check of a generated fleet was scoped");
}

/// A one-off scoped check of the working tree lets go of the bytes of the files its plan does
/// not read; when its evaluation then turns out whole (here: a NodePool now names a cluster that
/// does not exist), it reads the working tree again and reports what `--full` does — the other
/// clusters' plain files included, which it had let go of.
#[test]
fn a_working_tree_check_that_turns_whole_after_letting_go_of_the_files_reads_them_again() {
    let repo = common::Repo::new();
    for (name, pools) in [("alpha", 2), ("beta", 3), ("gamma", 1)] {
        repo.write(
            &format!("clusters/{name}/hostedcluster.yaml"),
            &common::hosted_cluster(name, "4.18.5"),
        );
        repo.write(
            &format!("clusters/{name}/nodepool.yaml"),
            &common::node_pool(&format!("{name}-workers"), name, pools, &[]),
        );
    }
    repo.commit("three clusters");
    let cache = tempfile::tempdir().expect("tempdir");
    let cache = cache.path().display().to_string();
    let run = |more: &[&str]| {
        let mut argv = vec!["check", "--base", "HEAD", "--format", "json"];
        argv.extend(more);
        strict(repo.path(), &argv)
    };
    // Records HEAD (the working tree is HEAD's).
    run(&["--cache-dir", &cache]);
    repo.write(
        "clusters/alpha/nodepool.yaml",
        &common::node_pool("alpha-workers", "no-such-cluster", 2, &[]),
    );
    let scoped = run(&["--cache-dir", &cache]);
    assert!(
        scoped.stderr.contains(
            "nodecast scope: whole: NodePool/clusters/alpha-workers refers to HostedCluster/clusters/no-such-cluster, which does not exist"
        ),
        "{}",
        scoped.stderr
    );
    let full = run(&["--full"]);
    assert_eq!((scoped.code, &scoped.stdout), (full.code, &full.stdout));
    let r = full.json();
    assert_eq!(r["summary"]["objects"], 6);
    assert_eq!(
        common::diag_lines(&r),
        [
            "R001 error clusters/alpha/nodepool.yaml:7:16",
            "V104 error clusters/alpha/nodepool.yaml:7:16"
        ]
    );
}
