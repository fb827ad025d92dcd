//! Baseline files: today's findings by stable fingerprint (code + object + field path), so a
//! repository can adopt nodecast and see only new findings.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::codes;
use crate::diagnostic::{Diagnostic, Location};
use crate::parse::ParsedSides;
use crate::{fingerprint, Fatal};

/// The baseline format identifier.
pub const SCHEMA: &str = "nodecast/baseline/v1";

/// A baseline file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Baseline {
    /// Always [`SCHEMA`].
    pub schema: String,
    /// Recorded findings.
    pub findings: Vec<Entry>,
}

/// One recorded finding; only `fingerprint` is matched, the rest is for people reading the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Stable identity.
    pub fingerprint: String,
    /// Rule code.
    pub code: String,
    /// Object (or file) concerned.
    pub object: String,
    /// Field path.
    pub field: String,
    /// Where it was when recorded.
    pub file: String,
    /// The message when recorded.
    pub message: String,
}

/// A baseline of these findings.
pub fn of(diagnostics: &[Diagnostic], files: &ParsedSides) -> Baseline {
    let mut findings: Vec<Entry> = diagnostics
        .iter()
        .map(|d| {
            let id = fingerprint::identity(d, &files.base, &files.head);
            Entry {
                fingerprint: id.fingerprint(),
                code: id.code,
                object: id.object,
                field: id.field,
                file: d.location.path.clone(),
                message: d.message.clone(),
            }
        })
        .collect();
    findings.sort_by(|a, b| {
        (&a.file, &a.code, &a.object, &a.field).cmp(&(&b.file, &b.code, &b.object, &b.field))
    });
    Baseline {
        schema: SCHEMA.into(),
        findings,
    }
}

/// Reads a baseline file.
pub fn read(path: &Path) -> Result<Baseline, Fatal> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Fatal::new(
            format!("cannot read the baseline {}: {e}", path.display()),
            "create it with `nodecast baseline write FILE`",
        )
    })?;
    let b: Baseline = serde_json::from_str(&text).map_err(|e| {
        Fatal::new(
            format!("{} is not a nodecast baseline: {e}", path.display()),
            "recreate it with `nodecast baseline write FILE`",
        )
    })?;
    if b.schema != SCHEMA {
        return Err(Fatal::new(
            format!(
                "{} has schema `{}`, expected `{SCHEMA}`",
                path.display(),
                b.schema
            ),
            "recreate it with `nodecast baseline write FILE`",
        ));
    }
    Ok(b)
}

/// Drops findings the baseline holds (as many as it recorded per fingerprint) and adds a C106
/// info for each recorded finding that no longer occurs. `name` is how findings name the file.
pub fn apply(
    baseline: &Baseline,
    name: &str,
    diagnostics: Vec<Diagnostic>,
    files: &ParsedSides,
) -> (Vec<Diagnostic>, usize) {
    let mut left: BTreeMap<&str, usize> = BTreeMap::new();
    for e in &baseline.findings {
        *left.entry(e.fingerprint.as_str()).or_default() += 1;
    }
    let mut kept = Vec::new();
    let mut dropped = 0;
    for d in diagnostics {
        let fp = fingerprint::of(&d, &files.base, &files.head);
        match left.get_mut(fp.as_str()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                dropped += 1;
            }
            _ => kept.push(d),
        }
    }
    {
        let c106 = &codes::C106;
        for e in &baseline.findings {
            if let Some(n) = left.get_mut(e.fingerprint.as_str()) {
                if *n > 0 {
                    *n -= 1;
                    let field = if e.field.is_empty() {
                        String::new()
                    } else {
                        format!(" at {}", e.field)
                    };
                    kept.push(
                        Diagnostic::new(
                            c106,
                            format!("baseline entry {} on {}{field} no longer occurs", e.code, e.object),
                            Location::head_file(name),
                        )
                        .help("run `nodecast baseline write FILE` to drop fixed entries from the baseline"),
                    );
                }
            }
        }
    }
    (kept, dropped)
}
