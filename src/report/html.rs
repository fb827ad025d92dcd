//! The HTML report (`--format html`, `--output-html FILE`): one self-contained page — no script,
//! no stylesheet or font fetched — with the summary, the rollout timeline as inline SVG, the
//! forecast table and every finding with its code frame, for a CI artifact or an e-mail.

use std::fmt::Write;

use super::timeline::{escape, svg};
use super::Texts;
use crate::check::Outcome;
use crate::diagnostic::Severity;

const STYLE: &str = "
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px;color:#1f2328;max-width:1100px}
h1{font-size:20px}h2{font-size:16px;margin-top:28px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}.summary{font-size:16px;font-weight:600;padding:8px 12px;background:#fff8c5;border:1px solid #d4a72c;border-radius:6px}
.summary.calm{background:#dafbe1;border-color:#4ac26b}
.timeline .window{fill:#4ac26b;opacity:.35}.timeline .bar{fill:#cf222e}.timeline text{font-size:12px}
.timeline .axis{fill:#59636e}.timeline .tick{stroke:#d0d7de}.timeline .never{fill:#9a6700}
pre{background:#f6f8fa;padding:8px;overflow-x:auto;font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
.error{color:#cf222e}.warning{color:#9a6700}.info{color:#0969da}.pre{opacity:.6}
";

/// Renders the page.
pub fn render(o: &Outcome) -> String {
    let texts = Texts::new(o);
    let c = super::counts(o);
    let mut out =
        String::from("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    let title = format!("nodecast: {} vs {}", o.head_info.label, o.base_info.label);
    let _ = writeln!(
        out,
        "<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>",
        escape(&title)
    );
    let _ = writeln!(out, "<h1>{}</h1>", escape(&title));
    let disruptive = o
        .forecast
        .iter()
        .filter(|i| super::timeline::disruptive(i))
        .count();
    let _ =
        writeln!(
        out,
        "<p class=\"summary{}\">{} disruptive pool{} · {} error{}, {} warning{}, {} info{}{}</p>",
        if disruptive == 0 && c.errors == 0 { " calm" } else { "" },
        disruptive,
        if disruptive == 1 { "" } else { "s" },
        c.errors,
        if c.errors == 1 { "" } else { "s" },
        c.warnings,
        if c.warnings == 1 { "" } else { "s" },
        c.infos,
        if c.infos == 1 { "" } else { "s" },
        if o.pre_existing > 0 {
            format!(" · {} pre-existing", o.pre_existing)
        } else {
            String::new()
        }
    );

    let _ = writeln!(out, "<h2>Forecast</h2>");
    if !o.has_base {
        let _ = writeln!(
            out,
            "<p>Not forecast: there is no base to compare with.</p>"
        );
    } else if o.forecast.is_empty() && o.unforecast.is_empty() {
        let _ = writeln!(out, "<p>No node impact.</p>");
    } else {
        let timeline = svg(o);
        if !timeline.is_empty() {
            let _ = writeln!(out, "<h3>Rollout timeline (UTC)</h3>\n{timeline}");
        }
        let _ = writeln!(
            out,
            "<table><thead><tr><th>Cluster</th><th>Pool</th><th>Action</th><th>Nodes</th><th>When</th><th>Causes</th></tr></thead><tbody>"
        );
        for i in &o.forecast {
            let t = &i.target;
            let pool = super::pool_label(t);
            let action = super::action_name(i.action);
            let nodes = match (&i.rollout, i.nodes) {
                (Some(r), _) => r.summary.clone(),
                (None, Some(n)) => n.to_string(),
                (None, None) => "unknown".into(),
            };
            let causes: Vec<String> = i
                .causes
                .iter()
                .map(|c| {
                    format!(
                        "<code>{}:{}:{}</code> {}",
                        escape(&c.file),
                        c.line,
                        c.column,
                        escape(&c.summary)
                    )
                })
                .collect();
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td><b>{}</b>{}</td><td>{}</td><td>{}{}</td><td>{}</td></tr>",
                escape(&t.cluster),
                escape(&pool),
                escape(&action),
                if i.drain { ", drained" } else { "" },
                escape(&nodes),
                escape(&i.when.state),
                escape(&format!(": {}", i.when.reason)),
                causes.join("<br>")
            );
        }
        let _ = writeln!(out, "</tbody></table>");
        if !o.unforecast.is_empty() {
            let _ = writeln!(
                out,
                "<p><b>Assume a rollout</b> — node impact not modelled for {} changed object(s):</p><ul>",
                o.unforecast.len()
            );
            for id in &o.unforecast {
                let _ = writeln!(out, "<li><code>{}</code></li>", escape(&id.to_string()));
            }
            let _ = writeln!(out, "</ul>");
        }
    }

    let _ = writeln!(out, "<h2>Findings</h2>");
    if o.diagnostics.is_empty() {
        let _ = writeln!(out, "<p>No finding.</p>");
    }
    for d in &o.diagnostics {
        let class = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        };
        let pre = if d.state.introduced() { "" } else { " pre" };
        let _ = writeln!(
            out,
            "<section class=\"finding{pre}\"><p><b class=\"{class}\">{} {}</b> {} <a href=\"{}\">docs</a></p>\n<pre>{}</pre></section>",
            escape(d.code),
            class,
            escape(&d.message),
            escape(&d.url()),
            escape(&super::human::plain_frame(d, &texts, 110))
        );
    }
    let _ = writeln!(out, "</body>\n</html>");
    out
}
