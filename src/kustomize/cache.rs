//! A content-addressed cache of Kustomize renders, outside the repository, so a root whose inputs
//! did not change since any earlier run is not rendered again (each `kubectl kustomize` costs
//! about half a second; a repository of hundreds of overlays paid minutes on every check).
//!
//! The key is a SHA-256 of everything that decides the output: the cache format, the root and
//! the bytes of every file of its closure (the plan's fingerprint), and the renderer (its path,
//! size and modification time, so an upgraded `kubectl` misses). Only successful renders are
//! stored. The cache never changes a result: an entry is used only when its header names the
//! same key and its body has the recorded length and SHA-256 — anything else (corrupt, foreign,
//! truncated, another version) is a miss and is overwritten. Writes go to a temporary file in the
//! same folder and are renamed into place, so concurrent runs never see half an entry. The
//! folder is bounded: after a run that wrote entries, the oldest are removed until it holds at
//! most [`MAX_BYTES`]. Deleting the folder is always safe.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use sha2::{Digest, Sha256};

use super::run::Renderer;

/// The format of an entry; part of every key and header, so a new format never reads an old one.
const FORMAT: &str = "nodecast-render-cache/1";

/// Most bytes the render folder keeps (oldest entries are evicted beyond it).
pub const MAX_BYTES: u64 = 512 * 1024 * 1024;

/// The cache folder nodecast uses when none is given: `$XDG_CACHE_HOME/nodecast`, else the
/// platform's cache folder (`~/.cache`, `~/Library/Caches`, `%LOCALAPPDATA%`).
pub fn default_dir() -> Option<PathBuf> {
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(dirs::cache_dir)
        .map(|d| d.join("nodecast"))
}

/// What names a renderer in keys: its path, kind, size and modification time (an upgraded
/// `kubectl` misses).
pub fn identity(renderer: &Renderer) -> String {
    let meta = std::fs::metadata(&renderer.program).ok();
    let modified = meta
        .as_ref()
        .and_then(|m| m.modified().ok())
        .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!(
        "{}|{}|{}|{}",
        renderer.program.display(),
        renderer.standalone,
        meta.map(|m| m.len()).unwrap_or(0),
        modified
    )
}

/// An open render cache.
#[derive(Clone, Debug)]
pub struct Cache {
    dir: PathBuf,
    renderer: String,
}

impl Cache {
    /// The render cache under `root` for this renderer; `None` when the folder cannot be made
    /// (the run then renders everything, as without a cache).
    pub fn open(root: &Path, renderer: &Renderer) -> Option<Cache> {
        let dir = root.join("render");
        std::fs::create_dir_all(&dir).ok()?;
        Some(Cache {
            dir,
            renderer: identity(renderer),
        })
    }

    /// The key of a render: the cache format, the renderer and the plan's input fingerprint.
    pub fn key(&self, fingerprint: &[u8; 32]) -> String {
        let mut h = Sha256::new();
        h.update(FORMAT.as_bytes());
        h.update([0]);
        h.update(self.renderer.as_bytes());
        h.update([0]);
        h.update(fingerprint);
        hex(&h.finalize())
    }

    /// The stored render for `key`, when a valid entry exists.
    pub fn get(&self, key: &str) -> Option<String> {
        let path = self.dir.join(key);
        let bytes = std::fs::read(&path).ok()?;
        let newline = bytes.iter().position(|&b| b == b'\n')?;
        let header = std::str::from_utf8(&bytes[..newline]).ok()?;
        let body = &bytes[newline + 1..];
        let mut parts = header.split(' ');
        let valid = parts.next() == Some(FORMAT)
            && parts.next() == Some(key)
            && parts.next().and_then(|l| l.parse::<usize>().ok()) == Some(body.len())
            && parts.next() == Some(hex(&Sha256::digest(body)).as_str())
            && parts.next().is_none();
        if !valid {
            return None;
        }
        // Recently used entries are the last to be evicted.
        if let Ok(f) = std::fs::File::options().append(true).open(&path) {
            let _ = f.set_modified(SystemTime::now());
        }
        String::from_utf8(body.to_vec()).ok()
    }

