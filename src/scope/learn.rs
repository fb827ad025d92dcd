//! What a whole check teaches: the records of both its revisions. The base's islands are all
//! known on their own (a whole check lints the base on its own); an island the change does not
//! reach — the same producers, holding the same objects, reading no changed file, on both sides
//! — is also known unchanged (its head findings), and so is the head's same island. Every other
//! island is pending: the next scoped check evaluates it.

use std::collections::BTreeSet;

use super::record::{
    by_island, kept_unchanged, unchanged_within_alone, Attribution, Finding, Found, Record,
    Revision,
};
use crate::diagnostic::Diagnostic;
use crate::parse::ParsedSides;

/// The findings a whole check made, with what suppression comments dropped.
pub struct Findings<'a> {
    /// Reported (all states).
    pub reported: &'a [Diagnostic],
    /// Dropped by suppressions.
    pub suppressed: &'a [Diagnostic],
}

/// The records of a whole check's base and head.
pub fn records(
    base: &Revision<'_>,
    head: &Revision<'_>,
    files: &ParsedSides,
    alone: Findings<'_>,
    reported: Findings<'_>,
    changed: &BTreeSet<String>,
) -> (Record, Record) {
    let (mut a, mut b) = rayon::join(|| Record::of(base), || Record::of(head));
    let (found, unclear) = by_island(
        &Attribution::for_findings(&a, &[base.inventory], &[alone.reported, alone.suppressed]),
        alone.reported,
        alone.suppressed,
        |d| Finding::of(d, &[], &files.base),
    );
    for (i, x) in a.islands.iter_mut().enumerate() {
        let i = i as u32;
        if !unclear.contains(&i) {
            x.alone = Some(found.get(&i).cloned().unwrap_or_default());
        }
    }
    let keep: Vec<Diagnostic> = reported
        .reported
        .iter()
        .filter(|d| !["C101", "C102", "C105"].contains(&d.code))
        .cloned()
        .collect();
    let on_b = Attribution::for_findings(
        &b,
        &[base.inventory, head.inventory],
        &[&keep, reported.suppressed],
    );
    let (unchanged, unclear_b) = by_island(&on_b, &keep, reported.suppressed, |d| {
        Finding::of(d, &files.base, &files.head)
    });
    // Islands of the head with a finding that is not pre-existing stay pending.
    let mut irregular: BTreeSet<u32> = unclear_b;
    for d in &keep {
        if !kept_unchanged(d) {
            irregular.extend(on_b.islands(d));
        }
    }
    for (ia, ib) in same_islands(&a, &b, changed) {
        if irregular.contains(&ib) {
            continue;
        }
        let u: Found = unchanged.get(&ib).cloned().unwrap_or_default();
        let matched = a.islands[ia as usize]
            .alone
            .as_ref()
            .is_some_and(|alone| unchanged_within_alone(&u, alone));
        if !matched {
            continue;
        }
        a.islands[ia as usize].unchanged = Some(u.clone());
        b.islands[ib as usize].unchanged = Some(u);
        b.islands[ib as usize].alone = a.islands[ia as usize].alone.clone();
    }
    (a, b)
}

/// Pairs of islands (base, head) made of the same producers, each with the same objects, none
/// reading a changed file.
fn same_islands(a: &Record, b: &Record, changed: &BTreeSet<String>) -> Vec<(u32, u32)> {
    let reached = |r: &Record| -> BTreeSet<u32> {
        changed
            .iter()
            .flat_map(|p| r.readers_of(p))
            .map(|p| r.island[p as usize])
            .collect()
    };
    let (mut reached_a, mut reached_b) = (reached(a), reached(b));
    // A root whose inputs changed (a generator's file is not a manifest: no changed path names
    // it when the head is a working tree) reaches its island on both sides.
    for (j, root) in a.roots.iter().enumerate() {
        if let Ok(k) = b.roots.binary_search(root) {
            if a.root_prints[j] != b.root_prints[k] {
                reached_a.insert(a.island[a.paths.len() + j]);
                reached_b.insert(b.island[b.paths.len() + k]);
            }
        }
    }
    // Each of a's producers in b (both lists are sorted: one merge each).
    let mut in_b: Vec<Option<u32>> = Vec::with_capacity(a.producer_count());
    merge_into(&mut in_b, &a.paths, &b.paths, 0);
    merge_into(&mut in_b, &a.roots, &b.roots, b.paths.len());
    // Islands are numbered from 0: counted in vectors, not maps (two maps of every island were
    // 4 MB of the record's peak on the large fleet).
    let slots = |island: &[u32]| island.iter().max().map_or(0, |&m| m as usize + 1);
    let mut size_b: Vec<usize> = vec![0; slots(&b.island)];
    for &i in &b.island {
        size_b[i as usize] += 1;
    }
    // a's island → (b's island, producers seen, whether every one matched).
    let mut pairs: Vec<(Option<u32>, usize, bool)> = vec![(None, 0, true); slots(&a.island)];
    for (p, &ia) in a.island.iter().enumerate() {
        let e = &mut pairs[ia as usize];
        e.1 += 1;
        let Some(q) = in_b[p] else {
            e.2 = false;
            continue;
        };
        let ib = b.island[q as usize];
        if *e.0.get_or_insert(ib) != ib || a.shape_of(p as u32) != b.shape_of(q) {
            e.2 = false;
        }
    }
    let mut out: Vec<(u32, u32)> = pairs
        .into_iter()
        .enumerate()
        .filter_map(|(ia, (ib, n, ok))| {
            let ib = ib?;
            let ia = ia as u32;
            (ok && !reached_a.contains(&ia)
                && !reached_b.contains(&ib)
                && size_b.get(ib as usize) == Some(&n))
            .then_some((ia, ib))
        })
        .collect();
    out.sort_unstable();
    out
}

/// For each of `list_a` (sorted), its index in `list_b` (sorted) plus `offset`, when there.
fn merge_into<T: Ord>(in_b: &mut Vec<Option<u32>>, list_a: &[T], list_b: &[T], offset: usize) {
    let mut j = 0;
    for p in list_a {
        while j < list_b.len() && list_b[j] < *p {
            j += 1;
        }
        in_b.push((j < list_b.len() && list_b[j] == *p).then_some((offset + j) as u32));
    }
}
