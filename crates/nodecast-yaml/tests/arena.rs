//! The arena: aliases share nodes but read as copies, texts are ranges of the parsed text, and
//! the few edits callers make (placing spans, removing entries, building documents from other
//! documents' nodes) give what an owned tree would.
use std::sync::Arc;

use nodecast_yaml::{parse, parse_source, Builder, Document, NodeKind, Options, Source, Span};

fn doc(src: &str) -> Document {
    let parsed = parse(src, &Options::default());
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    parsed.documents.into_iter().next().expect("one document")
}

fn text(src: &str, s: Span) -> &str {
    &src[s.start.offset..s.end.offset]
}

#[test]
fn aliases_read_as_copies_of_the_anchor() {
    let src = "a: &x {k: [1, 2]}\nb: *x\nc: [*x]\n";
    let d = doc(src);
    let r = d.root();
    let a = r.get("a").unwrap();
    let b = r.get("b").unwrap();
    assert!(!a.from_alias() && !a.get("k").unwrap().from_alias());
    assert!(b.from_alias() && b.get("k").unwrap().from_alias());
    let items = b.get("k").unwrap().as_seq().unwrap();
    assert!(items.iter().all(|n| n.from_alias()));
    // A copy is located where the anchor is.
    assert_eq!(b.span(), a.span());
    assert_eq!(text(src, b.span()), "{k: [1, 2]}");
    let c = r.get("c").unwrap().as_seq().unwrap().first().unwrap();
    assert!(c.from_alias());
    assert_eq!(c.to_json(), a.to_json());
    // The very same node reached two ways is two places.
    assert!(!a.same(b) && a.addr() != b.addr());
}

#[test]
fn an_alias_to_a_replaced_duplicate_still_reads_the_anchor() {
    // The first `a` is dropped (the later one wins), yet `*x` still copies it.
    let src = "a: &x {k: 1}\na: 2\nb: *x\n";
    let parsed = parse(src, &Options::default());
    assert_eq!(parsed.problems.len(), 1, "{:?}", parsed.problems);
    let r = parsed.documents[0].root();
    assert_eq!(r.as_map().unwrap().len(), 2);
    assert_eq!(r.get("a").unwrap().to_json(), 2);
    let b = r.get("b").unwrap();
    assert!(b.from_alias());
    assert_eq!(b.to_json(), serde_json::json!({"k": 1}));
    assert_eq!(text(src, b.span()), "{k: 1}");
}

#[test]
fn merged_entries_from_an_alias_are_copies() {
    let src = "base: &b {x: 1, y: 2}\nm:\n  <<: [*b, {z: 3}]\n  y: 9\n";
    let d = doc(src);
    let m = d.root().get("m").unwrap();
    assert_eq!(m.to_json(), serde_json::json!({"x": 1, "z": 3, "y": 9}));
    assert!(m.entry("x").unwrap().key.from_alias());
    assert!(!m.entry("z").unwrap().value.from_alias());
    assert!(!m.entry("y").unwrap().value.from_alias());
}

/// A key merged from an anchor is found by its text whichever way its node keeps it: its span
/// (plain), its span without quotes, or a text of its own (an escape).
#[test]
fn merged_keys_are_found_however_their_text_is_kept() {
    let src = "base: &b\n  plain: 1\n  'quoted': 2\n  \"esc\\x61ped\": 3\nm:\n  <<: *b\n  own: 4\n";
    let d = doc(src);
    let m = d.root().get("m").unwrap();
    let found: Vec<Option<serde_json::Value>> = ["plain", "quoted", "escaped", "own", "missing"]
        .iter()
        .map(|k| m.get(k).map(|v| v.to_json()))
        .collect();
    let n = |i: i64| Some(serde_json::json!(i));
    assert_eq!(found, [n(1), n(2), n(3), n(4), None]);
    assert!(m.entry("escaped").unwrap().key.from_alias());
}

#[test]
fn texts_are_ranges_of_the_kept_text() {
    let text_arc: Arc<str> = "a: plain value\nb: 'quoted'\nc: |\n  block\n".into();
    let source = Source::new(text_arc.clone());
    let parsed = parse_source(&source, &Options::default());
    let r = parsed.documents[0].root();
    let within = |s: &str| {
        let start = text_arc.as_ptr() as usize;
        let at = s.as_ptr() as usize;
        at >= start && at + s.len() <= start + text_arc.len()
    };
    assert!(within(r.get("a").unwrap().as_str().unwrap()));
    assert!(within(r.get("b").unwrap().as_str().unwrap()));
    // A block scalar's text is not what is written: a text of its own.
    assert_eq!(r.get("c").unwrap().as_str(), Some("block\n"));
    assert!(!within(r.get("c").unwrap().as_str().unwrap()));
    assert!(Arc::ptr_eq(parsed.documents[0].source(), &source));
}

#[test]
fn positions_are_computed_from_the_text() {
    let src = "ä: 1\r\nlist:\r\n- 日本語: x\r\n";
    let d = doc(src);
    let item = d
        .root()
        .get("list")
        .unwrap()
        .as_seq()
        .unwrap()
        .first()
        .unwrap();
    let v = item.get("日本語").unwrap();
    let s = v.span();
    assert_eq!((s.start.line, s.start.col), (3, 8));
    assert_eq!(v.offsets(), (s.start.offset, s.end.offset));
    assert_eq!(text(src, s), "x");
}

