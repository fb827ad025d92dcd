//! A sha256 over a NodePool's normalised rollout inputs, so users can audit why two revisions are
//! or are not equivalent for the NodePool controller.

use sha2::{Digest, Sha256};

use super::inputs::{Side, Trigger};

/// The rollout fingerprint of one revision of a NodePool (lower-case hex).
pub fn of(side: &Side<'_>) -> String {
    let mut h = Sha256::new();
    for (key, c) in &side.components {
        if c.trigger == Trigger::Never {
            continue;
        }
        h.update(key.as_bytes());
        h.update([0]);
        h.update(c.value.as_bytes());
        h.update([0]);
    }
    let mut docs: Vec<&str> = side.docs.iter().map(|d| d.value.as_str()).collect();
    docs.sort_unstable();
    for d in docs {
        h.update(b"doc\0");
        h.update(d.as_bytes());
        h.update([0]);
    }
    let mut refs: Vec<String> = side
        .refs
        .iter()
        .filter(|r| !r.resolved)
        .map(|r| format!("{}:{}", r.key, r.name))
        .collect();
    refs.sort_unstable();
    for r in refs {
        h.update(b"unresolved\0");
        h.update(r.as_bytes());
        h.update([0]);
    }
    let mut invalid: Vec<String> = side
        .invalid
        .iter()
        .map(|d| format!("{}:{}", d.cm, d.message))
        .collect();
    invalid.sort_unstable();
    for d in invalid {
        h.update(b"invalid\0");
        h.update(d.as_bytes());
        h.update([0]);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}
