//! Causes from `spec.config` / `spec.tuningConfig`: the multiset of normalised documents, refused
//! documents, and ConfigMap references that do not resolve (the controller's `defaultAndValidateConfigManifest`).

use super::{at_field, below, field_summary, fields, located, Located, Triggered};
use crate::diagnostic::Side as Side_;
use crate::diff::FieldChange;
use crate::forecast::hypershift::inputs::{ConfigDoc, Side, Trigger};
use crate::forecast::hypershift::locate;
use crate::forecast::Input;
use crate::inventory::{Inventory, ObjectId};

fn doc_summary(input: &Input<'_>, d: &ConfigDoc, f: &FieldChange) -> String {
    let sub = f
        .path
        .split_once(']')
        .map(|(_, rest)| rest)
        .unwrap_or_default();
    let segs: Vec<&str> = sub.split('/').collect();
    let named = |inv: &Inventory, list: &[&str], key: &str| -> Option<String> {
        let cm = inv.get(&d.cm)?;
        let doc = locate::embedded_doc(cm.parsed(), d.key, &d.label)?;
        let i: usize = segs.get(list.len() + 1)?.parse().ok()?;
        let mut n = doc.doc.root().path(list)?.as_seq()?.get(i)?;
        n = n.get(key)?;
        n.as_str().map(str::to_string)
    };
    let files = ["spec", "config", "storage", "files"];
    let units = ["spec", "config", "systemd", "units"];
    let pick = |list: &[&str], key: &str| {
        named(input.head, list, key).or_else(|| named(input.base, list, key))
    };
    if segs.len() > files.len() + 1 && segs[1..=files.len()] == files {
        if let Some(p) = pick(&files, "path") {
            return format!("file {p} changed");
        }
    }
    if segs.len() > units.len() + 1 && segs[1..=units.len()] == units {
        if let Some(u) = pick(&units, "name") {
            return format!("unit {u} changed");
        }
    }
    if sub.is_empty() {
        return match (&f.before, &f.after) {
            (None, Some(_)) => format!("{} added", d.label),
            (Some(_), None) => format!("{} removed", d.label),
            _ => format!("{} changed", d.label),
        };
    }
    format!("{}: {}", d.label, field_summary(f))
}

/// Causes from the difference of the two multisets of normalised documents, and refused ones.
pub(super) fn documents(input: &Input<'_>, b: &Side<'_>, h: &Side<'_>, out: &mut Vec<Triggered>) {
    let mut base_left: Vec<&ConfigDoc> = b.docs.iter().collect();
    let mut head_left: Vec<&ConfigDoc> = Vec::new();
    for d in &h.docs {
        match base_left.iter().position(|x| x.value == d.value) {
            Some(i) => {
                base_left.remove(i);
            }
            None => head_left.push(d),
        }
    }
    let same = |x: &ConfigDoc, y: &ConfigDoc| x.cm == y.cm && x.key == y.key && x.label == y.label;
    for d in &head_left {
        let prefix = format!("/data/{}[{}]", d.key, d.label);
        let overwritten: Vec<String> = d
            .overwritten
            .iter()
            .map(|o| format!("{prefix}{o}"))
            .collect();
        let mut found: Vec<Located> = fields(input, &d.cm)
            .iter()
            .filter(|f| below(&f.path, &prefix) && !overwritten.iter().any(|o| below(&f.path, o)))
            .filter_map(|f| at_field(input, &d.cm, f, doc_summary(input, d, f)))
            .collect();
        if found.is_empty() {
            let modified = base_left.iter().any(|x| same(x, d));
            let summary = if modified {
                format!("{} changed", d.label)
            } else {
                format!("{} added to the NodePool's {}", d.label, d.key)
            };
            found.push(located(
                &d.cm,
                &prefix,
                &d.path,
                Side_::Head,
                d.span,
                summary,
            ));
        }
        let trigger = Trigger::Hash;
        out.extend(found.into_iter().map(|(mut cause, location)| {
            if d.possible {
                cause.summary = format!(
                    "{} (rollout possible: Tuned without boot-time settings)",
                    cause.summary
                );
            }
            Triggered {
                trigger,
                cause,
                location,
                possible: d.possible,
                unmodelled: false,
            }
        }));
    }
    for d in base_left {
        if head_left.iter().any(|x| same(x, d)) {
            continue;
        }
        let (cause, location) = located(
            &d.cm,
            &format!("/data/{}[{}]", d.key, d.label),
            &d.path,
            Side_::Base,
            d.span,
            format!(
                "{} removed from the NodePool's {} (see base)",
                d.label, d.key
            ),
        );
        out.push(Triggered {
            trigger: Trigger::Hash,
            cause,
            location,
            possible: false,
            unmodelled: false,
        });
    }
    for inv in &h.invalid {
        if b.invalid
            .iter()
            .any(|x| x.cm == inv.cm && x.message == inv.message)
        {
            continue;
        }
        let (cause, location) = located(
            &inv.cm,
            "/data",
            &inv.path,
            Side_::Head,
            inv.span,
            inv.message.clone(),
        );
        out.push(Triggered {
            trigger: Trigger::Hash,
            cause,
            location,
            possible: false,
            unmodelled: false,
        });
    }
}

/// Causes from ConfigMap references that do not resolve in head (deleted, or new and external).
pub(super) fn references(b: &Side<'_>, h: &Side<'_>, input: &Input<'_>, out: &mut Vec<Triggered>) {
    for r in h.refs.iter().filter(|r| !r.resolved) {
        let before = b.refs.iter().find(|x| x.key == r.key && x.name == r.name);
        let np = h.np;
        let cm_id = ObjectId {
            group: Default::default(),
            kind: "ConfigMap".into(),
            namespace: np.id.namespace.clone(),
            name: r.name.clone().into(),
            scope: np.id.scope.clone(),
        };
        match before {
            Some(x) if x.resolved => {
                if let Some(cm) = input.base.resolve(&cm_id) {
                    let summary = format!(
                        "ConfigMap {} deleted while spec.{} still references it (see base)",
                        r.name,
                        if r.key == "config" {
                            "config"
                        } else {
                            "tuningConfig"
                        }
                    );
                    let (cause, location) =
                        located(&cm_id, "", &cm.path, Side_::Base, cm.root().span(), summary);
                    out.push(Triggered {
                        trigger: Trigger::Hash,
                        cause,
                        location,
                        possible: false,
                        unmodelled: false,
                    });
                }
            }
            Some(_) => {}
            None => {
                let field = format!(
                    "/spec/{}",
                    if r.key == "config" {
                        "config"
                    } else {
                        "tuningConfig"
                    }
                );
                let summary = format!(
                    "new reference to ConfigMap {}, which is not in the repository: content unknown, rollout assumed",
                    r.name
                );
                let (cause, location) =
                    located(&np.id, &field, &np.path, Side_::Head, r.span, summary);
                out.push(Triggered {
                    trigger: Trigger::Unknown,
                    cause,
                    location,
                    possible: false,
                    unmodelled: false,
                });
            }
        }
    }
}
