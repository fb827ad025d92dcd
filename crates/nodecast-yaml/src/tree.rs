//! The arena the located tree lives in: a fleet holds millions of nodes, so a node is 16 bytes
//! (offsets, its text as a range of the parsed text, its children as a range of the arena)
//! instead of an owned struct with its own allocations, and an alias shares the anchored nodes
//! instead of copying them. A scalar's span is kept as its length when that is short (nearly
//! always), and a collection's child count when it fits 24 bits; the rest go to [`Rare::far`].
//!
//! A document is built children first (as events arrive), then laid out breadth first so every
//! collection's children sit side by side right after each other: finding a key reads one run
//! of nodes. A child that is a node placed elsewhere (an alias, a merged entry) is a link node.
use std::sync::Arc;

use crate::resolve::resolve_plain;
use crate::source::{offset32, Source};
use crate::{Scalar, ScalarStyle, Span};

/// A node reference: a node index, with [`VIA_ALIAS`] set when the node is reached through an
/// alias (it and everything below it are copies of an anchor).
pub(crate) type Ref = u32;

/// The bit of a [`Ref`] that says the node is reached through an alias.
pub(crate) const VIA_ALIAS: u32 = 1 << 31;

/// The most nodes one tree may hold (node indexes must leave [`VIA_ALIAS`] free).
pub(crate) const MAX_NODES: usize = (VIA_ALIAS - 1) as usize;

/// What a node is (the low two bits of [`Raw::bits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    Scalar = 0,
    Seq = 1,
    Map = 2,
    /// A child that is a node placed elsewhere (`a`): an alias's anchor, a merged entry.
    Link = 3,
}

const CLASS_MASK: u8 = 0b11;
const STYLE_SHIFT: u8 = 2;
const STYLE_MASK: u8 = 0b111 << STYLE_SHIFT;
/// The scalar's text is in [`Tree::extra`], not in [`Tree::text`].
const IN_EXTRA: u8 = 1 << 5;
/// The node was copied from an anchor (set on copies made by [`crate::Builder`]); on a link,
/// the link goes through an alias.
const FROM_ALIAS: u8 = 1 << 6;
/// The node has an explicit tag (in [`Rare::tags`]).
const TAGGED: u8 = 1 << 7;

/// A scalar's resolved value, without its payload (an integer or a float is read again from the
/// text, which determines it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    Null = 0,
    False = 1,
    True = 2,
    Int = 3,
    Float = 4,
    Str = 5,
}

impl Value {
    pub(crate) fn of(s: &Scalar) -> Value {
        match s {
            Scalar::Null => Value::Null,
            Scalar::Bool(false) => Value::False,
            Scalar::Bool(true) => Value::True,
            Scalar::Int(_) => Value::Int,
            Scalar::Float(_) => Value::Float,
            Scalar::Str => Value::Str,
        }
    }

    fn from_u8(v: u8) -> Value {
        match v {
            0 => Value::Null,
            1 => Value::False,
            2 => Value::True,
            3 => Value::Int,
            4 => Value::Float,
            _ => Value::Str,
        }
    }

    /// The value of a scalar of this class with text `text`: an explicit `!!int` or `!!float`
    /// tag only ever keeps what the plain reading of the text gives (a float tag widening an
    /// integer), so the text alone says which number it is.
    pub(crate) fn scalar(self, text: &str) -> Scalar {
        match self {
            Value::Null => Scalar::Null,
            Value::False => Scalar::Bool(false),
            Value::True => Scalar::Bool(true),
            Value::Str => Scalar::Str,
            Value::Int => match resolve_plain(text).0 {
                Scalar::Int(i) => Scalar::Int(i),
                _ => Scalar::Str,
            },
            Value::Float => match resolve_plain(text).0 {
                Scalar::Float(f) => Scalar::Float(f),
                Scalar::Int(i) => Scalar::Float(i as f64),
                _ => Scalar::Str,
            },
        }
    }
}

fn style_bits(style: ScalarStyle) -> u8 {
    let s = match style {
        ScalarStyle::Plain => 0,
        ScalarStyle::SingleQuoted => 1,
        ScalarStyle::DoubleQuoted => 2,
        ScalarStyle::Literal => 3,
        ScalarStyle::Folded => 4,
    };
    s << STYLE_SHIFT
}

