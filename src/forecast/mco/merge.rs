//! The MCO's config merge: a pool's rendered configuration from its MachineConfigs, in
//! `MergeMachineConfigs` order with Ignition's merge rules (named `merge` so "render" means only
//! Kustomize).

use std::collections::BTreeMap;

use serde_json::Value;

use super::config::{merge_value, Invalid, Item, Mc, Src};

/// Extensions the MCO accepts.
pub const ALLOWED_EXTENSIONS: [&str; 7] = [
    "two-node-ha",
    "ipsec",
    "usbguard",
    "kerberos",
    "kernel-devel",
    "sandboxed-containers",
    "sysstat",
];

/// Kernel types the MCO accepts.
pub const KERNEL_TYPES: [&str; 4] = ["", "default", "realtime", "64k-pages"];

/// A pool's rendered configuration (`rendered-<pool>-<hash>`), with provenance.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rendered {
    /// MachineConfig names in merge order.
    pub order: Vec<String>,
    /// Files by path.
    pub files: BTreeMap<String, Item<Value>>,
    /// Units by name.
    pub units: BTreeMap<String, Item<Value>>,
    /// Users by name.
    pub users: BTreeMap<String, Item<Value>>,
    /// Groups by name.
    pub groups: BTreeMap<String, Item<Value>>,
    /// Directories by path.
    pub directories: BTreeMap<String, Item<Value>>,
    /// Links by path.
    pub links: BTreeMap<String, Item<Value>>,
    /// Disks, filesystems, raid.
    pub storage: BTreeMap<String, Item<Value>>,
    /// Ignition kernelArguments sections, in merge order.
    pub ignition_kargs: Vec<Item<Value>>,
    /// Kernel arguments, concatenated in merge order.
    pub kernel_arguments: Vec<Item<String>>,
    /// Extensions, concatenated in merge order.
    pub extensions: Vec<Item<String>>,
    /// Canonical kernel type (`default`, `realtime`, `64k-pages`).
    pub kernel_type: Item<String>,
    /// FIPS.
    pub fips: Item<bool>,
    /// osImageURL override by the last non-generated MachineConfig.
    pub os_image_url: Option<Item<String>>,
    /// baseOSExtensionsContainerImage override (not diffed by the daemon; applied with the next
    /// OS update).
    pub extensions_image: Option<Item<String>>,
    /// Release payload fingerprint of the template configs.
    pub release: Option<Item<String>>,
    /// Why the MCO cannot render it.
    pub invalid: Vec<Invalid>,
}

fn merge_keyed(into: &mut BTreeMap<String, Item<Value>>, items: &[(String, Item<Value>)]) {
    for (key, item) in items {
        match into.get_mut(key) {
            Some(existing) => {
                merge_value(&mut existing.value, &item.value);
                existing.src.extend(item.src.iter().cloned());
            }
            None => {
                into.insert(key.clone(), item.clone());
            }
        }
    }
}

/// Sorts MachineConfigs the way `MergeMachineConfigs` does: role `worker` first by name, then
/// the rest by name.
pub fn merge_order<'a>(mcs: &[&'a Mc]) -> Vec<&'a Mc> {
    let is_worker = |m: &Mc| {
        m.labels
            .get("machineconfiguration.openshift.io/role")
            .map(String::as_str)
            == Some("worker")
    };
    let mut workers: Vec<&Mc> = mcs.iter().copied().filter(|m| is_worker(m)).collect();
    let mut others: Vec<&Mc> = mcs.iter().copied().filter(|m| !is_worker(m)).collect();
    workers.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    others.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    workers.extend(others);
    workers
}

