//! Two Git revisions resolved but not read: which paths differ between them (from Git's trees and
//! index, without inflating a blob), and the files of a chosen set of paths on both sides. A
//! scoped check reads what the change can reach instead of every blob of both revisions.

use std::collections::BTreeSet;
use std::path::PathBuf;

use git2::{Delta, DiffOptions, FileMode, Oid, Repository};

use super::compare::{base_rev, resolve_commit, scope_of, short, BaseRev};
use super::index::{self, Staged};
use super::{
    git, is_manifest_path, path_text, CompareRequest, Content, Loaded, Snapshot, SnapshotInfo,
    SourceFile, SourceKind,
};
use crate::Fatal;

/// A base commit and a head commit or index, as [`super::load`] would compare them.
pub struct Revisions {
    /// `None` once [`Revisions::close`]d.
    repo: Option<Repository>,
    /// The index as libgit2 reads it, read once when [`Revisions::staged`] declines.
    index: std::cell::OnceCell<Option<git2::Index>>,
    /// The index read straight from its file, once.
    staged: std::cell::OnceCell<Option<Staged>>,
    /// Whether what the index's file says is compared with what libgit2 says, and a difference
    /// is a bug (the differential tests: `NODECAST_SCOPE_STRICT`).
    pub cross_check: bool,
    /// [`Revisions::changed`], computed once.
    changed: std::cell::OnceCell<Option<Vec<Changed>>>,
    /// [`Revisions::head_tree`], computed once.
    head_tree: std::cell::OnceCell<Option<Oid>>,
    /// The folder paths are relative to.
    pub root: PathBuf,
    /// The path prefix the request selects (`""`: the whole repository).
    pub scope: String,
    max: u64,
    /// The base commit's tree and what reports call it.
    pub base: Base,
    /// The head: a commit's tree, or the index.
    pub head: Head,
}

/// The base side of [`Revisions`]: a commit's tree and what reports call it.
type Base = (Oid, SnapshotInfo);

/// The head side of [`Revisions`].
pub enum Head {
    /// A commit's tree and what reports call it.
    Tree(Oid, SnapshotInfo),
    /// The index (staged content).
    Index(SnapshotInfo),
}

pub use super::Changed;

impl Revisions {
    /// The revisions of `req` when both sides are Git revisions (a commit against a commit or
    /// the index); `None` for a working tree, plain folders, no base or a base with no commit.
    pub fn resolve(req: &CompareRequest) -> Result<Option<Revisions>, Fatal> {
        if req.base_dir.is_some() || req.no_base || (req.head.is_none() && !req.staged) {
            return Ok(None);
        }
        // What changed is read before the snapshots are: the trees it diffs are not hashed again
        // either.
        super::compare::read_without_rehashing();
        let Ok(repo) = Repository::discover(&req.path) else {
            return Ok(None);
        };
        let workdir = repo.workdir().map(std::path::Path::to_path_buf);
        let scope = scope_of(&repo, workdir.as_deref(), &req.path)?;
        let root = workdir.unwrap_or_else(|| repo.path().to_path_buf());
        let head_commit = repo.head().ok().and_then(|h| h.peel_to_commit().ok());
        let resolved = Self::sides(&repo, req, head_commit.as_ref(), &scope)?;
        drop(head_commit);
        let Some((base, head)) = resolved else {
            return Ok(None);
        };
        Ok(Some(Revisions {
            repo: Some(repo),
            index: std::cell::OnceCell::new(),
            staged: std::cell::OnceCell::new(),
            cross_check: false,
            changed: std::cell::OnceCell::new(),
            head_tree: std::cell::OnceCell::new(),
            root,
            scope,
            max: req.max_file_size,
            base,
            head,
        }))
    }

