//! Whether a text shows a private value of a file a scoped check left out.
//!
//! A whole check masks every private value of both revisions wherever it appears in its output.
//! A scoped check masks those of the files it reads; for the others, the record keeps a keyed
//! hash of each value (a polynomial hash modulo 2⁶¹−1 with a random base drawn for the record,
//! never the value) and its length. Every text a scoped check could print is probed at each
//! position for each length: a hit means a value it cannot mask may be shown, and the check is
//! made whole instead (which masks it).

use std::collections::HashSet;

/// The modulus: a Mersenne prime, so reduction is a shift and an add.
const P: u64 = (1 << 61) - 1;

fn mul(a: u64, b: u64) -> u64 {
    let r = u128::from(a) * u128::from(b);
    let s = (r as u64 & P) + (r >> 61) as u64;
    if s >= P {
        s - P
    } else {
        s
    }
}

fn add(a: u64, b: u64) -> u64 {
    let s = a + b;
    if s >= P {
        s - P
    } else {
        s
    }
}

/// A new random base for a record's hashes (from the operating system's randomness, through the
/// standard library's keyed hasher).
pub fn new_key() -> u64 {
    use std::hash::BuildHasher;
    let r = std::hash::RandomState::new().hash_one(std::process::id());
    (r % (P - (1 << 20))) + (1 << 20)
}

/// The hash of `bytes` with base `key`.
pub fn hash(key: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0, |h, &b| add(mul(h, key), u64::from(b) + 1))
}

/// The hashes of the private values a scoped check cannot mask itself.
pub struct Probe {
    key: u64,
    lengths: Vec<usize>,
    hashes: HashSet<u64>,
    /// A bit per hash's top bits: most positions are told apart here, without hashing the hash
    /// again for the set (the probe looks at every position of every text for every length).
    filter: Vec<u64>,
}

/// Bits of the filter: 2^20 (128 KiB), a few per thousand set for a record's thousands of values.
const FILTER_BITS: u32 = 20;

fn slot(h: u64) -> (usize, u64) {
    let b = h >> (61 - FILTER_BITS);
    ((b >> 6) as usize, 1 << (b & 63))
}

fn filter_of(hashes: &HashSet<u64>) -> Vec<u64> {
    let mut filter = vec![0u64; 1 << (FILTER_BITS - 6)];
    for &h in hashes {
        let (w, bit) = slot(h);
        filter[w] |= bit;
    }
    filter
}

impl Probe {
    /// A probe for these hashes (made with `key`) of values of these lengths.
    pub fn new(key: u64, lengths: &[u32], hashes: impl IntoIterator<Item = u64>) -> Self {
        let hashes: HashSet<u64> = hashes.into_iter().collect();
        Probe {
            filter: filter_of(&hashes),
            key,
            lengths: if hashes.is_empty() {
                Vec::new()
            } else {
                lengths
                    .iter()
                    .map(|&l| l as usize)
                    .filter(|&l| l > 0)
                    .collect()
            },
            hashes,
        }
    }

    /// This probe without the values an evaluation masks itself (those of the files it reads):
    /// its own masking covers them wherever they appear, as a whole check's does.
    pub fn without(
        &self,
        own: &[&crate::inventory::Inventory],
        private: &crate::redact::Extra,
    ) -> Probe {
        let mut hashes = self.hashes.clone();
        for inv in own {
            for (_, needles) in crate::redact::needles_by_object(inv, private) {
                for n in needles {
                    hashes.remove(&hash(self.key, n.as_bytes()));
                }
            }
        }
        Probe {
            filter: filter_of(&hashes),
            key: self.key,
            lengths: if hashes.is_empty() {
                Vec::new()
            } else {
                self.lengths.clone()
            },
            hashes,
        }
    }

    /// Whether anything a report could print of an evaluation (findings, fixes, forecast,
    /// changes, and the files' texts its code frames are cut from) holds one of the values.
    pub fn hits_outcome(
        &self,
        diagnostics: &mut [crate::diagnostic::Diagnostic],
        forecast: &mut [crate::forecast::Impact],
        diff: &mut crate::diff::Diff,
        files: &crate::parse::ParsedSides,
    ) -> bool {
        if self.lengths.is_empty() {
            return false;
        }
        let mut hit = false;
        crate::redact::texts(diagnostics, forecast, diff, &mut |s| {
            hit = hit || self.hits(s)
        });
        hit || diagnostics.iter().any(|d| {
            d.fix
                .as_ref()
                .is_some_and(|f| self.hits(&f.title) || self.hits(&f.replacement))
        }) || {
            // A content both revisions hold is one parsed file: probed once.
            use rayon::prelude::*;
            let mut seen = HashSet::new();
            let texts: Vec<&str> = files
                .base
                .iter()
                .chain(&files.head)
                .filter(|f| seen.insert(std::sync::Arc::as_ptr(&f.parsed)))
                .filter_map(|f| f.parsed.text.as_deref())
                .collect();
            texts.par_iter().any(|t| self.hits(t))
        }
    }

    /// Whether `h` is one of the hashes.
    fn holds(&self, h: u64) -> bool {
        let (w, bit) = slot(h);
        self.filter[w] & bit != 0 && self.hashes.contains(&h)
    }

    /// Whether `text` holds, at some position, a value with one of the hashes.
    pub fn hits(&self, text: &str) -> bool {
        let bytes = text.as_bytes();
        self.lengths.iter().any(|&len| {
            if bytes.len() < len {
                return false;
            }
            // key^(len-1), to take the leaving byte out.
            let top = (1..len).fold(1, |p, _| mul(p, self.key));
            let mut h = hash(self.key, &bytes[..len]);
            if self.holds(h) {
                return true;
            }
            for i in len..bytes.len() {
                let out = mul(u64::from(bytes[i - len]) + 1, top);
                h = add(mul(add(h, P - out), self.key), u64::from(bytes[i]) + 1);
                if self.holds(h) {
                    return true;
                }
            }
            false
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_found_at_any_position_and_nothing_else_is() {
        let key = new_key();
        let probe = Probe::new(
            key,
            &[8, 11],
            [hash(key, b"hunter22"), hash(key, b"s3cr3t-t0k3")],
        );
        assert!(probe.hits("hunter22"));
        assert!(probe.hits("password: hunter22 (old)"));
        assert!(probe.hits("the token s3cr3t-t0k3"));
        assert!(!probe.hits("hunter2"));
        assert!(!probe.hits("Hunter22 hunter21 unter22h"));
        assert!(!probe.hits(""));
        assert!(Probe::new(key, &[8], []).lengths.is_empty());
    }

    #[test]
    fn rolling_equals_hashing_each_window() {
        let key = new_key();
        let text = "apiVersion: v1\nkind: Secret\ndata: {a: ZmFrZQ==}\n";
        for len in 1..text.len() {
            for start in 0..=text.len() - len {
                let probe = Probe::new(
                    key,
                    &[len as u32],
                    [hash(key, &text.as_bytes()[start..start + len])],
                );
                assert!(probe.hits(text), "{len} at {start}");
            }
        }
    }
}
