//! Changes the MCO refuses (`reconcile.go`, render validation): the pool goes `RenderDegraded`
//! and nothing rolls until the configuration is fixed.

use std::collections::BTreeMap;

use serde_json::Value;

use super::config::{file_text, Item, Src};
use super::merge::Rendered;

/// One refusal, with the field that causes it.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    /// Why the MCO refuses.
    pub message: String,
    /// The offending field.
    pub src: Option<Src>,
    /// Accepted because of `irreconcilableValidationOverrides` (applies to new nodes only).
    pub overridden: bool,
    /// The MachineConfig itself is invalid (`ValidateMachineConfig`), not the change between
    /// two valid configurations: the fix is in the entry, not a reprovisioning.
    pub invalid: bool,
}

/// Pool-level facts the refusal checks need.
#[derive(Clone, Debug, Default)]
pub struct PoolFacts {
    /// The pool's OS stream name, when the pool (or, for custom pools, the worker pool) sets one.
    pub stream: Option<(String, Src)>,
    /// The stream the pool's nodes run, the cluster default included (runc refusal).
    pub os_stream: Option<String>,
    /// `irreconcilableValidationOverrides.storage` entries (`Disks`, `FileSystems`, `Raid`).
    pub storage_overrides: Vec<String>,
}

/// The first key (in order) whose value differs between two maps, with where it is set.
fn first_changed(
    a: &BTreeMap<String, Item<Value>>,
    b: &BTreeMap<String, Item<Value>>,
) -> Option<(String, Option<Src>)> {
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .find(|k| a.get(*k).map(|i| &i.value) != b.get(*k).map(|i| &i.value))
        .map(|k| {
            let src = b
                .get(k)
                .or_else(|| a.get(k))
                .and_then(|i| i.src.last().cloned());
            (k.clone(), src)
        })
}

/// Every refusal between the current (base) and new (head) rendered configuration.
pub fn refusals(a: &Rendered, b: &Rendered, facts: &PoolFacts) -> Vec<Refusal> {
    let mut out: Vec<Refusal> = b
        .invalid
        .iter()
        .map(|inv| Refusal {
            message: inv.message.clone(),
            src: Some(inv.src.clone()),
            overridden: false,
            invalid: true,
        })
        .collect();
    if a.fips.value != b.fips.value {
        let src = b.fips.src.first().or(a.fips.src.first()).cloned();
        out.push(refused(
            format!(
                "fips {} → {} cannot change on existing nodes",
                a.fips.value, b.fips.value
            ),
            src,
        ));
    }
    passwd(a, b, &mut out);
    let ka: Vec<&Value> = a.ignition_kargs.iter().map(|i| &i.value).collect();
    let kb: Vec<&Value> = b.ignition_kargs.iter().map(|i| &i.value).collect();
    if ka != kb {
        let src = b
            .ignition_kargs
            .first()
            .or(a.ignition_kargs.first())
            .and_then(|i| i.src.first().cloned());
        out.push(refused(
            "the Ignition kernelArguments section cannot change; use spec.kernelArguments".into(),
            src,
        ));
    }
    storage_paths(a, b, &mut out);
    storage_sections(a, b, facts, &mut out);
    os_stream(b, facts, &mut out);
    out
}

/// A refusal of a change between two valid configurations, without an override.
fn refused(message: String, src: Option<Src>) -> Refusal {
    Refusal {
        message,
        src,
        overridden: false,
        invalid: false,
    }
}

/// `passwd`: groups cannot change, and of the users only `core`'s SSH keys and password hash.
fn passwd(a: &Rendered, b: &Rendered, out: &mut Vec<Refusal>) {
    if let Some((k, src)) = first_changed(&a.groups, &b.groups) {
        out.push(refused(
            format!("passwd.groups change (group `{k}`) is not supported"),
            src,
        ));
    }
    if first_changed(&a.users, &b.users).is_none() {
        return;
    }
    for (name, item) in &b.users {
        let src = item.src.last().cloned();
        if name != "core" {
            out.push(refused(
                format!("user `{name}` is not `core`; only the core user can be configured"),
                src,
            ));
            continue;
        }
        let fields: Vec<&String> = item
            .value
            .as_object()
            .map(|o| o.keys().collect())
            .unwrap_or_default();
        if let Some(f) = fields
            .iter()
            .find(|f| f.as_str() != "sshAuthorizedKeys" && f.as_str() != "passwordHash")
        {
            out.push(refused(format!("core user field `{f}` cannot be changed (only sshAuthorizedKeys and passwordHash)"), src));
        } else if fields.is_empty() {
            out.push(refused(
                "core user has neither sshAuthorizedKeys nor passwordHash".into(),
                src,
            ));
        }
    }
}

