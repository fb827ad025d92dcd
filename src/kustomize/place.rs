//! Placing rendered objects back into the repository: Kustomize's output has no positions of
//! its own, so each object is matched to its origin document (from the origin annotation), and
//! each value to the line that writes it — the origin file, a patch or a kustomization field —
//! else to the object's first line. Generated ConfigMap payloads are placed in the files they are
//! generated from.

use std::collections::HashMap;
use std::sync::Arc;

use nodecast_yaml::{Document, Node, NodeId, Span};

use super::kustomization::join;
use super::plan::Plan;
use super::{candidates, display_root, remap, RenderedObject};
use crate::parse::{self, Embedded, FileEntry, FileStatus, ParsedDoc, ParsedFile};

/// Turns Kustomize's output into objects placed in the repository.
pub(super) fn place(
    p: &Plan,
    text: &str,
    files: &HashMap<&str, &FileEntry>,
    budget: &mut parse::Budget,
) -> Vec<RenderedObject> {
    let opts = nodecast_yaml::Options::default();
    let source = nodecast_yaml::Source::new(text.into());
    let parsed = nodecast_yaml::parse_source(&source, &budget.options(&opts));
    budget.take(&parsed);
    let mut sources = Sources {
        plan: p,
        by_path: files,
        cache: HashMap::new(),
    };
    let mut out = Vec::new();
    for doc in parsed.documents {
        let pd = parse::decode_doc_within(source.text(), doc, &opts, budget);
        out.extend(place_object(p, pd, &mut sources, budget));
    }
    out
}

/// The files a rendered value may come from: the side's parsed files, else the render's inputs
/// (parsed once, on first use).
struct Sources<'a> {
    /// The root being rendered (its inputs).
    plan: &'a Plan,
    /// The side's files by path.
    by_path: &'a HashMap<&'a str, &'a FileEntry>,
    /// Inputs parsed so far.
    cache: HashMap<String, Arc<ParsedFile>>,
}

impl Sources<'_> {
    /// The parsed file at `path`, if the side or the render's inputs have it.
    fn file(&mut self, path: &str) -> Option<Arc<ParsedFile>> {
        if let Some(f) = self.by_path.get(path) {
            return Some(f.parsed.clone());
        }
        if let Some(f) = self.cache.get(path) {
            return Some(f.clone());
        }
        let bytes = self.plan.inputs.get(path)?;
        let f = Arc::new(parse::parse_file(bytes));
        self.cache.insert(path.to_string(), f.clone());
        Some(f)
    }
}

/// One rendered object while it is placed: what it is, where it comes from, and the other files
/// its values point into.
struct Object<'a> {
    /// The root being rendered.
    plan: &'a Plan,
    /// Its `kind`.
    kind: String,
    /// Its rendered `metadata.name`.
    name: String,
    /// The document it comes from in its origin file, when one matches.
    origin_doc: Option<&'a ParsedDoc>,
    /// Where a value without a better place is shown.
    fallback: Span,
    /// Made by a generator (its payloads come from files of their own).
    generated: bool,
    /// The files values may point into, by tag (0 is the origin file).
    tags: Vec<String>,
    /// Spans assigned to a file other than the origin, with its tag.
    elsewhere: Vec<(Span, usize)>,
}

/// Places one rendered document: its origin, its values, its payloads; `None` when its origin
/// file is unknown.
fn place_object(
    p: &Plan,
    mut pd: ParsedDoc,
    sources: &mut Sources<'_>,
    budget: &mut parse::Budget,
) -> Option<RenderedObject> {
    // Every node is placed on its own: none may stand for two places.
    pd.doc = pd.doc.unshared();
    for emb in &mut pd.embedded {
        for inner in &mut emb.docs {
            inner.doc = std::mem::replace(&mut inner.doc, placeholder()).unshared();
        }
    }
    let origin = take_origin(&mut pd.doc);
    let origin_path = origin
        .as_ref()
        .and_then(|o| o.path.clone())
        .unwrap_or_else(|| p.file.clone());
    let origin_file = sources.file(&origin_path)?;
    let kind = pd
        .doc
        .root()
        .get("kind")
        .and_then(Node::as_str)
        .unwrap_or_default()
        .to_string();
    let name = pd
        .doc
        .root()
        .path(&["metadata", "name"])
        .and_then(Node::as_str)
        .unwrap_or_default()
        .to_string();
    let origin_doc: Option<&ParsedDoc> = if origin.as_ref().and_then(|o| o.path.as_ref()).is_some()
    {
        matching_doc(&origin_file.docs, &kind, &name)
    } else {
        None
    };
    let mut object = Object {
        plan: p,
        fallback: fallback(origin.as_ref(), origin_doc, &origin_file),
        kind,
        name,
        origin_doc,
        generated: origin.as_ref().is_some_and(|o| o.generator.is_some()),
        tags: Vec::new(),
        elsewhere: Vec::new(),
    };
    object.place_values(&origin_path, &mut pd.doc, sources);
    pd.doc.span = origin_doc.map(|d| d.doc.span).unwrap_or(object.fallback);
    for emb in &mut pd.embedded {
        object.place_payload(emb, &mut pd.doc, sources);
    }
    refund_payloads(&mut pd, budget);
    let elsewhere: Vec<(Span, String)> = remap::elsewhere(&object.elsewhere)
        .into_iter()
        .filter_map(|(span, tag)| Some((span, object.tags.get(tag)?.clone())))
        .collect();
    Some(RenderedObject {
        elsewhere: Arc::new(elsewhere),
        path: origin_path,
        overlay: display_root(&p.root).to_string(),
        file: Arc::new(ParsedFile {
            text: origin_file.text.clone(),
            status: FileStatus::Parsed,
            docs: vec![pd],
            problems: Vec::new(),
            unread: Vec::new(),
            encoding: None,
            blob: None,
        }),
    })
}

