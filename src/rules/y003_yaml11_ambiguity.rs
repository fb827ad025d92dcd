//! Y003: a plain value that Kubernetes (YAML 1.1) reads differently from YAML 1.2 tools.

use nodecast_yaml::{Ambiguity, ProblemKind};

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Location, Severity};
use crate::parse::type_meta;

/// The rule.
pub static RULE: Rule = Rule {
    code: "Y003",
    name: "yaml11-ambiguity",
    severity: Severity::Warning,
    summary: "An unquoted yes/no/on/off, 0644 or 1:30 that Kubernetes reads differently from YAML 1.2 tools",
    check,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // Only inside Kubernetes objects: CI configs and Helm values are not read by the API server.
    let object_ranges: Vec<(&str, usize, usize)> = ctx
        .head_docs()
        .iter()
        .filter(|d| type_meta(&d.doc.doc.root).is_some())
        .map(|d| {
            (
                d.path,
                d.doc.doc.span.start.offset,
                d.doc.doc.span.end.offset,
            )
        })
        .collect();
    for p in ctx.head_problems() {
        let ProblemKind::Yaml11Ambiguity(kind) = p.problem.kind else {
            continue;
        };
        let at = p.problem.span.start.offset;
        if !object_ranges
            .iter()
            .any(|(path, s, e)| *path == p.file.path && *s <= at && at < *e)
        {
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
        out.push(
            Diagnostic::new(&RULE, message, Location::head(&p.file.path, p.problem.span))
                .label("unquoted")
                .help(help),
        );
    }
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
