//! Source positions: saphyr's character indexes → byte offsets and [`Pos`], and the small source
//! scans that turn saphyr's token spans into the spans nodecast reports.
use saphyr_parser::Marker;

use crate::{LineIndex, Pos, Span};

/// Converts saphyr markers (character indexes) into byte offsets and line/column positions.
pub(crate) struct Locator<'a> {
    pub(crate) src: &'a str,
    /// Byte offset of every character index (plus the end); `None` when the text is ASCII.
    table: Option<Vec<usize>>,
    /// Character index of every line start (saphyr's lines: `\n`, `\r\n` or `\r` end a line),
    /// when markers must be read by line and column (see [`Locator::byte`]).
    line_chars: Option<Vec<usize>>,
    lines: LineIndex,
}

impl<'a> Locator<'a> {
    pub(crate) fn new(src: &'a str) -> Self {
        let table = (!src.is_ascii()).then(|| {
            let mut t: Vec<usize> = src.char_indices().map(|(i, _)| i).collect();
            t.push(src.len());
            t
        });
        // saphyr advances its character index by *bytes* over the words of `%` directives, so
        // after a directive with non-ASCII text only its line and column can be trusted.
        let drifts = table.is_some() && has_non_ascii_directive(src);
        let line_chars = drifts.then(|| {
            let mut starts = vec![0];
            let mut chars = src.chars().enumerate().peekable();
            while let Some((i, c)) = chars.next() {
                let crlf = c == '\r' && chars.peek().is_some_and(|&(_, n)| n == '\n');
                if (c == '\n' || c == '\r') && !crlf {
                    starts.push(i + 1);
                }
            }
            starts
        });
        Locator {
            src,
            table,
            line_chars,
            lines: LineIndex::new(src),
        }
    }

    /// The byte offset of a saphyr marker (clamped to the text).
    pub(crate) fn byte(&self, m: &Marker) -> usize {
        let index = match &self.line_chars {
            Some(starts) => m
                .line()
                .checked_sub(1)
                .and_then(|l| starts.get(l))
                .map_or(usize::MAX, |s| s + m.col()),
            None => m.index(),
        };
        match &self.table {
            None => index.min(self.src.len()),
            Some(t) => t.get(index).copied().unwrap_or(self.src.len()),
        }
    }

    /// The position of byte `offset` (clamped); O(log n) even on very long lines.
    pub(crate) fn pos(&self, offset: usize) -> Pos {
        let offset = offset.min(self.src.len());
        let (line, start) = self.lines.line_start(offset);
        let col = match &self.table {
            None => offset - start,
            Some(t) => match (t.binary_search(&offset), t.binary_search(&start)) {
                (Ok(a), Ok(b)) => a - b,
                _ => return self.lines.pos(self.src, offset),
            },
        };
        Pos {
            offset,
            line: u32::try_from(line + 1).unwrap_or(u32::MAX),
            col: u32::try_from(col + 1).unwrap_or(u32::MAX),
        }
    }

    pub(crate) fn span(&self, start: usize, end: usize) -> Span {
        let end = end.max(start);
        Span {
            start: self.pos(start),
            end: self.pos(end),
        }
    }
}

/// True when a `%` directive line (at the stream start or after `...`) holds non-ASCII text.
fn has_non_ascii_directive(src: &str) -> bool {
    let mut allowed = true;
    for line in src.split(['\n', '\r']) {
        let line = line.trim_start_matches('\u{feff}');
        let word = |w: &str| {
            line.strip_prefix(w)
                .is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t']))
        };
        if line.starts_with('%') {
            if allowed && !line.is_ascii() {
                return true;
            }
        } else if word("...") {
            allowed = true;
        } else if !(line.trim().is_empty() || line.starts_with('#')) {
            allowed = false;
        }
    }
    false
}

/// Node properties (`&anchor`, `!tag`) in front of a node's content.
pub(crate) struct Props {
    /// Where the content starts (after the properties and any whitespace, comments, line breaks).
    pub(crate) content: usize,
    /// Just after the last property.
    pub(crate) end: usize,
    /// The tag as written.
    pub(crate) tag: Option<String>,
}

/// Skips the properties starting at `at` (saphyr starts a node's event span at its properties).
pub(crate) fn skip_props(src: &str, at: usize) -> Props {
    let b = src.as_bytes();
    let mut p = at;
    let mut end = at;
    let mut tag = None;
    while matches!(b.get(p), Some(b'&' | b'!')) {
        let start = p;
        while p < b.len() && !matches!(b[p], b' ' | b'\t' | b'\r' | b'\n') {
            p += 1;
        }
        if b[start] == b'!' {
            tag = src.get(start..p).map(str::to_string);
        }
        end = p;
        p = skip_space_and_comments(b, p);
    }
    Props {
        content: p,
        end,
        tag,
    }
}

/// Skips spaces, tabs, line breaks and comments.
fn skip_space_and_comments(b: &[u8], mut p: usize) -> usize {
    loop {
        match b.get(p) {
            Some(b' ' | b'\t' | b'\r' | b'\n') => p += 1,
            Some(b'#') => {
                while p < b.len() && !matches!(b[p], b'\r' | b'\n') {
                    p += 1;
                }
            }
            _ => return p,
        }
    }
}

/// Start of the line holding byte `p`.
pub(crate) fn line_start(b: &[u8], p: usize) -> usize {
    b[..p.min(b.len())]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1)
}