    /// The base commit's tree and the head of `req`.
    fn sides(
        repo: &Repository,
        req: &CompareRequest,
        head_commit: Option<&git2::Commit<'_>>,
        scope: &str,
    ) -> Result<Option<(Base, Head)>, Fatal> {
        let (head, head_for_merge_base) = match &req.head {
            Some(rev) => {
                let commit = resolve_commit(repo, rev)?;
                (
                    Head::Tree(commit.tree_id(), commit_info(&commit, rev)),
                    Some(commit.id()),
                )
            }
            None => (
                Head::Index(SnapshotInfo {
                    kind: SourceKind::Index,
                    rev: None,
                    label: "staged changes (index)".into(),
                }),
                head_commit.map(git2::Commit::id),
            ),
        };
        let base = match base_rev(repo, req, head_for_merge_base, head_commit, scope)? {
            Some(BaseRev::Commit(commit, label)) => {
                (commit.tree_id(), commit_info(&commit, &label))
            }
            _ => return Ok(None),
        };
        Ok(Some((base, head)))
    }

    /// The paths whose content differs, in the whole repository (every file, manifest or not:
    /// a Kustomize generator reads any file, and a root in the folder checked may read outside
    /// it); `None` when Git cannot say, a symbolic link or a submodule changed, or the index
    /// holds a conflict.
    pub fn changed(&self) -> Option<Vec<Changed>> {
        self.changed.get_or_init(|| self.diff()).clone()
    }

    /// [`Revisions::changed`]: from the index's own file when it can say, else from libgit2
    /// (both, compared, under `NODECAST_SCOPE_STRICT`).
    fn diff(&self) -> Option<Vec<Changed>> {
        if let (Head::Index(_), Some(staged), Some(repo)) = (&self.head, self.staged(), &self.repo)
        {
            let fast = staged.changed(repo, self.base.0);
            if self.cross_check {
                let slow = self.diff_libgit2();
                assert_eq!(fast, slow, "the index read two ways lists other changes");
            }
            if fast.is_some() {
                return fast;
            }
        }
        self.diff_libgit2()
    }

    /// [`Revisions::changed`], from libgit2's diff.
    fn diff_libgit2(&self) -> Option<Vec<Changed>> {
        let repo = self.repo.as_ref()?;
        let base = repo.find_tree(self.base.0).ok()?;
        let mut opts = DiffOptions::new();
        opts.ignore_submodules(false);
        let diff = match &self.head {
            Head::Tree(tree, _) => {
                let head = repo.find_tree(*tree).ok()?;
                repo.diff_tree_to_tree(Some(&base), Some(&head), Some(&mut opts))
            }
            Head::Index(_) => {
                let index = self.index()?;
                if index.has_conflicts() {
                    return None;
                }
                repo.diff_tree_to_index(Some(&base), Some(index), Some(&mut opts))
            }
        }
        .ok()?;
        let mut out = Vec::new();
        for d in diff.deltas() {
            let plain = |m: FileMode| matches!(m, FileMode::Blob | FileMode::BlobExecutable);
            let (old, new) = (d.old_file(), d.new_file());
            let in_base = !matches!(d.status(), Delta::Added);
            let in_head = !matches!(d.status(), Delta::Deleted);
            if (in_base && !plain(old.mode())) || (in_head && !plain(new.mode())) {
                return None;
            }
            if !matches!(
                d.status(),
                Delta::Added | Delta::Deleted | Delta::Modified | Delta::Typechange
            ) {
                return None;
            }
            let path = old.path_bytes().or(new.path_bytes()).map(path_text)?;
            out.push(Changed {
                path,
                in_base,
                in_head,
            });
        }
        out.sort();
        Some(out)
    }

    /// The head's tree: a commit's, or the one `git write-tree` would write for the index
    /// (computed, never written: a commit of the index has it); `None` when the index holds a
    /// conflict or an entry only intended to be added.
    pub fn head_tree(&self) -> Option<Oid> {
        *self.head_tree.get_or_init(|| match &self.head {
            Head::Tree(tree, _) => Some(*tree),
            Head::Index(_) => {
                let fast = self.staged().and_then(Staged::tree);
                if fast.is_none() || self.cross_check {
                    let slow = index_tree(self.index()?);
                    assert!(
                        fast.is_none() || fast == slow,
                        "the index read two ways has other trees"
                    );
                    return slow;
                }
                fast
            }
        })
    }

