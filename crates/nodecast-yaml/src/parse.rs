//! Event stream → located tree.
//!
//! Span conventions (all byte offsets into the parsed text):
//! - plain and quoted scalars: the scalar itself (quotes included), without its properties
//!   (`&anchor`, `!tag`);
//! - block scalars: from the `|`/`>` indicator to the end of the last non-blank content character
//!   (trailing blank lines and the final line break are not included); an empty block scalar
//!   covers its header (`|-`);
//! - empty (null) plain scalars: zero-width, just after the `:` / `-` / properties;
//! - flow collections: from `[`/`{` to `]`/`}` inclusive;
//! - block mappings: from the first key to the end of the last value; block sequences: from the
//!   first `-` to the end of the last item;
//! - documents: their root node's span.
//!
//! Duplicate keys: the later entry wins and stays at its own position; the earlier one is
//! removed (so entries remain in source order). Merge keys (`<<`) are expanded in place.
//! An alias shares the anchored nodes (the reference to them says it goes through an alias):
//! the expansion budgets still count every node an alias stands for, since callers walk them.
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use compact_str::CompactString;
use saphyr_parser::{Event, Parser, ScanError, Tag};

use crate::document::Document;
use crate::locate::{self, Locator};
use crate::resolve::resolve;
use crate::tree::{Class, Ref, TextAt, TreeBuilder, Value, VIA_ALIAS};
use crate::{Ambiguity, Options, Parsed, Problem, ProblemKind, Scalar, ScalarStyle, Source, Span};

/// Parses a YAML (or JSON) stream into located documents; never panics, whatever the input.
/// The text is copied once into the documents' [`Source`]; [`parse_source`] shares it instead.
pub fn parse(src: &str, opts: &Options) -> Parsed {
    parse_source(&Source::new(src.into()), opts)
}

/// [`parse`] of a source the caller keeps (a file's text): scalars are ranges of it, not copies.
///
/// A flow collection whose lines are not indented past their parent (`args: [` … `]` with the
/// bracket under the key) is read as go-yaml reads it ([`crate::flow_lines`]).
pub fn parse_source(source: &Arc<Source>, opts: &Options) -> Parsed {
    let text = source.text().clone();
    let raw = parse_raw(&text, opts);
    let finish = |raw: RawParsed| {
        raw.finish(|d| {
            let tree = d.tree.finish(d.root, text.clone(), source.clone());
            Document::new(tree, d.index, d.span)
        })
    };
    if let Some((joined, changed)) = crate::flow_lines::relaxed(&text, &raw, opts) {
        let mut parsed = finish(joined);
        if crate::flow_lines::reads_the_same(&parsed, &text, &changed) {
            crate::flow_lines::relocate(&mut parsed, source);
            return parsed;
        }
    }
    finish(raw)
}

/// A document whose tree is not finished: its offsets are still those of the parsed text.
pub(crate) struct RawDoc {
    pub(crate) tree: TreeBuilder,
    pub(crate) root: Ref,
    pub(crate) index: usize,
    pub(crate) span: Span,
}

/// What [`parse_raw`] found, before the trees are finished.
pub(crate) struct RawParsed {
    pub(crate) documents: Vec<RawDoc>,
    pub(crate) problems: Vec<Problem>,
    alias_nodes: usize,
    total_alias_limit_hit: bool,
}

impl RawParsed {
    /// Finishes every document with `f`.
    pub(crate) fn finish(self, f: impl FnMut(RawDoc) -> Document) -> Parsed {
        Parsed {
            documents: self.documents.into_iter().map(f).collect(),
            problems: self.problems,
            alias_nodes: self.alias_nodes,
            total_alias_limit_hit: self.total_alias_limit_hit,
        }
    }
}

/// Texts at least this long are not parsed (node offsets are 32 bits, and a node index must
/// leave the alias bit free); files are far smaller long before this.
pub(crate) const MAX_TEXT: usize = (VIA_ALIAS - 1) as usize;

