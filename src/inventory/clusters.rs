//! Grouping objects into standalone clusters, so pools of different clusters never mix: an object
//! an overlay renders or a Policy / SyncSet carries belongs to that deployment unit
//! ([`Origin::group`](super::Origin::group)); a plain file belongs to its folder. Part of the
//! inventory because the diff (one identity may be defined once per cluster), the duplicate rule
//! and the models all need the same grouping.

use std::collections::{BTreeSet, HashMap};

use globset::{GlobBuilder, GlobSetBuilder};

use super::{Inventory, Object};

/// Kinds the MCO model reads (group, kind).
pub const MODELLED: [(&str, &str); 22] = [
    // Read for the control plane topology (single-node clusters reboot without draining).
    ("config.openshift.io", "Infrastructure"),
    // Pinned images are pulled by the daemon without a MachineConfig diff: judged, no rollout.
    ("machineconfiguration.openshift.io", "PinnedImageSet"),
    ("machine.openshift.io", "MachineSet"),
    ("machineconfiguration.openshift.io", "MachineConfig"),
    ("machineconfiguration.openshift.io", "MachineConfigPool"),
    // The cluster default OS stream and the available streams.
    ("machineconfiguration.openshift.io", "OSImageStream"),
    ("machineconfiguration.openshift.io", "KubeletConfig"),
    (
        "machineconfiguration.openshift.io",
        "ContainerRuntimeConfig",
    ),
    ("operator.openshift.io", "MachineConfiguration"),
    ("operator.openshift.io", "ImageContentSourcePolicy"),
    ("config.openshift.io", "ImageDigestMirrorSet"),
    ("config.openshift.io", "ImageTagMirrorSet"),
    ("config.openshift.io", "Image"),
    ("config.openshift.io", "ImagePolicy"),
    ("config.openshift.io", "ClusterImagePolicy"),
    ("config.openshift.io", "Proxy"),
    ("config.openshift.io", "FeatureGate"),
    ("config.openshift.io", "Node"),
    ("config.openshift.io", "ClusterVersion"),
    ("", "Secret"),
    ("", "ConfigMap"),
    // The Node Tuning Operator renders `[bootloader]` kernel arguments into a MachineConfig.
    ("tuned.openshift.io", "Tuned"),
];

/// Whether the MCO model reads this object (ConfigMaps and Secrets only in `openshift-config`).
pub fn is_modelled(o: &Object) -> bool {
    let core = o.id.group.is_empty();
    MODELLED
        .iter()
        .any(|(g, k)| *g == o.id.group && *k == o.id.kind)
        && (!core || o.id.namespace.as_deref() == Some("openshift-config"))
}

/// One cluster: its root folder and its objects on each side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cluster {
    /// Root folder relative to the repository (`.` for the repository itself).
    pub root: String,
    /// Indices into the base inventory.
    pub base: Vec<usize>,
    /// Indices into the head inventory.
    pub head: Vec<usize>,
}

