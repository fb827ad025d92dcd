//! Parse stage: every candidate file becomes located documents, once per distinct content.
//!
//! Embedded payloads are parsed here too, so later stages never re-parse: YAML documents in a
//! HyperShift ConfigMap's `data.config` / `data.tuning`, and Ignition file contents (data URLs) of
//! MachineConfigs, wherever those MachineConfigs are.

pub mod data_url;
mod embedded;
mod ignition;
pub mod role;
mod template;
mod unread;

use std::collections::HashMap;
use std::sync::Arc;

use nodecast_yaml::{Document, Node, Options, Pos, Problem, ProblemKind, Span};
use rayon::prelude::*;

pub use embedded::Embedded;
pub use ignition::{IgnitionFile, IgnitionSource};
pub use unread::{LooseId, Unread, UnreadKind};

use crate::source::{Content, Snapshot};

/// A parsed file: its text (for code frames) and documents, or why it was not parsed.
#[derive(Debug)]
pub struct ParsedFile {
    /// The file's text when it is UTF-8.
    pub text: Option<Arc<str>>,
    /// Whether it was parsed, and if not, why.
    pub status: FileStatus,
    /// Documents, in order.
    pub docs: Vec<ParsedDoc>,
    /// YAML problems of the file itself (embedded ones live with their [`Embedded`]).
    pub problems: Vec<Problem>,
    /// The parts nodecast could not read (the whole file, a templated document, everything after
    /// a syntax error): a change to them is never "no node impact".
    pub unread: Vec<Unread>,
    /// The encoding the text was decoded from when it was not UTF-8 (`UTF-16LE`, `UTF-16BE`).
    pub encoding: Option<&'static str>,
    /// The blob this parse is a function of alone (parsed within the file's own budget), so a
    /// result computed from it may be kept between runs under the blob's id; `None` for a parse
    /// that shared the run's budget, a render's, a wrapper's or an unread file.
    pub blob: Option<[u8; 20]>,
}

/// Why a file was or was not parsed; each non-`Parsed` status becomes one diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileStatus {
    /// Parsed (possibly with problems).
    Parsed,
    /// Contains Go/Helm template actions outside string values; not a manifest yet.
    Templated {
        /// The first template action.
        at: Span,
    },
    /// Over the size limit; not read.
    TooLarge {
        /// Size in bytes.
        size: u64,
    },
    /// Contains NUL bytes.
    Binary,
    /// Not valid UTF-8 (or UTF-16 with a BOM).
    NotUtf8 {
        /// Where the first invalid byte is.
        at: Pos,
        /// Extra detail (e.g. "UTF-16 byte order mark").
        detail: String,
    },
    /// Could not be read at all.
    Unreadable {
        /// The reason.
        reason: String,
    },
}

/// One document with what was decoded from inside it.
#[derive(Debug)]
pub struct ParsedDoc {
    /// The located document.
    pub doc: Document,
    /// YAML documents held in ConfigMap `data.config` / `data.tuning` values.
    pub embedded: Vec<Embedded>,
    /// Ignition files of a MachineConfig, decoded (their lengths, or why not).
    pub ignition: Vec<IgnitionFile>,
    /// [`ParsedDoc::is_literal`], computed on first use.
    literal: std::sync::OnceLock<bool>,
}

impl ParsedDoc {
    /// A document as [`decode_doc_within`] leaves it.
    pub fn new(doc: Document, embedded: Vec<Embedded>, ignition: Vec<IgnitionFile>) -> Self {
        ParsedDoc {
            doc,
            embedded,
            ignition,
            literal: std::sync::OnceLock::new(),
        }
    }

    /// The decoded bytes of one of [`ParsedDoc::ignition`] (decoded again: they are not kept).
    pub fn ignition_bytes(&self, file: &IgnitionFile) -> Option<Vec<u8>> {
        ignition::bytes(self.doc.root(), file)
    }

    /// The `path` of one of [`ParsedDoc::ignition`], when the document gives one.
    pub fn ignition_path(&self, file: &IgnitionFile) -> Option<&str> {
        ignition::path(self.doc.root(), file)
    }

