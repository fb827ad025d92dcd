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

/// GitHub's limit on a pull-request comment (65,536 characters; bytes are a safe bound).
pub const PR_COMMENT_BUDGET: usize = 65_536;

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
            let chart = super::timeline::mermaid(o);
            if !chart.is_empty() {
                let _ = writeln!(out, "### Rollout timeline\n\n{chart}");
            }
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
    if o.pre_existing > 0 {
        let listed = o.diagnostics.iter().any(|d| !d.state.introduced());
        let _ = writeln!(
            out,
            "{} pre-existing finding(s) (the base revision has them too) {}.\n",
            o.pre_existing,
            if listed {
                "are listed below, marked *pre-existing*; they do not fail the check"
            } else {
                "are not shown and do not fail the check; `--all` lists them"
            }
        );
    }
    if o.suppressed > 0 || o.baselined > 0 {
        let _ = writeln!(
            out,
            "Not shown: {} suppressed by comments, {} held by the baseline.\n",
            o.suppressed, o.baselined
        );
    }
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
    let action = super::action_name(i.action);
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
    if d.state == crate::diagnostic::State::PreExisting {
        message.insert_str(0, "*pre-existing:* ");
    }
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
pub(crate) mod tests {
    use super::*;

    use crate::diagnostic::{Diagnostic, Location};
    use crate::forecast::{Action, Cause, Impact, Rollout, Target, When};
    use crate::source::{SnapshotInfo, SourceKind};

    pub(crate) fn outcome(forecast: Vec<Impact>, diagnostics: Vec<Diagnostic>) -> Outcome {
        let info = |label: &str| SnapshotInfo {
            kind: SourceKind::Git,
            rev: None,
            label: label.into(),
        };
        Outcome {
            base_info: info("main"),
            head_info: info("working tree"),
            has_base: true,
            files: Default::default(),
            file_count: 0,
            object_count: 0,
            base: Default::default(),
            head: Default::default(),
            diff: Default::default(),
            forecast,
            unforecast: Vec::new(),
            no_impact: Default::default(),
            diagnostics,
            now: jiff::Timestamp::UNIX_EPOCH,
            now_given: true,
            verbose: false,
            suppressed: 0,
            baselined: 0,
            pre_existing: 0,
            per_node_minutes: 10,
            unevaluated_rules: Vec::new(),
            redaction: Default::default(),
        }
    }

    pub(crate) fn impact() -> Impact {
        Impact {
            target: Target {
                cluster: "HostedCluster/clusters/prod".into(),
                kind: "NodePool".into(),
                namespace: Some("clusters".into()),
                name: "workers".into(),
                scope: String::new(),
            },
            action: Action::Replace,
            drain: true,
            nodes: Some(3),
            causes: vec![Cause {
                object: "NodePool/clusters/workers".into(),
                field: "/spec/release/image".into(),
                file: "clusters/prod/np.yaml".into(),
                line: 12,
                column: 5,
                summary: "release 4.18.5 -> 4.18.9 | x".into(),
            }],
            when: When::now(),
            rollout: Some(Rollout {
                max_surge: Some(1),
                max_unavailable: Some(0),
                waves: Some(3),
                summary: "3 nodes, 1 at a time: 3 waves".into(),
            }),
            fingerprint: None,
        }
    }

    #[test]
    fn forecast_table_comes_first() {
        let md = render(&outcome(vec![impact()], Vec::new()), STEP_SUMMARY_BUDGET);
        assert_eq!(
            md,
            "## nodecast: working tree vs main\n\n### Forecast\n\n\
| Cluster | Pool | Action | Nodes | When | Causes |\n|---|---|---|---|---|---|\n\
| HostedCluster/clusters/prod | NodePool `clusters/workers` | **replace** (drain) | 3 nodes, 1 at a time: 3 waves | now: starts as soon as the change is applied | `clusters/prod/np.yaml:12:5` release 4.18.5 -&gt; 4.18.9 \\| x |\n\n\
### Rollout timeline\n\n```mermaid\ngantt\n    title Rollout timeline (UTC)\n    dateFormat YYYY-MM-DDTHH:mm\n    axisFormat %a %d %H:%M\n    section NodePool clusters/workers (HostedCluster/clusters/prod)\n    replace (3 waves × 10 min) : crit, r0, 1970-01-01T00:00, 30m\n```\n\n\
### Findings\n\n0 error(s), 0 warning(s), 0 info(s) in 0 file(s); 1 disruptive forecast entry.\n\n"
        );
    }

    #[test]
    fn findings_are_cut_at_the_budget_with_a_note() {
        let rule = crate::catalog::find("Y002").expect("Y002");
        let many: Vec<Diagnostic> = (0..500)
            .map(|i| Diagnostic::new(rule, format!("finding {i}"), Location::head_file("a.yaml")))
            .collect();
        let full = render(&outcome(Vec::new(), many.clone()), STEP_SUMMARY_BUDGET);
        assert!(full.contains("finding 499"));
        assert!(full.contains("<details><summary>All 500 finding(s)</summary>"));
        assert!(full.ends_with("</details>\n"));
        let cut = render(&outcome(Vec::new(), many), 8 * 1024);
        assert!(cut.len() <= 8 * 1024, "{}", cut.len());
        assert!(cut.contains("more finding(s) not shown: the summary is limited to 8 KiB"));
        assert!(!cut.contains("finding 499"));
        assert!(cut.ends_with("</details>\n"));
    }

    #[test]
    fn cells_cannot_break_the_table() {
        assert_eq!(cell("a|b\nc <x>"), "a\\|b<br>c &lt;x&gt;");
    }
}
