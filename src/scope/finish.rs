//! After a scoped evaluation: checks it against the record (every producer indexed as the record
//! says, every file in the same role, the base revision's own findings in the evaluated islands
//! what the record says, no reference reaching an island left out, no finding that cannot be
//! told apart from another island's), then merges what the record says of the other islands
//! into the report's counts, and says what the evaluation taught of the islands it evaluated
//! (the next records). Any doubt is a [`Whole`]: the caller runs a whole check.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use super::links::{self, Read};
use super::plan::Plan;
use super::record::{
    by_island, digest64, kept_unchanged, leftover, role_hash, shapes, unchanged_within_alone,
    Attribution, Finding, Found, Island, Record, NEW_ISLAND,
};
use super::structure::Delta;
use super::Whole;
use crate::diagnostic::{Diagnostic, State};
use crate::diff::Diff;
use crate::inventory::Inventory;
use crate::parse::ParsedSides;

/// What a scoped check evaluated: the pipeline's results for the files it read.
pub struct Evaluation<'a> {
    /// The files read.
    pub files: &'a ParsedSides,
    /// Base objects.
    pub base: &'a Inventory,
    /// Head objects.
    pub head: &'a Inventory,
    /// Differences.
    pub diff: &'a Diff,
    /// The head's findings, classified (pre-existing ones included).
    pub findings: &'a [Diagnostic],
    /// What suppression comments dropped of the head's findings.
    pub suppressed: &'a [Diagnostic],
    /// The base revision's findings, linted on its own.
    pub base_findings: &'a [Diagnostic],
    /// What suppression comments dropped of those.
    pub base_suppressed: &'a [Diagnostic],
    /// `--cluster-root` globs.
    pub globs: &'a [String],
    /// What the evaluation's renders used of their shared limits.
    pub usage: crate::kustomize::Usage,
}

/// The report's part a scoped check takes from the record, and what it taught.
#[derive(Debug)]
pub struct Merged {
    /// For each head finding: whether the report keeps it (an evaluated island's or the run's,
    /// not a context producer's, which the record counts).
    pub keep: Vec<bool>,
    /// Pre-existing findings of the whole head.
    pub pre_existing: usize,
    /// Suppressed findings of the whole head.
    pub suppressed: usize,
    /// Files of the whole head.
    pub file_count: usize,
    /// Objects of the whole head.
    pub object_count: usize,
    /// The base revision's findings on its own, by evaluated island.
    pub alone: BTreeMap<u32, Found>,
    /// The head's findings, by evaluated island the change did not touch (then what the island
    /// finds unchanged).
    pub unchanged: BTreeMap<u32, Found>,
    /// What the change adds and removes.
    pub delta: Delta,
    /// The head's shape of each loaded producer (a hash of its objects and how many).
    pub head_shapes: BTreeMap<u32, (u64, u32)>,
}

/// Codes of findings about the run rather than a revision (the configuration; rollouts not
/// acknowledged, which the forecast of the evaluated islands alone decides): kept as they are.
const RUN_LEVEL: [&str; 3] = ["C101", "C102", "C105"];

