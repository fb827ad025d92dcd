//! K003: `metadata.name` is missing or invalid.

use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Location, Severity};
use crate::inventory::kinds;
use crate::parse::type_meta;
use crate::text::{is_dns_label, is_dns_subdomain};

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "K003",
    name: "invalid-name",
    severity: Severity::Error,
    summary: "metadata.name is missing, not a string, or not a valid DNS-1123 name",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::File,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // Patches and generator manifests are partial objects: completeness is not theirs to have.
    for d in ctx.head_docs().filter(|d| d.role.is_manifest()) {
        let root = d.doc.doc.root();
        let Some((api, kind)) = type_meta(root) else {
            continue;
        };
        // A kustomization file is Kustomize's input, not an object the cluster receives.
        if api.starts_with("kustomize.config.k8s.io/") {
            continue;
        }
        let object = format!("{kind} in {}", d.path);
        let Some(meta_entry) = root.entry("metadata") else {
            let start = root
                .as_map()
                .and_then(|e| e.first())
                .map(|e| e.key.span())
                .unwrap_or(root.span());
            out.push(
                Diagnostic::new(
                    &CODE,
                    format!("{kind} has no `metadata`, so it has no name"),
                    Location::head(d.path, start),
                )
                .help("add `metadata:` with `name:` (and `namespace:` for namespaced kinds)")
                .object(object),
            );
            continue;
        };
        let meta = &meta_entry.value;
        match meta.get("name") {
            None if meta.get("generateName").is_some() => {}
            None => out.push(
                Diagnostic::new(
                    &CODE,
                    format!("{kind} has no `metadata.name`"),
                    Location::head(d.path, meta_entry.key.span()),
                )
                .label("no name under here")
                .help("add `name:` under metadata")
                .object(object),
            ),
            Some(name) => match name.as_str() {
                None => out.push(
                    Diagnostic::new(
                        &CODE,
                        format!("metadata.name must be a string, not a {}", name.type_name()),
                        Location::head(d.path, name.span()),
                    )
                    .help("quote the name")
                    .object(object),
                ),
                Some(n) => {
                    let group = kinds::group_of(api);
                    let strict = kinds::known_kinds(group).is_some()
                        || (group.is_empty()
                            && ["ConfigMap", "Secret", "Namespace", "Service"].contains(&kind));
                    let label = kind == "Namespace" || kind == "Service";
                    let valid = if !strict {
                        !n.is_empty()
                            && !n.contains('/')
                            && !n.contains('%')
                            && n != "."
                            && n != ".."
                    } else if label {
                        is_dns_label(n)
                    } else {
                        is_dns_subdomain(n)
                    };
                    // A placeholder is filled in at deploy time: unknown, not invalid.
                    if !valid && !crate::placeholder::is_templated(n) {
                        let what = if label {
                            "a DNS-1123 label (lowercase letters, digits and '-', at most 63)"
                        } else {
                            "a DNS-1123 subdomain (lowercase letters, digits, '-' and '.', at most 253)"
                        };
                        out.push(
                            Diagnostic::new(
                                &CODE,
                                format!("name `{n}` is not valid for a {kind}: it must be {what}"),
                                Location::head(d.path, name.span()),
                            )
                            .label("invalid name")
                            .help(format!("use `{}`", suggest(n)))
                            .object(object),
                        );
                    }
                }
            },
        }
    }
}

fn suggest(name: &str) -> String {
    let lowered: String = name
        .to_lowercase()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let trimmed = lowered.trim_matches(|c| c == '-' || c == '.');
    if trimmed.is_empty() {
        "a-lowercase-name".to_string()
    } else {
        trimmed.to_string()
    }
}
