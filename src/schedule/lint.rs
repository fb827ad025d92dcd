//! Checks across policies and stanzas that need "now": schedules that never open or open too
//! little, unreferenced policies, the master pool vs ClusterVersion, worker vs control-plane window
//! overlap, the bypass annotation, and the reminder that the API is unreleased.

use crate::schedule::codes;
use nodecast_yaml::{Node, NodeKind, Scalar};

use super::days::{self, DAY};
use super::duration;
use super::model::{Holder, HolderKind, Model, Src};
use super::policy::{PolicyKind, Strategy};
use super::stanza::{Schema, StrategyB};
use super::windows::{Next, Schedule};
use crate::diagnostic::{Diagnostic, Location, Severity};
use crate::inventory::Inventory;

/// The bypass annotation (the enhancement's per-MachineConfig opt-out).
pub const BYPASS: &str = "machineconfiguration.openshift.io/bypass-change-management";

/// Tunables of the checks.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Minimum permitted hours in any 32-day span (W109).
    pub min_permitted_hours: u32,
}

/// Runs the checks.
pub fn run(
    model: &Model,
    inv: &Inventory,
    now: i64,
    settings: Settings,
    out: &mut Vec<Diagnostic>,
) {
    if let Some((path, span)) = &model.first_use {
        out.push(
            Diagnostic::new(&codes::W101, "change-management policies are not served by any OpenShift release; only nodecast enforces them", Location::head(path, *span))
                .help("keep them for review and --enforce-windows; a real API server rejects these kinds and drops `spec.changeManagement`")
                .note("the enhancement (openshift/enhancements#1571) was closed without merging and never named an API group or version"),
        );
    }
    for p in &model.policies {
        let obj = &inv.objects[p.index];
        let src = Src::of(obj);
        let root = obj.root();
        let ms = root.path(&["spec", "maintenanceSchedule"]);
        let permit = ms.and_then(|m| m.get("permit")).filter(|n| !n.is_null());
        let at = permit
            .and_then(|p| p.get("recurrence"))
            .filter(|n| !n.is_null())
            .or(permit)
            .or(ms)
            .unwrap_or(root);
        if p.strategy == Some(Strategy::MaintenanceSchedule) && p.readable {
            if let Some(s) = &p.schedule {
                opens(&src, at, s, now, settings, out);
                straddles(
                    &src,
                    ms.and_then(|m| m.get("exclude")).unwrap_or(at),
                    s,
                    now,
                    out,
                );
            }
        }
        if p.kind == PolicyKind::Hosted && inv.manages("hypershift.openshift.io", "HostedCluster") {
            let in_cluster_ns = inv
                .of_kind("hypershift.openshift.io", "HostedCluster")
                .any(|hc| hc.id.namespace.as_deref() == p.namespace.as_deref());
            if let (false, Some(ns)) = (in_cluster_ns, &p.namespace) {
                let at = root.path(&["metadata", "namespace"]).unwrap_or(root);
                out.push(src.diag(&codes::W110, at, format!("no HostedCluster lives in namespace `{ns}`; a HostedChangeManagementPolicy must be in its HostedCluster's namespace to be used"))
                    .help("move the policy to the namespace of the HostedCluster and its NodePools"));
            }
        }
        let used = model.holders.iter().any(|h| {
            h.policy
                .is_some_and(|i| std::ptr::eq(&model.policies[i], p))
        });
        if !used {
            let name = root.path(&["metadata", "name"]).unwrap_or(root);
            out.push(src.diag(&codes::W114, name, format!("{} is not referenced by any changeManagement stanza, so it has no effect", p.label))
                .help("reference it from the objects it should govern (`policy: {name: …}` or `byPolicy: {name: …}`), or delete it"));
        }
    }
    master_pools(model, inv, out);
    pool_targets(inv, out);
    overlaps(model, inv, now, out);
    bypass_annotations(inv, out);
}

