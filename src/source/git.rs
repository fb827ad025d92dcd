//! Snapshots read from the Git object database: a commit's tree or the index. No checkout.
//!
//! File names are read as bytes (a name that is not UTF-8 is kept, escaped, not dropped), and
//! symbolic links are resolved against the same revision (`links`).

use std::path::PathBuf;

use git2::{ObjectType, Oid, Repository};

use super::links::{self, Kind};
use super::{is_manifest_path, oid_bytes, path_text, Content, SourceFile};

/// Every manifest blob of `tree` under the path prefix `scope` ("" = everything).
pub fn read_tree(
    repo: &Repository,
    tree: Oid,
    scope: &str,
    max: u64,
    known: &Known,
) -> Result<Vec<SourceFile>, git2::Error> {
    let root = repo.find_tree(tree)?;
    let entries = entries_below(repo, &root, &[], &|dir| {
        in_scope_dir(&path_text(dir), scope)
    })?;
    let view = GitTree { repo, root };
    let (found, unread) = collect(&view, entries, scope);
    let mut files = read_blobs(repo, found, max, known)?;
    files.extend(unread);
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// Contents already read in this load, by blob id: a blob's id names its bytes, so a second
/// revision holding the same blob takes them (shared, not copied) instead of inflating it again.
#[derive(Debug, Default)]
pub struct Known(std::collections::HashMap<[u8; 20], Content>);

impl Known {
    /// The contents of `files` that have a blob id (bytes read, or a size over the limit).
    pub fn of(files: &[SourceFile]) -> Self {
        Known(
            files
                .iter()
                .filter_map(|f| match &f.content {
                    Content::Bytes { id, .. } => Some((*id, f.content.clone())),
                    Content::TooLarge { id: Some(id), .. } => Some((*id, f.content.clone())),
                    _ => None,
                })
                .collect(),
        )
    }

    fn get(&self, id: Oid) -> Option<Content> {
        self.0.get(&oid_bytes(&id)).cloned()
    }
}

/// Splits entries into blobs to read (links followed) and links that cannot be followed.
fn collect(
    view: &dyn links::Tree,
    entries: Vec<(Vec<u8>, Kind, Oid)>,
    scope: &str,
) -> (Vec<(String, Oid, bool)>, Vec<SourceFile>) {
    let mut found = Vec::new();
    let mut unread = Vec::new();
    for (path, kind, id) in entries {
        let text = path_text(&path);
        if !in_scope(&text, scope) {
            continue;
        }
        match kind {
            Kind::File => {
                if is_manifest_path(&text) {
                    found.push((text, id, false));
                }
            }
            Kind::Link => {
                for (p, r) in links::resolve(view, &path, id) {
                    let p = path_text(&p);
                    match r {
                        Ok(blob) if is_manifest_path(&p) => found.push((p, blob, true)),
                        Ok(_) => {}
                        // A link that cannot be followed is reported when it could hold
                        // manifests: a manifest name, or a name without extension (a folder).
                        Err(reason) if is_manifest_path(&p) || !last(&p).contains('.') => unread
                            .push(SourceFile {
                                path: p,
                                content: Content::Unreadable {
                                    reason,
                                    id: Some(oid_bytes(&id)),
                                },
                                via_link: true,
                            }),
                        Err(_) => {}
                    }
                }
            }
            Kind::Dir => {}
        }
    }
    (found, unread)
}

fn last(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// What a tree entry is (submodules and other modes are none of these).
fn kind_of(kind: Option<ObjectType>, mode: i32) -> Option<Kind> {
    match (kind, mode & 0o170000) {
        (Some(ObjectType::Tree), _) => Some(Kind::Dir),
        (Some(ObjectType::Blob), 0o100000) => Some(Kind::File),
        (Some(ObjectType::Blob), 0o120000) => Some(Kind::Link),
        _ => None,
    }
}

fn join(prefix: &[u8], name: &[u8]) -> Vec<u8> {
    let mut p = prefix.to_vec();
    if !p.is_empty() {
        p.push(b'/');
    }
    p.extend_from_slice(name);
    p
}

/// Every file and link below `tree` (whose path is `prefix`), descending into folders `descend`
/// accepts; names as bytes.
fn entries_below(
    repo: &Repository,
    tree: &git2::Tree<'_>,
    prefix: &[u8],
    descend: &dyn Fn(&[u8]) -> bool,
) -> Result<Vec<(Vec<u8>, Kind, Oid)>, git2::Error> {
    let mut out = Vec::new();
    let mut stack: Vec<(Vec<u8>, git2::Tree<'_>)> = vec![(prefix.to_vec(), tree.clone())];
    while let Some((dir, t)) = stack.pop() {
        for e in t.iter() {
            let path = join(&dir, e.name_bytes());
            match kind_of(e.kind(), e.filemode()) {
                Some(Kind::Dir) if descend(&path) => {
                    stack.push((path, repo.find_tree(e.id())?));
                }
                Some(Kind::Dir) => {}
                Some(kind) => out.push((path, kind, e.id())),
                None => {}
            }
        }
    }
    Ok(out)
}

/// A path made of raw bytes (Git paths need not be UTF-8).
fn bytes_path(b: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(std::ffi::OsStr::from_bytes(b))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(b).into_owned())
    }
}

/// A commit's tree, for link resolution (here and in a render's reads of a commit).
pub(crate) struct GitTree<'r> {
    pub(crate) repo: &'r Repository,
    pub(crate) root: git2::Tree<'r>,
}

