//! Documents embedded in scalars, located in the outer file.

use crate::document::Document;
use crate::locate::Locator;
use crate::parse::parse_raw;
use crate::rescan::{self, Decoded};
use crate::source::offset32;
use crate::{Node, NodeKind, Options, Parsed, Pos, Span};

/// Maps each byte of a scalar's decoded text back to a byte offset in the outer source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceMap {
    /// `offsets[i]` = outer byte offset of decoded byte `i`; one extra entry for the end.
    pub offsets: Vec<usize>,
    /// False when the scalar could not be mapped exactly (every offset then points at the scalar start).
    pub exact: bool,
}

/// Builds the decoded-text → outer-source map for a scalar node of `outer`.
///
/// Copied characters map to their own source bytes; escapes map to their backslash; line breaks
/// and the spaces that folding puts in their place map to the line break they replace; a final
/// `\n` added by chomping at the end of the text maps to the end of the source. The extra last
/// entry is the offset just after everything the scalar consumed.
pub fn scalar_source_map(outer: &str, scalar: Node<'_>) -> SourceMap {
    match rescan::decode(outer, scalar) {
        Some(d) => {
            let mut offsets = d.starts;
            offsets.push(d.end);
            SourceMap {
                offsets,
                exact: true,
            }
        }
        None => SourceMap {
            offsets: vec![scalar.offsets().0; scalar.key_text().map_or(0, str::len) + 1],
            exact: false,
        },
    }
}

/// Parses the YAML held in a scalar node of `outer`; every span in the result points into `outer`.
///
/// When the scalar's source cannot be mapped exactly (see [`SourceMap::exact`]), every span
/// points at the scalar's start. A non-scalar node yields an empty result.
pub fn parse_embedded(outer: &str, scalar: Node<'_>, opts: &Options) -> Parsed {
    parse_embedded_exact(outer, scalar, opts).0
}

/// [`parse_embedded`], whether the positions are exact ([`SourceMap::exact`]), from one scan of
/// the scalar's source, and each document's byte range in the scalar's own text (a consumer that
/// hashes a document's text as written need not parse the text again to find it).
pub fn parse_embedded_exact(
    outer: &str,
    scalar: Node<'_>,
    opts: &Options,
) -> (Parsed, bool, Vec<(u32, u32)>) {
    let NodeKind::Scalar { text, .. } = scalar.kind() else {
        return (Parsed::default(), false, Vec::new());
    };
    // The documents' scalars are ranges of the scalar's text where the outer tree holds it.
    let home = scalar.tree.text_home(scalar.r);
    let raw = parse_raw(text, opts);
    let decoded = rescan::decode(outer, scalar);
    let exact = decoded.is_some();
    // Every mapped offset lies between the scalar's start and the end of what it consumed, so only
    // that region (from the start of the scalar's line) needs indexing: files with many embedded
    // documents are not re-indexed whole for each one.
    let (scalar_start, scalar_end) = scalar.offsets();
    let start = scalar_start.min(outer.len());
    let region_start = outer.as_bytes()[..start]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let region_end = decoded
        .as_ref()
        .map_or(start, |d| d.end)
        .max(scalar_end)
        .clamp(start, outer.len());
    let region = outer.get(region_start..region_end).unwrap_or("");
    let remap = Remap {
        region_end: region_start + region.len(),
        region: Locator::new(region),
        region_start,
        first_line: scalar.span().start.line.max(1),
        decoded,
        fallback: start,
    };
    // Where the scalar's own positions come from is where the embedded ones can come from too
    // (computed when asked for); otherwise (a rendered object placed in another file) every
    // span is computed now.
    let source = scalar.tree.source.clone();
    let shared = scalar.tree.rare.as_ref().is_none_or(|r| r.spans.is_none())
        && (std::ptr::eq(outer, &**source.text()) || outer == &**source.text());
    let mut within = Vec::with_capacity(raw.documents.len());
    let mut parsed = raw.finish(|mut d| {
        within.push((offset32(d.span.start.offset), offset32(d.span.end.offset)));
        let span = remap.span(d.span);
        if shared {
            d.tree.map_offsets(|s, e| {
                let (s, e) = remap.offsets(s as usize, e as usize);
                (offset32(s), offset32(e))
            });
        } else {
            let spans = (0..d.tree.len())
                .map(|i| {
                    let (s, e) = d.tree.offsets(offset32(i));
                    let (s, e) = remap.offsets(s, e);
                    Span {
                        start: remap.pos(s),
                        end: remap.pos(e),
                    }
                })
                .collect();
            d.tree.set_spans(spans);
        }
        Document::new(
            d.tree.finish_within(d.root, home.clone(), source.clone()),
            d.index,
            span,
        )
    });
    for p in &mut parsed.problems {
        p.span = remap.span(p.span);
        p.other = p.other.map(|o| remap.span(o));
    }
    (parsed, exact, within)
}

/// Moves spans from decoded-text coordinates to `outer` coordinates.
struct Remap<'a> {
    /// The part of `outer` from the start of the scalar's line to the end of the scalar.
    region: Locator<'a>,
    region_start: usize,
    /// Where the region ends (positions past it are clamped to it).
    region_end: usize,
    /// The outer line the region starts on.
    first_line: u32,
    decoded: Option<Decoded>,
    fallback: usize,
}

impl Remap<'_> {
    fn start(&self, i: usize) -> usize {
        match &self.decoded {
            Some(d) => d.starts.get(i).copied().unwrap_or(d.end),
            None => self.fallback,
        }
    }

    /// A range ending at decoded `i` (exclusive) ends where its last byte's source ends.
    fn end(&self, i: usize) -> usize {
        match &self.decoded {
            Some(d) if i > 0 => d.ends.get(i - 1).copied().unwrap_or(d.end),
            Some(d) => d.starts.first().copied().unwrap_or(d.end),
            None => self.fallback,
        }
    }

    /// The outer offsets of a decoded range, within the region (as its positions are).
    fn offsets(&self, s: usize, e: usize) -> (usize, usize) {
        let start = self.start(s);
        let end = if e > s { self.end(e).max(start) } else { start };
        let within = |o: usize| o.clamp(self.region_start, self.region_end);
        (within(start), within(end))
    }

    fn pos(&self, offset: usize) -> Pos {
        let local = self.region.pos(offset.saturating_sub(self.region_start));
        Pos {
            offset: self.region_start + local.offset,
            line: self.first_line + local.line - 1,
            col: local.col,
        }
    }

    fn span(&self, s: Span) -> Span {
        let (start, end) = self.offsets(s.start.offset, s.end.offset);
        Span {
            start: self.pos(start),
            end: self.pos(end),
        }
    }
}
