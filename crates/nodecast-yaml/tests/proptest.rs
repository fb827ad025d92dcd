//! Hostile input: `parse` and `parse_embedded` never panic and always return sane spans.
use nodecast_yaml::{
    parse, parse_embedded, scalar_source_map, LineIndex, Node, NodeKind, Options, Parsed,
    ProblemKind, Span,
};
use proptest::prelude::*;

const PIECES: &[&str] = &[
    " ",
    "  ",
    "    ",
    "\n",
    "\r\n",
    "\t",
    ":",
    ": ",
    "- ",
    "-",
    "? ",
    ",",
    "[",
    "]",
    "{",
    "}",
    "#",
    " # c",
    "&a ",
    "*a",
    "&b ",
    "*b",
    "!!str ",
    "!t ",
    "|",
    "|-",
    "|+",
    "|2",
    ">",
    ">-",
    "'",
    "''",
    "\"",
    "\\",
    "\\n",
    "\\x4",
    "\\u00e9",
    "key",
    "k: v",
    "<<: *a",
    "yes",
    "0644",
    "1:30",
    "~",
    "---",
    "...",
    "\n---\n",
    "%YAML 1.2",
    "é",
    "日本",
    "\u{feff}",
    "\0",
    "a",
    "1",
];

fn yamlish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => proptest::sample::select(PIECES).prop_map(str::to_string),
        1 => any::<char>().prop_map(String::from),
    ];
    proptest::collection::vec(piece, 0..48).prop_map(|v| v.concat())
}

fn check_span(src: &str, index: &LineIndex, s: Span, what: &str) -> Result<(), TestCaseError> {
    prop_assert!(s.start.offset <= s.end.offset, "{what}: {s:?}");
    prop_assert!(s.end.offset <= src.len(), "{what}: {s:?}");
    prop_assert!(src.is_char_boundary(s.start.offset), "{what}: {s:?}");
    prop_assert!(src.is_char_boundary(s.end.offset), "{what}: {s:?}");
    prop_assert_eq!(s.start, index.pos(src, s.start.offset), "{}", what);
    prop_assert_eq!(s.end, index.pos(src, s.end.offset), "{}", what);
    Ok(())
}

fn check_tree(src: &str, index: &LineIndex, root: Node<'_>) -> Result<(), TestCaseError> {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        check_span(src, index, n.span(), "node")?;
        match n.kind() {
            NodeKind::Scalar { .. } => {}
            NodeKind::Seq(items) => stack.extend(items),
            NodeKind::Map(entries) => {
                for e in entries {
                    stack.push(e.key);
                    stack.push(e.value);
                }
            }
        }
    }
    Ok(())
}

fn check_parsed(src: &str, parsed: &Parsed) -> Result<(), TestCaseError> {
    let index = LineIndex::new(src);
    for d in &parsed.documents {
        check_span(src, &index, d.span, "document")?;
        check_tree(src, &index, d.root())?;
    }
    for p in &parsed.problems {
        prop_assert!(
            p.message != "the YAML parser failed on this input",
            "saphyr panicked"
        );
        check_span(src, &index, p.span, "problem")?;
        if let Some(o) = p.other {
            check_span(src, &index, o, "problem.other")?;
        }
    }
    let starts: Vec<usize> = parsed
        .problems
        .iter()
        .map(|p| p.span.start.offset)
        .collect();
    prop_assert!(
        starts.windows(2).all(|w| w[0] <= w[1]),
        "problems not sorted"
    );
    Ok(())
}

fn first_scalar(parsed: &Parsed) -> Option<Node<'_>> {
    let mut stack: Vec<Node<'_>> = parsed.documents.iter().rev().map(|d| d.root()).collect();
    while let Some(n) = stack.pop() {
        match n.kind() {
            NodeKind::Scalar { .. } => return Some(n),
            NodeKind::Seq(items) => stack.extend(items.iter().rev()),
            NodeKind::Map(entries) => {
                for e in entries.iter().rev() {
                    stack.push(e.value);
                    stack.push(e.key);
                }
            }
        }
    }
    None
}

