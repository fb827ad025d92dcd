//! Between nodecast's places and the protocol's: byte offsets ↔ 0-based lines and UTF-16 columns,
//! `file:` URIs ↔ repository-relative paths, and findings ↔ LSP diagnostics.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use lsp_types::{
    CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, DiagnosticTag,
    NumberOrString, Position, Range, Uri,
};
use nodecast_yaml::Span;

use crate::check::Outcome;
use crate::diagnostic::{Diagnostic, Location, Severity, Side};

/// A text's line starts, to turn byte offsets into LSP positions and back.
pub struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    /// Indexes a text (lines end at `\n`; a `\r` before it belongs to no column that matters).
    pub fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { text, starts }
    }

    /// The position of a byte offset: 0-based line, UTF-16 column (clamped to the text; an offset
    /// inside a character counts from that character's start).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let start = self.starts[line];
        let column: usize = self.text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(line as u32, column as u32)
    }

    /// The byte offset of a position (a column past the line's end is its end, a line past the
    /// text's end is the end of the text).
    pub fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .map_or(self.text.len(), |&next| next - 1);
        let line = &self.text[start..end];
        let line = line.strip_suffix('\r').unwrap_or(line);
        let mut units = 0usize;
        for (i, c) in line.char_indices() {
            if units >= position.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        start + line.len()
    }

    /// A span's range.
    pub fn range(&self, span: Span) -> Range {
        Range::new(
            self.position(span.start.offset),
            self.position(span.end.offset),
        )
    }

    /// The text of a line (without its line break), 0-based.
    pub fn line(&self, line: usize) -> &'a str {
        let Some(&start) = self.starts.get(line) else {
            return "";
        };
        let end = self.starts.get(line + 1).map_or(self.text.len(), |&n| n);
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }
}

/// The file a `file:` URI names.
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let rest = rest.split(['?', '#']).next().unwrap_or(rest);
    let bytes: Vec<u8> = percent_encoding::percent_decode_str(rest).collect();
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        Some(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
    }
    #[cfg(not(unix))]
    {
        let text = String::from_utf8(bytes).ok()?;
        // `/C:/x` names `C:/x`.
        let text = match text.as_bytes() {
            [b'/', d, b':', ..] if d.is_ascii_alphabetic() => text[1..].to_string(),
            _ => text,
        };
        Some(PathBuf::from(text))
    }
}

/// Characters a path keeps as they are in a URI.
const PATH_SET: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'/')
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

/// The `file:` URI of a file.
pub fn uri_of(path: &Path) -> Option<Uri> {
    #[cfg(unix)]
    let encoded = {
        use std::os::unix::ffi::OsStrExt;
        percent_encoding::percent_encode(path.as_os_str().as_bytes(), PATH_SET).to_string()
    };
    #[cfg(not(unix))]
    let encoded = {
        let text = path.to_str()?.replace('\\', "/");
        let text = if text.starts_with('/') {
            text
        } else {
            format!("/{text}")
        };
        percent_encoding::utf8_percent_encode(&text, PATH_SET).to_string()
    };
    Uri::from_str(&format!("file://{encoded}")).ok()
}

/// A file's repository-relative path (`/`-separated, as findings name files), when it is inside
/// `root` (itself canonical).
pub fn relative(root: &Path, file: &Path) -> Option<String> {
    let canonical = file.canonicalize().ok().or_else(|| {
        // A file not saved yet: its folder exists.
        let parent = file.parent()?.canonicalize().ok()?;
        Some(parent.join(file.file_name()?))
    })?;
    let rel = canonical.strip_prefix(root).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| crate::source::os_text(c.as_os_str()))
        .collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// The text of a file of one side of the outcome (the text its spans point into).
pub fn text_of<'o>(o: &'o Outcome, side: Side, path: &str) -> Option<&'o str> {
    let files = match side {
        Side::Base => &o.files.base,
        Side::Head => &o.files.head,
    };
    let i = files
        .binary_search_by(|f| (*f.path).cmp(path))
        .ok()
        .or_else(|| files.iter().position(|f| *f.path == *path))?;
    files[i].parsed.text.as_deref()
}