/// What a node is, from its bits (built, packed or read).
#[inline]
fn class_of(bits: u8) -> Class {
    match bits & CLASS_MASK {
        0 => Class::Scalar,
        1 => Class::Seq,
        2 => Class::Map,
        _ => Class::Link,
    }
}

fn style_of(bits: u8) -> ScalarStyle {
    match (bits & STYLE_MASK) >> STYLE_SHIFT {
        0 => ScalarStyle::Plain,
        1 => ScalarStyle::SingleQuoted,
        2 => ScalarStyle::DoubleQuoted,
        3 => ScalarStyle::Literal,
        _ => ScalarStyle::Folded,
    }
}

/// A byte of the first two bytes of a text, so most keys that are not the one looked for (and
/// have its length) are told apart without reading their text.
pub(crate) fn prefix(text: &[u8]) -> u8 {
    let first = text.first().copied().unwrap_or(0);
    let second = text.get(1).copied().unwrap_or(0);
    first.wrapping_mul(31) ^ second
}

/// One node as it is built (and laid out, before it is packed into a [`Packed`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Raw {
    /// Byte offsets of the node's range in the source its positions point into.
    pub(crate) start: u32,
    pub(crate) end: u32,
    /// Scalar: where its text starts (in `text` or `extra`); collection: its first child (while
    /// building, in `children`; once laid out, in `nodes`); link: the node it stands for.
    pub(crate) a: u32,
    /// Scalar: its text's length; collection: how many children (two per entry).
    pub(crate) b: u32,
    pub(crate) bits: u8,
    pub(crate) value: u8,
    /// Scalar: [`prefix`] of its text.
    pub(crate) prefix: u8,
}

impl Raw {
    #[inline]
    pub(crate) fn class(&self) -> Class {
        class_of(self.bits)
    }

    pub(crate) fn style(&self) -> ScalarStyle {
        style_of(self.bits)
    }

    pub(crate) fn tagged(&self) -> bool {
        self.bits & TAGGED != 0
    }

    /// A link to the node laid out at `target`.
    fn link(target: u32, via_alias: bool) -> Raw {
        Raw {
            start: 0,
            end: 0,
            a: target,
            b: 0,
            bits: Class::Link as u8 | if via_alias { FROM_ALIAS } else { 0 },
            value: 0,
            prefix: 0,
        }
    }
}

/// One laid-out node: 16 bytes. `start`; then by class
/// - scalar: `w1` where its text starts, `w2` its length, `meta` the bits, the value (3 bits),
///   the [`prefix`] (8 bits) and the span's length (13 bits; see [`SPAN_MAX`]);
/// - collection: `w1` its first child, `w2` its end, `meta` the bits and the child count (24
///   bits; see [`COUNT_MAX`]);
/// - link: `w1` the node it stands for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Packed {
    start: u32,
    w1: u32,
    w2: u32,
    meta: u32,
}

const _: () = assert!(std::mem::size_of::<Packed>() == 16);

/// A scalar's value is `meta >> VALUE_SHIFT` (3 bits), its [`prefix`] `meta >> PREFIX_SHIFT`
/// (8 bits), above the node's bits.
const VALUE_SHIFT: u32 = 8;
const VALUE_MASK: u8 = 0b111;
const PREFIX_SHIFT: u32 = 11;
/// A scalar's span length is `meta >> SPAN_SHIFT`; [`SPAN_MAX`] says its end is in
/// [`Rare::far`].
// The crate's tests pack only 4 bits, so their spans and lists take the far way too.
#[cfg(not(test))]
const SPAN_SHIFT: u32 = 19;
#[cfg(test)]
const SPAN_SHIFT: u32 = 28;
const SPAN_MAX: u32 = (1 << (32 - SPAN_SHIFT)) - 1;
/// A collection's child count is `meta >> COUNT_SHIFT`; [`COUNT_MAX`] says it is in
/// [`Rare::far`].
#[cfg(not(test))]
const COUNT_SHIFT: u32 = 8;
#[cfg(test)]
const COUNT_SHIFT: u32 = 28;
const COUNT_MAX: u32 = (1 << (32 - COUNT_SHIFT)) - 1;

