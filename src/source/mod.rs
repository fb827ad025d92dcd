//! Source stage: the two snapshots (sets of manifest files) to compare.
//!
//! Git revisions and the index are read straight from the object database (no checkout, nothing
//! written); the working tree and plain directories are read from disk.

pub mod ci;
mod compare;
mod dir;
pub(crate) mod git;
pub(crate) mod index;
pub(crate) mod links;
pub mod subset;

pub use compare::{load, load_reusing, CompareRequest, Kept, Loaded};

use std::collections::BTreeMap;
use std::sync::Arc;

/// An editor's unsaved buffers laid over the working tree (repository-relative path → bytes):
/// the head an editor shows is what is checked, and nothing is written into the repository.
pub type Overlay = Arc<BTreeMap<String, Arc<[u8]>>>;

/// A path whose content differs between two revisions ([`subset::Revisions::changed`]).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Changed {
    /// Repository-relative path.
    pub path: String,
    /// Whether the base holds it.
    pub in_base: bool,
    /// Whether the head holds it.
    pub in_head: bool,
}

/// Where a snapshot came from; the JSON report's `compared.*.source`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    /// A commit's tree.
    Git,
    /// The Git index (staged content).
    Index,
    /// The working tree of a Git repository.
    Worktree,
    /// A plain directory.
    Dir,
    /// Nothing (no base).
    None,
}

impl SourceKind {
    /// The contract name.
    pub fn as_str(self) -> &'static str {
        match self {
            SourceKind::Git => "git",
            SourceKind::Index => "index",
            SourceKind::Worktree => "worktree",
            SourceKind::Dir => "dir",
            SourceKind::None => "none",
        }
    }
}

/// What a snapshot is, for the report header and the JSON `compared` block.
#[derive(Clone, Debug)]
pub struct SnapshotInfo {
    /// Provider kind.
    pub kind: SourceKind,
    /// Full commit id when the snapshot is a commit.
    pub rev: Option<String>,
    /// Human label, e.g. `HEAD^ (1a2b3c4)` or `working tree`.
    pub label: String,
}

/// A candidate manifest file: its repository-relative path and what the source says about it.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// Path relative to the repository root (or the compared directory), `/`-separated.
    pub path: String,
    /// The bytes, or why they were not read.
    pub content: Content,
    /// Read through a symbolic link (its content is another file's, or the link could not be
    /// followed).
    pub via_link: bool,
}

/// A file's bytes, or the reason they were not loaded (kept so the file is reported, not hidden).
#[derive(Clone, Debug)]
pub enum Content {
    /// The file's bytes with a content id (Git blob id, computed for disk files) to parse once.
    Bytes {
        /// Git blob id of the bytes; equal ids mean equal content.
        id: [u8; 20],
        /// The bytes.
        bytes: Arc<[u8]>,
    },
    /// Larger than the limit; not read.
    TooLarge {
        /// Size in bytes.
        size: u64,
        /// Git blob id of the content, when known (whether it changed between revisions).
        id: Option<[u8; 20]>,
    },
    /// Could not be read (permissions, a vanished file, a missing blob, a symbolic link that
    /// points outside the repository).
    Unreadable {
        /// The reason.
        reason: String,
        /// An id of what was not read (the Git blob or the link), when known.
        id: Option<[u8; 20]>,
    },
}

impl Content {
    /// The content id when known: equal ids mean the file did not change.
    pub fn id(&self) -> Option<[u8; 20]> {
        match self {
            Content::Bytes { id, .. } => Some(*id),
            Content::TooLarge { id, .. } | Content::Unreadable { id, .. } => *id,
        }
    }
}

/// A path or file name as text, losslessly: valid UTF-8 is kept as is; a name with bytes that are
/// not UTF-8 gets each such byte as `\xNN` (and `\` as `\\`, so an escaped name cannot be
/// mistaken for another), instead of being dropped or replaced by `�`.
pub fn path_text(bytes: &[u8]) -> String {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return s.to_string();
    }
    let mut out = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        out.push_str(&chunk.valid().replace('\\', "\\\\"));
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// One side of the comparison.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// Where it came from.
    pub info: SnapshotInfo,
    /// Candidate files, sorted by path.
    pub files: Vec<SourceFile>,
}

impl Snapshot {
    /// The empty snapshot (no base, or an unborn branch).
    pub fn empty(label: impl Into<String>) -> Self {
        Snapshot {
            info: SnapshotInfo {
                kind: SourceKind::None,
                rev: None,
                label: label.into(),
            },
            files: Vec::new(),
        }
    }
}

/// The path prefix (relative to its repository's root) a folder inside a repository selects:
/// `""` for the whole repository, or outside any repository.
pub fn scope_of_path(path: &std::path::Path) -> Result<String, crate::Fatal> {
    let Ok(repo) = git2::Repository::discover(path) else {
        return Ok(String::new());
    };
    let workdir = repo.workdir().map(std::path::Path::to_path_buf);
    compare::scope_of(&repo, workdir.as_deref(), path)
}

/// Which files are manifests nodecast reads: `.yaml`, `.yml` and `.json`.
pub fn is_manifest_path(path: &str) -> bool {
    let lower = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    lower.ends_with(".yaml")
        || lower.ends_with(".yml")
        || lower.ends_with(".json")
        || path.rsplit('/').next() == Some("Kustomization")
}

/// Reads bytes that are within the limit, or records why not.
pub(crate) fn content_from_bytes(bytes: Vec<u8>, max: u64) -> Content {
    let id = git2::Oid::hash_object(git2::ObjectType::Blob, &bytes)
        .map(|oid| oid_bytes(&oid))
        .unwrap_or([0; 20]);
    if bytes.len() as u64 > max {
        return Content::TooLarge {
            size: bytes.len() as u64,
            id: Some(id),
        };
    }
    Content::Bytes {
        id,
        bytes: kept(&bytes),
    }
}

/// A file's bytes as a check keeps them: to its end (the parse keeps them as the file's text),
/// so packed beside every other file's ([`nodecast_alloc::packed`]).
pub(crate) fn kept(bytes: &[u8]) -> Arc<[u8]> {
    nodecast_alloc::packed(|| Arc::from(bytes))
}

/// An OS string (a file name on disk) as text, losslessly (see [`path_text`]).
pub(crate) fn os_text(s: &std::ffi::OsStr) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        path_text(s.as_bytes())
    }
    #[cfg(not(unix))]
    {
        s.to_string_lossy().into_owned()
    }
}

pub(crate) fn oid_bytes(oid: &git2::Oid) -> [u8; 20] {
    let mut id = [0u8; 20];
    let raw = oid.as_bytes();
    let n = raw.len().min(20);
    id[..n].copy_from_slice(&raw[..n]);
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_utf8_names_are_kept_losslessly() {
        assert_eq!(path_text(b"clusters/np.yaml"), "clusters/np.yaml");
        assert_eq!(path_text(b"caf\xe9.yaml"), "caf\\xe9.yaml");
        assert_eq!(path_text(b"a\\b\xff.yaml"), "a\\\\b\\xff.yaml");
        assert_ne!(path_text(b"\xe9.yaml"), path_text(b"\xe8.yaml"));
    }

    #[test]
    fn manifest_extensions() {
        assert!(is_manifest_path("a/b/np.yaml"));
        assert!(is_manifest_path("a/b/NP.YML"));
        assert!(is_manifest_path("x.json"));
        assert!(!is_manifest_path("a/yaml/readme.md"));
        assert!(!is_manifest_path("a.yaml.txt"));
    }
}
