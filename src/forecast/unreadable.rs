//! Changes nodecast cannot read (`diff::unreadable`): an explicit `unknown` forecast entry —
//! "cannot read; assume a rollout" — for every pool the file could reach, and an error (Y010).
//!
//! Which pools: the NodePools and MachineConfigPools the file names itself; then, by folder, the
//! pools defined in the file's folder, widening to its parent folders until some are found, plus
//! the standalone cluster the file belongs to; when the repository holds no pool at all, the
//! built-in `master` and `worker` pools of that cluster.

use super::{Action, Cause, Forecast, Impact, Input, Target, When};
use crate::diagnostic::Diagnostic;
use crate::diff::unreadable::UnreadableChange;
use crate::diff::ChangeKind;
use crate::forecast::codes;
use crate::parse::{LooseId, UnreadKind};

/// A pool a file may reach, with where it is defined.
struct Pool {
    /// Folder of the file defining it (NodePools), or of the cluster (MachineConfigPools).
    folder: Option<String>,
    target: Target,
    nodes: Option<u32>,
}

fn parent(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

fn under(folder: &str, dir: &str) -> bool {
    dir.is_empty()
        || folder == dir
        || folder
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// Every pool of the repository (both sides), NodePools first; a HostedCluster stands for all
/// its NodePools (`*`), for when none of them can be read.
fn pools(input: &Input<'_>) -> (Vec<Pool>, Vec<(String, Pool)>, Vec<Pool>) {
    let mut hosted: Vec<Pool> = Vec::new();
    for inv in [input.head, input.base] {
        for o in inv.of_kind(super::hypershift::GROUP, "HostedCluster") {
            let target = nodepool_target(o.id.namespace.as_deref(), Some("*"), Some(&o.id.name));
            if !hosted.iter().any(|p| p.target == target) {
                hosted.push(Pool {
                    folder: Some(parent(&o.path).to_string()),
                    target,
                    nodes: None,
                });
            }
        }
    }
    let mut nodepools: Vec<Pool> = Vec::new();
    for inv in [input.head, input.base] {
        for o in inv.of_kind(super::hypershift::GROUP, "NodePool") {
            let target = nodepool_target(
                o.id.namespace.as_deref(),
                Some(&o.id.name),
                o.root()
                    .path(&["spec", "clusterName"])
                    .and_then(nodecast_yaml::Node::as_str),
            );
            if nodepools.iter().any(|p| p.target == target) {
                continue;
            }
            let nodes = super::hypershift::node_count(input, o);
            nodepools.push(Pool {
                folder: Some(parent(&o.path).to_string()),
                target,
                nodes,
            });
        }
    }
    let mut mco: Vec<(String, Pool)> = Vec::new();
    for (key, label, names) in super::mco::clusters_and_pools(input) {
        let wrapped = ["Policy/", "SyncSet/", "SelectorSyncSet/"]
            .iter()
            .any(|p| key.starts_with(p));
        let folder = match key.as_str() {
            _ if wrapped => None,
            "." => Some(String::new()),
            k => Some(k.to_string()),
        };
        for name in names {
            mco.push((
                key.clone(),
                Pool {
                    folder: folder.clone(),
                    nodes: mco_nodes(input, &label, &name),
                    target: mco_target(&label, &name),
                },
            ));
        }
    }
    (nodepools, mco, hosted)
}

fn mco_nodes(input: &Input<'_>, cluster: &str, pool: &str) -> Option<u32> {
    let assumed = &input.settings.assume_nodes;
    assumed
        .get(&format!("{cluster}/{pool}"))
        .or_else(|| assumed.get(pool))
        .copied()
}

fn mco_target(cluster: &str, name: &str) -> Target {
    Target {
        cluster: cluster.to_string(),
        kind: "MachineConfigPool".into(),
        namespace: None,
        name: name.to_string(),
        scope: String::new(),
    }
}

fn nodepool_target(namespace: Option<&str>, name: Option<&str>, cluster: Option<&str>) -> Target {
    let ns = namespace.unwrap_or_default();
    Target {
        cluster: format!("HostedCluster/{ns}/{}", cluster.unwrap_or("?")),
        kind: "NodePool".into(),
        namespace: Some(ns.to_string()),
        name: name.unwrap_or("?").to_string(),
        scope: String::new(),
    }
}

/// The pools a change to `u` could reach, with their node counts when known.
fn reach(
    input: &Input<'_>,
    (nodepools, mco, hosted): (&[Pool], &[(String, Pool)], &[Pool]),
    u: &UnreadableChange,
) -> Vec<(Target, Option<u32>)> {
    let own_cluster = super::mco::cluster_of_path(input, &u.path);
    let own_label = super::mco::cluster_label(&own_cluster);
    let mut out: Vec<(Target, Option<u32>)> = Vec::new();
    let push = |t: Target, n: Option<u32>, out: &mut Vec<(Target, Option<u32>)>| {
        if !out.iter().any(|(x, _)| *x == t) {
            out.push((t, n));
        }
    };
    // The pools the file defines itself.
    let is = |o: &LooseId, kind: &str| o.kind.as_deref() == Some(kind);
    for o in &u.objects {
        if is(o, "NodePool") {
            let t = nodepool_target(
                o.namespace.as_deref(),
                o.name.as_deref(),
                o.cluster_name.as_deref(),
            );
            let known = nodepools.iter().find(|p| p.target == t);
            push(t, known.and_then(|p| p.nodes), &mut out);
        } else if is(o, "HostedCluster") {
            let t = nodepool_target(o.namespace.as_deref(), Some("*"), o.name.as_deref());
            push(t, None, &mut out);
        } else if is(o, "MachineConfigPool") {
            let name = o.name.as_deref().unwrap_or("?");
            push(
                mco_target(&own_label, name),
                mco_nodes(input, &own_label, name),
                &mut out,
            );
        }
    }
    let only_pools = !u.opaque
        && !u.objects.is_empty()
        && u.objects
            .iter()
            .all(|o| is(o, "NodePool") || is(o, "MachineConfigPool"));
    if only_pools {
        return out;
    }
    // By folder: the nearest folder (from the file's own, upwards) that defines pools.
    let mut dir = parent(&u.path);
    loop {
        let mut found = false;
        for p in nodepools {
            if p.folder.as_deref().is_some_and(|f| under(f, dir)) {
                push(p.target.clone(), p.nodes, &mut out);
                found = true;
            }
        }
        for (key, p) in mco {
            if *key == own_cluster || p.folder.as_deref().is_some_and(|f| under(f, dir)) {
                push(p.target.clone(), p.nodes, &mut out);
                found = true;
            }
        }
        for h in hosted {
            let has_pools = out.iter().any(|(t, _)| t.cluster == h.target.cluster);
            if !has_pools && h.folder.as_deref().is_some_and(|f| under(f, dir)) {
                push(h.target.clone(), None, &mut out);
                found = true;
            }
        }
        if found || dir.is_empty() {
            break;
        }
        dir = parent(dir);
    }
    if out.is_empty() {
        // No pool anywhere: the built-in pools of the cluster the file belongs to.
        for name in ["master", "worker"] {
            push(
                mco_target(&own_label, name),
                mco_nodes(input, &own_label, name),
                &mut out,
            );
        }
    }
    out
}

fn describe(o: &LooseId) -> String {
    let kind = o.kind.as_deref().unwrap_or("?");
    let name = o.name.as_deref().unwrap_or("?");
    match o.namespace.as_deref() {
        Some(ns) => format!("{kind}/{ns}/{name}"),
        None => format!("{kind}/{name}"),
    }
}

/// The fix for the first reason a part was not read.
fn help(u: &UnreadableChange) -> &'static str {
    match u.kinds.first() {
        Some(UnreadKind::Templated) => "render the template (`helm template`, `kustomize build`) and compare the rendered output with `nodecast check --base-dir`, or exclude the path",
        Some(UnreadKind::Syntax) => "fix the YAML syntax error so the file can be read",
        Some(UnreadKind::NotUtf8) => "re-encode the file as UTF-8 (Kubernetes reads only UTF-8 manifests)",
        Some(UnreadKind::Binary) => "remove the NUL bytes: a manifest is text",
        Some(UnreadKind::TooLarge) => "raise the limit with --max-file-size BYTES if this really is a manifest, or split the file",
        Some(UnreadKind::Unreadable) | None => "make the file readable (`git fsck` finds corrupt objects; a symbolic link must point inside the repository)",
    }
}

/// Adds an `unknown` entry for every pool each unreadable change could reach, and a Y010 each.
pub fn forecast(input: &Input<'_>, out: &mut Forecast) {
    if input.diff.unreadable.is_empty() {
        return;
    }
    let (nodepools, mco, hosted) = pools(input);
    for u in &input.diff.unreadable {
        let targets = reach(input, (&nodepools, &mco, &hosted), u);
        let start = u.location.span.map(|s| s.start);
        let object = u
            .objects
            .iter()
            .map(describe)
            .collect::<Vec<_>>()
            .join(", ");
        let cause = Cause {
            object: if object.is_empty() {
                format!("file {}", u.path)
            } else {
                object.clone()
            },
            field: String::new(),
            file: u.path.clone(),
            line: start.map_or(1, |p| p.line),
            column: start.map_or(1, |p| p.col),
            summary: format!(
                "cannot read {} ({}): node impact unknown; assume a rollout",
                u.path,
                u.reason()
            ),
        };
        for (target, nodes) in &targets {
            match out.impacts.iter_mut().find(|i| i.target == *target) {
                Some(i) => {
                    if i.action == Action::None {
                        // "none disrupted" no longer holds.
                        i.rollout = None;
                    }
                    if i.action != Action::Blocked {
                        i.action = Action::Unknown;
                    }
                    i.drain = true;
                    i.nodes = i.nodes.or(*nodes);
                    i.causes.push(cause.clone());
                }
                None => out.impacts.push(Impact {
                    target: target.clone(),
                    action: Action::Unknown,
                    drain: true,
                    nodes: *nodes,
                    causes: vec![cause.clone()],
                    when: When::now(),
                    rollout: None,
                    fingerprint: None,
                }),
            }
        }
        let pools: Vec<String> = targets
            .iter()
            .map(|(t, _)| match &t.namespace {
                Some(ns) => format!("{} {ns}/{} [{}]", t.kind, t.name, t.cluster),
                None => format!("{} {} [{}]", t.kind, t.name, t.cluster),
            })
            .collect();
        let mut d = Diagnostic::new(
            &codes::Y010,
            format!(
                "cannot read the changed file ({}): its node impact is unknown; assume a rollout of {} pool(s)",
                u.reason(),
                targets.len()
            ),
            u.location.clone(),
        )
        .label("not read")
        .help(help(u))
        .note(format!("pools it could reach: {}", pools.join(", ")));
        if !object.is_empty() {
            d = d.object(object);
        }
        out.diagnostics.push(d);
    }
    // Objects hidden by an unreadable file are judged here (never "not yet modelled").
    for c in &input.diff.changes {
        if c.kind == ChangeKind::Unreadable {
            out.covered.insert(c.id.clone());
        }
    }
}
