//! The located tree as callers read it: [`Node`] is a copyable handle into a document's arena,
//! so walking a tree allocates nothing and every text it gives out borrows the parsed text.

use std::fmt;
use std::sync::LazyLock;

use crate::tree::{Class, Ref, Tree, VIA_ALIAS};
use crate::Span;

/// How a scalar was written, so rules can tell `"yes"` from `yes` and map block scalars.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarStyle {
    /// `value`
    Plain,
    /// `'value'`
    SingleQuoted,
    /// `"value"`
    DoubleQuoted,
    /// `|` block
    Literal,
    /// `>` block
    Folded,
}

/// A scalar's value as Kubernetes (go-yaml v2, YAML 1.1 rules) resolves it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    /// `~`, `null`, `Null`, `NULL` or empty (plain only).
    Null,
    /// `true`/`false` and the YAML 1.1 words (plain only).
    Bool(bool),
    /// Decimal, `0x`, `0o`, `0b` and leading-zero octal integers, `_` separators allowed (plain only).
    Int(i64),
    /// Floats, `.inf`, `.nan` (plain only).
    Float(f64),
    /// Everything else, and every quoted or block scalar.
    Str,
}

/// A node of the located tree: where it is, and what it holds (a handle: copying it copies two
/// words, and what it gives out lives as long as the document).
#[derive(Clone, Copy)]
pub struct Node<'a> {
    pub(crate) tree: &'a Tree,
    pub(crate) r: Ref,
}

/// What a node holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NodeKind<'a> {
    /// A scalar: its decoded text, how it was written, and its resolved value.
    Scalar {
        /// The decoded text (escapes processed, folding and chomping applied).
        text: &'a str,
        /// How it was written.
        style: ScalarStyle,
        /// The resolved value (an explicit `!!str` tag forces `Str`).
        value: Scalar,
    },
    /// A sequence.
    Seq(Seq<'a>),
    /// A mapping, in source order; duplicate keys are already reduced to the last occurrence.
    Map(Map<'a>),
}

/// A mapping entry: both key and value are located.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry<'a> {
    /// The key node.
    pub key: Node<'a>,
    /// The value node.
    pub value: Node<'a>,
}

/// A tree with nothing in it, for the empty [`Seq`] and [`Map`] views `Default` gives.
static EMPTY: LazyLock<Tree> = LazyLock::new(|| {
    let mut b = crate::tree::TreeBuilder::default();
    let root = b.collection(Class::Seq, (0, 0), &[], None, false, None);
    b.finish(root, "".into(), crate::Source::new("".into())).0
});

/// The items of a sequence.
#[derive(Clone, Copy)]
pub struct Seq<'a> {
    tree: &'a Tree,
    /// Where the items are laid out, and how many there are.
    first: u32,
    len: u32,
    alias: u32,
}

/// The entries of a mapping.
#[derive(Clone, Copy)]
pub struct Map<'a> {
    tree: &'a Tree,
    /// Where the keys and values are laid out (key, value, key, ...), and how many nodes.
    first: u32,
    len: u32,
    alias: u32,
}

impl Default for Seq<'_> {
    fn default() -> Self {
        Seq {
            tree: &EMPTY,
            first: 0,
            len: 0,
            alias: 0,
        }
    }
}

impl Default for Map<'_> {
    fn default() -> Self {
        Map {
            tree: &EMPTY,
            first: 0,
            len: 0,
            alias: 0,
        }
    }
}

impl<'a> Seq<'a> {
    /// Number of items.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// True when there is no item.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `i`th item.
    pub fn get(&self, i: usize) -> Option<Node<'a>> {
        (i < self.len as usize).then(|| Node {
            tree: self.tree,
            r: self.tree.child(self.first + i as u32, self.alias),
        })
    }

    /// The first item.
    pub fn first(&self) -> Option<Node<'a>> {
        self.get(0)
    }

    /// The last item.
    pub fn last(&self) -> Option<Node<'a>> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }

    /// The items in order.
    pub fn iter(&self) -> SeqIter<'a> {
        SeqIter {
            tree: self.tree,
            next: self.first,
            end: self.first + self.len,
            alias: self.alias,
        }
    }
}

