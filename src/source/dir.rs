//! Snapshots read from disk: a plain directory (walkdir) or a Git working tree (`.gitignore` honoured).

use std::path::Path;

use rayon::prelude::*;

use super::{content_from_bytes, is_manifest_path, Content, SourceFile};

/// Every manifest file below `root` (symlinks are not followed), paths relative to `root`.
pub fn read_dir(root: &Path, max: u64) -> Vec<SourceFile> {
    let mut files: Vec<SourceFile> = walkdir::WalkDir::new(root)
        .follow_links(false)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || e.file_name() != ".git")
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| {
            let rel = relative(root, e.path())?;
            is_manifest_path(&rel).then(|| read_one(e.path(), rel, max))
        })
        .collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

/// The manifest files of a working tree below `scope`, as Git would see them (ignored files are
/// skipped), with paths relative to the repository root `workdir`.
pub fn read_worktree(workdir: &Path, scope: &Path, max: u64) -> Vec<SourceFile> {
    let walker = ignore::WalkBuilder::new(scope)
        .hidden(false)
        .ignore(false)
        .parents(true)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(true)
        .require_git(false)
        .follow_links(false)
        .filter_entry(|e| e.file_name() != ".git")
        .build();
    let found: Vec<(std::path::PathBuf, String)> = walker
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .filter_map(|e| {
            let rel = relative(workdir, e.path())?;
            is_manifest_path(&rel).then(|| (e.into_path(), rel))
        })
        .collect();
    // Reading and hashing (the blob id) are independent per file: do them in parallel.
    let mut files: Vec<SourceFile> = found
        .into_par_iter()
        .map(|(path, rel)| read_one(&path, rel, max))
        .collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}

fn read_one(path: &Path, rel: String, max: u64) -> SourceFile {
    let content = match std::fs::metadata(path) {
        Ok(meta) if meta.len() > max => Content::TooLarge { size: meta.len() },
        Ok(_) => match std::fs::read(path) {
            Ok(bytes) => content_from_bytes(bytes, max),
            Err(err) => Content::Unreadable {
                reason: err.to_string(),
            },
        },
        Err(err) => Content::Unreadable {
            reason: err.to_string(),
        },
    };
    SourceFile { path: rel, content }
}
