//! Decides what is compared with what (base and head), the way `git diff` users expect.

use std::path::{Path, PathBuf};

use git2::{Commit, Oid, Repository, StatusOptions};

use super::{
    content_from_bytes, dir, git, is_manifest_path, Overlay, Snapshot, SnapshotInfo, SourceFile,
    SourceKind,
};
use crate::Fatal;

/// The user's choice of base and head (CLI flags), before it is resolved against the repository.
#[derive(Clone, Debug, Default)]
pub struct CompareRequest {
    /// The repository (or any folder inside it), or the head directory with `base_dir`.
    pub path: PathBuf,
    /// `--base REV`.
    pub base: Option<String>,
    /// `--head REV`.
    pub head: Option<String>,
    /// `--staged`: head is the index.
    pub staged: bool,
    /// `--base-dir DIR`: compare two plain directories.
    pub base_dir: Option<PathBuf>,
    /// `--no-base`: lint the head alone.
    pub no_base: bool,
    /// Files larger than this are not read.
    pub max_file_size: u64,
    /// Compare against the fork point of `base` and the head even when `base` is a commit id
    /// (a pull request's `base.sha` moves on while the branch is open).
    pub merge_base: bool,
    /// Buffers laid over the files of a head read from disk (the working tree, or the folder
    /// outside a repository): `nodecast server` checks what the editor shows.
    pub overlay: Overlay,
}

/// Both snapshots, and where paths are relative to.
#[derive(Debug)]
pub struct Loaded {
    /// The base side (possibly empty).
    pub base: Snapshot,
    /// The head side.
    pub head: Snapshot,
    /// The folder paths are relative to (repository root, or the compared directory).
    pub root: PathBuf,
    /// Whether the base is a real snapshot (not "no base"), so everything is not reported as added.
    pub has_base: bool,
}

/// What a long-lived caller (the language server) keeps between loads of one repository: the
/// files of commits' trees (by tree id: a commit is read once) and what the working tree's files
/// were (an unchanged file is not read and hashed again).
#[derive(Debug, Default)]
pub struct Kept {
    keep: bool,
    trees: Vec<(TreeKey, Vec<SourceFile>)>,
    worktree: dir::Stamps,
}

impl Kept {
    /// Keeps what each load reads for the next (the default keeps nothing: a one-off check frees
    /// the files' bytes as soon as they are parsed).
    pub fn keeping() -> Self {
        Kept {
            keep: true,
            ..Kept::default()
        }
    }

    /// Whether loads keep what they read for the next one (an editor's server), so a file's
    /// bytes outlive the check that read them.
    pub fn keeps(&self) -> bool {
        self.keep
    }
}

/// A tree read for a scope with a size limit.
type TreeKey = (Oid, String, u64);

/// Trees kept (a base and a head revision, and the ones before them).
const KEPT_TREES: usize = 4;

/// Blobs are read by the ids the repository's own trees and index name. libgit2 hashes every
/// object it reads again by default (a tenth of a warm check's time), which guards only against
/// a corrupt object store — something Git's own commands do not check on every read either.
pub(crate) fn read_without_rehashing() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| git2::opts::strict_hash_verification(false));
}

