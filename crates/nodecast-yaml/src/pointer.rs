//! JSON pointers (RFC 6901) over the located tree: the one place that turns a field path into the
//! node and the span a finding or a cause points at.

use std::borrow::Cow;

use crate::{Node, NodeKind, Span};

/// The unescaped segments of a pointer (`/a~1b/0` → `a/b`, `0`).
pub fn segments(pointer: &str) -> impl Iterator<Item = Cow<'_, str>> {
    pointer.split('/').skip(1).map(|s| {
        if s.contains('~') {
            Cow::Owned(s.replace("~1", "/").replace("~0", "~"))
        } else {
            Cow::Borrowed(s)
        }
    })
}

/// Appends `key` to `pointer` as one more segment (`/` then the key, `~` and `/` escaped): the
/// inverse of [`segments`], for walks that extend one pointer as they go down and cut it back.
pub fn push_segment(pointer: &mut String, key: &str) {
    pointer.push('/');
    if !key.contains(['~', '/']) {
        pointer.push_str(key);
        return;
    }
    for c in key.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// Appends a list index to `pointer` as one more segment ([`push_segment`] for a list).
pub fn push_index(pointer: &mut String, index: usize) {
    use std::fmt::Write as _;
    // Writing to a String cannot fail.
    let _ = write!(pointer, "/{index}");
}

/// How far a pointer resolves in a tree.
#[derive(Clone, Copy, Debug)]
pub struct Walk<'a> {
    /// The deepest node reached.
    pub node: Node<'a>,
    /// The key of the mapping entry that led to `node` (`None` for a list item or the root).
    pub key: Option<Span>,
    /// Whether the whole pointer resolved (else `node` is the deepest existing ancestor).
    pub complete: bool,
}

impl Walk<'_> {
    /// Where to point for the pointer's field: the entry's key, else the node (a list item, the
    /// root, or the deepest existing ancestor of a missing field).
    pub fn key_span(&self) -> Span {
        self.key.unwrap_or_else(|| self.node.span())
    }
}

/// Follows `pointer` from `root`: mapping entries by key, list items by index.
pub fn walk<'a>(root: Node<'a>, pointer: &str) -> Walk<'a> {
    let mut node = root;
    let mut key = None;
    for seg in segments(pointer) {
        let next = match node.kind() {
            NodeKind::Map(entries) => entries
                .iter()
                .find(|e| e.key.key_text() == Some(seg.as_ref()))
                .map(|e| (e.value, Some(e.key.span()))),
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
                key = k;
            }
            None => {
                return Walk {
                    node,
                    key,
                    complete: false,
                }
            }
        }
    }
    Walk {
        node,
        key,
        complete: true,
    }
}

impl<'a> Node<'a> {
    /// The node at a JSON pointer, when it exists.
    pub fn pointer(self, pointer: &str) -> Option<Node<'a>> {
        let w = walk(self, pointer);
        w.complete.then_some(w.node)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A segment pushed reads back as the key it was made from, whatever it holds.
    #[test]
    fn pushed_segments_read_back() {
        let keys = ["plain", "a/b", "~x", "~1/~0", "", "é/~"];
        let mut pointer = String::new();
        for k in keys {
            push_segment(&mut pointer, k);
        }
        push_index(&mut pointer, 12);
        assert_eq!(pointer, "/plain/a~1b/~0x/~01~1~00//é~1~0/12");
        let back: Vec<_> = segments(&pointer).collect();
        assert_eq!(back, [&keys[..], &["12"]].concat());
    }

    fn doc(text: &str) -> crate::Document {
        crate::parse(text, &crate::Options::default())
            .documents
            .into_iter()
            .next()
            .expect("one document")
    }

    #[test]
    fn walks_keys_items_and_escapes() {
        let d = doc("a:\n  b/c: [x, {d: 1}]\n  e~f: 2\n");
        let r = d.root();
        let w = walk(r, "/a/b~1c/1/d");
        assert!(w.complete);
        assert_eq!(w.key_span().start.line, 2);
        assert_eq!(w.key_span().start.col, 13);
        let item = walk(r, "/a/b~1c/0");
        assert_eq!((item.key, item.node.as_str()), (None, Some("x")));
        assert_eq!(r.pointer("/a/e~0f").and_then(Node::as_str), None);
        assert!(r.pointer("/a/e~0f").is_some());
        let missing = walk(r, "/a/zz/y");
        assert!(!missing.complete);
        assert_eq!(missing.key_span().start.line, 1);
        assert!(r.pointer("/a/b~1c/9").is_none());
        assert!(r.pointer("/a/b~1c/0/deeper").is_none());
    }
}
