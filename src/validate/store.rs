//! Schema validation results kept between runs in the cache folder (SCOPE part 2), so a one-off
//! check — a pre-commit hook, a CI run with the cache restored — validates only the documents no
//! earlier run validated under the same schemas. On the large generated fleet validation was a
//! sixth of a check; an unchanged document costs a lookup instead.
//!
//! A result is kept under a **content key**: the blob its document was parsed from (only a parse
//! that depends on the blob alone, [`crate::parse::ParsedFile::blob`]), the document's range in
//! it, the same for the base document where the schema's transition rules read it, and everything
//! else [`super::Target::key`] names (identity, `apiVersion`, path, label, feature set, patch,
//! which CRD judged it). Rendered and wrapped objects are never kept (their parse is the run's
//! own).
//!
//! Only documents with nothing to say are kept (no finding and no rule left unevaluated: nearly
//! every document), as their keys alone. A finding's text, and a CEL rule's reason for being
//! unevaluable ("the rule yields …"), may quote a value of the document, a Secret's or a private
//! field's among them; nothing of the repository is written here. A document with something to
//! say is validated again.
//!
//! One file per repository and set of schemas and settings, named by a SHA-256 of the format, the
//! nodecast build (version, and the executable's size and time, so a rebuilt binary never reads
//! an older one's keys), the repository's path and the validation fingerprint (settings, CRDs,
//! `--schemas`). The cache never changes a result: a file that does not parse or names another
//! format or name is ignored whole. A run writes its file only when it validated something
//! afresh, with exactly the keys it used (so the file follows the repository and stays bounded by
//! it), to a temporary file renamed into place (concurrent runs never see half a file; the last
//! one wins). At most [`MAX_FILES`] files are kept, the least recently written evicted. Deleting
//! the folder is always safe.

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::ObjectResult;

/// The format of a file; part of its name and its header, so a new format never reads an old one.
const FORMAT: &str = "nodecast-validation-cache/3";

/// Most result files kept (one per set of schemas and settings a repository was checked with).
pub const MAX_FILES: usize = 16;

/// A document's content key (128 bits of a SHA-256).
pub type Key = [u8; 16];

/// The documents on disk that validated clean under the run's fingerprints, and those the run
/// used.
#[derive(Default)]
pub struct Disk {
    dir: Option<PathBuf>,
    /// The repository checked, so two repositories' runs do not replace each other's file.
    repository: String,
    files: HashMap<String, File>,
}

/// One fingerprint's documents that validated clean.
#[derive(Default)]
struct File {
    loaded: HashSet<Key>,
    used: HashSet<Key>,
    computed: bool,
}

impl Disk {
    /// Results of `repository` kept under `cache_dir` (`None`: nothing is read or written).
    pub fn at(cache_dir: Option<&Path>, repository: &Path) -> Self {
        let repository = std::fs::canonicalize(repository).unwrap_or_else(|_| repository.into());
        Disk {
            dir: cache_dir.map(|d| d.join("validation")),
            repository: repository.to_string_lossy().into_owned(),
            files: HashMap::new(),
        }
    }

    /// Whether results are read and written at all.
    pub fn is_open(&self) -> bool {
        self.dir.is_some()
    }

    /// Reads the file of `fingerprint` (once per run).
    pub fn load(&mut self, fingerprint: &str) {
        let Some(dir) = &self.dir else { return };
        if self.files.contains_key(fingerprint) {
            return;
        }
        let name = file_name(&self.repository, fingerprint);
        let loaded = std::fs::read(dir.join(&name))
            .ok()
            .and_then(|bytes| read(&bytes, &name))
            .unwrap_or_default();
        self.files.insert(
            fingerprint.to_string(),
            File {
                loaded,
                ..File::default()
            },
        );
    }

    /// Whether the document of `key` validated clean under `fingerprint` in an earlier run.
    pub fn is_clean(&self, fingerprint: &str, key: &Key) -> bool {
        self.files
            .get(fingerprint)
            .is_some_and(|f| f.used.contains(key) || f.loaded.contains(key))
    }

