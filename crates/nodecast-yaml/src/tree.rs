//! The arena the located tree lives in: a fleet holds millions of nodes, so a node is 12 bytes
//! (its start, one word, and its bits) instead of an owned struct with its own allocations, and
//! an alias shares the anchored nodes instead of copying them. A plain scalar's text is its
//! span and a block collection ends where its last child does, so the node keeps only the
//! span's length or its first child. A text elsewhere is an entry laid out after the nodes; a
//! span too long to pack, an end of its own and a child count past 23 bits go to [`Rare`].
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

/// Whether two keys are the same bytes: a short key (most are) compared in line, eight bytes at
/// a time, rather than by a call to the C library's `memcmp` for each key found (a quarter of
/// the `memcmp` time of a cold check, which was a tenth of it).
#[inline(always)]
fn same_key(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    if a.len() > 32 {
        return a == b;
    }
    let mut a_chunks = a.chunks_exact(8);
    let mut b_chunks = b.chunks_exact(8);
    for (x, y) in (&mut a_chunks).zip(&mut b_chunks) {
        // Arrays of eight bytes compare as one word each.
        if x.first_chunk::<8>() != y.first_chunk::<8>() {
            return false;
        }
    }
    a_chunks
        .remainder()
        .iter()
        .zip(b_chunks.remainder())
        .all(|(x, y)| x == y)
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

/// One laid-out node: 12 bytes. `start`; then by class
/// - scalar: `meta` the bits, the value (3 bits), the [`prefix`] (8 bits) and where its text
///   is (2 bits): the span itself ([`TEXT_SPAN`], a plain scalar) or the span without its quotes
///   ([`TEXT_INNER`]), `w` being the span's length, or elsewhere ([`TEXT_SIDE`]: a block
///   scalar, escapes, an embedded document's scalars), `w` the index of a text entry laid out
///   after every node, and the span's length in the last 11 bits of `meta` (see [`SPAN_MAX`]);
/// - collection: `w` its first child, `meta` the bits, whether it ends where its last child
///   does ([`ENDS_WITH_LAST`], a block collection; else its end is in [`Rare::ends`]) and the
///   child count (23 bits; see [`COUNT_MAX`]);
/// - link: `w` the node it stands for;
/// - text entry (after the nodes, not a node): `start` where the text is, `w` its length.
///
/// Nine in ten nodes of a fleet are plain scalars and block collections, whose text and end
/// the offsets already say: a fourth of the tree's memory was those words written again.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Packed {
    start: u32,
    w: u32,
    meta: u32,
}

const _: () = assert!(std::mem::size_of::<Packed>() == 12);

/// A scalar's value is `meta >> VALUE_SHIFT` (3 bits), its [`prefix`] `meta >> PREFIX_SHIFT`
/// (8 bits), where its text is `meta >> TEXT_SHIFT` (2 bits), above the node's bits.
const VALUE_SHIFT: u32 = 8;
const VALUE_MASK: u8 = 0b111;
const PREFIX_SHIFT: u32 = 11;
const TEXT_SHIFT: u32 = 19;
const TEXT_MASK: u32 = 0b11;
/// The scalar's text is its span (`w` the span's length).
const TEXT_SPAN: u32 = 0;
/// The scalar's text is its span but the first and last byte (its quotes; `w` the span's length).
const TEXT_INNER: u32 = 1;
/// The scalar's text is given by the text entry at index `w` (after the nodes).
const TEXT_SIDE: u32 = 2;
/// A [`TEXT_SIDE`] scalar's span length is `meta >> SPAN_SHIFT`; [`SPAN_MAX`] says its end is
/// in [`Rare::far`].
// The crate's tests pack only 4 bits, so their spans and lists take the far way too.
#[cfg(not(test))]
const SPAN_SHIFT: u32 = 21;
#[cfg(test)]
const SPAN_SHIFT: u32 = 28;
const SPAN_MAX: u32 = (1 << (32 - SPAN_SHIFT)) - 1;
/// A collection ends where its last child does (else its end is in [`Rare::ends`]).
const ENDS_WITH_LAST: u32 = 1 << 8;
/// A collection's child count is `meta >> COUNT_SHIFT`; [`COUNT_MAX`] says it is in
/// [`Rare::far`].
#[cfg(not(test))]
const COUNT_SHIFT: u32 = 9;
#[cfg(test)]
const COUNT_SHIFT: u32 = 28;
const COUNT_MAX: u32 = (1 << (32 - COUNT_SHIFT)) - 1;

