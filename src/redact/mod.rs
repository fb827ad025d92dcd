//! Secrets stay secret: values of Secrets, registry credentials, Ignition password hashes and
//! private Ignition files never reach any output (human, JSON, SARIF, GitHub, Markdown, baseline).
//!
//! Three layers, all built here and used by every format:
//! - changed fields: a private field's `before`/`after` become a digest and a byte length
//!   ([`digest`]), its text diff is dropped ([`fields`]), before any model or rule reads the diff;
//! - free text (messages, notes, causes, diffs of other fields): every private value and what it
//!   decodes to is replaced by [`PLACEHOLDER`] ([`Redaction::scrub`], applied by [`outcome`]);
//! - code frames: file texts are masked at the private values' spans, at any occurrence of a
//!   private value, and, for documents that did not parse, at the lines a Secret's `data` or a
//!   `passwordHash` holds ([`Redaction::mask`]); keys stay visible.

mod private;
mod text;

use std::borrow::Cow;
use std::collections::HashMap;

use aho_corasick::{AhoCorasick, MatchKind};
use base64::Engine;
use nodecast_yaml::{Node, NodeKind, Span};
use sha2::{Digest, Sha256};

pub use private::{is_private, private_file, Extra};

use crate::diagnostic::{Diagnostic, Side};
use crate::diff::Diff;
use crate::forecast::Impact;
use crate::inventory::{Inventory, Object};
use crate::parse::{data_url, ParsedDoc};

/// What a private value is shown as.
pub const PLACEHOLDER: &str = "<redacted>";

/// Private values shorter than this are redacted where they are written (fields, frames) but not
/// searched for in free text: a short value (`true`, `admin`) would blank unrelated words.
pub const MIN_SEARCHED: usize = 8;

/// Tokens of multi-line private values (keys, certificates, kubeconfigs) at least this long are
/// searched for too: a line of a private file must not leak through another file's diff.
const MIN_TOKEN: usize = 16;

/// The private values of a run and where they are written, for every output.
#[derive(Debug, Default)]
pub struct Redaction {
    /// Byte ranges of private values per (side, file).
    spans: HashMap<(Side, String), Vec<(usize, usize)>>,
    /// Finds private values (and their decoded or encoded forms) in text.
    matcher: Option<AhoCorasick>,
}

/// Short, stable description of a private value: its byte length and a digest prefix, so a
/// reviewer can tell that and how it changed (compare with `printf %s VALUE | sha256sum`).
pub fn digest(node: Node<'_>) -> String {
    let bytes = match node.kind() {
        NodeKind::Scalar { text, .. } => text.as_bytes().to_vec(),
        _ => node.to_json().to_string().into_bytes(),
    };
    describe(&bytes)
}

/// [`digest`] of raw bytes.
pub fn describe(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let hex: String = hash.iter().take(4).map(|b| format!("{b:02x}")).collect();
    format!(
        "<redacted: {} byte{}, sha256 {hex}>",
        bytes.len(),
        if bytes.len() == 1 { "" } else { "s" }
    )
}

/// One private value found while walking the objects.
struct Found<'a> {
    node: Node<'a>,
    /// How it is encoded: base64 (`data`, registry credentials), plain (`stringData`), a data URL.
    encoding: Encoding,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Plain,
    Base64,
    DataUrl,
}

impl Redaction {
    /// Collects every private value of both sides (objects, wrapped and rendered ones, and the
    /// documents embedded in ConfigMaps).
    pub fn build(base: &Inventory, head: &Inventory, extra: &Extra) -> Self {
        Redaction::build_with_needles(base, head, extra).0
    }