/// W108 / W109 for one schedule.
fn opens(
    src: &Src<'_>,
    at: Node<'_>,
    s: &Schedule,
    now: i64,
    settings: Settings,
    out: &mut Vec<Diagnostic>,
) {
    match s.next(now) {
        Next::Never => {
            let msg = if s.is_null_null() {
                "`permit` and `exclude` are both null, which is restrictive indefinitely: no change will ever start (revisions before 4 read this as always permitted)".to_string()
            } else {
                "this schedule permits no change within the next 1000 days: every rollout under it waits forever".to_string()
            };
            out.push(src.diag(&codes::W108, at, msg).help("fix the recurrence or the exclusions; use `strategy: Restrictive` to hold changes deliberately"));
            return;
        }
        Next::At { start, .. } if start - now > 730 * DAY => {
            out.push(src.diag(&codes::W108, at, format!("the next window opens only {} ({} days away); the proposal requires one within 2 years", days::human(start), (start - now) / DAY))
                .severity(Severity::Warning)
                .help("make the recurrence select a date at least every 2 years"));
            return;
        }
        _ => {}
    }
    let min = i64::from(settings.min_permitted_hours) * 3600;
    if min == 0 {
        return;
    }
    let span = 32 * DAY;
    let horizon = now + 365 * DAY;
    let stretches = s.intervals(now, horizon + span);
    let mut starts = vec![now];
    starts.extend(stretches.iter().map(|&(_, e)| e).filter(|&e| e <= horizon));
    for st in starts {
        let covered: i64 = stretches
            .iter()
            .map(|&(a, b)| (b.min(st + span) - a.max(st)).max(0))
            .sum();
        if covered < min {
            out.push(src.diag(&codes::W109, at, format!(
                "only {} of permitted time in the 32 days from {} (minimum {}h): rollouts and security updates stall",
                duration::show(covered), days::human(st), settings.min_permitted_hours))
                .help("widen the windows or shorten exclusions (the minimum is set with --min-permitted-hours)"));
            return;
        }
    }
}

/// The enhancement does not say how an exclusion cuts a window that runs into it: nodecast drops
/// the excluded part, and says so once.
fn straddles(src: &Src<'_>, at: Node<'_>, s: &Schedule, now: i64, out: &mut Vec<Diagnostic>) {
    if !s.permit || s.exclusions.is_empty() {
        return;
    }
    let end = now + 365 * DAY;
    let mut probe = s.clone();
    probe.exclusions.clear();
    for (a, b) in probe.intervals(now, end) {
        for &(from, until) in &s.exclusions {
            for boundary in [from * DAY, until * DAY] {
                if a < boundary && boundary < b {
                    out.push(src.diag(&codes::W107, at, format!(
                        "the window {} → {} runs across an exclusion boundary ({}); only the part outside the excluded days is permitted",
                        days::human(a), days::human(b), days::human(boundary)))
                        .severity(Severity::Warning)
                        .help("exclusions remove whole UTC days; move the exclusion or the window if the cut is not intended"));
                    return;
                }
            }
        }
    }
}

/// The ClusterVersion that governs a MachineConfigPool's cluster: the nearest one in the same or
/// a parent folder (of several in one folder, the last), else the only one. The folders are
/// indexed once per model: a fleet has a ClusterVersion and a master pool per cluster.
pub fn cluster_version_for<'m>(
    model: &'m Model,
    inv: &Inventory,
    path: &str,
) -> Option<&'m Holder> {
    use crate::inventory::clusters::{ancestors, parent};
    let (by_dir, count) = model.cluster_versions.get_or_init(|| {
        let mut by_dir = std::collections::HashMap::new();
        let mut count = 0;
        for (i, h) in model.holders.iter().enumerate() {
            if h.kind == HolderKind::ClusterVersion {
                by_dir.insert(parent(&inv.objects[h.index].path).to_string(), i);
                count += 1;
            }
        }
        (by_dir, count)
    });
    // The folder itself, then each parent, then the repository's root.
    if let Some(&i) = ancestors(parent(path)).iter().find_map(|d| by_dir.get(*d)) {
        return model.holders.get(i);
    }
    if *count == 1 {
        by_dir.values().next().and_then(|&i| model.holders.get(i))
    } else {
        None
    }
}

fn master_pools(model: &Model, inv: &Inventory, out: &mut Vec<Diagnostic>) {
    for h in model
        .holders
        .iter()
        .filter(|h| h.kind == HolderKind::MachineConfigPool && h.name == "master")
    {
        let Some(st) = &h.stanza else { continue };
        let obj = &inv.objects[h.index];
        let Some(cv) = cluster_version_for(model, inv, &obj.path) else {
            continue;
        };
        let cv_json = cv.stanza.as_ref().map(|s| &s.json);
        if cv_json == Some(&st.json) {
            continue;
        }
        let cv_obj = &inv.objects[cv.index];
        let mut d = Src::of(obj)
            .at(&codes::W115, st.key_span, "the master pool's changeManagement differs from ClusterVersion's and will be overwritten by the cluster-version operator")
            .help("remove the stanza from the master pool, or make it equal to ClusterVersion's");
        d = match &cv.stanza {
            Some(s) => d.related(
                cv_obj.head_location(s.key_span),
                "ClusterVersion's stanza, which wins",
            ),
            None => d.note("ClusterVersion has no changeManagement stanza"),
        };
        out.push(d);
    }
}