/// The folder a repository path is in (`""` for the repository's root).
pub fn parent(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

/// `dir`, then each folder holding it, up to the repository's root (`""`).
pub fn ancestors(dir: &str) -> Vec<&str> {
    let mut out = vec![dir];
    let mut d = dir;
    while !d.is_empty() {
        d = parent(d);
        out.push(d);
    }
    out
}

/// Cluster roots: folders matching a `--cluster-root` glob, else folders holding a
/// MachineConfigPool or ClusterVersion (nested candidates fold into the outer one).
pub fn roots(base: &Inventory, head: &Inventory, globs: &[String]) -> BTreeSet<String> {
    let mut builder = GlobSetBuilder::new();
    for g in globs {
        let g = g.trim_end_matches('/');
        if let Ok(glob) = GlobBuilder::new(g).literal_separator(true).build() {
            builder.add(glob);
        }
    }
    // No globs: nothing to match (matching every ancestor of every object is not free).
    let set = builder.build().ok().filter(|_| !globs.is_empty());
    // Rendered and wrapped objects are grouped by their origin, not by the folder of the file
    // they come from (a shared base, a Policy file): only plain files make folder roots.
    let objects = || {
        base.objects
            .iter()
            .chain(&head.objects)
            .filter(|o| is_modelled(o) && o.id.scope.is_empty())
    };
    let mut from_globs = BTreeSet::new();
    if let Some(set) = &set {
        for o in objects() {
            for d in ancestors(parent(&o.path)) {
                if !d.is_empty() && set.is_match(d) {
                    from_globs.insert(d.to_string());
                }
            }
        }
    }
    let mut auto: BTreeSet<String> = objects()
        .filter(|o| o.id.kind == "MachineConfigPool" || o.id.kind == "ClusterVersion")
        .map(|o| parent(&o.path).to_string())
        .collect();
    // Nested candidates fold into the outer one: drop a folder when a proper ancestor (or the
    // repository root) is a candidate, or when it is, or is inside, a glob root. Looking up the
    // few ancestors keeps this linear in the number of clusters.
    let snapshot = auto.clone();
    auto.retain(|d| {
        !ancestors(d)
            .into_iter()
            .skip(1)
            .any(|a| snapshot.contains(a))
            && !ancestors(d).into_iter().any(|a| from_globs.contains(a))
    });
    from_globs.extend(auto);
    from_globs
}

/// Gives every plain object of a separate deployment unit that unit as its scope, on both sides.
///
/// Outside every cluster root, the same object in `envs/stage/` and `envs/prod/` (or in two
/// management clusters' folders) is two objects, one per unit, not a definition and its
/// duplicate: taken as one identity, the diff paired only the first definition and a change to
/// the other was invisible ("no node impact" where nodes reboot), and NodePools, their references
/// and their change management all resolved to the first. The units of an identity are the
/// folders just below the deepest folder holding all its definitions (or that folder itself, for
/// a definition directly in it). Definitions in one folder, or all under one Argo CD application
/// that reads its path recursively, are applied together (K004's duplicates) and split nothing;
/// nor does a file at the repository's root. Inside cluster roots the MCO model already groups
/// its kinds by root; every other object (NodePool, HostedCluster, a namespaced ConfigMap) whose
/// identity is defined in two roots, or in a root and outside every root, takes its root as unit
/// (a management cluster's NodePool judged by another cluster's definition said "no node
/// impact"). A scoped object keeps its identity's name in every report; its cluster
/// ([`key_of`]) is its unit. Returns the units (the base's scopes depend on
/// the head: what is kept of the base's own evaluation must be keyed by them).
pub fn split_units(
    base: &mut Inventory,
    head: &mut Inventory,
    globs: &[String],
) -> BTreeSet<String> {
    let roots = roots(base, head, globs);
    if roots.contains("") {
        return BTreeSet::new();
    }
    let mut applications = recursive_applications(base);
    applications.extend(recursive_applications(head));
    let root_of = |dir| root_holding(&roots, dir);
    let mut folders: HashMap<&super::ObjectId, BTreeSet<&str>> = HashMap::new();
    // Per identity: the cluster roots holding a definition, and whether one is outside them.
    let mut in_roots: HashMap<&super::ObjectId, (BTreeSet<&str>, bool)> = HashMap::new();
    // Per identity: its definitions (side, object), the units' sources when it makes units.
    let mut members: HashMap<&super::ObjectId, Vec<(usize, usize)>> = HashMap::new();
    for (side, inv) in [&*base, &*head].into_iter().enumerate() {
        for &(first, later) in &inv.duplicates {
            if inv.link_copies.contains(&later) {
                continue;
            }
            for i in [first, later] {
                let o = &inv.objects[i];
                let dir = parent(&o.path);
                if !o.id.scope.is_empty() {
                    continue;
                }
                members.entry(&o.id).or_default().push((side, i));
                let root = root_of(dir);
                if root.is_none() {
                    folders.entry(&o.id).or_default().insert(dir);
                }
                // The MCO model groups what it reads by cluster root already.
                if !is_modelled(o) {
                    let places = in_roots.entry(&o.id).or_default();
                    match root {
                        Some(root) => places.0.insert(root),
                        None => std::mem::replace(&mut places.1, true),
                    };
                }
            }
        }
    }
    // Each cluster root is a cluster of its own: the same NodePool, HostedCluster or namespaced
    // ConfigMap in two management clusters' roots (or in one and outside every root) is two
    // objects.
    let mut sources: Vec<(usize, usize)> = Vec::new();
    let mut units: BTreeSet<String> = BTreeSet::new();
    for (id, (roots, outside)) in in_roots {
        if roots.len() + usize::from(outside) > 1 {
            units.extend(roots.into_iter().map(str::to_string));
            sources.extend(members.get(id).into_iter().flatten());
        }
    }
    for (id, dirs) in folders.iter().filter(|(_, d)| d.len() > 1) {
        let together = applications
            .iter()
            .any(|app| dirs.iter().all(|d| *d == app || under(d, app)));
        if together {
            continue;
        }
        sources.extend(members.get(id).into_iter().flatten());
        let common = dirs
            .iter()
            .copied()
            .reduce(common_folder)
            .unwrap_or_default();
        for dir in dirs {
            let rest = dir
                .strip_prefix(common)
                .unwrap_or(dir)
                .trim_start_matches('/');
            let child = rest.split('/').next().unwrap_or(rest);
            let unit = &dir[..dir.len() - rest.len() + child.len()];
            if !unit.is_empty() {
                units.insert(unit.to_string());
            }
        }
    }
    for (side, inv) in [&mut *base, &mut *head].into_iter().enumerate() {
        let mut own: Vec<usize> = sources
            .iter()
            .filter(|(s, _)| *s == side)
            .map(|(_, i)| *i)
            .collect();
        own.sort_unstable();
        own.dedup();
        inv.unit_sources = own;
    }
    if units.is_empty() {
        return units;
    }
    let unit_of = |o: &Object| -> Option<String> {
        let dir = parent(&o.path);
        if !o.id.scope.is_empty() {
            return None;
        }
        if let Some(root) = root_holding(&roots, dir) {
            return (!is_modelled(o) && units.contains(root)).then(|| root.to_string());
        }
        ancestors(dir)
            .into_iter()
            .find(|d| units.contains(*d))
            .map(str::to_string)
    };
    let scopes = |inv: &Inventory| -> Vec<Option<String>> {
        inv.objects.iter().map(|o| unit_of(o)).collect()
    };
    let (b, h) = (scopes(base), scopes(head));
    base.rescope(b);
    head.rescope(h);
    units
}

/// Of `candidates`, the one in the deepest folder holding the file at `path` (its own folder or a
/// parent), when no other is that deep: a cluster-wide singleton kept beside or above the objects
/// it speaks for.
pub fn nearest_above<'a>(
    path: &str,
    candidates: impl IntoIterator<Item = &'a Object>,
) -> Option<&'a Object> {
    let folder = parent(path);
    let mut best: Option<(usize, &Object)> = None;
    let mut tied = false;
    for c in candidates {
        let dir = parent(&c.path);
        if dir != folder && !under(folder, dir) {
            continue;
        }
        let depth = dir.split('/').filter(|p| !p.is_empty()).count();
        match best {
            Some((d, _)) if d > depth => {}
            Some((d, _)) if d == depth => tied = true,
            _ => {
                best = Some((depth, c));
                tied = false;
            }
        }
    }
    best.filter(|_| !tied).map(|(_, c)| c)
}

