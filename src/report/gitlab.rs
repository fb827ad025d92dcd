//! GitLab Code Quality report (`--format gitlab`): the JSON array GitLab reads from a job's
//! `artifacts:reports:codequality` to annotate merge requests — one issue per finding with the
//! fields GitLab requires (`description`, `check_name`, `fingerprint`, `severity`,
//! `location.path`, `location.lines.begin`).

use serde_json::{json, Value};

use crate::check::Outcome;
use crate::diagnostic::{Severity, Side};

/// The report: only what the change introduces (pre-existing findings listed with `--all` are
/// left out too: GitLab compares reports of the two branches itself).
pub fn report(o: &Outcome) -> Value {
    Value::Array(
        o.diagnostics
            .iter()
            .filter(|d| d.state.introduced())
            .map(|d| {
                let line = d.location.span.map_or(1, |s| s.start.line.max(1));
                let mut description = d.message.clone();
                if d.location.side == Side::Base {
                    description.push_str(" (in the base revision)");
                }
                json!({
                    "description": description,
                    "check_name": d.code,
                    "fingerprint": crate::fingerprint::of(d, &o.files.base, &o.files.head),
                    "severity": match d.severity {
                        Severity::Error => "major",
                        Severity::Warning => "minor",
                        Severity::Info => "info",
                    },
                    "location": {"path": d.location.path, "lines": {"begin": line}},
                    "categories": ["Bug Risk"],
                    "type": "issue",
                    "engine_name": "nodecast",
                    "content": {"body": d.help.clone().unwrap_or_default()},
                })
            })
            .collect(),
    )
}
