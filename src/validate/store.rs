//! Schema validation results kept between runs in the cache folder (SCOPE part 2), so a one-off
//! check — a pre-commit hook, a CI run with the cache restored — validates only the documents no
//! earlier run validated under the same schemas. On the large generated fleet validation was a
//! sixth of a check; an unchanged document costs a lookup instead.
//!
//! A result is kept under a **content key**: the blob its document was parsed from (only a parse
//! that depends on the blob alone, [`crate::parse::ParsedFile::blob`]), the document's range in
//! it, the same for the base document where the schema's transition rules read it, and everything
//! else [`super::Target::key`] names (identity, `apiVersion`, path, label, feature set, patch,
//! which CRD judged it). Only results without findings are kept (nearly every document's): a
//! finding's text may quote a value of the document, a Secret's or a private field's among them;
//! a document with findings is validated again. Results of one run's schemas and settings share one file, named by a
//! SHA-256 of the validation fingerprint (settings, CRDs, `--schemas`) and of the nodecast build
//! (version, and the executable's size and time, so a rebuilt binary never reads an older one's
//! results). Rendered and wrapped objects are never kept (their parse is the run's own).
//!
//! The cache never changes a result: a file that does not parse, names another format or another
//! fingerprint, or holds an entry that does not read back is ignored whole. A run writes its file
//! only when it validated something afresh, with exactly the results it used (so the file follows
//! the repository and stays bounded by it), to a temporary file renamed into place (concurrent
//! runs never see half a file; the last one wins). At most [`MAX_FILES`] files are kept, the
//! least recently written evicted. Deleting the folder is always safe.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::engine::Skipped;
use super::ObjectResult;

/// The format of a file; part of its name and its header, so a new format never reads an old one.
const FORMAT: &str = "nodecast-validation-cache/1";

/// Most result files kept (one per set of schemas and settings a repository was checked with).
pub const MAX_FILES: usize = 16;

/// A document's content key (128 bits of a SHA-256).
pub type Key = [u8; 16];

/// A result without findings as kept: the rules that could not be evaluated (without the
/// object's identity, which the key already names and the reader puts back).
pub type Kept = Vec<Skipped>;

/// The results on disk for the run's fingerprints, and those the run used.
#[derive(Default)]
pub struct Disk {
    dir: Option<PathBuf>,
    files: HashMap<String, File>,
}

/// One fingerprint's results.
#[derive(Default)]
struct File {
    loaded: HashMap<Key, Kept>,
    used: HashMap<Key, Kept>,
    computed: bool,
}

impl Disk {
    /// Results kept under `cache_dir` (`None`: nothing is read or written).
    pub fn at(cache_dir: Option<&Path>) -> Self {
        Disk {
            dir: cache_dir.map(|d| d.join("validation")),
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
        let name = file_name(fingerprint);
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

    /// The kept result of `key` under `fingerprint`.
    pub fn get(&self, fingerprint: &str, key: &Key) -> Option<&Kept> {
        let file = self.files.get(fingerprint)?;
        file.used.get(key).or_else(|| file.loaded.get(key))
    }

    /// Records a result the run used; `computed` when it was validated afresh. A result with
    /// findings is not kept (see the module's documentation).
    pub fn record(&mut self, fingerprint: &str, key: Key, result: &ObjectResult, computed: bool) {
        let Some(file) = self.files.get_mut(fingerprint) else {
            return;
        };
        if result.0.is_empty() {
            file.computed |= computed;
            file.used
                .insert(key, result.1.iter().map(|(_, s)| s.clone()).collect());
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
            let name = file_name(fingerprint);
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

/// A file's name: the format, the build and the validation fingerprint.
fn file_name(fingerprint: &str) -> String {
    let mut h = Sha256::new();
    h.update(FORMAT.as_bytes());
    h.update([0]);
    h.update(build().as_bytes());
    h.update([0]);
    h.update(fingerprint.as_bytes());
    let digest = h.finalize();
    format!("{}.json", hex(&digest[..16]))
}

/// This build of nodecast: its version and its executable's size and modification time.
fn build() -> &'static str {
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
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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

/// The file's text: its header and every result.
fn write(results: &HashMap<Key, Kept>, name: &str) -> String {
    let mut entries: Vec<(&Key, &Kept)> = results.iter().collect();
    entries.sort_by_key(|e| e.0);
    let results: serde_json::Map<String, Value> = entries
        .into_iter()
        .map(|(key, skipped)| {
            let skipped: Vec<Value> = skipped
                .iter()
                .map(|s| json!([s.pointer, s.rule, s.reason]))
                .collect();
            (hex(key), Value::Array(skipped))
        })
        .collect();
    json!({"format": FORMAT, "name": name, "results": results}).to_string()
}

/// The results of a file's text, or `None` when any of it is not what [`write`] writes.
fn read(bytes: &[u8], name: &str) -> Option<HashMap<Key, Kept>> {
    let v: Value = serde_json::from_slice(bytes).ok()?;
    if v.get("format")?.as_str()? != FORMAT || v.get("name")?.as_str()? != name {
        return None;
    }
    let mut out = HashMap::new();
    for (key, skipped) in v.get("results")?.as_object()? {
        let skipped = skipped
            .as_array()?
            .iter()
            .map(|s| {
                let [pointer, rule, reason] = s.as_array()?.as_slice() else {
                    return None;
                };
                Some(Skipped {
                    pointer: pointer.as_str()?.to_string(),
                    rule: rule.as_str()?.to_string(),
                    reason: reason.as_str()?.to_string(),
                })
            })
            .collect::<Option<Vec<_>>>()?;
        out.insert(unhex(key)?, skipped);
    }
    Some(out)
}

/// A kept result as the run uses it: no findings, and the object's identity put back on each
/// skipped rule.
pub fn result_of(kept: &Kept, id: &crate::inventory::ObjectId) -> ObjectResult {
    (
        Vec::new(),
        kept.iter().map(|s| (id.clone(), s.clone())).collect(),
    )
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
    fn a_result_reads_back_as_written_and_anything_else_is_ignored() {
        let skipped = Skipped {
            pointer: "/spec".into(),
            rule: "self.x \"quoted\" é".into(),
            reason: "r".into(),
        };
        let mut results = HashMap::new();
        results.insert([7; 16], vec![skipped.clone()]);
        results.insert([1; 16], Vec::new());
        let text = write(&results, "n.json");
        let back = read(text.as_bytes(), "n.json").expect("reads back");
        assert_eq!(back.len(), 2);
        assert_eq!(back[&[7; 16]], vec![skipped]);
        assert_eq!(back[&[1; 16]], Vec::new());
        // Another file's name, a truncated text, another format, a bad key: ignored whole.
        assert!(read(text.as_bytes(), "other.json").is_none());
        assert!(read(&text.as_bytes()[..text.len() - 3], "n.json").is_none());
        let other = text.replace(FORMAT, "nodecast-validation-cache/0");
        assert!(read(other.as_bytes(), "n.json").is_none());
        let bad_key = text.replace(&hex(&[7; 16]), "07");
        assert!(read(bad_key.as_bytes(), "n.json").is_none());
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
