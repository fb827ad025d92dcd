//! Re-scans a scalar's source to rebuild its decoded text while recording where every decoded
//! byte came from. The algorithms mirror saphyr-parser's scanner (folding, chomping, escapes), so
//! the rebuilt text can be checked against the parser's.
use crate::{Node, NodeKind, ScalarStyle};

/// Decoded text with, per decoded byte, the outer range of the source that produced it.
pub(crate) struct Decoded {
    /// Outer offset where each decoded byte's source starts.
    pub(crate) starts: Vec<usize>,
    /// Outer offset just after each decoded byte's source.
    pub(crate) ends: Vec<usize>,
    /// Outer offset after everything the scalar consumed.
    pub(crate) end: usize,
}

/// Collects decoded characters, checking them against the expected text as it goes.
struct Sink<'e> {
    expected: &'e [u8],
    len: usize,
    starts: Vec<usize>,
    ends: Vec<usize>,
    ok: bool,
}

impl<'e> Sink<'e> {
    fn new(expected: &'e str) -> Self {
        Sink {
            expected: expected.as_bytes(),
            len: 0,
            starts: Vec::with_capacity(expected.len()),
            ends: Vec::with_capacity(expected.len()),
            ok: true,
        }
    }

    /// Appends `c`, produced by the source `from..to`. A character copied verbatim maps byte by
    /// byte; anything else (escapes, folded breaks) maps every byte to `from`.
    fn push(&mut self, c: char, from: usize, to: usize) {
        if !self.ok {
            return;
        }
        let mut buf = [0u8; 4];
        let bytes = c.encode_utf8(&mut buf).as_bytes();
        if self.expected.get(self.len..self.len + bytes.len()) != Some(bytes) {
            self.ok = false;
            return;
        }
        let verbatim = to - from == bytes.len();
        for i in 0..bytes.len() {
            self.starts.push(if verbatim { from + i } else { from });
            self.ends.push(to);
        }
        self.len += bytes.len();
    }

    fn finish(self, end: usize) -> Option<Decoded> {
        (self.ok && self.len == self.expected.len()).then_some(Decoded {
            starts: self.starts,
            ends: self.ends,
            end,
        })
    }
}

/// Rebuilds `scalar`'s text from `outer`; `None` when the source does not reproduce it exactly.
pub(crate) fn decode(outer: &str, scalar: Node<'_>) -> Option<Decoded> {
    let NodeKind::Scalar { text, style, .. } = scalar.kind() else {
        return None;
    };
    let (start, end) = scalar.offsets();
    if start > end || end > outer.len() || !outer.is_char_boundary(start) {
        return None;
    }
    let src = Src::new(outer);
    match style {
        ScalarStyle::Plain => flow(&src, start, end, Quote::None, text),
        ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => {
            let (q, quote) = match style {
                ScalarStyle::SingleQuoted => (b'\'', Quote::Single),
                _ => (b'"', Quote::Double),
            };
            let b = outer.as_bytes();
            if end < start + 2 || b[start] != q || b[end - 1] != q {
                return None;
            }
            flow(&src, start + 1, end - 1, quote, text)
        }
        ScalarStyle::Literal | ScalarStyle::Folded => {
            if !matches!(outer.as_bytes().get(start), Some(b'|' | b'>')) {
                return None;
            }
            block(&src, start, end, style == ScalarStyle::Literal, text)
        }
    }
}

/// The outer text, read as YAML's scanner reads it (`\0` ends the stream like saphyr's input).
struct Src<'a> {
    s: &'a str,
}

impl<'a> Src<'a> {
    fn new(s: &'a str) -> Self {
        Src { s }
    }

    /// The character at `p`, `None` at the end (or at a NUL, which saphyr treats as the end).
    fn ch(&self, p: usize) -> Option<char> {
        self.s.get(p..)?.chars().next().filter(|&c| c != '\0')
    }

    fn byte(&self, p: usize) -> Option<u8> {
        self.s.as_bytes().get(p).copied().filter(|&b| b != 0)
    }