    /// Where the `source` value of one of [`ParsedDoc::ignition`] is written.
    pub fn ignition_span(&self, file: &IgnitionFile) -> Span {
        ignition::source_span(self.doc.root(), file)
    }

    /// No alias copy, explicit tag or merge key anywhere: the document is what its text spells,
    /// so a tool that prints it back (Kustomize) prints the same. Kept with the parse, which both
    /// sides and every later run holding the same content share, so each document is walked once.
    pub fn is_literal(&self) -> bool {
        *self.literal.get_or_init(|| literal(self.doc.root()))
    }
}

fn literal(node: Node<'_>) -> bool {
    if node.from_alias() || node.tag().is_some() {
        return false;
    }
    // By class only: a scalar's value is not resolved to be told it is a scalar.
    if let Some(entries) = node.as_map() {
        entries
            .iter()
            .all(|e| e.key.key_text() != Some("<<") && literal(e.key) && literal(e.value))
    } else if let Some(items) = node.as_seq() {
        items.iter().all(literal)
    } else {
        true
    }
}

/// A file of one side with its parse.
#[derive(Clone, Debug)]
pub struct FileEntry {
    /// Repository-relative path.
    pub path: std::sync::Arc<str>,
    /// The content id (Git blob id) when known: equal ids on both sides mean the file did not
    /// change, even when it could not be read.
    pub id: Option<[u8; 20]>,
    /// Read through a symbolic link.
    pub via_link: bool,
    /// Shared between sides when the content is identical.
    pub parsed: Arc<ParsedFile>,
    /// What the file is to the cluster (set by [`crate::classify`]; a manifest until then).
    pub role: role::Role,
}

impl FileEntry {
    /// A file read as a manifest until [`crate::classify`] says otherwise.
    pub fn new(path: impl Into<Arc<str>>, parsed: Arc<ParsedFile>) -> Self {
        FileEntry {
            path: path.into(),
            id: None,
            via_link: false,
            parsed,
            role: role::Role::Manifest,
        }
    }
}

/// The parsed files of both sides.
#[derive(Debug, Default)]
pub struct ParsedSides {
    /// Base files, sorted by path.
    pub base: Vec<FileEntry>,
    /// Head files, sorted by path.
    pub head: Vec<FileEntry>,
    /// Distinct contents parsed (identical blobs in base and head are parsed once).
    pub parsed_count: usize,
}

/// Nodes YAML alias expansion may add to one file (all its documents and embedded payloads).
pub const FILE_ALIAS_BUDGET: usize = 1_000_000;
/// Nodes alias expansion may add to all files of a run beyond the first pass's allowance.
pub const RUN_ALIAS_BUDGET: usize = 2_000_000;
/// Decoded Ignition payload bytes one file may hold.
pub const FILE_PAYLOAD_BUDGET: u64 = 64 * 1024 * 1024;
/// Decoded Ignition payload bytes all files of a run may hold beyond the first pass's allowance.
pub const RUN_PAYLOAD_BUDGET: u64 = 128 * 1024 * 1024;

/// The expansion a file may use in the parallel first pass: proportional to its size, so the pass
/// adds at most an eighth of a node per input byte however many files there are. A file that needs
/// more is parsed again, in a fixed order, from the run's budget.
fn first_pass_alias_budget(len: usize) -> usize {
    len / 8
}

/// The decoded payload bytes a file may hold in the first pass: four times its size (inline
/// payloads decode to less than their text; gzip rarely expands text more than that).
fn first_pass_payload_budget(len: usize) -> u64 {
    len as u64 * 4
}

/// What is left of a file's budgets (alias expansion, decoded payloads) while its documents and
/// embedded payloads are parsed.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Alias nodes still allowed.
    pub alias_left: usize,
    /// Some document or payload was dropped because the alias budget ran out.
    pub alias_hit: bool,
    /// Decoded Ignition payload bytes.
    pub payload: data_url::Budget,
}

impl Budget {
    /// A budget of `alias` nodes and `payload` decoded bytes.
    pub fn new(alias: usize, payload: u64, whose: &'static str) -> Self {
        Budget {
            alias_left: alias,
            alias_hit: false,
            payload: data_url::Budget::new(payload, whose),
        }
    }

