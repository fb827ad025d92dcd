//! Source positions: saphyr's character indexes → byte offsets and [`Pos`], and the small source
//! scans that turn saphyr's token spans into the spans nodecast reports.
use crate::{LineIndex, Pos, Span};

/// Converts saphyr markers (character indexes) into byte offsets and line/column positions.
pub(crate) struct Locator<'a> {
    pub(crate) src: &'a str,
    /// Byte offset of every character index (plus the end); `None` when the text is ASCII.
    table: Option<Vec<usize>>,
    lines: LineIndex,
}

impl<'a> Locator<'a> {
    pub(crate) fn new(src: &'a str) -> Self {
        let table = (!src.is_ascii()).then(|| {
            let mut t: Vec<usize> = src.char_indices().map(|(i, _)| i).collect();
            t.push(src.len());
            t
        });
        Locator {
            src,
            table,
            lines: LineIndex::new(src),
        }
    }

    /// The byte offset of character index `index` (clamped to the text).
    pub(crate) fn byte(&self, index: usize) -> usize {
        match &self.table {
            None => index.min(self.src.len()),
            Some(t) => t.get(index).copied().unwrap_or(self.src.len()),
        }
    }

    pub(crate) fn pos(&self, offset: usize) -> Pos {
        self.lines.pos(self.src, offset)
    }

    pub(crate) fn span(&self, start: usize, end: usize) -> Span {
        let end = end.max(start);
        Span {
            start: self.pos(start),
            end: self.pos(end),
        }
    }
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
/// when the stream ends on the header); `after` is the end of the previous event, so text before
/// it (like a quoted key containing ` | `) is not mistaken for the indicator.
pub(crate) fn block_header(src: &str, raw_start: usize, after: usize) -> Option<(usize, usize)> {
    let b = src.as_bytes();
    if matches!(b.get(raw_start), Some(b'|' | b'>')) {
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
        let ok_before = i == hs || matches!(b[i - 1], b' ' | b'\t');
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

/// The end of a block scalar's content: just after its last non-blank character before
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
        .rposition(|c| !matches!(c, b' ' | b'\t' | b'\r' | b'\n'))
        .map_or(header_end, |i| {
            let mut e = body + i + 1;
            while !src.is_char_boundary(e) {
                e += 1;
            }
            e
        })
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
        let (i, e) = block_header(src, content, after).unwrap();
        assert_eq!((i, e), (9, 10));
        let src = "k: |2-\n\n   x\n";
        let (i, e) = block_header(src, src.find('x').unwrap() - 1, 1).unwrap();
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
