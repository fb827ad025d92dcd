//! SARIF 2.1.0 as GitHub code scanning reads it: one run, every rule, results always
//! present, one relative location per result, no empty objects.

use serde_json::{json, Map, Value};

use super::Texts;
use crate::catalog;
use crate::check::Outcome;
use crate::code::{doc_url, Code};
use crate::diagnostic::{Diagnostic, Location, Severity, Side};

/// The schema address GitHub expects in `$schema`.
pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The key under `partialFingerprints` (GitHub ignores custom keys; other consumers use it).
pub const FINGERPRINT_KEY: &str = "nodecastFingerprint/v1";

/// GitHub's limit on description texts.
const MAX_DESCRIPTION: usize = 1024;

/// Builds the SARIF log of a check.
pub fn report(o: &Outcome) -> Value {
    let texts = Texts::new(o);
    let results: Vec<Value> = o.diagnostics.iter().map(|d| result(o, d, &texts)).collect();
    let version = env!("CARGO_PKG_VERSION");
    json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "nodecast",
                    "semanticVersion": version,
                    "version": version,
                    "informationUri": "https://github.com/nodecast/nodecast",
                    "rules": catalog::all().iter().map(|r| rule(r)).collect::<Vec<_>>(),
                }
            },
            "automationDetails": {"id": "nodecast/"},
            "originalUriBaseIds": {
                "%SRCROOT%": {"description": {"text": "The root of the checked repository."}}
            },
            "columnKind": "unicodeCodePoints",
            "results": results,
            "properties": {"forecast": o.forecast},
        }]
    })
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max - 1).collect();
    out.push('…');
    out
}

/// The first paragraph of a page section, as plain text.
fn section(page: &str, heading: &str) -> Option<String> {
    let start = page.find(heading)? + heading.len();
    let para: Vec<&str> = page[start..]
        .lines()
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    (!para.is_empty()).then(|| para.join(" "))
}

fn rule(r: &Code) -> Value {
    let url = doc_url(r.code);
    let page = catalog::page(r.code).unwrap_or(r.summary);
    let full = section(page, "## What it checks").unwrap_or_else(|| r.summary.to_string());
    let problem = match r.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "recommendation",
    };
    json!({
        "id": r.code,
        "name": r.name,
        "shortDescription": {"text": truncate(r.summary, MAX_DESCRIPTION)},
        "fullDescription": {"text": truncate(&full, MAX_DESCRIPTION)},
        "helpUri": url,
        "help": {
            // The page once (as Markdown); the plain text points at it.
            "text": format!("{}\n\nDocumentation: {url}\n", r.summary),
            "markdown": format!("{page}\n\n[Documentation of {}]({url})\n", r.code),
        },
        "defaultConfiguration": {"level": level(r.severity)},
        "properties": {
            "tags": ["nodecast", "openshift"],
            "problem.severity": problem,
        },
    })
}

/// 1-based `(startLine, startColumn, endLine, endColumn)` with `endColumn` after the last
/// character; a span that ends at the start of a line ends after the previous line instead.
pub fn region(loc: &Location, texts: &Texts) -> Option<(u32, u32, u32, u32)> {
    let s = loc.span?;
    let (sl, sc) = (s.start.line.max(1), s.start.col.max(1));
    let (mut el, mut ec) = (s.end.line.max(sl), s.end.col.max(1));
    if el > sl && ec == 1 {
        el -= 1;
        ec = texts
            .get(loc.side, &loc.path)
            .and_then(|t| {
                t.lines()
                    .nth(el as usize - 1)
                    .map(|line| line.trim_end_matches('\r').chars().count() as u32 + 1)
            })
            .unwrap_or(1);
        if el == sl && ec < sc {
            ec = sc;
        }
    }
    if el == sl && ec < sc {
        ec = sc;
    }
    Some((sl, sc, el, ec))
}

/// A repository-relative path as a URI reference (`/` separators, reserved bytes escaped).
pub fn uri(path: &str) -> String {
    const SET: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
        .add(b' ')
        .add(b'"')
        .add(b'#')
        .add(b'%')
        .add(b'<')
        .add(b'>')
        .add(b'?')
        .add(b'[')
        .add(b']')
        .add(b'\\')
        .add(b'^')
        .add(b'`')
        .add(b'{')
        .add(b'|')
        .add(b'}');
    let p = path.replace('\\', "/");
    let p = p.trim_start_matches("./").trim_start_matches('/');
    let encoded = percent_encoding::utf8_percent_encode(p, SET).to_string();
    // A colon in the first segment would make `c:d.yaml` a URI with the scheme `c`.
    match encoded.split_once('/') {
        Some((first, rest)) => format!("{}/{rest}", first.replace(':', "%3A")),
        None => encoded.replace(':', "%3A"),
    }
}