/// `storage` directories, links and files: what the MCO cannot write onto an existing node.
fn storage_paths(a: &Rendered, b: &Rendered, out: &mut Vec<Refusal>) {
    if let Some((k, src)) = first_changed(&a.directories, &b.directories) {
        out.push(refused(
            format!("storage.directories change (`{k}`) is not supported"),
            src,
        ));
    }
    if !b.links.is_empty() {
        if let Some((k, src)) = first_changed(&a.links, &b.links) {
            out.push(refused(
                format!("storage.links change (`{k}`) is not supported"),
                src,
            ));
        }
    }
    for (path, item) in &b.files {
        let src = item.src.last().cloned();
        if item
            .value
            .get("append")
            .and_then(Value::as_array)
            .is_some_and(|x| !x.is_empty())
        {
            out.push(refused(
                format!("file {path} uses `append`, which is not supported"),
                src.clone(),
            ));
        }
        if path == "/run/machine-config-daemon-force" {
            out.push(refused(
                "a file at /run/machine-config-daemon-force is not allowed".into(),
                src,
            ));
        }
    }
}

/// Disks, file systems and RAID cannot change on existing nodes, unless the pool's
/// `irreconcilableValidationOverrides` accepts it (for new nodes).
fn storage_sections(a: &Rendered, b: &Rendered, facts: &PoolFacts, out: &mut Vec<Refusal>) {
    for (section, name) in [
        ("disks", "Disks"),
        ("filesystems", "FileSystems"),
        ("raid", "Raid"),
    ] {
        let pick = |r: &Rendered| -> BTreeMap<String, Item<Value>> {
            r.storage
                .iter()
                .filter(|(k, _)| k.starts_with(&format!("{section} ")))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        };
        if let Some((_, src)) = first_changed(&pick(a), &pick(b)) {
            let overridden = facts.storage_overrides.iter().any(|o| o == name);
            out.push(Refusal {
                overridden,
                ..refused(
                    format!("the storage.{section} change cannot be applied to existing nodes"),
                    src,
                )
            });
        }
    }
}

/// What the pool's OS stream rules out: an `osImageURL` override, and runc where the stream
/// lacks it.
fn os_stream(b: &Rendered, facts: &PoolFacts, out: &mut Vec<Refusal>) {
    if let (Some((stream, stream_src)), Some(url)) = (&facts.stream, &b.os_image_url) {
        out.push(refused(
            format!(
                "osImageURL override cannot be combined with the pool's osImageStream `{stream}`"
            ),
            url.src.first().cloned().or(Some(stream_src.clone())),
        ));
    }
    let Some(stream) = facts
        .os_stream
        .as_ref()
        .or(facts.stream.as_ref().map(|s| &s.0))
    else {
        return;
    };
    if crate::forecast::streams::lacks_runc(stream) {
        if let Some(src) = runc_default(b) {
            out.push(refused(
                format!("runc is not available on the {stream} OS stream; CRI-O's default_runtime resolves to runc"),
                Some(src),
            ));
        }
    }
}

