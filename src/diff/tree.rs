//! Field-level comparison of two located trees.

use nodecast_yaml::{Node, NodeKind, Scalar, Span};

use super::FieldChange;
use crate::diagnostic::Location;
use crate::inventory::Object;
use crate::parse::{data_url, Embedded};

/// Semantic equality as the API server sees it: key order, quoting and formatting do not matter.
pub fn same_value(a: Node<'_>, b: Node<'_>) -> bool {
    match (a.kind(), b.kind()) {
        (
            NodeKind::Scalar {
                text: ta,
                value: va,
                ..
            },
            NodeKind::Scalar {
                text: tb,
                value: vb,
                ..
            },
        ) => match (va, vb) {
            (Scalar::Str, Scalar::Str) => ta == tb,
            (Scalar::Null, Scalar::Null) => true,
            (Scalar::Bool(x), Scalar::Bool(y)) => x == y,
            (Scalar::Int(x), Scalar::Int(y)) => x == y,
            (Scalar::Float(x), Scalar::Float(y)) => x == y || (x.is_nan() && y.is_nan()),
            (Scalar::Int(i), Scalar::Float(f)) | (Scalar::Float(f), Scalar::Int(i)) => {
                i as f64 == f
            }
            _ => false,
        },
        (NodeKind::Seq(x), NodeKind::Seq(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value(p, q))
        }
        (NodeKind::Map(x), NodeKind::Map(y)) => {
            x.len() == y.len()
                && x.iter().all(|e| {
                    e.key
                        .key_text()
                        .and_then(|k| b.get(k))
                        .is_some_and(|v| same_value(e.value, v))
                })
        }
        _ => false,
    }
}

struct Ctx<'a> {
    base: &'a Object,
    head: &'a Object,
    base_embedded: &'a [Embedded],
    head_embedded: &'a [Embedded],
}

impl Ctx<'_> {
    /// A base location; a rendered object's value may be written in a patch file.
    fn base_loc(&self, span: nodecast_yaml::Span) -> Location {
        Location::base(self.base.path_at(span), span)
    }

    /// A head location; a rendered object's value may be written in a patch file.
    fn head_loc(&self, span: nodecast_yaml::Span) -> Location {
        Location::head(self.head.path_at(span), span)
    }
}