    /// The per-file budgets.
    pub fn file() -> Self {
        Budget::new(
            FILE_ALIAS_BUDGET,
            FILE_PAYLOAD_BUDGET,
            "this file's budget (64 MiB)",
        )
    }

    fn hit(&self) -> bool {
        self.alias_hit || self.payload.hit
    }

    /// Parse options whose total alias budget is what is left.
    pub fn options(&self, opts: &Options) -> Options {
        Options {
            max_total_alias_expansion: self.alias_left,
            ..*opts
        }
    }

    /// Charges a parse's alias expansion.
    pub fn take(&mut self, parsed: &nodecast_yaml::Parsed) {
        self.alias_left = self.alias_left.saturating_sub(parsed.alias_nodes);
        self.alias_hit |= parsed.total_alias_limit_hit;
    }
}

/// A file's content id, its bytes when it must be parsed again (its first pass hit a budget), and
/// its first-pass parse.
type FirstPass = ([u8; 20], Option<Arc<[u8]>>, ParsedFile);

/// Parses both snapshots in parallel; each distinct content is parsed exactly once (files whose
/// aliases need more than the first pass allows are parsed again, sequentially in content order,
/// so which of them the run's budget covers never depends on thread timing).
pub fn parse_sides(base: &Snapshot, head: &Snapshot) -> ParsedSides {
    parse_sides_reusing(&mut base.clone(), &mut head.clone(), &mut Parses::default())
}

/// Parses kept between runs by content id (a long-lived caller such as the language server, whose
/// next check differs by a few files): only contents parsed within their own budget are kept, so
/// a kept parse is exactly what parsing again would give.
pub type Parses = HashMap<[u8; 20], Arc<ParsedFile>>;

/// [`parse_sides`], taking the parse of a content from `kept` when an earlier run made it; on
/// return `kept` holds the reusable parses of this run's contents (and nothing else). The
/// snapshots' bytes are taken (their contents keep their ids): each is released once parsed, so
/// a fleet's files are not held twice — as bytes and as the text the parse keeps.
pub fn parse_sides_reusing(
    base: &mut Snapshot,
    head: &mut Snapshot,
    kept: &mut Parses,
) -> ParsedSides {
    let mut unique: HashMap<[u8; 20], Arc<[u8]>> = HashMap::new();
    let mut reused: HashMap<[u8; 20], Arc<ParsedFile>> = HashMap::new();
    let released: Arc<[u8]> = Arc::from(&[][..]);
    for file in base.files.iter_mut().chain(head.files.iter_mut()) {
        if let Content::Bytes { id, bytes } = &mut file.content {
            let bytes = std::mem::replace(bytes, released.clone());
            if let Some(p) = kept.get(id) {
                reused.entry(*id).or_insert_with(|| p.clone());
            } else {
                unique.entry(*id).or_insert(bytes);
            }
        }
    }
    let first: Vec<FirstPass> = unique
        .into_par_iter()
        .map(|(id, bytes)| {
            let mut budget = Budget::new(
                first_pass_alias_budget(bytes.len()),
                first_pass_payload_budget(bytes.len()),
                "the first pass's budget",
            );
            let f = parse_shared_within(&bytes, &mut budget);
            (id, budget.hit().then_some(bytes), f)
        })
        .collect();
    let mut parsed: HashMap<[u8; 20], Arc<ParsedFile>> = reused;
    parsed.reserve(first.len());
    let mut again: Vec<([u8; 20], Arc<[u8]>)> = Vec::new();
    for (id, bytes, mut f) in first {
        if let Some(bytes) = bytes {
            again.push((id, bytes));
        } else {
            f.blob = Some(id);
            parsed.insert(id, Arc::new(f));
        }
    }
    // What the first pass parsed within a file's own budget does not depend on the other files:
    // it is what the next run would parse. The second pass shares the run's budget: not kept.
    kept.clear();
    kept.extend(parsed.iter().map(|(id, p)| (*id, p.clone())));
    again.sort_by_key(|a| a.0);
    let (mut alias_left, mut payload_left) = (RUN_ALIAS_BUDGET, RUN_PAYLOAD_BUDGET);
    for (id, bytes) in again {
        let alias = FILE_ALIAS_BUDGET.min(alias_left);
        let payload = FILE_PAYLOAD_BUDGET.min(payload_left);
        let whose = if payload < FILE_PAYLOAD_BUDGET {
            "the run's budget (128 MiB beyond the first pass, shared by all files)"
        } else {
            "this file's budget (64 MiB)"
        };
        let mut budget = Budget::new(alias, payload, whose);
        let mut f = parse_shared_within(&bytes, &mut budget);
        alias_left = alias_left.saturating_sub(alias - budget.alias_left);
        payload_left = payload_left.saturating_sub(payload - budget.payload.left);
        if budget.alias_hit && alias < FILE_ALIAS_BUDGET {
            note_run_budget(&mut f);
        }
        parsed.insert(id, Arc::new(f));
    }
    // One path allocation per path of the run: both sides list nearly every file.
    let mut paths: std::collections::HashSet<Arc<str>> =
        std::collections::HashSet::with_capacity(head.files.len());
    let mut path_of = |p: &str| -> Arc<str> {
        if let Some(shared) = paths.get(p) {
            return shared.clone();
        }
        let shared: Arc<str> = p.into();
        paths.insert(shared.clone());
        shared
    };
    let mut side = |snap: &Snapshot| -> Vec<FileEntry> {
        snap.files
            .iter()
            .map(|f| FileEntry {
                path: path_of(&f.path),
                role: role::Role::Manifest,
                id: f.content.id(),
                via_link: f.via_link,
                parsed: match &f.content {
                    Content::Bytes { id, .. } => parsed.get(id).cloned().unwrap_or_else(|| {
                        Arc::new(unparsed(FileStatus::Unreadable {
                            reason: "internal: content was not parsed".into(),
                        }))
                    }),
                    Content::TooLarge { size, .. } => {
                        Arc::new(unparsed(FileStatus::TooLarge { size: *size }))
                    }
                    Content::Unreadable { reason, .. } => {
                        Arc::new(unparsed(FileStatus::Unreadable {
                            reason: reason.clone(),
                        }))
                    }
                },
            })
            .collect()
    };
    ParsedSides {
        base: side(base),
        head: side(head),
        parsed_count: parsed.len(),
    }
}

