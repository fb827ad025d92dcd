//! The one diagnostic type every rule produces and every report format renders.

use nodecast_yaml::Span;

pub use crate::code::Severity;

/// Which snapshot a location is in, so code frames are cut from the right revision's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    /// The base revision.
    Base,
    /// The head revision.
    Head,
}

/// A place in a file of one side.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    /// Which side's file.
    pub side: Side,
    /// Repository-relative path.
    pub path: String,
    /// The range; `None` when the finding is about the whole file and no position is meaningful.
    pub span: Option<Span>,
}

impl Location {
    /// A range in a head file.
    pub fn head(path: &str, span: Span) -> Self {
        Location {
            side: Side::Head,
            path: path.to_string(),
            span: Some(span),
        }
    }

    /// A range in a base file.
    pub fn base(path: &str, span: Span) -> Self {
        Location {
            side: Side::Base,
            path: path.to_string(),
            span: Some(span),
        }
    }

    /// A whole head file.
    pub fn head_file(path: &str) -> Self {
        Location {
            side: Side::Head,
            path: path.to_string(),
            span: None,
        }
    }
}

/// Whether the compared change brought a finding: a pull request fails only for what it
/// introduces, so findings the base revision already had are counted, not failed on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum State {
    /// The base revision does not have it (or there is no base to compare with).
    #[default]
    New,
    /// The base revision has it too, and the change edited the place it points at.
    Changed,
    /// The base revision has it, and the change did not touch its place.
    PreExisting,
}

impl State {
    /// The contract name (JSON `state`).
    pub fn as_str(self) -> &'static str {
        match self {
            State::New => "new",
            State::Changed => "changed",
            State::PreExisting => "pre-existing",
        }
    }

    /// Whether the finding counts for the exit code and is shown by default.
    pub fn introduced(self) -> bool {
        self != State::PreExisting
    }
}

/// A secondary place shown with a finding (the other duplicate, the referring object).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// Where.
    pub location: Location,
    /// What it is.
    pub message: String,
}

/// A finding: code, severity, one-line message, exact place, and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The stable rule code (`Y002`).
    pub code: &'static str,
    /// Severity of this finding (a rule may lower its default, e.g. for unmanaged references).
    pub severity: Severity,
    /// The one-line summary; it stands alone in annotations and SARIF.
    pub message: String,
    /// The primary location.
    pub location: Location,
    /// Text under the primary span in the code frame.
    pub label: Option<String>,
    /// Other places involved.
    pub related: Vec<Label>,
    /// How to fix it.
    pub help: Option<String>,
    /// Why the rule fired (the causal chain), shown as notes.
    pub notes: Vec<String>,
    /// The object concerned, `Kind/namespace/name` or `Kind/name`.
    pub object: Option<String>,
    /// New, changed or pre-existing, against the base revision.
    pub state: State,
    /// The edit that resolves it, when nodecast knows one (editors offer it as a quick fix).
    pub fix: Option<Fix>,
}

/// A machine-applicable edit of the finding's own head file: what `help` says, as an edit an
/// editor can apply (quote a YAML 1.1 boolean, use the suggested name, remove an unused
/// suppression).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    /// What the edit does, in words (a code action's title).
    pub title: String,
    /// The range of the finding's file that is replaced.
    pub span: Span,
    /// The text that replaces it.
    pub replacement: String,
    /// The span is a scalar whose quotes, if it has any, stay: the replacement is its new value.
    pub keep_quotes: bool,
}

impl Fix {
    /// Replaces a whole span with new text.
    pub fn replace(title: impl Into<String>, span: Span, replacement: impl Into<String>) -> Self {
        Fix {
            title: title.into(),
            span,
            replacement: replacement.into(),
            keep_quotes: false,
        }
    }

    /// Renames the scalar at `span` to `to` ("did you mean"), keeping its quotes.
    pub fn rename(span: Span, to: &str) -> Self {
        Fix {
            title: format!("use `{to}`"),
            span,
            replacement: to.to_string(),
            keep_quotes: true,
        }
    }
}

impl Diagnostic {
    /// Starts a finding with a code and its default severity.
    pub fn new(code: &crate::code::Code, message: impl Into<String>, location: Location) -> Self {
        Diagnostic {
            code: code.code,
            severity: code.severity,
            message: message.into(),
            location,
            label: None,
            related: Vec::new(),
            help: None,
            notes: Vec::new(),
            object: None,
            state: State::New,
            fix: None,
        }
    }

    /// Sets the text under the primary span.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// Sets the fix.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Adds a "why" note.
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Adds a secondary place.
    pub fn related(mut self, location: Location, message: impl Into<String>) -> Self {
        self.related.push(Label {
            location,
            message: message.into(),
        });
        self
    }

    /// Names the object concerned.
    pub fn object(mut self, object: impl Into<String>) -> Self {
        self.object = Some(object.into());
        self
    }

    /// Attaches the edit that resolves the finding.
    pub fn fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }

    /// Overrides the severity for this finding.
    pub fn severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// The documentation address of the rule.
    pub fn url(&self) -> String {
        crate::code::doc_url(self.code)
    }

    /// Sort key: file, position, code — the order humans read findings in.
    pub fn sort_key(&self) -> (String, u32, u32, &'static str) {
        let (line, col) = self
            .location
            .span
            .map(|s| (s.start.line, s.start.col))
            .unwrap_or((0, 0));
        (self.location.path.clone(), line, col, self.code)
    }
}
