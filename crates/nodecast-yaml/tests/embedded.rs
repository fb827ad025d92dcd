//! Documents embedded in ConfigMap scalars, located in the outer file.
use nodecast_yaml::{
    parse, parse_embedded, scalar_source_map, Document, LineIndex, Options, Parsed, Pos,
    ProblemKind, Span,
};

/// Parses `outer`, then the YAML held in `data.config` of its first document (returned as a
/// document of its own).
fn embedded(outer: &str) -> (Document, Parsed) {
    let parsed = parse(outer, &Options::default());
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    let config = parsed.documents[0]
        .root()
        .path(&["data", "config"])
        .unwrap();
    let inner = parse_embedded(outer, config, &Options::default());
    (parsed.documents[0].subdocument(config).unwrap(), inner)
}

/// The position of the `nth` occurrence of `needle` in `src`.
fn pos_of(src: &str, needle: &str, nth: usize) -> Pos {
    let mut at = None;
    for _ in 0..=nth {
        let from = at.map_or(0, |a| a + 1);
        at = Some(from + src[from..].find(needle).unwrap());
    }
    LineIndex::new(src).pos(src, at.unwrap())
}

fn span_text(src: &str, s: Span) -> &str {
    &src[s.start.offset..s.end.offset]
}

/// Checks that `metadata.name` of the embedded document is `name`, located exactly where the
/// outer file holds it (`line`, `col`), and that the source map is exact.
fn check(outer: &str, name: &str, line: u32, col: u32) -> Parsed {
    let (config_doc, inner) = embedded(outer);
    let config = config_doc.root();
    assert!(scalar_source_map(outer, config).exact, "inexact map");
    assert!(inner.problems.is_empty(), "{:?}", inner.problems);
    let root = &inner.documents[0].root();
    let node = root.path(&["metadata", "name"]).unwrap();
    assert_eq!(node.as_str(), Some(name));
    assert_eq!((node.span().start.line, node.span().start.col), (line, col));
    assert_eq!(node.span().start, pos_of(outer, name, 0));
    assert_eq!(span_text(outer, node.span()), name);
    assert_eq!(root.get("kind").unwrap().as_str(), Some("MachineConfig"));
    inner
}

const HEAD: &str =
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: wrapper\n  namespace: clusters\ndata:\n";

#[test]
fn literal() {
    let outer = format!(
        "{HEAD}  config: |\n    apiVersion: machineconfiguration.openshift.io/v1\n    kind: MachineConfig\n    metadata:\n      labels:\n        machineconfiguration.openshift.io/role: worker\n      name: 99-worker-lit\n    spec:\n      config:\n        ignition:\n          version: 3.2.0\n  other: x\n"
    );
    let inner = check(&outer, "99-worker-lit", 13, 13);
    let doc = &inner.documents[0];
    assert_eq!(doc.span.start, pos_of(&outer, "apiVersion: machine", 0));
    assert_eq!(
        doc.span.end,
        pos_of(&outer, "3.2.0", 0).offset_by(&outer, 5)
    );
    let version = doc
        .root()
        .path(&["spec", "config", "ignition", "version"])
        .unwrap();
    assert_eq!(span_text(&outer, version.span()), "3.2.0");
    // Collection spans map too.
    let md = doc.root().get("metadata").unwrap();
    assert_eq!(
        span_text(&outer, md.span()),
        "labels:\n        machineconfiguration.openshift.io/role: worker\n      name: 99-worker-lit"
    );
}

#[test]
fn literal_strip_and_keep() {
    for header in ["|-", "|+"] {
        let outer = format!(
            "{HEAD}  config: {header}\n\n    kind: MachineConfig\n    metadata:\n      name: mc-{}\n\n\n  other: x\n",
            if header == "|-" { "strip" } else { "keep" }
        );
        let name = if header == "|-" {
            "mc-strip"
        } else {
            "mc-keep"
        };
        check(&outer, name, 11, 13);
    }
}

#[test]
fn folded() {
    let outer = format!(
        "{HEAD}  config: >\n    apiVersion: v1\n\n    kind: MachineConfig\n\n    metadata:\n      name: folded-name\n      labels: {{a: b}}\n  other: x\n"
    );
    let (config_doc, _) = embedded(&outer);
    let config = config_doc.root();
    assert_eq!(
        config.as_str(),
        Some("apiVersion: v1\nkind: MachineConfig\nmetadata:\n  name: folded-name\n  labels: {a: b}\n")
    );
    check(&outer, "folded-name", 13, 13);
}

#[test]
fn folded_lines_map_to_their_breaks() {
    let outer = "k: >\n  a\n  b\n\n  c\n";
    let doc = parse(outer, &Options::default());
    let k = doc.documents[0].root().get("k").unwrap();
    assert_eq!(k.as_str(), Some("a b\nc\n"));
    let map = scalar_source_map(outer, k);
    assert!(map.exact);
    // "a" "␠"(the break after a) "b" "\n"(the empty line's break) "c" "\n" end
    assert_eq!(map.offsets, vec![7, 8, 11, 13, 16, 17, 18]);
}

