//! The daemon's side: diff two rendered configurations (`newMachineConfigDiff`) and turn the
//! diff into node actions with the node disruption policy (`calculatePostConfigChange…`).

use std::collections::BTreeMap;

use serde_json::Value;

use super::config::{file_text, Item, Src};
use super::policy::{self, Policies, PolicyAction};
use super::registries;
use super::render::Rendered;
use crate::diagnostic::Side;
use crate::forecast::Action;

/// One explained reason, with the fields it comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct Reason {
    /// "kernel argument psi=1 added → Reboot (…)".
    pub summary: String,
    /// Contributing fields (base or head side).
    pub srcs: Vec<(Side, Src)>,
}

/// The diff flags of `newMachineConfigDiff`, plus changed items.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    /// osImageURL differs.
    pub os_update: bool,
    /// Release payload (template configs and OS image) differs.
    pub release: bool,
    /// Kernel arguments differ (ordered).
    pub kargs: bool,
    /// FIPS differs.
    pub fips: bool,
    /// Kernel type differs.
    pub kernel_type: bool,
    /// Extensions differ (ordered).
    pub extensions: bool,
    /// Changed file paths.
    pub files: Vec<String>,
    /// Changed unit names.
    pub units: Vec<String>,
    /// passwd differs.
    pub passwd: bool,
    /// Refusal-relevant sections that differ.
    pub other: bool,
}

impl Delta {
    /// Nothing the daemon acts on changed.
    pub fn is_empty(&self) -> bool {
        *self == Delta::default()
    }
}

fn changed_keys<T: PartialEq>(
    a: &BTreeMap<String, Item<T>>,
    b: &BTreeMap<String, Item<T>>,
) -> Vec<String> {
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| a.get(*k).map(|i| &i.value) != b.get(*k).map(|i| &i.value))
        .cloned()
        .collect()
}

fn values<T: Clone>(items: &[Item<T>]) -> Vec<T> {
    items.iter().map(|i| i.value.clone()).collect()
}

/// Compares two rendered configurations (Ignition section, LUKS and version are not compared).
pub fn delta(a: &Rendered, b: &Rendered) -> Delta {
    Delta {
        os_update: a.os_image_url.as_ref().map(|i| &i.value)
            != b.os_image_url.as_ref().map(|i| &i.value),
        release: a.release.as_ref().map(|i| &i.value) != b.release.as_ref().map(|i| &i.value),
        kargs: values(&a.kernel_arguments) != values(&b.kernel_arguments),
        fips: a.fips.value != b.fips.value,
        kernel_type: a.kernel_type.value != b.kernel_type.value,
        extensions: values(&a.extensions) != values(&b.extensions),
        files: changed_keys(&a.files, &b.files),
        units: changed_keys(&a.units, &b.units),
        passwd: !changed_keys(&a.users, &b.users).is_empty()
            || !changed_keys(&a.groups, &b.groups).is_empty(),
        other: !changed_keys(&a.directories, &b.directories).is_empty()
            || !changed_keys(&a.links, &b.links).is_empty()
            || !changed_keys(&a.storage, &b.storage).is_empty()
            || values(&a.ignition_kargs) != values(&b.ignition_kargs),
    }
}

/// The decision for one pool.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The contract action.
    pub action: Action,
    /// Whether nodes drain.
    pub drain: bool,
    /// The daemon's action list.
    pub actions: Vec<PolicyAction>,
    /// Why, item by item.
    pub reasons: Vec<Reason>,
}

fn srcs_of<T>(a: Option<&Item<T>>, b: Option<&Item<T>>) -> Vec<(Side, Src)> {
    let mut out: Vec<(Side, Src)> = Vec::new();
    for (side, item) in [(Side::Head, b), (Side::Base, a)] {
        for s in item.map(|i| i.src.clone()).unwrap_or_default() {
            if !out.iter().any(|(_, o)| *o == s) {
                out.push((side, s));
            }
        }
    }
    out
}