impl Packed {
    /// `raw` packed; a span length or child count too large for it goes to `far`.
    fn pack(id: u32, raw: &Raw, far: &mut Vec<(u32, u32)>) -> Packed {
        let bits = u32::from(raw.bits);
        match raw.class() {
            Class::Scalar => {
                let span = match raw.end.checked_sub(raw.start) {
                    Some(len) if len < SPAN_MAX => len,
                    _ => {
                        far.push((id, raw.end));
                        SPAN_MAX
                    }
                };
                Packed {
                    start: raw.start,
                    w1: raw.a,
                    w2: raw.b,
                    meta: bits
                        | u32::from(raw.value & VALUE_MASK) << VALUE_SHIFT
                        | u32::from(raw.prefix) << PREFIX_SHIFT
                        | span << SPAN_SHIFT,
                }
            }
            Class::Seq | Class::Map => {
                let count = if raw.b < COUNT_MAX {
                    raw.b
                } else {
                    far.push((id, raw.b));
                    COUNT_MAX
                };
                Packed {
                    start: raw.start,
                    w1: raw.a,
                    w2: raw.end,
                    meta: bits | count << COUNT_SHIFT,
                }
            }
            Class::Link => Packed {
                start: raw.start,
                w1: raw.a,
                w2: raw.end,
                meta: bits,
            },
        }
    }

    #[inline]
    fn bits(&self) -> u8 {
        self.meta as u8
    }

    #[inline]
    fn class(&self) -> Class {
        class_of(self.bits())
    }
}

/// A laid-out node as its readers see it: what [`Raw`] holds but its end.
#[derive(Clone, Copy, Debug)]
pub(crate) struct View {
    /// As [`Raw::a`].
    pub(crate) a: u32,
    /// As [`Raw::b`].
    pub(crate) b: u32,
    pub(crate) bits: u8,
    value: u8,
    /// Scalar: [`prefix`] of its text.
    pub(crate) prefix: u8,
}

impl View {
    #[inline]
    pub(crate) fn class(&self) -> Class {
        class_of(self.bits)
    }

    pub(crate) fn style(&self) -> ScalarStyle {
        style_of(self.bits)
    }

    #[inline]
    pub(crate) fn value(&self) -> Value {
        Value::from_u8(self.value)
    }

    pub(crate) fn tagged(&self) -> bool {
        self.bits & TAGGED != 0
    }

    pub(crate) fn copied(&self) -> bool {
        self.bits & FROM_ALIAS != 0
    }
}

/// What few trees have: explicit tags, and spans set one by one (a rendered object's values
/// placed back in the files that write them; a tree built from other trees' nodes).
#[derive(Clone, Debug, Default)]
pub(crate) struct Rare {
    /// (node, tag as written), by node.
    pub(crate) tags: Vec<(u32, Box<str>)>,
    /// Every node's span, when spans do not come from the offsets and the source.
    pub(crate) spans: Option<Vec<Span>>,
    /// Some node is reached from two places (a link).
    pub(crate) shares: bool,
    /// (node, its end for a scalar whose span is too long to pack, its child count for a
    /// collection with too many to pack), by node.
    pub(crate) far: Vec<(u32, u32)>,
}

/// The nodes of one document, laid out breadth first.
#[derive(Clone, Debug)]
pub(crate) struct Tree {
    pub(crate) nodes: Box<[Packed]>,
    /// The text scalars are ranges of: the parsed text (a file, an embedded payload).
    pub(crate) text: Arc<str>,
    /// Scalar texts that are not a range of `text` (block scalars, escapes, folded lines);
    /// shared, since an embedded document's text is one of them.
    pub(crate) extra: Arc<str>,
    /// What positions point into.
    pub(crate) source: Arc<Source>,
    pub(crate) rare: Option<Box<Rare>>,
}

impl Tree {
    #[inline]
    pub(crate) fn raw(&self, r: Ref) -> View {
        let id = r & !VIA_ALIAS;
        let p = &self.nodes[id as usize];
        let bits = p.bits();
        match p.class() {
            Class::Scalar => View {
                a: p.w1,
                b: p.w2,
                bits,
                value: (p.meta >> VALUE_SHIFT) as u8 & VALUE_MASK,
                prefix: (p.meta >> PREFIX_SHIFT) as u8,
            },
            Class::Seq | Class::Map => {
                let count = p.meta >> COUNT_SHIFT;
                View {
                    a: p.w1,
                    b: if count == COUNT_MAX {
                        self.far(id).unwrap_or(0)
                    } else {
                        count
                    },
                    bits,
                    value: Value::Null as u8,
                    prefix: 0,
                }
            }
            Class::Link => View {
                a: p.w1,
                b: 0,
                bits,
                value: Value::Null as u8,
                prefix: 0,
            },
        }
    }