/// libgit2 allocates with the C library's `malloc`, not nodecast's allocator, and the C heap
/// keeps what it frees: inflating a revision's blobs left 9 MiB of the large fleet's peak free
/// there for the rest of the check. Returned once a load is done (about a millisecond).
pub(super) fn return_c_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` only gives the C heap's free pages back to the system; it takes no
    // pointer and may be called from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Resolves the request and reads both snapshots.
pub fn load(req: &CompareRequest) -> Result<Loaded, Fatal> {
    load_reusing(req, &mut Kept::default())
}

/// [`load`], reusing what `kept` holds from earlier loads and keeping what this one read.
pub fn load_reusing(req: &CompareRequest, kept: &mut Kept) -> Result<Loaded, Fatal> {
    read_without_rehashing();
    if let Some(base_dir) = &req.base_dir {
        return load_dirs(base_dir, &req.path, req.max_file_size);
    }
    match Repository::discover(&req.path) {
        Ok(repo) => {
            let loaded = load_git(&repo, req, kept);
            drop(repo);
            return_c_heap();
            loaded
        }
        Err(_) if req.base.is_some() || req.head.is_some() || req.staged => Err(Fatal::new(
            format!("{} is not inside a Git repository", req.path.display()),
            "--base, --head and --staged need a Git repository; to compare two folders use --base-dir DIR",
        )),
        Err(_) => {
            let mut head = read_plain_dir(&req.path, req.max_file_size)?;
            lay_over(&mut head.files, &req.overlay, &req.path, "", req.max_file_size);
            Ok(Loaded {
                base: Snapshot::empty("nothing (not a Git repository)"),
                head,
                root: req.path.clone(),
                has_base: false,
            })
        }
    }
}

fn load_dirs(base_dir: &Path, head_dir: &Path, max: u64) -> Result<Loaded, Fatal> {
    let base = read_plain_dir(base_dir, max)?;
    let head = read_plain_dir(head_dir, max)?;
    Ok(Loaded {
        base,
        head,
        root: head_dir.to_path_buf(),
        has_base: true,
    })
}

fn read_plain_dir(path: &Path, max: u64) -> Result<Snapshot, Fatal> {
    if !path.is_dir() {
        return Err(Fatal::new(
            format!("{} is not a directory", path.display()),
            "pass a folder of manifests",
        ));
    }
    Ok(Snapshot {
        info: SnapshotInfo {
            kind: SourceKind::Dir,
            rev: None,
            label: format!("directory {}", path.display()),
        },
        files: dir::read_dir(path, max),
    })
}

fn load_git(repo: &Repository, req: &CompareRequest, kept: &mut Kept) -> Result<Loaded, Fatal> {
    let max = req.max_file_size;
    let workdir = repo.workdir().map(Path::to_path_buf);
    let scope = scope_of(repo, workdir.as_deref(), &req.path)?;
    let root = workdir.clone().unwrap_or_else(|| repo.path().to_path_buf());
    let head_commit = repo.head().ok().and_then(|h| h.peel_to_commit().ok());

    // Head side.
    let (head, head_for_merge_base): (Snapshot, Option<Oid>) = if let Some(rev) = &req.head {
        let commit = resolve_commit(repo, rev)?;
        let snap = tree_snapshot(
            repo,
            &commit,
            rev,
            Reading {
                scope: &scope,
                max,
                shared: &[],
            },
            kept,
        )?;
        (snap, Some(commit.id()))
    } else if req.staged {
        let files = git::read_index(repo, &scope, max)
            .map_err(|e| git_fatal("cannot read the Git index", e))?;
        let snap = Snapshot {
            info: SnapshotInfo {
                kind: SourceKind::Index,
                rev: None,
                label: "staged changes (index)".into(),
            },
            files,
        };
        (snap, head_commit.as_ref().map(Commit::id))
    } else {
        let Some(workdir) = &workdir else {
            return Err(Fatal::new(
                "this is a bare repository: there is no working tree to check",
                "pass --head REV (and optionally --base REV)",
            ));
        };
        let scope_path = if scope.is_empty() {
            workdir.clone()
        } else {
            workdir.join(&scope)
        };
        let stamps = kept.keep.then_some(&mut kept.worktree);
        let mut files = dir::read_worktree(workdir, &scope_path, max, stamps);
        lay_over(&mut files, &req.overlay, workdir, &scope, max);
        let snap = Snapshot {
            info: SnapshotInfo {
                kind: SourceKind::Worktree,
                rev: None,
                label: if req.overlay.is_empty() {
                    "working tree".into()
                } else {
                    "working tree with unsaved changes".into()
                },
            },
            files,
        };
        (snap, head_commit.as_ref().map(Commit::id))
    };

    // Base side: a blob the head side holds already is not read again.
    let read = Reading {
        scope: &scope,
        max,
        shared: &head.files,
    };
    let base = match base_rev(repo, req, head_for_merge_base, head_commit.as_ref(), &scope)? {
        None => None,
        Some(BaseRev::Commit(commit, label)) => {
            Some(tree_snapshot(repo, &commit, &label, read, kept)?)
        }
        Some(BaseRev::Empty(label)) => Some(Snapshot::empty(label)),
    };
    let has_base = base.is_some();
    let base = base.unwrap_or_else(|| {
        Snapshot::empty(if req.no_base {
            "nothing (--no-base)"
        } else {
            "nothing (no commits yet)"
        })
    });
    Ok(Loaded {
        base,
        head,
        root,
        has_base: has_base || (!req.no_base && head_commit.is_none()),
    })
}

/// Lays an editor's buffers over the files read from disk below `root`: a buffer replaces the
/// file it edits, and a buffer of a file not yet saved is added. Only manifests inside the scope
/// are laid over; a file the walk skipped although it exists (ignored by Git) stays skipped.
fn lay_over(files: &mut Vec<SourceFile>, overlay: &Overlay, root: &Path, scope: &str, max: u64) {
    for (path, bytes) in overlay.iter() {
        let inside = scope.is_empty()
            || path
                .strip_prefix(scope)
                .is_some_and(|rest| rest.starts_with('/'));
        if !inside || !is_manifest_path(path) {
            continue;
        }
        let content = content_from_bytes(bytes.to_vec(), max);
        match files.binary_search_by(|f| f.path.as_str().cmp(path)) {
            Ok(i) => files[i].content = content,
            Err(i) if !root.join(path).exists() => files.insert(
                i,
                SourceFile {
                    path: path.clone(),
                    content,
                    via_link: false,
                },
            ),
            Err(_) => {}
        }
    }
}

/// The path prefix (relative to the repository root) that PATH selects.
pub(super) fn scope_of(
    repo: &Repository,
    workdir: Option<&Path>,
    path: &Path,
) -> Result<String, Fatal> {
    let Some(workdir) = workdir else {
        return Ok(String::new());
    };
    let abs = path.canonicalize().map_err(|e| {
        Fatal::new(
            format!("cannot read {}: {e}", path.display()),
            "pass an existing folder inside the repository",
        )
    })?;
    let root = workdir
        .canonicalize()
        .unwrap_or_else(|_| workdir.to_path_buf());
    let rel = abs.strip_prefix(&root).map_err(|_| {
        Fatal::new(
            format!(
                "{} is outside the repository at {}",
                path.display(),
                root.display()
            ),
            "pass a folder inside the repository",
        )
    })?;
    let _ = repo;
    Ok(rel
        .components()
        .map(|c| super::os_text(c.as_os_str()))
        .collect::<Vec<_>>()
        .join("/"))
}

pub(super) fn short(oid: Oid) -> String {
    oid.to_string().chars().take(7).collect()
}

fn shallow_fatal(what: &str) -> Fatal {
    Fatal::new(
        format!("the base commit ({what}) is not in this clone: the repository is shallow"),
        "fetch the history: with actions/checkout set `fetch-depth: 0`, or run `git fetch --deepen=50` \
         (or `git fetch origin <base-sha>`) and try again",
    )
}

fn git_fatal(what: &str, err: git2::Error) -> Fatal {
    Fatal::new(
        format!("{what}: {}", err.message()),
        "check that the repository is readable",
    )
}

pub(super) fn resolve_commit<'r>(repo: &'r Repository, rev: &str) -> Result<Commit<'r>, Fatal> {
    let obj =
        match repo.revparse_single(rev) {
            Ok(obj) => obj,
            Err(_) if repo.is_shallow() => return Err(shallow_fatal(rev)),
            Err(err) => return Err(Fatal::new(
                format!("unknown revision `{rev}`: {}", err.message()),
                "pass a commit, branch or tag that exists here (`git log --oneline` lists them)",
            )),
        };
    obj.peel_to_commit().map_err(|err| {
        Fatal::new(
            format!("`{rev}` does not name a commit: {}", err.message()),
            "pass a commit, branch or tag",
        )
    })
}

/// Which revision the base side is, before anything of it is read.
pub(super) enum BaseRev<'r> {
    /// A commit's tree, with the label reports give it.
    Commit(Commit<'r>, String),
    /// Nothing: the head is the first commit (the label says so).
    Empty(String),
}

/// The base the request names, or the one it implies (`HEAD^`, `HEAD` when the working tree or
/// the index holds the change, the head's parent); `None` without a base.
pub(super) fn base_rev<'r>(
    repo: &'r Repository,
    req: &CompareRequest,
    head_for_merge_base: Option<Oid>,
    head_commit: Option<&Commit<'r>>,
    scope: &str,
) -> Result<Option<BaseRev<'r>>, Fatal> {
    if req.no_base {
        return Ok(None);
    }
    if let Some(rev) = &req.base {
        return resolve_base(repo, rev, head_for_merge_base, req.merge_base).map(Some);
    }
    if let Some(rev) = &req.head {
        return parent_rev(repo, &resolve_commit(repo, rev)?, &format!("{rev}^")).map(Some);
    }
    match head_commit {
        None => Ok(None),
        Some(commit) if req.staged || worktree_has_manifest_changes(repo, scope) => {
            Ok(Some(BaseRev::Commit(commit.clone(), "HEAD".into())))
        }
        Some(commit) => parent_rev(repo, commit, "HEAD^").map(Some),
    }
}

/// `--base REV`: a branch means the merge-base with the head, like `git diff main...HEAD`.
fn resolve_base<'r>(
    repo: &'r Repository,
    rev: &str,
    head: Option<Oid>,
    merge_base: bool,
) -> Result<BaseRev<'r>, Fatal> {
    // `actions/checkout` clones hold no local `main`, only `origin/main`: a branch name that
    // names no revision here is looked up as the remote-tracking branch of `origin`.
    let remote = format!("origin/{rev}");
    let rev = if repo.revparse_single(rev).is_err()
        && repo
            .find_reference(&format!("refs/remotes/{remote}"))
            .is_ok()
    {
        remote.as_str()
    } else {
        rev
    };
    let branch = repo
        .resolve_reference_from_short_name(rev)
        .ok()
        .filter(|r| r.is_branch() || r.is_remote());
    let commit = resolve_commit(repo, rev)?;
    if let (true, Some(head)) = (branch.is_some() || merge_base, head) {
        let base = match repo.merge_base(commit.id(), head) {
            Ok(base) => base,
            Err(_) if repo.is_shallow() => {
                return Err(shallow_fatal(&format!("merge-base of {rev} and HEAD")))
            }
            Err(err) => {
                return Err(Fatal::new(
                    format!(
                        "`{rev}` and the head have no common ancestor: {}",
                        err.message()
                    ),
                    "pass the exact base commit with --base <sha>",
                ))
            }
        };
        let base_commit = repo
            .find_commit(base)
            .map_err(|_| shallow_fatal(&base.to_string()))?;
        return Ok(BaseRev::Commit(base_commit, format!("merge-base of {rev}")));
    }
    Ok(BaseRev::Commit(commit, rev.to_string()))
}

fn parent_rev<'r>(
    repo: &'r Repository,
    commit: &Commit<'r>,
    label: &str,
) -> Result<BaseRev<'r>, Fatal> {
    match commit.parent_ids().next() {
        Some(parent) => match repo.find_commit(parent) {
            Ok(parent) => Ok(BaseRev::Commit(parent, label.to_string())),
            Err(_) => Err(shallow_fatal(label)),
        },
        None if repo.is_shallow() => Err(shallow_fatal(label)),
        None => Ok(BaseRev::Empty(format!(
            "nothing ({} is the first commit)",
            short(commit.id())
        ))),
    }
}

/// How a side's tree is read: the path prefix, the size limit, and the other side's files already
/// read, whose blobs are taken instead of inflated again (two revisions share nearly every file).
#[derive(Clone, Copy)]
struct Reading<'a> {
    scope: &'a str,
    max: u64,
    shared: &'a [SourceFile],
}

fn tree_snapshot(
    repo: &Repository,
    commit: &Commit<'_>,
    label: &str,
    read: Reading<'_>,
    kept: &mut Kept,
) -> Result<Snapshot, Fatal> {
    let Reading { scope, max, shared } = read;
    let tree = commit.tree_id();
    let key: TreeKey = (tree, scope.to_string(), max);
    let files = match kept.trees.iter().position(|(k, _)| *k == key) {
        Some(i) => {
            let entry = kept.trees.remove(i);
            let files = entry.1.clone();
            kept.trees.push(entry);
            files
        }
        None => {
            let known = git::Known::of(shared);
            let files = git::read_tree(repo, tree, scope, max, &known).map_err(|err| {
                if repo.is_shallow() {
                    shallow_fatal(label)
                } else {
                    git_fatal(&format!("cannot read the tree of {label}"), err)
                }
            })?;
            if kept.keep {
                if kept.trees.len() >= KEPT_TREES {
                    kept.trees.remove(0);
                }
                kept.trees.push((key, files.clone()));
            }
            files
        }
    };
    Ok(Snapshot {
        info: SnapshotInfo {
            kind: SourceKind::Git,
            rev: Some(commit.id().to_string()),
            label: format!("{label} ({})", short(commit.id())),
        },
        files,
    })
}

/// Whether a changed `.json` file may hold Kubernetes objects: a JSON report nodecast (or another
/// tool) wrote into the working tree is not a manifest change and must not move the base from
/// `HEAD^` to `HEAD`. YAML files, unreadable and unparsable files count as changes.
fn json_may_be_manifest(path: &Path) -> bool {
    if path.extension().is_none_or(|e| e != "json") {
        return true;
    }
    let Ok(text) = std::fs::read(path) else {
        // Deleted or unreadable: a change either way.
        return true;
    };
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(&text) else {
        return true;
    };
    let object = |v: &serde_json::Value| v.get("apiVersion").is_some() && v.get("kind").is_some();
    match &value {
        serde_json::Value::Object(_) => object(&value),
        serde_json::Value::Array(items) => items.iter().any(object),
        _ => false,
    }
}

fn worktree_has_manifest_changes(repo: &Repository, scope: &str) -> bool {
    let mut opts = StatusOptions::new();
    opts.include_untracked(true)
        .recurse_untracked_dirs(true)
        .include_ignored(false)
        .exclude_submodules(true);
    if !scope.is_empty() {
        opts.pathspec(scope);
    }
    let workdir = repo.workdir().map(Path::to_path_buf);
    match repo.statuses(Some(&mut opts)) {
        Ok(statuses) => statuses.iter().any(|s| {
            let p = super::path_text(s.path_bytes());
            is_manifest_path(&p)
                && workdir
                    .as_ref()
                    .is_none_or(|w| json_may_be_manifest(&w.join(&p)))
                && !s.status().is_empty()
                && !s.status().is_ignored()
        }),
        // If Git cannot tell, compare with HEAD: the working tree is what the user is looking at.
        Err(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Content;
    use std::sync::Arc;

    fn git(dir: &Path, args: &[&str]) {
        let out = std::process::Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .current_dir(dir)
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {out:?}");
    }

    fn bytes<'a>(snap: &'a Snapshot, path: &str) -> &'a Arc<[u8]> {
        match snap
            .files
            .iter()
            .find(|f| f.path == path)
            .map(|f| &f.content)
        {
            Some(Content::Bytes { bytes, .. }) => bytes,
            other => panic!("{path}: {other:?}"),
        }
    }

    /// The base revision takes the bytes of every blob the head holds too, so a pre-commit check
    /// inflates each shared blob once, not once per revision; a changed file keeps its own bytes.
    #[test]
    fn a_blob_both_revisions_hold_is_read_once() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let root = dir.path();
        git(root, &["init", "-q"]);
        std::fs::write(root.join("same.yaml"), "kind: A\n").expect("write");
        std::fs::write(root.join("changed.yaml"), "kind: B\n").expect("write");
        git(root, &["add", "."]);
        git(root, &["commit", "-qm", "one"]);
        std::fs::write(root.join("changed.yaml"), "kind: C\n").expect("write");
        git(root, &["add", "."]);
        let loaded = load(&CompareRequest {
            path: root.to_path_buf(),
            staged: true,
            max_file_size: 1 << 20,
            ..CompareRequest::default()
        })
        .expect("load");
        let (base, head) = (&loaded.base, &loaded.head);
        assert!(Arc::ptr_eq(
            bytes(base, "same.yaml"),
            bytes(head, "same.yaml")
        ));
        assert_eq!(&**bytes(base, "changed.yaml"), b"kind: B\n");
        assert_eq!(&**bytes(head, "changed.yaml"), b"kind: C\n");
        assert_eq!(&**bytes(base, "same.yaml"), b"kind: A\n");
    }
}
