//! Scenario fixtures built from shared bases, so that a change to a shared cluster is made once
//! (CONTRIBUTING.md, "Scenario fixtures"; `tools/fixture.sh` follows the same rules).
//!
//! A folder is built in place, in this order:
//! 1. each folder listed in its `_from` file (one path per line, relative to the folder; blank
//!    lines and `#` comments skipped), built the same way, later lines winning;
//! 2. its own files, then its subfolders (each built the same way), on top;
//! 3. minus the paths (files or whole folders, relative to the folder) listed in its `_remove`
//!    file.
//!
//! `_from` and `_remove` are never part of the result. A folder without them builds to a plain
//! copy, so full trees (the demo, the shapes) go through the same code.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Names the folders a folder is built from, so a case holds only what differs from them.
pub const FROM: &str = "_from";

/// Names the inherited paths a folder drops, for a case that lacks a file its base has.
pub const REMOVE: &str = "_remove";

/// The files a folder builds to (relative path to content), so callers can inspect or compare
/// a case without writing it out.
pub fn build(folder: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    build_into(folder, Path::new(""), &mut files, &mut Vec::new());
    files
}

/// What the folders named by `folder`'s `_from` file build to, before its own files go on top
/// (so a check can flag own files that only repeat what the folder already inherits).
pub fn inherited(folder: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut stack = vec![canonical(folder)];
    for from in lines(&folder.join(FROM)) {
        build_into(&folder.join(from), Path::new(""), &mut files, &mut stack);
    }
    files
}

/// Writes what `folder` builds to into `dest`, so a test runs on the full tree (the same paths
/// and bytes as a hand-copied tree would have, so `file:line:col` expectations hold).
pub fn materialise(folder: &Path, dest: &Path) {
    for (rel, bytes) in build(folder) {
        let path = dest.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent"))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

/// The case folders of a scenario suite, sorted, without its `_`-prefixed folders (the shared
/// bases are not cases).
pub fn cases(suite: &Path) -> Vec<PathBuf> {
    super::case_dirs(suite)
        .into_iter()
        .filter(|d| {
            !d.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('_'))
        })
        .collect()
}

fn build_into(
    folder: &Path,
    at: &Path,
    files: &mut BTreeMap<PathBuf, Vec<u8>>,
    stack: &mut Vec<PathBuf>,
) {
    let real = canonical(folder);
    assert!(
        !stack.contains(&real),
        "{}: `_from` loops back to a folder being built",
        folder.display()
    );
    stack.push(real);
    for from in lines(&folder.join(FROM)) {
        let source = folder.join(&from);
        assert!(
            source.is_dir(),
            "{}: `_from` names `{from}`, which is not a folder",
            folder.display()
        );
        build_into(&source, at, files, stack);
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().expect("name");
        if path.is_dir() {
            build_into(&path, &at.join(name), files, stack);
        } else if name != FROM && name != REMOVE {
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            files.insert(at.join(name), bytes);
        }
    }
    for gone in lines(&folder.join(REMOVE)) {
        let gone_at = at.join(&gone);
        let count = files.len();
        files.retain(|rel, _| !rel.starts_with(&gone_at));
        assert!(
            files.len() < count,
            "{}: `_remove` names `{gone}`, which the folder does not have",
            folder.display()
        );
    }
    stack.pop();
}

fn canonical(folder: &Path) -> PathBuf {
    folder
        .canonicalize()
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
}

/// The entries of a `_from` or `_remove` file (none when it is absent).
fn lines(file: &Path) -> Vec<String> {
    match std::fs::read_to_string(file) {
        Ok(text) => text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => panic!("{}: {e}", file.display()),
    }
}
