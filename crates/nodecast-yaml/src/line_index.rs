//! Byte offset → line/column.
use crate::Pos;

/// Line starts of a text, so any byte offset can be turned into a 1-based line and column.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Indexes `src`.
    pub fn new(src: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(src.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// The 0-based line holding byte `offset` (clamped), and the byte offset where it starts.
    pub(crate) fn line_start(&self, offset: usize) -> (usize, usize) {
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        (line, self.starts.get(line).copied().unwrap_or(0))
    }

    /// The position of byte `offset` (clamped to the text; a non-boundary offset counts the
    /// partial character as a column).
    pub fn pos(&self, src: &str, offset: usize) -> Pos {
        let offset = offset.min(src.len());
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let start = self.starts[line];
        let col = src
            .get(start..offset)
            .map(|s| s.chars().count())
            .unwrap_or_else(|| {
                src.as_bytes()[start..offset]
                    .iter()
                    .filter(|b| (**b & 0xC0) != 0x80)
                    .count()
            });
        Pos {
            offset,
            line: line as u32 + 1,
            col: col as u32 + 1,
        }
    }
}
