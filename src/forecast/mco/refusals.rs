//! Changes the MCO refuses (`reconcile.go`, render validation): the pool goes `RenderDegraded`
//! and nothing rolls until the configuration is fixed.

use std::collections::BTreeMap;

use serde_json::Value;

use super::config::{file_text, Item, Src};
use super::render::Rendered;

/// One refusal, with the field that causes it.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    /// Why the MCO refuses.
    pub message: String,
    /// The offending field.
    pub src: Option<Src>,
    /// Accepted because of `irreconcilableValidationOverrides` (applies to new nodes only).
    pub overridden: bool,
}

/// Pool-level facts the refusal checks need.
#[derive(Clone, Debug, Default)]
pub struct PoolFacts {
    /// The pool's effective OS stream name, when set.
    pub stream: Option<(String, Src)>,
    /// `irreconcilableValidationOverrides.storage` entries (`Disks`, `FileSystems`, `Raid`).
    pub storage_overrides: Vec<String>,
}

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
    let mut out = Vec::new();
    let mut push = |message: String, src: Option<Src>| {
        out.push(Refusal {
            message,
            src,
            overridden: false,
        })
    };
    for inv in &b.invalid {
        push(inv.message.clone(), Some(inv.src.clone()));
    }
    if a.fips.value != b.fips.value {
        let src = b.fips.src.first().or(a.fips.src.first()).cloned();
        push(
            format!(
                "fips {} → {} cannot change on existing nodes",
                a.fips.value, b.fips.value
            ),
            src,
        );
    }
    if let Some((k, src)) = first_changed(&a.groups, &b.groups) {
        push(
            format!("passwd.groups change (group `{k}`) is not supported"),
            src,
        );
    }
    if first_changed(&a.users, &b.users).is_some() {
        for (name, item) in &b.users {
            let src = item.src.last().cloned();
            if name != "core" {
                push(
                    format!("user `{name}` is not `core`; only the core user can be configured"),
                    src,
                );
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
                push(format!("core user field `{f}` cannot be changed (only sshAuthorizedKeys and passwordHash)"), src);
            } else if fields.is_empty() {
                push(
                    "core user has neither sshAuthorizedKeys nor passwordHash".into(),
                    src,
                );
            }
        }
    }
    let ka: Vec<&Value> = a.ignition_kargs.iter().map(|i| &i.value).collect();
    let kb: Vec<&Value> = b.ignition_kargs.iter().map(|i| &i.value).collect();
    if ka != kb {
        let src = b
            .ignition_kargs
            .first()
            .or(a.ignition_kargs.first())
            .and_then(|i| i.src.first().cloned());
        push(
            "the Ignition kernelArguments section cannot change; use spec.kernelArguments".into(),
            src,
        );
    }
    if let Some((k, src)) = first_changed(&a.directories, &b.directories) {
        push(
            format!("storage.directories change (`{k}`) is not supported"),
            src,
        );
    }
    if !b.links.is_empty() {
        if let Some((k, src)) = first_changed(&a.links, &b.links) {
            push(
                format!("storage.links change (`{k}`) is not supported"),
                src,
            );
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
            push(
                format!("file {path} uses `append`, which is not supported"),
                src.clone(),
            );
        }
        if path == "/run/machine-config-daemon-force" {
            push(
                "a file at /run/machine-config-daemon-force is not allowed".into(),
                src,
            );
        }
    }
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
                message: format!(
                    "the storage.{section} change cannot be applied to existing nodes"
                ),
                src,
                overridden,
            });
        }
    }
    if let (Some((stream, stream_src)), Some(url)) = (&facts.stream, &b.os_image_url) {
        out.push(Refusal {
            message: format!(
                "osImageURL override cannot be combined with the pool's osImageStream `{stream}`"
            ),
            src: url.src.first().cloned().or(Some(stream_src.clone())),
            overridden: false,
        });
    }
    if let Some((stream, _)) = &facts.stream {
        if stream == "rhel-10" || stream == "centos-10" {
            if let Some(src) = runc_default(b) {
                out.push(Refusal {
                    message: format!("runc is not available on the {stream} OS stream; CRI-O's default_runtime resolves to runc"),
                    src: Some(src),
                    overridden: false,
                });
            }
        }
    }
    out
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