    fn is_break(&self, p: usize) -> bool {
        matches!(self.byte(p), Some(b'\r' | b'\n'))
    }

    fn is_blank(&self, p: usize) -> bool {
        matches!(self.byte(p), Some(b' ' | b'\t'))
    }

    /// Length of the line break at `p` (`\r\n` counts as one break).
    fn break_len(&self, p: usize) -> usize {
        match (self.byte(p), self.byte(p + 1)) {
            (Some(b'\r'), Some(b'\n')) => 2,
            (Some(b'\r' | b'\n'), _) => 1,
            _ => 0,
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Quote {
    None,
    Single,
    Double,
}

/// Plain and quoted scalars: the text between `start` and `stop` (inside the quotes), with line
/// folding and, for double quotes, escapes.
fn flow(src: &Src<'_>, start: usize, stop: usize, quote: Quote, expected: &str) -> Option<Decoded> {
    let mut sink = Sink::new(expected);
    let mut p = start;
    let mut whitespace: Vec<(char, usize)> = Vec::new();
    let mut leading_break: Option<usize> = None;
    let mut trailing_breaks: Vec<usize> = Vec::new();
    while sink.ok {
        // Non-blank characters.
        let mut leading_blanks = false;
        while p < stop && !src.is_blank(p) && !src.is_break(p) {
            let c = src.ch(p)?;
            match (quote, c) {
                (Quote::Single, '\'') if p + 1 < stop && src.byte(p + 1) == Some(b'\'') => {
                    sink.push('\'', p, p + 2);
                    p += 2;
                }
                (Quote::Double, '\\') if src.is_break(p + 1) => {
                    p += 1 + src.break_len(p + 1);
                    leading_blanks = true;
                    break;
                }
                (Quote::Double, '\\') => {
                    let (c, len) = escape(src, p)?;
                    sink.push(c, p, p + len);
                    p += len;
                }
                _ => {
                    sink.push(c, p, p + c.len_utf8());
                    p += c.len_utf8();
                }
            }
        }
        if p >= stop {
            break;
        }
        // Blanks and line breaks.
        while p < stop && (src.is_blank(p) || src.is_break(p)) {
            if src.is_blank(p) {
                if !leading_blanks {
                    whitespace.push((
                        if src.byte(p) == Some(b'\t') {
                            '\t'
                        } else {
                            ' '
                        },
                        p,
                    ));
                }
                p += 1;
            } else {
                if leading_blanks {
                    trailing_breaks.push(p);
                } else {
                    whitespace.clear();
                    leading_break = Some(p);
                    leading_blanks = true;
                }
                p += src.break_len(p);
            }
        }
        // Join the blanks or fold the line breaks.
        if leading_blanks {
            match leading_break.take() {
                None => push_breaks(&mut sink, src, &mut trailing_breaks),
                Some(lb) if trailing_breaks.is_empty() => {
                    sink.push(' ', lb, lb + src.break_len(lb))
                }
                Some(_) => push_breaks(&mut sink, src, &mut trailing_breaks),
            }
        } else {
            for (c, at) in whitespace.drain(..) {
                sink.push(c, at, at + 1);
            }
        }
    }
    let end = if quote == Quote::None { stop } else { stop + 1 };
    sink.finish(end)
}

/// Pushes a `\n` for each recorded line break.
fn push_breaks(sink: &mut Sink<'_>, src: &Src<'_>, breaks: &mut Vec<usize>) {
    for at in breaks.drain(..) {
        sink.push('\n', at, at + src.break_len(at));
    }
}

/// A double-quoted escape at `p` (the backslash): the character and the escape's length.
fn escape(src: &Src<'_>, p: usize) -> Option<(char, usize)> {
    let code_len = match src.byte(p + 1)? {
        b'0' => return Some(('\0', 2)),
        b'a' => return Some(('\x07', 2)),
        b'b' => return Some(('\x08', 2)),
        b't' | b'\t' => return Some(('\t', 2)),
        b'n' => return Some(('\n', 2)),
        b'v' => return Some(('\x0b', 2)),
        b'f' => return Some(('\x0c', 2)),
        b'r' => return Some(('\r', 2)),
        b'e' => return Some(('\x1b', 2)),
        b' ' => return Some((' ', 2)),
        b'"' => return Some(('"', 2)),
        b'/' => return Some(('/', 2)),
        b'\\' => return Some(('\\', 2)),
        b'N' => return Some(('\u{85}', 2)),
        b'_' => return Some(('\u{a0}', 2)),
        b'L' => return Some(('\u{2028}', 2)),
        b'P' => return Some(('\u{2029}', 2)),
        b'x' => 2,
        b'u' => 4,
        b'U' => 8,
        _ => return None,
    };
    let hex = src.s.get(p + 2..p + 2 + code_len)?;
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let c = char::from_u32(u32::from_str_radix(hex, 16).ok()?)?;
    Some((c, 2 + code_len))
}

#[derive(Clone, Copy, PartialEq)]
enum Chomping {
    Strip,
    Clip,
    Keep,
}

/// A block scalar header: chomping, explicit indentation, and where its content starts.
struct Header {
    chomping: Chomping,
    increment: usize,
    /// Start of the first line after the header (or the end of the text).
    body: usize,
    at_eof: bool,
}

fn header(src: &Src<'_>, indicator: usize) -> Option<Header> {
    let mut p = indicator + 1;
    let mut chomping = Chomping::Clip;
    let mut increment = 0;
    for _ in 0..2 {
        match src.byte(p) {
            Some(b'+') => chomping = Chomping::Keep,
            Some(b'-') => chomping = Chomping::Strip,
            Some(d @ b'1'..=b'9') => increment = usize::from(d - b'0'),
            _ => break,
        }
        p += 1;
    }
    while src.is_blank(p) {
        p += 1;
    }
    if src.byte(p) == Some(b'#') {
        while src.byte(p).is_some() && !src.is_break(p) {
            p += 1;
        }
    }
    let at_eof = src.byte(p).is_none();
    if !at_eof && !src.is_break(p) {
        return None;
    }
    Some(Header {
        chomping,
        increment,
        body: p + src.break_len(p),
        at_eof,
    })
}

/// Literal and folded block scalars. `limit` is the end of the node's content: a first content
/// line starting at or after it belongs to the next node (the scalar is empty).
fn block(
    src: &Src<'_>,
    indicator: usize,
    limit: usize,
    literal: bool,
    expected: &str,
) -> Option<Decoded> {
    let h = header(src, indicator)?;
    if h.at_eof {
        return Sink::new(expected).finish(h.body);
    }
    if h.increment == 0 {
        return block_body(src, &h, None, limit, literal, expected);
    }
    // `|2` is relative to the parent's indentation, which the source alone does not tell: try
    // every indentation the first non-blank line allows, keeping the one that reproduces the text.
    let first = first_line_spaces(src, h.body);
    let top = first.max(h.increment);
    (h.increment..=top)
        .rev()
        .take(64)
        .find_map(|indent| block_body(src, &h, Some(indent), limit, literal, expected))
}

/// The widest leading run of spaces among the lines from `p` up to the first one that holds
/// anything but spaces (with an explicit indentation, spaces-only lines can be content too).
fn first_line_spaces(src: &Src<'_>, mut p: usize) -> usize {
    let mut widest = 0;
    loop {
        let ls = p;
        while src.byte(p) == Some(b' ') {
            p += 1;
        }
        widest = widest.max(p - ls);
        if src.is_break(p) {
            p += src.break_len(p);
        } else {
            return widest;
        }
    }
}

/// The body of a block scalar (a port of saphyr's `scan_block_scalar`).
fn block_body(
    src: &Src<'_>,
    h: &Header,
    explicit: Option<usize>,
    limit: usize,
    literal: bool,
    expected: &str,
) -> Option<Decoded> {
    let mut sink = Sink::new(expected);
    let mut p = h.body;
    let mut ls = p; // start of the current line
    let mut trailing: Vec<usize> = Vec::new();
    let indent = match explicit {
        Some(indent) => {
            skip_indent(src, &mut p, &mut ls, indent, &mut trailing);
            indent
        }
        None => {
            let mut max = 0;
            loop {
                while src.byte(p) == Some(b' ') {
                    p += 1;
                }
                max = max.max(p - ls);
                if src.is_break(p) {
                    trailing.push(p);
                    p += src.break_len(p);
                    ls = p;
                } else {
                    break;
                }
            }
            max
        }
    };
    if src.byte(p).is_none() {
        let col = src.s.get(ls..p).map_or(0, |s| s.chars().count());
        match h.chomping {
            Chomping::Strip | Chomping::Clip => {}
            // saphyr: an unterminated whitespace-only last line still counts as a line.
            Chomping::Keep if trailing.is_empty() && col > 0 => {
                sink.push('\n', p, p);
            }
            Chomping::Keep => push_breaks(&mut sink, src, &mut trailing),
        }
        return sink.finish(p);
    }
    // With auto-detected indentation the parent's indentation is unknown here, so a first
    // "content" line at or past the node's end belongs to the next node instead.
    let content = p - ls == indent && (explicit.is_some() || p < limit);
    let mut leading_break: Option<usize> = None;
    let mut leading_blank = false;
    if content {
        while p - ls == indent && sink.ok {
            let Some(c) = src.ch(p) else { break };
            if c == '\r' || c == '\n' || c == '\u{feff}' {
                break;
            }
            if indent == 0 && is_document_end(src, p) {
                break;
            }
            let trailing_blank = src.is_blank(p);
            match leading_break {
                Some(lb) if !literal && !leading_blank && !trailing_blank => {
                    if trailing.is_empty() {
                        sink.push(' ', lb, lb + src.break_len(lb));
                    } else {
                        push_breaks(&mut sink, src, &mut trailing);
                    }
                }
                _ => {
                    if let Some(lb) = leading_break {
                        sink.push('\n', lb, lb + src.break_len(lb));
                    }
                    push_breaks(&mut sink, src, &mut trailing);
                }
            }
            leading_break = None;
            trailing.clear();
            leading_blank = trailing_blank;
            // The line's content.
            while let Some(c) = src.ch(p) {
                if c == '\r' || c == '\n' {
                    break;
                }
                sink.push(c, p, p + c.len_utf8());
                p += c.len_utf8();
            }
            if !src.is_break(p) {
                break;
            }
            leading_break = Some(p);
            p += src.break_len(p);
            ls = p;
            skip_indent(src, &mut p, &mut ls, indent, &mut trailing);
        }
    }
    if h.chomping != Chomping::Strip {
        if let Some(lb) = leading_break {
            sink.push('\n', lb, lb + src.break_len(lb));
        }
        let col = src.s.get(ls..p).map_or(0, |s| s.chars().count());
        if src.byte(p).is_none() && col >= indent.max(1) {
            sink.push('\n', p, p);
        }
    }
    if h.chomping == Chomping::Keep {
        push_breaks(&mut sink, src, &mut trailing);
    }
    sink.finish(p)
}

/// Skips up to `indent` spaces and the empty lines that follow, recording their line breaks.
fn skip_indent(
    src: &Src<'_>,
    p: &mut usize,
    ls: &mut usize,
    indent: usize,
    breaks: &mut Vec<usize>,
) {
    loop {
        while *p - *ls < indent && src.byte(*p) == Some(b' ') {
            *p += 1;
        }
        if src.is_break(*p) {
            breaks.push(*p);
            *p += src.break_len(*p);
            *ls = *p;
        } else {
            return;
        }
    }
}

/// `...` followed by a blank, a line break or the end.
fn is_document_end(src: &Src<'_>, p: usize) -> bool {
    src.s.as_bytes().get(p..p + 3) == Some(b"...")
        && matches!(src.byte(p + 3), None | Some(b' ' | b'\t' | b'\r' | b'\n'))
}