    /// [`Redaction::build`], with each object's needles by side (base, head) and object index:
    /// what a record keeps (hashed) of the files a scoped check leaves out.
    pub fn build_with_needles(
        base: &Inventory,
        head: &Inventory,
        extra: &Extra,
    ) -> (Self, Needles) {
        let objects: Vec<(Side, &Object)> = [(Side::Base, base), (Side::Head, head)]
            .iter()
            .flat_map(|(side, inv)| inv.objects.iter().map(move |o| (*side, &**o)))
            .collect();
        let in_base = base.objects.len();
        let mut by_object: Needles = (Vec::new(), Vec::new());
        let per_object: Vec<(Spans, Vec<String>)> = private_values(objects, extra)
            .into_iter()
            .map(|(i, found)| {
                if !found.1.is_empty() {
                    match i.checked_sub(in_base) {
                        None => by_object.0.push((i, found.1.clone())),
                        Some(h) => by_object.1.push((h, found.1.clone())),
                    }
                }
                found
            })
            .collect();
        let mut spans: HashMap<(Side, String), Vec<(usize, usize)>> = HashMap::new();
        let mut needles: Vec<String> = Vec::new();
        for (s, n) in per_object {
            for (key, range) in s {
                spans.entry(key).or_default().push(range);
            }
            needles.extend(n);
        }
        needles.sort();
        needles.dedup();
        let matcher = (!needles.is_empty())
            .then(|| {
                AhoCorasick::builder()
                    .match_kind(MatchKind::LeftmostLongest)
                    .build(&needles)
                    .ok()
            })
            .flatten();
        (Redaction { spans, matcher }, by_object)
    }

    /// Whether there is anything private at all (then output is left untouched).
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty() && self.matcher.is_none()
    }

    /// Free text with every private value (and decoded form) replaced by [`PLACEHOLDER`].
    pub fn scrub(&self, s: &str) -> String {
        let Some(m) = &self.matcher else {
            return s.to_string();
        };
        let mut out = String::with_capacity(s.len());
        let mut last = 0;
        for found in m.find_iter(s) {
            out.push_str(&s[last..found.start()]);
            out.push_str(PLACEHOLDER);
            last = found.end();
        }
        out.push_str(&s[last..]);
        out
    }

    /// Scrubs a string in place.
    pub fn scrub_in_place(&self, s: &mut String) {
        if self
            .matcher
            .as_ref()
            .is_some_and(|m| m.is_match(s.as_str()))
        {
            *s = self.scrub(s);
        }
    }

    /// A file's text for a code frame: private values masked in place (same byte length, so
    /// every span still points at the same line and column; keys stay visible).
    pub fn mask(&self, side: Side, path: &str, original: &str) -> String {
        let mut ranges: Vec<(usize, usize)> = self
            .spans
            .get(&(side, path.to_string()))
            .cloned()
            .unwrap_or_default();
        if let Some(m) = &self.matcher {
            ranges.extend(m.find_iter(original).map(|x| (x.start(), x.end())));
        }
        ranges.extend(text::heuristic(original));
        text::mask(original, ranges)
    }
}

/// Where private values are written: (side, file) and byte range.
type Spans = Vec<((Side, String), (usize, usize))>;

/// Each object's private values as they are searched for in text, by object index: the base's
/// and the head's.
pub type Needles = (Vec<(usize, Vec<String>)>, Vec<(usize, Vec<String>)>);

/// Each object's private values, as they are searched for in text, by object index: what a
/// scoped check must know of the files it leaves out (as keyed hashes, never the values).
pub fn needles_by_object(inv: &Inventory, extra: &Extra) -> Vec<(usize, Vec<String>)> {
    let objects: Vec<(Side, &Object)> = inv.objects.iter().map(|o| (Side::Head, &**o)).collect();
    private_values(objects, extra)
        .into_iter()
        .map(|(i, (_, needles))| (i, needles))
        .filter(|(_, n)| !n.is_empty())
        .collect()
}