/// Parses `src` into unfinished documents.
pub(crate) fn parse_raw(src: &str, opts: &Options) -> RawParsed {
    if src.len() >= MAX_TEXT {
        return RawParsed {
            documents: Vec::new(),
            problems: vec![Problem {
                kind: ProblemKind::Limit,
                message: format!("the text is longer than {MAX_TEXT} bytes"),
                span: Span::default(),
                other: None,
            }],
            alias_nodes: 0,
            total_alias_limit_hit: false,
        };
    }
    let loc = Locator::new(src);
    let mut b = Builder::new(&loc, opts);
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut parser = Parser::new_from_str(src);
        while let Some(item) = parser.next_event() {
            match item {
                Ok((ev, span)) => {
                    let (start, end) = (loc.byte(&span.start), loc.byte(&span.end));
                    if !b.event(ev, start, end) {
                        break;
                    }
                }
                Err(e) => {
                    b.scan_error(&e);
                    break;
                }
            }
        }
    }));
    if outcome.is_err() {
        // Defence in depth: saphyr should not panic, but a linter must not die on one file.
        let at = b.last_end;
        b.problems.push(Problem {
            kind: ProblemKind::Syntax,
            message: "the YAML parser failed on this input".to_string(),
            span: loc.span(at, at),
            other: None,
        });
    }
    b.finish()
}

/// A finished node with the bookkeeping the limits need.
#[derive(Clone, Copy)]
struct Built {
    node: Ref,
    /// Number of nodes in the subtree (counting what aliases stand for).
    size: usize,
    /// Collection levels in the subtree (0 for a scalar).
    height: usize,
}

/// A slot of a mapping under construction: (key, value).
enum Slot {
    Entry(Ref, Ref),
    /// A `<<` merge key and its value, resolved when the mapping ends.
    Merge(Ref, Ref),
    /// An earlier duplicate, replaced by a later entry.
    Removed,
}

enum Content {
    Seq(Vec<Ref>),
    Map {
        slots: Vec<Slot>,
        key: Option<Ref>,
        /// Key text → (slot index, offsets of the first occurrence).
        seen: HashMap<CompactString, (usize, (usize, usize))>,
    },
}

/// An open collection.
struct Frame {
    content: Content,
    anchor: usize,
    tag: Option<Box<str>>,
    /// Offset of `[`/`{` for flow collections.
    flow_start: Option<usize>,
    /// Offset of the first `-` of a block sequence.
    dash: Option<usize>,
    /// Start offset of the event (fallback span).
    event_start: usize,
    /// Where the first child occurs (its start offset) and where the last one ends.
    first: Option<usize>,
    last: Option<usize>,
    size: usize,
    height: usize,
    /// True when this collection is (inside) a mapping key.
    in_key: bool,
}

impl Frame {
    /// True when the next node completed in this frame is a mapping key.
    fn expects_key(&self) -> bool {
        matches!(&self.content, Content::Map { key: None, .. })
    }
}

struct Builder<'a> {
    loc: &'a Locator<'a>,
    opts: &'a Options,
    documents: Vec<RawDoc>,
    problems: Vec<Problem>,
    /// Problems of the current document, committed when it completes.
    doc_problems: Vec<Problem>,
    next_index: usize,
    index: usize,
    /// The current document's nodes.
    tree: TreeBuilder,
    stack: Vec<Frame>,
    root: Option<Built>,
    anchors: HashMap<usize, Built>,
    /// Anchors whose node is still being built (an alias to one is recursive).
    open_anchors: HashSet<usize>,
    expanded: usize,
    /// Expansion of the documents kept so far (all documents of the text).
    total_expanded: usize,
    /// Index in `problems` of the problem for the exhausted total budget, and how many later
    /// documents were dropped for the same reason (one problem per text, not per document).
    total_limit: Option<(usize, usize)>,
    /// The current document was dropped; ignore events until its end.
    skipping: bool,
    /// End of the previous event.
    last_end: usize,
}

