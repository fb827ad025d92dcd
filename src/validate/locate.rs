//! JSON pointer → the located node, so every finding points at the exact text (the walk itself is
//! `nodecast_yaml::pointer`, shared with the models).

use nodecast_yaml::{Node, NodeKind, Span};

/// The span of the node at `pointer` (its key when `at_key`), and whether the node exists; when
/// it does not (a missing required field), the nearest existing ancestor's span.
pub fn span(root: Node<'_>, pointer: &str, at_key: bool) -> (Span, bool) {
    let w = nodecast_yaml::pointer::walk(root, pointer);
    if !w.complete {
        return (w.key_span(), false);
    }
    // A mapping or list spans many lines: its key is the readable place to point at.
    let composite = !matches!(w.node.kind(), NodeKind::Scalar { .. });
    if at_key || composite {
        if let Some(k) = w.key {
            return (k, true);
        }
    }
    (w.node.span(), true)
}

/// The node at `pointer`, when it exists.
pub fn node<'a>(root: Node<'a>, pointer: &str) -> Option<Node<'a>> {
    root.pointer(pointer)
}