/// The changed fields between two definitions of the same object.
pub fn diff_objects(base: &Object, head: &Object) -> Vec<FieldChange> {
    let ctx = Ctx {
        base,
        head,
        base_embedded: &base.parsed().embedded,
        head_embedded: &head.parsed().embedded,
    };
    let mut out = Vec::new();
    diff_nodes(&ctx, "", base.root(), head.root(), &mut out);
    out
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn entry_span(key: Node<'_>, value: Node<'_>) -> Span {
    Span {
        start: key.span().start,
        end: value.span().end.max(key.span().end),
    }
}

/// A short rendering of a value for messages.
pub fn short(node: Node<'_>) -> String {
    let s = match node.kind() {
        NodeKind::Scalar { text, value, .. } => match value {
            Scalar::Str => {
                let first = text.lines().next().unwrap_or_default();
                if text.contains('\n') {
                    format!("\"{first}…\"")
                } else {
                    format!("\"{first}\"")
                }
            }
            _ => text.to_string(),
        },
        NodeKind::Seq(items) if all_scalars(items) => {
            let inner: Vec<&str> = items.iter().filter_map(Node::key_text).collect();
            format!("[{}]", inner.join(", "))
        }
        // Small structures show their values (`{name: rhel-9}`); the length cap below cuts the
        // rest, so a reviewer sees what was added rather than how many fields.
        NodeKind::Seq(_) | NodeKind::Map(_) => flow(node, 3),
    };
    if s.chars().count() > 80 {
        let cut: String = s.chars().take(77).collect();
        format!("{cut}…")
    } else {
        s
    }
}

/// A value in YAML flow style, `depth` levels deep (deeper structures as `{…}` / `[…]`).
fn flow(node: Node<'_>, depth: usize) -> String {
    match node.kind() {
        NodeKind::Scalar { text, value, .. } => match value {
            Scalar::Str
                if text.is_empty()
                    || text.contains([',', ':', '{', '}', '[', ']', '\n', '"', '#']) =>
            {
                format!(
                    "\"{}\"",
                    text.lines().next().unwrap_or_default().replace('"', "\\\"")
                )
            }
            _ => text.to_string(),
        },
        NodeKind::Seq(_) if depth == 0 => "[…]".into(),
        NodeKind::Map(_) if depth == 0 => "{…}".into(),
        NodeKind::Seq(items) => format!(
            "[{}]",
            items
                .iter()
                .map(|i| flow(i, depth - 1))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        NodeKind::Map(entries) => format!(
            "{{{}}}",
            entries
                .iter()
                .map(|e| format!(
                    "{}: {}",
                    e.key.key_text().unwrap_or("?"),
                    flow(e.value, depth - 1)
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn diff_nodes(ctx: &Ctx<'_>, path: &str, b: Node<'_>, h: Node<'_>, out: &mut Vec<FieldChange>) {
    if same_value(b, h) {
        return;
    }
    match (b.kind(), h.kind()) {
        (NodeKind::Map(be), NodeKind::Map(he)) => {
            for e in he {
                let Some(key) = e.key.key_text() else {
                    continue;
                };
                let sub = format!("{path}/{}", escape(key));
                match b.entry(key) {
                    Some(old) => diff_nodes(ctx, &sub, old.value, e.value, out),
                    None => out.push(FieldChange {
                        path: sub,
                        base: Some(ctx.base_loc(b.span())),
                        head: Some(ctx.head_loc(entry_span(e.key, e.value))),
                        before: None,
                        after: Some(short(e.value)),
                        text_diff: None,
                    }),
                }
            }
            for e in be {
                let Some(key) = e.key.key_text() else {
                    continue;
                };
                if h.entry(key).is_none() {
                    out.push(FieldChange {
                        path: format!("{path}/{}", escape(key)),
                        base: Some(ctx.base_loc(entry_span(e.key, e.value))),
                        head: Some(ctx.head_loc(h.span())),
                        before: Some(short(e.value)),
                        after: None,
                        text_diff: None,
                    });
                }
            }
        }
        (NodeKind::Seq(bi), NodeKind::Seq(hi)) if !all_scalars(bi) || !all_scalars(hi) => {
            for (i, (x, y)) in bi.iter().zip(hi).enumerate() {
                diff_nodes(ctx, &format!("{path}/{i}"), x, y, out);
            }
            for (i, y) in hi.iter().enumerate().skip(bi.len()) {
                out.push(FieldChange {
                    path: format!("{path}/{i}"),
                    base: Some(ctx.base_loc(b.span())),
                    head: Some(ctx.head_loc(y.span())),
                    before: None,
                    after: Some(short(y)),
                    text_diff: None,
                });
            }
            for (i, x) in bi.iter().enumerate().skip(hi.len()) {
                out.push(FieldChange {
                    path: format!("{path}/{i}"),
                    base: Some(ctx.base_loc(x.span())),
                    head: Some(ctx.head_loc(h.span())),
                    before: Some(short(x)),
                    after: None,
                    text_diff: None,
                });
            }
        }
        _ => {
            let text_diff = match (b.as_str(), h.as_str()) {
                (Some(x), Some(y)) if data_url::is_data_url(x) && data_url::is_data_url(y) => {
                    match (decoded_text(x), decoded_text(y)) {
                        (Some(x), Some(y)) => Some(unified(&x, &y)),
                        _ => None,
                    }
                }
                (Some(x), Some(y)) if x.contains('\n') || y.contains('\n') => Some(unified(x, y)),
                _ => None,
            };
            out.push(FieldChange {
                path: path.to_string(),
                base: Some(ctx.base_loc(b.span())),
                head: Some(ctx.head_loc(h.span())),
                before: Some(short(b)),
                after: Some(short(h)),
                text_diff,
            });
            diff_embedded(ctx, path, b, h, out);
        }
    }
}

/// The text of a data URL (gunzipped when it is gzip), for a readable diff of file contents;
/// `None` when it is not text or larger than `MAX_TEXT_DECODED` (no diff of huge payloads).
fn decoded_text(url: &str) -> Option<String> {
    match data_url::decode_text(url, None) {
        Some(text) => Some(text),
        None => data_url::decode_text(url, Some("gzip")),
    }
}

fn all_scalars(items: nodecast_yaml::Seq<'_>) -> bool {
    items
        .iter()
        .all(|n| matches!(n.kind(), NodeKind::Scalar { .. }))
}

fn unified(a: &str, b: &str) -> String {
    similar::TextDiff::from_lines(a, b)
        .unified_diff()
        .context_radius(2)
        .header("base", "head")
        .to_string()
}

/// When the changed value is a ConfigMap payload parsed into documents on both sides, also report
/// which fields of which embedded object changed (`/data/config[MachineConfig 50-foo]/spec/…`).
fn diff_embedded(ctx: &Ctx<'_>, path: &str, b: Node<'_>, h: Node<'_>, out: &mut Vec<FieldChange>) {
    let find = |list: &'_ [Embedded], span: Span| list.iter().position(|e| e.value_span == span);
    let (Some(bi), Some(hi)) = (
        find(ctx.base_embedded, b.span()),
        find(ctx.head_embedded, h.span()),
    ) else {
        return;
    };
    let (be, he) = (&ctx.base_embedded[bi], &ctx.head_embedded[hi]);
    let label = |n: Node<'_>, i: usize| -> String {
        let kind = n.get("kind").and_then(Node::as_str).unwrap_or("document");
        match n.path(&["metadata", "name"]).and_then(Node::as_str) {
            Some(name) => format!("{kind} {name}"),
            None => format!("{kind} #{i}"),
        }
    };
    let base_docs: Vec<(String, Node<'_>)> = be
        .docs
        .iter()
        .enumerate()
        .map(|(i, d)| (label(d.doc.root(), i), d.doc.root()))
        .collect();
    let head_docs: Vec<(String, Node<'_>)> = he
        .docs
        .iter()
        .enumerate()
        .map(|(i, d)| (label(d.doc.root(), i), d.doc.root()))
        .collect();
    let inner = Ctx {
        base: ctx.base,
        head: ctx.head,
        base_embedded: &[],
        head_embedded: &[],
    };
    for (name, hn) in &head_docs {
        let sub = format!("{path}[{name}]");
        match base_docs.iter().find(|(n, _)| n == name) {
            Some((_, bn)) => diff_nodes(&inner, &sub, *bn, *hn, out),
            None => out.push(FieldChange {
                path: sub,
                base: Some(ctx.base_loc(b.span())),
                head: Some(ctx.head_loc(hn.span())),
                before: None,
                after: Some(name.clone()),
                text_diff: None,
            }),
        }
    }
    for (name, bn) in &base_docs {
        if !head_docs.iter().any(|(n, _)| n == name) {
            out.push(FieldChange {
                path: format!("{path}[{name}]"),
                base: Some(ctx.base_loc(bn.span())),
                head: Some(ctx.head_loc(h.span())),
                before: Some(name.clone()),
                after: None,
                text_diff: None,
            });
        }
    }
}
