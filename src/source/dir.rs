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
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return unread(format!(
                "symbolic link to `{target_text}`: the target does not exist: not read"
            ))
        }
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

/// What the last read of a working tree found: each file's stamp by repository-relative path,
/// and the walk itself, taken again while no folder and no ignore file changed since.
#[derive(Debug, Default)]
pub struct Stamps {
    files: HashMap<String, Stamp>,
    walk: Option<Walk>,
}

/// One walk of a working tree: the folders it read and their modification times, the files
/// that decide what is ignored, and what it found. A file added, removed or renamed changes its
/// folder's time, an ignore file's own time changes when it is edited: while none did, walking
/// again finds the same files (the language server reads the tree at every keystroke).
#[derive(Debug)]
struct Walk {
    scope: PathBuf,
    read_at: SystemTime,
    dirs: Vec<(PathBuf, Option<SystemTime>)>,
    ignores: Vec<(PathBuf, Option<(u64, SystemTime)>)>,
    found: Vec<(PathBuf, String)>,
    links: Vec<(PathBuf, String)>,
}

impl Walk {
    /// Whether walking `scope` again would find what this walk found.
    fn holds(&self, scope: &Path) -> bool {
        let trusted = |t: SystemTime| self.read_at.duration_since(t).is_ok_and(|d| d >= RACY);
        self.scope == scope
            && self.dirs.par_iter().all(|(d, t)| {
                let now = std::fs::metadata(d).ok().and_then(|m| m.modified().ok());
                now == *t && now.is_some_and(trusted)
            })
            && self
                .ignores
                .iter()
                .all(|(f, s)| stamp_of(f) == *s && s.is_none_or(|(_, t)| trusted(t)))
    }
}

/// A file's length and modification time, when it exists.
fn stamp_of(path: &Path) -> Option<(u64, SystemTime)> {
    let m = std::fs::metadata(path).ok()?;
    Some((m.len(), m.modified().ok()?))
}

/// The ignore files outside the tree the walk honours: the repository's `info/exclude` and the
/// user's global excludes (and the configuration that may name another).
fn outer_ignores(workdir: &Path) -> Vec<PathBuf> {
    let mut out = vec![workdir.join(".git/info/exclude")];
    if let Some(config) = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| dirs::home_dir().map(|h| h.join(".config")))
    {
        out.push(config.join("git/ignore"));
        out.push(config.join("git/config"));
    }
    if let Some(home) = dirs::home_dir() {
        out.push(home.join(".gitconfig"));
    }
    out
}

/// How close to its read a modification time makes an entry untrustworthy.
const RACY: Duration = Duration::from_secs(2);

/// What a walk found: plain files (their path on disk and in the repository), links (the
/// same), folders and ignore files.
#[derive(Default)]
struct Walked {
    found: Vec<(PathBuf, String)>,
    links: Vec<(PathBuf, String)>,
    dirs: Vec<PathBuf>,
    ignores: Vec<PathBuf>,
}

/// The manifest files of a working tree below `scope`, as Git would see them (ignored files are
/// skipped), with paths relative to the repository root `workdir`. A file `stamps` says is
/// unchanged is not read again, and the walk is taken again while no folder or ignore file
/// changed; `stamps` is replaced by what this read found.
pub fn read_worktree(
    workdir: &Path,
    scope: &Path,
    max: u64,
    mut stamps: Option<&mut Stamps>,
) -> Vec<SourceFile> {
    let read_at = SystemTime::now();
    let canonical = workdir
        .canonicalize()
        .unwrap_or_else(|_| workdir.to_path_buf());
    let kept_walk = stamps
        .as_deref_mut()
        .and_then(|s| s.walk.take())
        .filter(|w| w.holds(scope));
    let (found, link_entries, walk) = match kept_walk {
        Some(w) => (w.found.clone(), w.links.clone(), Some(w)),
        None => {
            let w = walk(workdir, scope);
            // Kept only for a next read (the editor's): a one-off check neither stats every folder
            // nor copies every path for nothing.
            let kept = stamps.is_some().then(|| Walk {
                scope: scope.to_path_buf(),
                read_at,
                dirs: w
                    .dirs
                    .into_par_iter()
                    .map(|d| {
                        let t = std::fs::metadata(&d).ok().and_then(|m| m.modified().ok());
                        (d, t)
                    })
                    .collect(),
                ignores: w
                    .ignores
                    .into_iter()
                    .chain(outer_ignores(workdir))
                    .map(|f| {
                        let s = stamp_of(&f);
                        (f, s)
                    })
                    .collect(),
                found: w.found.clone(),
                links: w.links.clone(),
            });
            (w.found, w.links, kept)
        }
    };
    let linked: Vec<SourceFile> = link_entries
        .iter()
        .flat_map(|(path, rel)| read_link(&canonical, path, rel, max, 0))
        .collect();
    // Reading and hashing (the blob id) are independent per file: do them in parallel.
    let empty = Stamps::default();
    let old: &HashMap<String, Stamp> = &stamps.as_deref().unwrap_or(&empty).files;
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
        stamps.files.clear();
        stamps.walk = walk;
    }
    let mut files = Vec::with_capacity(read.len() + linked.len());
    for (file, stamp) in read {
        if let (Some(stamps), Some(stamp)) = (stamps.as_deref_mut(), stamp) {
            stamps.files.insert(file.path.clone(), stamp);
        }
        files.push(file);
    }
    files.extend(linked);
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