fn physical(loc: &Location, texts: &Texts) -> Value {
    let mut phys = Map::new();
    phys.insert(
        "artifactLocation".into(),
        json!({"uri": uri(&loc.path), "uriBaseId": "%SRCROOT%"}),
    );
    if let Some((sl, sc, el, ec)) = region(loc, texts) {
        phys.insert(
            "region".into(),
            json!({"startLine": sl, "startColumn": sc, "endLine": el, "endColumn": ec}),
        );
    }
    Value::Object(phys)
}

fn result(o: &Outcome, d: &Diagnostic, texts: &Texts) -> Value {
    let mut text = d.message.clone();
    let mut related = Vec::new();
    for (i, r) in d.related.iter().enumerate() {
        let id = i + 1;
        let what = match r.location.side {
            Side::Head => r.message.clone(),
            Side::Base => format!("{} (base revision)", r.message),
        };
        if i == 0 {
            text.push_str(" — see ");
        } else {
            text.push_str(", ");
        }
        text.push_str(&format!("[{}]({id})", escape_link_text(&what)));
        related.push(json!({
            "id": id,
            "physicalLocation": physical(&r.location, texts),
            "message": {"text": what},
        }));
    }
    if let Some(help) = &d.help {
        text.push_str(&format!("\nhelp: {help}"));
    }
    let rule_index = catalog::all().iter().position(|r| r.code == d.code);
    let mut res = Map::new();
    res.insert("ruleId".into(), json!(d.code));
    if let Some(i) = rule_index {
        res.insert("ruleIndex".into(), json!(i));
    }
    res.insert("level".into(), json!(level(d.severity)));
    if o.has_base {
        res.insert(
            "baselineState".into(),
            json!(match d.state {
                crate::diagnostic::State::New => "new",
                crate::diagnostic::State::Changed => "updated",
                crate::diagnostic::State::PreExisting => "unchanged",
            }),
        );
    }
    res.insert("message".into(), json!({ "text": text }));
    res.insert(
        "locations".into(),
        json!([{"physicalLocation": physical(&d.location, texts)}]),
    );
    if !related.is_empty() {
        res.insert("relatedLocations".into(), Value::Array(related));
    }
    res.insert(
        "partialFingerprints".into(),
        json!({FINGERPRINT_KEY: crate::fingerprint::of(d, &o.files.base, &o.files.head)}),
    );
    if let Some(object) = &d.object {
        res.insert("properties".into(), json!({ "object": object }));
    }
    Value::Object(res)
}

/// Brackets in embedded link text must be escaped (SARIF §3.11.6).
fn escape_link_text(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('[', "\\[")
        .replace(']', "\\]")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_forecast_is_carried_in_the_run_properties_and_stays_valid() {
        use crate::report::markdown::tests::{impact, outcome};
        let log = report(&outcome(vec![impact()], Vec::new()));
        assert_eq!(
            log["runs"][0]["properties"]["forecast"][0]["action"],
            "replace"
        );
        assert_eq!(log["runs"][0]["results"], serde_json::json!([]));
        let schema: Value =
            serde_json::from_str(include_str!("../../testdata/sarif/sarif-schema-2.1.0.json"))
                .expect("schema");
        let validator = jsonschema::draft4::options()
            .should_validate_formats(true)
            .build(&schema)
            .expect("schema compiles");
        let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:?}");
    }

    #[test]
    fn uris_are_relative_and_escaped() {
        assert_eq!(uri("clusters/prod/np.yaml"), "clusters/prod/np.yaml");
        assert_eq!(uri("./a b/c#1.yaml"), "a%20b/c%231.yaml");
        assert_eq!(uri("dir\\x.yaml"), "dir/x.yaml");
        // Not a scheme: a colon in the first segment is escaped (RFC 3986 §4.2).
        assert_eq!(uri("c:d.yaml"), "c%3Ad.yaml");
        assert_eq!(uri("c:d/e:f.yaml"), "c%3Ad/e:f.yaml");
    }

    #[test]
    fn descriptions_are_capped() {
        let long = "x".repeat(2000);
        assert_eq!(truncate(&long, MAX_DESCRIPTION).chars().count(), 1024);
        assert_eq!(truncate("short", 1024), "short");
    }

    #[test]
    fn every_rule_has_a_full_description() {
        for r in catalog::all() {
            let v = rule(r);
            let full = v["fullDescription"]["text"].as_str().unwrap_or_default();
            assert!(!full.is_empty(), "{}", r.code);
            assert!(
                v["help"]["markdown"]
                    .as_str()
                    .unwrap_or_default()
                    .contains(&doc_url(r.code)),
                "{}",
                r.code
            );
        }
    }
}
