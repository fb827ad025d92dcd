//! "What this line does to nodes": the forecast entries whose causes point at the hovered line,
//! field or object, in the report's own words (`report::human`), or why the change reaches no
//! node there.

use std::collections::BTreeSet;

use crate::check::Outcome;
use crate::forecast::{Cause, Impact};
use crate::inventory::ObjectId;
use crate::report::human;

/// The hover text (Markdown) at a byte offset of a head file, on its 1-based `line`; `None` when
/// the place is in no object.
pub fn hover(o: &Outcome, path: &str, offset: usize, line: u32) -> Option<String> {
    let file = o.files.head.iter().find(|f| *f.path == *path)?;
    let doc = file
        .parsed
        .docs
        .iter()
        .find(|d| within(d.doc.span.start.offset, d.doc.span.end.offset, offset))?;
    let lines = (doc.doc.span.start.line, doc.doc.span.end.line);
    // Every definition this document gives (one per overlay that renders it), else the identity
    // it declares (a patch, an object of a file no stage reads as a manifest).
    let mut ids: Vec<ObjectId> = Vec::new();
    for obj in o.head.objects.iter().filter(|x| *x.path == *path) {
        let s = obj.root().span();
        if within(s.start.offset, s.end.offset, offset) && !ids.contains(&obj.id) {
            ids.push(obj.id.clone());
        }
    }
    let mut origins: BTreeSet<String> = BTreeSet::new();
    for obj in o.head.objects.iter().filter(|x| ids.contains(&x.id)) {
        let d = obj.origin.describe();
        if !d.is_empty() {
            origins.insert(d);
        }
    }
    if ids.is_empty() {
        ids.extend(crate::inventory::identity(doc.doc.root()));
    }
    let names: BTreeSet<String> = ids.iter().map(ToString::to_string).collect();
    let pointer = crate::fingerprint::field_path(&file.parsed.docs, offset)
        .map(|p| embedded_by_name(doc, p))
        .unwrap_or_default();

    let mut out = String::from("**nodecast**");
    if let Some(first) = names.iter().next() {
        out.push_str(&format!(" · `{first}`"));
        if names.len() > 1 {
            out.push_str(&format!(" (and {} more)", names.len() - 1));
        }
    }
    if !pointer.is_empty() {
        out.push_str(&format!(" · `{pointer}`"));
    }
    for origin in &origins {
        out.push_str(&format!(" · {}", escape(origin)));
    }
    out.push_str("\n\n");

    if !o.has_base {
        out.push_str("Not forecast: there is no base revision to compare with.\n");
        return Some(out);
    }
    // The most precise match wins: a cause on this very line, then one on this field of this
    // object, then any cause of this document (its object, or what it embeds).
    let on_line = |c: &Cause| c.file == path && c.line == line;
    let on_field = |c: &Cause| {
        !pointer.is_empty()
            && names.contains(&c.object)
            && (nested(&c.field, &pointer) || nested(&pointer, &c.field))
    };
    let in_document = |c: &Cause| {
        names.contains(&c.object) || (c.file == path && lines.0 <= c.line && c.line <= lines.1)
    };
    let tiers: [&dyn Fn(&Cause) -> bool; 3] = [&on_line, &on_field, &in_document];
    for (n, matches) in tiers.iter().enumerate() {
        let found: Vec<(&Impact, Vec<&Cause>)> = o
            .forecast
            .iter()
            .map(|i| {
                (
                    i,
                    i.causes.iter().filter(|c| matches(c)).collect::<Vec<_>>(),
                )
            })
            .filter(|(_, causes)| !causes.is_empty())
            .collect();
        if found.is_empty() {
            continue;
        }
        out.push_str(match n {
            0 => "What this line does to nodes:\n\n",
            1 => "What this field does to nodes:\n\n",
            _ => "What this change to the object does to nodes:\n\n",
        });
        for (impact, causes) in found {
            out.push_str(&format!("- {}\n", escape(&human::forecast_line(impact))));
            for c in causes {
                out.push_str(&format!("  - {}\n", escape(&human::cause_line(o, c))));
            }
            if let Some(when) = human::when_line(impact) {
                out.push_str(&format!("  - {}\n", escape(&when)));
            }
        }
        return Some(out);
    }
    let changed = o.diff.changes.iter().any(|c| ids.contains(&c.id));
    let why: Vec<&str> = ids
        .iter()
        .filter_map(|id| o.no_impact.get(id))
        .map(|n| n.why.as_str())
        .collect();
    if ids.iter().any(|id| o.unforecast.contains(id)) {
        out.push_str(
            "Node impact not yet modelled for this change: assume a rollout of the pools it reaches.\n",
        );
    } else if let Some(why) = why.first() {
        out.push_str(&format!("No node impact: {}.\n", escape(why)));
    } else if changed {
        out.push_str("No node impact: no pool's rollout inputs change.\n");
    } else {
        out.push_str(&format!(
            "Unchanged against {}: this change rolls no node through it.\n",
            escape(&o.base_info.label)
        ));
    }
    Some(out)
}

/// A pointer into an embedded document names it as the report's Changes section and the
/// forecast's causes do: `/data/config[0]/spec` → `/data/config[MachineConfig 50-foo]/spec`.
fn embedded_by_name(doc: &crate::parse::ParsedDoc, pointer: String) -> String {
    let Some(rest) = pointer.strip_prefix("/data/") else {
        return pointer;
    };
    let Some((key, after)) = rest.split_once('[') else {
        return pointer;
    };
    let Some((index, tail)) = after.split_once(']') else {
        return pointer;
    };
    let (Ok(index), Some(embedded)) = (
        index.parse::<usize>(),
        doc.embedded.iter().find(|e| e.key == key),
    ) else {
        return pointer;
    };
    let Some(inner) = embedded.docs.get(index) else {
        return pointer;
    };
    let root = inner.doc.root();
    let kind = root
        .get("kind")
        .and_then(nodecast_yaml::Node::as_str)
        .unwrap_or("document");
    let name = match root
        .path(&["metadata", "name"])
        .and_then(nodecast_yaml::Node::as_str)
    {
        Some(name) => format!("{kind} {name}"),
        None => format!("{kind} #{index}"),
    };
    format!("/data/{key}[{name}]{tail}")
}

/// Whether the field `inner` is `outer` or inside it.
fn nested(outer: &str, inner: &str) -> bool {
    inner
        .strip_prefix(outer)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['/', '[']))
}

/// Whether `offset` is in `[start, end)` (an empty range holds its start).
fn within(start: usize, end: usize, offset: usize) -> bool {
    start <= offset && offset < end.max(start + 1)
}

/// Text that Markdown must show as written.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '<') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn fields_nest_at_segment_boundaries() {
        assert!(super::nested("/spec/config", "/spec/config/0"));
        assert!(super::nested(
            "/data/config",
            "/data/config[MachineConfig a]/spec"
        ));
        assert!(super::nested("/spec", "/spec"));
        assert!(!super::nested("/spec/config", "/spec/configX"));
    }

    #[test]
    fn markdown_is_escaped() {
        assert_eq!(escape("a_b [x] *y*"), "a\\_b \\[x\\] \\*y\\*");
    }
}
