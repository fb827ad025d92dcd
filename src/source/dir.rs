//! Snapshots read from disk: a plain directory (walkdir) or a Git working tree (`.gitignore` honoured).
//!
//! File names that are not UTF-8 are kept (escaped, see [`super::path_text`]); symbolic links
//! that stay inside the compared folder are followed (a linked folder is read under the link's
//! path), links that leave it, dangle or loop are reported and never read.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use rayon::prelude::*;

use super::{content_from_bytes, is_manifest_path, oid_bytes, os_text, Content, SourceFile};

/// How deep links may chain (a linked folder holding links).
const MAX_LINK_DEPTH: u32 = 8;

/// Every manifest file below `root`, paths relative to `root`; links are resolved.
pub fn read_dir(root: &Path, max: u64) -> Vec<SourceFile> {
    let canonical = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let mut plain = Vec::new();
    let mut linked = Vec::new();
    for e in walkdir::WalkDir::new(root)
        .follow_links(false)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || e.file_name() != ".git")
        .filter_map(Result::ok)
    {
        let Some(rel) = relative(root, e.path()) else {
            continue;
        };
        if e.file_type().is_symlink() {
            linked.extend(read_link(&canonical, e.path(), &rel, max, 0));
        } else if e.file_type().is_file() && is_manifest_path(&rel) {
            plain.push((e.into_path(), rel));
        }
    }
    let mut files: Vec<SourceFile> = plain
        .into_par_iter()
        .map(|(path, rel)| read_one(&path, rel, max, false))
        .collect();
    files.extend(linked);
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

/// The files a symbolic link at `link` (named `rel`) brings in, when it stays inside `root`.
fn read_link(root: &Path, link: &Path, rel: &str, max: u64, depth: u32) -> Vec<SourceFile> {
    let target = std::fs::read_link(link)
        .map(|t| t.as_os_str().to_owned())
        .unwrap_or_default();
    let target_text = os_text(&target);
    // Git stores a link as a blob of its target: the same id whatever the side.
    let id = git2::Oid::hash_object(git2::ObjectType::Blob, target_text.as_bytes())
        .ok()
        .map(|o| oid_bytes(&o));
    let unread = |reason: String| {
        let worth = is_manifest_path(rel) || !rel.rsplit('/').next().unwrap_or(rel).contains('.');
        worth
            .then(|| SourceFile {
                path: rel.to_string(),
                content: Content::Unreadable { reason, id },
                via_link: true,
            })
            .into_iter()
            .collect::<Vec<_>>()
    };
    if depth > MAX_LINK_DEPTH {
        return unread("too many levels of symbolic links: not read".into());
    }
    let resolved = match link.canonicalize() {
        Ok(p) => p,
        Err(e) => {
            return unread(format!(
                "symbolic link to `{target_text}` cannot be followed ({e}): not read"
            ))
        }
    };
    if !resolved.starts_with(root) {
        return unread(format!(
            "symbolic link to `{target_text}` points outside the repository: not read"
        ));
    }
    let Ok(meta) = std::fs::metadata(&resolved) else {
        return unread(format!(
            "symbolic link to `{target_text}`: the target cannot be read"
        ));
    };
    if meta.is_file() {
        return if is_manifest_path(rel) {
            vec![read_one(&resolved, rel.to_string(), max, true)]
        } else {
            Vec::new()
        };
    }
    let link_dir = link
        .parent()
        .and_then(|p| p.canonicalize().ok())
        .unwrap_or_default();
    if link_dir.starts_with(&resolved) {
        return unread(format!(
            "symbolic link to `{target_text}` loops back to a folder that holds it: not read"
        ));
    }
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(&resolved)
        .follow_links(false)
        .min_depth(1)
        .into_iter()
        .filter_entry(|e| e.file_name() != ".git")
        .filter_map(Result::ok)
    {
        let Some(sub) = relative(&resolved, e.path()) else {
            continue;
        };
        let name = format!("{rel}/{sub}");
        if e.file_type().is_symlink() {
            out.extend(read_link(root, e.path(), &name, max, depth + 1));
        } else if e.file_type().is_file() && is_manifest_path(&name) {
            out.push(read_one(e.path(), name, max, true));
        }
    }
    out
}

/// What an earlier read learnt of a working-tree file: unchanged size and modification time mean
/// unchanged content, unless the time is within [`RACY`] of the read (another write in the same
/// tick of the clock would not show: Git's "racily clean" entries).
#[derive(Clone, Debug)]
pub struct Stamp {
    len: u64,
    modified: SystemTime,
    read_at: SystemTime,
    content: Content,
}