/// The range of a location in its own side's text (the start of the file when it has no span or
/// no text).
fn range_of(o: &Outcome, location: &Location) -> Range {
    match (location.span, text_of(o, location.side, &location.path)) {
        (Some(span), Some(text)) => Lines::new(text).range(span),
        _ => Range::default(),
    }
}

/// The message an editor shows: the finding's message, then its help and notes (what the human
/// report writes under a code frame).
pub fn message(d: &Diagnostic) -> String {
    let mut lines = vec![d.message.clone()];
    if d.location.side == Side::Base {
        lines.push(match d.location.span {
            Some(s) => format!(
                "note: in the base revision, at {}:{}:{}",
                d.location.path, s.start.line, s.start.col
            ),
            None => format!("note: in the base revision of {}", d.location.path),
        });
    }
    lines.extend(crate::report::human::help_lines(d));
    lines.join("\n")
}

/// A finding as an LSP diagnostic: its range in `lines` (the text of its file the check read), its
/// code with the rule page as `codeDescription`, related places as related information.
pub fn diagnostic(
    o: &Outcome,
    root: &Path,
    d: &Diagnostic,
    lines: &Lines<'_>,
) -> lsp_types::Diagnostic {
    let range = match (d.location.side, d.location.span) {
        (Side::Head, Some(span)) => lines.range(span),
        _ => Range::default(),
    };
    let related: Vec<DiagnosticRelatedInformation> = d
        .related
        .iter()
        .filter_map(|r| {
            let uri = uri_of(&root.join(&r.location.path))?;
            let message = match r.location.side {
                Side::Head => r.message.clone(),
                Side::Base => format!("{} (base revision)", r.message),
            };
            Some(DiagnosticRelatedInformation {
                location: lsp_types::Location::new(uri, range_of(o, &r.location)),
                message,
            })
        })
        .collect();
    lsp_types::Diagnostic {
        range,
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Info => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(d.code.to_string())),
        code_description: Uri::from_str(&d.url())
            .ok()
            .map(|href| CodeDescription { href }),
        source: Some("nodecast".into()),
        message: message(d),
        related_information: (!related.is_empty()).then_some(related),
        // A suppression that suppresses nothing can go: editors fade it.
        tags: (d.code == "C104").then(|| vec![DiagnosticTag::UNNECESSARY]),
        data: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_utf16_code_units() {
        let text = "a: é\nb: 😀x\r\nc";
        let lines = Lines::new(text);
        // `x` follows an emoji: two UTF-16 units, four bytes.
        let x = text.find('x').unwrap_or_default();
        assert_eq!(lines.position(x), Position::new(1, 5));
        assert_eq!(lines.offset(Position::new(1, 5)), x);
        assert_eq!(lines.position(text.len()), Position::new(2, 1));
        // Past the end of a line: its end (before `\r\n`); past the last line: the end.
        assert_eq!(lines.offset(Position::new(1, 99)), x + 1);
        assert_eq!(lines.offset(Position::new(9, 0)), text.len());
        assert_eq!(lines.line(1), "b: 😀x");
    }

    #[test]
    fn file_uris_round_trip() {
        let path = Path::new("/tmp/a dir/ü#1.yaml");
        let uri = uri_of(path).expect("uri");
        assert_eq!(uri.as_str(), "file:///tmp/a%20dir/%C3%BC%231.yaml");
        assert_eq!(path_of(&uri).as_deref(), Some(path));
        let vscode = Uri::from_str("file:///tmp/a%20dir/x%3Ay.yaml").expect("uri");
        assert_eq!(
            path_of(&vscode).as_deref(),
            Some(Path::new("/tmp/a dir/x:y.yaml"))
        );
        assert_eq!(
            path_of(&Uri::from_str("untitled:Untitled-1").expect("uri")),
            None
        );
    }
}
