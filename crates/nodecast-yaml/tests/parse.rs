//! Located parsing: spans, documents, problems.
use std::time::{Duration, Instant};

use nodecast_yaml::{
    parse, Ambiguity, Document, NodeKind, Options, Parsed, Pos, ProblemKind, Scalar, ScalarStyle,
    Span,
};

fn p(src: &str) -> Parsed {
    parse(src, &Options::default())
}

fn root(src: &str) -> Document {
    let parsed = p(src);
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    assert_eq!(parsed.documents.len(), 1);
    parsed.documents.into_iter().next().unwrap()
}

/// `(line, col, offset)` of a span's start and end.
fn lco(s: Span) -> ((u32, u32, usize), (u32, u32, usize)) {
    (
        (s.start.line, s.start.col, s.start.offset),
        (s.end.line, s.end.col, s.end.offset),
    )
}

fn text(src: &str, s: Span) -> &str {
    &src[s.start.offset..s.end.offset]
}

#[test]
fn block_mapping_spans() {
    let src = "apiVersion: v1\nmetadata:\n  name: foo   # comment\n  labels:\n    app: web\n";
    let doc = root(src);
    let r = doc.root();
    let e = r.entry("apiVersion").unwrap();
    assert_eq!(lco(e.key.span()), ((1, 1, 0), (1, 11, 10)));
    assert_eq!(lco(e.value.span()), ((1, 13, 12), (1, 15, 14)));
    let name = r.path(&["metadata", "name"]).unwrap();
    assert_eq!(lco(name.span()), ((3, 9, 33), (3, 12, 36)));
    let key = &r.get("metadata").unwrap().entry("name").unwrap().key;
    assert_eq!(lco(key.span()), ((3, 3, 27), (3, 7, 31)));
    // A block mapping runs from its first key to the end of its last value.
    let md = r.get("metadata").unwrap();
    assert_eq!(
        text(src, md.span()),
        "name: foo   # comment\n  labels:\n    app: web"
    );
    assert_eq!(text(src, r.span()), src.trim_end());
    let app = r.path(&["metadata", "labels", "app"]).unwrap();
    assert_eq!(lco(app.span()), ((5, 10, 68), (5, 13, 71)));
}

#[test]
fn block_sequence_spans() {
    let src = "items:\n- one\n-   two\n- k: v\n  k2: v2\nnested:\n  - - deep\n";
    let doc = root(src);
    let r = doc.root();
    let items = r.get("items").unwrap();
    assert_eq!(lco(items.span()), ((2, 1, 7), (5, 9, 36)));
    let seq = items.as_seq().unwrap();
    assert_eq!(lco(seq.get(0).unwrap().span()), ((2, 3, 9), (2, 6, 12)));
    assert_eq!(lco(seq.get(1).unwrap().span()), ((3, 5, 17), (3, 8, 20)));
    assert_eq!(text(src, seq.get(2).unwrap().span()), "k: v\n  k2: v2");
    let nested = r.get("nested").unwrap();
    assert_eq!(text(src, nested.span()), "- - deep");
    let inner = &nested.as_seq().unwrap().get(0).unwrap();
    assert_eq!(text(src, inner.span()), "- deep");
    assert_eq!(
        lco(inner.as_seq().unwrap().get(0).unwrap().span()),
        ((7, 7, 51), (7, 11, 55))
    );
}

#[test]
fn flow_spans() {
    let src = "a: [1, {b: c}, \"d\"]\ne: {f: [g]}\n";
    let doc = root(src);
    let r = doc.root();
    let a = r.get("a").unwrap();
    assert_eq!(lco(a.span()), ((1, 4, 3), (1, 20, 19)));
    let items = a.as_seq().unwrap();
    assert_eq!(lco(items.get(0).unwrap().span()), ((1, 5, 4), (1, 6, 5)));
    assert_eq!(text(src, items.get(1).unwrap().span()), "{b: c}");
    assert_eq!(
        lco(items.get(1).unwrap().get("b").unwrap().span()),
        ((1, 12, 11), (1, 13, 12))
    );
    assert_eq!(text(src, items.get(2).unwrap().span()), "\"d\"");
    let e = r.get("e").unwrap();
    assert_eq!(text(src, e.span()), "{f: [g]}");
    assert_eq!(
        lco(e.path(&["f"]).unwrap().span()),
        ((2, 8, 27), (2, 11, 30))
    );
}