/// The spans and needles of every object that holds private values (by its index in
/// `objects`). Only Secrets and files that mention a private key can hold private values (unless
/// the repository names more): the rest of a large fleet is not walked.
fn private_values(
    objects: Vec<(Side, &Object)>,
    extra: &Extra,
) -> Vec<(usize, (Spans, Vec<String>))> {
    use rayon::prelude::*;
    let key = |o: &Object| std::sync::Arc::as_ptr(o.file()) as usize;
    let mut texts: HashMap<usize, Option<&str>> = HashMap::new();
    for (_, o) in &objects {
        texts
            .entry(key(o))
            .or_insert_with(|| o.file().text.as_deref());
    }
    // (file, whether it names a private key, whether it names a registry credential key)
    let scanned: HashMap<usize, (bool, bool)> = texts
        .into_iter()
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|(p, text)| {
            let found = text.map_or((true, true), mentions_private_keys);
            (p, found)
        })
        .collect();
    let marked = |o: &Object| scanned.get(&key(o)).is_none_or(|m| m.0);
    let credentials = |o: &Object| scanned.get(&key(o)).is_none_or(|m| m.1);
    objects
        .into_par_iter()
        .enumerate()
        .filter(|(_, (_, o))| o.id.kind == "Secret" || extra.fields.is_some() || marked(o))
        .map(|(i, (side, obj))| {
            let mut spans: Spans = Vec::new();
            let mut needles = Vec::new();
            let mut found = Vec::new();
            let parsed = obj.parsed();
            let mut record = |span: Span| {
                spans.push((
                    (side, obj.path_at(span).to_string()),
                    (span.start.offset, span.end.offset),
                ));
            };
            walk_doc(
                (&obj.id.kind, &obj.id.group),
                parsed,
                extra,
                credentials(obj),
                &mut found,
                &mut record,
            );
            // Positions inside an embedded payload that could not be mapped exactly: mask
            // the whole payload when it holds anything private.
            mask_inexact_payloads(parsed, extra, &mut record);
            for f in found {
                add_needles(&f, &mut needles);
            }
            (i, (spans, needles))
        })
        .filter(|(_, (s, n))| !s.is_empty() || !n.is_empty())
        .collect()
}

/// Whether a file's text names a key under which private values live anywhere (Secrets aside):
/// one pass over the text for all the keys.
fn mentions_private_keys(text: &str) -> (bool, bool) {
    static KEYS: std::sync::OnceLock<Option<AhoCorasick>> = std::sync::OnceLock::new();
    let Some(keys) = KEYS
        .get_or_init(|| {
            AhoCorasick::new([
                "passwordHash",
                ".dockerconfigjson",
                ".dockercfg",
                "storage",
                "contents",
                "append",
            ])
            .ok()
        })
        .as_ref()
    else {
        return (true, true);
    };
    let mut seen = [false; 6];
    for m in keys.find_iter(text) {
        seen[m.pattern().as_usize()] = true;
        if seen[1] || seen[2] {
            return (true, true);
        }
    }
    (seen[0] || (seen[3] && (seen[4] || seen[5])), false)
}

/// Without Secrets, credential keys or repository rules, private values only live at Ignition
/// paths (`…passwd/users/N/passwordHash`, `…storage/files/N/contents|append`): only these keys
/// are descended into.
const IGNITION_PATH: [&str; 8] = [
    "spec",
    "config",
    "passwd",
    "users",
    "passwordHash",
    "storage",
    "files",
    "contents",
];

/// Walks a document (and what it embeds) and reports each private scalar's span.
/// `credentials`: whether the file's text names a registry credential key at all.
fn walk_doc<'a>(
    (kind, group): (&str, &str),
    doc: &'a ParsedDoc,
    extra: &Extra,
    credentials: bool,
    found: &mut Vec<Found<'a>>,
    span_of: &mut dyn FnMut(Span),
) {
    let root = doc.doc.root();
    let mut segs: Vec<Cow<'a, str>> = Vec::new();
    let prune = kind != "Secret"
        && extra.fields.is_none()
        && !(credentials && doc_mentions_credentials(root));
    walk(
        &Walk {
            kind,
            group,
            root,
            extra,
            prune,
        },
        root,
        &mut segs,
        None,
        found,
        span_of,
    );
    for emb in &doc.embedded {
        for inner in &emb.docs {
            let (api, kind) = crate::parse::type_meta(inner.doc.root()).unwrap_or(("", ""));
            walk_doc(
                (kind, private::group_of(api)),
                inner,
                extra,
                credentials,
                found,
                span_of,
            );
        }
    }
}