    /// Records a result the run used (`None`: one with nothing to say); `computed` when it was
    /// validated afresh. Only a result with nothing to say is kept (see the module's
    /// documentation).
    pub fn record(
        &mut self,
        fingerprint: &str,
        key: Key,
        result: Option<&ObjectResult>,
        computed: bool,
    ) {
        let Some(file) = self.files.get_mut(fingerprint) else {
            return;
        };
        if result.is_none_or(|r| r.0.is_empty() && r.1.is_empty()) {
            file.computed |= computed;
            file.used.insert(key);
        }
    }

    /// Writes each file a run added results to, then evicts the oldest files beyond
    /// [`MAX_FILES`]. Errors are ignored: the next run validates again.
    pub fn save(&mut self) {
        let Some(dir) = &self.dir else { return };
        let mut wrote = false;
        for (fingerprint, file) in &mut self.files {
            if !std::mem::take(&mut file.computed) {
                continue;
            }
            if std::fs::create_dir_all(dir).is_err() {
                return;
            }
            let name = file_name(&self.repository, fingerprint);
            let text = write(&file.used, &name);
            let Ok(mut tmp) = tempfile::NamedTempFile::new_in(dir) else {
                return;
            };
            use std::io::Write;
            if tmp.write_all(text.as_bytes()).is_ok() && tmp.persist(dir.join(&name)).is_ok() {
                wrote = true;
            }
        }
        if wrote {
            evict(dir, MAX_FILES);
        }
    }
}

/// A file's name: the format, the build, the repository and the validation fingerprint.
fn file_name(repository: &str, fingerprint: &str) -> String {
    let mut h = Sha256::new();
    h.update(FORMAT.as_bytes());
    h.update([0]);
    h.update(build().as_bytes());
    h.update([0]);
    h.update(repository.as_bytes());
    h.update([0]);
    h.update(fingerprint.as_bytes());
    let digest = h.finalize();
    format!("{}.json", hex(&digest[..16]))
}

/// This build of nodecast: its version and its executable's size and modification time.
pub fn build() -> &'static str {
    static BUILD: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    BUILD.get_or_init(|| {
        let meta = std::env::current_exe()
            .ok()
            .and_then(|p| std::fs::metadata(p).ok());
        let modified = meta
            .as_ref()
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_nanos());
        format!(
            "{}|{:?}|{modified:?}",
            env!("CARGO_PKG_VERSION"),
            meta.map(|m| m.len())
        )
    })
}

/// A hasher that feeds SHA-256, so a key is the same in every run of one build (the standard
/// library's hashers are keyed per process).
pub struct ContentHasher(Sha256);

impl ContentHasher {
    /// A hasher with nothing fed.
    pub fn new() -> Self {
        ContentHasher(Sha256::new())
    }

    /// Feeds `value`.
    pub fn feed(&mut self, value: &impl Hash) {
        value.hash(self);
    }

    /// The key of what was fed.
    pub fn key(self) -> Key {
        let digest = self.0.finalize();
        let mut key = [0; 16];
        key.copy_from_slice(&digest[..16]);
        key
    }
}

impl Hasher for ContentHasher {
    fn finish(&self) -> u64 {
        // Not used: the key is [`ContentHasher::key`].
        0
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}

fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    push_hex(&mut out, bytes);
    out
}

fn push_hex(out: &mut String, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0xf)]));
    }
}

fn unhex(text: &str) -> Option<Key> {
    if text.len() != 32 {
        return None;
    }
    let mut key = [0; 16];
    for (i, k) in key.iter_mut().enumerate() {
        *k = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(key)
}

/// The file's text: its header and every key, in order (written straight into the text: a
/// fleet's keys as JSON values first would take several times the text).
fn write(clean: &HashSet<Key>, name: &str) -> String {
    let mut keys: Vec<&Key> = clean.iter().collect();
    keys.sort_unstable();
    let mut out = format!(
        "{{\"format\":{},\"name\":{},\"clean\":[",
        Value::from(FORMAT),
        Value::from(name)
    );
    out.reserve(keys.len() * 35 + 2);
    for (i, key) in keys.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('"');
        push_hex(&mut out, &key[..]);
        out.push('"');
    }
    out.push_str("]}");
    out
}