#[test]
fn json_spans() {
    let src = "{\n  \"kind\": \"ConfigMap\",\n  \"data\": {\n    \"list\": [1, 2,\n      {\"x\": null}]\n  }\n}\n";
    let doc = root(src);
    let r = doc.root();
    assert_eq!(lco(r.span()), ((1, 1, 0), (7, 2, 80)));
    let kind = r.entry("kind").unwrap();
    assert_eq!(lco(kind.key.span()), ((2, 3, 4), (2, 9, 10)));
    assert_eq!(lco(kind.value.span()), ((2, 11, 12), (2, 22, 23)));
    let list = r.path(&["data", "list"]).unwrap();
    assert_eq!(text(src, list.span()), "[1, 2,\n      {\"x\": null}]");
    let x = &list.as_seq().unwrap().get(2).unwrap();
    assert_eq!(lco(x.get("x").unwrap().span()), ((5, 13, 68), (5, 17, 72)));
    assert!(x.get("x").unwrap().is_null());
    assert_eq!(r.to_json()["data"]["list"][1], 2);
}

#[test]
fn scalar_style_spans() {
    let src = "\
plain: multi
  line
single: 'it''s'
double: \"a\\tb\"
literal: |
  l1
  l2

folded: >-
  f1
  f2
keep: |+
  k

strip: |-
  s
indented: |2
   one
  two
tagged: !!str 12
anchored: &x val
empty:
last: end
";
    let doc = root(src);
    let r = doc.root();
    let span_of = |k: &str| text(src, r.get(k).unwrap().span());
    assert_eq!(span_of("plain"), "multi\n  line");
    assert_eq!(span_of("single"), "'it''s'");
    assert_eq!(span_of("double"), "\"a\\tb\"");
    assert_eq!(span_of("literal"), "|\n  l1\n  l2");
    assert_eq!(span_of("folded"), ">-\n  f1\n  f2");
    assert_eq!(span_of("keep"), "|+\n  k");
    assert_eq!(span_of("strip"), "|-\n  s");
    assert_eq!(span_of("indented"), "|2\n   one\n  two");
    assert_eq!(span_of("tagged"), "12");
    assert_eq!(span_of("anchored"), "val");
    assert_eq!(span_of("empty"), "");
    let lit = r.get("literal").unwrap();
    assert_eq!(lco(lit.span()), ((5, 10, 60), (7, 5, 71)));
    assert_eq!(r.get("literal").unwrap().as_str(), Some("l1\nl2\n"));
    assert_eq!(r.get("folded").unwrap().as_str(), Some("f1 f2"));
    assert_eq!(r.get("keep").unwrap().as_str(), Some("k\n\n"));
    assert_eq!(r.get("indented").unwrap().as_str(), Some(" one\ntwo\n"));
    let empty = r.get("empty").unwrap();
    assert!(empty.is_null());
    let at = src.find("empty:").unwrap() + 6;
    assert_eq!(empty.span().start.offset, at);
    assert_eq!(empty.span().end.offset, at);
    let tagged = r.get("tagged").unwrap();
    assert_eq!(tagged.tag(), Some("!!str"));
    assert_eq!(tagged.as_str(), Some("12"));
    let styles: Vec<ScalarStyle> = ["plain", "single", "double", "literal", "folded"]
        .iter()
        .map(|k| match &r.get(k).unwrap().kind() {
            NodeKind::Scalar { style, .. } => *style,
            _ => panic!(),
        })
        .collect();
    assert_eq!(
        styles,
        [
            ScalarStyle::Plain,
            ScalarStyle::SingleQuoted,
            ScalarStyle::DoubleQuoted,
            ScalarStyle::Literal,
            ScalarStyle::Folded
        ]
    );
}

#[test]
fn block_scalar_at_end_of_stream_and_document() {
    let src = "--- |\n  top\n...\n---\na: |";
    let parsed = p(src);
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    let top = &parsed.documents.first().unwrap().root();
    assert_eq!(text(src, top.span()), "|\n  top");
    let a = parsed.documents.get(1).unwrap().root().get("a").unwrap();
    assert_eq!(text(src, a.span()), "|");
    assert_eq!(a.as_str(), Some(""));
}