    /// The repository's index as libgit2 reads it (the file Git uses: [`index::path_of`]), read
    /// once.
    fn index(&self) -> Option<&git2::Index> {
        self.index
            .get_or_init(|| index::open(self.repo.as_ref()?).ok())
            .as_ref()
    }

    /// The index read straight from its file, once; `None` when it leaves the index to libgit2.
    fn staged(&self) -> Option<&Staged> {
        self.staged
            .get_or_init(|| Staged::read(&index::path_of(self.repo.as_ref()?)))
            .as_ref()
    }

    /// Answers now what a whole check's record asks of the revisions at its end
    /// ([`Revisions::changed`], [`Revisions::head_tree`]), then closes the repository: kept open
    /// through a whole check, it held the pack file mapped and libgit2's cache of trees at the
    /// check's highest point (7 MiB and more on the large fleet's `--staged`). Nothing can be
    /// [`Revisions::load`]ed after.
    pub fn close(&mut self) {
        let _ = self.changed();
        let _ = self.head_tree();
        self.index = std::cell::OnceCell::new();
        self.staged = std::cell::OnceCell::new();
        self.repo = None;
        super::compare::return_c_heap();
    }

    /// Both revisions' manifest files among `paths` (inside the scope), read as [`super::load`]
    /// reads them; `None` when one of them is a symbolic link or cannot be looked up.
    pub fn load(&self, paths: &BTreeSet<String>) -> Result<Option<Loaded>, Fatal> {
        let Some(repo) = &self.repo else {
            return Ok(None);
        };
        let Ok(odb) = repo.odb() else { return Ok(None) };
        // A name that is not UTF-8 is escaped in reports and cannot be looked up by that text.
        if paths.iter().any(|p| p.contains('\\')) {
            return Ok(None);
        }
        let wanted: Vec<&String> = paths
            .iter()
            .filter(|p| is_manifest_path(p) && git::in_scope(p, &self.scope))
            .collect();
        let Some(base_tree) = repo.find_tree(self.base.0).ok() else {
            return Ok(None);
        };
        let base_ids: Vec<Option<Oid>> = match wanted
            .iter()
            .map(|p| tree_blob(&base_tree, p))
            .collect::<Option<Vec<_>>>()
        {
            Some(ids) => ids,
            None => return Ok(None),
        };
        let head_ids: Vec<Option<Oid>> = match &self.head {
            Head::Tree(tree, _) => {
                let Some(tree) = repo.find_tree(*tree).ok() else {
                    return Ok(None);
                };
                match wanted.iter().map(|p| tree_blob(&tree, p)).collect() {
                    Some(ids) => ids,
                    None => return Ok(None),
                }
            }
            Head::Index(_) if self.staged().is_some() => {
                let Some(staged) = self.staged() else {
                    return Ok(None);
                };
                match wanted.iter().map(|p| staged.blob(p)).collect() {
                    Some(ids) => ids,
                    None => return Ok(None),
                }
            }
            Head::Index(_) => {
                let Some(index) = self.index() else {
                    return Ok(None);
                };
                match wanted.iter().map(|p| index_blob(index, p)).collect() {
                    Some(ids) => ids,
                    None => return Ok(None),
                }
            }
        };
        let mut read: std::collections::HashMap<Oid, Content> = Default::default();
        let mut side = |ids: &[Option<Oid>]| -> Vec<SourceFile> {
            wanted
                .iter()
                .zip(ids)
                .filter_map(|(path, id)| {
                    let id = (*id)?;
                    let content = read
                        .entry(id)
                        .or_insert_with(|| git::read_blob(&odb, id, self.max))
                        .clone();
                    Some(SourceFile {
                        path: (*path).clone(),
                        content,
                        via_link: false,
                    })
                })
                .collect()
        };
        let base_files = side(&base_ids);
        let head_files = side(&head_ids);
        let head_info = match &self.head {
            Head::Tree(_, info) | Head::Index(info) => info.clone(),
        };
        Ok(Some(Loaded {
            base: Snapshot {
                info: self.base.1.clone(),
                files: base_files,
            },
            head: Snapshot {
                info: head_info,
                files: head_files,
            },
            root: self.root.clone(),
            has_base: true,
        }))
    }
}

