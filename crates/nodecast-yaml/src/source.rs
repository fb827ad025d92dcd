//! A parsed text and its line starts: the located tree keeps byte offsets only, and a position's
//! line and column are computed from here when a report asks for them (most nodes never need one).
use std::sync::{Arc, OnceLock};

use crate::Pos;

/// The text a tree's positions point into (a file; for an embedded document, the outer file),
/// shared by every document parsed from it.
#[derive(Debug)]
pub struct Source {
    text: Arc<str>,
    /// Byte offset of every line start (`\n` ends a line), built on the first position asked for.
    lines: OnceLock<Box<[u32]>>,
}

impl Source {
    /// A source over `text` (shared, not copied).
    pub fn new(text: Arc<str>) -> Arc<Source> {
        Arc::new(Source {
            text,
            lines: OnceLock::new(),
        })
    }

    /// The text.
    pub fn text(&self) -> &Arc<str> {
        &self.text
    }

    fn lines(&self) -> &[u32] {
        self.lines.get_or_init(|| {
            let mut starts = vec![0u32];
            starts.extend(
                self.text
                    .bytes()
                    .enumerate()
                    .filter(|(_, b)| *b == b'\n')
                    .map(|(i, _)| offset32(i + 1)),
            );
            starts.into_boxed_slice()
        })
    }

    /// The position of byte `offset` (clamped to the text): 1-based line (`\n` ends a line) and
    /// 1-based column counted in Unicode scalar values (a partial character counts as one).
    pub fn pos(&self, offset: usize) -> Pos {
        let offset = offset.min(self.text.len());
        let lines = self.lines();
        let line = lines
            .partition_point(|&s| s as usize <= offset)
            .saturating_sub(1);
        let start = lines.get(line).map_or(0, |&s| s as usize);
        let col = self.text.as_bytes()[start..offset]
            .iter()
            .filter(|b| (**b & 0xC0) != 0x80)
            .count();
        Pos {
            offset,
            line: u32::try_from(line + 1).unwrap_or(u32::MAX),
            col: u32::try_from(col + 1).unwrap_or(u32::MAX),
        }
    }
}

/// A byte offset as stored in the tree (texts are limited to [`crate::MAX_TEXT`] bytes).
pub(crate) fn offset32(offset: usize) -> u32 {
    u32::try_from(offset).unwrap_or(u32::MAX)
}