/// Where an object's values go when nothing better matches: the origin document's first line, a
/// generator's entry in its kustomization, else the origin file's first line.
fn fallback(
    origin: Option<&OriginInfo>,
    origin_doc: Option<&ParsedDoc>,
    file: &ParsedFile,
) -> Span {
    match origin_doc {
        Some(d) => first_line(d.doc.root()),
        None => origin
            .and_then(|o| o.generator.as_deref())
            .and_then(|g| file.docs.first().and_then(|d| d.doc.root().entry(g)))
            .map(|e| e.key.span())
            .unwrap_or_else(|| {
                file.docs
                    .first()
                    .map(|d| first_line(d.doc.root()))
                    .unwrap_or_default()
            }),
    }
}

impl Object<'_> {
    /// Places the object's values: at the origin document, then at the patches and kustomization
    /// fields of the closure that write them.
    fn place_values(&mut self, origin_path: &str, doc: &mut Document, sources: &mut Sources<'_>) {
        let origin_name = self
            .origin_doc
            .and_then(|d| d.doc.root().path(&["metadata", "name"]))
            .and_then(Node::as_str)
            .unwrap_or(&self.name)
            .to_string();
        // Candidates: the origin document, then patches and kustomization fields of the closure.
        let gathered = candidates::gather(
            &self.plan.kustomizations,
            origin_path,
            &self.kind,
            &origin_name,
            &mut |path: &str| sources.file(path),
        );
        self.tags = gathered.files.clone();
        let mut cands: Vec<remap::Cand<'_>> = Vec::new();
        if let Some(d) = self.origin_doc {
            cands.push((d.doc.root(), 0));
        }
        cands.extend(gathered.nodes.iter().map(|(n, t)| (n.root(), *t)));
        let mut spans = Vec::new();
        remap::remap(
            doc.root(),
            &cands,
            (self.fallback, 0),
            &mut self.elsewhere,
            &mut spans,
        );
        set_spans(doc, spans);
    }

    /// Places one embedded payload (`data.config`): a generated one in the file it is generated
    /// from, else in the origin document's payload.
    fn place_payload(&mut self, emb: &mut Embedded, doc: &mut Document, sources: &mut Sources<'_>) {
        // A generated ConfigMap's payload is a file of its own: locate it there.
        let source = self
            .generated
            .then(|| {
                candidates::generator_source(
                    &self.plan.kustomizations,
                    &self.kind,
                    &self.name,
                    &emb.key,
                )
            })
            .flatten();
        let source_file = source.as_ref().and_then(|s| sources.file(&s.file));
        let before = self
            .origin_doc
            .and_then(|d| d.embedded.iter().find(|e| e.key == emb.key));
        emb.value_span = doc
            .root()
            .path(&["data", &emb.key])
            .map(|n| n.span())
            .unwrap_or(self.fallback);
        let mut source_tag = 0;
        if let (Some(src), Some(_)) = (&source, &source_file) {
            emb.value_span = src.entry;
            if let Some(ktag) = self.tags.iter().position(|t| t == &src.kustomization) {
                self.elsewhere.push((src.entry, ktag));
                if let Some(value) = data_value(doc.root(), &emb.key) {
                    doc.set_span(value, src.entry);
                }
            }
            source_tag = self.tags.len();
            self.tags.push(src.file.clone());
        }
        emb.problems.clear();
        for (i, inner) in emb.docs.iter_mut().enumerate() {
            let cand = match &source_file {
                Some(f) => f.docs.get(i).map(|d| (d.doc.root(), source_tag)),
                None => before
                    .and_then(|b| b.docs.get(i))
                    .map(|d| (d.doc.root(), 0)),
            };
            let fb = match cand {
                Some((c, tag)) => (first_line(c), tag),
                None => (emb.value_span, 0),
            };
            let cands: Vec<remap::Cand<'_>> = cand.into_iter().collect();
            let mut spans = Vec::new();
            remap::remap(
                inner.doc.root(),
                &cands,
                fb,
                &mut self.elsewhere,
                &mut spans,
            );
            set_spans(&mut inner.doc, spans);
            inner.doc.span = fb.0;
        }
    }
}