    /// What [`Rare::far`] holds for node `id`.
    fn far(&self, id: u32) -> Option<u32> {
        let far = &self.rare.as_ref()?.far;
        far.binary_search_by_key(&id, |(n, _)| *n)
            .ok()
            .map(|i| far[i].1)
    }

    /// A laid-out node's byte offsets.
    fn offsets_at(&self, id: u32) -> (u32, u32) {
        let p = &self.nodes[id as usize];
        match p.class() {
            Class::Scalar => {
                let span = p.meta >> SPAN_SHIFT;
                let end = if span == SPAN_MAX {
                    self.far(id).unwrap_or(p.start)
                } else {
                    p.start.saturating_add(span)
                };
                (p.start, end)
            }
            Class::Seq | Class::Map | Class::Link => (p.start, p.w2),
        }
    }

    /// The node at index `i` as a child reached with `alias` (a link followed).
    #[inline]
    pub(crate) fn child(&self, i: u32, alias: u32) -> Ref {
        let p = &self.nodes[i as usize];
        if p.class() == Class::Link {
            p.w1 | alias
                | if p.bits() & FROM_ALIAS != 0 {
                    VIA_ALIAS
                } else {
                    0
                }
        } else {
            i | alias
        }
    }

    /// A scalar's text as bytes (to compare with a key without checking character boundaries).
    #[inline]
    pub(crate) fn bytes_of(&self, raw: View) -> &[u8] {
        let (a, b) = (raw.a as usize, raw.b as usize);
        let all: &str = if raw.bits & IN_EXTRA != 0 {
            &self.extra
        } else {
            &self.text
        };
        all.as_bytes().get(a..a + b).unwrap_or_default()
    }

    /// A scalar's text.
    #[inline]
    pub(crate) fn text_of(&self, raw: View) -> &str {
        let (a, b) = (raw.a as usize, raw.b as usize);
        let all: &str = if raw.bits & IN_EXTRA != 0 {
            &self.extra
        } else {
            &self.text
        };
        all.get(a..a + b).unwrap_or("")
    }

    pub(crate) fn tag_of(&self, r: Ref) -> Option<&str> {
        let id = r & !VIA_ALIAS;
        if !self.raw(r).tagged() {
            return None;
        }
        let tags = &self.rare.as_ref()?.tags;
        tags.binary_search_by_key(&id, |(n, _)| *n)
            .ok()
            .map(|i| &*tags[i].1)
    }

    pub(crate) fn span_of(&self, r: Ref) -> Span {
        let id = (r & !VIA_ALIAS) as usize;
        if let Some(spans) = self.rare.as_ref().and_then(|x| x.spans.as_ref()) {
            return spans.get(id).copied().unwrap_or_default();
        }
        let (start, end) = self.offsets_at(id as u32);
        Span {
            start: self.source.pos(start as usize),
            end: self.source.pos(end as usize),
        }
    }

    /// The byte offsets of a node's span (as [`Tree::span_of`] would give them, without lines).
    pub(crate) fn offsets_of(&self, r: Ref) -> (usize, usize) {
        let id = (r & !VIA_ALIAS) as usize;
        if let Some(spans) = self.rare.as_ref().and_then(|x| x.spans.as_ref()) {
            let s = spans.get(id).copied().unwrap_or_default();
            return (s.start.offset, s.end.offset);
        }
        let (start, end) = self.offsets_at(id as u32);
        let len = self.source.text().len();
        ((start as usize).min(len), (end as usize).min(len))
    }

    /// Sets one node's span, making every span explicit first.
    pub(crate) fn set_span(&mut self, r: Ref, span: Span) {
        let id = (r & !VIA_ALIAS) as usize;
        let spans = self.explicit_spans();
        if let Some(s) = spans.get_mut(id) {
            *s = span;
        }
    }