impl<'a> IntoIterator for Seq<'a> {
    type Item = Node<'a>;
    type IntoIter = SeqIter<'a>;
    fn into_iter(self) -> SeqIter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &Seq<'a> {
    type Item = Node<'a>;
    type IntoIter = SeqIter<'a>;
    fn into_iter(self) -> SeqIter<'a> {
        self.iter()
    }
}

/// The items of a [`Seq`], in order.
#[derive(Clone)]
pub struct SeqIter<'a> {
    tree: &'a Tree,
    next: u32,
    end: u32,
    alias: u32,
}

impl<'a> Iterator for SeqIter<'a> {
    type Item = Node<'a>;
    fn next(&mut self) -> Option<Node<'a>> {
        (self.next < self.end).then(|| {
            self.next += 1;
            Node {
                tree: self.tree,
                r: self.tree.child(self.next - 1, self.alias),
            }
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.end - self.next) as usize;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for SeqIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        (self.next < self.end).then(|| {
            self.end -= 1;
            Node {
                tree: self.tree,
                r: self.tree.child(self.end, self.alias),
            }
        })
    }
}

impl ExactSizeIterator for SeqIter<'_> {}

impl<'a> Map<'a> {
    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len as usize / 2
    }

    /// True when there is no entry.
    pub fn is_empty(&self) -> bool {
        self.len < 2
    }

    /// The `i`th entry.
    pub fn get(&self, i: usize) -> Option<Entry<'a>> {
        (i < self.len()).then(|| entry_at(self.tree, self.first + 2 * i as u32, self.alias))
    }

    /// The first entry.
    pub fn first(&self) -> Option<Entry<'a>> {
        self.get(0)
    }

    /// The last entry.
    pub fn last(&self) -> Option<Entry<'a>> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }

    /// The entries in order.
    pub fn iter(&self) -> MapIter<'a> {
        MapIter {
            tree: self.tree,
            next: self.first,
            end: self.first + self.len() as u32 * 2,
            alias: self.alias,
        }
    }
}

/// The entry whose key is laid out at `k` (its value right after it).
#[inline]
fn entry_at(tree: &Tree, k: u32, alias: u32) -> Entry<'_> {
    Entry {
        key: Node {
            tree,
            r: tree.child(k, alias),
        },
        value: Node {
            tree,
            r: tree.child(k + 1, alias),
        },
    }
}

impl<'a> IntoIterator for Map<'a> {
    type Item = Entry<'a>;
    type IntoIter = MapIter<'a>;
    fn into_iter(self) -> MapIter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &Map<'a> {
    type Item = Entry<'a>;
    type IntoIter = MapIter<'a>;
    fn into_iter(self) -> MapIter<'a> {
        self.iter()
    }
}

/// The entries of a [`Map`], in order.
#[derive(Clone)]
pub struct MapIter<'a> {
    tree: &'a Tree,
    next: u32,
    end: u32,
    alias: u32,
}

impl<'a> Iterator for MapIter<'a> {
    type Item = Entry<'a>;
    fn next(&mut self) -> Option<Entry<'a>> {
        (self.next < self.end).then(|| {
            self.next += 2;
            entry_at(self.tree, self.next - 2, self.alias)
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.end - self.next) as usize / 2;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for MapIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        (self.next < self.end).then(|| {
            self.end -= 2;
            entry_at(self.tree, self.end, self.alias)
        })
    }
}

impl ExactSizeIterator for MapIter<'_> {}

/// A node's place in memory ([`Node::addr`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NodeAddr(usize, u32);

/// Which node of its document a [`Node`] is, to change it through [`crate::Document`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NodeId(pub(crate) Ref);