#[test]
fn explicit_indentation_with_more_indented_first_line() {
    let outer = format!(
        "{HEAD}  config: |2\n        # a more-indented leading comment\n    kind: MachineConfig\n    metadata:\n      name: indented-name\n  other: x\n"
    );
    let (config_doc, _) = embedded(&outer);
    let config = config_doc.root();
    assert!(config.as_str().unwrap().starts_with("    # a more"));
    check(&outer, "indented-name", 11, 13);
}

#[test]
fn explicit_indentation_inside_a_list() {
    let outer = "items:\n  - data:\n      config: |3\n            # comment\n         kind: MachineConfig\n         metadata:\n           name: deep\n";
    let parsed = parse(outer, &Options::default());
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    let config = parsed.documents[0]
        .root()
        .get("items")
        .unwrap()
        .as_seq()
        .unwrap()
        .get(0)
        .unwrap()
        .path(&["data", "config"])
        .unwrap();
    assert!(scalar_source_map(outer, config).exact);
    let inner = parse_embedded(outer, config, &Options::default());
    let name = inner.documents[0]
        .root()
        .path(&["metadata", "name"])
        .unwrap();
    assert_eq!(name.span().start, pos_of(outer, "deep", 0));
}

#[test]
fn double_quoted_with_escapes() {
    let outer = format!(
        "{HEAD}  config: \"kind: MachineConfig\\nmetadata:\\n  name: \\\"dq-name\\\"\\n  labels: {{t: \\\"\\t\\x41\\u00e9\\\\\\\\\\\"}}\\n\"\n"
    );
    let (config_doc, inner) = embedded(&outer);
    let config = config_doc.root();
    assert_eq!(
        config.as_str(),
        Some("kind: MachineConfig\nmetadata:\n  name: \"dq-name\"\n  labels: {t: \"\tAé\\\\\"}\n")
    );
    assert!(scalar_source_map(&outer, config).exact);
    assert!(inner.problems.is_empty(), "{:?}", inner.problems);
    let root = &inner.documents[0].root();
    let name = root.path(&["metadata", "name"]).unwrap();
    assert_eq!(name.as_str(), Some("dq-name"));
    // The inner value `"dq-name"` starts at the outer `\"`.
    assert_eq!(name.span().start, pos_of(&outer, "\\\"dq-name", 0));
    assert_eq!((name.span().start.line, name.span().start.col), (7, 52));
    assert_eq!(span_text(&outer, name.span()), "\\\"dq-name\\\"");
    let t = root.path(&["metadata", "labels", "t"]).unwrap();
    assert_eq!(t.as_str(), Some("\tAé\\"));
    assert_eq!(
        span_text(&outer, t.span()),
        "\\\"\\t\\x41\\u00e9\\\\\\\\\\\""
    );
}

#[test]
fn double_quoted_multi_line() {
    let outer = "config: \"kind: MachineConfig\\n\\\n  metadata: {name: ml}\\n\\\n  \"\n";
    let parsed = parse(outer, &Options::default());
    let config = parsed.documents[0].root().get("config").unwrap();
    assert_eq!(
        config.as_str(),
        Some("kind: MachineConfig\nmetadata: {name: ml}\n")
    );
    assert!(scalar_source_map(outer, config).exact);
    let inner = parse_embedded(outer, config, &Options::default());
    let name = inner.documents[0]
        .root()
        .path(&["metadata", "name"])
        .unwrap();
    assert_eq!(name.span().start, pos_of(outer, "ml}", 0));
    assert_eq!((name.span().start.line, name.span().start.col), (2, 20));
}

#[test]
fn single_quoted() {
    let outer = format!(
        "{HEAD}  config: 'kind: MachineConfig\n\n    metadata: {{name: ''sq-name'', x: y}}\n\n    '\n"
    );
    let (config_doc, inner) = embedded(&outer);
    let config = config_doc.root();
    assert_eq!(
        config.as_str(),
        Some("kind: MachineConfig\nmetadata: {name: 'sq-name', x: y}\n")
    );
    assert!(scalar_source_map(&outer, config).exact);
    let name = inner.documents[0]
        .root()
        .path(&["metadata", "name"])
        .unwrap();
    assert_eq!(name.as_str(), Some("sq-name"));
    assert_eq!(name.span().start, pos_of(&outer, "''sq-name", 0));
    assert_eq!((name.span().start.line, name.span().start.col), (9, 22));
    assert_eq!(span_text(&outer, name.span()), "''sq-name''");
}

