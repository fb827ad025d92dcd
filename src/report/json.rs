//! The JSON report, contract `nodecast/report/v1` (ARCHITECTURE.md). Fields are only ever added.

use serde_json::{json, Value};

use crate::check::Outcome;
use crate::diagnostic::{Diagnostic, Location};
use crate::source::SnapshotInfo;

/// The contract identifier.
pub const SCHEMA: &str = "nodecast/report/v1";

/// Builds the report document.
pub fn report(o: &Outcome) -> Value {
    let counts = super::counts(o);
    json!({
        "schema": SCHEMA,
        "compared": {
            "base": snapshot(&o.base_info),
            "head": snapshot(&o.head_info),
        },
        // The wall clock is never printed: identical inputs give byte-identical reports.
        "now": o.now_given.then(|| o.now.to_string()),
        "forecast": o.forecast,
        "unforecast": o.unforecast.iter().map(|id| id.to_string()).collect::<Vec<_>>(),
        "changes": changes(o),
        "unreadable": o.diff.unreadable.iter().map(|u| json!({
            "file": u.path,
            "base": u.base,
            "head": u.head,
            "line": u.location.span.map(|s| s.start.line),
            "column": u.location.span.map(|s| s.start.col),
        })).collect::<Vec<_>>(),
        "diagnostics": o.diagnostics.iter().map(|d| {
            let mut v = diagnostic(d);
            // The stable identity SARIF and the baseline use (code, object, field path).
            v["fingerprint"] = json!(crate::fingerprint::of(d, &o.files.base, &o.files.head));
            v
        }).collect::<Vec<_>>(),
        "summary": {
            "files": counts.files,
            "objects": counts.objects,
            "errors": counts.errors,
            "warnings": counts.warnings,
            "infos": counts.infos,
            "disruptive": counts.disruptive,
            "pre_existing": counts.pre_existing,
        },
    })
}

fn snapshot(info: &SnapshotInfo) -> Value {
    json!({"source": info.kind.as_str(), "rev": info.rev, "label": info.label})
}

fn position(loc: &Location) -> (Value, Value, Value, Value) {
    match loc.span {
        Some(s) => (
            json!(s.start.line),
            json!(s.start.col),
            json!(s.end.line),
            json!(s.end.col),
        ),
        None => (Value::Null, Value::Null, Value::Null, Value::Null),
    }
}

/// One diagnostic in the contract's shape (plus `related` and `notes`).
pub fn diagnostic(d: &Diagnostic) -> Value {
    let (line, column, end_line, end_column) = position(&d.location);
    json!({
        "code": d.code,
        "severity": d.severity.as_str(),
        "message": d.message,
        "file": d.location.path,
        "line": line,
        "column": column,
        "end_line": end_line,
        "end_column": end_column,
        "object": d.object,
        "help": d.help,
        "url": d.url(),
        "state": d.state.as_str(),
        "notes": d.notes,
        "related": d.related.iter().map(|l| {
            let (line, column, end_line, end_column) = position(&l.location);
            json!({
                "file": l.location.path,
                "revision": match l.location.side { crate::diagnostic::Side::Base => "base", crate::diagnostic::Side::Head => "head" },
                "line": line, "column": column, "end_line": end_line, "end_column": end_column,
                "message": l.message,
            })
        }).collect::<Vec<_>>(),
    })
}

fn changes(o: &Outcome) -> Vec<Value> {
    o.diff
        .changes
        .iter()
        .map(|c| {
            let base = c.base.map(|i| &o.base.objects[i]);
            let head = c.head.map(|i| &o.head.objects[i]);
            json!({
                "object": c.id.to_string(),
                "change": c.kind.as_str(),
                "base_file": base.map(|b| b.path.clone()),
                "file": head.map(|h| h.path.clone()),
                "origin": head.or(base).map(|x| x.origin.describe()).filter(|d| !d.is_empty()),
                "group": head.or(base).map(|x| x.origin.group()).filter(|d| !d.is_empty()),
                "no_node_impact": o.no_impact.get(&c.id).map(|n| n.why.as_str()),
                "fields": c.fields.iter().map(|f| {
                    let head_pos = f.head.as_ref().and_then(|l| l.span);
                    let base_pos = f.base.as_ref().and_then(|l| l.span);
                    json!({
                        "path": f.path,
                        "file": f.head.as_ref().map(|l| l.path.clone()),
                        "line": head_pos.map(|s| s.start.line),
                        "column": head_pos.map(|s| s.start.col),
                        "base_file": f.base.as_ref().map(|l| l.path.clone()),
                        "base_line": base_pos.map(|s| s.start.line),
                        "base_column": base_pos.map(|s| s.start.col),
                        "before": f.before,
                        "after": f.after,
                        "text_diff": f.text_diff,
                    })
                }).collect::<Vec<_>>(),
            })
        })
        .collect()
}