impl<'a> Node<'a> {
    /// The node's source range (for a block scalar: from the indicator to the end of its
    /// content); line and column are computed from the source.
    pub fn span(self) -> Span {
        self.tree.span_of(self.r)
    }

    /// The byte offsets of [`Node::span`] (without computing line and column).
    pub fn offsets(self) -> (usize, usize) {
        self.tree.offsets_of(self.r)
    }

    /// The node's content.
    pub fn kind(self) -> NodeKind<'a> {
        let raw = self.tree.raw(self.r);
        let alias = self.r & VIA_ALIAS;
        match raw.class() {
            Class::Scalar => {
                let text = self.tree.text_of(raw);
                NodeKind::Scalar {
                    text,
                    style: raw.style(),
                    value: raw.value().scalar(text),
                }
            }
            Class::Seq => NodeKind::Seq(Seq {
                tree: self.tree,
                first: raw.a,
                len: raw.b,
                alias,
            }),
            // A node handle never stands for a link (links are followed), so this is a map.
            Class::Map | Class::Link => NodeKind::Map(Map {
                tree: self.tree,
                first: raw.a,
                len: raw.b,
                alias,
            }),
        }
    }

    /// An explicit tag (`!!str`, `!foo`), as written.
    pub fn tag(self) -> Option<&'a str> {
        self.tree.tag_of(self.r)
    }

    /// True when the node was copied from an anchor by an alias (its span is the anchor's).
    pub fn from_alias(self) -> bool {
        self.r & VIA_ALIAS != 0 || self.tree.raw(self.r).copied()
    }

    /// Which node of its document this is.
    pub fn id(self) -> NodeId {
        NodeId(self.r)
    }

    /// True for a scalar.
    pub fn is_scalar(self) -> bool {
        self.tree.raw(self.r).class() == Class::Scalar
    }

    /// The scalar's style, when this is a scalar.
    pub fn style(self) -> Option<ScalarStyle> {
        let raw = self.tree.raw(self.r);
        (raw.class() == Class::Scalar).then(|| raw.style())
    }

    /// The value under `key` when this is a mapping with a string-like key `key`.
    pub fn get(self, key: &str) -> Option<Node<'a>> {
        self.entry(key).map(|e| e.value)
    }

    /// The entry under `key` (so callers can point at the key as well as the value).
    pub fn entry(self, key: &str) -> Option<Entry<'a>> {
        let tree = self.tree;
        let raw = tree.raw(self.r);
        if raw.class() != Class::Map {
            return None;
        }
        let alias = self.r & VIA_ALIAS;
        let prefix = crate::tree::prefix(key.as_bytes());
        let mut k = raw.a;
        let end = raw.a + raw.b / 2 * 2;
        while k < end {
            let hit = tree.key_is(k, key.as_bytes(), prefix);
            // Debug builds check the packed read against the decoded key, in every suite.
            #[cfg(debug_assertions)]
            {
                let kr = tree.raw(tree.child(k, 0));
                let decoded = kr.class() == Class::Scalar && tree.bytes_of(kr) == key.as_bytes();
                assert_eq!(hit, decoded, "key {key:?} at node {k} read two ways");
            }
            if hit {
                return Some(entry_at(tree, k, alias));
            }
            k += 2;
        }
        None
    }

    /// Follows a path of mapping keys.
    pub fn path(self, keys: &[&str]) -> Option<Node<'a>> {
        keys.iter().try_fold(self, |node, key| node.get(key))
    }

    /// The scalar text when this is a scalar whose resolved value is a string.
    pub fn as_str(self) -> Option<&'a str> {
        let raw = self.tree.raw(self.r);
        (raw.class() == Class::Scalar && raw.value() == crate::tree::Value::Str)
            .then(|| self.tree.text_of(raw))
    }

    /// The scalar text of any scalar (a key `1` or `true` still names a field).
    pub fn key_text(self) -> Option<&'a str> {
        let raw = self.tree.raw(self.r);
        (raw.class() == Class::Scalar).then(|| self.tree.text_of(raw))
    }

    /// The entries when this is a mapping.
    pub fn as_map(self) -> Option<Map<'a>> {
        let raw = self.tree.raw(self.r);
        (raw.class() == Class::Map).then_some(Map {
            tree: self.tree,
            first: raw.a,
            len: raw.b,
            alias: self.r & VIA_ALIAS,
        })
    }

    /// The items when this is a sequence.
    pub fn as_seq(self) -> Option<Seq<'a>> {
        let raw = self.tree.raw(self.r);
        (raw.class() == Class::Seq).then_some(Seq {
            tree: self.tree,
            first: raw.a,
            len: raw.b,
            alias: self.r & VIA_ALIAS,
        })
    }

    /// True for a null scalar.
    pub fn is_null(self) -> bool {
        let raw = self.tree.raw(self.r);
        raw.class() == Class::Scalar && raw.value() == crate::tree::Value::Null
    }

    /// The resolved value, when this is a scalar.
    pub fn value(self) -> Option<Scalar> {
        match self.kind() {
            NodeKind::Scalar { value, .. } => Some(value),
            _ => None,
        }
    }

    /// A short name of the node's type for messages ("string", "mapping", ...).
    pub fn type_name(self) -> &'static str {
        match self.kind() {
            NodeKind::Scalar { value, .. } => match value {
                Scalar::Null => "null",
                Scalar::Bool(_) => "boolean",
                Scalar::Int(_) => "integer",
                Scalar::Float(_) => "number",
                Scalar::Str => "string",
            },
            NodeKind::Seq(_) => "list",
            NodeKind::Map(_) => "mapping",
        }
    }

    /// The node as JSON, as the API server would receive it (keys stringified, floats that are
    /// not finite become strings, since JSON cannot hold them).
    pub fn to_json(self) -> serde_json::Value {
        use serde_json::Value;
        match self.kind() {
            NodeKind::Scalar { text, value, .. } => match value {
                Scalar::Null => Value::Null,
                Scalar::Bool(b) => Value::Bool(b),
                Scalar::Int(i) => Value::from(i),
                Scalar::Float(f) => serde_json::Number::from_f64(f)
                    .map(Value::Number)
                    .unwrap_or_else(|| Value::String(text.to_string())),
                Scalar::Str => Value::String(text.to_string()),
            },
            NodeKind::Seq(items) => Value::Array(items.iter().map(Node::to_json).collect()),
            NodeKind::Map(entries) => Value::Object(
                entries
                    .iter()
                    .map(|e| {
                        let key = match e.key.key_text() {
                            Some(text) => text.to_string(),
                            None => e.key.to_json().to_string(),
                        };
                        (key, e.value.to_json())
                    })
                    .collect(),
            ),
        }
    }

    /// Where the node lives: equal for two handles of the very same node of the same parse
    /// (reached the same way), while that parse is kept; a key for results computed from it.
    pub fn addr(self) -> NodeAddr {
        NodeAddr(std::ptr::from_ref(self.tree) as usize, self.r)
    }

    /// True when both handles are the very same node of the same document.
    pub fn same(self, other: Node<'_>) -> bool {
        std::ptr::eq(self.tree, other.tree) && self.r == other.r
    }
}

/// Structural equality (span, content, tag, whether copied by an alias), as two trees compare.
impl PartialEq for Node<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.span() == other.span()
            && self.tag() == other.tag()
            && self.from_alias() == other.from_alias()
            && self.kind() == other.kind()
    }
}

impl PartialEq for Seq<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other.iter()).all(|(a, b)| a == b)
    }
}

impl PartialEq for Map<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other.iter()).all(|(a, b)| a == b)
    }
}

impl fmt::Debug for Node<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Node")
            .field("span", &self.span())
            .field("kind", &self.kind())
            .field("tag", &self.tag())
            .field("from_alias", &self.from_alias())
            .finish()
    }
}

impl fmt::Debug for Seq<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl fmt::Debug for Map<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