/// The tree id of an index's stage-0 entries, as Git computes it.
pub fn index_tree(index: &git2::Index) -> Option<Oid> {
    const INTENT_TO_ADD: u16 = 1 << 13;
    if index.has_conflicts() {
        return None;
    }
    let mut entries: Vec<(Vec<u8>, u32, Oid)> = Vec::with_capacity(index.len());
    for e in index.iter() {
        if e.flags_extended & INTENT_TO_ADD != 0 {
            return None;
        }
        entries.push((e.path, e.mode, e.id));
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    tree_of(&entries, 0)
}

/// The tree of `entries` (sorted, all below the same folder, whose path is `prefix` bytes long).
fn tree_of(entries: &[(Vec<u8>, u32, Oid)], prefix: usize) -> Option<Oid> {
    let mut items: Vec<(Vec<u8>, u32, Oid)> = Vec::new();
    let mut i = 0;
    while i < entries.len() {
        let rest = entries[i].0.get(prefix..)?;
        match rest.iter().position(|&b| b == b'/') {
            None => {
                items.push((rest.to_vec(), entries[i].1, entries[i].2));
                i += 1;
            }
            Some(slash) => {
                let name = &rest[..slash];
                let end = i + entries[i..]
                    .iter()
                    .take_while(|e| {
                        e.0.get(prefix..).is_some_and(|r| {
                            r.len() > slash && &r[..slash] == name && r[slash] == b'/'
                        })
                    })
                    .count();
                let sub = tree_of(&entries[i..end], prefix + slash + 1)?;
                items.push((name.to_vec(), 0o040000, sub));
                i = end;
            }
        }
    }
    let mut items: Vec<(&[u8], u32, Oid)> = items
        .iter()
        .map(|(name, mode, id)| (name.as_slice(), *mode, *id))
        .collect();
    Some(index::tree_id(&mut items))
}

/// What reports call a commit: the revision as given and the short id.
fn commit_info(commit: &git2::Commit<'_>, label: &str) -> SnapshotInfo {
    SnapshotInfo {
        kind: SourceKind::Git,
        rev: Some(commit.id().to_string()),
        label: format!("{label} ({})", short(commit.id())),
    }
}

/// The blob at `path` of a tree: `Some(None)` when there is none, `None` when it is not a plain
/// file (a link, a submodule) and the scoped read must give way to a whole one.
fn tree_blob(tree: &git2::Tree<'_>, path: &str) -> Option<Option<Oid>> {
    match tree.get_path(std::path::Path::new(path)) {
        Ok(e)
            if e.kind() == Some(git2::ObjectType::Blob) && e.filemode() & 0o170000 == 0o100000 =>
        {
            Some(Some(e.id()))
        }
        Ok(e) if e.kind() == Some(git2::ObjectType::Tree) => Some(None),
        Ok(_) => None,
        Err(_) => Some(None),
    }
}

/// The staged blob at `path` (stage 0), as [`tree_blob`].
fn index_blob(index: &git2::Index, path: &str) -> Option<Option<Oid>> {
    match index.get_path(std::path::Path::new(path), 0) {
        Some(e) if e.mode & 0o170000 == 0o100000 => Some(Some(e.id)),
        Some(_) => None,
        None => Some(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(dir: &std::path::Path, args: &[&str]) -> String {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(args)
            .current_dir(dir)
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// The index's tree id is the one `git write-tree` writes (folders ordered as `name/`,
    /// executable files, links, nested folders), so a staged change's record is found again
    /// once it is committed.
    #[test]
    fn the_index_tree_is_the_one_git_writes() {
        let dir = repo_with(&[
            ("a.yaml", "a"),
            ("a-b.yaml", "b"),
            ("a/x.yaml", "c"),
            ("a/b/c/d.yaml", "d"),
            ("ab/y.yaml", "e"),
            ("z.json", "f"),
        ]);
        let root = dir.path();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let p = root.join("z.json");
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
            std::os::unix::fs::symlink("a.yaml", root.join("link.yaml")).expect("link");
        }
        git(root, &["add", "."]);
        let repo = Repository::open(root).expect("repository");
        let computed = index_tree(&repo.index().expect("index")).expect("tree");
        assert_eq!(computed.to_string(), git(root, &["write-tree"]));
    }

    /// The index read straight from its file and the one libgit2 reads, on one staged state:
    /// (what changed, the tree) each way; the fast answers are `None` when the reader declines.
    #[allow(clippy::type_complexity)]
    fn both_ways(
        root: &std::path::Path,
    ) -> (
        (Option<Vec<Changed>>, Option<Vec<Changed>>),
        (Option<Oid>, Option<Oid>),
    ) {
        let revisions = staged_revisions(root);
        let repo = revisions.repo.as_ref().expect("open");
        let staged = revisions.staged();
        let fast = staged.and_then(|s| s.changed(repo, revisions.base.0));
        let fast_tree = staged.and_then(Staged::tree);
        let slow_tree = revisions.index().and_then(index_tree);
        ((fast, revisions.diff_libgit2()), (fast_tree, slow_tree))
    }

    fn write(root: &std::path::Path, path: &str, text: &str) {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }

    /// HEAD against the index of the repository at `root`, as `check --staged` resolves them.
    fn staged_revisions(root: &std::path::Path) -> Revisions {
        let req = CompareRequest {
            path: root.to_path_buf(),
            staged: true,
            max_file_size: 1 << 20,
            ..CompareRequest::default()
        };
        Revisions::resolve(&req)
            .expect("resolved")
            .expect("revisions")
    }

    /// A new repository holding `files` in its working tree (nothing staged yet).
    fn repo_with(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("temporary folder");
        git(dir.path(), &["init", "-q"]);
        for (path, text) in files {
            write(dir.path(), path, text);
        }
        dir
    }

    /// Every kind of staged change, each listed the way libgit2's diff lists it, and the tree
    /// Git writes; what the reader declines (a conflict, an entry only intended to be added, a
    /// split index, a changed link) is left to libgit2, and a file that is no index is declined
    /// without a crash.
    #[test]
    fn the_index_read_from_its_file_answers_what_libgit2_does() {
        let dir = repo_with(&[
            ("a.yaml", "a"),
            ("a-b.yaml", "b"),
            ("a/x.yaml", "c"),
            ("a/b/c/d.yaml", "d"),
            ("ab/y.yaml", "e"),
            ("keep/k.yaml", "k"),
            ("f/inner.yaml", "i"),
            ("g.yaml", "g"),
        ]);
        let root = dir.path();
        #[cfg(unix)]
        std::os::unix::fs::symlink("a.yaml", root.join("link.yaml")).expect("link");
        git(root, &["add", "."]);
        git(root, &["commit", "-q", "-m", "one"]);
        let agree = |step: &str, expect: &[(&str, bool, bool)]| {
            let ((fast, slow), (fast_tree, slow_tree)) = both_ways(root);
            let fast = fast.unwrap_or_else(|| panic!("{step}: the reader declined"));
            assert_eq!(Some(&fast), slow.as_ref(), "{step}: changes");
            let listed: Vec<(&str, bool, bool)> = fast
                .iter()
                .map(|c| (c.path.as_str(), c.in_base, c.in_head))
                .collect();
            assert_eq!(listed, expect, "{step}");
            assert_eq!(fast_tree, slow_tree, "{step}: tree");
            assert_eq!(
                fast_tree.map(|t| t.to_string()),
                Some(git(root, &["write-tree"])),
                "{step}: the tree git writes"
            );
        };
        agree("nothing staged", &[]);
        // A cache tree written whole, then invalidated along the staged paths only.
        git(root, &["write-tree"]);
        write(root, "a/b/c/d.yaml", "d2");
        write(root, "new/deep/n.yaml", "n");
        std::fs::remove_file(root.join("ab/y.yaml")).expect("rm");
        git(root, &["add", "-A"]);
        agree(
            "modified, added, deleted",
            &[
                ("a/b/c/d.yaml", true, true),
                ("ab/y.yaml", true, false),
                ("new/deep/n.yaml", false, true),
            ],
        );
        // A folder becomes a file and a file a folder.
        git(root, &["rm", "-q", "-r", "f"]);
        write(root, "f", "now a file");
        std::fs::remove_file(root.join("g.yaml")).expect("rm");
        write(root, "g.yaml/inside.yaml", "now a folder");
        git(root, &["add", "-A"]);
        agree(
            "folder and file swapped",
            &[
                ("a/b/c/d.yaml", true, true),
                ("ab/y.yaml", true, false),
                ("f", false, true),
                ("f/inner.yaml", true, false),
                ("g.yaml", true, false),
                ("g.yaml/inside.yaml", false, true),
                ("new/deep/n.yaml", false, true),
            ],
        );
        git(root, &["commit", "-q", "-m", "two"]);
        agree("committed", &[]);
        // Only the mode changes.
        git(root, &["update-index", "--chmod=+x", "keep/k.yaml"]);
        agree("mode", &[("keep/k.yaml", true, true)]);
        // Version 4 paths (prefix-compressed), with no cache tree at all.
        git(root, &["update-index", "--index-version", "4"]);
        write(root, "a/x.yaml", "c2");
        git(root, &["add", "a/x.yaml"]);
        agree(
            "index version 4",
            &[("a/x.yaml", true, true), ("keep/k.yaml", true, true)],
        );
        git(root, &["read-tree", "HEAD"]);
        agree("cache tree from read-tree", &[]);
        // Written with `index.skipHash`: no hash to check.
        write(root, "a.yaml", "a2");
        git(root, &["-c", "index.skipHash=true", "add", "a.yaml"]);
        agree("skipHash", &[("a.yaml", true, true)]);
        git(root, &["update-index", "--index-version", "2"]);
        agree("index version 2", &[("a.yaml", true, true)]);

        // Declined: left to libgit2, which gives the answer it always gave.
        let declined = |step: &str| {
            let ((fast, slow), (fast_tree, _)) = both_ways(root);
            assert_eq!(fast, None, "{step}: declined");
            assert_eq!(fast_tree, None, "{step}: declined");
            slow
        };
        #[cfg(unix)]
        {
            std::fs::remove_file(root.join("link.yaml")).expect("rm");
            std::os::unix::fs::symlink("a-b.yaml", root.join("link.yaml")).expect("link");
            git(root, &["add", "link.yaml"]);
            let ((fast, slow), _) = both_ways(root);
            assert_eq!((fast, slow), (None, None), "a changed link: whole");
            git(root, &["reset", "-q", "link.yaml"]);
        }
        write(root, "later.yaml", "l");
        git(root, &["add", "-N", "later.yaml"]);
        declined("intent to add");
        git(root, &["reset", "-q", "later.yaml"]);
        git(root, &["update-index", "--split-index"]);
        write(root, "a.yaml", "a3");
        git(root, &["add", "a.yaml"]);
        // libgit2 cannot read a split index either: a whole check says why.
        assert_eq!(declined("split index"), None);
        git(root, &["update-index", "--no-split-index"]);
        agree("no longer split", &[("a.yaml", true, true)]);
        // A conflict: libgit2 says nothing either, and the check is whole.
        git(root, &["commit", "-q", "-m", "three"]);
        git(root, &["checkout", "-q", "-b", "side"]);
        write(root, "a.yaml", "side");
        git(root, &["commit", "-q", "-a", "-m", "side"]);
        git(root, &["checkout", "-q", "-"]);
        write(root, "a.yaml", "main");
        git(root, &["commit", "-q", "-a", "-m", "main"]);
        let merge = std::process::Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "merge",
                "-q",
                "side",
            ])
            .current_dir(root)
            .output()
            .expect("git runs");
        assert!(!merge.status.success(), "the merge conflicts");
        assert_eq!(declined("conflict"), None);
        git(root, &["merge", "--abort"]);
        agree("merge aborted", &[]);

        // Not an index Git wrote: declined, never a crash.
        let index = std::fs::read(root.join(".git/index")).expect("index");
        let read = |bytes: &[u8]| Staged::parse(bytes).is_some();
        assert!(read(&index));
        let mut flipped = index.clone();
        flipped[20] ^= 1;
        assert!(!read(&flipped), "a wrong hash");
        for cut in [0, 11, 12, 40, index.len() / 2, index.len() - 1] {
            assert!(!read(&index[..cut]), "cut at {cut}");
        }
        assert!(!read(b"DIRC\0\0\0\x02\xff\xff\xff\xff"));
    }

    /// A folder deeper than the reader walks is left to libgit2 (its walks recurse; a hostile
    /// index must not overflow the stack).
    #[test]
    fn a_deep_folder_is_left_to_libgit2() {
        let dir = repo_with(&[("top.yaml", "t")]);
        let root = dir.path();
        git(root, &["add", "."]);
        git(root, &["commit", "-q", "-m", "one"]);
        let deep = format!("{}f.yaml", "d/".repeat(300));
        write(root, &deep, "deep");
        git(root, &["add", "."]);
        let ((fast, slow), (fast_tree, slow_tree)) = both_ways(root);
        assert_eq!(fast, None);
        assert_eq!(fast_tree, None);
        let slow = slow.expect("libgit2 lists it");
        assert_eq!(slow.len(), 1);
        assert_eq!(slow[0].path, deep);
        assert_eq!(
            slow_tree.map(|t| t.to_string()),
            Some(git(root, &["write-tree"]))
        );
    }

    /// A closed pair of revisions answers what it answered open: the record of a whole check is
    /// built from these answers after the repository is closed.
    #[test]
    fn closed_revisions_answer_what_open_ones_do() {
        let dir = repo_with(&[("a.yaml", "kind: A\n"), ("b/c.yaml", "kind: C\n")]);
        let root = dir.path();
        git(root, &["add", "."]);
        git(root, &["commit", "-q", "-m", "one"]);
        std::fs::write(root.join("a.yaml"), "kind: B\n").expect("write");
        std::fs::write(root.join("d.yaml"), "kind: D\n").expect("write");
        git(root, &["add", "."]);
        let open = staged_revisions(root);
        let mut closed = staged_revisions(root);
        closed.close();
        let changed = open.changed().expect("changed");
        let paths: Vec<(&str, bool, bool)> = changed
            .iter()
            .map(|c| (c.path.as_str(), c.in_base, c.in_head))
            .collect();
        assert_eq!(paths, [("a.yaml", true, true), ("d.yaml", false, true)]);
        assert_eq!(closed.changed(), Some(changed));
        let tree = closed.head_tree().expect("tree");
        assert_eq!(Some(tree), open.head_tree());
        assert_eq!(tree.to_string(), git(root, &["write-tree"]));
        let wanted: BTreeSet<String> = ["a.yaml".to_string()].into();
        assert!(open.load(&wanted).expect("loads").is_some());
        assert!(
            closed.load(&wanted).expect("loads").is_none(),
            "nothing is read once closed"
        );
    }
}