/// Checks a scoped evaluation against the record and merges the counts.
pub fn finish(record: &Record, plan: &Plan, ev: &Evaluation<'_>) -> Result<Merged, Whole> {
    let island = |p: u32| record.island_of(p);
    let evaluated = |p: u32| plan.evaluated.contains(&island(p));
    let attribution = Attribution::with_added(record, &[ev.base, ev.head], &plan.new_files);
    let object_producers = |inv: &Inventory| -> Result<Vec<u32>, Whole> {
        inv.objects
            .iter()
            .map(|o| {
                attribution
                    .producer_of(o)
                    .filter(|p| plan.loaded.contains(p) || island(*p) == NEW_ISLAND)
                    .ok_or_else(|| {
                        Whole::because(format!(
                            "{} ({}{}) comes from a producer the record does not load \
                             (the record's producers of that file: {:?})",
                            o.id,
                            o.path,
                            o.origin
                                .overlay
                                .as_deref()
                                .map(|r| format!(", rendered by {r}"))
                                .unwrap_or_default(),
                            record
                                .readers_of(&o.path)
                                .into_iter()
                                .map(|p| (record.producer(p), plan.loaded.contains(&p)))
                                .collect::<Vec<_>>()
                        ))
                    })
            })
            .collect()
    };
    let (base_of, head_of) = (object_producers(ev.base)?, object_producers(ev.head)?);
    // Shared limits: the record's revision used at most a quarter of each; so may this
    // evaluation, and the whole check stays below half of them (a limit decides nothing until it
    // runs out).
    if super::record::over_quarter(
        ev.usage,
        &[ev.base, ev.head],
        [&ev.files.base, &ev.files.head],
    ) {
        return Err(Whole::because(
            "the evaluation used more than a quarter of a shared limit",
        ));
    }
    // Every producer indexed as the whole check indexed it, on both sides (a scoped change
    // leaves every object where it was: it changes what they hold).
    let roots = crate::inventory::clusters::roots(ev.base, ev.head, ev.globs);
    let base_keys = links::keys(ev.base, &roots, ev.globs);
    let head_keys = links::keys(ev.head, &roots, ev.globs);
    let mut head_shapes = BTreeMap::new();
    for (side, inv, of, keys) in [
        ("base", ev.base, &base_of, &base_keys),
        ("head", ev.head, &head_of, &head_keys),
    ] {
        let shapes: BTreeMap<u32, (u64, u32)> = shapes(inv, of, keys)
            .into_iter()
            .map(|(p, h, n)| (p, (h, n)))
            .collect();
        if side == "head" {
            head_shapes = shapes.clone();
        }
        for &p in &plan.loaded {
            let got = shapes
                .get(&p)
                .copied()
                .unwrap_or((digest64(sha2::Sha256::default()), 0));
            if got == record.shape_of(p) {
                continue;
            }
            // The head of an evaluated producer may add, remove or rename objects: what that
            // reaches is checked below. Anywhere else, objects regrouped (the base's scopes and
            // presence follow the head's too: deployment units, what a Policy starts to
            // enforce) make the check whole.
            if side == "head" && evaluated(p) {
                continue;
            }
            return Err(Whole::because(format!(
                "the {side}'s objects of {:?} are not where the record has them \
                 ({} objects, the record {})",
                record.producer(p),
                got.1,
                record.shape_of(p).1
            )));
        }
    }
    for (side, files) in [("base", &ev.files.base), ("head", &ev.files.head)] {
        for f in files.iter().filter(|f| !plan.new_files.contains(&*f.path)) {
            let role = record.path_index(&f.path).map(|i| record.roles[i as usize]);
            if role != Some(role_hash(f)) {
                return Err(Whole::because(format!(
                    "{} has another role in the {side} than the record says",
                    f.path
                )));
            }
        }
    }
    // A reference that resolves to nothing is judged against every name of the repository
    // (R001's "did you mean"); a changed name must not reach an island left out.
    for (inv, of) in [(ev.base, &base_of), (ev.head, &head_of)] {
        if let Some(r) = inv
            .references
            .iter()
            .find(|r| r.resolved.is_none() && evaluated(of[r.from]))
        {
            return Err(Whole::because(format!(
                "{} refers to {}, which does not exist",
                inv.objects[r.from].id, r.target
            )));
        }
    }
    let islands_of = |group: &str, kind: &str, name: Option<&links::Name>| -> Vec<u32> {
        let names = &record.names;
        let (from, to) = match name {
            Some(n) => match names.binary_search_by(|(m, _)| m.cmp(n)) {
                Ok(i) => (i, i + 1),
                Err(_) => return Vec::new(),
            },
            None => {
                let from = names
                    .partition_point(|(m, _)| (m.group.as_str(), m.kind.as_str()) < (group, kind));
                let to = names
                    .partition_point(|(m, _)| (m.group.as_str(), m.kind.as_str()) <= (group, kind));
                (from, to)
            }
        };
        names[from..to]
            .iter()
            .flat_map(|(_, islands)| islands.iter().copied())
            .collect()
    };
    let mut reached: Option<String> = None;
    links::reads(
        ev.head,
        &head_keys,
        |i| evaluated(head_of[i]),
        |i, read| {
            let out: Vec<u32> = match &read {
                Read::Object(j) => vec![island(head_of[*j])],
                Read::Name(n) => islands_of(&n.group, &n.kind, Some(n)),
                Read::Kind(g, k) => islands_of(g, k, None),
            };
            if reached.is_none() && out.iter().any(|x| !plan.evaluated.contains(x)) {
                reached = Some(format!(
                    "{} reads {read:?}, which an island left out holds",
                    ev.head.objects[i].id
                ));
            }
        },
    );
    if let Some(why) = reached {
        return Err(Whole::because(why));
    }
    // What the change adds, removes or renames must not reach an island left out either.
    let delta = Delta::of(
        (ev.base, ev.head),
        (&|i| evaluated(base_of[i]), &|i| evaluated(head_of[i])),
    );
    if !delta.is_empty() {
        let named = |n: &links::Name| -> Vec<u32> { islands_of(&n.group, &n.kind, Some(n)) };
        delta.check(&record.structure, &plan.evaluated, &named)?;
    }
    // A change-management stanza or policy is read across the repository (windows, overlaps of
    // a pool's and its control plane's, the first use): one the change brings in makes it whole.
    if crate::schedule::model::in_use(ev.base) || crate::schedule::model::in_use(ev.head) {
        return Err(Whole::because(
            "the change uses change-management policies or stanzas",
        ));
    }
    // A change nodecast cannot read reaches pools by folder, up to every pool of the repository.
    let unreadable = ev
        .diff
        .changes
        .iter()
        .any(|c| c.kind == crate::diff::ChangeKind::Unreadable);
    if unreadable || !ev.diff.unreadable.is_empty() {
        return Err(Whole::because("a change cannot be read"));
    }
    // The base revision's own findings, by evaluated island: what the record knows of them.
    let (alone, _ambiguous) = by_island(&attribution, ev.base_findings, ev.base_suppressed, |d| {
        Finding::of(d, &[], &ev.files.base)
    });
    // A finding several islands could have made is the evaluation's when all of them are
    // evaluated (the record keeps such islands pending, so none of them counts it), and
    // ambiguous otherwise.
    if let Some(d) = ev.base_findings.iter().chain(ev.base_suppressed).find(|d| {
        let islands = attribution.islands(d);
        islands.len() > 1 && !islands.iter().all(|i| plan.evaluated.contains(i))
    }) {
        return Err(Whole::because(format!(
            "a finding of the base revision ({} at {}) belongs to an evaluated island and one left out",
            d.code, d.location.path
        )));
    }
    let alone: BTreeMap<u32, Found> = plan
        .evaluated
        .iter()
        .map(|&i| (i, alone.get(&i).cloned().unwrap_or_default()))
        .collect();
    for (i, found) in &alone {
        if let Some(known) = record
            .islands
            .get(*i as usize)
            .and_then(|x| x.alone.as_ref())
        {
            if known != found {
                return Err(Whole::mismatch(format!(
                    "the base revision's own findings in island {i} are not what the record says"
                )));
            }
        }
    }
    // Findings of the islands left out, as classification matches them: a finding at the same
    // place (first pass), or any of their own findings their unchanged ones leave unmatched
    // (second pass, anywhere), would change how the evaluated islands' findings are classified.
    let left_out: Vec<&Island> = record
        .islands
        .iter()
        .enumerate()
        .filter(|(i, _)| !plan.evaluated.contains(&(*i as u32)))
        .map(|(_, x)| x)
        .collect();
    let left_out_places: HashSet<(&str, &str)> = left_out
        .iter()
        .flat_map(|x| island_findings(x))
        .map(|f| (f.fingerprint.as_str(), f.path.as_str()))
        .collect();
    let left_over: HashSet<&str> = left_out
        .iter()
        .filter_map(|x| Some(leftover(x.unchanged.as_ref()?, x.alone.as_ref()?)))
        .flatten()
        .collect();
    let clash = |f: &Finding, head: bool, d: &Diagnostic| -> Result<(), Whole> {
        let place = (f.fingerprint.as_str(), f.path.as_str());
        if left_out_places.contains(&place) || (head && left_over.contains(place.0)) {
            return Err(Whole::because(format!(
                "{} at {} matches a finding of an island left out",
                d.code, d.location.path
            )));
        }
        Ok(())
    };
    for d in ev.base_findings {
        if attribution
            .islands(d)
            .iter()
            .all(|i| plan.evaluated.contains(i))
        {
            clash(&Finding::of(d, &[], &ev.files.base), false, d)?;
        }
    }
    let mut keep = Vec::with_capacity(ev.findings.len());
    let mut pre_existing = 0;
    let mut unchanged: BTreeMap<u32, Found> = BTreeMap::new();
    let mut irregular: BTreeSet<u32> = BTreeSet::new();
    for d in ev.findings {
        if RUN_LEVEL.contains(&d.code) {
            keep.push(true);
            continue;
        }
        let Some(islands) = evaluated_island(&attribution, plan, d)? else {
            if d.state != State::PreExisting {
                return Err(Whole::mismatch(format!(
                    "{} at {} is new in an island the change does not reach",
                    d.code, d.location.path
                )));
            }
            keep.push(false);
            continue;
        };
        if matches!(d.code, "V105" | "R103") {
            // Said once per run, at the first object of the kind (V105) or for every root (R103):
            // another island's object may be the one a whole check names.
            return Err(Whole::because(format!(
                "{} is said once for the whole run",
                d.code
            )));
        }
        let f = Finding::of(d, &ev.files.base, &ev.files.head);
        clash(&f, true, d)?;
        if d.state == State::PreExisting {
            pre_existing += 1;
        }
        match islands.as_slice() {
            [i] if plan.touched.contains(i) => {}
            [i] if kept_unchanged(d) => unchanged.entry(*i).or_default().findings.push(f),
            _ => irregular.extend(islands),
        }
        keep.push(true);
    }
    // A field the change edits marks every finding on it `changed`, by object name.
    let mut edited: HashMap<String, Vec<&str>> = HashMap::new();
    for c in &ev.diff.changes {
        edited
            .entry(c.id.to_string())
            .or_default()
            .extend(c.fields.iter().map(|f| f.path.as_str()));
    }
    let within = |inner: &str, outer: &str| {
        inner == outer
            || (inner.starts_with(outer) && inner.as_bytes().get(outer.len()) == Some(&b'/'))
    };
    for f in left_out.iter().flat_map(|x| island_findings(x)) {
        if f.pointer.is_empty() {
            continue;
        }
        let hit = edited.get(&f.object).is_some_and(|fields| {
            fields
                .iter()
                .any(|e| within(&f.pointer, e) || within(e, &f.pointer))
        });
        if hit {
            return Err(Whole::because(format!(
                "the change edits {} {}, where an island left out has a finding",
                f.object, f.pointer
            )));
        }
    }
    let mut suppressed = 0;
    for d in ev.suppressed {
        if let Some(islands) = evaluated_island(&attribution, plan, d)? {
            suppressed += 1;
            match islands.as_slice() {
                [i] if plan.touched.contains(i) => {}
                [i] => unchanged.entry(*i).or_default().suppressed += 1,
                _ => irregular.extend(islands),
            }
        }
    }
    // What the record says of the islands left out.
    for (i, x) in record.islands.iter().enumerate() {
        if plan.evaluated.contains(&(i as u32)) {
            continue;
        }
        let Some(u) = &x.unchanged else {
            return Err(Whole::mismatch(format!(
                "island {i} is left out but the record does not know its findings"
            )));
        };
        pre_existing += u.findings.len();
        suppressed += u.suppressed as usize;
    }
    let unchanged: BTreeMap<u32, Found> = plan
        .evaluated
        .iter()
        .filter(|i| !plan.touched.contains(i) && !irregular.contains(i))
        .map(|&i| {
            let mut f = unchanged.remove(&i).unwrap_or_default();
            f.findings.sort();
            (i, f)
        })
        .filter(|(i, f)| alone.get(i).is_some_and(|a| unchanged_within_alone(f, a)))
        .collect();
    let (in_base, in_head) = (ev.files.base.len(), ev.files.head.len());
    let (objects_base, objects_head) = (ev.base.objects.len(), ev.head.objects.len());
    Ok(Merged {
        keep,
        pre_existing,
        suppressed,
        file_count: (record.file_count as usize + in_head).saturating_sub(in_base),
        object_count: (record.object_count as usize + objects_head).saturating_sub(objects_base),
        alone,
        unchanged,
        delta,
        head_shapes,
    })
}

