//! Human output: code frames (miette) for findings, then the changes, the forecast and a summary.

use std::fmt::{self, Write};

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceSpan};

use super::Texts;
use crate::check::Outcome;
use crate::diagnostic::{Diagnostic, Location, Severity, Side, State};
use crate::diff::ChangeKind;
use crate::forecast::Action;

/// Rendering choices.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// ANSI colour.
    pub color: bool,
    /// Terminal width for wrapping.
    pub width: usize,
    /// Findings and the forecast of disruptive or unmodelled changes only (`--quiet`).
    pub quiet: bool,
    /// Unicode frames; ASCII for `TERM=dumb` or a locale that is not UTF-8.
    pub unicode: bool,
}

/// Renders the whole human report.
pub fn render(o: &Outcome, style: Style) -> String {
    let texts = Texts::new(o);
    let mut out = String::new();
    let disruptive =
        o.forecast.iter().any(|i| i.action != Action::None) || !o.unforecast.is_empty();
    // Quiet: nothing at all for a clean change that touches no node.
    if style.quiet && o.diagnostics.is_empty() && !disruptive {
        return out;
    }
    let _ = writeln!(
        out,
        "nodecast: {} vs {}",
        o.head_info.label, o.base_info.label
    );
    let _ = writeln!(out);

    let theme = match (style.color, style.unicode) {
        (true, true) => GraphicalTheme::unicode(),
        (false, true) => GraphicalTheme::unicode_nocolor(),
        (true, false) => GraphicalTheme::ascii(),
        (false, false) => GraphicalTheme::none(),
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_links(false);
    // The most severe first (what fails the check), then by file and position.
    let mut ordered: Vec<&Diagnostic> = o.diagnostics.iter().collect();
    ordered.sort_by_key(|d| std::cmp::Reverse(d.severity));
    for d in ordered {
        let frame = frame(d, &texts);
        let _ = handler.render_report(&mut out, &frame);
        out.push('\n');
    }

    let mut sections = String::new();
    if !style.quiet {
        render_changes(o, &mut sections);
    }
    if !style.quiet || disruptive {
        render_forecast(o, &mut sections);
    }
    for line in sections.lines() {
        wrap_line(line, style.width, &mut out);
    }

    let c = super::counts(o);
    let mut dropped = String::new();
    if o.suppressed > 0 {
        let _ = write!(dropped, ", {} suppressed", o.suppressed);
    }
    if o.baselined > 0 {
        let _ = write!(dropped, ", {} in the baseline", o.baselined);
    }
    let mut pre_existing = String::new();
    if o.pre_existing > 0 {
        let listed = o.diagnostics.iter().any(|d| !d.state.introduced());
        let _ = write!(
            pre_existing,
            "; {} pre-existing {} {}",
            o.pre_existing,
            plural(o.pre_existing, "finding", "findings"),
            if listed {
                "listed above (they do not fail the check)"
            } else {
                "not shown (--all lists them)"
            }
        );
    }
    let _ = writeln!(
        out,
        "{} · {} {}, {} {}, {} {} in {} {} ({} {}{dropped}){pre_existing}",
        impact_summary(o),
        c.errors,
        plural(c.errors, "error", "errors"),
        c.warnings,
        plural(c.warnings, "warning", "warnings"),
        c.infos,
        plural(c.infos, "info", "infos"),
        c.files,
        plural(c.files, "file", "files"),
        c.objects,
        plural(c.objects, "object", "objects"),
    );
    out
}

/// One finding's code frame as plain text (no colour), for reports that embed frames.
pub fn plain_frame(d: &Diagnostic, texts: &Texts, width: usize) -> String {
    let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(width)
        .with_links(false);
    let mut out = String::new();
    let _ = handler.render_report(&mut out, &frame(d, texts));
    out
}

/// Writes a line wrapped at `width` columns on spaces, continuation lines indented past the lines
/// nested under it (payload diff lines, `│ …`, are left whole: they are file content).
fn wrap_line(line: &str, width: usize, out: &mut String) {
    let indent = line.len() - line.trim_start().len();
    if line.chars().count() <= width || line.trim_start().starts_with('│') {
        out.push_str(line);
        out.push('\n');
        return;
    }
    // Deeper than the lines nested under this one (pool or object lines sit at 2, theirs at 6).
    let hanging = " ".repeat(if indent < 4 { indent + 6 } else { indent + 4 });
    let mut current = String::from(&line[..indent]);
    let mut len = indent;
    let mut first_word = true;
    for word in line[indent..].split(' ') {
        let w = word.chars().count();
        if !first_word && len + 1 + w > width {
            out.push_str(current.trim_end());
            out.push('\n');
            current = hanging.clone();
            len = hanging.len();
            first_word = true;
        }
        if !first_word {
            current.push(' ');
            len += 1;
        }
        current.push_str(word);
        len += w;
        first_word = false;
    }
    out.push_str(current.trim_end());
    out.push('\n');
}

/// What the change does to nodes, in the summary line a tired reader sees first:
/// `2 pools reboot, 1 NodePool replaced`, or `no node impact`.
pub fn impact_summary(o: &Outcome) -> String {
    if !o.has_base {
        return "not forecast (no base)".into();
    }
    let order = [
        Action::Unknown,
        Action::Blocked,
        Action::Replace,
        Action::InPlace,
        Action::Reboot,
        Action::Drain,
        Action::Restart,
        Action::Reload,
    ];
    let mut parts: Vec<String> = Vec::new();
    for action in order {
        let entries: Vec<&crate::forecast::Impact> =
            o.forecast.iter().filter(|i| i.action == action).collect();
        let n = entries.len();
        if n == 0 {
            continue;
        }
        let node_pools = entries.iter().all(|i| i.target.kind == "NodePool");
        let noun = match (node_pools, n) {
            (true, 1) => "NodePool",
            (true, _) => "NodePools",
            (false, 1) => "pool",
            (false, _) => "pools",
        };
        let s = if n == 1 { "s" } else { "" };
        let verb = match action {
            Action::Unknown => "cannot be read: assume a rollout".to_string(),
            Action::Blocked => "blocked".to_string(),
            Action::Replace => "replaced".to_string(),
            Action::InPlace => "updated in place".to_string(),
            Action::Reboot => format!("reboot{s}"),
            Action::Drain => format!("drain{s}"),
            Action::Restart => format!("restart{s} a service"),
            Action::Reload => format!("reload{s} a service"),
            Action::None => String::new(),
        };
        parts.push(format!("{n} {noun} {verb}"));
    }
    if !o.unforecast.is_empty() {
        let n = o.unforecast.len();
        parts.push(format!(
            "{n} {} not modelled (assume a rollout)",
            plural(n, "change", "changes")
        ));
    }
    if parts.is_empty() {
        "no node impact".into()
    } else {
        parts.join(", ")
    }
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

fn position(loc: &Location) -> String {
    match loc.span {
        Some(s) => format!("{}:{}:{}", loc.path, s.start.line, s.start.col),
        None => loc.path.clone(),
    }
}

fn render_changes(o: &Outcome, out: &mut String) {
    if !o.has_base {
        let _ = writeln!(out, "Changes\n  not compared (no base)\n");
        return;
    }
    let _ = writeln!(out, "Changes");
    if o.diff.changes.is_empty() && o.diff.moved.is_empty() && o.diff.unreadable.is_empty() {
        let _ = writeln!(out, "  no object changed\n");
        return;
    }
    for u in &o.diff.unreadable {
        let _ = writeln!(
            out,
            "  ? {}  cannot read ({}): node impact unknown",
            u.path,
            u.reason()
        );
    }
    for c in &o.diff.changes {
        let (mark, obj) = match c.kind {
            ChangeKind::Added => ("+", c.head.map(|i| &o.head.objects[i])),
            // A head object of a removal is a deletion a wrapper demands (ACM `mustnothave`).
            ChangeKind::Removed => (
                "-",
                c.head
                    .map(|i| &o.head.objects[i])
                    .or_else(|| c.base.map(|i| &o.base.objects[i])),
            ),
            ChangeKind::Changed => ("~", c.head.map(|i| &o.head.objects[i])),
            ChangeKind::Unreadable => (
                "?",
                c.head
                    .map(|i| &o.head.objects[i])
                    .or_else(|| c.base.map(|i| &o.base.objects[i])),
            ),
        };
        let mut path = obj.map(|x| x.path.to_string()).unwrap_or_default();
        if let Some(origin) = obj.map(|x| x.origin.describe()).filter(|d| !d.is_empty()) {
            path = format!("{path}, {origin}");
        }
        let _ = writeln!(out, "  {mark} {}  ({path})", c.id);
        if let Some(n) = o.no_impact.get(&c.id).filter(|n| n.specific) {
            let _ = writeln!(out, "      no node impact: {}", n.why);
        }
        for f in c.fields.iter().take(12) {
            let at = match (&f.head, &f.base, &f.after) {
                (Some(h), _, Some(_)) => position(h),
                (_, Some(b), None) => format!("{} (base)", position(b)),
                (Some(h), _, None) => position(h),
                _ => String::new(),
            };
            let what = match (&f.before, &f.after, &f.text_diff) {
                (_, _, Some(diff)) => {
                    let added = diff
                        .lines()
                        .filter(|l| l.starts_with('+') && !l.starts_with("+++"))
                        .count();
                    let removed = diff
                        .lines()
                        .filter(|l| l.starts_with('-') && !l.starts_with("---"))
                        .count();
                    if f.before
                        .as_deref()
                        .is_some_and(|b| b.starts_with("\"data:"))
                    {
                        format!("file content changed (+{added} −{removed} lines)")
                    } else {
                        format!("text changed (+{added} −{removed} lines)")
                    }
                }
                (b, a, None) => match (b, a) {
                    (Some(b), Some(a)) => format!("{b} → {a}"),
                    (None, Some(a)) => format!("added {a}"),
                    (Some(b), None) => format!("removed {b}"),
                    (None, None) => String::new(),
                },
            };
            let _ = writeln!(out, "      {}  {what}  [{at}]", display_path(&f.path));
            let detailed_below = c
                .fields
                .iter()
                .any(|g| g.path.starts_with(&format!("{}[", f.path)));
            if let (Some(diff), false) = (&f.text_diff, detailed_below) {
                write_text_diff(out, diff);
            }
        }
        if c.fields.len() > 12 {
            let _ = writeln!(
                out,
                "      … and {} more fields (see --format json)",
                c.fields.len() - 12
            );
        }
    }
    for (id, from, to) in &o.diff.moved {
        let _ = writeln!(out, "  = {id}  moved {from} → {to} (unchanged)");
    }
    let _ = writeln!(out);
}

/// The changed lines of a payload diff, indented, at most 20 lines.
fn write_text_diff(out: &mut String, diff: &str) {
    let lines: Vec<&str> = diff
        .lines()
        .filter(|l| !l.starts_with("---") && !l.starts_with("+++"))
        .collect();
    for l in lines.iter().take(20) {
        let _ = writeln!(out, "        │ {l}");
    }
    if lines.len() > 20 {
        let _ = writeln!(
            out,
            "        │ … {} more lines (see --format json)",
            lines.len() - 20
        );
    }
}

fn display_path(p: &str) -> &str {
    if p.is_empty() {
        "(whole object)"
    } else {
        p
    }
}

/// Why nothing reaches a node, for the Forecast section's "no node impact": the kinds that are no
/// node configuration at all (each specific reason is printed beside its change).
fn why_no_impact(o: &Outcome) -> String {
    let kinds: std::collections::BTreeSet<&str> = o
        .no_impact
        .iter()
        .filter(|(_, n)| !n.specific)
        .map(|(id, _)| id.kind.as_str())
        .collect();
    let specific = o.no_impact.values().filter(|n| n.specific).count();
    let mut parts = Vec::new();
    if !kinds.is_empty() {
        let kinds: Vec<&str> = kinds.into_iter().collect();
        parts.push(format!(
            "{} {} no node configuration (not read by the MCO, the Node Tuning Operator or the NodePool controller)",
            kinds.join(", "),
            if kinds.len() == 1 { "is" } else { "are" }
        ));
    }
    if specific > 0 {
        parts.push(format!(
            "{specific} changed {} no node (why: under Changes)",
            plural(specific, "object reaches", "objects reach")
        ));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(": {}", parts.join("; "))
    }
}

fn render_forecast(o: &Outcome, out: &mut String) {
    let _ = writeln!(out, "Forecast");
    if !o.has_base {
        let _ = writeln!(out, "  not forecast (no base to compare with)\n");
        return;
    }
    if o.forecast.is_empty() && o.unforecast.is_empty() {
        let _ = writeln!(out, "  no node impact{}\n", why_no_impact(o));
        return;
    }
    for i in &o.forecast {
        let _ = writeln!(out, "  {}", forecast_line(i));
        for c in &i.causes {
            let _ = writeln!(out, "      {}", cause_line(o, c));
        }
        if let Some(when) = when_line(i) {
            let _ = writeln!(out, "      {when}");
        }
        if let (true, Some(fp)) = (o.verbose, &i.fingerprint) {
            let _ = writeln!(
                out,
                "      fingerprint: {} → {}",
                fp.base.as_deref().unwrap_or("-"),
                fp.head.as_deref().unwrap_or("-")
            );
        }
    }
    if !o.unforecast.is_empty() {
        let _ = writeln!(
            out,
            "  node impact not yet modelled for {} changed object(s) that can affect nodes; assume a rollout:",
            o.unforecast.len()
        );
        for id in &o.unforecast {
            match id.scope.as_str() {
                "" => {
                    let _ = writeln!(out, "    {id}");
                }
                scope => {
                    let _ = writeln!(out, "    {id}  ({scope})");
                }
            }
        }
    }
    let _ = writeln!(out);
}

/// One forecast entry in a line: `MachineConfigPool worker  [cluster]  reboot, drained — 6
/// nodes, 1 at a time: 6 waves — window 2026-11-21T02:00:00Z` (the report's Forecast section and
/// the editor's hover say it the same way).
pub fn forecast_line(i: &crate::forecast::Impact) -> String {
    let name = match &i.target.namespace {
        Some(ns) => format!("{ns}/{}", i.target.name),
        None => i.target.name.clone(),
    };
    let shape = match (&i.rollout, i.nodes) {
        (Some(r), _) => r.summary.clone(),
        (None, Some(n)) => format!("{n} {}", plural(n as usize, "node", "nodes")),
        (None, None) => "all nodes in the pool".to_string(),
    };
    let when = match (&i.when.at, i.when.state.as_str()) {
        (Some(at), state) => format!("{state} {at}"),
        (None, state) => state.to_string(),
    };
    let drain = if i.drain { ", drained" } else { "" };
    format!(
        "{} {}  [{}]  {}{drain} — {shape} — {when}",
        i.target.kind,
        name,
        i.target.cluster,
        super::action_name(i.action),
    )
}

/// One cause of a forecast entry: `file:line:col  what changed` (a file the change deletes is
/// marked: the place is in the base revision).
pub fn cause_line(o: &Outcome, c: &crate::forecast::Cause) -> String {
    let gone = o.has_base
        && !c.file.is_empty()
        && !o.files.head.iter().any(|f| *f.path == *c.file)
        && o.files.base.iter().any(|f| *f.path == *c.file);
    format!(
        "{}:{}:{}{}  {}",
        c.file,
        c.line,
        c.column,
        if gone {
            " (deleted file, base revision)"
        } else {
            ""
        },
        c.summary
    )
}

/// `when: …` when the entry does not simply start once the change is applied.
pub fn when_line(i: &crate::forecast::Impact) -> Option<String> {
    (i.when.state != "now" || i.when.reason != crate::forecast::When::now().reason)
        .then(|| format!("when: {}", i.when.reason))
}

/// What a finding's frame says under it: the help, the notes, and whether the base revision has
/// it too (the editor's diagnostics carry the same lines).
pub fn help_lines(d: &Diagnostic) -> Vec<String> {
    let mut help = d.help.clone().map(|h| vec![h]).unwrap_or_default();
    help.extend(d.notes.iter().map(|n| format!("note: {n}")));
    match d.state {
        State::PreExisting => help.push(
            "note: pre-existing: the base revision has this finding too; it does not fail the check"
                .into(),
        ),
        State::Changed => help.push(
            "note: the base revision has this finding too, and this change edits the place it points at"
                .into(),
        ),
        State::New => {}
    }
    help
}

/// A finding as miette wants it.
#[derive(Debug)]
struct Frame {
    message: String,
    code: Option<String>,
    severity: miette::Severity,
    source: Option<NamedSource<String>>,
    labels: Vec<LabeledSpan>,
    help: Option<String>,
    related: Vec<Frame>,
}

impl fmt::Display for Frame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Frame {}

impl miette::Diagnostic for Frame {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.code
            .as_ref()
            .map(|c| Box::new(c) as Box<dyn fmt::Display>)
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.labels.is_empty() {
            None
        } else {
            Some(Box::new(self.labels.iter().cloned()))
        }
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.related.is_empty() {
            None
        } else {
            Some(Box::new(
                self.related.iter().map(|r| r as &dyn miette::Diagnostic),
            ))
        }
    }
}

fn source_span(loc: &Location) -> Option<SourceSpan> {
    loc.span.map(|s| {
        SourceSpan::new(
            s.start.offset.into(),
            s.end.offset.saturating_sub(s.start.offset),
        )
    })
}

fn source_name(loc: &Location) -> String {
    match loc.side {
        Side::Head => loc.path.clone(),
        Side::Base => format!("{} (base)", loc.path),
    }
}

/// Widest column a code frame is drawn to: beyond it (a minified JSON file, a long data URL) the
/// finding is shown with its position only. Found by the `check` fuzz target: miette pads the
/// underline with a width format argument, which panics past 65,535 columns.
const MAX_FRAME_COLUMN: u32 = 4096;

fn frameable(loc: &Location) -> bool {
    loc.span
        .is_some_and(|s| s.start.col <= MAX_FRAME_COLUMN && s.end.col <= MAX_FRAME_COLUMN)
}

fn frame(d: &Diagnostic, texts: &Texts) -> Frame {
    let text = texts.get(d.location.side, &d.location.path);
    let framed = text.is_some() && frameable(&d.location);
    let mut labels = Vec::new();
    let mut related = Vec::new();
    if let (true, Some(span)) = (framed, source_span(&d.location)) {
        labels.push(LabeledSpan::new_primary_with_span(d.label.clone(), span));
    }
    for r in &d.related {
        let same_source = r.location.side == d.location.side && r.location.path == d.location.path;
        let span = source_span(&r.location).filter(|_| frameable(&r.location));
        match (same_source && framed, span) {
            (true, Some(span)) => {
                labels.push(LabeledSpan::new_with_span(Some(r.message.clone()), span))
            }
            _ => {
                let rspan = source_span(&r.location).filter(|_| frameable(&r.location));
                let rtext = texts
                    .get(r.location.side, &r.location.path)
                    .filter(|_| rspan.is_some());
                related.push(Frame {
                    message: match (&rtext, &rspan) {
                        (Some(_), Some(_)) => r.message.clone(),
                        _ => format!("{}: {}", position(&r.location), r.message),
                    },
                    code: None,
                    severity: miette::Severity::Advice,
                    source: rtext
                        .clone()
                        .map(|t| NamedSource::new(source_name(&r.location), t.to_string())),
                    labels: rspan
                        .filter(|_| rtext.is_some())
                        .map(|s| LabeledSpan::new_with_span(Some(r.message.clone()), s))
                        .into_iter()
                        .collect(),
                    help: None,
                    related: Vec::new(),
                });
            }
        }
    }
    let mut help = help_lines(d);
    // The docs line comes before the state note, as it always has.
    let at = d.help.iter().count() + d.notes.len();
    help.insert(at, format!("docs: nodecast explain {}", d.code));
    let message = if framed {
        format!("{} {}", d.code, d.message)
    } else {
        format!("{} {}: {}", d.code, position(&d.location), d.message)
    };
    Frame {
        message,
        code: None,
        severity: match d.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        },
        source: if framed {
            text.map(|t| NamedSource::new(source_name(&d.location), t.to_string()))
        } else {
            None
        },
        labels,
        help: Some(help.join("\n")),
        related,
    }
}