impl<'a> Builder<'a> {
    fn new(loc: &'a Locator<'a>, opts: &'a Options) -> Self {
        Builder {
            loc,
            opts,
            documents: Vec::new(),
            problems: Vec::new(),
            doc_problems: Vec::new(),
            next_index: 0,
            index: 0,
            tree: TreeBuilder::default(),
            stack: Vec::new(),
            root: None,
            anchors: HashMap::new(),
            open_anchors: HashSet::new(),
            expanded: 0,
            total_expanded: 0,
            total_limit: None,
            skipping: false,
            last_end: 0,
        }
    }

    fn finish(mut self) -> RawParsed {
        if let Some((i, later)) = self.total_limit {
            if later > 0 {
                self.problems[i].message.push_str(&format!(
                    "; {later} later document{} of this file were dropped for the same reason",
                    if later == 1 { "" } else { "s" }
                ));
            }
        }
        self.problems
            .sort_by_key(|p| (p.span.start.offset, p.span.end.offset));
        RawParsed {
            documents: self.documents,
            problems: self.problems,
            alias_nodes: self.total_expanded,
            total_alias_limit_hit: self.total_limit.is_some(),
        }
    }

    /// The budget left for the current document: its own limit, or what the text has left.
    fn doc_budget(&self) -> (usize, bool) {
        let left = self
            .opts
            .max_total_alias_expansion
            .saturating_sub(self.total_expanded);
        if left < self.opts.max_alias_expansion {
            (left, true)
        } else {
            (self.opts.max_alias_expansion, false)
        }
    }

    /// Drops the current document because alias expansion exceeds its budget.
    fn expansion_limit(&mut self, what: &str, span: Span) {
        let (budget, total) = self.doc_budget();
        if !total {
            self.limit(
                format!(
                    "{what} exceed the alias expansion limit of {} nodes per document",
                    self.opts.max_alias_expansion
                ),
                span,
            );
            return;
        }
        match &mut self.total_limit {
            Some((_, later)) => {
                *later += 1;
                self.skip_document();
            }
            None => {
                self.total_limit = Some((self.problems.len(), 0));
                self.limit(
                    format!(
                        "{} ({} nodes; {budget} were left when this document needed more)",
                        crate::TOTAL_ALIAS_LIMIT,
                        self.opts.max_total_alias_expansion
                    ),
                    span,
                );
            }
        }
    }

    fn scan_error(&mut self, e: &ScanError) {
        let at = self.loc.byte(e.marker());
        let src = self.loc.src;
        let end = match src.get(at..).and_then(|s| s.chars().next()) {
            Some(c) if c != '\n' && c != '\r' => at + c.len_utf8(),
            _ => at,
        };
        // saphyr's only nesting limit (255 flow levels) surfaces as a scan error.
        let kind = if e.info() == "recursion limit exceeded" {
            ProblemKind::Limit
        } else {
            ProblemKind::Syntax
        };
        self.problems.push(Problem {
            kind,
            message: e.info().to_string(),
            span: self.loc.span(at, end),
            other: None,
        });
    }

    /// Handles one event; false stops parsing.
    fn event(&mut self, ev: Event<'_>, start: usize, end: usize) -> bool {
        let keep_going = match ev {
            Event::DocumentStart(_) => {
                self.begin_document();
                true
            }
            Event::DocumentEnd => {
                self.end_document();
                true
            }
            _ if self.skipping => true,
            Event::Scalar(text, style, anchor, tag) => {
                self.scalar(text, style, anchor, tag.as_deref(), start, end);
                true
            }
            Event::SequenceStart(anchor, tag) => {
                self.open(Content::Seq(Vec::new()), anchor, tag.as_deref(), start, end);
                true
            }
            Event::MappingStart(anchor, tag) => {
                let content = Content::Map {
                    slots: Vec::new(),
                    key: None,
                    seen: HashMap::new(),
                };
                self.open(content, anchor, tag.as_deref(), start, end);
                true
            }
            Event::SequenceEnd | Event::MappingEnd => {
                self.close(end);
                true
            }
            Event::Alias(id) => self.alias(id, start, end),
            Event::StreamStart | Event::StreamEnd | Event::Nothing => true,
        };
        self.last_end = self.last_end.max(end);
        keep_going
    }

