//! YAML and JSON parsing where every node keeps its exact source position.
//!
//! nodecast reports findings on the exact line and column of the offending value, including values
//! inside YAML documents embedded in block scalars (HyperShift `ConfigMap` `data.config`). General
//! YAML crates either drop positions or only locate errors, so this crate builds its own located
//! tree from `saphyr-parser` events.
//!
//! Scalars are *resolved* the way Kubernetes resolves them (sigs.k8s.io/yaml, i.e. go-yaml v2 /
//! YAML 1.1 rules: `yes`/`no`/`on`/`off`/`y`/`n` are booleans, `0644` is octal), because nodecast must
//! see what the API server sees. Places where YAML 1.1 and YAML 1.2 disagree are reported as
//! [`ProblemKind::Yaml11Ambiguity`] so users can quote them.
//!
//! The tree is an arena per document ([`Document`]); a [`Node`] is a copyable handle into it.
//! Nodes keep byte offsets, and line and column are computed from the [`Source`] when asked for;
//! scalar texts are ranges of the parsed text wherever the text is what was written.

mod document;
mod embedded;
mod flow_lines;
mod line_index;
mod locate;
mod node;
mod parse;
pub mod pointer;
mod rescan;
mod resolve;
mod source;
mod tree;

pub use document::{Builder, Document};
pub use embedded::{parse_embedded, parse_embedded_exact, scalar_source_map, SourceMap};
pub use flow_lines::comment_start;
pub use line_index::LineIndex;
pub use node::{
    Entry, Map, MapIter, Node, NodeAddr, NodeId, NodeKind, Scalar, ScalarStyle, Seq, SeqIter,
};
pub use parse::{parse, parse_source};
pub use source::Source;

/// A position in the *outermost* source text, so diagnostics can point into the file on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pos {
    /// Byte offset from the start of the source text.
    pub offset: usize,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, counted in Unicode scalar values.
    pub col: u32,
}

/// A half-open source range (`end` is the position just after the last character).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    /// First character of the range.
    pub start: Pos,
    /// Position just after the last character of the range.
    pub end: Pos,
}

/// Limits that keep hostile input (alias bombs, deep nesting) from exhausting memory or stack.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Maximum number of nodes that alias expansion may add to one document.
    pub max_alias_expansion: usize,
    /// Maximum number of nodes that alias expansion may add to all documents of one text
    /// together: a thousand small bombs in one file must not add up to gigabytes.
    pub max_total_alias_expansion: usize,
    /// Maximum nesting depth of collections.
    pub max_depth: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_alias_expansion: 100_000,
            max_total_alias_expansion: 1_000_000,
            max_depth: 256,
        }
    }
}

/// How the message of the problem for an exhausted [`Options::max_total_alias_expansion`] starts,
/// so callers that set a smaller budget for a reason of their own can say which.
pub const TOTAL_ALIAS_LIMIT: &str =
    "alias expansion exceeds the budget for all documents of this file";

/// What went wrong or looks wrong in the source; nodecast turns each into a diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    /// The text is not valid YAML; parsing stopped at `span` (earlier documents are kept).
    Syntax,
    /// A mapping repeats a key; `span` is the later key, `other` the first one. The later value wins.
    DuplicateKey,
    /// Alias expansion would exceed [`Options::max_alias_expansion`] (billion laughs) or nesting
    /// exceeded [`Options::max_depth`]; the document is dropped.
    Limit,
    /// A plain scalar that YAML 1.1 (Kubernetes) and YAML 1.2 read differently.
    Yaml11Ambiguity(Ambiguity),
}

/// The YAML 1.1 vs 1.2 disagreements that matter for Kubernetes manifests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ambiguity {
    /// `yes`, `no`, `on`, `off`, `y`, `n` (any case variant go-yaml v2 accepts): Kubernetes reads a boolean.
    Boolean,
    /// `0644`-style leading-zero integers: Kubernetes reads octal, YAML 1.2 decimal.
    Octal,
    /// `1:30`-style base-60 numbers: YAML 1.1 reads a number, Kubernetes and YAML 1.2 a string.
    Sexagesimal,
}

/// A located finding from parsing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// What kind of problem it is.
    pub kind: ProblemKind,
    /// One-line description (for syntax errors, the parser's message without position).
    pub message: String,
    /// Where it is.
    pub span: Span,
    /// A second relevant place (the first occurrence of a duplicate key).
    pub other: Option<Span>,
}

/// The result of parsing one source text: every document that parsed, and every problem found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parsed {
    /// Documents in stream order; empty documents (only comments, or `---` alone) are omitted.
    pub documents: Vec<Document>,
    /// Problems in source order.
    pub problems: Vec<Problem>,
    /// Nodes alias expansion (anchored copies included) added to the kept documents.
    pub alias_nodes: usize,
    /// True when [`Options::max_total_alias_expansion`] was reached (documents were dropped).
    pub total_alias_limit_hit: bool,
}