fn verb<T>(a: Option<&Item<T>>, b: Option<&Item<T>>) -> &'static str {
    match (a, b) {
        (None, Some(_)) => "added",
        (Some(_), None) => "removed",
        _ => "changed",
    }
}

/// Reasons for an ordered list (kernel arguments, extensions): additions, removals or reorder.
fn list_reasons(what: &str, a: &[Item<String>], b: &[Item<String>], then: &str) -> Vec<Reason> {
    let mut sa = values(a);
    let mut sb = values(b);
    sa.sort();
    sb.sort();
    if sa == sb {
        let srcs = b
            .iter()
            .zip(a.iter())
            .filter(|(x, y)| x.value != y.value || x.src != y.src)
            .flat_map(|(x, y)| {
                x.src
                    .iter()
                    .map(|s| (Side::Head, s.clone()))
                    .chain(y.src.iter().map(|s| (Side::Base, s.clone())))
            })
            .collect();
        return vec![Reason {
            summary: format!(
                "{what}s reordered: [{}] → [{}] {then}",
                values(a).join(" "),
                values(b).join(" ")
            ),
            srcs,
        }];
    }
    let mut out = Vec::new();
    let mut remaining: Vec<&Item<String>> = a.iter().collect();
    let mut added = Vec::new();
    for item in b {
        match remaining.iter().position(|x| x.value == item.value) {
            Some(p) => {
                remaining.remove(p);
            }
            None => added.push(item),
        }
    }
    for item in added {
        out.push(Reason {
            summary: format!("{what} {} added {then}", item.value),
            srcs: item.src.iter().map(|s| (Side::Head, s.clone())).collect(),
        });
    }
    for item in remaining {
        out.push(Reason {
            summary: format!("{what} {} removed {then}", item.value),
            srcs: item.src.iter().map(|s| (Side::Base, s.clone())).collect(),
        });
    }
    out
}

