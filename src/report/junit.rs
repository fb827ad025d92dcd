//! JUnit XML (`--format junit`) for GitLab's and Jenkins' test reports: a `forecast` suite with
//! one test case per pool the change reaches (a pool the controller refuses to roll is a failure;
//! the others pass and say what happens to their nodes) and a `findings` suite with one test case
//! per finding (each a failure of its severity; pre-existing ones, listed with `--all`, skipped).

use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;

use crate::check::Outcome;
use crate::diagnostic::Diagnostic;
use crate::forecast::{Action, Impact};

/// Renders the document.
pub fn render(o: &Outcome) -> String {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    let findings: Vec<&Diagnostic> = o.diagnostics.iter().collect();
    let pool_failures = o
        .forecast
        .iter()
        .filter(|i| i.action == Action::Blocked)
        .count();
    let finding_failures = findings.iter().filter(|d| d.state.introduced()).count();
    let unforecast = o.unforecast.len();
    let total = o.forecast.len() + unforecast + findings.len();
    let _ = w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)));
    let root = BytesStart::new("testsuites").with_attributes([
        ("name", "nodecast"),
        ("tests", total.to_string().as_str()),
        (
            "failures",
            (pool_failures + finding_failures).to_string().as_str(),
        ),
    ]);
    let _ = w.write_event(Event::Start(root));

    let suite = BytesStart::new("testsuite").with_attributes([
        ("name", "forecast"),
        (
            "tests",
            (o.forecast.len() + unforecast).to_string().as_str(),
        ),
        ("failures", pool_failures.to_string().as_str()),
        ("skipped", "0"),
    ]);
    let _ = w.write_event(Event::Start(suite));
    for i in &o.forecast {
        pool_case(&mut w, i);
    }
    for id in &o.unforecast {
        let name = format!("{id}: not modelled; assume a rollout");
        let case = BytesStart::new("testcase").with_attributes([
            ("classname", "forecast.unmodelled"),
            ("name", name.as_str()),
        ]);
        let _ = w.write_event(Event::Start(case));
        text_element(
            &mut w,
            "system-out",
            "nodecast cannot judge this change's node impact: assume a rollout",
        );
        let _ = w.write_event(Event::End(BytesEnd::new("testcase")));
    }
    let _ = w.write_event(Event::End(BytesEnd::new("testsuite")));

    let suite = BytesStart::new("testsuite").with_attributes([
        ("name", "findings"),
        ("tests", findings.len().to_string().as_str()),
        ("failures", finding_failures.to_string().as_str()),
        (
            "skipped",
            (findings.len() - finding_failures).to_string().as_str(),
        ),
    ]);
    let _ = w.write_event(Event::Start(suite));
    for d in findings {
        finding_case(&mut w, d);
    }
    let _ = w.write_event(Event::End(BytesEnd::new("testsuite")));
    let _ = w.write_event(Event::End(BytesEnd::new("testsuites")));
    let mut out = String::from_utf8_lossy(&w.into_inner()).into_owned();
    out.push('\n');
    out
}

fn pool_case(w: &mut Writer<Vec<u8>>, i: &Impact) {
    let t = &i.target;
    let pool = super::pool_label(t);
    let action = super::action_name(i.action);
    let name = format!("{pool}: {action}");
    let classname = format!("forecast.{}", t.cluster);
    let file = i.causes.first().map(|c| c.file.clone()).unwrap_or_default();
    let case = BytesStart::new("testcase").with_attributes([
        ("classname", classname.as_str()),
        ("name", name.as_str()),
        ("file", file.as_str()),
    ]);
    let _ = w.write_event(Event::Start(case));
    let mut detail = format!(
        "{action}{}, {} — when: {} ({})\n",
        if i.drain { ", drained" } else { "" },
        i.nodes.map_or_else(
            || "node count unknown".to_string(),
            |n| format!("{n} node(s)")
        ),
        i.when.state,
        i.when.reason
    );
    for c in &i.causes {
        detail.push_str(&format!(
            "{}:{}:{} {}\n",
            c.file, c.line, c.column, c.summary
        ));
    }
    if i.action == Action::Blocked {
        let failure = BytesStart::new("failure").with_attributes([
            ("type", "blocked"),
            (
                "message",
                "the controller refuses the new configuration: nothing rolls until it is fixed",
            ),
        ]);
        let _ = w.write_event(Event::Start(failure));
        let _ = w.write_event(Event::Text(BytesText::new(&detail)));
        let _ = w.write_event(Event::End(BytesEnd::new("failure")));
    } else {
        text_element(w, "system-out", &detail);
    }
    let _ = w.write_event(Event::End(BytesEnd::new("testcase")));
}

fn finding_case(w: &mut Writer<Vec<u8>>, d: &Diagnostic) {
    let at = match d.location.span {
        Some(s) => format!("{}:{}:{}", d.location.path, s.start.line, s.start.col),
        None => d.location.path.clone(),
    };
    let name = format!("{} {at}", d.code);
    let classname = format!("findings.{}", d.code);
    let line = d
        .location
        .span
        .map(|s| s.start.line.to_string())
        .unwrap_or_default();
    let case = BytesStart::new("testcase").with_attributes([
        ("classname", classname.as_str()),
        ("name", name.as_str()),
        ("file", d.location.path.as_str()),
        ("line", line.as_str()),
    ]);
    let _ = w.write_event(Event::Start(case));
    if d.state.introduced() {
        let failure = BytesStart::new("failure").with_attributes([
            ("type", d.severity.as_str()),
            ("message", d.message.as_str()),
        ]);
        let _ = w.write_event(Event::Start(failure));
        let mut body = format!("{at}: {}\n", d.message);
        if let Some(help) = &d.help {
            body.push_str(&format!("help: {help}\n"));
        }
        body.push_str(&format!("docs: {}\n", d.url()));
        let _ = w.write_event(Event::Text(BytesText::new(&body)));
        let _ = w.write_event(Event::End(BytesEnd::new("failure")));
    } else {
        let skipped = BytesStart::new("skipped").with_attributes([(
            "message",
            "pre-existing: the base revision has this finding too",
        )]);
        let _ = w.write_event(Event::Empty(skipped));
    }
    let _ = w.write_event(Event::End(BytesEnd::new("testcase")));
}

fn text_element(w: &mut Writer<Vec<u8>>, name: &str, text: &str) {
    let _ = w.write_event(Event::Start(BytesStart::new(name)));
    let _ = w.write_event(Event::Text(BytesText::new(text)));
    let _ = w.write_event(Event::End(BytesEnd::new(name)));
}