/// Working-tree files by repository-relative path, as the last read found them.
pub type Stamps = HashMap<String, Stamp>;

/// How close to its read a modification time makes an entry untrustworthy.
const RACY: Duration = Duration::from_secs(2);

/// What a walk found: plain files (their path on disk and in the repository) and what links
/// bring in.
type Walked = (Vec<(PathBuf, String)>, Vec<SourceFile>);

/// The manifest files of a working tree below `scope`, as Git would see them (ignored files are
/// skipped), with paths relative to the repository root `workdir`. A file `stamps` says is
/// unchanged is not read again; `stamps` is replaced by what this read found.
pub fn read_worktree(
    workdir: &Path,
    scope: &Path,
    max: u64,
    mut stamps: Option<&mut Stamps>,
) -> Vec<SourceFile> {
    let read_at = SystemTime::now();
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
        .threads(rayon::current_num_threads())
        .build_parallel();
    let canonical = workdir
        .canonicalize()
        .unwrap_or_else(|_| workdir.to_path_buf());
    // The folders are read on every core (a fleet's working tree is tens of thousands of files,
    // walked at every keystroke of the language server); the order is restored below.
    let seen: std::sync::Mutex<Walked> = Default::default();
    walker.run(|| {
        Box::new(|e| {
            let Ok(e) = e else {
                return ignore::WalkState::Continue;
            };
            let Some(rel) = relative(workdir, e.path()) else {
                return ignore::WalkState::Continue;
            };
            match e.file_type() {
                Some(t) if t.is_symlink() => {
                    let read = read_link(&canonical, e.path(), &rel, max, 0);
                    if let Ok(mut s) = seen.lock() {
                        s.1.extend(read);
                    }
                }
                Some(t) if t.is_file() && is_manifest_path(&rel) => {
                    if let Ok(mut s) = seen.lock() {
                        s.0.push((e.into_path(), rel));
                    }
                }
                _ => {}
            }
            ignore::WalkState::Continue
        })
    });
    let (found, linked) = seen.into_inner().unwrap_or_else(|p| p.into_inner());
    // Reading and hashing (the blob id) are independent per file: do them in parallel.
    let empty = Stamps::new();
    let old: &Stamps = stamps.as_deref().unwrap_or(&empty);
    let read: Vec<(SourceFile, Option<Stamp>)> = found
        .into_par_iter()
        .map(|(path, rel)| {
            let meta = std::fs::metadata(&path).ok();
            let now = meta
                .as_ref()
                .and_then(|m| Some((m.len(), m.modified().ok()?)));
            if let (Some((len, modified)), Some(kept)) = (now, old.get(&rel)) {
                let trusted = kept
                    .read_at
                    .duration_since(modified)
                    .is_ok_and(|d| d >= RACY);
                if kept.len == len && kept.modified == modified && trusted {
                    let file = SourceFile {
                        path: rel,
                        content: kept.content.clone(),
                        via_link: false,
                    };
                    return (file, Some(kept.clone()));
                }
            }
            let file = read_one(&path, rel, max, false);
            let stamp = now.map(|(len, modified)| Stamp {
                len,
                modified,
                read_at,
                content: file.content.clone(),
            });
            (file, stamp)
        })
        .collect();
    if let Some(stamps) = stamps.as_deref_mut() {
        stamps.clear();
    }
    let mut files = Vec::with_capacity(read.len() + linked.len());
    for (file, stamp) in read {
        if let (Some(stamps), Some(stamp)) = (stamps.as_deref_mut(), stamp) {
            stamps.insert(file.path.clone(), stamp);
        }
        files.push(file);
    }
    files.extend(linked);
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Vec<String> = rel.components().map(|c| os_text(c.as_os_str())).collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}

fn read_one(path: &Path, rel: String, max: u64, via_link: bool) -> SourceFile {
    let content = match std::fs::metadata(path) {
        // Hashed as a stream (never held in memory): whether it changed is still known.
        Ok(meta) if meta.len() > max => Content::TooLarge {
            size: meta.len(),
            id: git2::Oid::hash_file(git2::ObjectType::Blob, path)
                .ok()
                .map(|o| oid_bytes(&o)),
        },
        Ok(_) => match std::fs::read(path) {
            Ok(bytes) => content_from_bytes(bytes, max),
            Err(err) => Content::Unreadable {
                reason: err.to_string(),
                id: None,
            },
        },
        Err(err) => Content::Unreadable {
            reason: err.to_string(),
            id: None,
        },
    };
    SourceFile {
        path: rel,
        content,
        via_link,
    }
}