/// `calculatePostConfigChangeNodeDisruptionAction` plus the drain decision, explained.
pub fn decide(a: &Rendered, b: &Rendered, d: &Delta, p: &Policies) -> Decision {
    let mut reasons = Vec::new();
    let mut reboot = false;
    let always = "→ Reboot (always reboots)";
    if d.release {
        reboot = true;
        reasons.push(Reason {
            summary: format!("release update: new OS image and template configs {always}"),
            srcs: srcs_of(a.release.as_ref(), b.release.as_ref()),
        });
    }
    if d.os_update {
        reboot = true;
        let show = |r: &Rendered| {
            r.os_image_url
                .as_ref()
                .map(|i| i.value.clone())
                .unwrap_or_else(|| "(release default)".into())
        };
        reasons.push(Reason {
            summary: format!("osImageURL {} → {} {always}", show(a), show(b)),
            srcs: srcs_of(a.os_image_url.as_ref(), b.os_image_url.as_ref()),
        });
    }
    if d.kargs {
        reboot = true;
        reasons.extend(list_reasons(
            "kernel argument",
            &a.kernel_arguments,
            &b.kernel_arguments,
            always,
        ));
    }
    if d.fips {
        reboot = true;
        reasons.push(Reason {
            summary: format!("fips {} → {} {always}", a.fips.value, b.fips.value),
            srcs: srcs_of(Some(&a.fips), Some(&b.fips)),
        });
    }
    if d.kernel_type {
        reboot = true;
        reasons.push(Reason {
            summary: format!(
                "kernelType {} → {} {always}",
                a.kernel_type.value, b.kernel_type.value
            ),
            srcs: srcs_of(Some(&a.kernel_type), Some(&b.kernel_type)),
        });
    }
    if d.extensions {
        reboot = true;
        reasons.extend(list_reasons(
            "extension",
            &a.extensions,
            &b.extensions,
            always,
        ));
    }
    if d.other {
        let mut srcs = Vec::new();
        for (x, y) in [
            (&a.directories, &b.directories),
            (&a.links, &b.links),
            (&a.storage, &b.storage),
        ] {
            for k in changed_keys(x, y) {
                srcs.extend(srcs_of(x.get(&k), y.get(&k)));
            }
        }
        reasons.push(Reason {
            summary: "Ignition storage (directories, links, disks) changed → not applied to existing nodes".into(),
            srcs,
        });
    }
    let mut lists: Vec<Vec<PolicyAction>> = Vec::new();
    let mut unsafe_registries: Option<String> = None;
    for path in &d.files {
        let (x, y) = (a.files.get(path), b.files.get(path));
        let decided = policy::decide_file(p, path);
        let mut why = decided.why.clone();
        if decided.actions.contains(&PolicyAction::Special) {
            let old = x.and_then(|i| file_text(&i.value));
            let new = y.and_then(|i| file_text(&i.value));
            match registries::drain_reason(old.as_deref(), new.as_deref()) {
                Some(r) => {
                    why.push_str(&format!("; drain: {r}"));
                    unsafe_registries = Some(r);
                }
                None => why.push_str("; no drain: only safe additions"),
            }
        }
        let mut srcs = srcs_of(x, y);
        if let Some(s) = decided.policy {
            srcs.push((Side::Head, s));
        }
        reasons.push(Reason {
            summary: format!("file {path} {} → {why}", verb(x, y)),
            srcs,
        });
        lists.push(decided.actions);
    }
    for name in &d.units {
        let (x, y) = (a.units.get(name), b.units.get(name));
        let decided = policy::decide_unit(p, name);
        let mut srcs = srcs_of(x, y);
        if let Some(s) = decided.policy {
            srcs.push((Side::Head, s));
        }
        reasons.push(Reason {
            summary: format!("unit {name} {} → {}", verb(x, y), decided.why),
            srcs,
        });
        lists.push(decided.actions);
    }
    if d.passwd {
        let decided = policy::decide_passwd(p);
        let mut srcs = Vec::new();
        for k in changed_keys(&a.users, &b.users) {
            srcs.extend(srcs_of(a.users.get(&k), b.users.get(&k)));
        }
        for k in changed_keys(&a.groups, &b.groups) {
            srcs.extend(srcs_of(a.groups.get(&k), b.groups.get(&k)));
        }
        if let Some(s) = decided.policy {
            srcs.push((Side::Head, s));
        }
        reasons.push(Reason {
            summary: format!("passwd (users, SSH keys) changed → {}", decided.why),
            srcs,
        });
        lists.push(decided.actions);
    }
    let actions = if reboot {
        vec![PolicyAction::Reboot]
    } else {
        policy::combine(&lists)
    };
    let (action, drain) = classify(&actions, unsafe_registries.is_some());
    Decision {
        action,
        drain,
        actions,
        reasons,
    }
}

/// Maps the daemon's action list to the contract action (mco-disruption.md section 11).
pub fn classify(actions: &[PolicyAction], unsafe_registries: bool) -> (Action, bool) {
    let has = |f: &dyn Fn(&PolicyAction) -> bool| actions.iter().any(f);
    if has(&|a| *a == PolicyAction::Reboot) {
        (Action::Reboot, true)
    } else if has(&|a| *a == PolicyAction::Drain)
        || (unsafe_registries && has(&|a| *a == PolicyAction::Special))
    {
        (Action::Drain, true)
    } else if has(&|a| matches!(a, PolicyAction::Restart(_))) {
        (Action::Restart, false)
    } else if has(&|a| {
        matches!(
            a,
            PolicyAction::Reload(_) | PolicyAction::DaemonReload | PolicyAction::Special
        )
    }) {
        (Action::Reload, false)
    } else {
        (Action::None, false)
    }
}

/// Files of a rendered config as path → value (for tests and refusals).
pub fn file_value<'a>(r: &'a Rendered, path: &str) -> Option<&'a Value> {
    r.files.get(path).map(|i| &i.value)
}
