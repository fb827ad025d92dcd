//! Turning a reason's contributing fields into causes with exact positions: the changed field
//! when the object changed, the object's entry when it was added, the base entry when removed.

use super::config::{locate, Src};
use super::decide::Reason;
use super::scope::Scope;
use crate::diagnostic::{Location, Side};
use crate::diff::ChangeKind;
use crate::forecast::Cause;

fn overlaps(field: &str, pointer: &str) -> bool {
    pointer.is_empty()
        || field == pointer
        || field.starts_with(&format!("{pointer}/"))
        || pointer.starts_with(&format!("{field}/"))
}

fn cause(
    obj: &crate::inventory::Object,
    field: &str,
    pointer_for_span: &str,
    summary: &str,
) -> Cause {
    let span = locate(obj.root(), pointer_for_span);
    Cause {
        object: obj.id.to_string(),
        field: field.to_string(),
        file: obj.path_at(span).to_string(),
        line: span.start.line,
        column: span.start.col,
        summary: summary.to_string(),
    }
}

/// Causes of one reason (at most three per contributing object).
pub fn resolve(scope: &Scope<'_>, reason: &Reason) -> Vec<Cause> {
    let mut out = Vec::new();
    let mut seen: Vec<&Src> = Vec::new();
    for (_, src) in &reason.srcs {
        if seen.contains(&src) {
            continue;
        }
        seen.push(src);
        let Some(ch) = scope.changes.get(&src.object) else {
            continue;
        };
        match ch.kind {
            ChangeKind::Changed => {
                let Some(obj) = ch.head else {
                    continue;
                };
                for f in ch
                    .fields
                    .iter()
                    .filter(|f| overlaps(&f.path, &src.pointer))
                    .take(3)
                {
                    let at = if src.pointer.starts_with(&format!("{}/", f.path)) {
                        &src.pointer
                    } else {
                        &f.path
                    };
                    out.push(cause(obj, &f.path, at, &reason.summary));
                }
            }
            ChangeKind::Added => {
                if let Some(obj) = ch.head {
                    out.push(cause(obj, &src.pointer, &src.pointer, &reason.summary));
                }
            }
            ChangeKind::Removed => {
                if let Some(obj) = ch.base {
                    out.push(cause(
                        obj,
                        &src.pointer,
                        &src.pointer,
                        &format!("{} (in base; object removed)", reason.summary),
                    ));
                }
            }
            // The unreadable-change forecast states those causes.
            ChangeKind::Unreadable => {}
        }
    }
    if out.is_empty() {
        // Nothing the contributing objects changed explains it (an ordering or selection
        // change elsewhere): point at the winning head field.
        let fallback = reason
            .srcs
            .iter()
            .find(|(side, _)| *side == Side::Head)
            .or(reason.srcs.first());
        if let Some((_, src)) = fallback {
            if let Some(obj) = scope.head.get(&src.object) {
                out.push(cause(obj, &src.pointer, &src.pointer, &reason.summary));
            } else if let Some(obj) = scope.base.get(&src.object) {
                out.push(cause(
                    obj,
                    &src.pointer,
                    &src.pointer,
                    &format!("{} (in base)", reason.summary),
                ));
            }
        }
    }
    out
}

/// A diagnostic location for a field: head when the object exists there, else base.
pub fn location(scope: &Scope<'_>, src: Option<&Src>) -> Option<Location> {
    let src = src?;
    if let Some(obj) = scope.head.get(&src.object) {
        let span = locate(obj.root(), &src.pointer);
        return Some(obj.head_location(span));
    }
    let obj = scope.base.get(&src.object)?;
    let span = locate(obj.root(), &src.pointer);
    Some(Location::base(obj.path_at(span), span))
}
