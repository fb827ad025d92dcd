//! `# nodecast: ignore[CODE] reason` (this line, or the comment line above) and
//! `# nodecast: ignore-file[CODE] reason`: YAML comments, never annotations on applied objects.

use nodecast_yaml::{LineIndex, Span};

use super::codes;
use crate::diagnostic::{Diagnostic, Fix, Location, Side};
use crate::parse::FileEntry;

/// Whether a suppression covers one line or the whole file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Its own line, or the next line when the comment stands alone.
    Line,
    /// The whole file.
    File,
}

/// One suppression comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suppression {
    /// The file.
    pub path: String,
    /// The comment's range.
    pub span: Span,
    /// Line or file.
    pub scope: Scope,
    /// Suppressed codes, as written.
    pub codes: Vec<String>,
    /// Why (empty when missing).
    pub reason: String,
    /// True when the line holds nothing but the comment (then it covers the next line).
    pub alone: bool,
}

/// A `# nodecast:` comment that is not a valid suppression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed {
    /// The file.
    pub path: String,
    /// The comment's range.
    pub span: Span,
    /// What is wrong.
    pub problem: String,
}

/// Every `# nodecast:` comment of the head files.
pub fn scan(files: &[FileEntry]) -> (Vec<Suppression>, Vec<Malformed>) {
    let mut found = Vec::new();
    let mut bad = Vec::new();
    for file in files {
        let Some(text) = file.parsed.text.as_deref() else {
            continue;
        };
        if !text.contains("nodecast:") {
            continue;
        }
        let index = LineIndex::new(text);
        let mut line_start = 0;
        for line in text.split_inclusive('\n') {
            if let Some((at, body)) = directive(line) {
                let start = line_start + at;
                let end = line_start + line.trim_end_matches(['\n', '\r']).len();
                let span = Span {
                    start: index.pos(text, start),
                    end: index.pos(text, end),
                };
                let alone = line[..at].trim().is_empty();
                match parse(body) {
                    Ok((scope, codes, reason)) => found.push(Suppression {
                        path: file.path.to_string(),
                        span,
                        scope,
                        codes,
                        reason,
                        alone,
                    }),
                    Err(problem) => bad.push(Malformed {
                        path: file.path.to_string(),
                        span,
                        problem,
                    }),
                }
            }
            line_start += line.len();
        }
    }
    (found, bad)
}

/// The byte offset of `#` and the text after `nodecast:` when the line has such a comment.
fn directive(line: &str) -> Option<(usize, &str)> {
    let mut from = 0;
    while let Some(i) = line[from..].find('#') {
        let at = from + i;
        let preceded_ok = at == 0 || line[..at].ends_with([' ', '\t']);
        let rest = line[at + 1..].trim_start();
        if preceded_ok {
            if let Some(body) = rest.strip_prefix("nodecast:") {
                return Some((at, body.trim_end_matches(['\n', '\r'])));
            }
        }
        from = at + 1;
    }
    None
}

fn parse(body: &str) -> Result<(Scope, Vec<String>, String), String> {
    let body = body.trim();
    let (scope, rest) = if let Some(r) = body.strip_prefix("ignore-file[") {
        (Scope::File, r)
    } else if let Some(r) = body.strip_prefix("ignore[") {
        (Scope::Line, r)
    } else {
        return Err(format!(
            "`# nodecast: {body}` is not a suppression; write `# nodecast: ignore[CODE] reason`"
        ));
    };
    let Some((codes, reason)) = rest.split_once(']') else {
        return Err("the code list is not closed with `]`".into());
    };
    let codes: Vec<String> = codes
        .split(',')
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
        .collect();
    if codes.is_empty() {
        return Err("the suppression names no code; write `ignore[CODE] reason`".into());
    }
    Ok((scope, codes, reason.trim().to_string()))
}

impl Suppression {
    /// Whether this suppression covers the finding with this code.
    pub fn covers(&self, d: &Diagnostic, code: &str) -> bool {
        if d.location.side != Side::Head
            || d.location.path != self.path
            || !code.eq_ignore_ascii_case(d.code)
        {
            return false;
        }
        match self.scope {
            Scope::File => true,
            Scope::Line => d.location.span.is_some_and(|s| {
                s.start.line == self.span.start.line
                    || (self.alone && s.start.line == self.span.start.line + 1)
            }),
        }
    }
}

