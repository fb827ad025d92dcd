//! What nodecast could not read: whole files (binary, too large, not UTF-8, unreadable), templated
//! documents and everything after a YAML syntax error. Each part keeps why, where, and — read
//! leniently from the raw text — which objects it seems to hold, so a change to it is reported as
//! unreadable with the pools it could reach, never as "no node impact" or as a deletion.

use std::sync::Arc;

use nodecast_yaml::{Problem, ProblemKind, Span};
use sha2::{Digest, Sha256};

use super::FileStatus;

/// Why a part was not read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnreadKind {
    /// Go/Helm template actions.
    Templated,
    /// A YAML syntax error: this document and the ones after it.
    Syntax,
    /// Not UTF-8 (or UTF-16 that does not decode).
    NotUtf8,
    /// NUL bytes.
    Binary,
    /// Over `--max-file-size`.
    TooLarge,
    /// Could not be read at all (a corrupt blob, a link leaving the repository).
    Unreadable,
}

/// An object identity made out from text that could not be parsed (any part may be missing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LooseId {
    /// `apiVersion`.
    pub api_version: Option<String>,
    /// `kind`.
    pub kind: Option<String>,
    /// `metadata.namespace`.
    pub namespace: Option<String>,
    /// `metadata.name`.
    pub name: Option<String>,
    /// `spec.clusterName` (a NodePool's HostedCluster).
    pub cluster_name: Option<String>,
}

/// A part of a file that was not read.
#[derive(Clone, Debug)]
pub struct Unread {
    /// Why.
    pub kind: UnreadKind,
    /// Where to point (the first template action, the syntax error); `None` for the whole file.
    pub at: Option<Span>,
    /// Why, in words.
    pub reason: String,
    /// The objects the part seems to define; `None` when nothing could be made out (binary,
    /// too large, unreadable).
    pub objects: Option<Vec<LooseId>>,
    /// A digest of the part's text, so an unchanged templated document is not a change.
    pub digest: Option<[u8; 32]>,
}

/// The unread part a file status stands for (the whole file), if any.
pub fn whole_file(status: &FileStatus) -> Option<Unread> {
    let (kind, reason, at) = match status {
        FileStatus::Parsed | FileStatus::Templated { .. } => return None,
        FileStatus::TooLarge { size } => (
            UnreadKind::TooLarge,
            format!("{size} bytes is over the size limit (--max-file-size)"),
            None,
        ),
        FileStatus::Binary => (UnreadKind::Binary, "it holds NUL bytes".to_string(), None),
        FileStatus::NotUtf8 { at, detail } => (
            UnreadKind::NotUtf8,
            format!("it is not UTF-8 ({detail})"),
            Some(Span {
                start: *at,
                end: *at,
            }),
        ),
        FileStatus::Unreadable { reason } => (UnreadKind::Unreadable, reason.clone(), None),
    };
    Some(Unread {
        kind,
        at,
        reason,
        objects: None,
        digest: None,
    })
}

/// Decodes UTF-16 text that starts with a byte order mark.
pub fn utf16(bytes: &[u8]) -> Result<(Arc<str>, Option<&'static str>), String> {
    let (little, name) = if bytes.starts_with(&[0xFF, 0xFE]) {
        (true, "UTF-16LE")
    } else {
        (false, "UTF-16BE")
    };
    let body = &bytes[2..];
    if body.len() % 2 != 0 {
        return Err(format!(
            "the file starts with a {name} byte order mark but has an odd number of bytes"
        ));
    }
    let units = body.chunks_exact(2).map(|c| {
        if little {
            u16::from_le_bytes([c[0], c[1]])
        } else {
            u16::from_be_bytes([c[0], c[1]])
        }
    });
    let text: String = char::decode_utf16(units)
        .collect::<Result<String, _>>()
        .map_err(|e| {
            format!(
                "the file starts with a {name} byte order mark but is not valid {name}: unpaired surrogate 0x{:04x}",
                e.unpaired_surrogate()
            )
        })?;
    Ok((text.into(), Some(name)))
}