/// The evaluated islands a finding may belong to (one, unless several could have made it),
/// `None` when it is an island's left out; `Err` when no producer, or islands evaluated and
/// left out alike, could have made it.
fn evaluated_island(
    attribution: &Attribution<'_>,
    plan: &Plan,
    d: &Diagnostic,
) -> Result<Option<Vec<u32>>, Whole> {
    let islands = attribution.islands(d);
    let inside: Vec<u32> = islands
        .iter()
        .copied()
        .filter(|i| plan.evaluated.contains(i))
        .collect();
    if islands.is_empty() {
        return Err(Whole::because(format!(
            "{} at {}: no producer reads the file",
            d.code, d.location.path
        )));
    }
    if !inside.is_empty() && inside.len() < islands.len() {
        return Err(Whole::because(format!(
            "{} at {} cannot be told apart from another island's",
            d.code, d.location.path
        )));
    }
    Ok((!inside.is_empty()).then_some(inside))
}

/// Every finding a record knows of an island (on its own and unchanged).
fn island_findings(x: &Island) -> impl Iterator<Item = &Finding> {
    x.alone
        .iter()
        .chain(x.unchanged.iter())
        .flat_map(|f| f.findings.iter())
}

/// The record of a scoped check's head: the base's, with what the evaluation taught of the
/// islands it evaluated but the change did not touch, and the touched ones pending (with their
/// producers' private values of the head).
pub fn head_record(
    base: &Record,
    plan: &Plan,
    merged: &Merged,
    head: &Inventory,
    head_needles: &[(usize, Vec<String>)],
) -> Record {
    let mut out = base.clone();
    for (i, x) in out.islands.iter_mut().enumerate() {
        let i = i as u32;
        if plan.touched.contains(&i) {
            *x = Island::default();
        } else if plan.evaluated.contains(&i) {
            x.alone = merged.alone.get(&i).cloned();
            x.unchanged = merged.unchanged.get(&i).cloned();
        }
    }
    out.file_count = merged.file_count as u64;
    out.object_count = merged.object_count as u64;
    let touched = |p: u32| plan.touched.contains(&base.island[p as usize]);
    let island_of = |i: usize| -> Option<u32> {
        let p = base.index_of_object(&head.objects[i])?;
        Some(base.island[p as usize])
    };
    // What the touched producers hold now: their objects, names and structure.
    out.shapes.retain(|(p, _, _)| !touched(*p));
    out.shapes.extend(
        merged
            .head_shapes
            .iter()
            .filter(|(p, (_, n))| touched(**p) && *n > 0)
            .map(|(p, (h, n))| (*p, *h, *n)),
    );
    out.shapes.sort_by_key(|s| s.0);
    if !merged.delta.is_empty() {
        let named = |o: &crate::inventory::Object| {
            super::links::NAMED_KINDS
                .iter()
                .chain(&super::links::READ_KINDS)
                .any(|(g, k)| o.id.group == *g && o.id.kind == *k)
        };
        let mut names: BTreeMap<super::links::Name, BTreeSet<u32>> = out
            .names
            .drain(..)
            .map(|(n, islands)| {
                let kept = islands.into_iter().filter(|i| !plan.touched.contains(i));
                (n, kept.collect())
            })
            .collect();
        for (i, o) in head.objects.iter().enumerate() {
            if let Some(island) = island_of(i).filter(|x| plan.touched.contains(x)) {
                if named(o) {
                    names
                        .entry(super::links::Name::of(&o.id))
                        .or_default()
                        .insert(island);
                }
            }
        }
        out.names = names
            .into_iter()
            .filter(|(_, islands)| !islands.is_empty())
            .map(|(n, islands)| (n, islands.into_iter().collect()))
            .collect();
        out.structure = merged
            .delta
            .apply(&base.structure, head, &plan.touched, &island_of);
    }
    out.needles.retain(|(p, _)| !touched(*p));
    let mut needles: BTreeMap<u32, BTreeSet<u64>> = BTreeMap::new();
    let mut lengths: BTreeSet<u32> = out.probe_lengths.iter().copied().collect();
    for (i, list) in head_needles {
        let Some(p) = base.index_of_object(&head.objects[*i]) else {
            continue;
        };
        if !touched(p) {
            continue;
        }
        for needle in list {
            lengths.insert(needle.len() as u32);
            needles
                .entry(p)
                .or_default()
                .insert(super::probe::hash(out.probe_key, needle.as_bytes()));
        }
    }
    out.needles.extend(
        needles
            .into_iter()
            .map(|(p, h)| (p, h.into_iter().collect())),
    );
    out.needles.sort_by_key(|(p, _)| *p);
    out.probe_lengths = lengths.into_iter().collect();
    out
}