#[test]
fn plain_multi_line() {
    let outer = "config: kind: x\n";
    // Not valid as a plain scalar; a legitimate multi-line plain one instead:
    assert_eq!(
        parse(outer, &Options::default()).problems[0].kind,
        ProblemKind::Syntax
    );
    let outer = "config: [a,\n  b]\nv: one\n  two\n\n  three\n";
    let parsed = parse(outer, &Options::default());
    let v = parsed.documents[0].root().get("v").unwrap();
    assert_eq!(v.as_str(), Some("one two\nthree"));
    let map = scalar_source_map(outer, v);
    assert!(map.exact);
    let o = |i: usize| map.offsets[i];
    assert_eq!(&outer[o(0)..o(0) + 3], "one");
    assert_eq!(&outer[o(3)..o(3) + 1], "\n"); // the folded space: the break it replaces
    assert_eq!(&outer[o(4)..o(4) + 3], "two");
    assert_eq!(&outer[o(8)..o(8) + 5], "three");
    assert_eq!(*map.offsets.last().unwrap(), outer.trim_end().len());
}

#[test]
fn crlf_outer() {
    let outer = "data:\r\n  config: |\r\n    kind: MachineConfig\r\n    metadata:\r\n      name: crlf-name\r\n";
    let (config_doc, inner) = embedded(outer);
    let config = config_doc.root();
    assert!(scalar_source_map(outer, config).exact);
    let name = inner.documents[0]
        .root()
        .path(&["metadata", "name"])
        .unwrap();
    assert_eq!(
        name.span().start,
        Pos {
            offset: 72,
            line: 5,
            col: 13
        }
    );
    assert_eq!(span_text(outer, name.span()), "crlf-name");
}

#[test]
fn multibyte_in_embedded() {
    let outer = "data:\n  config: |\n    kind: MachineConfig # é\n    metadata:\n      ä: ö\n      name: ünï\n";
    let (_, inner) = embedded(outer);
    let name = inner.documents[0]
        .root()
        .path(&["metadata", "name"])
        .unwrap();
    assert_eq!(name.span().start, pos_of(outer, "ünï", 0));
    assert_eq!((name.span().start.line, name.span().start.col), (6, 13));
    assert_eq!(span_text(outer, name.span()), "ünï");
}

#[test]
fn problems_and_documents_in_embedded_text() {
    let outer = "data:\n  config: |\n    a: 1\n    ---\n    b: yes\n    b: 2\n    ---\n    c: [1\n";
    let (_, inner) = embedded(outer);
    assert_eq!(inner.documents.len(), 2);
    assert_eq!(inner.documents[1].index, 1);
    assert_eq!(inner.documents[1].span.start, pos_of(outer, "b: yes", 0));
    let kinds: Vec<_> = inner.problems.iter().map(|p| p.kind.clone()).collect();
    assert_eq!(
        kinds,
        [
            ProblemKind::Yaml11Ambiguity(nodecast_yaml::Ambiguity::Boolean),
            ProblemKind::DuplicateKey,
            ProblemKind::Syntax
        ]
    );
    let dup = &inner.problems[1];
    assert_eq!(dup.span.start, pos_of(outer, "b: 2", 0));
    assert_eq!(dup.other.unwrap().start, pos_of(outer, "b: yes", 0));
    assert_eq!(inner.problems[0].span.start, pos_of(outer, "yes", 0));
    assert_eq!(inner.problems[2].span.start.line, 9);
}

#[test]
fn inexact_map_falls_back_to_scalar_start() {
    let outer = "config: |\n  kind: x\n";
    let parsed = parse(outer, &Options::default());
    let real = parsed.documents[0].root().get("config").unwrap();
    // A scalar whose text is not what its source spells.
    let mut b = nodecast_yaml::Builder::new();
    let id = b.scalar("kind: y\nother: z\n", real.span());
    let doc = b.finish(id, 0, real.span());
    let config = doc.root();
    let map = scalar_source_map(outer, config);
    assert!(!map.exact);
    assert_eq!(map.offsets.len(), "kind: y\nother: z\n".len() + 1);
    assert!(map.offsets.iter().all(|&o| o == config.span().start.offset));
    let inner = parse_embedded(outer, config, &Options::default());
    let other = inner.documents[0].root().get("other").unwrap();
    assert_eq!(other.span().start, config.span().start);
    assert_eq!(other.span().end, config.span().start);
    // A non-scalar yields nothing.
    let root = parsed.documents[0].root();
    assert_eq!(
        parse_embedded(outer, root, &Options::default()),
        Parsed::default()
    );
}

#[test]
fn every_style_maps_exactly() {
    let outer = "\
a: plain text
b: 'single ''q''
  next'
c: \"dq \\u00e9 \\x41\\
  cont \\
  x\"
d: |
  lit

e: >-

  fold
  ed

   more
f: |+
  keep


g: |1-
  one
h: \"\\t\"
i: ''
j: |
k: >
";
    let parsed = parse(outer, &Options::default());
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    for e in parsed.documents[0].root().as_map().unwrap() {
        let map = scalar_source_map(outer, e.value);
        let text = e.value.key_text().unwrap();
        assert!(map.exact, "{}: {text:?}", e.key.key_text().unwrap());
        assert_eq!(map.offsets.len(), text.len() + 1);
    }
}

trait OffsetBy {
    fn offset_by(self, src: &str, n: usize) -> Pos;
}

impl OffsetBy for Pos {
    fn offset_by(self, src: &str, n: usize) -> Pos {
        LineIndex::new(src).pos(src, self.offset + n)
    }
}