/// Merges the selected MachineConfigs into the rendered configuration.
pub fn merge(mcs: &[&Mc]) -> Rendered {
    let mut r = Rendered {
        kernel_type: Item {
            value: "default".into(),
            src: Vec::new(),
        },
        fips: Item {
            value: false,
            src: Vec::new(),
        },
        ..Rendered::default()
    };
    for mc in merge_order(mcs) {
        let c = &mc.config;
        r.order.push(mc.name.clone());
        merge_keyed(&mut r.files, &c.files);
        merge_keyed(&mut r.units, &c.units);
        merge_keyed(&mut r.users, &c.users);
        merge_keyed(&mut r.groups, &c.groups);
        merge_keyed(&mut r.directories, &c.directories);
        merge_keyed(&mut r.links, &c.links);
        merge_keyed(&mut r.storage, &c.storage);
        r.ignition_kargs.extend(c.ignition_kargs.iter().cloned());
        r.kernel_arguments
            .extend(c.kernel_arguments.iter().cloned());
        r.extensions.extend(c.extensions.iter().cloned());
        if let Some(kt) = &c.kernel_type {
            if !KERNEL_TYPES.contains(&kt.value.as_str()) {
                r.invalid.push(invalid(
                    format!(
                        "kernelType `{}` is not one of default, realtime, 64k-pages",
                        kt.value
                    ),
                    &kt.src,
                ));
            } else if kt.value == "realtime" || kt.value == "64k-pages" {
                r.kernel_type = kt.clone();
            }
        }
        if let Some(f) = &c.fips {
            if f.value {
                r.fips = f.clone();
            }
        }
        if let (Some(url), false) = (&c.os_image_url, mc.generated) {
            r.os_image_url = Some(url.clone());
        }
        if let (Some(img), false) = (&c.extensions_image, mc.generated) {
            r.extensions_image = Some(img.clone());
        }
        if let Some(rel) = &c.release {
            r.release = Some(rel.clone());
        }
        r.invalid.extend(c.invalid.iter().cloned());
    }
    for e in &r.extensions {
        if !ALLOWED_EXTENSIONS.contains(&e.value.as_str()) {
            let msg = format!(
                "extension `{}` is not supported (allowed: {})",
                e.value,
                ALLOWED_EXTENSIONS.join(", ")
            );
            r.invalid.push(invalid(msg, &e.src));
        }
        if e.value == "kernel-devel" && r.kernel_type.value != "default" {
            let msg = format!(
                "extension kernel-devel cannot be used with kernelType {}",
                r.kernel_type.value
            );
            r.invalid.push(invalid(msg, &e.src));
        }
    }
    r
}

fn invalid(message: String, src: &[Src]) -> Invalid {
    Invalid {
        message,
        src: src.first().cloned().unwrap_or_else(|| Src {
            object: crate::inventory::ObjectId {
                group: Default::default(),
                kind: Default::default(),
                namespace: None,
                name: Default::default(),
                scope: Default::default(),
            },
            pointer: String::new(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forecast::mco::config::{McConfig, Src};
    use crate::inventory::ObjectId;

    fn src(name: &str) -> Src {
        Src {
            object: ObjectId {
                group: "machineconfiguration.openshift.io".into(),
                kind: "MachineConfig".into(),
                namespace: None,
                name: name.into(),
                scope: Default::default(),
            },
            pointer: String::new(),
        }
    }

    fn mc(name: &str, role: &str, kargs: &[&str]) -> Mc {
        Mc {
            name: name.into(),
            labels: [(
                "machineconfiguration.openshift.io/role".to_string(),
                role.to_string(),
            )]
            .into(),
            generated: false,
            config: McConfig {
                kernel_arguments: kargs
                    .iter()
                    .map(|k| Item::new(k.to_string(), src(name)))
                    .collect(),
                ..McConfig::default()
            },
        }
    }

    #[test]
    fn worker_configs_merge_before_custom_role_whatever_the_names() {
        let a = mc("00-infra", "infra", &["b"]);
        let w = mc("99-worker", "worker", &["a"]);
        let r = merge(&[&a, &w]);
        assert_eq!(r.order, vec!["99-worker", "00-infra"]);
        let kargs: Vec<&str> = r
            .kernel_arguments
            .iter()
            .map(|k| k.value.as_str())
            .collect();
        assert_eq!(kargs, vec!["a", "b"]);
    }

    #[test]
    fn later_file_wins_per_path_field_by_field() {
        let mut a = mc("10-a", "worker", &[]);
        let mut b = mc("20-b", "worker", &[]);
        a.config.files = vec![(
            "/etc/x".into(),
            Item::new(
                serde_json::json!({"mode": 420, "contents": {"source": "data:,a"}}),
                src("10-a"),
            ),
        )];
        b.config.files = vec![(
            "/etc/x".into(),
            Item::new(
                serde_json::json!({"contents": {"source": "data:,b"}}),
                src("20-b"),
            ),
        )];
        let r = merge(&[&b, &a]);
        assert_eq!(
            r.files["/etc/x"].value,
            serde_json::json!({"mode": 420, "contents": {"source": "data:,b"}})
        );
    }

    #[test]
    fn generated_configs_never_override_os_image_and_kernel_type_is_last_non_default() {
        let mut a = mc("10-a", "worker", &[]);
        a.config.os_image_url = Some(Item::new("quay.io/a".into(), src("10-a")));
        a.config.kernel_type = Some(Item::new("realtime".into(), src("10-a")));
        let mut g = mc("99-worker-generated-x", "worker", &[]);
        g.generated = true;
        g.config.os_image_url = Some(Item::new("quay.io/g".into(), src("g")));
        g.config.kernel_type = Some(Item::new("default".into(), src("g")));
        let r = merge(&[&a, &g]);
        assert_eq!(
            r.os_image_url.map(|u| u.value),
            Some("quay.io/a".to_string())
        );
        assert_eq!(r.kernel_type.value, "realtime");
    }
}