/// The keys of a file's text, or `None` when any of it is not what [`write`] writes.
fn read(bytes: &[u8], name: &str) -> Option<HashSet<Key>> {
    let v: Value = serde_json::from_slice(bytes).ok()?;
    if v.get("format")?.as_str()? != FORMAT || v.get("name")?.as_str()? != name {
        return None;
    }
    v.get("clean")?
        .as_array()?
        .iter()
        .map(|k| unhex(k.as_str()?))
        .collect()
}

/// The least recently written files beyond `max` are removed.
fn evict(dir: &Path, max: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    if files.len() <= max {
        return;
    }
    files.sort();
    for (_, path) in &files[..files.len() - max] {
        let _ = std::fs::remove_file(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_is_what_serde_json_writes() {
        use serde_json::json;
        let keys: HashSet<Key> = [[0xab; 16], [0; 16], [0x10; 16]].into_iter().collect();
        let mut hexes: Vec<String> = keys.iter().map(|k| hex(k)).collect();
        hexes.sort();
        let expected = json!({"format": FORMAT, "name": "n\"x.json", "clean": hexes}).to_string();
        assert_eq!(write(&keys, "n\"x.json"), expected);
        assert_eq!(
            read(write(&keys, "n\"x.json").as_bytes(), "n\"x.json"),
            Some(keys)
        );
        assert_eq!(
            write(&HashSet::new(), "n"),
            json!({"format": FORMAT, "name": "n", "clean": []}).to_string()
        );
    }

    #[test]
    fn keys_read_back_as_written_and_anything_else_is_ignored() {
        let clean: HashSet<Key> = [[7; 16], [1; 16]].into_iter().collect();
        let text = write(&clean, "n.json");
        assert_eq!(read(text.as_bytes(), "n.json"), Some(clean));
        // Another file's name, a truncated text, another format, a bad key: ignored whole.
        assert!(read(text.as_bytes(), "other.json").is_none());
        assert!(read(&text.as_bytes()[..text.len() - 3], "n.json").is_none());
        let other = text.replace(FORMAT, "nodecast-validation-cache/0");
        assert!(read(other.as_bytes(), "n.json").is_none());
        let bad_key = text.replace(&hex(&[7; 16]), "07");
        assert!(read(bad_key.as_bytes(), "n.json").is_none());
    }

    #[test]
    fn only_a_result_with_nothing_to_say_is_kept() {
        let mut disk = Disk::at(
            Some(Path::new("/nonexistent-nodecast-cache")),
            Path::new("."),
        );
        disk.load("print");
        let id = crate::inventory::ObjectId {
            group: Default::default(),
            kind: "ConfigMap".into(),
            namespace: Some("default".into()),
            name: "c".into(),
            scope: Default::default(),
        };
        let skipped = super::super::engine::Skipped {
            pointer: "/spec".into(),
            rule: "self.password".into(),
            reason: "the rule yields String(\"hunter2\"), not a boolean".into(),
        };
        disk.record(
            "print",
            [1; 16],
            Some(&(Vec::new(), vec![(id, skipped)])),
            true,
        );
        disk.record("print", [2; 16], Some(&(Vec::new(), Vec::new())), true);
        disk.record("print", [3; 16], None, true);
        assert!(!disk.is_clean("print", &[1; 16]));
        assert!(disk.is_clean("print", &[2; 16]));
        assert!(disk.is_clean("print", &[3; 16]));
        assert!(!disk.is_clean("other print", &[2; 16]));
    }

    #[test]
    fn keys_are_the_same_in_every_run() {
        let key = |s: &str| {
            let mut h = ContentHasher::new();
            h.feed(&(s, 3usize, Some("x")));
            h.key()
        };
        assert_eq!(key("a"), key("a"));
        assert_ne!(key("a"), key("b"));
        assert_eq!(hex(&key("a")).len(), 32);
        assert_eq!(unhex(&hex(&key("a"))), Some(key("a")));
    }
}
