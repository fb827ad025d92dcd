//! Finding codes: the identity every finding carries (code, default severity, name, summary).
//!
//! A leaf module so that every stage can declare the codes it emits in its own `codes` module
//! without importing any other stage; `crate::catalog` gathers them for `nodecast rules`,
//! `explain`, configuration checks and SARIF rule metadata.

use std::fmt;

/// How serious a finding is; `--fail-on` compares against it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Worth knowing.
    Info,
    /// Probably wrong, or risky.
    Warning,
    /// Wrong: the cluster would reject or misapply it.
    Error,
}

impl Severity {
    /// The contract name.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// A finding code: stable identity, default severity and one-line summary.
#[derive(Debug)]
pub struct Code {
    /// Stable code; never renumbered (SARIF ruleId, suppression token, doc slug).
    pub code: &'static str,
    /// kebab-case name.
    pub name: &'static str,
    /// Default severity.
    pub severity: Severity,
    /// One-line summary for `nodecast rules`.
    pub summary: &'static str,
}

/// Finds a code by its text (case-insensitive); stages that check user-written codes
/// (configuration, suppressions) receive the catalog's lookup rather than importing it.
pub type Lookup = fn(&str) -> Option<&'static Code>;

/// Where rule documentation is published (SARIF `helpUri`, JSON `url`).
pub const DOCS_BASE: &str = "https://github.com/nodecast/nodecast/blob/main/rules";

/// The documentation address of a code's page.
pub fn doc_url(code: &str) -> String {
    format!("{DOCS_BASE}/{code}.md")
}