    fn explicit_spans(&mut self) -> &mut Vec<Span> {
        if self.rare.as_ref().is_none_or(|r| r.spans.is_none()) {
            let all: Vec<Span> = (0..self.nodes.len() as u32)
                .map(|i| self.span_of(i))
                .collect();
            self.rare.get_or_insert_with(Default::default).spans = Some(all);
        }
        match self.rare.as_mut().and_then(|r| r.spans.as_mut()) {
            Some(s) => s,
            None => unreachable!("spans were just made explicit"),
        }
    }

    pub(crate) fn shares(&self) -> bool {
        self.rare.as_ref().is_some_and(|r| r.shares)
    }

    /// The shared text a scalar's text is a range of, and where in it the range starts.
    pub(crate) fn text_home(&self, r: Ref) -> (Arc<str>, usize) {
        let raw = self.raw(r);
        let home = if raw.bits & IN_EXTRA != 0 {
            &self.extra
        } else {
            &self.text
        };
        (home.clone(), raw.a as usize)
    }
}

/// The `extra` of every tree that needs none.
static NO_EXTRA: std::sync::LazyLock<Arc<str>> = std::sync::LazyLock::new(|| Arc::from(""));

/// Where a new scalar's text is.
pub(crate) enum TextAt<'t> {
    /// A range of the tree's text: where it starts, and the text there.
    Range(usize, &'t str),
    /// Text of its own (kept in `extra`).
    Own(&'t str),
}

/// Builds a tree node by node, children before their collection (in the order events arrive),
/// with child references in `children`; [`TreeBuilder::finish`] lays it out.
#[derive(Default)]
pub(crate) struct TreeBuilder {
    nodes: Vec<Raw>,
    children: Vec<Ref>,
    extra: String,
    rare: Rare,
}

impl TreeBuilder {
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    fn push(&mut self, raw: Raw, tag: Option<Box<str>>, span: Option<Span>) -> Ref {
        // A text under [`crate::parse::MAX_TEXT`] bytes never makes this many nodes.
        let id = offset32(self.nodes.len().min(MAX_NODES - 1));
        let mut raw = raw;
        if let Some(tag) = tag {
            raw.bits |= TAGGED;
            self.rare.tags.push((id, tag));
        }
        if let Some(span) = span {
            self.rare.spans.get_or_insert_with(Vec::new).push(span);
        }
        self.nodes.push(raw);
        id
    }

    /// A scalar node.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn scalar(
        &mut self,
        (start, end): (usize, usize),
        text: TextAt<'_>,
        style: ScalarStyle,
        value: Value,
        tag: Option<Box<str>>,
        from_alias: bool,
        span: Option<Span>,
    ) -> Ref {
        let (a, b, extra, prefix) = match text {
            TextAt::Range(a, t) => (a, t.len(), 0, self::prefix(t.as_bytes())),
            TextAt::Own(t) => {
                let a = self.extra.len();
                self.extra.push_str(t);
                (a, t.len(), IN_EXTRA, self::prefix(t.as_bytes()))
            }
        };
        let raw = Raw {
            start: offset32(start),
            end: offset32(end),
            a: offset32(a),
            b: offset32(b),
            bits: Class::Scalar as u8
                | style_bits(style)
                | extra
                | if from_alias { FROM_ALIAS } else { 0 },
            value: value as u8,
            prefix,
        };
        self.push(raw, tag, span)
    }

    /// A sequence (`class` Seq, one reference per item) or a mapping (Map, key and value per
    /// entry).
    pub(crate) fn collection(
        &mut self,
        class: Class,
        (start, end): (usize, usize),
        refs: &[Ref],
        tag: Option<Box<str>>,
        from_alias: bool,
        span: Option<Span>,
    ) -> Ref {
        let a = self.children.len();
        self.children.extend_from_slice(refs);
        let raw = Raw {
            start: offset32(start),
            end: offset32(end),
            a: offset32(a),
            b: offset32(refs.len()),
            bits: class as u8 | if from_alias { FROM_ALIAS } else { 0 },
            value: Value::Null as u8,
            prefix: 0,
        };
        self.push(raw, tag, span)
    }

    /// The children of a collection already built (for merge keys).
    pub(crate) fn refs_of(&self, r: Ref) -> &[Ref] {
        let raw = &self.nodes[(r & !VIA_ALIAS) as usize];
        if !matches!(raw.class(), Class::Seq | Class::Map) {
            return &[];
        }
        let (a, b) = (raw.a as usize, raw.b as usize);
        self.children.get(a..a + b).unwrap_or(&[])
    }

    pub(crate) fn class_of(&self, r: Ref) -> Class {
        self.nodes[(r & !VIA_ALIAS) as usize].class()
    }

    /// A scalar's text while building (`text` is what ranges point into).
    pub(crate) fn text_of<'s>(&'s self, text: &'s str, r: Ref) -> Option<&'s str> {
        let raw = &self.nodes[(r & !VIA_ALIAS) as usize];
        if raw.class() != Class::Scalar {
            return None;
        }
        let (a, b) = (raw.a as usize, raw.b as usize);
        let all = if raw.bits & IN_EXTRA != 0 {
            &self.extra[..]
        } else {
            text
        };
        all.get(a..a + b)
    }

    pub(crate) fn style_of(&self, r: Ref) -> ScalarStyle {
        self.nodes[(r & !VIA_ALIAS) as usize].style()
    }

    pub(crate) fn tag_of(&self, r: Ref) -> Option<&str> {
        let id = r & !VIA_ALIAS;
        if !self.nodes[id as usize].tagged() {
            return None;
        }
        self.rare
            .tags
            .binary_search_by_key(&id, |(n, _)| *n)
            .ok()
            .map(|i| &*self.rare.tags[i].1)
    }

    /// The byte offsets of a node built so far.
    pub(crate) fn offsets(&self, r: Ref) -> (usize, usize) {
        let raw = &self.nodes[(r & !VIA_ALIAS) as usize];
        (raw.start as usize, raw.end as usize)
    }

    /// Gives every node its span (one per node, in node order).
    pub(crate) fn set_spans(&mut self, spans: Vec<Span>) {
        self.rare.spans = Some(spans);
    }

    /// Moves every node's offsets (an embedded document's, into the outer file).
    pub(crate) fn map_offsets(&mut self, f: impl Fn(u32, u32) -> (u32, u32)) {
        for n in &mut self.nodes {
            (n.start, n.end) = f(n.start, n.end);
        }
    }

    /// Lays the nodes reachable from `root` out breadth first (each collection's children side by
    /// side, a child placed elsewhere as a link) and returns the tree and the root's new index.
    pub(crate) fn finish(self, root: Ref, text: Arc<str>, source: Arc<Source>) -> (Tree, Ref) {
        self.finish_within(root, (text, 0), source)
    }

    /// [`TreeBuilder::finish`] for a tree parsed from a part of `text`, starting at `base`: the
    /// ranges its scalars took of the part are moved to the whole.
    pub(crate) fn finish_within(
        mut self,
        root: Ref,
        (text, base): (Arc<str>, usize),
        source: Arc<Source>,
    ) -> (Tree, Ref) {
        if base > 0 {
            for n in &mut self.nodes {
                if n.class() == Class::Scalar && n.bits & IN_EXTRA == 0 {
                    n.a = n.a.saturating_add(offset32(base));
                }
            }
        }
        const UNPLACED: u32 = u32::MAX;
        let mut new_of = vec![UNPLACED; self.nodes.len()];
        let mut nodes: Vec<Raw> = Vec::with_capacity(self.nodes.len());
        // The built node each laid-out node is (a link: the reference it stands for).
        let mut old_of: Vec<Ref> = Vec::with_capacity(self.nodes.len());
        let mut links: Vec<usize> = Vec::new();
        let built = &self.nodes;
        let place = |id: u32, new_of: &mut [u32], nodes: &mut Vec<Raw>, old_of: &mut Vec<Ref>| {
            new_of[id as usize] = offset32(nodes.len());
            nodes.push(built[id as usize]);
            old_of.push(id);
        };
        let root_id = root & !VIA_ALIAS;
        if (root_id as usize) < built.len() {
            place(root_id, &mut new_of, &mut nodes, &mut old_of);
        } else {
            // Never so: every document has a root.
            let mut empty = Raw::link(0, false);
            empty.bits = Class::Scalar as u8;
            nodes.push(empty);
            old_of.push(0);
        }
        let mut next = 0;
        let mut linked = 0;
        loop {
            while next < nodes.len() {
                let raw = nodes[next];
                if matches!(raw.class(), Class::Seq | Class::Map) {
                    let (a, b) = (raw.a as usize, raw.b as usize);
                    let first = nodes.len();
                    for &r in self.children.get(a..a + b).unwrap_or(&[]) {
                        let id = r & !VIA_ALIAS;
                        if r & VIA_ALIAS == 0 && new_of[id as usize] == UNPLACED {
                            place(id, &mut new_of, &mut nodes, &mut old_of);
                        } else {
                            links.push(nodes.len());
                            nodes.push(Raw::link(0, false));
                            old_of.push(r);
                        }
                    }
                    nodes[next].a = offset32(first);
                }
                next += 1;
            }
            // A node reached only through aliases (its own place was a removed duplicate)
            // is laid out after everything else, and so is what it holds.
            let mut more = false;
            for &l in &links[linked..] {
                let id = old_of[l] & !VIA_ALIAS;
                if new_of[id as usize] == UNPLACED {
                    place(id, &mut new_of, &mut nodes, &mut old_of);
                    more = true;
                }
            }
            linked = links.len();
            if !more {
                break;
            }
        }
        for &l in &links {
            let r = old_of[l];
            nodes[l] = Raw::link(new_of[(r & !VIA_ALIAS) as usize], r & VIA_ALIAS != 0);
        }
        let mut rare = self.rare;
        let extra = self.extra;
        rare.shares = !links.is_empty();
        let mut tags: Vec<(u32, Box<str>)> = rare
            .tags
            .into_iter()
            .filter_map(|(id, t)| {
                let new = *new_of.get(id as usize)?;
                (new != UNPLACED).then_some((new, t))
            })
            .collect();
        tags.sort_by_key(|(id, _)| *id);
        rare.tags = tags;
        rare.spans = rare.spans.map(|spans| {
            old_of
                .iter()
                .map(|r| {
                    spans
                        .get((r & !VIA_ALIAS) as usize)
                        .copied()
                        .unwrap_or_default()
                })
                .collect()
        });
        let mut far = Vec::new();
        let packed: Box<[Packed]> = nodes
            .iter()
            .enumerate()
            .map(|(i, raw)| Packed::pack(offset32(i), raw, &mut far))
            .collect();
        rare.far = far;
        let rare =
            (!rare.tags.is_empty() || rare.spans.is_some() || rare.shares || !rare.far.is_empty())
                .then(|| Box::new(rare));
        let root = match new_of.get(root_id as usize) {
            Some(&n) if n != UNPLACED => n | (root & VIA_ALIAS),
            _ => 0,
        };
        let tree = Tree {
            nodes: packed,
            text,
            extra: if extra.is_empty() {
                NO_EXTRA.clone()
            } else {
                extra.into()
            },
            source,
            rare,
        };
        (tree, root)
    }
}