/// Which of `candidates` (one kind's cluster singletons: MachineConfiguration, ClusterVersion)
/// speaks for `o`'s cluster: one of its own cluster (the nearest above `o` when it holds
/// several); else, of those outside every cluster root, the nearest above `o` or the only one;
/// else, for `o` outside every root, the only candidate. Never another cluster's: "the
/// nearest path" by shared characters took `ocp-10`'s for `ocp-1`.
pub fn speaking_for<'a>(
    roots: &BTreeSet<String>,
    globs: &[String],
    o: &Object,
    candidates: &[&'a Object],
) -> Option<&'a Object> {
    let key = key_of(roots, globs, o);
    let keys: Vec<String> = candidates.iter().map(|c| key_of(roots, globs, c)).collect();
    let keyed = |k: &str| -> Vec<&'a Object> {
        candidates
            .iter()
            .zip(&keys)
            .filter(|(_, ck)| *ck == k)
            .map(|(c, _)| *c)
            .collect()
    };
    let own = keyed(&key);
    if !own.is_empty() {
        return nearest_above(&o.path, own.iter().copied()).or(own.first().copied());
    }
    let shared = keyed(".");
    if let Some(c) = nearest_above(&o.path, shared.iter().copied()) {
        return Some(c);
    }
    if let [one] = shared.as_slice() {
        return Some(one);
    }
    match candidates {
        [one] if key == "." => Some(one),
        _ => None,
    }
}