struct Walk<'w> {
    kind: &'w str,
    group: &'w str,
    root: Node<'w>,
    extra: &'w Extra,
    /// Only Ignition paths can hold private values in this document.
    prune: bool,
}

/// Whether a document has a registry credential key anywhere (a cheap walk of keys only).
fn doc_mentions_credentials(root: Node<'_>) -> bool {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        match n.kind() {
            NodeKind::Map(entries) => {
                for e in entries {
                    if matches!(e.key.key_text(), Some(".dockerconfigjson" | ".dockercfg")) {
                        return true;
                    }
                    stack.push(e.value);
                }
            }
            NodeKind::Seq(items) => stack.extend(items.iter()),
            NodeKind::Scalar { .. } => {}
        }
    }
    false
}

fn walk<'a>(
    w: &Walk<'_>,
    node: Node<'a>,
    segs: &mut Vec<Cow<'a, str>>,
    private: Option<Encoding>,
    found: &mut Vec<Found<'a>>,
    span_of: &mut dyn FnMut(Span),
) {
    if segs.len() > 300 {
        return;
    }
    let here = |segs: &[Cow<'a, str>]| -> Option<Encoding> {
        if let Some(e) = private {
            return Some(e);
        }
        is_private(w.kind, w.group, w.root, segs, w.extra).then(|| encoding_of(w.kind, segs))
    };
    match node.kind() {
        NodeKind::Scalar { .. } => {
            if let Some(encoding) = here(segs) {
                if !node.is_null() {
                    span_of(node.span());
                    found.push(Found { node, encoding });
                }
            }
        }
        NodeKind::Map(entries) => {
            for e in entries {
                let Some(key) = e.key.key_text() else {
                    continue;
                };
                if w.prune && private.is_none() && !IGNITION_PATH.contains(&key) && key != "append"
                {
                    continue;
                }
                segs.push(Cow::Borrowed(key));
                let p = here(segs);
                walk(w, e.value, segs, p, found, span_of);
                segs.pop();
            }
        }
        NodeKind::Seq(items) => {
            for (i, item) in items.iter().enumerate() {
                segs.push(Cow::Owned(i.to_string()));
                let p = here(segs);
                walk(w, item, segs, p, found, span_of);
                segs.pop();
            }
        }
    }
}