/// Re-reads the Ignition files at their new spans, giving back the budget the first decoding
/// took so each rendered payload is counted once.
fn refund_payloads(pd: &mut ParsedDoc, budget: &mut parse::Budget) {
    // The files were decoded before the spans were moved; give back what they took, so the
    // budget counts each rendered payload once.
    if !budget.payload.hit {
        budget.payload.left += pd
            .ignition
            .iter()
            .filter_map(|f| f.decoded.as_ref().ok())
            .sum::<u64>();
    }
    pd.ignition = parse::ignition_of(pd.doc.root(), budget);
}

/// Sets the spans [`remap::remap`] found.
fn set_spans(doc: &mut Document, spans: Vec<(NodeId, Span)>) {
    for (id, span) in spans {
        doc.set_span(id, span);
    }
}

/// A document holding nothing, to take another out of its place for a moment.
fn placeholder() -> Document {
    let mut b = nodecast_yaml::Builder::new();
    let root = b.scalar("", Span::default());
    b.finish(root, 0, Span::default())
}

/// The value node of `data.<key>`, to place a generated payload at its generator entry.
fn data_value(root: Node<'_>, key: &str) -> Option<NodeId> {
    let data = root
        .as_map()?
        .iter()
        .find(|e| e.key.as_str() == Some("data"))?;
    data.value
        .as_map()?
        .iter()
        .find(|e| e.key.as_str() == Some(key))
        .map(|e| e.value.id())
}

/// The first key of a document (its first line), where an object without a better place is shown.
fn first_line(root: Node<'_>) -> Span {
    root.as_map()
        .and_then(|e| e.first())
        .map(|e| e.key.span())
        .unwrap_or(root.span())
}

/// The document of a file that a rendered object comes from (same kind; name kept or prefixed).
fn matching_doc<'a>(docs: &'a [ParsedDoc], kind: &str, name: &str) -> Option<&'a ParsedDoc> {
    let same_kind: Vec<&ParsedDoc> = docs
        .iter()
        .filter(|d| d.doc.root().get("kind").and_then(Node::as_str) == Some(kind))
        .collect();
    fn named<'d>(d: &&'d ParsedDoc) -> Option<&'d str> {
        d.doc
            .root()
            .path(&["metadata", "name"])
            .and_then(Node::as_str)
    }
    same_kind
        .iter()
        .find(|d| named(d) == Some(name))
        .or_else(|| {
            same_kind
                .iter()
                .filter(|d| named(d).is_some_and(|n| !n.is_empty() && name.contains(n)))
                .max_by_key(|d| named(d).map(str::len))
        })
        .or_else(|| (same_kind.len() == 1).then(|| &same_kind[0]))
        .copied()
}

/// What Kustomize's origin annotation says about a rendered object.
struct OriginInfo {
    /// The file it comes from (repository-relative).
    path: Option<String>,
    /// The generator field that made it (`configMapGenerator`).
    generator: Option<String>,
}

/// Reads and removes Kustomize's origin annotation (it is not part of the object).
fn take_origin(doc: &mut Document) -> Option<OriginInfo> {
    const KEY: &str = "config.kubernetes.io/origin";
    let root = doc.root();
    let meta = root
        .as_map()?
        .iter()
        .find(|e| e.key.as_str() == Some("metadata"))?
        .value;
    let meta_entries = meta.as_map()?;
    let ann_index = meta_entries
        .iter()
        .position(|e| e.key.as_str() == Some("annotations"))?;
    let anns_node = meta_entries.get(ann_index)?.value;
    let anns = anns_node.as_map()?;
    let i = anns.iter().position(|e| e.key.as_str() == Some(KEY))?;
    let text = anns.get(i)?.value.as_str().unwrap_or_default().to_string();
    // The annotation goes, and `annotations` with it when it was the only one.
    let removed = if anns.len() == 1 {
        (meta.id(), ann_index)
    } else {
        (anns_node.id(), i)
    };
    doc.remove_entries(&[removed]);
    let parsed = nodecast_yaml::parse(&text, &Default::default());
    let doc = parsed.documents.into_iter().next()?;
    let origin_path = doc
        .root()
        .get("path")
        .or_else(|| doc.root().path(&["configuredIn"]))
        .and_then(Node::as_str)
        .and_then(|p| join("wrap", p))
        .and_then(|p| {
            p.strip_prefix("tree/")
                .map(str::to_string)
                .or_else(|| (p == "tree").then(String::new))
        });
    let generator = doc
        .root()
        .path(&["configuredBy", "kind"])
        .and_then(Node::as_str)
        .map(|k| {
            let mut c = k.chars();
            c.next()
                .map(|f| f.to_lowercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        });
    Some(OriginInfo {
        path: origin_path,
        generator,
    })
}