/// Whether a template has control structures: then which documents exist depends on values.
pub fn has_control_structure(text: &str) -> bool {
    const WORDS: [&str; 8] = [
        "if", "else", "end", "range", "with", "define", "template", "block",
    ];
    text.match_indices("{{").any(|(i, _)| {
        let rest = text[i + 2..].trim_start_matches('-').trim_start();
        WORDS.iter().any(|w| {
            rest.strip_prefix(w)
                .is_some_and(|after| after.starts_with(|c: char| !c.is_alphanumeric() && c != '_'))
        })
    })
}

/// Byte ranges of the documents of a file (separator lines excluded).
fn documents(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        let separator =
            bare == "---" || bare.starts_with("--- ") || bare.starts_with("---\t") || bare == "...";
        if separator {
            out.push((start, offset));
            start = offset + line.len();
        }
        offset += line.len();
    }
    out.push((start, text.len()));
    out
}

/// The text with every document that holds a template action blanked (spaces, line breaks
/// kept, so positions of the other documents do not move), and one unread part per such
/// document. `None` when an action is on a separator line.
pub fn blank_templated_documents(text: &str, actions: &[Span]) -> Option<(String, Vec<Unread>)> {
    let docs = documents(text);
    let mut bytes = text.as_bytes().to_vec();
    let mut parts = Vec::new();
    for &(s, e) in &docs {
        let inside: Vec<&Span> = actions
            .iter()
            .filter(|a| s <= a.start.offset && a.start.offset < e)
            .collect();
        let Some(first) = inside.first() else {
            continue;
        };
        for b in &mut bytes[s..e] {
            if !matches!(b, b'\n' | b'\r') {
                *b = b' ';
            }
        }
        let chunk = &text[s..e];
        parts.push(Unread {
            kind: UnreadKind::Templated,
            at: Some(**first),
            reason: "the document holds Go/Helm template actions".into(),
            objects: Some(loose_objects(chunk)),
            digest: Some(Sha256::digest(chunk.as_bytes()).into()),
        });
    }
    let covered = actions.iter().all(|a| {
        docs.iter()
            .any(|&(s, e)| s <= a.start.offset && a.start.offset < e)
    });
    if !covered {
        return None;
    }
    // Multi-byte characters were blanked byte by byte: still valid UTF-8 (ASCII spaces).
    String::from_utf8(bytes).ok().map(|b| (b, parts))
}

/// The document holding the first syntax error and every document after it (the parser keeps
/// only the documents before it).
pub fn after_syntax_error(text: &str, problems: &[Problem]) -> Option<Unread> {
    let p = problems.iter().find(|p| p.kind == ProblemKind::Syntax)?;
    let start = documents(text)
        .into_iter()
        .find(|&(s, e)| s <= p.span.start.offset && p.span.start.offset <= e)
        .map(|(s, _)| s)
        .unwrap_or(0);
    let rest = text.get(start..).unwrap_or_default();
    Some(Unread {
        kind: UnreadKind::Syntax,
        at: Some(p.span),
        reason: format!(
            "YAML syntax error ({}): this document and the ones after it are not read",
            p.message
        ),
        objects: Some(loose_objects(rest)),
        digest: Some(Sha256::digest(rest.as_bytes()).into()),
    })
}