/// The schedule a holder follows right now (no override active), if any.
fn plain_schedule<'m>(model: &'m Model, h: &Holder, now: i64) -> Option<&'m Schedule> {
    let st = h.stanza.as_ref().filter(|s| s.valid)?;
    let follows = match st.schema {
        Schema::A => {
            !st.disabled_until.is_some_and(|u| u.active(now))
                && !st.paused_until.is_some_and(|u| u.active(now))
        }
        Schema::B => st.strategy == Some(StrategyB::ByPolicy),
    };
    let p = model.policies.get(h.policy?)?;
    (follows && p.readable && p.strategy == Some(Strategy::MaintenanceSchedule))
        .then_some(p.schedule.as_ref()?)
}

fn overlaps(model: &Model, inv: &Inventory, now: i64, out: &mut Vec<Diagnostic>) {
    for h in &model.holders {
        let obj = &inv.objects[h.index];
        let control = match h.kind {
            HolderKind::NodePool => {
                let cluster = obj
                    .root()
                    .path(&["spec", "clusterName"])
                    .and_then(Node::as_str);
                model.holders.iter().find(|c| {
                    c.kind == HolderKind::HostedCluster
                        && Some(c.name.as_str()) == cluster
                        && c.namespace == h.namespace
                })
            }
            HolderKind::MachineConfigPool if h.name != "master" => {
                cluster_version_for(model, inv, &obj.path)
            }
            _ => None,
        };
        let Some(control) = control else { continue };
        let (Some(mine), Some(theirs)) = (
            plain_schedule(model, h, now),
            plain_schedule(model, control, now),
        ) else {
            continue;
        };
        let end = now + 365 * DAY;
        let a = mine.intervals(now, end);
        let b = theirs.intervals(now, end);
        if a.is_empty() || b.is_empty() {
            continue;
        }
        let overlap = a
            .iter()
            .any(|&(s1, e1)| b.iter().any(|&(s2, e2)| s1 < e2 && s2 < e1));
        if overlap {
            continue;
        }
        let Some(st) = &h.stanza else { continue };
        let cobj = &inv.objects[control.index];
        let mut d = Src::of(obj).at(&codes::W116, st.key_span, format!(
            "the windows of {} never overlap those of its control plane ({}) in the next year, so upgrades leave version skew between windows",
            obj.id, cobj.id));
        if let Some(cs) = &control.stanza {
            d = d.related(
                cobj.head_location(cs.key_span),
                "the control plane's stanza",
            );
        }
        out.push(d.help(
            "give the workers windows that start during or right after the control plane's windows",
        ));
    }
}

/// W120: `spec.machineConfig` of MachineConfigPools (`name`, `validation`, `validAfter`).
fn pool_targets(inv: &Inventory, out: &mut Vec<Diagnostic>) {
    for obj in inv.of_kind("machineconfiguration.openshift.io", "MachineConfigPool") {
        let Some(mc) = obj.root().path(&["spec", "machineConfig"]) else {
            continue;
        };
        let src = Src::of(obj);
        let pool = &obj.id.name;
        if let Some(n) = mc.get("name").filter(|n| !n.is_null()) {
            let rendered = n
                .as_str()
                .and_then(|s| s.strip_prefix(&format!("rendered-{pool}-")))
                .is_some_and(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()));
            if !rendered {
                out.push(src.diag(&codes::W120, n, format!("`machineConfig.name` should name a rendered config of pool `{pool}` (`rendered-{pool}-<hash>`)"))
                    .severity(Severity::Warning)
                    .help(format!("use the name of a rendered config, e.g. `rendered-{pool}-` followed by its hash (`oc get machineconfig`)")));
            }
        }
        for (key, allowed) in [
            ("validation", &["Default", "None"][..]),
            ("validAfter", &["CanaryUpgrade", "Immediate"][..]),
        ] {
            let Some(v) = mc.get(key).filter(|v| !v.is_null()) else {
                continue;
            };
            if !v.as_str().is_some_and(|s| allowed.contains(&s)) {
                let shown = v.key_text().unwrap_or(v.type_name());
                out.push(
                    src.diag(
                        &codes::W120,
                        v,
                        format!("`{shown}` is not a valid `machineConfig.{key}`"),
                    )
                    .help(format!("use {}", allowed.join(" or "))),
                );
            }
        }
    }
}

