//! Reads any file of one side (not only manifests) so a render sees what Kustomize would see.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use git2::{ObjectType, Oid, Repository, TreeWalkMode, TreeWalkResult};

/// Where a side's files can be read from; nothing is ever written there.
#[derive(Clone, Debug)]
pub enum Tree {
    /// A commit's tree in a repository.
    Git {
        /// Any path inside the repository.
        repo: PathBuf,
        /// The root tree.
        tree: Oid,
        /// Repositories opened for reads, reused.
        pool: Pool,
    },
    /// The Git index of a repository.
    Index {
        /// Any path inside the repository.
        repo: PathBuf,
        /// Repositories opened for reads, reused.
        pool: Pool,
        /// The index's stage-0 entries (read once, on first use): path → blob.
        entries: Arc<OnceLock<IndexEntries>>,
    },
    /// A folder on disk (a working tree or a plain directory).
    Disk {
        /// The folder paths are relative to.
        root: PathBuf,
        /// An editor's unsaved buffers, read instead of the files they edit (`nodecast server`).
        overlay: crate::source::Overlay,
    },
    /// Nothing (no base).
    Empty,
}

/// The index's stage-0 entries: path → (blob, mode).
pub type IndexEntries = BTreeMap<Vec<u8>, (Oid, u32)>;

/// Files larger than this are not copied into a render (Kustomize inputs are small).
const MAX_FILE: u64 = 8 * 1024 * 1024;
/// At most this many files are copied for one render root.
pub const MAX_FILES: usize = 20_000;

impl Tree {
    /// Every regular file below `dir` ("" = everything), as (repository-relative path, bytes).
    pub fn files_under(&self, dir: &str) -> Vec<(String, Vec<u8>)> {
        match self {
            Tree::Git { repo, tree, pool } => pool
                .with(repo, |r| git_files(r, *tree, dir).ok())
                .unwrap_or_default(),
            Tree::Index {
                repo,
                pool,
                entries,
            } => pool
                .with(repo, |r| {
                    Some(index_files(r, entries.get_or_init(|| stage0(r)), dir))
                })
                .unwrap_or_default(),
            Tree::Disk { root, overlay } => {
                let mut files = disk_files(root, dir);
                for (path, bytes) in overlay.iter().filter(|(p, _)| under(p, dir)) {
                    match files.iter().position(|(p, _)| p == path) {
                        Some(i) => files[i].1 = bytes.to_vec(),
                        None if files.len() < MAX_FILES => {
                            files.push((path.clone(), bytes.to_vec()))
                        }
                        None => {}
                    }
                }
                files
            }
            Tree::Empty => Vec::new(),
        }
    }

    /// One file's bytes, when it exists and is a regular file.
    pub fn read(&self, path: &str) -> Option<Vec<u8>> {
        match self {
            Tree::Git { repo, tree, pool } => pool.with(repo, |repo| {
                let tree = repo.find_tree(*tree).ok()?;
                let path = through_links(&commit_view(repo, &tree), path)?;
                let entry = tree.get_path(Path::new(&path)).ok()?;
                if entry.kind() != Some(ObjectType::Blob) || entry.filemode() & 0o170000 != 0o100000
                {
                    return None;
                }
                let blob = repo.find_blob(entry.id()).ok()?;
                Some(blob.content().to_vec())
            }),
            Tree::Index {
                repo,
                pool,
                entries,
            } => pool.with(repo, |r| {
                let entries = entries.get_or_init(|| stage0(r));
                let path = through_links(&IndexView { repo: r, entries }, path)?;
                let (id, mode) = entries.get(path.as_bytes())?;
                if mode & 0o170000 != 0o100000 {
                    return None;
                }
                let blob = r.find_blob(*id).ok()?;
                Some(blob.content().to_vec())
            }),
            Tree::Disk { root, overlay } => {
                if let Some(bytes) = overlay.get(path) {
                    return Some(bytes.to_vec());
                }
                let full = root.join(path);
                let meta = std::fs::symlink_metadata(&full).ok()?;
                (meta.is_file() && meta.len() <= MAX_FILE)
                    .then(|| std::fs::read(&full).ok())
                    .flatten()
            }
            Tree::Empty => None,
        }
    }
}

/// Repositories opened for one side's reads and given back after each: a render plan reads
/// hundreds of files, and opening the repository for each one cost seconds on a large fleet.
/// Scoped to one run (a `Tree`), so a later run never sees an older index.
#[derive(Clone, Default)]
pub struct Pool(Arc<Mutex<Vec<Repository>>>);

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Pool")
    }
}

impl Pool {
    /// Runs `f` on an open repository for `path` (a pooled one, else newly opened).
    fn with<T>(&self, path: &Path, f: impl FnOnce(&Repository) -> Option<T>) -> Option<T> {
        let pooled = self.0.lock().ok().and_then(|mut p| p.pop());
        let repo = match pooled {
            Some(r) => r,
            None => Repository::discover(path).ok()?,
        };
        let out = f(&repo);
        if let Ok(mut p) = self.0.lock() {
            p.push(repo);
        }
        out
    }
}