fn unparsed(status: FileStatus) -> ParsedFile {
    let whole = unread::whole_file(&status);
    ParsedFile {
        text: None,
        status,
        docs: Vec::new(),
        problems: Vec::new(),
        unread: whole.into_iter().collect(),
        encoding: None,
        blob: None,
    }
}

/// Says on each "alias budget exhausted" problem of a file that the run's budget, not the file's,
/// ran out.
fn note_run_budget(f: &mut ParsedFile) {
    let note = format!(
        "; the run's alias expansion budget ({RUN_ALIAS_BUDGET} nodes beyond the first pass) is used up by other files"
    );
    let mut problems: Vec<&mut Problem> = f.problems.iter_mut().collect();
    for d in &mut f.docs {
        collect_embedded_problems(d, &mut problems);
    }
    for p in problems {
        if p.kind == ProblemKind::Limit && p.message.starts_with(nodecast_yaml::TOTAL_ALIAS_LIMIT) {
            p.message.push_str(&note);
        }
    }
}

fn collect_embedded_problems<'a>(d: &'a mut ParsedDoc, out: &mut Vec<&'a mut Problem>) {
    for e in &mut d.embedded {
        out.extend(e.problems.iter_mut());
        for inner in &mut e.docs {
            collect_embedded_problems(inner, out);
        }
    }
}

/// Parses one file's bytes with the per-file budgets; never panics.
///
/// UTF-16 with a byte order mark is decoded; a file that is not UTF-8 is read leniently only to
/// learn which objects it holds; documents holding template actions are left out and the other
/// documents of the file are parsed (unless the template has control structures, which decide
/// what the documents are).
pub fn parse_file(bytes: &[u8]) -> ParsedFile {
    parse_file_within(bytes, &mut Budget::file())
}

/// Parses one file's bytes charging `budget` (alias expansion, decoded payloads); never panics.
pub fn parse_file_within(bytes: &[u8], budget: &mut Budget) -> ParsedFile {
    parse_within(bytes, None, budget)
}