    fn begin_document(&mut self) {
        self.index = self.next_index;
        self.next_index += 1;
        self.stack.clear();
        self.root = None;
        self.tree = TreeBuilder::default();
        self.anchors.clear();
        self.open_anchors.clear();
        self.expanded = 0;
        self.skipping = false;
        self.doc_problems.clear();
    }

    fn end_document(&mut self) {
        let root = self.root.take();
        let tree = std::mem::take(&mut self.tree);
        if self.skipping {
            self.doc_problems.clear();
            return;
        }
        self.total_expanded = self.total_expanded.saturating_add(self.expanded);
        self.problems.append(&mut self.doc_problems);
        let Some(root) = root else { return };
        let empty = tree.class_of(root.node) == Class::Scalar
            && tree.style_of(root.node) == ScalarStyle::Plain
            && tree.text_of(self.loc.src, root.node) == Some("")
            && tree.tag_of(root.node).is_none();
        if !empty {
            let (s, e) = tree.offsets(root.node);
            self.documents.push(RawDoc {
                span: Span {
                    start: self.loc.pos(s),
                    end: self.loc.pos(e),
                },
                tree,
                root: root.node,
                index: self.index,
            });
        }
    }

    /// Drops the current document with a limit problem.
    fn limit(&mut self, message: String, span: Span) {
        self.problems.push(Problem {
            kind: ProblemKind::Limit,
            message,
            span,
            other: None,
        });
        self.skip_document();
    }

    /// Drops the current document (its problem is already recorded).
    fn skip_document(&mut self) {
        self.skipping = true;
        self.stack.clear();
        self.root = None;
        self.anchors.clear();
        self.tree = TreeBuilder::default();
    }

    fn in_key(&self) -> bool {
        self.stack
            .last()
            .is_some_and(|f| f.in_key || f.expects_key())
    }

    /// The span of a node built in the current document.
    fn span_of(&self, r: Ref) -> Span {
        let (s, e) = self.tree.offsets(r);
        Span {
            start: self.loc.pos(s),
            end: self.loc.pos(e),
        }
    }

    fn scalar(
        &mut self,
        owned: Cow<'_, str>,
        style: saphyr_parser::ScalarStyle,
        anchor: usize,
        tag: Option<&Tag>,
        start: usize,
        end: usize,
    ) {
        let src = self.loc.src;
        let text: &str = &owned;
        let style = convert_style(style);
        // saphyr starts the event at the properties when there are any.
        let has_props = anchor != 0 || tag.is_some();
        let props = if has_props {
            locate::skip_props(src, start)
        } else {
            locate::Props {
                content: start,
                end: start,
                tag: None,
            }
        };
        let (s, e) = match style {
            ScalarStyle::Literal | ScalarStyle::Folded => {
                let header = if has_props {
                    locate::block_header(src, props.content, props.content, true)
                } else {
                    locate::block_header(src, start, self.last_end, text.is_empty())
                };
                match header {
                    Some((ind, hend)) => (ind, locate::block_content_end(src, hend, end)),
                    None => (props.content.min(end), end),
                }
            }
            ScalarStyle::Plain if text.is_empty() => {
                let at = if has_props {
                    props.end
                } else if src.as_bytes().get(start) == Some(&b':') {
                    start + 1
                } else {
                    start
                };
                (at, at)
            }
            ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => {
                let s = props.content.min(end);
                (s, locate::quoted_end(src, s, end).unwrap_or(end))
            }
            _ => (props.content.min(end), end),
        };
        // As `Locator::span` clamps them.
        let (s, e) = (s.min(src.len()), e.max(s).min(src.len()));
        let tag_text = tag.map(|t| {
            props
                .tag
                .clone()
                .unwrap_or_else(|| tag_to_string(t))
                .into_boxed_str()
        });
        let (value, ambiguity) = resolve(
            text,
            style,
            tag.map(|t| (t.handle.as_str(), t.suffix.as_str())),
        );
        let span = self.loc.span(s, e);
        if let Some(a) = ambiguity {
            if !self.in_key() {
                self.doc_problems.push(Problem {
                    kind: ProblemKind::Yaml11Ambiguity(a),
                    message: ambiguity_message(a, text, &value),
                    span,
                    other: None,
                });
            }
        }
        // Most scalars are their source text as written: a range of it, not a copy.
        let at = match style {
            ScalarStyle::Plain if src.get(s..e) == Some(text) => TextAt::Range(s, text),
            ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted
                if e >= s + 2 && src.get(s + 1..e - 1) == Some(text) =>
            {
                TextAt::Range(s + 1, text)
            }
            _ => TextAt::Own(text),
        };
        let node = self
            .tree
            .scalar((s, e), at, style, Value::of(&value), tag_text, false, None);
        self.complete(
            Built {
                node,
                size: 1,
                height: 0,
            },
            anchor,
            (s, e),
        );
    }