/// The base's record with what a scoped evaluation taught of its evaluated islands; `None` when
/// it taught nothing new.
pub fn base_record(base: &Record, plan: &Plan, merged: &Merged) -> Option<Record> {
    // What each evaluated island teaches, found before the record (every file and name of the
    // fleet) is copied: a change checked again teaches nothing.
    let taught: Vec<(usize, Option<&Found>, Option<&Found>)> = plan
        .evaluated
        .iter()
        .filter_map(|&i| {
            let x = base.islands.get(i as usize)?;
            let alone = x.alone.is_none().then(|| merged.alone.get(&i)).flatten();
            let unchanged = (x.unchanged.is_none() && !plan.touched.contains(&i))
                .then(|| merged.unchanged.get(&i))
                .flatten();
            (alone.is_some() || unchanged.is_some()).then_some((i as usize, alone, unchanged))
        })
        .collect();
    if taught.is_empty() {
        return None;
    }
    let mut out = base.clone();
    for (i, alone, unchanged) in taught {
        let Some(x) = out.islands.get_mut(i) else {
            continue;
        };
        if let Some(found) = alone {
            x.alone = Some(found.clone());
        }
        if let Some(found) = unchanged {
            x.unchanged = Some(found.clone());
        }
    }
    Some(out)
}
