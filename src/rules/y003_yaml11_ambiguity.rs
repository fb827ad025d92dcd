//! Y003: a plain value that Kubernetes (YAML 1.1) reads differently from YAML 1.2 tools — only
//! where that reading changes the meaning for the field's type: `yes` in a boolean field is the
//! boolean it means, `0644` in a file mode is the octal mode it means, and Kubernetes (go-yaml)
//! never reads base-60 numbers, so `0000:51:00.0` stays the PCI address it is.

use nodecast_yaml::{Ambiguity, ProblemKind};

use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Fix, Location, Severity};
use crate::parse::{type_meta, ParsedDoc};

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "Y003",
    name: "yaml11-ambiguity",
    severity: Severity::Warning,
    summary: "An unquoted yes/no/on/off, 0644 or 1:30 that Kubernetes reads differently from YAML 1.2 tools",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::File,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // Only inside Kubernetes objects: CI configs and Helm values are not read by the API server.
    let object_ranges: Vec<(&str, usize, usize, &ParsedDoc)> = ctx
        .head_docs()
        .filter(|d| type_meta(d.doc.doc.root()).is_some())
        .map(|d| {
            (
                d.path,
                d.doc.doc.span.start.offset,
                d.doc.doc.span.end.offset,
                d.doc,
            )
        })
        .collect();
    for p in ctx.head_problems() {
        let ProblemKind::Yaml11Ambiguity(kind) = p.problem.kind else {
            continue;
        };
        let at = p.problem.span.start.offset;
        let Some(doc) = object_ranges
            .iter()
            .find(|(path, s, e, _)| *path == &*p.file.path && *s <= at && at < *e)
            .map(|(_, _, _, doc)| *doc)
        else {
            continue;
        };
        if !changes_meaning(kind, doc, at) {
            continue;
        }
        let text = p.source_text();
        let (message, help) = match kind {
            Ambiguity::Boolean => (
                format!("`{text}` is the boolean {} for Kubernetes (YAML 1.1), not the string \"{text}\"", is_true(text)),
                format!("write \"{text}\" (quoted) if a string is meant, or {} if a boolean is meant", is_true(text)),
            ),
            Ambiguity::Octal => (
                format!(
                    "`{text}` is the octal number {} for Kubernetes (YAML 1.1) but {} for YAML 1.2 tools",
                    octal(text).map_or_else(|| "?".to_string(), |v| v.to_string()),
                    text.trim_start_matches(['+', '-']).trim_start_matches('0').replace('_', "")
                ),
                format!(
                    "write the decimal value ({}) so every tool agrees, or quote it if a string is meant",
                    octal(text).map_or_else(|| "?".to_string(), |v| v.to_string())
                ),
            ),
            Ambiguity::Sexagesimal => (
                format!("`{text}` is a base-60 number in YAML 1.1 but a string for Kubernetes"),
                format!("quote it (\"{text}\") so every tool reads the same string"),
            ),
        };
        let span = p.problem.span;
        let fix = match kind {
            Ambiguity::Boolean => Some(Fix::replace(
                format!("quote `{text}` (the string \"{text}\")"),
                span,
                format!("\"{text}\""),
            )),
            Ambiguity::Octal => octal(text)
                .map(|v| Fix::replace(format!("write the decimal value {v}"), span, v.to_string())),
            Ambiguity::Sexagesimal => Some(Fix::replace(
                format!("quote `{text}`"),
                span,
                format!("\"{text}\""),
            )),
        };
        let mut d = Diagnostic::new(&CODE, message, Location::head(&p.file.path, span))
            .label("unquoted")
            .help(help);
        // Only a plain scalar written as is can be quoted in place (not one inside a quoted
        // payload, whose text is escaped).
        if let (Some(fix), true) = (fix, is_plain_word(text)) {
            d = d.fix(fix);
        }
        out.push(d);
    }
}

/// Whether the YAML 1.1 reading changes what the value means for its field's type.
fn changes_meaning(kind: Ambiguity, doc: &ParsedDoc, offset: usize) -> bool {
    let pointer =
        crate::fingerprint::field_path(std::slice::from_ref(doc), offset).unwrap_or_default();
    let key = pointer.rsplit('/').next().unwrap_or_default();
    let field_type = || {
        let (api, kind) = type_meta(doc.doc.root())?;
        crate::validate::catalog::field_type(api, kind, &pointer)
    };
    match kind {
        // go-yaml (what the API server uses) has no base-60 numbers: Kubernetes reads a string.
        Ambiguity::Sexagesimal => false,
        // `yes` in a boolean field is the boolean it means.
        Ambiguity::Boolean => field_type().as_deref() != Some("boolean"),
        // File modes are written in octal on purpose (Ignition `mode`, volume `defaultMode`).
        Ambiguity::Octal => !(key == "mode" || key.ends_with("Mode")),
    }
}

/// Text a YAML 1.1 ambiguity can be written as: a bare word, digits and signs, no quotes.
fn is_plain_word(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '_' | ':' | '.'))
}

fn is_true(text: &str) -> bool {
    matches!(text.to_ascii_lowercase().as_str(), "y" | "yes" | "on")
}

fn octal(text: &str) -> Option<i64> {
    let neg = text.starts_with('-');
    let digits = text.trim_start_matches(['+', '-']).replace('_', "");
    i64::from_str_radix(&digits, 8)
        .ok()
        .map(|v| if neg { -v } else { v })
}