    fn open(
        &mut self,
        content: Content,
        anchor: usize,
        tag: Option<&Tag>,
        start: usize,
        end: usize,
    ) {
        if self.stack.len() >= self.opts.max_depth {
            let span = self.loc.span(start, end);
            self.limit(
                format!("nesting is deeper than {} levels", self.opts.max_depth),
                span,
            );
            return;
        }
        let src = self.loc.src;
        let b = src.as_bytes();
        let flow_start = (end > start && end > 0 && matches!(b.get(end - 1), Some(b'[' | b'{')))
            .then(|| end - 1);
        let dash = match (&content, flow_start) {
            (Content::Seq(_), None) => locate::seq_dash(src, end),
            _ => None,
        };
        let tag = tag.map(|t| {
            locate::skip_props(src, start)
                .tag
                .unwrap_or_else(|| tag_to_string(t))
                .into_boxed_str()
        });
        let in_key = self.in_key();
        if anchor != 0 {
            self.open_anchors.insert(anchor);
        }
        self.stack.push(Frame {
            content,
            anchor,
            tag,
            flow_start,
            dash,
            event_start: start,
            first: None,
            last: None,
            size: 1,
            height: 1,
            in_key,
        });
    }

    fn close(&mut self, end: usize) {
        let Some(frame) = self.stack.pop() else {
            return;
        };
        let len = self.loc.src.len();
        let start_off = frame
            .flow_start
            .or(frame.dash)
            .or(frame.first)
            .unwrap_or(frame.event_start)
            .min(len);
        let at = match (frame.flow_start, frame.last) {
            (Some(_), _) => (start_off, end.max(start_off).min(len)),
            (None, Some(last)) => (start_off, last),
            (None, None) => (start_off, start_off),
        };
        let node = match frame.content {
            Content::Seq(items) => {
                self.tree
                    .collection(Class::Seq, at, &items, frame.tag, false, None)
            }
            Content::Map { mut slots, key, .. } => {
                if let Some(key) = key {
                    // A key without a value cannot come from saphyr, but never lose a node.
                    let (_, key_end) = self.tree.offsets(key);
                    let value = self.tree.scalar(
                        (key_end, key_end),
                        TextAt::Own(""),
                        ScalarStyle::Plain,
                        Value::Null,
                        None,
                        false,
                        None,
                    );
                    slots.push(Slot::Entry(key, value));
                }
                let refs = self.apply_merges(slots);
                self.tree
                    .collection(Class::Map, at, &refs, frame.tag, false, None)
            }
        };
        self.open_anchors.remove(&frame.anchor);
        self.complete(
            Built {
                node,
                size: frame.size,
                height: frame.height,
            },
            frame.anchor,
            at,
        );
    }