#[test]
fn tricky_block_header() {
    let src = "\"a | #\": | # x |\n  text\n";
    let doc = root(src);
    let r = doc.root();
    let v = r.get("a | #").unwrap();
    assert_eq!(text(src, v.span()), "| # x |\n  text");
    assert_eq!(v.span().start.offset, 9);
    let src = "k: &anchor !!str |\n  text\n";
    let doc = root(src);
    let v = doc.root().get("k").unwrap();
    assert_eq!(text(src, v.span()), "|\n  text");
}

#[test]
fn multi_document_indexes() {
    let src = "a: 1\n---\n# only a comment\n---\nb: 2\n--- ~\n---\n";
    let parsed = p(src);
    assert!(parsed.problems.is_empty());
    let idx: Vec<usize> = parsed.documents.iter().map(|d| d.index).collect();
    assert_eq!(idx, [0, 2, 3]);
    assert_eq!(
        lco(parsed.documents.get(1).unwrap().span),
        ((5, 1, 30), (5, 5, 34))
    );
    assert!(parsed.documents.get(2).unwrap().root().is_null());
}

#[test]
fn syntax_error_keeps_earlier_documents() {
    let src = "a: 1\n---\nb: 2\n---\nc: [1, 2\nd: e\n";
    let parsed = p(src);
    assert_eq!(parsed.documents.len(), 2);
    assert_eq!(
        parsed
            .documents
            .get(1)
            .unwrap()
            .root()
            .get("b")
            .unwrap()
            .to_json(),
        2
    );
    assert_eq!(parsed.problems.len(), 1);
    let prob = &parsed.problems[0];
    assert_eq!(prob.kind, ProblemKind::Syntax);
    assert_eq!(
        prob.span.start,
        Pos {
            offset: 28,
            line: 6,
            col: 2
        }
    );
    assert!(prob.span.end.offset - prob.span.start.offset <= 1);
    assert!(!prob.message.contains("line"), "{}", prob.message);
    assert!(!prob.message.is_empty());
}

#[test]
fn syntax_error_in_first_document() {
    let parsed = p("a: b: c\n");
    assert!(parsed.documents.is_empty());
    assert_eq!(parsed.problems.first().unwrap().kind, ProblemKind::Syntax);
    assert_eq!(
        parsed.problems.first().unwrap().span.start,
        Pos {
            offset: 4,
            line: 1,
            col: 5
        }
    );
    assert_eq!(
        parsed.problems.first().unwrap().message,
        "mapping values are not allowed in this context"
    );
}

#[test]
fn unknown_alias_is_a_syntax_error() {
    let parsed = p("ok: 1\n---\na: *nope\n");
    assert_eq!(parsed.documents.len(), 1);
    assert_eq!(parsed.problems.first().unwrap().kind, ProblemKind::Syntax);
    assert_eq!(parsed.problems.first().unwrap().span.start.line, 3);
    // Anchors do not carry over to the next document.
    let parsed = p("a: &x 1\n---\nb: *x\n");
    assert_eq!(parsed.documents.len(), 1);
    assert_eq!(parsed.problems.first().unwrap().kind, ProblemKind::Syntax);
    assert_eq!(parsed.problems.first().unwrap().span.start.line, 3);
}

#[test]
fn duplicate_keys() {
    let src = "a: 1\nb: 2\na: 3\nc: 4\na: 5\n";
    let parsed = p(src);
    let r = &parsed.documents.first().unwrap().root();
    let keys: Vec<&str> = r
        .as_map()
        .unwrap()
        .iter()
        .map(|e| e.key.key_text().unwrap())
        .collect();
    // The later entry wins and keeps its own position.
    assert_eq!(keys, ["b", "c", "a"]);
    assert_eq!(r.get("a").unwrap().to_json(), 5);
    assert_eq!(parsed.problems.len(), 2);
    for (prob, line) in parsed.problems.iter().zip([3, 5]) {
        assert_eq!(prob.kind, ProblemKind::DuplicateKey);
        assert_eq!(
            lco(prob.span),
            (
                (line, 1, (line as usize - 1) * 5),
                (line, 2, (line as usize - 1) * 5 + 1)
            )
        );
        assert_eq!(lco(prob.other.unwrap()), ((1, 1, 0), (1, 2, 1)));
    }
    // Keys compare by text, whatever their style.
    let parsed = p("{\"x\": 1, x: 2}");
    assert_eq!(parsed.problems.len(), 1);
    assert_eq!(parsed.problems.first().unwrap().span.start.col, 10);
    assert_eq!(parsed.problems.first().unwrap().other.unwrap().start.col, 2);
}