/// Where [`Packed::pack`] puts what does not fit a node.
#[derive(Default)]
struct Sides {
    far: Vec<(u32, u32)>,
    /// Text entries, laid out after the nodes: no allocation of their own, since most trees
    /// of embedded documents have one for nearly every scalar.
    texts: Vec<Packed>,
    ends: Vec<(u32, u32)>,
}

impl Packed {
    /// `raw` packed (`laid` is every laid-out node, for a collection's last child); what does
    /// not fit goes to `sides`.
    fn pack(id: u32, raw: &Raw, laid: &[Raw], sides: &mut Sides) -> Packed {
        let bits = u32::from(raw.bits);
        match raw.class() {
            Class::Scalar => {
                let span = raw.end.wrapping_sub(raw.start);
                let in_text = raw.end >= raw.start && raw.bits & IN_EXTRA == 0;
                let mode = if in_text && raw.a == raw.start && raw.b == span {
                    TEXT_SPAN
                } else if in_text && span >= 2 && raw.a == raw.start + 1 && raw.b == span - 2 {
                    TEXT_INNER
                } else {
                    TEXT_SIDE
                };
                let (w, span_bits) = if mode == TEXT_SIDE {
                    let entry = offset32(laid.len() + sides.texts.len());
                    sides.texts.push(Packed {
                        start: raw.a,
                        w: raw.b,
                        meta: 0,
                    });
                    let span_bits = if raw.end >= raw.start && span < SPAN_MAX {
                        span
                    } else {
                        sides.far.push((id, raw.end));
                        SPAN_MAX
                    };
                    (entry, span_bits)
                } else {
                    (span, 0)
                };
                Packed {
                    start: raw.start,
                    w,
                    meta: bits
                        | u32::from(raw.value & VALUE_MASK) << VALUE_SHIFT
                        | u32::from(raw.prefix) << PREFIX_SHIFT
                        | mode << TEXT_SHIFT
                        | span_bits << SPAN_SHIFT,
                }
            }
            Class::Seq | Class::Map => {
                let count = if raw.b < COUNT_MAX {
                    raw.b
                } else {
                    sides.far.push((id, raw.b));
                    COUNT_MAX
                };
                // The last child, when it is placed here (not a link): its end is exact, so
                // the collection's is read from it when they are the same.
                let last = raw
                    .b
                    .checked_sub(1)
                    .and_then(|i| laid.get(raw.a.checked_add(i)? as usize))
                    .filter(|c| c.class() != Class::Link);
                let ends = if last.is_some_and(|c| c.end == raw.end) {
                    ENDS_WITH_LAST
                } else {
                    sides.ends.push((id, raw.end));
                    0
                };
                Packed {
                    start: raw.start,
                    w: raw.a,
                    meta: bits | ends | count << COUNT_SHIFT,
                }
            }
            Class::Link => Packed {
                start: raw.start,
                w: raw.a,
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

    #[inline]
    fn text_mode(&self) -> u32 {
        (self.meta >> TEXT_SHIFT) & TEXT_MASK
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
    /// (node, its end) of each collection that does not end where its last child does (a flow
    /// collection's closing bracket, an empty one, one whose last child is a link), by node.
    pub(crate) ends: Vec<(u32, u32)>,
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
    #[inline(always)]
    pub(crate) fn raw(&self, r: Ref) -> View {
        let id = r & !VIA_ALIAS;
        let p = &self.nodes[id as usize];
        let bits = p.bits();
        match p.class() {
            Class::Scalar => {
                let (a, b) = self.text_range(p);
                View {
                    a,
                    b,
                    bits,
                    value: (p.meta >> VALUE_SHIFT) as u8 & VALUE_MASK,
                }
            }
            Class::Seq | Class::Map => View {
                a: p.w,
                b: self.count(id, p),
                bits,
                value: Value::Null as u8,
            },
            Class::Link => View {
                a: p.w,
                b: 0,
                bits,
                value: Value::Null as u8,
            },
        }
    }

    /// A collection's child count.
    #[inline]
    fn count(&self, id: u32, p: &Packed) -> u32 {
        let count = p.meta >> COUNT_SHIFT;
        if count == COUNT_MAX {
            self.far(id).unwrap_or(0)
        } else {
            count
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
        let Some(p) = self.nodes.get(id as usize) else {
            return (0, 0);
        };
        (p.start, self.end_at(id))
    }

    /// Where a laid-out node ends: a collection that ends with its last child ends where that
    /// child does (children are laid out after their collection, so this walk ends).
    fn end_at(&self, mut id: u32) -> u32 {
        loop {
            let Some(p) = self.nodes.get(id as usize) else {
                return 0;
            };
            match p.class() {
                Class::Scalar => {
                    return match p.text_mode() {
                        TEXT_SPAN | TEXT_INNER => p.start.saturating_add(p.w),
                        _ => {
                            let span = p.meta >> SPAN_SHIFT;
                            if span == SPAN_MAX {
                                self.far(id).unwrap_or(p.start)
                            } else {
                                p.start.saturating_add(span)
                            }
                        }
                    };
                }
                Class::Seq | Class::Map if p.meta & ENDS_WITH_LAST != 0 => {
                    let last = p.w.saturating_add(self.count(id, p)).saturating_sub(1);
                    if last <= id {
                        return p.start;
                    }
                    id = last;
                }
                Class::Seq | Class::Map => {
                    let ends = self.rare.as_ref().map(|r| &r.ends[..]).unwrap_or_default();
                    return ends
                        .binary_search_by_key(&id, |(n, _)| *n)
                        .ok()
                        .map_or(p.start, |i| ends[i].1);
                }
                Class::Link => return p.start,
            }
        }
    }

    /// The node at index `i` as a child reached with `alias` (a link followed).
    #[inline]
    pub(crate) fn child(&self, i: u32, alias: u32) -> Ref {
        let p = &self.nodes[i as usize];
        if p.class() == Class::Link {
            p.w | alias
                | if p.bits() & FROM_ALIAS != 0 {
                    VIA_ALIAS
                } else {
                    0
                }
        } else {
            i | alias
        }
    }

    /// Whether the child at index `i` is a scalar whose text is `key` (with `prefix` its
    /// [`prefix`]): what finding a key asks of every key before it, read straight from the
    /// packed node (a plain key's text is its span).
    #[inline(always)]
    pub(crate) fn key_is(&self, i: u32, key: &[u8], prefix: u8) -> bool {
        let p = match self.nodes.get(i as usize) {
            Some(link) if link.class() == Class::Link => self.nodes.get(link.w as usize),
            p => p,
        };
        let Some(p) = p.filter(|p| p.class() == Class::Scalar) else {
            return false;
        };
        if (p.meta >> PREFIX_SHIFT) as u8 != prefix {
            return false;
        }
        let (a, b) = self.text_range(p);
        b as usize == key.len()
            && self
                .home(p.bits())
                .as_bytes()
                .get(a as usize..(a + b) as usize)
                .is_some_and(|t| same_key(t, key))
    }

    /// Where a packed scalar's text is in its [`Tree::home`]: (start, length).
    #[inline(always)]
    fn text_range(&self, p: &Packed) -> (u32, u32) {
        match p.text_mode() {
            TEXT_SPAN => (p.start, p.w),
            TEXT_INNER => (p.start.saturating_add(1), p.w.saturating_sub(2)),
            _ => self
                .nodes
                .get(p.w as usize)
                .map_or((0, 0), |t| (t.start, t.w)),
        }
    }

    /// The text a scalar with node bits `bits` takes its text from: `extra` or the parsed text.
    #[inline(always)]
    fn home(&self, bits: u8) -> &Arc<str> {
        if bits & IN_EXTRA != 0 {
            &self.extra
        } else {
            &self.text
        }
    }

    /// A scalar's text as bytes, decoded the long way: debug builds check every packed key read
    /// ([`Tree::key_is`]) against it.
    #[cfg(debug_assertions)]
    pub(crate) fn bytes_of(&self, raw: View) -> &[u8] {
        let (a, b) = (raw.a as usize, raw.b as usize);
        self.home(raw.bits)
            .as_bytes()
            .get(a..a + b)
            .unwrap_or_default()
    }

    /// A scalar's text.
    #[inline]
    pub(crate) fn text_of(&self, raw: View) -> &str {
        let (a, b) = (raw.a as usize, raw.b as usize);
        self.home(raw.bits).get(a..a + b).unwrap_or("")
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
        (self.home(raw.bits).clone(), raw.a as usize)
    }
}

#[cfg(debug_assertions)]
impl Tree {
    /// Every laid-out node reads back from its packed form as it was laid out (checked in debug
    /// builds, so every parse of the test suites checks the packing).
    fn assert_packs(&self, laid: &[Raw]) {
        for (i, raw) in laid.iter().enumerate() {
            let id = offset32(i);
            let view = self.raw(id);
            let (a, b) = match raw.class() {
                Class::Link => (raw.a, 0),
                _ => (raw.a, raw.b),
            };
            assert_eq!(
                (self.offsets_at(id), view.a, view.b, view.bits),
                ((raw.start, raw.end), a, b, raw.bits),
                "node {i} of {} does not read back as laid out",
                laid.len()
            );
        }
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
        let mut sides = Sides::default();
        let mut packed: Vec<Packed> = nodes
            .iter()
            .enumerate()
            .map(|(i, raw)| Packed::pack(offset32(i), raw, &nodes, &mut sides))
            .collect();
        // One growth to the exact size; the packed copy below takes the nodes and the text
        // entries whole. (Collecting the two straight into the packed copy, with no growth,
        // left 2–3 MiB more resident at the large fleet's peak, in mimalloc's pages.)
        packed.reserve_exact(sides.texts.len());
        packed.extend_from_slice(&sides.texts);
        rare.far = sides.far;
        rare.ends = sides.ends;
        let rare = (!rare.tags.is_empty()
            || rare.spans.is_some()
            || rare.shares
            || !rare.far.is_empty()
            || !rare.ends.is_empty())
        .then(|| Box::new(rare));
        // The nodes and texts a tree keeps live as long as the tree, which most often is the
        // whole check: packed beside other trees' rather than rounded up one by one.
        let tree = Tree {
            nodes: nodecast_alloc::packed(|| Box::from(packed.as_slice())),
            text,
            extra: if extra.is_empty() {
                NO_EXTRA.clone()
            } else {
                nodecast_alloc::packed(|| extra.as_str().into())
            },
            source,
            rare,
        };
        #[cfg(debug_assertions)]
        tree.assert_packs(&nodes);
        let root = match new_of.get(root_id as usize) {
            Some(&n) if n != UNPLACED => n | (root & VIA_ALIAS),
            _ => 0,
        };
        (tree, root)
    }
}

#[cfg(test)]
mod tests {
    /// The in-line comparison says what `==` says, for every length up to past the word loop and
    /// a difference at every position.
    #[test]
    fn keys_compare_as_their_bytes() {
        for len in 0usize..40 {
            let a: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(super::same_key(&a, &a.clone()));
            assert!(!super::same_key(&a, &a[..len.saturating_sub(1)]) || len == 0);
            for at in 0..len {
                let mut b = a.clone();
                b[at] ^= 1;
                assert!(!super::same_key(&a, &b), "{len} {at}");
            }
        }
    }

    /// Plain scalars and block collections keep nothing beside their node; quoted scalars with
    /// an escape, block scalars, flow and empty collections and a collection ending in an alias
    /// keep their text or end in the side tables, and every one reads back its text and span.
    #[test]
    fn nodes_keep_beside_them_only_what_their_offsets_do_not_say() {
        let src = "a: plain\nb: 'single'\nc: \"esc\\tape\"\nd: |\n  block\ne: {x: 1}\nf: []\n\
                   g: &anchor\n  h: deep\n  i:\n  - last\nj:\n- *anchor\n";
        let parsed = crate::parse(src, &crate::Options::default());
        assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
        let root = parsed.documents[0].root();
        let frame = |keys: &[&str]| {
            let n = root.path(keys).expect("a node");
            let s = n.span();
            (n.as_str(), &src[s.start.offset..s.end.offset])
        };
        assert_eq!(frame(&["a"]), (Some("plain"), "plain"));
        assert_eq!(frame(&["b"]), (Some("single"), "'single'"));
        assert_eq!(frame(&["c"]), (Some("esc\tape"), "\"esc\\tape\""));
        assert_eq!(frame(&["d"]), (Some("block\n"), "|\n  block"));
        assert_eq!(frame(&["e"]), (None, "{x: 1}"));
        assert_eq!(frame(&["f"]), (None, "[]"));
        assert_eq!(frame(&["g"]), (None, "h: deep\n  i:\n  - last"));
        assert_eq!(frame(&["j"]), (None, "- *anchor"));
        // The escaped and the block scalar's texts are entries after the nodes; the flow map's,
        // the empty list's and the list ending in an alias's ends are in the side table.
        let tree = root.tree;
        let nodes = tree.nodes.len() - 2;
        let side: Vec<u32> = tree.nodes[..nodes]
            .iter()
            .filter(|p| p.class() == super::Class::Scalar && p.text_mode() == super::TEXT_SIDE)
            .map(|p| p.w)
            .collect();
        assert_eq!(side, [nodes as u32, nodes as u32 + 1]);
        let ends = &tree.rare.as_ref().expect("side tables").ends;
        assert_eq!(ends.len(), 3, "{ends:?}");
    }

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