    fn alias(&mut self, id: usize, start: usize, end: usize) -> bool {
        let span = self.loc.span(start, end);
        let Some(anchored) = self.anchors.get(&id).copied() else {
            let message = if self.open_anchors.contains(&id) {
                "alias refers to the node that contains it (recursive alias)"
            } else {
                "alias refers to an unknown anchor"
            };
            self.problems.push(Problem {
                kind: ProblemKind::Syntax,
                message: message.to_string(),
                span,
                other: None,
            });
            return false;
        };
        let (size, height) = (anchored.size, anchored.height);
        if self.expanded.saturating_add(size) > self.doc_budget().0 {
            self.expansion_limit("the nodes this alias copies", span);
            return true;
        }
        if self.stack.len() + height > self.opts.max_depth {
            self.limit(
                format!("nesting is deeper than {} levels", self.opts.max_depth),
                span,
            );
            return true;
        }
        self.expanded += size;
        let shared = Built {
            node: anchored.node | VIA_ALIAS,
            ..anchored
        };
        let at = (span.start.offset, span.end.offset);
        self.complete(shared, 0, at);
        true
    }

    /// Registers an anchor and hands a finished node to its parent (or makes it the root).
    /// `at` is where the node occurs (for an alias: the alias, not the anchored node).
    fn complete(&mut self, built: Built, anchor: usize, at: (usize, usize)) {
        if anchor != 0 {
            // The anchor's copy counts against the expansion budget too, so nested anchors cannot
            // make bookkeeping copies explode.
            self.expanded = self.expanded.saturating_add(built.size);
            if self.expanded > self.doc_budget().0 {
                let span = self.span_of(built.node);
                self.expansion_limit("anchored nodes", span);
                return;
            }
            self.anchors.insert(anchor, built);
        }
        let Some(frame) = self.stack.last_mut() else {
            self.root = Some(built);
            return;
        };
        frame.size = frame.size.saturating_add(built.size);
        frame.height = frame.height.max(built.height + 1);
        if frame.first.is_none() {
            frame.first = Some(at.0);
        }
        frame.last = Some(at.1);
        match &mut frame.content {
            Content::Seq(items) => items.push(built.node),
            Content::Map { slots, key, seen } => match key.take() {
                None => *key = Some(built.node),
                Some(k) => {
                    if is_merge_key(&self.tree, self.loc.src, k) {
                        slots.push(Slot::Merge(k, built.node));
                        return;
                    }
                    let index = slots.len();
                    slots.push(Slot::Entry(k, built.node));
                    let Some(text) = self.tree.text_of(self.loc.src, k) else {
                        return;
                    };
                    let at = self.tree.offsets(k);
                    // Duplicate keys: the later entry wins and stays at its own position; the
                    // earlier one is removed. `other` always points at the first occurrence.
                    if let Some((old, first)) = seen.get_mut(text) {
                        if let Some(s) = slots.get_mut(*old) {
                            *s = Slot::Removed;
                        }
                        *old = index;
                        let first = self.loc.span(first.0, first.1);
                        self.doc_problems.push(Problem {
                            kind: ProblemKind::DuplicateKey,
                            message: format!("duplicate mapping key `{text}`"),
                            span: self.loc.span(at.0, at.1),
                            other: Some(first),
                        });
                    } else {
                        seen.insert(CompactString::from(text), (index, at));
                    }
                }
            },
        }
    }