/// End of the line holding byte `p` (before its `\r\n` or `\n`).
pub(crate) fn line_end(b: &[u8], p: usize) -> usize {
    let mut e = p;
    while e < b.len() && b[e] != b'\n' {
        e += 1;
    }
    if e > p && b.get(e - 1) == Some(&b'\r') && b.get(e) == Some(&b'\n') {
        e -= 1;
    }
    e
}

/// Where a block scalar's `|`/`>` indicator is, and where its header (indicator + chomping and
/// indentation indicators) ends.
///
/// `raw_start` is saphyr's start of the scalar (its first content line, or the indicator itself
/// when the stream ends on the header of an `empty` scalar); `after` is the end of the previous event, so text before
/// it (like a quoted key containing ` | `) is not mistaken for the indicator.
pub(crate) fn block_header(
    src: &str,
    raw_start: usize,
    after: usize,
    empty: bool,
) -> Option<(usize, usize)> {
    let b = src.as_bytes();
    // saphyr starts an empty block scalar that ends the stream at its indicator; otherwise a `|`
    // there is content (`|\n|x`).
    if empty && matches!(b.get(raw_start), Some(b'|' | b'>')) {
        if let Some(end) = header_end(b, raw_start) {
            return Some((raw_start, end));
        }
    }
    // The header is the last line before `raw_start`'s line that holds more than whitespace.
    let mut ls = line_start(b, raw_start);
    let (hs, he) = loop {
        if ls == 0 {
            return None;
        }
        let prev = line_start(b, ls - 1);
        let text = &b[prev..ls - 1];
        if text.iter().all(|c| matches!(c, b' ' | b'\t' | b'\r')) {
            ls = prev;
            continue;
        }
        break (prev, line_end(b, prev));
    };
    let from = if (hs..=he).contains(&after) {
        after
    } else {
        hs
    };
    (from..he).find_map(|i| {
        let ok_before =
            i == hs || matches!(b[i - 1], b' ' | b'\t') || b[..i].ends_with("\u{feff}".as_bytes());
        (matches!(b[i], b'|' | b'>') && ok_before)
            .then(|| header_end(b, i).map(|e| (i, e)))
            .flatten()
    })
}

/// If a valid block scalar header starts at `i`, the end of its indicators.
fn header_end(b: &[u8], i: usize) -> Option<usize> {
    let mut p = i + 1;
    for _ in 0..2 {
        if matches!(b.get(p), Some(b'1'..=b'9' | b'+' | b'-')) {
            p += 1;
        }
    }
    match b.get(p) {
        None | Some(b'\r' | b'\n' | b' ' | b'\t') => Some(p),
        _ => None,
    }
}

/// The end of a block scalar's content: just after its last character other than a space or a
/// line break (tabs are content) before
/// `raw_end` (saphyr's end, which runs over trailing blank lines), or `header_end`.
pub(crate) fn block_content_end(src: &str, header_end: usize, raw_end: usize) -> usize {
    let b = src.as_bytes();
    let body = line_end(b, header_end);
    let body = match b.get(body) {
        Some(b'\r') => body + 2,
        Some(b'\n') => body + 1,
        _ => body,
    };
    let raw_end = raw_end.min(b.len());
    if body >= raw_end {
        return header_end;
    }
    b[body..raw_end]
        .iter()
        .rposition(|c| !matches!(c, b' ' | b'\r' | b'\n'))
        .map_or(header_end, |i| {
            let mut e = body + i + 1;
            while !src.is_char_boundary(e) {
                e += 1;
            }
            e
        })
}

/// Just after the closing quote of the quoted scalar opening at `start` (saphyr's token runs on
/// over trailing blanks and comments); `None` if there is no quote there or no closing quote
/// before `limit`.
pub(crate) fn quoted_end(src: &str, start: usize, limit: usize) -> Option<usize> {
    let b = src.as_bytes();
    let quote = *b.get(start).filter(|q| matches!(q, b'\'' | b'"'))?;
    let limit = limit.min(b.len());
    let mut p = start + 1;
    while p < limit {
        match (quote, b[p]) {
            (b'\'', b'\'') if b.get(p + 1) == Some(&b'\'') => p += 2,
            (b'"', b'\\') => p += 2,
            (q, c) if c == q => return Some(p + 1),
            _ => p += 1,
        }
    }
    None
}

/// A block sequence's first `-`: saphyr's sequence-start mark sits on it or just after it.
pub(crate) fn seq_dash(src: &str, mark: usize) -> Option<usize> {
    let b = src.as_bytes();
    if b.get(mark) == Some(&b'-') {
        return Some(mark);
    }
    let mut p = mark.min(b.len());
    while p > 0 && matches!(b[p - 1], b' ' | b'\t') {
        p -= 1;
    }
    (p > 0 && b[p - 1] == b'-').then(|| p - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_search() {
        let src = "\"a | #\": | # x |\n  text\n";
        let content = src.find("text").unwrap();
        let after = src.find(':').unwrap();
        let (i, e) = block_header(src, content, after, false).unwrap();
        assert_eq!((i, e), (9, 10));
        let src = "k: |2-\n\n   x\n";
        let (i, e) = block_header(src, src.find('x').unwrap() - 1, 1, false).unwrap();
        assert_eq!(&src[i..e], "|2-");
    }

    #[test]
    fn props() {
        let p = skip_props("&a !!str # c\n  |\n", 0);
        assert_eq!(p.tag.as_deref(), Some("!!str"));
        assert_eq!(p.end, 8);
        assert_eq!(p.content, 15);
    }
}
