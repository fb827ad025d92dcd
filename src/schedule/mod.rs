//! Change-management schedules (the OpenShift enhancement "Change Management and Maintenance
//! Schedules", openshift/enhancements PR #1571, never merged): parse and validate policies and
//! stanzas (Schema A, its revisions 4–5 with RRULE strings, and Schema B, its final revision 8
//! with structured recurrences), compute their windows in UTC, and decide when a rollout may start.
//!
//! Pure time arithmetic: nothing here reads a forecast. The forecast calls in
//! (`forecast::when`) to decide when each rollout may start and to lint the policies, because
//! both depend on `--now`; this stage declares the W1xx codes those findings carry.

pub mod codes;
pub mod days;
pub mod decide;
pub mod duration;
pub mod lint;
pub mod model;
pub mod policy;
pub mod recur;
pub mod report;
pub mod rrule;
pub mod stanza;
pub mod structured;
pub mod windows;

use std::ops::Range;
use std::sync::Arc;

use nodecast_yaml::{LineIndex, Node, Span};

use crate::code::Code;
use crate::diagnostic::{Diagnostic, Location, Severity};
use crate::inventory::Object;

/// Where an object's findings go: its file, text and name.
pub struct Src<'a> {
    /// Repository-relative path.
    pub path: &'a str,
    /// The file's text (for spans inside strings).
    pub text: Arc<str>,
    /// `Kind/namespace/name`.
    pub object: String,
    /// The object itself: a rendered value may be written in another file (a patch).
    placed: &'a Object,
}

impl<'a> Src<'a> {
    /// The source of an inventory object.
    pub fn of(obj: &'a Object) -> Self {
        Src {
            path: &obj.path,
            text: obj.file().text.clone().unwrap_or_else(|| Arc::from("")),
            object: obj.id.to_string(),
            placed: obj,
        }
    }

    /// A finding on a node.
    pub fn diag(
        &self,
        rule: &'static Code,
        node: Node<'_>,
        message: impl Into<String>,
    ) -> Diagnostic {
        self.at(rule, node.span(), message)
    }

    /// A finding on a span.
    pub fn at(&self, rule: &'static Code, span: Span, message: impl Into<String>) -> Diagnostic {
        let path = self.placed.path_at(span);
        Diagnostic::new(rule, message, Location::head(path, span)).object(self.object.clone())
    }

    /// A finding on a byte range inside a string node.
    pub fn in_string(&self, node: Node<'_>, f: Finding) -> Diagnostic {
        // `text` is the object's own file: a value a patch writes is placed as a whole.
        let span = if self.placed.path_at(node.span()) == self.path {
            string_span(&self.text, node, f.range.clone())
        } else {
            node.span()
        };
        let mut d = self.at(f.code, span, f.message).severity(f.severity);
        if let Some(h) = f.help {
            d = d.help(h);
        }
        // A suggested name replaces the part only where the file writes it as the decoded
        // text does (no escapes, no folding in it): then the edit is exact.
        let decoded = match node.kind() {
            nodecast_yaml::NodeKind::Scalar { text, .. } => text.get(f.range.clone()),
            _ => None,
        };
        let written = self.text.get(span.start.offset..span.end.offset);
        if let (Some(to), Some(decoded)) = (f.rename, decoded) {
            if written == Some(decoded) && self.placed.path_at(span) == self.path {
                d = d.fix(crate::diagnostic::Fix::rename(span, &to));
            }
        }
        d
    }
}

/// A finding inside a string value, by byte range of its decoded text.
#[derive(Clone)]
pub struct Finding {
    /// The rule.
    pub code: &'static Code,
    /// Severity (the rule's default unless lowered or raised).
    pub severity: Severity,
    /// Byte range in the decoded string.
    pub range: Range<usize>,
    /// One-line message.
    pub message: String,
    /// The fix.
    pub help: Option<String>,
    /// The text that should replace the range ("did you mean"), for an editor's quick fix.
    pub rename: Option<String>,
}

impl std::fmt::Debug for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {:?} {:?} {}",
            self.code.code, self.severity, self.range, self.message
        )
    }
}

impl Finding {
    /// A finding with the rule's default severity.
    pub fn new(code: &'static Code, range: Range<usize>, message: impl Into<String>) -> Self {
        Finding {
            code,
            severity: code.severity,
            range,
            message: message.into(),
            help: None,
            rename: None,
        }
    }

    /// Sets the fix.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Suggests `to` in place of the range: the help says so and an editor can apply it.
    pub fn did_you_mean(mut self, to: &str) -> Self {
        self.help = Some(format!("did you mean `{to}`?"));
        self.rename = Some(to.to_string());
        self
    }

    /// Overrides the severity.
    pub fn severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }
}

/// The outer-file span of a byte range of a string node's decoded text, so findings inside an
/// RRULE point at the exact part even in quoted or escaped scalars.
pub fn string_span(outer: &str, node: Node<'_>, range: Range<usize>) -> Span {
    let map = nodecast_yaml::scalar_source_map(outer, node);
    if !map.exact {
        return node.span();
    }
    let text = match node.kind() {
        nodecast_yaml::NodeKind::Scalar { text, .. } => text,
        _ => return node.span(),
    };
    let start = map.offsets.get(range.start).copied();
    let end = if range.end > range.start {
        let mut last = range.end - 1;
        while last > 0 && !text.is_char_boundary(last) {
            last -= 1;
        }
        let width = text
            .get(last..)
            .and_then(|s| s.chars().next())
            .map_or(1, char::len_utf8);
        map.offsets.get(last).map(|o| o + width)
    } else {
        start
    };
    let (Some(start), Some(end)) = (start, end) else {
        return node.span();
    };
    let lines = LineIndex::new(outer);
    Span {
        start: lines.pos(outer, start),
        end: lines.pos(outer, end.max(start)),
    }
}

/// The span of a 1-based line and column in a text (for forecast causes, which carry no offset).
pub fn line_col_span(text: &str, line: u32, col: u32) -> Option<Span> {
    let mut offset = 0usize;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line as usize {
            let within: usize = l
                .chars()
                .take(col.saturating_sub(1) as usize)
                .map(char::len_utf8)
                .sum();
            let lines = LineIndex::new(text);
            let pos = lines.pos(text, offset + within);
            return Some(Span {
                start: pos,
                end: pos,
            });
        }
        offset += l.len();
    }
    None
}