    /// Resolves `<<` merge keys as go-yaml does: merged entries are added (at the position of
    /// the `<<` key) unless the mapping sets the key explicitly; among merged mappings, the
    /// earlier one wins (`<<: [*a, *b]` prefers `*a`). A `<<` whose value is not a mapping or a
    /// sequence of mappings is kept as an ordinary entry. Returns key and value references.
    fn apply_merges(&self, slots: Vec<Slot>) -> Vec<Ref> {
        let tree = &self.tree;
        let src = self.loc.src;
        if !slots.iter().any(|s| matches!(s, Slot::Merge(..))) {
            return slots
                .into_iter()
                .filter_map(|s| match s {
                    Slot::Entry(k, v) => Some([k, v]),
                    _ => None,
                })
                .flatten()
                .collect();
        }
        let explicit: HashSet<&str> = slots
            .iter()
            .filter_map(|s| match s {
                Slot::Entry(k, _) => tree.text_of(src, *k),
                _ => None,
            })
            .collect();
        // A collection's children, reached through the collection's reference.
        let children = |r: Ref| -> Vec<Ref> {
            let alias = r & VIA_ALIAS;
            tree.refs_of(r).iter().map(|c| c | alias).collect()
        };
        let mut merged: HashSet<&str> = HashSet::new();
        let mut out = Vec::new();
        for slot in slots {
            match slot {
                Slot::Entry(k, v) => out.extend([k, v]),
                Slot::Removed => {}
                Slot::Merge(k, v) => {
                    let sources: Vec<Vec<Ref>> = match tree.class_of(v) {
                        Class::Map => vec![children(v)],
                        Class::Seq
                            if children(v).iter().all(|&i| tree.class_of(i) == Class::Map) =>
                        {
                            children(v).into_iter().map(children).collect()
                        }
                        _ => {
                            out.extend([k, v]);
                            continue;
                        }
                    };
                    for pair in sources.iter().flat_map(|s| s.chunks_exact(2)) {
                        if let Some(key) = tree.text_of(src, pair[0]) {
                            if explicit.contains(key) || !merged.insert(key) {
                                continue;
                            }
                        }
                        out.extend([pair[0], pair[1]]);
                    }
                }
            }
        }
        out
    }
}

fn convert_style(style: saphyr_parser::ScalarStyle) -> ScalarStyle {
    match style {
        saphyr_parser::ScalarStyle::Plain => ScalarStyle::Plain,
        saphyr_parser::ScalarStyle::SingleQuoted => ScalarStyle::SingleQuoted,
        saphyr_parser::ScalarStyle::DoubleQuoted => ScalarStyle::DoubleQuoted,
        saphyr_parser::ScalarStyle::Literal => ScalarStyle::Literal,
        saphyr_parser::ScalarStyle::Folded => ScalarStyle::Folded,
    }
}

/// A tag as it would be written, when the source text cannot be found.
fn tag_to_string(t: &Tag) -> String {
    match t.handle.as_str() {
        "tag:yaml.org,2002:" => format!("!!{}", t.suffix),
        "!" => format!("!{}", t.suffix),
        "" => t.suffix.clone(),
        h => format!("{h}{}", t.suffix),
    }
}

fn ambiguity_message(a: Ambiguity, text: &str, value: &Scalar) -> String {
    match (a, value) {
        (Ambiguity::Boolean, Scalar::Bool(b)) => format!(
            "`{text}` is the boolean {b} for Kubernetes (YAML 1.1) but a string in YAML 1.2; quote it if a string is meant"
        ),
        (Ambiguity::Octal, Scalar::Int(i)) => format!(
            "`{text}` is the octal number {i} for Kubernetes (YAML 1.1) but decimal in YAML 1.2; write 0o{} or quote it",
            text.trim_start_matches(['+', '-']).trim_start_matches(['0', '_'])
        ),
        _ => format!(
            "`{text}` is a base-60 number in YAML 1.1 but a string for Kubernetes; quote it to make the intent clear"
        ),
    }
}

/// A plain, untagged `<<` key.
fn is_merge_key(tree: &TreeBuilder, src: &str, key: Ref) -> bool {
    tree.class_of(key) == Class::Scalar
        && tree.style_of(key) == ScalarStyle::Plain
        && tree.text_of(src, key) == Some("<<")
        && tree.tag_of(key).is_none_or(|t| t == "!!merge")
}
