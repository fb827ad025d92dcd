//! Records in the cache folder (`<cache>/scope/`), one file per base revision and settings.
//!
//! A record is named by a SHA-256 of everything that decides what the revision's own evaluation
//! found: the record format, this build of nodecast, the revision's tree, the folder checked, and
//! every setting (configuration, schemas, renderer). It never changes a result: a file is used
//! only when its header names the same key and its body has the recorded length and SHA-256;
//! anything else (corrupt, foreign, truncated, of another format) is ignored and overwritten.
//! Writes go to a temporary file renamed into place, so concurrent runs never read half a
//! record. At most [`MAX_RECORDS`] are kept (the least recently used go first). Deleting the
//! folder is always safe: the next check is whole and writes a new record.

use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::record::{Record, FORMAT};

/// Records kept (the least recently used are removed beyond it).
pub const MAX_RECORDS: usize = 64;

const MAGIC: &str = "nodecast-scope-record";

/// The records of one cache folder.
pub struct Store {
    dir: PathBuf,
}

impl Store {
    /// The records under `cache_dir`; `None` when the folder cannot be made.
    pub fn open(cache_dir: &Path) -> Option<Store> {
        let dir = cache_dir.join("scope");
        std::fs::create_dir_all(&dir).ok()?;
        Some(Store { dir })
    }

    /// The key of a record: the format and `parts` (each fed with its length).
    pub fn key(parts: &[&[u8]]) -> String {
        let mut h = Sha256::new();
        h.update(MAGIC.as_bytes());
        h.update(FORMAT.to_le_bytes());
        for p in parts {
            h.update((p.len() as u64).to_le_bytes());
            h.update(p);
        }
        hex(&h.finalize())
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.rec"))
    }

    /// The record stored under `key`, when a valid one is there.
    pub fn get(&self, key: &str) -> Option<Record> {
        let path = self.path(key);
        let bytes = std::fs::read(&path).ok()?;
        let newline = bytes.iter().position(|&b| b == b'\n')?;
        let header = std::str::from_utf8(&bytes[..newline]).ok()?;
        let body = &bytes[newline + 1..];
        let mut fields = header.split(' ');
        let ok = fields.next() == Some(MAGIC)
            && fields.next() == Some(key)
            && fields.next() == Some(&body.len().to_string())
            && fields.next() == Some(&hex(&Sha256::digest(body)))
            && fields.next().is_none();
        if !ok {
            return None;
        }
        let record: Record = postcard::from_bytes(body).ok()?;
        if record.format != FORMAT {
            return None;
        }
        // Used now: the last to be evicted.
        if let Ok(f) = std::fs::File::options().write(true).open(&path) {
            let _ = f.set_modified(std::time::SystemTime::now());
        }
        Some(record)
    }

    /// Whether a record is stored under `key` (valid or not: an invalid one is replaced by the
    /// next whole check of its revision).
    pub fn has(&self, key: &str) -> bool {
        self.path(key).metadata().is_ok_and(|m| m.len() > 0)
    }

    /// Stores a record under `key` (atomically), then keeps the folder bounded.
    pub fn put(&self, key: &str, record: &Record) {
        let Ok(size) = postcard::experimental::serialized_size(record) else {
            return;
        };
        let Ok(mut tmp) = tempfile::NamedTempFile::new_in(&self.dir) else {
            return;
        };
        if write_record(tmp.as_file_mut(), key, size, record).is_none() {
            return;
        }
        if tmp.persist(self.path(key)).is_err() {
            return;
        }
        self.evict(MAX_RECORDS);
    }