/// The stage-0 entries of the repository's index (conflicted paths have none).
fn stage0(repo: &Repository) -> IndexEntries {
    let Ok(index) = crate::source::index::open(repo) else {
        return BTreeMap::new();
    };
    index
        .iter()
        .filter(|e| (e.flags >> 12) & 0x3 == 0)
        .map(|e| (e.path, (e.id, e.mode)))
        .collect()
}

fn under(path: &str, dir: &str) -> bool {
    dir.is_empty()
        || path
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

fn git_files(
    repo: &Repository,
    tree: Oid,
    dir: &str,
) -> Result<Vec<(String, Vec<u8>)>, git2::Error> {
    let root = repo.find_tree(tree)?;
    let sub = if dir.is_empty() {
        root
    } else {
        match real_folder(&commit_view(repo, &root), dir) {
            // A link to the repository's top folder.
            Some(real) if real.is_empty() => root,
            real => {
                let entry = root.get_path(Path::new(real.as_deref().unwrap_or(dir)))?;
                repo.find_tree(entry.id())?
            }
        }
    };
    let mut found: Vec<(String, Oid)> = Vec::new();
    sub.walk(TreeWalkMode::PreOrder, |parent, entry| {
        if found.len() >= MAX_FILES {
            return TreeWalkResult::Abort;
        }
        if entry.kind() == Some(ObjectType::Blob) && entry.filemode() & 0o170000 == 0o100000 {
            if let Ok(name) = entry.name() {
                let rel = format!("{parent}{name}");
                let path = if dir.is_empty() {
                    rel
                } else {
                    format!("{dir}/{rel}")
                };
                found.push((path, entry.id()));
            }
        }
        TreeWalkResult::Ok
    })
    .or_else(|e| {
        if e.code() == git2::ErrorCode::User {
            Ok(())
        } else {
            Err(e)
        }
    })?;
    let odb = repo.odb()?;
    Ok(found
        .into_iter()
        .filter_map(|(path, id)| {
            let (size, _) = odb.read_header(id).ok()?;
            if size as u64 > MAX_FILE {
                return None;
            }
            Some((path, odb.read(id).ok()?.data().to_vec()))
        })
        .collect())
}

fn index_files(repo: &Repository, entries: &IndexEntries, dir: &str) -> Vec<(String, Vec<u8>)> {
    let Ok(odb) = repo.odb() else {
        return Vec::new();
    };
    let real = real_folder(&IndexView { repo, entries }, dir);
    let real = real.as_deref().unwrap_or(dir);
    entries
        .iter()
        .filter(|(_, (_, mode))| mode & 0o170000 == 0o100000)
        .filter_map(|(path, (id, _))| {
            let path = String::from_utf8(path.clone()).ok()?;
            if !under(&path, real) {
                return None;
            }
            // Below a linked folder, a file is where the render reads it: under the link.
            let path = match path.strip_prefix(real) {
                Some(rest) if real != dir && real.is_empty() => format!("{dir}/{rest}"),
                Some(rest) if real != dir => format!("{dir}{rest}"),
                _ => path,
            };
            let (size, _) = odb.read_header(*id).ok()?;
            if size as u64 > MAX_FILE {
                return None;
            }
            Some((path, odb.read(*id).ok()?.data().to_vec()))
        })
        .take(MAX_FILES)
        .collect()
}

/// A commit's tree as link resolution reads it.
fn commit_view<'r>(repo: &'r Repository, root: &git2::Tree<'r>) -> crate::source::git::GitTree<'r> {
    crate::source::git::GitTree {
        repo,
        root: root.clone(),
    }
}

/// The index's entries as link resolution reads them.
struct IndexView<'r> {
    repo: &'r Repository,
    entries: &'r IndexEntries,
}

impl crate::source::links::Tree for IndexView<'_> {
    fn kind(&self, path: &[u8]) -> Option<(crate::source::links::Kind, Oid)> {
        use crate::source::links::Kind;
        if let Some((id, mode)) = self.entries.get(path) {
            return match mode & 0o170000 {
                0o100000 => Some((Kind::File, *id)),
                0o120000 => Some((Kind::Link, *id)),
                _ => None,
            };
        }
        let mut dir = path.to_vec();
        dir.push(b'/');
        self.entries
            .range(dir.clone()..)
            .next()
            .filter(|(p, _)| p.starts_with(&dir))
            .map(|_| (Kind::Dir, Oid::ZERO_SHA1))
    }

    fn list(&self, _dir: &[u8]) -> Vec<(Vec<u8>, crate::source::links::Kind, Oid)> {
        Vec::new()
    }

    fn target(&self, link: Oid) -> Option<Vec<u8>> {
        self.repo.find_blob(link).ok().map(|b| b.content().to_vec())
    }
}

