//! New, changed or pre-existing: a pull request fails only for what it introduces. Each head
//! finding is matched against the findings of the base revision linted on its own, by stable
//! identity (code, object, field — the baseline's fingerprint), never by line, so moving a
//! document or editing elsewhere in the file keeps the match.

use std::collections::HashMap;

use crate::diagnostic::{Diagnostic, Side, State};
use crate::diff::Diff;
use crate::fingerprint;
use crate::parse::ParsedSides;

/// Sets the state of every head finding against the base revision's findings `before`; returns
/// how many are pre-existing. A finding matches a base finding of the same fingerprint, in the
/// same file first, then anywhere (a moved object keeps its findings); each base finding matches
/// once. A matched finding on a field the change edited is `changed` (the change rewrote a place
/// that was already wrong: it counts like a new one).
pub fn classify(
    head: &mut [Diagnostic],
    before: &[Diagnostic],
    files: &ParsedSides,
    diff: &Diff,
) -> usize {
    let mut left: HashMap<(String, String), usize> = HashMap::new();
    let mut left_anywhere: HashMap<String, usize> = HashMap::new();
    for d in before {
        let fp = fingerprint::of(d, &[], &files.base);
        *left
            .entry((fp.clone(), d.location.path.clone()))
            .or_default() += 1;
        *left_anywhere.entry(fp).or_default() += 1;
    }
    let edited = edited_fields(diff);
    let identities: Vec<Option<fingerprint::Identity>> = head
        .iter()
        .map(|d| {
            (d.location.side == Side::Head)
                .then(|| fingerprint::identity(d, &files.base, &files.head))
        })
        .collect();
    let mut matched = vec![false; head.len()];
    // Same file first, so that of two findings with one fingerprint the one in the file that
    // already had it is the pre-existing one.
    for (i, d) in head.iter().enumerate() {
        let Some(id) = &identities[i] else { continue };
        let key = (id.fingerprint(), d.location.path.clone());
        if let Some(n) = left.get_mut(&key).filter(|n| **n > 0) {
            *n -= 1;
            if let Some(m) = left_anywhere.get_mut(&key.0) {
                *m = m.saturating_sub(1);
            }
            matched[i] = true;
        }
    }
    for (i, id) in identities.iter().enumerate() {
        let Some(id) = id.as_ref().filter(|_| !matched[i]) else {
            continue;
        };
        if let Some(n) = left_anywhere.get_mut(&id.fingerprint()).filter(|n| **n > 0) {
            *n -= 1;
            matched[i] = true;
        }
    }
    let mut pre_existing = 0;
    for (i, d) in head.iter_mut().enumerate() {
        d.state = match (&identities[i], matched[i]) {
            (Some(id), true) if touches(&edited, id) => State::Changed,
            (Some(_), true) => {
                pre_existing += 1;
                State::PreExisting
            }
            _ => State::New,
        };
    }
    pre_existing
}

/// Object (as findings name it) → JSON pointers of the fields the change edited.
fn edited_fields(diff: &Diff) -> HashMap<String, Vec<&str>> {
    let mut out: HashMap<String, Vec<&str>> = HashMap::new();
    for c in &diff.changes {
        out.entry(c.id.to_string())
            .or_default()
            .extend(c.fields.iter().map(|f| f.path.as_str()));
    }
    out
}

/// Whether the change edited the finding's field, a field inside it, or a field containing it.
fn touches(edited: &HashMap<String, Vec<&str>>, id: &fingerprint::Identity) -> bool {
    if id.field.is_empty() || !id.field.starts_with('/') {
        return false;
    }
    edited.get(&id.object).is_some_and(|fields| {
        fields
            .iter()
            .any(|f| within(&id.field, f) || within(f, &id.field))
    })
}

/// Whether pointer `inner` is `outer` or lies below it.
fn within(inner: &str, outer: &str) -> bool {
    inner == outer || (inner.starts_with(outer) && inner.as_bytes().get(outer.len()) == Some(&b'/'))
}

#[cfg(test)]
mod tests {
    use super::within;

    #[test]
    fn pointers_nest_by_whole_segments() {
        assert!(within("/spec/replicas", "/spec"));
        assert!(within("/spec", "/spec"));
        assert!(!within("/specs", "/spec"));
        assert!(!within("/spec", "/spec/replicas"));
    }
}