/// [`parse_file_within`] of bytes the source already shares: UTF-8 text keeps their allocation
/// instead of a copy, so a fleet's files are not held twice while they are parsed.
pub fn parse_shared_within(bytes: &Arc<[u8]>, budget: &mut Budget) -> ParsedFile {
    parse_within(bytes, Some(bytes), budget)
}

/// `text`, which `std::str::from_utf8` made of all of `bytes`, in the bytes' allocation.
fn shared_text(bytes: &Arc<[u8]>, text: &str) -> Arc<str> {
    if !std::ptr::eq(bytes.as_ptr(), text.as_ptr()) || bytes.len() != text.len() {
        return text.into();
    }
    let raw: *const [u8] = Arc::into_raw(bytes.clone());
    // SAFETY: `str` and `[u8]` have the same layout, and `text` is these very bytes checked to
    // be UTF-8 (the inverse of std's `From<Arc<str>> for Arc<[u8]>`). The bytes are never written
    // through an `Arc<[u8]>` again: `Arc::get_mut` needs the only reference, and the text is one.
    unsafe { Arc::from_raw(raw as *const str) }
}

fn parse_within(bytes: &[u8], shared: Option<&Arc<[u8]>>, budget: &mut Budget) -> ParsedFile {
    let (text, encoding): (Arc<str>, Option<&'static str>) =
        if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
            match unread::utf16(bytes) {
                Ok(decoded) => decoded,
                Err(detail) => {
                    return unparsed(FileStatus::NotUtf8 {
                        at: Pos {
                            offset: 0,
                            line: 1,
                            col: 1,
                        },
                        detail,
                    })
                }
            }
        } else {
            if bytes.contains(&0) {
                return unparsed(FileStatus::Binary);
            }
            match std::str::from_utf8(bytes) {
                Ok(text) => (
                    shared.map_or_else(|| text.into(), |b| shared_text(b, text)),
                    None,
                ),
                Err(err) => {
                    let valid = &bytes[..err.valid_up_to()];
                    let prefix = std::str::from_utf8(valid).unwrap_or_default();
                    let at = nodecast_yaml::LineIndex::new(prefix).pos(prefix, prefix.len());
                    let bad = bytes.get(err.valid_up_to()).copied().unwrap_or_default();
                    let mut file = unparsed(FileStatus::NotUtf8 {
                        at,
                        detail: format!(
                            "byte 0x{bad:02x} at offset {} is not valid UTF-8",
                            err.valid_up_to()
                        ),
                    });
                    // Which objects it holds, read leniently: never their content.
                    let lossy = String::from_utf8_lossy(bytes);
                    for u in &mut file.unread {
                        u.objects = Some(unread::loose_objects(&lossy));
                    }
                    return file;
                }
            }
        };
    let opts = Options::default();
    // The documents' scalars are ranges of the file's text, which the file keeps anyway.
    let source = nodecast_yaml::Source::new(text.clone());
    let parsed = nodecast_yaml::parse_source(&source, &budget.options(&opts));
    budget.take(&parsed);
    let actions = template_actions(&source, &parsed);
    if let Some(&at) = actions.first() {
        return templated(text, encoding, at, actions, &budget.options(&opts), budget);
    }
    let unread = unread::after_syntax_error(&text, &parsed.problems)
        .into_iter()
        .collect();
    let docs = parsed
        .documents
        .into_iter()
        .map(|doc| decode_doc_within(&text, doc, &opts, budget))
        .collect();
    ParsedFile {
        text: Some(text),
        status: FileStatus::Parsed,
        docs,
        problems: parsed.problems,
        unread,
        encoding,
        blob: None,
    }
}

