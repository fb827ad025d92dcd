//! GitHub-flavoured Markdown summary (step summary, PR comment): the forecast table first, then
//! every finding in a collapsible block, within a size budget.

use std::fmt::Write;

use super::sarif::region;
use super::Texts;
use crate::check::Outcome;
use crate::diagnostic::{Diagnostic, Side};
use crate::forecast::Impact;

/// GitHub's limit on one step summary (over it the upload fails).
pub const STEP_SUMMARY_BUDGET: usize = 1024 * 1024;

/// Renders the summary; when it would exceed `budget` bytes, findings are cut with a note.
pub fn render(o: &Outcome, budget: usize) -> String {
    let texts = Texts::new(o);
    let c = super::counts(o);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## nodecast: {} vs {}\n",
        cell(&o.head_info.label),
        cell(&o.base_info.label)
    );
    let _ = writeln!(out, "### Forecast\n");
    if !o.has_base {
        let _ = writeln!(out, "Not forecast: there is no base to compare with.\n");
    } else if o.forecast.is_empty() && o.unforecast.is_empty() {
        let _ = writeln!(out, "No node impact.\n");
    } else {
        if !o.forecast.is_empty() {
            let _ = writeln!(out, "| Cluster | Pool | Action | Nodes | When | Causes |");
            let _ = writeln!(out, "|---|---|---|---|---|---|");
            for i in &o.forecast {
                out.push_str(&forecast_row(i));
            }
            out.push('\n');
        }
        if !o.unforecast.is_empty() {
            let _ = writeln!(
                out,
                "Node impact not yet modelled for {} changed object(s) that can affect nodes; **assume a rollout**:\n",
                o.unforecast.len()
            );
            for id in &o.unforecast {
                let _ = writeln!(out, "- `{}`", cell(&id.to_string()));
            }
            out.push('\n');
        }
    }
    let _ = writeln!(
        out,
        "### Findings\n\n{} error(s), {} warning(s), {} info(s) in {} file(s); {} disruptive forecast entr{}.\n",
        c.errors,
        c.warnings,
        c.infos,
        c.files,
        c.disruptive,
        if c.disruptive == 1 { "y" } else { "ies" }
    );
    if o.diagnostics.is_empty() {
        return out;
    }
    let _ = writeln!(
        out,
        "<details><summary>All {} finding(s)</summary>\n\n| Severity | Code | Location | Message |\n|---|---|---|---|",
        o.diagnostics.len()
    );
    let closing = "\n</details>\n";
    // Room for the closing tag and a truncation note.
    let reserve = closing.len() + 200;
    for (n, d) in o.diagnostics.iter().enumerate() {
        let row = finding_row(d, &texts);
        if out.len() + row.len() + reserve > budget {
            let _ = writeln!(
                out,
                "\n*{} more finding(s) not shown: the summary is limited to {} KiB. Run `nodecast check --format json` for all of them.*",
                o.diagnostics.len() - n,
                budget / 1024
            );
            break;
        }
        out.push_str(&row);
    }
    out.push_str(closing);
    out
}

fn forecast_row(i: &Impact) -> String {
    let pool = match &i.target.namespace {
        Some(ns) => format!("{} `{ns}/{}`", i.target.kind, i.target.name),
        None => format!("{} `{}`", i.target.kind, i.target.name),
    };
    let action = serde_json::to_value(i.action)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    let action = if i.drain {
        format!("**{action}** (drain)")
    } else {
        format!("**{action}**")
    };
    let nodes = match (&i.rollout, i.nodes) {
        (Some(r), _) => r.summary.clone(),
        (None, Some(n)) => n.to_string(),
        (None, None) => "all".to_string(),
    };
    let when = match &i.when.at {
        Some(at) => format!("{} {at}: {}", i.when.state, i.when.reason),
        None => format!("{}: {}", i.when.state, i.when.reason),
    };
    let causes: Vec<String> = i
        .causes
        .iter()
        .map(|c| format!("`{}:{}:{}` {}", c.file, c.line, c.column, cell(&c.summary)))
        .collect();
    format!(
        "| {} | {} | {} | {} | {} | {} |\n",
        cell(&i.target.cluster),
        pool,
        action,
        cell(&nodes),
        cell(&when),
        causes.join("<br>")
    )
}

fn finding_row(d: &Diagnostic, texts: &Texts) -> String {
    let at = match region(&d.location, texts) {
        Some((l, c, _, _)) => format!("{}:{l}:{c}", d.location.path),
        None => d.location.path.clone(),
    };
    let at = match d.location.side {
        Side::Head => at,
        Side::Base => format!("{at} (base)"),
    };
    let mut message = cell(&d.message);
    if let Some(help) = &d.help {
        message.push_str(&format!("<br>help: {}", cell(help)));
    }
    format!(
        "| {} | [{}]({}) | `{}` | {} |\n",
        d.severity,
        d.code,
        d.url(),
        at.replace('`', "'"),
        message
    )
}

/// Makes text safe inside a table cell: no line breaks, no cell separators, no raw HTML.
fn cell(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('|', "\\|")
        .replace("\r\n", "<br>")
        .replace('\n', "<br>")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_cannot_break_the_table() {
        assert_eq!(cell("a|b\nc <x>"), "a\\|b<br>c &lt;x&gt;");
    }
}