#[test]
fn anchors_and_aliases() {
    let src = "base: &b\n  x: 1\n  y: [2]\ncopy: *b\nitem: &i hello\nlist: [*i, *i]\n";
    let doc = root(src);
    let r = doc.root();
    let copy = r.get("copy").unwrap();
    assert!(copy.from_alias());
    assert_eq!(copy.span(), r.get("base").unwrap().span());
    let y = copy.get("y").unwrap();
    assert!(y.from_alias() && y.as_seq().unwrap().get(0).unwrap().from_alias());
    assert!(!r.get("base").unwrap().from_alias());
    let list = r.get("list").unwrap();
    assert!(!list.from_alias());
    assert_eq!(
        list.as_seq().unwrap().get(1).unwrap().as_str(),
        Some("hello")
    );
    // The mapping ends at the alias, not at the anchored node.
    assert_eq!(r.span().end.offset, src.trim_end().len());
}

#[test]
fn billion_laughs_is_cut_short() {
    let mut src = String::from("l0: &l0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    for i in 1..10 {
        let prev = format!("*l{}", i - 1);
        let items = [prev.as_str(); 10].join(",");
        src.push_str(&format!("l{i}: &l{i} [{items}]\n"));
    }
    src.push_str("---\nnext: doc\n");
    let t = Instant::now();
    let parsed = p(&src);
    assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
    let limit: Vec<_> = parsed
        .problems
        .iter()
        .filter(|p| p.kind == ProblemKind::Limit)
        .collect();
    assert_eq!(limit.len(), 1);
    assert!(src[limit.first().unwrap().span.start.offset..].starts_with("*l"));
    // The bomb document is dropped, the next one kept.
    assert_eq!(parsed.documents.len(), 1);
    assert_eq!(parsed.documents.first().unwrap().index, 1);
}

#[test]
fn alias_limit_is_configurable() {
    let src = "a: &a [1, 2, 3]\nb: [*a, *a]\n";
    let opts = Options {
        max_alias_expansion: 10,
        ..Options::default()
    };
    let parsed = parse(src, &opts);
    assert_eq!(parsed.problems.len(), 1);
    assert_eq!(parsed.problems.first().unwrap().kind, ProblemKind::Limit);
    assert!(parsed.documents.is_empty());
    assert_eq!(p(src).documents.len(), 1);
}

#[test]
fn depth_limits() {
    let deep_flow = "[".repeat(100_000);
    let t = Instant::now();
    let parsed = p(&deep_flow);
    assert!(t.elapsed() < Duration::from_secs(2));
    assert!(parsed.documents.is_empty());
    assert_eq!(parsed.problems.first().unwrap().kind, ProblemKind::Limit);

    let deep_block = format!("{}x\n", "- ".repeat(50_000));
    let parsed = p(&deep_block);
    assert!(parsed.documents.is_empty());
    assert_eq!(parsed.problems.len(), 1);
    assert_eq!(parsed.problems.first().unwrap().kind, ProblemKind::Limit);

    let opts = Options {
        max_depth: 3,
        ..Options::default()
    };
    let parsed = parse(
        "a: {b: {c: 1}}\n---\na: {b: {c: {d: 1}}}\n---\nok: 1\n",
        &opts,
    );
    let idx: Vec<usize> = parsed.documents.iter().map(|d| d.index).collect();
    assert_eq!(idx, [0, 2]);
    assert_eq!(parsed.problems.len(), 1);
    assert_eq!(parsed.problems.first().unwrap().kind, ProblemKind::Limit);
    assert_eq!(parsed.problems.first().unwrap().span.start.line, 3);

    // Aliases cannot be used to nest deeper than the limit either.
    let parsed = parse("a: &a [[1]]\nb: [[*a]]\n", &opts);
    assert_eq!(parsed.problems.first().unwrap().kind, ProblemKind::Limit);
}