    /// Removes the least recently used records beyond `max`.
    fn evict(&self, max: usize) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "rec"))
            .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
            .collect();
        if files.len() <= max {
            return;
        }
        files.sort();
        for (_, p) in &files[..files.len() - max] {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Writes a record's header and body. The body is streamed to the file and hashed on the way,
/// not first serialized into memory: it was 2.5 MB on the large fleet, held at the check's
/// highest point. Its digest (SHA-256, 32 bytes in hex), known only at the end, goes into the
/// place the header kept for it.
fn write_record(file: &mut std::fs::File, key: &str, size: usize, record: &Record) -> Option<()> {
    use std::io::{Seek, SeekFrom};
    let head = format!("{MAGIC} {key} {size} ");
    file.write_all(head.as_bytes()).ok()?;
    file.write_all(&[b'0'; 2 * 32]).ok()?;
    file.write_all(b"\n").ok()?;
    let body = postcard::to_io(
        record,
        Hashing {
            sha: Sha256::new(),
            written: 0,
            out: std::io::BufWriter::new(&mut *file),
        },
    )
    .ok()?;
    let Hashing { sha, written, out } = body;
    let file = out.into_inner().ok()?;
    // A size that was not the body's would make the record unreadable; keep none instead.
    (written == size).then_some(())?;
    file.seek(SeekFrom::Start(head.len() as u64)).ok()?;
    file.write_all(hex(&sha.finalize()).as_bytes()).ok()
}

/// A writer that hashes and counts what it passes on.
struct Hashing<W: Write> {
    sha: Sha256,
    written: usize,
    out: W,
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(buf)?;
        self.sha.update(&buf[..n]);
        self.written += n;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(file_count: u64) -> Record {
        Record {
            format: FORMAT,
            file_count,
            ..Record::default()
        }
    }

    #[test]
    fn a_record_reads_back_and_anything_else_is_ignored() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let store = Store::open(dir.path()).expect("store");
        let key = Store::key(&[b"tree", b"settings"]);
        assert_ne!(key, Store::key(&[b"tree", b"other settings"]));
        assert_ne!(Store::key(&[b"ab", b"c"]), Store::key(&[b"a", b"bc"]));
        assert!(store.get(&key).is_none());
        store.put(&key, &record(42));
        assert_eq!(store.get(&key).map(|r| r.file_count), Some(42));
        // Another key's file under this name, a truncated body, a changed byte: ignored.
        let path = store.path(&key);
        let good = std::fs::read(&path).expect("read");
        let other = Store::key(&[b"other"]);
        std::fs::copy(&path, store.path(&other)).expect("copy");
        assert!(store.get(&other).is_none());
        std::fs::write(&path, &good[..good.len() - 1]).expect("write");
        assert!(store.get(&key).is_none());
        let mut flipped = good.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        std::fs::write(&path, &flipped).expect("write");
        assert!(store.get(&key).is_none());
        std::fs::write(&path, b"garbage").expect("write");
        assert!(store.get(&key).is_none());
        store.put(&key, &record(43));
        assert_eq!(store.get(&key).map(|r| r.file_count), Some(43));
    }

    /// The compact encodings of a record (front-coded paths, one byte per common island, flat
    /// lists) give back exactly what was stored, in every state they encode; a state byte that
    /// is none of them makes the record unreadable rather than wrong.
    #[test]
    fn a_record_s_compact_parts_read_back_exactly() {
        use super::super::record::{Finding, Found, Island};
        let found = |n: usize, suppressed: u32| Found {
            findings: (0..n)
                .map(|i| Finding {
                    fingerprint: format!("K001:{i}"),
                    path: "a.yaml".into(),
                    object: "ConfigMap/x/y".into(),
                    pointer: String::new(),
                })
                .collect(),
            suppressed,
        };
        let islands = vec![
            Island {
                alone: None,
                unchanged: None,
            },
            Island {
                alone: Some(found(0, 0)),
                unchanged: None,
            },
            Island {
                alone: None,
                unchanged: Some(found(0, 0)),
            },
            Island {
                alone: Some(found(0, 0)),
                unchanged: Some(found(0, 0)),
            },
            Island {
                alone: Some(found(2, 0)),
                unchanged: None,
            },
            Island {
                alone: Some(found(0, 1)),
                unchanged: Some(found(0, 0)),
            },
            Island {
                alone: Some(found(0, 0)),
                unchanged: Some(found(1, 3)),
            },
        ];
        let stored = Record {
            format: FORMAT,
            paths: ["a/b.yaml", "a/bé/c.yaml", "a/bé/d.yaml", "z.yaml"]
                .into_iter()
                .map(Into::into)
                .collect(),
            readers: vec![vec![], vec![1, 2], vec![], vec![0]],
            root_inputs: vec![vec![3], vec![], vec![0, 1, 2]],
            islands: islands.clone(),
            ..Record::default()
        };
        let dir = tempfile::tempdir().expect("temporary folder");
        let store = Store::open(dir.path()).expect("store");
        let key = Store::key(&[b"compact"]);
        store.put(&key, &stored);
        let read = store.get(&key).expect("read back");
        assert_eq!(read.paths, stored.paths);
        assert_eq!(read.readers, stored.readers);
        assert_eq!(read.root_inputs, stored.root_inputs);
        let pairs = |x: &[Island]| -> Vec<(Option<Found>, Option<Found>)> {
            x.iter()
                .map(|i| (i.alone.clone(), i.unchanged.clone()))
                .collect()
        };
        assert_eq!(pairs(&read.islands), pairs(&islands));
        // The islands' states follow the lists of lengths; a state byte of 9 is no state.
        let mut body = postcard::to_allocvec(&stored).expect("encode");
        let states = [0u8, 1, 2, 3, 4, 4, 4];
        let at = body
            .windows(states.len())
            .position(|w| w == states)
            .expect("the states are stored as bytes");
        body[at] = 9;
        assert!(postcard::from_bytes::<Record>(&body).is_err());
    }

    #[test]
    fn the_folder_keeps_the_most_recently_used() {
        let dir = tempfile::tempdir().expect("temporary folder");
        let store = Store::open(dir.path()).expect("store");
        let keys: Vec<String> = (0..5).map(|i| Store::key(&[&[i]])).collect();
        for (i, k) in keys.iter().enumerate() {
            store.put(k, &record(i as u64));
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(store.get(&keys[0]).is_some(), "read: now the most recent");
        std::thread::sleep(std::time::Duration::from_millis(20));
        store.evict(3);
        assert!(store.get(&keys[0]).is_some());
        assert!(store.get(&keys[1]).is_none());
        assert!(store.get(&keys[2]).is_none());
        assert!(store.get(&keys[4]).is_some());
    }
}