/// `dir` with the links on its way followed (what a checkout's path resolves to), when that
/// differs from `dir`.
fn real_folder(tree: &dyn crate::source::links::Tree, dir: &str) -> Option<String> {
    let real = crate::source::links::real_path(tree, dir.as_bytes())?;
    let real = String::from_utf8(real).ok()?;
    (real != dir).then_some(real)
}

/// `path` with the links of its folders followed (its last part is read as it is, as on disk).
fn through_links(tree: &dyn crate::source::links::Tree, path: &str) -> Option<String> {
    match path.rsplit_once('/') {
        Some((dir, name)) => {
            let real = crate::source::links::real_path(tree, dir.as_bytes())?;
            let real = String::from_utf8(real).ok()?;
            Some(if real.is_empty() {
                name.to_string()
            } else {
                format!("{real}/{name}")
            })
        }
        None => Some(path.to_string()),
    }
}

fn disk_files(root: &Path, dir: &str) -> Vec<(String, Vec<u8>)> {
    let start = if dir.is_empty() {
        root.to_path_buf()
    } else {
        root.join(dir)
    };
    walkdir::WalkDir::new(&start)
        .follow_links(false)
        .into_iter()
        .filter_entry(|e| e.file_name() != ".git")
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter(|e| e.metadata().is_ok_and(|m| m.len() <= MAX_FILE))
        .filter_map(|e| {
            let rel = e.path().strip_prefix(root).ok()?;
            let parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            Some((parts.join("/"), std::fs::read(e.path()).ok()?))
        })
        .take(MAX_FILES)
        .collect()
}

/// The trees the two loaded snapshots were read from.
pub fn trees(loaded: &crate::source::Loaded, req: &crate::source::CompareRequest) -> (Tree, Tree) {
    use crate::source::{SnapshotInfo, SourceKind};
    let one = |info: &SnapshotInfo, dir: Option<&Path>| -> Tree {
        match info.kind {
            SourceKind::Git => {
                let tree = info.rev.as_deref().and_then(|rev| {
                    let repo = Repository::discover(&req.path).ok()?;
                    let oid = Oid::from_str(rev).ok()?;
                    let commit = repo.find_commit(oid).ok()?;
                    Some(commit.tree_id())
                });
                match tree {
                    Some(tree) => Tree::Git {
                        repo: req.path.clone(),
                        tree,
                        pool: Pool::default(),
                    },
                    None => Tree::Empty,
                }
            }
            SourceKind::Index => Tree::Index {
                repo: req.path.clone(),
                pool: Pool::default(),
                entries: Arc::default(),
            },
            SourceKind::Worktree => Tree::Disk {
                root: loaded.root.clone(),
                overlay: req.overlay.clone(),
            },
            // Two plain folders (`--base-dir`) have no editor buffers; a head folder outside a
            // repository does.
            SourceKind::Dir => Tree::Disk {
                root: dir
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|| req.path.clone()),
                overlay: if req.base_dir.is_none() {
                    req.overlay.clone()
                } else {
                    Default::default()
                },
            },
            SourceKind::None => Tree::Empty,
        }
    };
    (
        one(&loaded.base.info, req.base_dir.as_deref()),
        one(&loaded.head.info, Some(&req.path)),
    )
}

/// Files of a folder: (repository-relative path, bytes).
pub type Files = Vec<(String, Vec<u8>)>;

/// One side's reads for all its render plans, each file and folder read once: roots of a fleet
/// share bases and components, and reading them again for every root was most of a warm run.
pub struct Reads<'a> {
    tree: &'a Tree,
    files: Mutex<std::collections::HashMap<String, Arc<Files>>>,
    read: Mutex<std::collections::HashMap<String, Option<Arc<Vec<u8>>>>>,
}

impl<'a> Reads<'a> {
    /// Reads through `tree`, remembering what was read.
    pub fn new(tree: &'a Tree) -> Self {
        Reads {
            tree,
            files: Mutex::default(),
            read: Mutex::default(),
        }
    }

    /// [`Tree::read`], once per path.
    pub fn read(&self, path: &str) -> Option<Arc<Vec<u8>>> {
        if let Some(hit) = self.read.lock().ok().and_then(|m| m.get(path).cloned()) {
            return hit;
        }
        let bytes = self.tree.read(path).map(Arc::new);
        if let Ok(mut m) = self.read.lock() {
            m.insert(path.to_string(), bytes.clone());
        }
        bytes
    }

    /// [`Tree::files_under`], once per folder.
    pub fn files_under(&self, dir: &str) -> Arc<Files> {
        if let Some(hit) = self.files.lock().ok().and_then(|m| m.get(dir).cloned()) {
            return hit;
        }
        let files = Arc::new(self.tree.files_under(dir));
        if let Ok(mut m) = self.files.lock() {
            m.insert(dir.to_string(), files.clone());
        }
        files
    }
}
