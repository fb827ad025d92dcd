//! JSON pointer → the located node, so every finding points at the exact text.

use nodecast_yaml::{Node, NodeKind, Span};

fn segments(pointer: &str) -> impl Iterator<Item = String> + '_ {
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
}

/// The span of the node at `pointer` (its key when `at_key`), and whether the node exists; when
/// it does not (a missing required field), the nearest existing ancestor's span.
pub fn span(root: &Node, pointer: &str, at_key: bool) -> (Span, bool) {
    let mut node = root;
    let mut key_span = None;
    for seg in segments(pointer) {
        let next = match &node.kind {
            NodeKind::Map(entries) => entries
                .iter()
                .find(|e| e.key.key_text() == Some(seg.as_str()))
                .map(|e| (&e.value, Some(e.key.span))),
            NodeKind::Seq(items) => seg
                .parse::<usize>()
                .ok()
                .and_then(|i| items.get(i))
                .map(|n| (n, None)),
            NodeKind::Scalar { .. } => None,
        };
        match next {
            Some((n, k)) => {
                node = n;
                key_span = k;
            }
            None => return (key_span.unwrap_or(node.span), false),
        }
    }
    // A mapping or list spans many lines: its key is the readable place to point at.
    let composite = !matches!(node.kind, NodeKind::Scalar { .. });
    if at_key || composite {
        if let Some(k) = key_span {
            return (k, true);
        }
    }
    (node.span, true)
}

/// The node at `pointer`, when it exists.
pub fn node<'a>(root: &'a Node, pointer: &str) -> Option<&'a Node> {
    let mut node = root;
    for seg in segments(pointer) {
        node = match &node.kind {
            NodeKind::Map(entries) => entries
                .iter()
                .find(|e| e.key.key_text() == Some(seg.as_str()))
                .map(|e| &e.value)?,
            NodeKind::Seq(items) => items.get(seg.parse::<usize>().ok()?)?,
            NodeKind::Scalar { .. } => return None,
        };
    }
    Some(node)
}