fn encoding_of(kind: &str, segs: &[Cow<'_, str>]) -> Encoding {
    let has = |x: &str| segs.iter().any(|s| s == x);
    let first = segs.first().map(|s| s.as_ref());
    if (has("contents") || has("append")) && has("storage") {
        Encoding::DataUrl
    } else if (kind == "Secret" && first == Some("data"))
        || (has(".dockerconfigjson") || has(".dockercfg")) && first != Some("stringData")
    {
        Encoding::Base64
    } else {
        Encoding::Plain
    }
}

/// When an embedded payload's positions are approximate and it holds a private value, its whole
/// value span is masked.
fn mask_inexact_payloads(doc: &ParsedDoc, extra: &Extra, span_of: &mut dyn FnMut(Span)) {
    for emb in &doc.embedded {
        if emb.exact {
            continue;
        }
        let mut found = Vec::new();
        for inner in &emb.docs {
            let (api, kind) = crate::parse::type_meta(inner.doc.root()).unwrap_or(("", ""));
            walk_doc(
                (kind, private::group_of(api)),
                inner,
                extra,
                true,
                &mut found,
                &mut |_| {},
            );
        }
        if !found.is_empty() {
            span_of(emb.value_span);
        }
    }
}

/// The searched forms of a private value: itself, JSON-escaped, what base64 or a data URL
/// decodes to, the base64 of plain text, registry `auth` entries, and long tokens of multi-line
/// values.
fn add_needles(f: &Found<'_>, out: &mut Vec<String>) {
    let text = match f.node.kind() {
        NodeKind::Scalar { text, .. } => text,
        _ => return,
    };
    if crate::placeholder::placeholder(text).is_some_and(|p| p.len() == text.trim().len()) {
        // `<path:…>` / `{{ … }}` is a reference to a secret, not one.
        return;
    }
    let mut forms: Vec<String> = vec![text.to_string()];
    match f.encoding {
        Encoding::Base64 => {
            if let Some(decoded) = base64_text(text) {
                forms.push(decoded);
            }
        }
        Encoding::Plain => {
            forms.push(base64::engine::general_purpose::STANDARD.encode(text.as_bytes()));
        }
        Encoding::DataUrl => {
            if let Ok(raw) = data_url::decode(text, None) {
                let bytes = if raw.starts_with(&[0x1f, 0x8b]) {
                    data_url::decode(text, Some("gzip")).unwrap_or(raw)
                } else {
                    raw
                };
                if let Ok(s) = String::from_utf8(bytes) {
                    forms.push(s);
                }
            }
        }
    }
    // Registry credentials: the `auth` entries (`user:password` in base64) and their decoding.
    let mut more = Vec::new();
    for form in &forms {
        if let Ok(json) = serde_json::from_str::<serde_json::Value>(form) {
            json_strings(&json, &mut more);
        }
    }
    forms.extend(more);
    for form in forms {
        push_form(&form, out);
    }
}

fn push_form(form: &str, out: &mut Vec<String>) {
    let trimmed = form.trim();
    if trimmed.len() >= MIN_SEARCHED {
        out.push(trimmed.to_string());
        let escaped = serde_json::to_string(trimmed).unwrap_or_default();
        let escaped = escaped.trim_matches('"');
        if escaped != trimmed {
            out.push(escaped.to_string());
        }
    }
    if trimmed.contains('\n') {
        for token in trimmed.split_whitespace() {
            if token.len() >= MIN_TOKEN {
                out.push(token.to_string());
            }
        }
        for line in trimmed.lines() {
            let line = line.trim();
            if line.len() >= MIN_TOKEN {
                out.push(line.to_string());
            }
        }
    }
}

/// Every string of a JSON document (a registry credential file), with `auth` values decoded.
fn json_strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => {
            out.push(s.clone());
            if let Some(d) = base64_text(s) {
                out.push(d);
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|i| json_strings(i, out)),
        serde_json::Value::Object(map) => map.values().for_each(|i| json_strings(i, out)),
        _ => {}
    }
}

fn base64_text(s: &str) -> Option<String> {
    let cleaned: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(cleaned.as_bytes())
        .ok()?;
    String::from_utf8(bytes).ok()
}

/// Redacts the changed fields of the diff: a private field's `before`/`after` become a digest,
/// its text diff is dropped. Runs before any model or rule reads the diff.
pub fn fields(diff: &mut Diff, base: &Inventory, head: &Inventory, extra: &Extra) {
    for change in &mut diff.changes {
        let b = change.base.map(|i| &base.objects[i]);
        let h = change.head.map(|i| &head.objects[i]);
        for f in &mut change.fields {
            let in_base = b.and_then(|o| resolve(o, &f.path));
            let in_head = h.and_then(|o| resolve(o, &f.path));
            let private = [&in_base, &in_head]
                .iter()
                .any(|r| r.as_ref().is_some_and(|r| r.private(extra)));
            if !private {
                continue;
            }
            let show = |r: &Option<Resolved<'_>>, fallback: &Option<String>| {
                fallback.as_ref().map(|_| {
                    r.as_ref()
                        .and_then(|r| r.value)
                        .map(digest)
                        .unwrap_or_else(|| PLACEHOLDER.to_string())
                })
            };
            f.before = show(&in_base, &f.before);
            f.after = show(&in_head, &f.after);
            f.text_diff = None;
        }
    }
}

