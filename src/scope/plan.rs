//! From a record and the paths a change touches: the islands to evaluate and the files to read,
//! or why the check must be whole.

use std::collections::BTreeSet;

use super::record::Record;
use super::Whole;
use crate::inventory::clusters::{ancestors, parent};
use crate::kustomize::kustomization::is_kustomization_path;
use crate::source::subset::Changed;

/// What a scoped check evaluates.
#[derive(Debug)]
pub struct Plan {
    /// Islands the change reaches.
    pub touched: BTreeSet<u32>,
    /// Islands evaluated: the touched ones and those whose findings the record does not know.
    pub evaluated: BTreeSet<u32>,
    /// Producers loaded: those of the evaluated islands and the context.
    pub loaded: BTreeSet<u32>,
    /// Files to read (both revisions).
    pub files: BTreeSet<String>,
    /// Files the change adds that no producer of the record reads: producers of their own, in
    /// [`super::record::NEW_ISLAND`] (evaluated).
    pub new_files: BTreeSet<String>,
}

/// Plans a scoped check of `changed` (every changed path of the repository: a root may read
/// outside the folder checked, `scope`; and the producers known to be touched otherwise) with
/// the record of its base revision.
pub fn plan(
    record: &Record,
    changed: &[Changed],
    touched: BTreeSet<u32>,
    scope: &str,
) -> Result<Plan, Whole> {
    if let Some(why) = &record.whole {
        return Err(Whole::because(why.clone()));
    }
    let mut touched_producers: BTreeSet<u32> = touched;
    let mut touched_islands: BTreeSet<u32> = BTreeSet::new();
    let mut new_files: BTreeSet<String> = BTreeSet::new();
    for c in changed {
        if is_kustomization_path(&c.path) {
            return Err(Whole::because(format!(
                "a kustomization changed ({})",
                c.path
            )));
        }
        if c.path == "metadata.yaml" || c.path.ends_with("/metadata.yaml") {
            // A kube-compare reference decides what every file below its folder is.
            return Err(Whole::because(format!(
                "{} may be a kube-compare reference",
                c.path
            )));
        }
        let readers = record.readers_of(&c.path);
        let in_scope = scope.is_empty()
            || c.path
                .strip_prefix(scope)
                .is_some_and(|rest| rest.starts_with('/'));
        if readers.is_empty() && in_scope && crate::source::is_manifest_path(&c.path) {
            added(
                record,
                &c.path,
                &mut touched_producers,
                &mut touched_islands,
            )?;
            new_files.insert(c.path.clone());
        }
        touched_producers.extend(readers);
        // A file below a rendered root's closure folder is one of its inputs, new or not.
        for dir in ancestors(parent(&c.path)) {
            let from = record.dirs.partition_point(|(d, _)| d.as_str() < dir);
            for (_, p) in record.dirs[from..].iter().take_while(|(d, _)| d == dir) {
                touched_producers.insert(*p);
            }
        }
    }
    let context: BTreeSet<u32> = record.context.iter().copied().collect();
    if let Some(&p) = touched_producers.iter().find(|p| context.contains(p)) {
        return Err(Whole::because(format!(
            "a producer every evaluation reads changed ({:?})",
            record.producer(p)
        )));
    }
    let mut touched: BTreeSet<u32> = touched_producers
        .iter()
        .map(|&p| record.island[p as usize])
        .chain(touched_islands)
        .collect();
    if !new_files.is_empty() {
        touched.insert(super::record::NEW_ISLAND);
    }
    let mut evaluated: BTreeSet<u32> = record
        .islands
        .iter()
        .enumerate()
        .filter(|(i, x)| x.unchanged.is_none() || touched.contains(&(*i as u32)))
        .map(|(i, _)| i as u32)
        .collect();
    evaluated.extend(
        touched
            .iter()
            .copied()
            .filter(|i| *i == super::record::NEW_ISLAND),
    );
    // A loaded root may read a whole folder (a rendered root's closure takes its folders), so the
    // files loaded may hold another producer's own file (a nested root's kustomization, a file a
    // root consumes): that producer yields its objects and findings in the evaluation too, and
    // its island is evaluated with them, until nothing more comes in.
    let (loaded, files) = loop {
        let loaded: BTreeSet<u32> = (0..record.producer_count() as u32)
            .filter(|p| evaluated.contains(&record.island[*p as usize]) || context.contains(p))
            .collect();
        let files: BTreeSet<String> = loaded
            .iter()
            .flat_map(|&p| record.inputs_of(p))
            .map(str::to_string)
            .chain(changed.iter().map(|c| c.path.clone()))
            .collect();
        let more: BTreeSet<u32> = (0..record.producer_count() as u32)
            .filter(|p| !loaded.contains(p))
            .filter(|&p| record.own_file(p).is_some_and(|f| files.contains(f)))
            .map(|p| record.island[p as usize])
            .filter(|i| !evaluated.contains(i))
            .collect();
        if more.is_empty() {
            break (loaded, files);
        }
        evaluated.extend(more);
    };
    Ok(Plan {
        touched,
        evaluated,
        loaded,
        files,
        new_files,
    })
}

/// What a file the record does not know (one the change adds) needs evaluated with it: what
/// decides its role (the kustomization in its folder, a kube-compare reference above it; what a
/// PolicyGenerator lists is context) and the cluster it joins (the islands of the cluster root
/// above it, or of the repository's own cluster's MCO model). Clusters that `--cluster-root`
/// globs find may take a new root from it: whole then.
fn added(
    record: &Record,
    path: &str,
    producers: &mut BTreeSet<u32>,
    islands: &mut BTreeSet<u32>,
) -> Result<(), Whole> {
    if record.globbed {
        return Err(Whole::because(format!(
            "a file was added ({path}) where --cluster-root globs find clusters"
        )));
    }
    let dir = parent(path);
    for name in crate::kustomize::kustomization::FILE_NAMES {
        let file = if dir.is_empty() {
            name.to_string()
        } else {
            format!("{dir}/{name}")
        };
        producers.extend(record.readers_of(&file));
    }
    for above in ancestors(dir) {
        let file = if above.is_empty() {
            "metadata.yaml".to_string()
        } else {
            format!("{above}/metadata.yaml")
        };
        producers.extend(record.readers_of(&file));
    }
    let roots: BTreeSet<String> = record.cluster_roots.iter().cloned().collect();
    let key = crate::inventory::clusters::path_key(&roots, path);
    islands.extend(record.cluster_islands(&key));
    Ok(())
}