#[test]
fn a_subdocument_shares_its_nodes() {
    let src = "spec:\n  templates:\n  - kind: A\n    name: a\n";
    let d = doc(src);
    let t = d
        .root()
        .path(&["spec", "templates"])
        .unwrap()
        .as_seq()
        .unwrap()
        .first()
        .unwrap();
    let sub = d.subdocument(t).unwrap();
    assert_eq!(sub.span, t.span());
    assert!(sub.root().same(t));
    assert_eq!(sub.root().get("name").unwrap().as_str(), Some("a"));
    // A node of another document is not this one's.
    assert!(doc(src).subdocument(t).is_none());
}

#[test]
fn placed_spans_and_removed_entries() {
    let src =
        "metadata:\n  name: x\n  annotations:\n    origin: here\n    keep: me\nspec: {a: 1}\n";
    let mut d = doc(src);
    let meta = d.root().get("metadata").unwrap();
    let anns = meta.get("annotations").unwrap();
    d.remove_entries(&[(anns.id(), 0)]);
    let r = d.root();
    assert_eq!(
        r.to_json(),
        serde_json::json!({"metadata": {"name": "x", "annotations": {"keep": "me"}}, "spec": {"a": 1}})
    );
    // Spans survive the copy.
    assert_eq!(
        text(src, r.path(&["metadata", "name"]).unwrap().span()),
        "x"
    );
    let elsewhere = Span::default();
    let a = r.path(&["spec", "a"]).unwrap().id();
    d.set_span(a, elsewhere);
    assert_eq!(d.root().path(&["spec", "a"]).unwrap().span(), elsewhere);
    assert_eq!(text(src, d.root().get("spec").unwrap().span()), "{a: 1}");
}

#[test]
fn an_aliased_document_is_unshared_before_it_is_placed() {
    let src = "a: &x {k: 1}\nb: *x\n";
    let d = doc(src).unshared();
    let r = d.root();
    assert!(r.get("b").unwrap().from_alias());
    let mut d = d.clone();
    let k = d.root().path(&["b", "k"]).unwrap().id();
    d.set_span(k, Span::default());
    // Only the copy moved.
    assert_eq!(d.root().path(&["b", "k"]).unwrap().span(), Span::default());
    assert_eq!(text(src, d.root().path(&["a", "k"]).unwrap().span()), "1");
}

#[test]
fn a_built_document_keeps_what_it_copies() {
    let src = "kind: X\nvalue: !!str 12\n";
    let d = doc(src);
    let r = d.root();
    let mut b = Builder::new();
    let kind = r.entry("kind").unwrap();
    let value = r.get("value").unwrap();
    let entries = [
        (b.copy(kind.key), b.copy(kind.value)),
        (b.scalar("added", kind.key.span()), b.copy(value)),
    ];
    let root = b.map(r.span(), &entries);
    let built = b.finish(root, 0, r.span());
    let br = built.root();
    assert_eq!(
        br.to_json(),
        serde_json::json!({"kind": "X", "added": "12"})
    );
    assert_eq!(br.get("added").unwrap().tag(), Some("!!str"));
    assert_eq!(br.get("added").unwrap().span(), value.span());
    assert_eq!(br.entry("added").unwrap().key.span(), kind.key.span());
    assert!(matches!(
        br.get("kind").unwrap().kind(),
        NodeKind::Scalar { text: "X", .. }
    ));
}

/// A node is packed into 16 bytes: a scalar keeps its span as a length (13 bits) and a
/// collection its child count (24 bits); longer spans go to the tree's side table, and read the
/// same.
#[test]
fn long_spans_read_as_short_ones() {
    let long = "x".repeat(9000);
    let block: String = (0..1200).map(|i| format!("  line {i:04}\n")).collect();
    let src = format!("short: a\nlong: {long}\nquoted: \"{long}\"\nblock: |\n{block}end: z\n");
    let d = doc(&src);
    let r = d.root();
    let long_node = r.get("long").unwrap();
    assert_eq!(text(&src, long_node.span()), long);
    assert_eq!(long_node.as_str(), Some(&*long));
    let quoted = r.get("quoted").unwrap();
    assert_eq!(text(&src, quoted.span()), format!("\"{long}\""));
    let block_node = r.get("block").unwrap();
    let span = block_node.span();
    // From the indicator to the end of the content (its last line break left out).
    assert_eq!(
        text(&src, span),
        format!("|\n{}", &block[..block.len() - 1])
    );
    assert_eq!(
        (span.start.line, span.start.col, span.end.line, span.end.col),
        (4, 8, 1204, 12)
    );

    assert_eq!(
        block_node.as_str().map(str::len),
        Some(block.len() - 1200 * 2)
    );
    assert_eq!(text(&src, r.get("short").unwrap().span()), "a");
    let end = r.get("end").unwrap().span();
    assert_eq!((end.start.line, end.start.col, end.end.col), (1205, 6, 7));
}