impl links::Tree for GitTree<'_> {
    fn kind(&self, path: &[u8]) -> Option<(Kind, Oid)> {
        let e = self.root.get_path(&bytes_path(path)).ok()?;
        Some((kind_of(e.kind(), e.filemode())?, e.id()))
    }

    fn list(&self, dir: &[u8]) -> Vec<(Vec<u8>, Kind, Oid)> {
        let Some(tree) = self
            .root
            .get_path(&bytes_path(dir))
            .ok()
            .and_then(|e| self.repo.find_tree(e.id()).ok())
        else {
            return Vec::new();
        };
        entries_below(self.repo, &tree, dir, &|_| true).unwrap_or_default()
    }

    fn target(&self, link: Oid) -> Option<Vec<u8>> {
        self.repo.find_blob(link).ok().map(|b| b.content().to_vec())
    }
}

/// The index, for link resolution: stage-0 entries by path.
struct IndexTree<'r> {
    repo: &'r Repository,
    entries: Vec<(Vec<u8>, Kind, Oid)>,
}

impl links::Tree for IndexTree<'_> {
    fn kind(&self, path: &[u8]) -> Option<(Kind, Oid)> {
        if let Ok(i) = self.entries.binary_search_by(|e| e.0.as_slice().cmp(path)) {
            let (_, kind, id) = &self.entries[i];
            return Some((*kind, *id));
        }
        let dir = self
            .entries
            .iter()
            .any(|(p, _, _)| p.len() > path.len() && p.starts_with(path) && p[path.len()] == b'/');
        dir.then_some((Kind::Dir, Oid::ZERO_SHA1))
    }

    fn list(&self, dir: &[u8]) -> Vec<(Vec<u8>, Kind, Oid)> {
        self.entries
            .iter()
            .filter(|(p, _, _)| p.len() > dir.len() && p.starts_with(dir) && p[dir.len()] == b'/')
            .cloned()
            .collect()
    }

    fn target(&self, link: Oid) -> Option<Vec<u8>> {
        self.repo.find_blob(link).ok().map(|b| b.content().to_vec())
    }
}