#[test]
fn merge_keys() {
    let src = "\
base: &base
  a: 1
  b: 2
other: &other
  b: 20
  c: 30
one:
  <<: *base
  b: 3
list:
  x: 0
  <<: [*other, *base]
inline:
  <<: {z: 9}
bad:
  <<: scalar
";
    let doc = root(src);
    let r = doc.root();
    let one = r.get("one").unwrap();
    assert_eq!(one.to_json(), serde_json::json!({"a": 1, "b": 3}));
    let b = one.get("b").unwrap();
    assert!(!b.from_alias());
    assert!(one.get("a").unwrap().from_alias());
    let list = r.get("list").unwrap();
    assert_eq!(
        list.to_json(),
        serde_json::json!({"x": 0, "b": 20, "c": 30, "a": 1})
    );
    assert_eq!(
        r.get("inline").unwrap().to_json(),
        serde_json::json!({"z": 9})
    );
    assert_eq!(
        r.get("bad").unwrap().to_json(),
        serde_json::json!({"<<": "scalar"})
    );
    // A quoted "<<" is an ordinary key.
    assert_eq!(
        root("m: &m {a: 1}\nn:\n  \"<<\": *m\n")
            .root()
            .get("n")
            .unwrap()
            .to_json(),
        serde_json::json!({"<<": {"a": 1}})
    );
}

#[test]
fn yaml11_resolution_table() {
    let src = "\
bool11: yes
octal: 0644
sexa: 1:30
quoted: \"yes\"
single: 'on'
real: true
off: off
list: [n, 0x1F, '0644', 1.5, ~, .inf, 012, 07]
on: key-is-not-reported
block: |
  yes
";
    let parsed = p(src);
    let r = &parsed.documents.first().unwrap().root();
    let value = |k: &str| match &r.get(k).unwrap().kind() {
        NodeKind::Scalar { value, .. } => *value,
        _ => panic!(),
    };
    assert_eq!(value("bool11"), Scalar::Bool(true));
    assert_eq!(value("octal"), Scalar::Int(420));
    assert_eq!(value("sexa"), Scalar::Str);
    assert_eq!(value("quoted"), Scalar::Str);
    assert_eq!(value("single"), Scalar::Str);
    assert_eq!(value("real"), Scalar::Bool(true));
    assert_eq!(value("off"), Scalar::Bool(false));
    assert_eq!(value("block"), Scalar::Str);
    assert_eq!(
        r.get("list").unwrap().to_json(),
        serde_json::json!([false, 31, "0644", 1.5, null, ".inf", 10, 7])
    );
    let found: Vec<(Ambiguity, u32, u32)> = parsed
        .problems
        .iter()
        .map(|p| match p.kind {
            ProblemKind::Yaml11Ambiguity(a) => (a, p.span.start.line, p.span.start.col),
            ref k => panic!("{k:?}"),
        })
        .collect();
    assert_eq!(
        found,
        [
            (Ambiguity::Boolean, 1, 9),
            (Ambiguity::Octal, 2, 8),
            (Ambiguity::Sexagesimal, 3, 7),
            (Ambiguity::Boolean, 7, 6),
            (Ambiguity::Boolean, 8, 8),
            (Ambiguity::Octal, 8, 39),
        ]
    );
    let octal = &parsed.problems[1];
    assert_eq!(&src[octal.span.start.offset..octal.span.end.offset], "0644");
}

#[test]
fn explicit_tags_resolve() {
    let doc = root("a: !!int \"42\"\nb: !!str true\nc: !custom 5\nd: !!float 1\ne: !!bool yes\n");
    let r = doc.root();
    assert_eq!(r.get("a").unwrap().to_json(), 42);
    assert_eq!(r.get("b").unwrap().to_json(), "true");
    assert_eq!(r.get("c").unwrap().to_json(), "5");
    assert_eq!(r.get("c").unwrap().tag(), Some("!custom"));
    assert_eq!(r.get("d").unwrap().to_json(), 1.0);
    assert_eq!(r.get("e").unwrap().to_json(), true);
}

#[test]
fn crlf_line_endings() {
    let src = "a: 1\r\nb:\r\n  c: \"x\r\n   y\"\r\nd: |\r\n  l1\r\n  l2\r\ne: end\r\n";
    let doc = root(src);
    let r = doc.root();
    assert_eq!(lco(r.get("a").unwrap().span()), ((1, 4, 3), (1, 5, 4)));
    let c = r.path(&["b", "c"]).unwrap();
    assert_eq!(c.as_str(), Some("x y"));
    assert_eq!(lco(c.span()), ((3, 6, 15), (4, 6, 24)));
    let d = r.get("d").unwrap();
    assert_eq!(d.as_str(), Some("l1\nl2\n"));
    assert_eq!(lco(d.span()), ((5, 4, 29), (7, 5, 42)));
    assert_eq!(lco(r.get("e").unwrap().span()), ((8, 4, 47), (8, 7, 50)));
}

