//! GitHub Actions output (workflow commands, step summary and outputs): workflow-command annotations, most severe and
//! changed lines first, capped per level with a line saying how many were left out; the step
//! summary and step outputs.

use std::fmt::Write;
use std::io::Write as _;
use std::path::Path;

use super::Texts;
use crate::check::Outcome;
use crate::diagnostic::{Diagnostic, Severity, Side};
use crate::Fatal;

/// GitHub shows at most this many annotations of one level per step.
pub const MAX_PER_LEVEL: usize = 10;

/// Renders the annotations and a short log summary.
pub fn render(o: &Outcome) -> String {
    let texts = Texts::new(o);
    let mut order: Vec<&Diagnostic> = o.diagnostics.iter().collect();
    order.sort_by_key(|d| (std::cmp::Reverse(d.severity), !on_changed_line(o, d)));
    let mut out = String::new();
    let mut shown = [0usize; 3];
    let mut omitted = [0usize; 3];
    for d in order {
        let i = if d.state.introduced() {
            d.severity as usize
        } else {
            Severity::Info as usize
        };
        if shown[i] >= MAX_PER_LEVEL {
            omitted[i] += 1;
            continue;
        }
        shown[i] += 1;
        out.push_str(&annotation(d, &texts));
        out.push('\n');
    }
    // Rollouts are annotated on the lines that cause them, beside the findings.
    for (level, text) in rollout_annotations(o) {
        let i = level as usize;
        if shown[i] >= MAX_PER_LEVEL {
            omitted[i] += 1;
            continue;
        }
        shown[i] += 1;
        out.push_str(&text);
        out.push('\n');
    }
    let left_out: Vec<String> = [
        (Severity::Error, "error"),
        (Severity::Warning, "warning"),
        (Severity::Info, "notice"),
    ]
    .iter()
    .filter(|(s, _)| omitted[*s as usize] > 0)
    .map(|(s, name)| {
        let n = omitted[*s as usize];
        format!("{n} {name}{}", if n == 1 { "" } else { "s" })
    })
    .collect();
    if !left_out.is_empty() {
        let _ = writeln!(
            out,
            "nodecast: {} not annotated (GitHub shows {MAX_PER_LEVEL} annotations per level and step); the step summary lists every finding",
            left_out.join(", ")
        );
    }
    let c = super::counts(o);
    let _ = writeln!(
        out,
        "nodecast: {} error(s), {} warning(s), {} info(s); {} disruptive forecast entr{}{}",
        c.errors,
        c.warnings,
        c.infos,
        c.disruptive,
        if c.disruptive == 1 { "y" } else { "ies" },
        pre_existing_note(o)
    );
    out
}

/// One annotation per cause line of every forecast entry that touches nodes (a `blocked` pool is
/// an error, a replacement, update, reboot or drain a warning, a service restart a notice), and
/// one per changed object whose node impact is not modelled (a warning: assume a rollout).
fn rollout_annotations(o: &Outcome) -> Vec<(Severity, String)> {
    use crate::forecast::Action;
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for i in &o.forecast {
        let (level, command) = match i.action {
            Action::None => continue,
            Action::Blocked => (Severity::Error, "error"),
            Action::Restart | Action::Reload => (Severity::Info, "notice"),
            _ => (Severity::Warning, "warning"),
        };
        let pool = super::pool_label(&i.target);
        let action = super::action_name(i.action);
        for c in &i.causes {
            if c.line == 0 || !seen.insert((pool.clone(), c.file.clone(), c.line)) {
                continue;
            }
            let title = format!("nodecast rollout: {pool} {action} ({})", i.target.cluster);
            let message = format!(
                "{}\n{pool}: {action}{}; when: {} ({})",
                c.summary,
                if i.drain { ", drained" } else { "" },
                i.when.state,
                i.when.reason
            );
            out.push((
                level,
                format!(
                    "::{command} file={},line={},col={},title={}::{}",
                    escape_property(&c.file),
                    c.line,
                    c.column.max(1),
                    escape_property(&title),
                    escape_data(&message)
                ),
            ));
        }
    }
    for id in &o.unforecast {
        let place = o
            .diff
            .changes
            .iter()
            .find(|c| &c.id == id)
            .and_then(|c| c.fields.iter().find_map(|f| f.head.clone()));
        let Some(loc) = place else { continue };
        let line = loc.span.map_or(1, |s| s.start.line.max(1));
        out.push((
            Severity::Warning,
            format!(
                "::warning file={},line={line},title={}::{}",
                escape_property(&loc.path),
                escape_property("nodecast rollout: not modelled"),
                escape_data(&format!(
                    "{id} changed and nodecast does not model its node impact: assume a rollout"
                ))
            ),
        ));
    }
    out
}

/// "; N pre-existing finding(s) not shown" for the log lines and summaries.
pub(crate) fn pre_existing_note(o: &Outcome) -> String {
    if o.pre_existing == 0 {
        return String::new();
    }
    let listed = o.diagnostics.iter().any(|d| !d.state.introduced());
    format!(
        "; {} pre-existing finding(s) {}",
        o.pre_existing,
        if listed {
            "listed as notices"
        } else {
            "not shown (`--all` lists them)"
        }
    )
}

