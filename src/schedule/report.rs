//! `nodecast schedule [PATH]`: per policy, the next windows and its findings; per stanza, when a
//! change would start now.

use std::fmt::Write as _;
use std::path::PathBuf;

use super::days::human;
use super::decide::decide;
use super::duration;
use super::lint::{self, Settings};
use super::model::Model;
use super::policy::Strategy;
use crate::diagnostic::{Diagnostic, Severity};
use crate::inventory::Inventory;
use crate::source::{self, CompareRequest};
use crate::Fatal;

/// What `nodecast schedule` was asked.
#[derive(Clone, Debug)]
pub struct Request {
    /// The folder or repository.
    pub path: PathBuf,
    /// Evaluation instant.
    pub now: jiff::Timestamp,
    /// Windows to list per policy.
    pub count: usize,
    /// W109 threshold.
    pub min_permitted_hours: u32,
}

/// The rendered report and whether it has errors.
pub fn run(req: &Request) -> Result<(String, bool), Fatal> {
    let loaded = source::load(&CompareRequest {
        path: req.path.clone(),
        base: None,
        head: None,
        staged: false,
        base_dir: None,
        no_base: true,
        max_file_size: 10 * 1024 * 1024,
        ..CompareRequest::default()
    })?;
    let files = crate::parse::parse_sides(&loaded.base, &loaded.head);
    let inv = Inventory::build(&files.head);
    let now = req.now.as_second();
    let mut diags = Vec::new();
    let model = Model::build(&inv, now, &mut diags);
    lint::run(
        &model,
        &inv,
        now,
        Settings {
            min_permitted_hours: req.min_permitted_hours,
        },
        &mut diags,
    );
    diags.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    let errors = diags.iter().any(|d| d.severity == Severity::Error);
    Ok((render(&model, &inv, now, req.count, &diags), errors))
}

/// Renders the report.
pub fn render(
    model: &Model,
    inv: &Inventory,
    now: i64,
    count: usize,
    diags: &[Diagnostic],
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Change-management policies (evaluated at {})",
        human(now)
    );
    if model.policies.is_empty() {
        let _ = writeln!(out, "  none\n");
    }
    let mut shown = vec![false; diags.len()];
    for p in &model.policies {
        let obj = &inv.objects[p.index];
        let line = obj.root().span().start.line;
        let _ = writeln!(out, "\n{}  ({}:{})", p.label, obj.path, line);
        match (p.strategy, &p.schedule, p.readable) {
            (None, _, _) => {
                let _ = writeln!(out, "  strategy unknown: timing cannot be computed");
            }
            (Some(Strategy::Permissive), _, _) => {
                let _ = writeln!(out, "  Permissive: changes may start at any time");
            }
            (Some(Strategy::Restrictive), _, _) => {
                let _ = writeln!(out, "  Restrictive: changes are held indefinitely");
            }
            (Some(Strategy::MaintenanceSchedule), _, false) => {
                let _ = writeln!(out, "  the schedule is invalid: windows cannot be computed");
            }
            (Some(Strategy::MaintenanceSchedule), None, true) => {
                let _ = writeln!(out, "  no maintenanceSchedule: behaves as Restrictive");
            }
            (Some(Strategy::MaintenanceSchedule), Some(s), true) => {
                let windows = s.upcoming(now, count);
                if windows.is_empty() {
                    let _ = writeln!(out, "  no window within 1000 days");
                } else {
                    let _ = writeln!(out, "  next {} window(s):", windows.len());
                    for (a, b) in windows {
                        let mark = if a <= now { "  (open now)" } else { "" };
                        let _ = writeln!(
                            out,
                            "    {} → {}  ({}){mark}",
                            human(a),
                            human(b),
                            duration::show(b - a)
                        );
                    }
                }
            }
        }
        let object = obj.id.to_string();
        for (i, d) in diags.iter().enumerate() {
            if d.object.as_deref() == Some(object.as_str()) {
                shown[i] = true;
                finding(&mut out, d);
            }
        }
    }
    let with_stanza: Vec<_> = model
        .holders
        .iter()
        .filter(|h| h.stanza.is_some())
        .collect();
    if !with_stanza.is_empty() {
        let _ = writeln!(out, "\nStanzas (a material change merged now)");
        for h in with_stanza {
            let Some(st) = &h.stanza else { continue };
            let obj = &inv.objects[h.index];
            let d = decide(model, h, st, now);
            let at = d.at().map(|t| format!(" {}", human(t))).unwrap_or_default();
            let _ = writeln!(
                out,
                "  {}  ({}:{}): {}{at} — {}",
                obj.id,
                obj.path,
                st.key_span.start.line,
                d.state(),
                d.reason()
            );
        }
    }
    let rest: Vec<&Diagnostic> = diags
        .iter()
        .enumerate()
        .filter(|(i, _)| !shown[*i])
        .map(|(_, d)| d)
        .collect();
    if !rest.is_empty() {
        let _ = writeln!(out, "\nOther findings");
        for d in rest {
            finding(&mut out, d);
        }
    }
    let (e, w, i) = diags
        .iter()
        .fold((0, 0, 0), |(e, w, i), d| match d.severity {
            Severity::Error => (e + 1, w, i),
            Severity::Warning => (e, w + 1, i),
            Severity::Info => (e, w, i + 1),
        });
    let _ = writeln!(out, "\n{e} error(s), {w} warning(s), {i} info");
    out
}

fn finding(out: &mut String, d: &Diagnostic) {
    let (line, col) = d
        .location
        .span
        .map_or((0, 0), |s| (s.start.line, s.start.col));
    let _ = writeln!(
        out,
        "  {}:{line}:{col}  {} {}  {}",
        d.location.path, d.severity, d.code, d.message
    );
    if let Some(h) = &d.help {
        let _ = writeln!(out, "      help: {h}");
    }
}