#[test]
fn multibyte_characters() {
    let src = "name: \"héllo wörld\"\n日本: 語 # c\nnext: ok\n";
    let doc = root(src);
    let r = doc.root();
    let name = r.get("name").unwrap();
    assert_eq!(lco(name.span()), ((1, 7, 6), (1, 20, 21)));
    let e = r.entry("日本").unwrap();
    assert_eq!(lco(e.key.span()), ((2, 1, 22), (2, 3, 28)));
    // Columns count characters, offsets count bytes.
    assert_eq!(lco(e.value.span()), ((2, 5, 30), (2, 6, 33)));
    assert_eq!(lco(r.get("next").unwrap().span()), ((3, 7, 44), (3, 9, 46)));
}

#[test]
fn problems_are_sorted() {
    let parsed = p("a: yes\nb: 1\na: 0755\nc: no\n");
    let starts: Vec<usize> = parsed
        .problems
        .iter()
        .map(|p| p.span.start.offset)
        .collect();
    let mut sorted = starts.clone();
    sorted.sort();
    assert_eq!(starts, sorted);
    assert_eq!(parsed.problems.len(), 4);
}

#[test]
fn empty_inputs() {
    for src in ["", "\n", "# comment\n", "---\n", "---\n...\n"] {
        let parsed = p(src);
        assert!(parsed.documents.is_empty(), "{src:?}");
        assert!(parsed.problems.is_empty(), "{src:?}");
    }
}

#[test]
fn non_ascii_directive_and_bom() {
    // saphyr miscounts characters on directive lines; positions must still be right.
    let src = "%FOO ¡é\n---\nkey: välue\n";
    let doc = root(src);
    let r = doc.root();
    let v = r.get("key").unwrap();
    assert_eq!(text(src, v.span()), "välue");
    assert_eq!((v.span().start.line, v.span().start.col), (3, 6));
    // A byte order mark is a character before the first key.
    let src = "\u{feff}a: |\n  x\nb: ü\n";
    let doc = root(src);
    let r = doc.root();
    assert_eq!(
        lco(r.entry("a").unwrap().key.span()),
        ((1, 2, 3), (1, 3, 4))
    );
    assert_eq!(text(src, r.get("a").unwrap().span()), "|\n  x");
    assert_eq!(text(src, r.get("b").unwrap().span()), "ü");
}

#[test]
fn total_alias_budget_spans_all_documents_of_a_text() {
    // Each document stays far under the per-document limit (about 66,000 nodes); a thousand of
    // them in one 169 KB file would add up to 66 million nodes (gigabytes).
    let doc = "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n---\n";
    let src = doc.repeat(1000);
    assert!(src.len() < 170 * 1024, "{}", src.len());
    let t = Instant::now();
    let parsed = p(&src);
    assert!(t.elapsed() < Duration::from_secs(20));
    let opts = Options::default();
    assert!(parsed.alias_nodes <= opts.max_total_alias_expansion);
    assert!(parsed.total_alias_limit_hit);
    let kept = parsed.documents.len();
    assert!(kept > 0 && kept < 1000, "{kept}");
    let limits: Vec<&nodecast_yaml::Problem> = parsed
        .problems
        .iter()
        .filter(|p| p.kind == ProblemKind::Limit)
        .collect();
    assert_eq!(limits.len(), 1, "one problem per file, not per document");
    assert!(limits[0]
        .message
        .starts_with(nodecast_yaml::TOTAL_ALIAS_LIMIT));
    assert!(
        limits.first().unwrap().message.ends_with(&format!(
            "{} later documents of this file were dropped for the same reason",
            999 - kept
        )),
        "{}",
        limits.first().unwrap().message
    );
    // The problem is on the first document that did not fit.
    assert_eq!(
        limits.first().unwrap().span.start.line as usize,
        kept * 6 + 4
    );
}

#[test]
fn a_smaller_total_budget_is_respected() {
    let src = "a: &a [1, 2, 3]\nb: [*a, *a]\n---\nc: &c [1]\nd: *c\n";
    let opts = Options {
        max_total_alias_expansion: 12,
        ..Options::default()
    };
    let parsed = parse(src, &opts);
    assert_eq!(parsed.documents.len(), 1);
    assert_eq!(parsed.alias_nodes, 12);
    assert_eq!(parsed.problems.len(), 1);
    assert!(parsed
        .problems
        .first()
        .unwrap()
        .message
        .contains("0 were left"));
}