/// The objects raw text seems to define: per document, its top-level `apiVersion` and `kind`,
/// `metadata.name`/`namespace` and `spec.clusterName` (templated values left out). Documents
/// with neither `apiVersion` nor `kind` are not objects.
pub fn loose_objects(text: &str) -> Vec<LooseId> {
    let mut out = Vec::new();
    for (s, e) in documents(text) {
        let lines: Vec<(usize, &str)> = text[s..e]
            .lines()
            .map(|l| (l.len() - l.trim_start().len(), l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#') && *l != "{" && *l != "}")
            .collect();
        let Some(top) = lines
            .iter()
            .filter(|(_, l)| crate::text::yaml_key(l).is_some())
            .map(|(i, _)| *i)
            .min()
        else {
            continue;
        };
        let mut id = LooseId::default();
        let mut section = "";
        let mut inner: Option<usize> = None;
        for &(indent, line) in &lines {
            let Some((key, value)) = crate::text::yaml_key(line) else {
                continue;
            };
            let value = clean(value);
            if indent == top {
                section = key;
                inner = None;
                match key {
                    "apiVersion" => id.api_version = value,
                    "kind" => id.kind = value,
                    _ => {}
                }
                continue;
            }
            // Only the first level below `metadata` / `spec`.
            let level = *inner.get_or_insert(indent);
            if indent != level {
                continue;
            }
            match (section, key) {
                ("metadata", "name") => id.name = value,
                ("metadata", "namespace") => id.namespace = value,
                ("spec", "clusterName") => id.cluster_name = value,
                _ => {}
            }
        }
        if id.api_version.is_some() || id.kind.is_some() {
            out.push(id);
        }
    }
    out
}

/// A scalar value written on a line, unquoted; `None` when empty, a nested block, or templated.
fn clean(value: &str) -> Option<String> {
    let v = value
        .split(" #")
        .next()
        .unwrap_or_default()
        .trim()
        .trim_end_matches(',')
        .trim()
        .trim_matches(['"', '\''])
        .trim();
    (!v.is_empty() && !v.contains("{{") && !matches!(v, "|" | ">" | "{" | "[" | "|-" | ">-"))
        .then(|| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identities_from_raw_text() {
        let text = "apiVersion: hypershift.openshift.io/v1beta1\nkind: NodePool\nmetadata:\n  name: \"{{ .Values.name }}\"\n  namespace: clusters\n  labels:\n    name: nope\nspec:\n  clusterName: prod\n  replicas: {{ .Values.n }}\n---\n# values\nfoo: bar\n---\n{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"ConfigMap\",\n  \"metadata\": {\"x\": 1},\n  \"spec\": {}\n}\n";
        let ids = loose_objects(text);
        assert_eq!(
            ids,
            [
                LooseId {
                    api_version: Some("hypershift.openshift.io/v1beta1".into()),
                    kind: Some("NodePool".into()),
                    namespace: Some("clusters".into()),
                    name: None,
                    cluster_name: Some("prod".into()),
                },
                LooseId {
                    api_version: Some("v1".into()),
                    kind: Some("ConfigMap".into()),
                    ..LooseId::default()
                },
            ]
        );
    }

    #[test]
    fn control_structures() {
        assert!(has_control_structure(
            "{{- if .Values.x }}\na: 1\n{{ end }}"
        ));
        assert!(has_control_structure("{{ range $i := .Values }}"));
        assert!(!has_control_structure("name: {{ .Values.ending }}"));
        assert!(!has_control_structure("name: {{ include \"x\" . }}"));
    }

    #[test]
    fn utf16_is_decoded() {
        let mut le = vec![0xFF, 0xFE];
        for u in "kind: X\n".encode_utf16() {
            le.extend_from_slice(&u.to_le_bytes());
        }
        assert_eq!(
            utf16(&le).map(|(t, e)| (t.to_string(), e)),
            Ok(("kind: X\n".to_string(), Some("UTF-16LE")))
        );
        let mut be = vec![0xFE, 0xFF];
        for u in "a".encode_utf16() {
            be.extend_from_slice(&u.to_be_bytes());
        }
        assert_eq!(utf16(&be).map(|(t, _)| t.to_string()), Ok("a".to_string()));
        assert!(utf16(&[0xFF, 0xFE, 0x41]).is_err());
    }
}