/// The CRI-O drop-in that makes `runc` the default runtime (lexical order, last wins).
pub fn runc_default(r: &Rendered) -> Option<Src> {
    let mut last: Option<(String, Option<Src>)> = None;
    for (path, item) in r.files.range("/etc/crio/crio.conf.d/".to_string()..) {
        if !path.starts_with("/etc/crio/crio.conf.d/") {
            break;
        }
        let Some(text) = file_text(&item.value) else {
            continue;
        };
        let Ok(table) = text.parse::<toml::Table>() else {
            continue;
        };
        if let Some(rt) = table
            .get("crio")
            .and_then(|c| c.get("runtime"))
            .and_then(|r| r.get("default_runtime"))
            .and_then(toml::Value::as_str)
        {
            last = Some((rt.to_string(), item.src.last().cloned()));
        }
    }
    match last {
        Some((rt, src)) if rt == "runc" => src,
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    //! Oracle: MCO `pkg/controller/common/reconcile_test.go` (its `TestReconcilable` cases).

    use super::*;
    use crate::forecast::mco::config::{Invalid, Mc, McConfig};
    use crate::forecast::mco::merge::merge;
    use serde_json::json;

    fn src() -> Src {
        crate::forecast::mco::config::test_src()
    }

    fn item(v: Value) -> Item<Value> {
        Item::new(v, src())
    }

    fn rendered(c: McConfig) -> Rendered {
        merge(&[&Mc {
            name: "00-test".into(),
            labels: Default::default(),
            generated: false,
            config: c,
        }])
    }

    fn core(keys: &[&str]) -> McConfig {
        McConfig {
            users: vec![("core".into(), item(json!({"sshAuthorizedKeys": keys})))],
            ..McConfig::default()
        }
    }

    fn refused(a: McConfig, b: McConfig) -> bool {
        refused_with(a, b, &[])
    }

    fn refused_with(a: McConfig, b: McConfig, overrides: &[&str]) -> bool {
        let facts = PoolFacts {
            stream: None,
            os_stream: None,
            storage_overrides: overrides.iter().map(|s| s.to_string()).collect(),
        };
        refusals(&rendered(a), &rendered(b), &facts)
            .iter()
            .any(|r| !r.overridden)
    }

    #[test]
    fn unsupported_ignition_version_is_refused() {
        let b = McConfig {
            invalid: vec![Invalid {
                message: "Ignition version 4.0.0 is not supported".into(),
                src: src(),
            }],
            ..McConfig::default()
        };
        assert!(refused(McConfig::default(), b));
    }

    #[test]
    fn storage_is_refused_unless_overridden() {
        for (section, name) in [
            ("disks", "Disks"),
            ("filesystems", "FileSystems"),
            ("raid", "Raid"),
        ] {
            let b = McConfig {
                storage: vec![(format!("{section} x"), item(json!({"device": "/dev/sdb"})))],
                ..McConfig::default()
            };
            assert!(refused(McConfig::default(), b.clone()), "{section}");
            assert!(
                !refused_with(McConfig::default(), b, &[name]),
                "{section} with override"
            );
        }
    }

    #[test]
    fn groups_ignition_kargs_fips_force_file_directories_are_refused() {
        let groups = McConfig {
            groups: vec![("admins".into(), item(json!({})))],
            ..McConfig::default()
        };
        assert!(refused(McConfig::default(), groups));
        let kargs = McConfig {
            ignition_kargs: Some(item(json!({"shouldExist": ["x"]}))),
            ..McConfig::default()
        };
        assert!(refused(McConfig::default(), kargs));
        let fips = McConfig {
            fips: Some(Item::new(true, src())),
            ..McConfig::default()
        };
        assert!(refused(McConfig::default(), fips));
        let force = McConfig {
            files: vec![(
                "/run/machine-config-daemon-force".into(),
                item(json!({"overwrite": true})),
            )],
            ..McConfig::default()
        };
        assert!(refused(McConfig::default(), force));
        let dirs = McConfig {
            directories: vec![("/etc/x".into(), item(json!({})))],
            ..McConfig::default()
        };
        assert!(refused(McConfig::default(), dirs));
        let append = McConfig {
            files: vec![(
                "/etc/y".into(),
                item(json!({"append": [{"source": "data:,x"}]})),
            )],
            ..McConfig::default()
        };
        assert!(refused(McConfig::default(), append));
    }

    #[test]
    fn links_are_refused_unless_all_removed() {
        let links = McConfig {
            links: vec![("/etc/l".into(), item(json!({"target": "/etc/x"})))],
            ..McConfig::default()
        };
        assert!(refused(McConfig::default(), links.clone()));
        assert!(!refused(links, McConfig::default()));
    }

    #[test]
    fn users() {
        assert!(!refused(core(&["1234"]), core(&["5678", "abc"])));
        let renamed = McConfig {
            users: vec![("ops".into(), item(json!({"sshAuthorizedKeys": ["1234"]})))],
            ..McConfig::default()
        };
        assert!(refused(core(&["1234"]), renamed));
        let home = McConfig {
            users: vec![(
                "core".into(),
                item(json!({"sshAuthorizedKeys": ["1"], "homeDir": "/home/x"})),
            )],
            ..McConfig::default()
        };
        assert!(refused(core(&["1234"]), home));
        let mut second = core(&["1234"]);
        second
            .users
            .push(("ops".into(), item(json!({"sshAuthorizedKeys": ["1"]}))));
        assert!(refused(core(&["1234"]), second));
        let bare = McConfig {
            users: vec![("core".into(), item(json!({})))],
            ..McConfig::default()
        };
        assert!(refused(core(&["1234"]), bare));
        assert!(!refused(core(&["1234"]), McConfig::default()));
    }
}

#[cfg(test)]
mod runc_tests {
    use super::*;
    use crate::forecast::mco::config::{text_file, Mc, McConfig};
    use crate::forecast::mco::merge::merge;
    use crate::inventory::ObjectId;

    fn dropin(path: &str, runtime: &str) -> (String, Item<Value>) {
        let src = Src {
            object: ObjectId {
                group: "machineconfiguration.openshift.io".into(),
                kind: "MachineConfig".into(),
                namespace: None,
                name: path.into(),
                scope: Default::default(),
            },
            pointer: String::new(),
        };
        (
            path.into(),
            Item::new(
                text_file(&format!(
                    "[crio.runtime]\ndefault_runtime = \"{runtime}\"\n"
                )),
                src,
            ),
        )
    }

    fn rendered(files: Vec<(String, Item<Value>)>) -> Rendered {
        merge(&[&Mc {
            name: "x".into(),
            labels: Default::default(),
            generated: false,
            config: McConfig {
                files,
                ..McConfig::default()
            },
        }])
    }

    #[test]
    fn the_lexically_last_crio_dropin_decides_the_default_runtime() {
        let runc_last = rendered(vec![
            dropin("/etc/crio/crio.conf.d/01-ctrcfg-defaultRuntime", "crun"),
            dropin("/etc/crio/crio.conf.d/99-custom", "runc"),
        ]);
        assert!(runc_default(&runc_last).is_some());
        let crun_last = rendered(vec![
            dropin("/etc/crio/crio.conf.d/01-ctrcfg-defaultRuntime", "runc"),
            dropin("/etc/crio/crio.conf.d/99-custom", "crun"),
        ]);
        assert!(runc_default(&crun_last).is_none());
        let elsewhere = rendered(vec![dropin("/etc/crio/other.conf", "runc")]);
        assert!(runc_default(&elsewhere).is_none());
    }
}