fn check_all(src: &str) -> Result<(), TestCaseError> {
    let opts = Options::default();
    let parsed = parse(src, &opts);
    check_parsed(src, &parsed)?;
    if let Some(scalar) = first_scalar(&parsed) {
        let map = scalar_source_map(src, scalar);
        let len = scalar.key_text().map_or(0, str::len);
        prop_assert_eq!(map.offsets.len(), len + 1);
        prop_assert!(map.offsets.iter().all(|&o| o <= src.len()));
        let inner = parse_embedded(src, scalar, &opts);
        check_parsed(src, &inner)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn parse_never_panics_and_spans_are_sane(src in yamlish()) {
        check_all(&src)?;
    }

    #[test]
    fn arbitrary_unicode_is_fine(src in "\\PC{0,64}") {
        check_all(&src)?;
    }
}

/// A few words to build scalar lines from.
fn words() -> impl Strategy<Value = String> {
    let word = proptest::sample::select(
        &[
            "a", "b c", "x: y", "é", "  ", "#", "-", "'", "\"", "\\", "\t", "日",
        ][..],
    );
    proptest::collection::vec(word, 1..6).prop_map(|v| v.concat())
}

/// `k:` holding a block scalar of random header, indentation, lines and blank lines.
fn block_scalar_doc() -> impl Strategy<Value = String> {
    let lines = proptest::collection::vec((0usize..4, words(), 0usize..3), 1..5);
    (0usize..9, lines).prop_map(|(style, lines)| {
        let header = ["|", "|-", "|+", ">", ">-", ">+", "|2", "|1-", ">3"][style];
        let base = header
            .chars()
            .find(char::is_ascii_digit)
            .map_or(2, |c| c as usize - '0' as usize);
        let mut s = format!("k: {header}\n");
        for (extra, text, blanks) in lines {
            s.push_str(&" ".repeat(base + extra));
            s.push_str(text.trim_start_matches('\t'));
            s.push('\n');
            s.push_str(&"\n".repeat(blanks));
        }
        s.push_str("next: 1\n");
        s
    })
}

/// `k:` holding a multi-line single-quoted, double-quoted or plain scalar.
fn flow_scalar_doc() -> impl Strategy<Value = String> {
    let lines = proptest::collection::vec((0usize..4, words(), 0usize..3), 1..5);
    (0usize..3, lines).prop_map(|(style, lines)| {
        let q = ["'", "\"", ""][style];
        let mut s = format!("k: {q}");
        for (i, (extra, text, blanks)) in lines.into_iter().enumerate() {
            let t = match style {
                0 => text.replace('\'', "''"),
                1 => text
                    .replace('\\', "\\\\")
                    .replace('"', "\\\"")
                    .replace('\t', "\\t"),
                _ => text
                    .replace([':', '#', '\'', '"', '-', '\\', '\t'], "z")
                    .trim()
                    .to_string(),
            };
            if t.is_empty() {
                continue;
            }
            if i > 0 {
                s.push_str(&" ".repeat(1 + extra));
            }
            s.push_str(&t);
            s.push('\n');
            s.push_str(&"\n".repeat(blanks));
        }
        s.push(' ');
        s.push_str(q);
        s.push('\n');
        s
    })
}

/// The `k` scalar of a generated document maps exactly, in several surroundings.
fn check_exact(src: &str) -> Result<(), TestCaseError> {
    let nested: String = src
        .lines()
        .map(|l| {
            if l.is_empty() {
                "\n".to_string()
            } else {
                format!("    {l}\n")
            }
        })
        .collect();
    for variant in [
        src.to_string(),
        format!("- a:\n{}", nested.replacen("    k:", "  - k:", 1)),
        src.replace('\n', "\r\n"),
        src.replacen('\n', "\n\n   \n", 1),
    ] {
        let parsed = parse(&variant, &Options::default());
        if parsed
            .problems
            .iter()
            .any(|p| p.kind == ProblemKind::Syntax)
        {
            continue;
        }
        let Some(root) = parsed.documents.first().map(|d| d.root()) else {
            continue;
        };
        let k = root.get("k").or_else(|| {
            root.as_seq()?
                .first()?
                .get("a")?
                .as_seq()?
                .first()?
                .get("k")
        });
        if let Some(k) = k {
            let map = scalar_source_map(&variant, k);
            prop_assert!(map.exact, "inexact: {:?} {:?}", variant, k);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn block_scalars_map_exactly(src in block_scalar_doc()) {
        check_exact(&src)?;
    }

    #[test]
    fn flow_scalars_map_exactly(src in flow_scalar_doc()) {
        check_exact(&src)?;
    }
}

/// Inputs that once looked risky, kept as regression cases.
#[test]
fn known_edge_inputs() {
    for src in [
        "\u{feff}a: 1",
        "a: \"\\",
        "- |2\n  \n",
        "k: |+\n  \n",
        "k: >\n \t\n",
        "{a: [}",
        "? - a\n: b",
        "&a [*a]",
        "a: &a\n  b: *a\n",
        "\0",
        "a: '\n",
        "- !!int x\n- !!float .nan\n",
        "\r\r\n\r",
        "--- |1\n\n",
        "k: |2\n   \nnext: 1\n",
        "k: |\n    \t\nnext: 1\n",
        "'' # c",
        "|\n|\t",
        "| \n& |\n---\n",
        "\u{feff}|\n \t",
        "%&a ¡\n---\n\\",
        "%FOO ¡\n---\nk: v\n",
    ] {
        check_all(src).unwrap();
        let parsed = parse(src, &Options::default());
        if parsed
            .problems
            .iter()
            .any(|p| p.kind == ProblemKind::Syntax)
        {
            continue;
        }
        let mut stack: Vec<Node<'_>> = parsed.documents.iter().map(|d| d.root()).collect();
        while let Some(n) = stack.pop() {
            match n.kind() {
                NodeKind::Scalar { .. } => {
                    assert!(scalar_source_map(src, n).exact, "{src:?}: {n:?}");
                }
                NodeKind::Seq(items) => stack.extend(items),
                NodeKind::Map(entries) => {
                    stack.extend(entries.iter().flat_map(|e| [e.key, e.value]));
                }
            }
        }
    }
}
