//! Two Git revisions resolved but not read: which paths differ between them (from Git's trees and
//! index, without inflating a blob), and the files of a chosen set of paths on both sides. A
//! scoped check reads what the change can reach instead of every blob of both revisions.

use std::collections::BTreeSet;
use std::path::PathBuf;

use git2::{Delta, DiffOptions, FileMode, Oid, Repository};

use super::compare::{base_rev, resolve_commit, scope_of, short, BaseRev};
use super::{
    git, is_manifest_path, path_text, CompareRequest, Content, Loaded, Snapshot, SnapshotInfo,
    SourceFile, SourceKind,
};
use crate::Fatal;

/// A base commit and a head commit or index, as [`super::load`] would compare them.
pub struct Revisions {
    /// `None` once [`Revisions::close`]d.
    repo: Option<Repository>,
    /// The index, read once.
    index: std::cell::OnceCell<Option<git2::Index>>,
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

/// A path whose content differs between the two revisions.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Changed {
    /// Repository-relative path.
    pub path: String,
    /// Whether the base holds it.
    pub in_base: bool,
    /// Whether the head holds it.
    pub in_head: bool,
}

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

    /// [`Revisions::changed`], from Git.
    fn diff(&self) -> Option<Vec<Changed>> {
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
            Head::Index(_) => index_tree(self.index()?),
        })
    }

    /// The repository's index, read once.
    fn index(&self) -> Option<&git2::Index> {
        self.index
            .get_or_init(|| self.repo.as_ref()?.index().ok())
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
    // Git orders a folder as if its name ended with `/`.
    let sort_name = |(name, mode, _): &(Vec<u8>, u32, Oid)| {
        let mut n = name.clone();
        if *mode == 0o040000 {
            n.push(b'/');
        }
        n
    };
    items.sort_by_key(sort_name);
    let mut bytes = Vec::new();
    for (name, mode, id) in &items {
        bytes.extend_from_slice(format!("{mode:o} ").as_bytes());
        bytes.extend_from_slice(name);
        bytes.push(0);
        bytes.extend_from_slice(id.as_bytes());
    }
    Oid::hash_object(git2::ObjectType::Tree, &bytes).ok()
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
        let dir = tempfile::tempdir().expect("temporary folder");
        let root = dir.path();
        git(root, &["init", "-q"]);
        for (path, text) in [
            ("a.yaml", "a"),
            ("a-b.yaml", "b"),
            ("a/x.yaml", "c"),
            ("a/b/c/d.yaml", "d"),
            ("ab/y.yaml", "e"),
            ("z.json", "f"),
        ] {
            let p = root.join(path);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, text).expect("write");
        }
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

    /// A closed pair of revisions answers what it answered open: the record of a whole check is
    /// built from these answers after the repository is closed.
    #[test]
    fn closed_revisions_answer_what_open_ones_do() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let root = dir.path();
        git(root, &["init", "-q"]);
        for (path, text) in [("a.yaml", "kind: A\n"), ("b/c.yaml", "kind: C\n")] {
            let p = root.join(path);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, text).expect("write");
        }
        git(root, &["add", "."]);
        git(root, &["commit", "-q", "-m", "one"]);
        std::fs::write(root.join("a.yaml"), "kind: B\n").expect("write");
        std::fs::write(root.join("d.yaml"), "kind: D\n").expect("write");
        git(root, &["add", "."]);
        let req = CompareRequest {
            path: root.to_path_buf(),
            staged: true,
            max_file_size: 1 << 20,
            ..CompareRequest::default()
        };
        let open = Revisions::resolve(&req)
            .expect("resolved")
            .expect("revisions");
        let mut closed = Revisions::resolve(&req)
            .expect("resolved")
            .expect("revisions");
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