#[cfg(test)]
mod tests {
    /// Under test a node packs 4 bits of span length and child count, so these lists and
    /// scalars are read through [`super::Rare::far`].
    #[test]
    fn what_does_not_fit_a_node_is_read_from_the_side() {
        let items: Vec<String> = (0..40).map(|i| format!("item-{i}")).collect();
        let entries: String = (0..20)
            .map(|i| format!("  k{i:02}: value number {i}\n"))
            .collect();
        let src = format!("list: [{}]\nmap:\n{entries}tail: end\n", items.join(", "));
        let parsed = crate::parse(&src, &crate::Options::default());
        assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
        let root = parsed.documents[0].root();
        let list = root.get("list").and_then(|n| n.as_seq()).expect("a list");
        assert_eq!(list.len(), 40);
        let read: Vec<&str> = list.iter().filter_map(|n| n.as_str()).collect();
        assert_eq!(read, items);
        let last = list.iter().next_back().expect("40 items").span();
        assert_eq!(&src[last.start.offset..last.end.offset], "item-39");
        let map = root.get("map").and_then(|n| n.as_map()).expect("a map");
        assert_eq!(map.len(), 20);
        let v = root.path(&["map", "k19"]).expect("k19");
        assert_eq!(v.as_str(), Some("value number 19"));
        assert_eq!(
            &src[v.span().start.offset..v.span().end.offset],
            "value number 19"
        );
        let whole = root.get("list").expect("list").span();
        assert_eq!(
            &src[whole.start.offset..whole.end.offset],
            format!("[{}]", items.join(", "))
        );
        assert_eq!(root.get("tail").and_then(|n| n.as_str()), Some("end"));
    }
}
