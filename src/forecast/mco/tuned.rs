//! The Node Tuning Operator's MachineConfigs: a `Tuned` recommend entry with
//! `machineConfigLabels` makes NTO render the profile's `[bootloader]` kernel command line into a
//! MachineConfig (`50-nto-<pool>`) carrying those labels, so every pool whose
//! `machineConfigSelector` matches them gets the kernel arguments: a change reboots the pool.
//!
//! For each pool, the matching recommend entry with the lowest `priority` wins (as NTO picks one
//! profile per node). Its profile's `cmdline*` values under `[bootloader]` are read, following
//! `include=` to profiles defined in the repository's Tuneds; an include defined elsewhere (a
//! stock profile) is carried as a marker, so changing it counts as a kernel-argument change.

use nodecast_yaml::Node;

use super::config::{Item, Mc, McConfig, Src};
use super::pool::Pool;
use super::selector::Labels;
use crate::inventory::Object;

/// The Tuned API group.
pub const GROUP: &str = "tuned.openshift.io";

/// How deep `include=` chains are followed.
const MAX_INCLUDES: usize = 8;

fn tuneds<'a>(objects: &[&'a Object]) -> Vec<&'a Object> {
    let mut out: Vec<&Object> = objects
        .iter()
        .copied()
        .filter(|o| o.id.group == GROUP && o.id.kind == "Tuned")
        .collect();
    out.sort_by(|a, b| a.id.name.cmp(&b.id.name));
    out
}

fn labels(n: Node<'_>) -> Labels {
    n.as_map()
        .unwrap_or_default()
        .iter()
        .filter_map(|e| {
            Some((
                e.key.key_text()?.to_string(),
                e.value.key_text()?.to_string(),
            ))
        })
        .collect()
}

/// A recommend entry that targets pools by `machineConfigLabels`.
struct Recommend<'a> {
    tuned: &'a Object,
    priority: i64,
    profile: String,
    labels: Labels,
}

fn recommends<'a>(tuneds: &[&'a Object]) -> Vec<Recommend<'a>> {
    let mut out = Vec::new();
    for t in tuneds {
        for r in t
            .root()
            .path(&["spec", "recommend"])
            .and_then(Node::as_seq)
            .unwrap_or_default()
        {
            let Some(l) = r.get("machineConfigLabels").map(labels) else {
                continue;
            };
            let Some(profile) = r.get("profile").and_then(Node::as_str) else {
                continue;
            };
            if l.is_empty() {
                continue;
            }
            let priority = match r.get("priority").map(|p| p.kind()) {
                Some(nodecast_yaml::NodeKind::Scalar {
                    value: nodecast_yaml::Scalar::Int(i),
                    ..
                }) => i,
                _ => i64::MAX,
            };
            out.push(Recommend {
                tuned: t,
                priority,
                profile: profile.to_string(),
                labels: l,
            });
        }
    }
    out
}

/// A profile defined in a Tuned: its data and where it is.
fn profile<'a>(tuneds: &[&'a Object], name: &str) -> Option<(&'a Object, usize, &'a str)> {
    tuneds.iter().find_map(|t| {
        t.root()
            .path(&["spec", "profile"])
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .enumerate()
            .find(|(_, p)| p.get("name").and_then(Node::as_str) == Some(name))
            .and_then(|(i, p)| Some((*t, i, p.get("data").and_then(Node::as_str)?)))
    })
}

/// `key=value` lines of one INI section.
fn section<'d>(data: &'d str, name: &str) -> Vec<(&'d str, &'d str)> {
    let mut inside = false;
    let mut out = Vec::new();
    for line in data.lines() {
        let l = line.trim();
        if l.starts_with('[') && l.ends_with(']') {
            inside = l[1..l.len() - 1].trim().eq_ignore_ascii_case(name);
            continue;
        }
        if inside && !l.starts_with('#') && !l.starts_with(';') {
            if let Some((k, v)) = l.split_once('=') {
                out.push((k.trim(), v.trim()));
            }
        }
    }
    out
}

/// The kernel arguments of a profile and its includes, each with where it is written.
fn kernel_arguments(tuneds: &[&Object], name: &str, depth: usize, out: &mut Vec<Item<String>>) {
    let Some((t, i, data)) = profile(tuneds, name) else {
        // A profile the repository does not define (a stock profile): its content is fixed,
        // which profile is included is what may change.
        out.push(Item {
            value: format!("tuned-include:{name}"),
            src: Vec::new(),
        });
        return;
    };
    let src = vec![Src {
        object: t.id.clone(),
        pointer: format!("/spec/profile/{i}/data"),
    }];
    if depth < MAX_INCLUDES {
        for (k, v) in section(data, "main") {
            if k == "include" {
                for inc in v.split([',', ';']).map(str::trim).filter(|s| !s.is_empty()) {
                    let before = out.len();
                    kernel_arguments(tuneds, inc, depth + 1, out);
                    for item in &mut out[before..] {
                        if item.src.is_empty() {
                            item.src = src.clone();
                        }
                    }
                }
            }
        }
    }
    for (k, v) in section(data, "bootloader") {
        if k.starts_with("cmdline") {
            for arg in v.split_whitespace() {
                out.push(Item {
                    value: arg.to_string(),
                    src: src.clone(),
                });
            }
        }
    }
}

/// NTO's kernel-argument MachineConfigs, one per recommend entry that wins for some pool.
pub fn generate(objects: &[&Object], pools: &[Pool]) -> Vec<Mc> {
    let tuneds = tuneds(objects);
    if tuneds.is_empty() {
        return Vec::new();
    }
    let recs = recommends(&tuneds);
    let mut out: Vec<Mc> = Vec::new();
    for p in pools {
        let Some(sel) = super::pool::usable(p) else {
            continue;
        };
        let Some(win) = recs
            .iter()
            .filter(|r| sel.matches(&r.labels))
            .min_by_key(|r| (r.priority, r.tuned.id.name.clone()))
        else {
            continue;
        };
        let mut kargs = Vec::new();
        kernel_arguments(&tuneds, &win.profile, 0, &mut kargs);
        if kargs.is_empty() {
            continue;
        }
        let name = format!("50-nto-{}", p.name);
        if out
            .iter()
            .any(|m| m.labels == win.labels && m.config.kernel_arguments == kargs)
        {
            continue;
        }
        out.push(Mc {
            name,
            labels: win.labels.clone(),
            generated: true,
            config: McConfig {
                kernel_arguments: kargs,
                ..McConfig::default()
            },
        });
    }
    out
}