fn bypass_annotations(inv: &Inventory, out: &mut Vec<Diagnostic>) {
    for obj in inv.of_kind("machineconfiguration.openshift.io", "MachineConfig") {
        let Some(e) = obj
            .root()
            .path(&["metadata", "annotations"])
            .and_then(|a| a.entry(BYPASS))
        else {
            continue;
        };
        let empty = match e.value.kind() {
            NodeKind::Scalar {
                value: Scalar::Null,
                ..
            } => true,
            NodeKind::Scalar { text, .. } => text.is_empty(),
            _ => false,
        };
        if empty {
            out.push(Src::of(obj).diag(&codes::W117, e.value, format!("the bypass-change-management annotation on {} is empty, so it has no effect: the rollout still waits for the pool's window", obj.id))
                .help("set a non-empty value such as \"true\" to bypass change management, or remove the annotation"));
        }
    }
}

/// Whether a MachineConfig carries a non-empty bypass annotation.
pub fn bypasses(inv: &Inventory, name: &str) -> bool {
    inv.of_kind("machineconfiguration.openshift.io", "MachineConfig")
        .filter(|o| o.id.name == name)
        .any(|o| {
            o.root()
                .path(&["metadata", "annotations"])
                .and_then(|a| a.get(BYPASS))
                .filter(|v| !v.is_null())
                .and_then(Node::key_text)
                .is_some_and(|v| !v.is_empty())
        })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::parse::{parse_file, FileEntry};

    fn cv(name: &str) -> String {
        format!("apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: {name}\nspec:\n  channel: stable-4.18\n")
    }

    /// The plain scan over every holder the index replaced: the reference it must agree with.
    fn scanned<'m>(model: &'m Model, inv: &Inventory, path: &str) -> Option<&'m Holder> {
        let dir = |p: &str| {
            p.rsplit_once('/')
                .map_or(String::new(), |(d, _)| d.to_string())
        };
        let own = dir(path);
        let cvs: Vec<&Holder> = model
            .holders
            .iter()
            .filter(|h| h.kind == HolderKind::ClusterVersion)
            .collect();
        let nearest = cvs
            .iter()
            .filter(|h| {
                let d = dir(&inv.objects[h.index].path);
                d.is_empty() || own == d || own.starts_with(&format!("{d}/"))
            })
            .max_by_key(|h| dir(&inv.objects[h.index].path).len());
        nearest.copied().or(if cvs.len() == 1 {
            cvs.first().copied()
        } else {
            None
        })
    }

    fn found(files: &[(&str, String)], path: &str) -> Option<String> {
        let files: Vec<FileEntry> = files
            .iter()
            .map(|(p, text)| FileEntry::new(*p, Arc::new(parse_file(text.as_bytes()))))
            .collect();
        let inv = Inventory::build(&files);
        let model = Model::build(&inv, 0, &mut Vec::new());
        let indexed = cluster_version_for(&model, &inv, path).map(|h| h.index);
        assert_eq!(
            indexed,
            scanned(&model, &inv, path).map(|h| h.index),
            "{path}"
        );
        indexed.map(|i| inv.objects[i].path.to_string())
    }

    /// The nearest ClusterVersion in the folder or a parent, of several in one folder the last,
    /// else the only one in the repository, else none.
    #[test]
    fn the_nearest_cluster_version_governs_a_pool() {
        let fleet = [
            ("cv.yaml", cv("root")),
            ("a/cv.yaml", cv("a")),
            ("a/b/cv-1.yaml", cv("b1")),
            ("a/b/cv-2.yaml", cv("b2")),
            ("ab/cv.yaml", cv("ab")),
        ];
        assert_eq!(
            found(&fleet, "a/b/c/pool.yaml").as_deref(),
            Some("a/b/cv-2.yaml")
        );
        assert_eq!(
            found(&fleet, "a/b/pool.yaml").as_deref(),
            Some("a/b/cv-2.yaml")
        );
        assert_eq!(found(&fleet, "a/x/pool.yaml").as_deref(), Some("a/cv.yaml"));
        // `ab` is not a parent of `abc`.
        assert_eq!(found(&fleet, "abc/pool.yaml").as_deref(), Some("cv.yaml"));
        assert_eq!(found(&fleet, "pool.yaml").as_deref(), Some("cv.yaml"));
        let two = [("x/cv.yaml", cv("cx")), ("y/cv.yaml", cv("cy"))];
        assert_eq!(found(&two, "z/pool.yaml"), None);
        let one = [("x/cv.yaml", cv("cx"))];
        assert_eq!(found(&one, "z/pool.yaml").as_deref(), Some("x/cv.yaml"));
    }
}