/// A field path resolved in an object: the document it is in (outer or embedded), the kind of
/// that document and the value, when present.
struct Resolved<'a> {
    kind: String,
    group: String,
    root: Node<'a>,
    segs: Vec<String>,
    value: Option<Node<'a>>,
}

impl Resolved<'_> {
    fn private(&self, extra: &Extra) -> bool {
        is_private(&self.kind, &self.group, self.root, &self.segs, extra)
    }
}

/// Resolves `/data/config[MachineConfig name]/spec/…` style diff paths.
fn resolve<'a>(obj: &'a Object, path: &str) -> Option<Resolved<'a>> {
    let mut doc: &ParsedDoc = obj.parsed();
    let mut kind = obj.id.kind.clone();
    let mut group = obj.id.group.clone();
    let mut rest = path;
    loop {
        let Some(open) = rest.find('[') else {
            let segs = split(rest);
            let value = private::node_at(doc.doc.root(), &segs);
            return Some(Resolved {
                kind: kind.into(),
                group: group.into(),
                root: doc.doc.root(),
                segs,
                value,
            });
        };
        let close = rest[open..].find(']')? + open;
        let key_path = split(&rest[..open]);
        let label = &rest[open + 1..close];
        let key = key_path.last()?;
        let emb = doc.embedded.iter().find(|e| &e.key == key)?;
        let inner = emb.docs.iter().enumerate().find(|(i, d)| {
            let r = d.doc.root();
            let k = r.get("kind").and_then(Node::as_str).unwrap_or("document");
            match r.path(&["metadata", "name"]).and_then(Node::as_str) {
                Some(name) => format!("{k} {name}") == label,
                None => format!("{k} #{i}") == label,
            }
        })?;
        doc = inner.1;
        let (api, k) = crate::parse::type_meta(doc.doc.root()).unwrap_or(("", ""));
        kind = k.into();
        group = private::group_of(api).into();
        rest = &rest[close + 1..];
    }
}

fn split(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// Masks every private value in the free text of findings, forecast and changes (a fix that
/// would write one, or whose title shows one, is dropped: a masked edit cannot be applied).
pub fn outcome(
    redaction: &Redaction,
    diagnostics: &mut [Diagnostic],
    forecast: &mut [Impact],
    diff: &mut Diff,
) {
    if redaction.matcher.is_none() {
        return;
    }
    for d in diagnostics.iter_mut() {
        if let Some(fix) = &d.fix {
            let (mut title, mut replacement) = (fix.title.clone(), fix.replacement.clone());
            redaction.scrub_in_place(&mut title);
            redaction.scrub_in_place(&mut replacement);
            if title != fix.title || replacement != fix.replacement {
                d.fix = None;
            }
        }
    }
    texts(diagnostics, forecast, diff, &mut |s| {
        redaction.scrub_in_place(s)
    });
}

/// Every free text of findings (fixes aside), forecast and changes that a report prints: what
/// [`outcome`] masks, and what a scoped check probes for values it cannot mask itself.
pub fn texts(
    diagnostics: &mut [Diagnostic],
    forecast: &mut [Impact],
    diff: &mut Diff,
    f: &mut dyn FnMut(&mut String),
) {
    for d in diagnostics {
        f(&mut d.message);
        for s in d
            .label
            .iter_mut()
            .chain(d.help.iter_mut())
            .chain(d.notes.iter_mut())
        {
            f(s);
        }
        for r in &mut d.related {
            f(&mut r.message);
        }
    }
    for i in forecast {
        for c in &mut i.causes {
            f(&mut c.summary);
        }
        f(&mut i.when.reason);
        if let Some(r) = &mut i.rollout {
            f(&mut r.summary);
        }
    }
    for c in &mut diff.changes {
        for field in &mut c.fields {
            for s in field
                .before
                .iter_mut()
                .chain(field.after.iter_mut())
                .chain(field.text_diff.iter_mut())
            {
                f(s);
            }
        }
    }
}
