//! The located tree.

use compact_str::CompactString;

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
#[derive(Clone, Debug, PartialEq)]
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

/// A node of the located tree: where it is, and what it holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The node's source range (for a block scalar: from the indicator to the end of its content).
    pub span: Span,
    /// The node's content.
    pub kind: NodeKind,
    /// An explicit tag (`!!str`, `!foo`), as written (boxed: most nodes have none).
    pub tag: Option<Box<str>>,
    /// True when the node was copied from an anchor by an alias (its span is the anchor's).
    pub from_alias: bool,
}

/// What a node holds.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    /// A scalar: its decoded text, how it was written, and its resolved value.
    Scalar {
        /// The decoded text (escapes processed, folding and chomping applied); stored inline up to
        /// 24 bytes, so the millions of short keys and values of a fleet need no allocation each.
        text: CompactString,
        /// How it was written.
        style: ScalarStyle,
        /// The resolved value (an explicit `!!str` tag forces `Str`).
        value: Scalar,
    },
    /// A sequence.
    Seq(Vec<Node>),
    /// A mapping, in source order; duplicate keys are already reduced to the last occurrence.
    Map(Vec<Entry>),
}

/// A mapping entry: both key and value are located.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The key node.
    pub key: Node,
    /// The value node.
    pub value: Node,
}

impl Node {
    /// The value under `key` when this is a mapping with a string-like key `key`.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|e| &e.value)
    }

    /// The entry under `key` (so callers can point at the key as well as the value).
    pub fn entry(&self, key: &str) -> Option<&Entry> {
        match &self.kind {
            NodeKind::Map(entries) => entries.iter().find(|e| e.key.key_text() == Some(key)),
            _ => None,
        }
    }

    /// Follows a path of mapping keys.
    pub fn path(&self, keys: &[&str]) -> Option<&Node> {
        keys.iter().try_fold(self, |node, key| node.get(key))
    }

    /// The scalar text when this is a scalar whose resolved value is a string.
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Scalar {
                text,
                value: Scalar::Str,
                ..
            } => Some(text),
            _ => None,
        }
    }

    /// The scalar text of any scalar (a key `1` or `true` still names a field).
    pub fn key_text(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Scalar { text, .. } => Some(text),
            _ => None,
        }
    }

    /// The entries when this is a mapping.
    pub fn as_map(&self) -> Option<&[Entry]> {
        match &self.kind {
            NodeKind::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// The items when this is a sequence.
    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.kind {
            NodeKind::Seq(items) => Some(items),
            _ => None,
        }
    }

    /// True for a null scalar.
    pub fn is_null(&self) -> bool {
        matches!(
            self.kind,
            NodeKind::Scalar {
                value: Scalar::Null,
                ..
            }
        )
    }

    /// Visits this node and every descendant (iteratively: deep trees cannot overflow the stack).
    pub(crate) fn walk_mut(&mut self, mut f: impl FnMut(&mut Node)) {
        let mut stack = vec![self];
        while let Some(n) = stack.pop() {
            f(n);
            match &mut n.kind {
                NodeKind::Scalar { .. } => {}
                NodeKind::Seq(items) => stack.extend(items.iter_mut()),
                NodeKind::Map(entries) => {
                    for e in entries.iter_mut() {
                        stack.push(&mut e.key);
                        stack.push(&mut e.value);
                    }
                }
            }
        }
    }

    /// A short name of the node's type for messages ("string", "mapping", ...).
    pub fn type_name(&self) -> &'static str {
        match &self.kind {
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
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value;
        match &self.kind {
            NodeKind::Scalar { text, value, .. } => match value {
                Scalar::Null => Value::Null,
                Scalar::Bool(b) => Value::Bool(*b),
                Scalar::Int(i) => Value::from(*i),
                Scalar::Float(f) => serde_json::Number::from_f64(*f)
                    .map(Value::Number)
                    .unwrap_or_else(|| Value::String(text.to_string())),
                Scalar::Str => Value::String(text.to_string()),
            },
            NodeKind::Seq(items) => Value::Array(items.iter().map(Node::to_json).collect()),
            NodeKind::Map(entries) => Value::Object(
                entries
                    .iter()
                    .map(|e| {
                        let key = match &e.key.kind {
                            NodeKind::Scalar { text, .. } => text.to_string(),
                            _ => e.key.to_json().to_string(),
                        };
                        (key, e.value.to_json())
                    })
                    .collect(),
            ),
        }
    }
}