/// Whether the finding sits on a field the change touched (GitHub shows those in the diff).
fn on_changed_line(o: &Outcome, d: &Diagnostic) -> bool {
    let Some(span) = d.location.span else {
        return false;
    };
    o.diff.changes.iter().any(|c| {
        c.fields.iter().any(|f| {
            let loc = match d.location.side {
                Side::Head => &f.head,
                Side::Base => &f.base,
            };
            loc.as_ref().is_some_and(|l| {
                l.path == d.location.path
                    && l.span.is_some_and(|s| {
                        s.start.line <= span.end.line && span.start.line <= s.end.line
                    })
            })
        }) || (c.fields.is_empty()
            && c.head
                .is_some_and(|i| *o.head.objects[i].path == *d.location.path))
    })
}

/// Escapes a workflow-command message.
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow-command property value.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One `::error file=…::message` line.
pub fn annotation(d: &Diagnostic, texts: &Texts) -> String {
    // A pre-existing finding (listed with --all) is a notice: the change did not bring it.
    let command = match (d.severity, d.state.introduced()) {
        (_, false) | (Severity::Info, _) => "notice",
        (Severity::Error, true) => "error",
        (Severity::Warning, true) => "warning",
    };
    let mut props = vec![format!("file={}", escape_property(&d.location.path))];
    if let Some((sl, sc, el, ec)) = super::sarif::region(&d.location, texts) {
        props.push(format!("line={sl}"));
        if sl == el {
            props.push(format!("col={sc}"));
            props.push(format!("endLine={el}"));
            props.push(format!("endColumn={ec}"));
        } else {
            props.push(format!("endLine={el}"));
        }
    }
    props.push(format!(
        "title={}",
        escape_property(&match d.state {
            crate::diagnostic::State::PreExisting => format!("nodecast ({}, pre-existing)", d.code),
            _ => format!("nodecast ({})", d.code),
        })
    ));
    let mut message = d.message.clone();
    if d.location.side == Side::Base {
        message.push_str(" (in the base revision)");
    }
    if let Some(help) = &d.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    message.push_str(&format!("\ndocs: {}", d.url()));
    format!("::{command} {}::{}", props.join(","), escape_data(&message))
}

/// Appends text to a file named by the runner (`GITHUB_STEP_SUMMARY`, `GITHUB_OUTPUT`).
pub fn append(path: &Path, text: &str) -> Result<(), Fatal> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| {
            Fatal::new(
                format!("cannot append to {}: {e}", path.display()),
                "check GITHUB_STEP_SUMMARY / GITHUB_OUTPUT point at writable files",
            )
        })
}

/// Step outputs as `name=value` lines: errors, warnings, infos, findings, disruptive (forecast
/// entries that disrupt nodes plus changes whose impact is not modelled yet, assumed disruptive),
/// unmodelled.
pub fn outputs(o: &Outcome) -> String {
    let c = super::counts(o);
    format!(
        "errors={}\nwarnings={}\ninfos={}\nfindings={}\ndisruptive={}\nunmodelled={}\n",
        c.errors,
        c.warnings,
        c.infos,
        c.errors + c.warnings + c.infos,
        c.disruptive + o.unforecast.len(),
        o.unforecast.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::diagnostic::Location;
    use nodecast_yaml::{Pos, Span};

    fn span(l1: u32, c1: u32, l2: u32, c2: u32) -> Span {
        Span {
            start: Pos {
                offset: 0,
                line: l1,
                col: c1,
            },
            end: Pos {
                offset: 10,
                line: l2,
                col: c2,
            },
        }
    }

    #[test]
    fn annotations_drop_columns_when_multi_line() {
        let rule = crate::catalog::find("Y002").expect("Y002");
        let one = Diagnostic::new(
            rule,
            "dup: a, b",
            Location::head("a,b.yaml", span(5, 3, 5, 7)),
        )
        .help("remove one");
        assert_eq!(
            annotation(&one, &Texts::default()),
            "::error file=a%2Cb.yaml,line=5,col=3,endLine=5,endColumn=7,title=nodecast (Y002)::dup: a, b%0Ahelp: remove one%0Adocs: https://github.com/nodecast/nodecast/blob/main/rules/Y002.md"
        );
        let multi = Diagnostic::new(rule, "m", Location::head("x.yaml", span(5, 3, 7, 2)))
            .severity(Severity::Info);
        assert_eq!(
            annotation(&multi, &Texts::default()),
            "::notice file=x.yaml,line=5,endLine=7,title=nodecast (Y002)::m%0Adocs: https://github.com/nodecast/nodecast/blob/main/rules/Y002.md"
        );
        let file =
            Diagnostic::new(rule, "f", Location::head_file("b.yaml")).severity(Severity::Warning);
        assert!(annotation(&file, &Texts::default())
            .starts_with("::warning file=b.yaml,title=nodecast (Y002)::f"));
    }

    #[test]
    fn escaping_follows_the_workflow_command_rules() {
        assert_eq!(escape_data("50% a\r\nb"), "50%25 a%0D%0Ab");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
    }
}