/// The cluster root holding folder `dir` (roots never nest).
fn root_holding<'d>(roots: &BTreeSet<String>, dir: &'d str) -> Option<&'d str> {
    ancestors(dir).into_iter().find(|a| roots.contains(*a))
}

/// Whether `path` is inside folder `dir` (`""` holds everything).
pub fn under(path: &str, dir: &str) -> bool {
    dir.is_empty() || path.starts_with(&format!("{dir}/"))
}

/// `spec.source(s)[].path` of every Argo CD Application with `directory.recurse: true`: what
/// one application applies together.
pub fn recursive_applications(inv: &Inventory) -> Vec<String> {
    use nodecast_yaml::Node;
    inv.of_kind("argoproj.io", "Application")
        .flat_map(|app| {
            let spec = app.root().get("spec");
            let mut sources: Vec<Node<'_>> =
                spec.and_then(|s| s.get("source")).into_iter().collect();
            sources.extend(
                spec.and_then(|s| s.get("sources"))
                    .and_then(Node::as_seq)
                    .unwrap_or_default(),
            );
            sources
                .into_iter()
                .filter(|s| {
                    s.path(&["directory", "recurse"]).is_some_and(|r| {
                        matches!(
                            r.kind(),
                            nodecast_yaml::NodeKind::Scalar {
                                value: nodecast_yaml::Scalar::Bool(true),
                                ..
                            }
                        )
                    })
                })
                .filter_map(|s| s.get("path").and_then(Node::as_str))
                .map(|p| p.trim_matches('/').trim_start_matches("./").to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The deepest folder holding both folders (`""` for the repository's root).
fn common_folder<'p>(a: &'p str, b: &'p str) -> &'p str {
    let mut end = 0;
    for (i, (x, y)) in a.split('/').zip(b.split('/')).enumerate() {
        if x != y {
            break;
        }
        end += x.len() + usize::from(i > 0);
    }
    &a[..end]
}

/// The cluster root an object path belongs to (nearest root folder, else the repository root).
pub fn root_of(roots: &BTreeSet<String>, path: &str) -> String {
    root_holding(roots, parent(path))
        .unwrap_or_default()
        .to_string()
}

/// The cluster of a plain file at `path`: its root folder, `.` for the repository (whether the
/// repository's top is a root or no folder is).
pub fn path_key(roots: &BTreeSet<String>, path: &str) -> String {
    match root_of(roots, path) {
        r if r.is_empty() => ".".to_string(),
        r => r,
    }
}

/// The cluster an object belongs to: the Policy / SyncSet that carries it (`Policy/ns/name`), the
/// `--cluster-root` folder holding the overlay that renders it, else that overlay's folder; for a
/// plain file, the nearest root folder (`.` for the repository).
pub fn key_of(roots: &BTreeSet<String>, globs: &[String], o: &Object) -> String {
    let group = &o.id.scope;
    if group.is_empty() {
        return path_key(roots, &o.path);
    }
    match (&o.origin.wrapper, &o.origin.overlay) {
        (None, Some(overlay)) => glob_root(globs, overlay).unwrap_or_else(|| overlay.to_string()),
        _ => group.to_string(),
    }
}

/// The outermost folder matching a `--cluster-root` glob that holds (or is) `dir`.
fn glob_root(globs: &[String], dir: &str) -> Option<String> {
    if globs.is_empty() {
        return None;
    }
    let mut builder = GlobSetBuilder::new();
    for g in globs {
        let g = g.trim_end_matches('/');
        if let Ok(glob) = GlobBuilder::new(g).literal_separator(true).build() {
            builder.add(glob);
        }
    }
    let set = builder.build().ok()?;
    ancestors(dir)
        .into_iter()
        .rev()
        .find(|d| !d.is_empty() && set.is_match(d))
        .map(str::to_string)
}

/// How reports name a cluster: a folder as is; a Policy or SyncSet grouping by the clusters it
/// selects, since the repository does not say which clusters those are.
pub fn label(key: &str) -> String {
    let wrapped = ["Policy/", "SelectorSyncSet/", "SyncSet/", "Template/"]
        .iter()
        .any(|p| key.starts_with(p));
    if wrapped {
        format!("clusters selected by {key}")
    } else {
        key.to_string()
    }
}

/// Groups the modelled objects of both sides into clusters (objects an ACM `mustnothave` deletes,
/// and base objects a Policy only starts enforcing in head, are absent from their side).
pub fn group(base: &Inventory, head: &Inventory, globs: &[String]) -> Vec<Cluster> {
    let roots = roots(base, head, globs);
    let mut clusters: Vec<Cluster> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut add = |inv: &Inventory, is_head: bool| {
        for (i, o) in inv.objects.iter().enumerate() {
            if !is_modelled(o) || inv.is_absent(i) {
                continue;
            }
            let root = key_of(&roots, globs, o);
            let pos = match index.get(&root) {
                Some(&p) => p,
                None => {
                    index.insert(root.clone(), clusters.len());
                    clusters.push(Cluster {
                        root,
                        base: Vec::new(),
                        head: Vec::new(),
                    });
                    clusters.len() - 1
                }
            };
            if is_head {
                clusters[pos].head.push(i);
            } else {
                clusters[pos].base.push(i);
            }
        }
    };
    add(base, false);
    add(head, true);
    clusters.sort_by(|a, b| a.root.cmp(&b.root));
    clusters
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_root_wins_and_unrooted_objects_go_to_the_repository() {
        let roots: BTreeSet<String> = ["clusters/a".to_string(), "clusters/b".to_string()].into();
        assert_eq!(root_of(&roots, "clusters/a/mc/x.yaml"), "clusters/a");
        assert_eq!(root_of(&roots, "clusters/b/pools.yaml"), "clusters/b");
        assert_eq!(root_of(&roots, "common/x.yaml"), "");
        assert_eq!(path_key(&roots, "clusters/a/mc/x.yaml"), "clusters/a");
        assert_eq!(path_key(&roots, "common/x.yaml"), ".");
        // Pools at the repository's top make it the one root: still the cluster `.`.
        let top: BTreeSet<String> = [String::new()].into();
        assert_eq!(path_key(&top, "pools.yaml"), ".");
        assert_eq!(path_key(&top, "mc/x.yaml"), ".");
    }

    #[test]
    fn common_folders() {
        assert_eq!(common_folder("envs/prod", "envs/stage"), "envs");
        assert_eq!(common_folder("envs/prod/a", "envs/prod"), "envs/prod");
        assert_eq!(common_folder("envsx/a", "envs/a"), "");
        assert_eq!(common_folder("", "envs"), "");
        assert_eq!(common_folder("a/b", "a/b"), "a/b");
    }

    #[test]
    fn wrapper_groups_are_named_by_the_clusters_they_select() {
        assert_eq!(
            label("Policy/policies/kargs"),
            "clusters selected by Policy/policies/kargs"
        );
        assert_eq!(
            label("SelectorSyncSet/prod"),
            "clusters selected by SelectorSyncSet/prod"
        );
        assert_eq!(label("clusters/east"), "clusters/east");
        assert_eq!(label("."), ".");
    }

    #[test]
    fn an_overlay_inside_a_cluster_root_glob_belongs_to_that_cluster() {
        let globs = ["clusters/*".to_string()];
        assert_eq!(
            glob_root(&globs, "clusters/east/overlays/infra").as_deref(),
            Some("clusters/east")
        );
        assert_eq!(glob_root(&globs, "other/overlay"), None);
        assert_eq!(glob_root(&[], "clusters/east"), None);
    }
}