    /// Stores a render atomically; failures only cost the next run a render.
    pub fn put(&self, key: &str, text: &str) {
        let Ok(mut tmp) = tempfile::NamedTempFile::new_in(&self.dir) else {
            return;
        };
        let header = format!(
            "{FORMAT} {key} {} {}\n",
            text.len(),
            hex(&Sha256::digest(text.as_bytes()))
        );
        if tmp.write_all(header.as_bytes()).is_err() || tmp.write_all(text.as_bytes()).is_err() {
            return;
        }
        let _ = tmp.persist(self.dir.join(key));
    }

    /// Removes the least recently used entries until the folder holds at most `max` bytes.
    pub fn evict(&self, max: u64) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let mut files: Vec<(SystemTime, u64, PathBuf)> = entries
            .filter_map(Result::ok)
            .filter_map(|e| {
                let meta = e.metadata().ok()?;
                meta.is_file().then(|| {
                    (
                        meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
                        meta.len(),
                        e.path(),
                    )
                })
            })
            .collect();
        let mut total: u64 = files.iter().map(|f| f.1).sum();
        if total <= max {
            return;
        }
        files.sort();
        for (_, len, path) in files {
            if total <= max {
                break;
            }
            if std::fs::remove_file(&path).is_ok() {
                total = total.saturating_sub(len);
            }
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache(dir: &Path) -> Cache {
        Cache::open(
            dir,
            &Renderer {
                program: PathBuf::from("/nonexistent/kubectl"),
                standalone: false,
            },
        )
        .expect("opens")
    }

    #[test]
    fn stores_and_reads_back_and_refuses_what_it_did_not_write() {
        let tmp = tempfile::tempdir().expect("tmp");
        let c = cache(tmp.path());
        let key = c.key(&[7; 32]);
        assert_eq!(c.get(&key), None);
        c.put(&key, "apiVersion: v1\nkind: ConfigMap\n");
        assert_eq!(
            c.get(&key).as_deref(),
            Some("apiVersion: v1\nkind: ConfigMap\n")
        );
        // Another fingerprint or renderer is another key.
        assert_ne!(c.key(&[8; 32]), key);
        let other = Cache::open(
            tmp.path(),
            &Renderer {
                program: PathBuf::from("/nonexistent/kustomize"),
                standalone: true,
            },
        )
        .expect("opens");
        assert_ne!(other.key(&[7; 32]), key);
        // Corrupt, truncated and foreign entries are misses.
        let path = tmp.path().join("render").join(&key);
        let good = std::fs::read(&path).expect("entry");
        std::fs::write(&path, &good[..good.len() - 3]).expect("truncate");
        assert_eq!(c.get(&key), None);
        let mut flipped = good.clone();
        let last = flipped.len() - 2;
        flipped[last] ^= 1;
        std::fs::write(&path, &flipped).expect("flip");
        assert_eq!(c.get(&key), None);
        std::fs::write(&path, b"garbage").expect("garbage");
        assert_eq!(c.get(&key), None);
        let foreign = String::from_utf8_lossy(&good).replacen(&key, &c.key(&[8; 32]), 1);
        std::fs::write(&path, foreign).expect("foreign");
        assert_eq!(c.get(&key), None);
    }

    #[test]
    fn evicts_the_least_recently_used_beyond_the_bound() {
        let tmp = tempfile::tempdir().expect("tmp");
        let c = cache(tmp.path());
        let keys: Vec<String> = (0u8..4).map(|i| c.key(&[i; 32])).collect();
        for (i, k) in keys.iter().enumerate() {
            c.put(k, &"x".repeat(1000));
            let when = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000 + i as u64);
            let f = std::fs::File::options()
                .append(true)
                .open(tmp.path().join("render").join(k))
                .expect("entry");
            f.set_modified(when).expect("mtime");
        }
        c.evict(2_500);
        let left: Vec<bool> = keys.iter().map(|k| c.get(k).is_some()).collect();
        assert_eq!(left, [false, false, true, true]);
    }
}
