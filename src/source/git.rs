//! Snapshots read from the Git object database: a commit's tree or the index. No checkout.

use git2::{ObjectType, Oid, Repository, TreeWalkMode, TreeWalkResult};

use super::{is_manifest_path, oid_bytes, Content, SourceFile};

/// Every manifest blob of `tree` under the path prefix `scope` ("" = everything).
pub fn read_tree(
    repo: &Repository,
    tree: Oid,
    scope: &str,
    max: u64,
) -> Result<Vec<SourceFile>, git2::Error> {
    let tree = repo.find_tree(tree)?;
    let mut found: Vec<(String, Oid)> = Vec::new();
    tree.walk(TreeWalkMode::PreOrder, |dir, entry| {
        let Ok(name) = entry.name() else {
            return TreeWalkResult::Ok;
        };
        let path = format!("{dir}{name}");
        match entry.kind() {
            Some(ObjectType::Tree) => {
                if in_scope_dir(&path, scope) {
                    TreeWalkResult::Ok
                } else {
                    TreeWalkResult::Skip
                }
            }
            // Regular and executable files only: symlinks (0o120000) and submodules are not manifests.
            Some(ObjectType::Blob) if entry.filemode() & 0o170000 == 0o100000 => {
                if in_scope(&path, scope) && is_manifest_path(&path) {
                    found.push((path, entry.id()));
                }
                TreeWalkResult::Ok
            }
            _ => TreeWalkResult::Ok,
        }
    })?;
    let mut files = read_blobs(repo, found, max)?;
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// Reads blobs in parallel: each worker opens its own handle on the object database (a
/// `Repository` is not shared between threads), so inflating tens of thousands of objects uses
/// every core.
fn read_blobs(
    repo: &Repository,
    found: Vec<(String, Oid)>,
    max: u64,
) -> Result<Vec<SourceFile>, git2::Error> {
    use rayon::prelude::*;
    const CHUNK: usize = 512;
    if found.len() <= CHUNK {
        let odb = repo.odb()?;
        return Ok(found
            .into_iter()
            .map(|(path, id)| SourceFile {
                content: read_blob(&odb, id, max),
                path,
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
                .map(|(path, id)| SourceFile {
                    content: read_blob(&odb, *id, max),
                    path: path.clone(),
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
    let index = repo.index()?;
    let found: Vec<(String, Oid)> = index
        .iter()
        .filter(|e| e.mode & 0o170000 == 0o100000)
        .filter(|e| (e.flags >> 12) & 0x3 == 0)
        .filter_map(|e| {
            let path = String::from_utf8(e.path.clone()).ok()?;
            (in_scope(&path, scope) && is_manifest_path(&path)).then_some((path, e.id))
        })
        .collect();
    let mut files = read_blobs(repo, found, max)?;
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

fn read_blob(odb: &git2::Odb<'_>, id: Oid, max: u64) -> Content {
    match odb.read_header(id) {
        Ok((size, _)) if size as u64 > max => Content::TooLarge { size: size as u64 },
        Ok(_) => match odb.read(id) {
            Ok(obj) => Content::Bytes {
                id: oid_bytes(&id),
                bytes: obj.data().into(),
            },
            Err(err) => Content::Unreadable {
                reason: format!("Git object {id} could not be read: {}", err.message()),
            },
        },
        Err(err) => Content::Unreadable {
            reason: format!("Git object {id} is missing: {}", err.message()),
        },
    }
}

fn in_scope(path: &str, scope: &str) -> bool {
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