/// Drops suppressed findings (returned second, so a revision's record can say whose they were);
/// adds C103 (no reason, malformed) and C104 (suppresses nothing).
pub fn apply(
    files: &[FileEntry],
    diagnostics: Vec<Diagnostic>,
    known: &[&crate::code::Code],
) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    let (sups, bad) = scan(files);
    let mut used: Vec<Vec<bool>> = sups.iter().map(|s| vec![false; s.codes.len()]).collect();
    let mut kept = Vec::new();
    let mut suppressed = Vec::new();
    for d in diagnostics {
        let mut hit = false;
        for (i, s) in sups.iter().enumerate() {
            for (j, code) in s.codes.iter().enumerate() {
                if s.covers(&d, code) {
                    used[i][j] = true;
                    hit = true;
                }
            }
        }
        if hit {
            suppressed.push(d);
        } else {
            kept.push(d);
        }
    }
    let (c103, c104) = (&codes::C103, &codes::C104);
    for m in bad {
        kept.push(
            Diagnostic::new(c103, m.problem, Location::head(&m.path, m.span))
                .help("write `# nodecast: ignore[CODE] reason` (or `ignore-file[CODE] reason`)"),
        );
    }
    for (i, s) in sups.iter().enumerate() {
        let what = match s.scope {
            Scope::Line => "ignore",
            Scope::File => "ignore-file",
        };
        if s.reason.is_empty() {
            kept.push(
                Diagnostic::new(
                    c103,
                    format!("suppression of {} gives no reason", s.codes.join(", ")),
                    Location::head(&s.path, s.span),
                )
                .help(format!(
                    "say why after the codes: `# nodecast: {what}[{}] <reason>`",
                    s.codes.join(",")
                )),
            );
        }
        for (j, code) in s.codes.iter().enumerate() {
            if used[i][j] {
                continue;
            }
            let message = if !known.iter().any(|c| c.code.eq_ignore_ascii_case(code)) {
                format!("suppression names `{code}`, which is not a rule code")
            } else {
                match s.scope {
                    Scope::Line => {
                        format!("suppression of {code} matches no finding on this line or the next")
                    }
                    Scope::File => format!("suppression of {code} matches no finding in this file"),
                }
            };
            let mut d = Diagnostic::new(c104, message, Location::head(&s.path, s.span))
                .help(format!("remove `{code}` from the suppression"));
            if let Some(fix) = removal(files, s, code) {
                d = d.fix(fix);
            }
            kept.push(d);
        }
    }
    (kept, suppressed)
}

/// The edit that removes one code from a suppression: the code from its list, or the whole
/// comment when it names nothing else (its line too when the comment stands alone).
fn removal(files: &[FileEntry], s: &Suppression, code: &str) -> Option<Fix> {
    let text = files
        .iter()
        .find(|f| *f.path == *s.path)
        .and_then(|f| f.parsed.text.as_deref())?;
    let rest: Vec<&str> = s
        .codes
        .iter()
        .filter(|c| *c != code)
        .map(String::as_str)
        .collect();
    if !rest.is_empty() {
        let what = match s.scope {
            Scope::Line => "ignore",
            Scope::File => "ignore-file",
        };
        let comment = format!("# nodecast: {what}[{}] {}", rest.join(", "), s.reason);
        return Some(Fix::replace(
            format!("remove `{code}` from the suppression"),
            s.span,
            comment.trim_end(),
        ));
    }
    let (start, end) = (s.span.start.offset, s.span.end.offset);
    let (start, end) = if s.alone {
        let line_start = text.get(..start)?.rfind('\n').map_or(0, |i| i + 1);
        let line_end = text
            .get(end..)?
            .find('\n')
            .map_or(text.len(), |i| end + i + 1);
        (line_start, line_end)
    } else {
        (text.get(..start)?.trim_end_matches([' ', '\t']).len(), end)
    };
    let index = LineIndex::new(text);
    Some(Fix::replace(
        "remove the unused suppression",
        Span {
            start: index.pos(text, start),
            end: index.pos(text, end),
        },
        "",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_are_comments_only() {
        assert_eq!(
            directive("a: 1 # nodecast: ignore[Y003] ok\n"),
            Some((5, " ignore[Y003] ok"))
        );
        assert_eq!(
            directive("# nodecast: ignore-file[K005] generated"),
            Some((0, " ignore-file[K005] generated"))
        );
        assert_eq!(directive("url: http://x#nodecast: ignore[Y003]"), None);
        assert_eq!(directive("a: 1 # other comment"), None);
    }

    #[test]
    fn parse_codes_and_reasons() {
        assert_eq!(
            parse(" ignore[Y003, K005] legacy values"),
            Ok((
                Scope::Line,
                vec!["Y003".into(), "K005".into()],
                "legacy values".into()
            ))
        );
        assert_eq!(
            parse("ignore-file[Y003]"),
            Ok((Scope::File, vec!["Y003".into()], String::new()))
        );
        assert!(parse("ignore[] x").is_err());
        assert!(parse("ignore Y003").is_err());
        assert!(parse("ignore[Y003 x").is_err());
    }

    #[test]
    fn unused_suppressions_come_with_the_edit_that_removes_them() {
        let text =
            "a: 1\n  # nodecast: ignore[Y003] old\nb: yes  # nodecast: ignore[Y002, Y003] x\n";
        let file = FileEntry::new(
            "f.yaml",
            std::sync::Arc::new(crate::parse::parse_file(text.as_bytes())),
        );
        let (out, _) = apply(
            std::slice::from_ref(&file),
            Vec::new(),
            crate::catalog::all(),
        );
        let fixes: Vec<(String, &str, String)> = out
            .iter()
            .filter_map(|d| d.fix.as_ref())
            .map(|f| {
                (
                    f.title.clone(),
                    &text[f.span.start.offset..f.span.end.offset],
                    f.replacement.clone(),
                )
            })
            .collect();
        assert_eq!(
            fixes,
            [
                // Alone on its line: the line goes.
                (
                    "remove the unused suppression".to_string(),
                    "  # nodecast: ignore[Y003] old\n",
                    String::new()
                ),
                (
                    "remove `Y002` from the suppression".to_string(),
                    "# nodecast: ignore[Y002, Y003] x",
                    "# nodecast: ignore[Y003] x".to_string()
                ),
                (
                    "remove `Y003` from the suppression".to_string(),
                    "# nodecast: ignore[Y002, Y003] x",
                    "# nodecast: ignore[Y002] x".to_string()
                ),
            ]
        );
    }
}