/// A file with template actions: the documents without any are parsed (their positions are
/// those of the file), the templated ones are left out as unread parts. A template with control
/// structures (`if`, `range`, …), or one whose untemplated documents do not parse, leaves the
/// whole file unread.
fn templated(
    text: Arc<str>,
    encoding: Option<&'static str>,
    at: Span,
    actions: Vec<Span>,
    opts: &Options,
    budget: &mut Budget,
) -> ParsedFile {
    let whole = |text: Arc<str>| {
        let objects = unread::loose_objects(&text);
        ParsedFile {
            status: FileStatus::Templated { at },
            docs: Vec::new(),
            problems: Vec::new(),
            unread: vec![Unread {
                kind: UnreadKind::Templated,
                at: Some(at),
                reason: "it holds Go/Helm template actions".into(),
                objects: Some(objects),
                digest: None,
            }],
            encoding,
            blob: None,
            text: Some(text),
        }
    };
    if unread::has_control_structure(&text) {
        return whole(text);
    }
    let Some((blanked, parts)) = unread::blank_templated_documents(&text, &actions) else {
        return whole(text);
    };
    let reparsed = nodecast_yaml::parse(&blanked, opts);
    budget.take(&reparsed);
    if reparsed
        .problems
        .iter()
        .any(|p| p.kind == ProblemKind::Syntax)
    {
        return whole(text);
    }
    let docs = reparsed
        .documents
        .into_iter()
        .map(|doc| decode_doc_within(&text, doc, opts, budget))
        .collect();
    ParsedFile {
        status: FileStatus::Parsed,
        docs,
        problems: reparsed.problems,
        unread: parts,
        encoding,
        blob: None,
        text: Some(text),
    }
}

/// Decodes what a document embeds (ConfigMap payloads, Ignition files), recursively, charging
/// alias expansion and decoded payloads to `budget`.
pub(crate) fn decode_doc_within(
    outer: &str,
    doc: Document,
    opts: &Options,
    budget: &mut Budget,
) -> ParsedDoc {
    let embedded = embedded::decode(outer, doc.root(), opts, budget);
    let ignition = ignition::decode(doc.root(), &mut budget.payload);
    ParsedDoc::new(doc, embedded, ignition)
}

/// The Ignition files of a MachineConfig document (for documents built outside this stage),
/// charging `budget`.
pub(crate) fn ignition_of(root: Node<'_>, budget: &mut Budget) -> Vec<IgnitionFile> {
    ignition::decode(root, &mut budget.payload)
}

/// Every template action a renderer would execute ([`template::actions`]), as spans (positions
/// from the source's own line starts, which the file's findings use too).
fn template_actions(source: &nodecast_yaml::Source, parsed: &nodecast_yaml::Parsed) -> Vec<Span> {
    template::actions(source.text(), parsed)
        .into_iter()
        .map(|offset| Span {
            start: source.pos(offset),
            end: source.pos(offset + 2),
        })
        .collect()
}

/// `apiVersion` and `kind` strings of a document, when both are strings.
pub fn type_meta(root: Node<'_>) -> Option<(&str, &str)> {
    Some((
        root.get("apiVersion")?.as_str()?,
        root.get("kind")?.as_str()?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shared parse keeps the source's allocation as the text and parses exactly as the
    /// copying one; bytes that are not UTF-8 (or UTF-16) still take their own paths.
    #[test]
    fn a_shared_parse_keeps_the_bytes_as_the_text_and_parses_the_same() {
        let yaml = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a # é\ndata:\n  k: v\n";
        let bytes: Arc<[u8]> = Arc::from(yaml.as_bytes());
        let shared = parse_shared_within(&bytes, &mut Budget::file());
        let copied = parse_file(yaml.as_bytes());
        let text = shared.text.as_deref().unwrap_or_default();
        assert!(std::ptr::eq(text.as_ptr(), bytes.as_ptr()));
        assert_eq!(text, yaml);
        assert_eq!(format!("{:?}", shared.docs), format!("{:?}", copied.docs));
        // The text outlives the source's handle.
        drop(bytes);
        let k = shared.docs[0].doc.root().path(&["data", "k"]);
        assert_eq!(k.and_then(|n| n.as_str()), Some("v"));

        let latin1: Arc<[u8]> = Arc::from(&b"kind: \xe9\n"[..]);
        let not_utf8 = parse_shared_within(&latin1, &mut Budget::file());
        assert!(matches!(not_utf8.status, FileStatus::NotUtf8 { .. }));
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(
                "kind: ConfigMap\n"
                    .encode_utf16()
                    .flat_map(u16::to_le_bytes),
            )
            .collect();
        let decoded = parse_shared_within(&Arc::from(utf16), &mut Budget::file());
        assert_eq!(decoded.text.as_deref(), Some("kind: ConfigMap\n"));
        assert_eq!(decoded.encoding, Some("UTF-16LE"));
    }
}