/// Reads blobs in parallel: each worker opens its own handle on the object database (a
/// `Repository` is not shared between threads), so inflating tens of thousands of objects uses
/// every core.
fn read_blobs(
    repo: &Repository,
    found: Vec<(String, Oid, bool)>,
    max: u64,
    known: &Known,
) -> Result<Vec<SourceFile>, git2::Error> {
    use rayon::prelude::*;
    const CHUNK: usize = 512;
    if found.len() <= CHUNK {
        let odb = repo.odb()?;
        return Ok(found
            .into_iter()
            .map(|(path, id, via_link)| SourceFile {
                content: known.get(id).unwrap_or_else(|| read_blob(&odb, id, max)),
                path,
                via_link,
            })
            .collect());
    }
    let git_dir = repo.path().to_path_buf();
    let chunks: Vec<Result<Vec<SourceFile>, git2::Error>> = found
        .par_chunks(CHUNK)
        .map(|chunk| {
            let repo = Repository::open(&git_dir)?;
            let odb = repo.odb()?;
            Ok(chunk
                .iter()
                .map(|(path, id, via_link)| SourceFile {
                    content: known.get(*id).unwrap_or_else(|| read_blob(&odb, *id, max)),
                    path: path.clone(),
                    via_link: *via_link,
                })
                .collect())
        })
        .collect();
    let mut files = Vec::with_capacity(found.len());
    for chunk in chunks {
        files.extend(chunk?);
    }
    Ok(files)
}

/// Every staged manifest blob under `scope` (stage 0 entries; conflicted paths are skipped).
pub fn read_index(
    repo: &Repository,
    scope: &str,
    max: u64,
) -> Result<Vec<SourceFile>, git2::Error> {
    let index = super::index::open(repo)?;
    let mut entries: Vec<(Vec<u8>, Kind, Oid)> = index
        .iter()
        .filter(|e| (e.flags >> 12) & 0x3 == 0)
        .filter_map(|e| {
            let kind = match e.mode & 0o170000 {
                0o100000 => Kind::File,
                0o120000 => Kind::Link,
                _ => return None,
            };
            Some((e.path.clone(), kind, e.id))
        })
        .collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    let view = IndexTree {
        repo,
        entries: entries.clone(),
    };
    let (found, unread) = collect(&view, entries, scope);
    let mut files = read_blobs(repo, found, max, &Known::default())?;
    files.extend(unread);
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

pub(super) fn read_blob(odb: &git2::Odb<'_>, id: Oid, max: u64) -> Content {
    match odb.read_header(id) {
        Ok((size, _)) if size as u64 > max => Content::TooLarge {
            size: size as u64,
            id: Some(oid_bytes(&id)),
        },
        Ok(_) => match odb.read(id) {
            Ok(obj) => Content::Bytes {
                id: oid_bytes(&id),
                bytes: super::kept(obj.data()),
            },
            Err(err) => Content::Unreadable {
                reason: format!("Git object {id} could not be read: {}", err.message()),
                id: Some(oid_bytes(&id)),
            },
        },
        Err(err) => Content::Unreadable {
            reason: format!("Git object {id} is missing or corrupt: {}", err.message()),
            id: Some(oid_bytes(&id)),
        },
    }
}

pub(super) fn in_scope(path: &str, scope: &str) -> bool {
    scope.is_empty()
        || path == scope
        || path
            .strip_prefix(scope)
            .is_some_and(|rest| rest.starts_with('/'))
}

fn in_scope_dir(dir: &str, scope: &str) -> bool {
    // Descend into a directory when it is inside the scope or on the way to it.
    in_scope(dir, scope)
        || dir == scope
        || scope
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_matching() {
        assert!(in_scope("a/b.yaml", ""));
        assert!(in_scope("clusters/prod/np.yaml", "clusters/prod"));
        assert!(!in_scope("clusters/prod2/np.yaml", "clusters/prod"));
        assert!(
            in_scope("clusters/prod/np.yaml", "clusters/prod/np.yaml"),
            "a single file"
        );
        assert!(in_scope_dir("clusters", "clusters/prod"));
        assert!(in_scope_dir("clusters/prod", "clusters/prod"));
        assert!(!in_scope_dir("clusters/prod2", "clusters/prod"));
    }
}