/// Walks the working tree below `scope` on every core, honouring `.gitignore` files (the order is
/// restored by the caller): a fleet's working tree is tens of thousands of files.
fn walk(workdir: &Path, scope: &Path) -> Walked {
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
    let seen: std::sync::Mutex<Walked> = Default::default();
    walker.run(|| {
        Box::new(|e| {
            let Ok(e) = e else {
                return ignore::WalkState::Continue;
            };
            let Ok(mut s) = seen.lock() else {
                return ignore::WalkState::Continue;
            };
            let Some(rel) = relative(workdir, e.path()) else {
                // The scope's own folder (the repository's, for the whole repository).
                if e.file_type().is_some_and(|t| t.is_dir()) {
                    s.dirs.push(e.into_path());
                }
                return ignore::WalkState::Continue;
            };
            match e.file_type() {
                Some(t) if t.is_symlink() => s.links.push((e.into_path(), rel)),
                Some(t) if t.is_dir() => s.dirs.push(e.into_path()),
                Some(t) if t.is_file() && e.file_name() == ".gitignore" => {
                    s.ignores.push(e.into_path())
                }
                Some(t) if t.is_file() && is_manifest_path(&rel) => {
                    s.found.push((e.into_path(), rel))
                }
                _ => {}
            }
            ignore::WalkState::Continue
        })
    });
    let mut w = seen.into_inner().unwrap_or_else(|p| p.into_inner());
    // The folders above the scope, whose `.gitignore` files the walk honoured too.
    let mut dir = scope.parent();
    while let Some(d) = dir.filter(|d| d.starts_with(workdir)) {
        w.ignores.push(d.join(".gitignore"));
        dir = d.parent();
    }
    w
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Sets a file's or folder's modification time in the past, as an older tree's would be.
    fn age(path: &Path) {
        let past = SystemTime::now() - Duration::from_secs(60);
        let f = std::fs::File::open(path).expect("open");
        f.set_modified(past).expect("set the modification time");
    }

    fn paths(files: &[SourceFile]) -> Vec<String> {
        files.iter().map(|f| f.path.clone()).collect()
    }

    /// A walk is taken again only while no folder and no ignore file changed: a file added, or
    /// one a `.gitignore` newly ignores, is seen at the next read, as a fresh walk sees it.
    #[test]
    fn a_kept_walk_sees_what_a_fresh_one_sees() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let root = dir.path();
        std::fs::create_dir_all(root.join("sub")).expect("mkdir");
        for f in ["a.yaml", "sub/b.yaml", "sub/c.yaml"] {
            std::fs::write(root.join(f), "kind: A\n").expect("write");
        }
        for p in ["a.yaml", "sub/b.yaml", "sub/c.yaml", "sub", ""] {
            age(&root.join(p));
        }
        let mut stamps = Stamps::default();
        let fresh = |s: &mut Stamps| paths(&read_worktree(root, root, 1 << 20, Some(s)));
        let once = fresh(&mut stamps);
        assert_eq!(once, ["a.yaml", "sub/b.yaml", "sub/c.yaml"]);
        assert!(
            stamps.walk.as_ref().is_some_and(|w| w.holds(root)),
            "an old tree's walk holds"
        );
        assert_eq!(fresh(&mut stamps), once, "unchanged: the same files");
        std::fs::write(root.join("sub/d.yaml"), "kind: D\n").expect("write");
        assert_eq!(
            fresh(&mut stamps),
            ["a.yaml", "sub/b.yaml", "sub/c.yaml", "sub/d.yaml"]
        );
        for p in ["sub/d.yaml", "sub", ""] {
            age(&root.join(p));
        }
        fresh(&mut stamps);
        std::fs::write(root.join(".gitignore"), "c.yaml\n").expect("write");
        let ignored = fresh(&mut stamps);
        assert_eq!(ignored, ["a.yaml", "sub/b.yaml", "sub/d.yaml"]);
        assert_eq!(ignored, paths(&read_worktree(root, root, 1 << 20, None)));
    }
}
