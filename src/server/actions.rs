//! Code actions: the fixes nodecast already knows (each finding's [`crate::diagnostic::Fix`]:
//! quote a YAML 1.1 boolean, use the suggested name, remove an unused suppression), and a
//! suppression comment with a reason for any finding (`# nodecast: ignore[CODE] <reason>`, the
//! README's syntax).

use std::collections::HashMap;
use std::path::Path;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Position, Range, TextEdit, Uri, WorkspaceEdit,
};

use super::convert::{self, Lines};
use crate::check::Outcome;
use crate::diagnostic::{Diagnostic, Side};

/// What a suppression comment says until its author writes why.
pub const REASON: &str = "<reason>";

/// The actions for the findings of a head file that touch `range` (byte offsets of `text`, the
/// file's text the outcome was computed from).
pub fn actions(
    o: &Outcome,
    root: &Path,
    uri: &Uri,
    path: &str,
    text: &str,
    range: (usize, usize),
) -> Vec<CodeActionOrCommand> {
    let lines = Lines::new(text);
    let json = path.to_ascii_lowercase().ends_with(".json");
    let mut out = Vec::new();
    let mut suppressions = Vec::new();
    for d in o.diagnostics.iter().filter(|d| touches(d, path, range)) {
        let diagnostic = convert::diagnostic(o, root, d, &lines);
        if let Some(fix) = &d.fix {
            if let Some(edit) = fix_edit(text, &lines, fix) {
                out.push(action(
                    uri,
                    upper_first(&fix.title),
                    vec![edit],
                    diagnostic.clone(),
                    true,
                ));
            }
        }
        // Comments need YAML; what triage says about suppressions is not itself suppressed.
        if json || d.code.starts_with('C') {
            continue;
        }
        if let Some(span) = d.location.span {
            let line = span.start.line.saturating_sub(1) as usize;
            let written = lines.line(line);
            let indent: String = written.chars().take_while(|c| *c == ' ').collect();
            let comment = format!("{indent}# nodecast: ignore[{}] {REASON}\n", d.code);
            suppressions.push(action(
                uri,
                format!("Suppress {} on this line (say why in the comment)", d.code),
                vec![TextEdit::new(
                    Range::new(Position::new(line as u32, 0), Position::new(line as u32, 0)),
                    comment,
                )],
                diagnostic.clone(),
                false,
            ));
        }
        suppressions.push(action(
            uri,
            format!("Suppress {} in this file (say why in the comment)", d.code),
            vec![TextEdit::new(
                Range::default(),
                format!("# nodecast: ignore-file[{}] {REASON}\n", d.code),
            )],
            diagnostic,
            false,
        ));
    }
    // Fixes first, then the suppressions (one per code and kind of comment).
    let mut seen = std::collections::BTreeSet::new();
    for s in suppressions {
        if let CodeActionOrCommand::CodeAction(a) = &s {
            if !seen.insert(a.title.clone()) {
                continue;
            }
        }
        out.push(s);
    }
    out
}

/// Whether a finding of this head file is at (or around) the requested range; a finding about
/// the whole file is at its first line.
fn touches(d: &Diagnostic, path: &str, (start, end): (usize, usize)) -> bool {
    if d.location.side != Side::Head || d.location.path != path {
        return false;
    }
    match d.location.span {
        Some(s) => s.start.offset <= end && start <= s.end.offset,
        None => start == 0,
    }
}

/// A fix as a text edit of the file, when it still fits the text (a scalar keeps its quotes).
fn fix_edit(text: &str, lines: &Lines<'_>, fix: &crate::diagnostic::Fix) -> Option<TextEdit> {
    let (start, end) = (fix.span.start.offset, fix.span.end.offset);
    let old = text.get(start..end)?;
    let mut new = fix.replacement.clone();
    if fix.keep_quotes {
        for q in ['"', '\''] {
            if old.len() >= 2 && old.starts_with(q) && old.ends_with(q) {
                new = format!("{q}{new}{q}");
            }
        }
    }
    Some(TextEdit::new(lines.range(fix.span), new))
}

// `WorkspaceEdit::changes` is keyed by `Uri` (whose parsed form caches in a cell; it is never
// changed here).
#[allow(clippy::mutable_key_type)]
fn action(
    uri: &Uri,
    title: String,
    edits: Vec<TextEdit>,
    diagnostic: lsp_types::Diagnostic,
    preferred: bool,
) -> CodeActionOrCommand {
    let mut changes = HashMap::new();
    changes.insert(uri.clone(), edits);
    CodeActionOrCommand::CodeAction(CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diagnostic]),
        edit: Some(WorkspaceEdit::new(changes)),
        command: None,
        is_preferred: preferred.then_some(true),
        disabled: None,
        data: None,
    })
}

fn upper_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
