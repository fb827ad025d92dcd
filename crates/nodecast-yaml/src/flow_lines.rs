//! Kubernetes reads YAML with go-yaml, which (like libyaml) does not look at indentation inside a
//! flow collection: `args: [` … `]` with the closing bracket under the key, or the entries of a
//! `{` … `}` at the key's column, is read by kubectl, Helm, Flux and Argo CD alike. saphyr follows
//! the YAML spec, which wants every line of a flow collection indented past its parent, and
//! stops with "invalid indentation" — which hid every object of the file behind a syntax error.
//!
//! When the parse stops on such a line, the line is joined to the one before: the line break
//! becomes a space and a comment ending the line before becomes spaces. No byte moves, so every
//! offset still points into the file as written. The joined text is used only when it parses
//! without a syntax error, every joined break lies inside a flow collection (`[` … `]`,
//! `{` … `}`) and no scalar covers a changed byte: what it reads is what go-yaml reads.

use crate::parse::{parse_raw, RawParsed};
use crate::{Node, NodeKind, Options, Parsed, Problem, ProblemKind, Source, Span};

/// How many lines one file may have joined (each join parses the file again).
const MAX_JOINS: usize = 64;

/// The parse of `text` with its flow collections' under-indented lines joined, and the offsets
/// the joins changed, when the plain parse (`first`) stopped on such a line and the joined text
/// parses; [`reads_the_same`] then says whether it may be used.
pub(crate) fn relaxed(
    text: &str,
    first: &RawParsed,
    opts: &Options,
) -> Option<(RawParsed, Vec<usize>)> {
    let mut at = flow_indentation_error(&first.problems)?;
    let mut joined = text.as_bytes().to_vec();
    let mut changed: Vec<usize> = Vec::new();
    for _ in 0..MAX_JOINS {
        join_line_before(&mut joined, at, &mut changed)?;
        let candidate = std::str::from_utf8(&joined).ok()?;
        let raw = parse_raw(candidate, opts);
        match flow_indentation_error(&raw.problems) {
            Some(next) if next > at => at = next,
            Some(_) => return None,
            None if raw.problems.iter().any(|p| p.kind == ProblemKind::Syntax) => return None,
            None => return Some((raw, changed)),
        }
    }
    None
}

/// Positions of a parse of the joined text, computed again on the file as written (a joined
/// line moved the line numbers after it; offsets did not move).
pub(crate) fn relocate(parsed: &mut Parsed, source: &Source) {
    let at = |s: Span| Span {
        start: source.pos(s.start.offset),
        end: source.pos(s.end.offset),
    };
    for doc in &mut parsed.documents {
        doc.span = at(doc.span);
    }
    for p in &mut parsed.problems {
        p.span = at(p.span);
        p.other = p.other.map(at);
    }
}

/// Where the parse stopped on an under-indented line inside a flow collection.
fn flow_indentation_error(problems: &[Problem]) -> Option<usize> {
    problems
        .iter()
        .find(|p| {
            p.kind == ProblemKind::Syntax
                && matches!(
                    p.message.as_str(),
                    "invalid indentation" | "invalid indentation in flow construct"
                )
        })
        .map(|p| p.span.start.offset)
}

/// Joins the line holding `at` to the line before, when `at` is the first character of its
/// line: the break becomes a space, a comment ending the line before becomes spaces. Records
/// the changed offsets; `None` when `at` does not start its line or there is no line before.
fn join_line_before(text: &mut [u8], at: usize, changed: &mut Vec<usize>) -> Option<()> {
    let line_start = text[..at].iter().rposition(|&b| b == b'\n')? + 1;
    if text[line_start..at]
        .iter()
        .any(|&b| b != b' ' && b != b'\t')
    {
        return None;
    }
    let newline = line_start - 1;
    let mut end = newline;
    if end > 0 && text[end - 1] == b'\r' {
        end -= 1;
    }
    let prev_start = text[..end]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |n| n + 1);
    let comment = std::str::from_utf8(&text[prev_start..end])
        .ok()
        .and_then(comment_start)
        .map(|c| prev_start + c);
    let blank_from = comment.unwrap_or(end);
    for (i, b) in text
        .iter_mut()
        .enumerate()
        .take(newline + 1)
        .skip(blank_from)
    {
        *b = b' ';
        changed.push(i);
    }
    Some(())
}

/// Where a comment starts in a line of YAML: a `#` at its start or after a blank, outside a
/// quoted value (a quote opens a value only where a token starts: `don't # x` is a plain value
/// and a comment).
pub fn comment_start(line: &str) -> Option<usize> {
    let mut quote: Option<u8> = None;
    let mut prev = b' ';
    for (i, &b) in line.as_bytes().iter().enumerate() {
        match quote {
            Some(b'\'') if b == b'\'' => quote = None,
            Some(b'"') if b == b'"' && prev != b'\\' => quote = None,
            Some(_) => {}
            None if b == b'#' && matches!(prev, b' ' | b'\t') => return Some(i),
            None if matches!(b, b'"' | b'\'')
                && matches!(prev, b' ' | b'\t' | b':' | b',' | b'[' | b'{') =>
            {
                quote = Some(b)
            }
            None => {}
        }
        prev = b;
    }
    None
}

/// Whether the joined parse reads what the file says: every changed byte lies inside a flow
/// collection and outside every scalar (`text` is the file as written: the joins changed only
/// blanks, line breaks and comments, never a bracket).
pub(crate) fn reads_the_same(parsed: &Parsed, text: &str, changed: &[usize]) -> bool {
    let mut flows: Vec<(usize, usize)> = Vec::new();
    let mut scalars: Vec<(usize, usize)> = Vec::new();
    for doc in &parsed.documents {
        collect(doc.root(), text, &mut flows, &mut scalars);
    }
    changed.iter().all(|&i| {
        flows.iter().any(|&(s, e)| s < i && i < e) && !scalars.iter().any(|&(s, e)| s <= i && i < e)
    })
}

fn collect(
    node: Node<'_>,
    text: &str,
    flows: &mut Vec<(usize, usize)>,
    scalars: &mut Vec<(usize, usize)>,
) {
    let (start, end) = node.offsets();
    match node.kind() {
        NodeKind::Scalar { .. } => scalars.push((start, end)),
        NodeKind::Seq(items) => {
            flows.extend(flow_range(text, start, end));
            items.iter().for_each(|n| collect(n, text, flows, scalars));
        }
        NodeKind::Map(entries) => {
            flows.extend(flow_range(text, start, end));
            entries.iter().for_each(|e| {
                collect(e.key, text, flows, scalars);
                collect(e.value, text, flows, scalars);
            });
        }
    }
}

/// The brackets of a flow collection whose content is `start..end`: its span starts at its `[`
/// or `{`, or right after it (blanks and line breaks aside); `None` for a block collection
/// (what comes before it is a `:` or a `-`).
fn flow_range(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let blank = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
    let open = if matches!(bytes.get(start), Some(b'[' | b'{')) {
        start
    } else {
        let before = bytes[..start.min(bytes.len())]
            .iter()
            .rposition(|b| !blank(b))?;
        matches!(bytes[before], b'[' | b'{').then_some(before)?
    };
    let close = bytes
        .get(end..)
        .and_then(|rest| rest.iter().position(|b| !blank(b)))
        .map_or(end, |n| end + n);
    Some((open, close.max(end)))
}

#[cfg(test)]
mod tests {
    use crate::{parse, Node, NodeKind, Options, ProblemKind};

    fn syntax(text: &str) -> Vec<(u32, u32, String)> {
        parse(text, &Options::default())
            .problems
            .iter()
            .filter(|p| p.kind == ProblemKind::Syntax)
            .map(|p| (p.span.start.line, p.span.start.col, p.message.clone()))
            .collect()
    }

    /// The first container of a Pod's `spec`.
    fn first_container(root: Node<'_>) -> Option<Node<'_>> {
        match root.path(&["spec", "containers"])?.kind() {
            NodeKind::Seq(items) => items.get(0),
            _ => None,
        }
    }

    fn args(text: &str) -> Vec<String> {
        let parsed = parse(text, &Options::default());
        let node = first_container(parsed.documents[0].root())
            .and_then(|c| c.get("args"))
            .expect("args");
        match node.kind() {
            NodeKind::Seq(items) => items
                .iter()
                .filter_map(|n| n.as_str().map(String::from))
                .collect(),
            _ => Vec::new(),
        }
    }

    const POD: &str = "spec:\n  containers:\n    - name: c\n      args: [\n        \"--a\", # first\n        \"b c\",\n      ]\n      image: i\n";

    #[test]
    fn a_closing_bracket_under_its_key_is_read_as_go_yaml_reads_it() {
        assert_eq!(syntax(POD), Vec::<(u32, u32, String)>::new());
        assert_eq!(args(POD), ["--a", "b c"]);
        // Positions are those of the file as written.
        let parsed = parse(POD, &Options::default());
        let image = first_container(parsed.documents[0].root())
            .and_then(|c| c.get("image"))
            .expect("image")
            .span()
            .start;
        assert_eq!((image.line, image.col), (8, 14));
    }

    #[test]
    fn entries_at_the_keys_column_are_read_too() {
        let text =
            "metadata:\n  name: d\n  labels: {\n  x: \"1\",\n  y: \"2\"\n  }\nz: [\n1,\n2]\n";
        assert_eq!(syntax(text), Vec::<(u32, u32, String)>::new());
        let parsed = parse(text, &Options::default());
        let root = parsed.documents[0].root();
        let y = root.path(&["metadata", "labels", "y"]).expect("y");
        assert_eq!(y.as_str(), Some("2"));
        assert_eq!((y.span().start.line, y.span().start.col), (5, 6));
        let z = root.path(&["z"]).expect("z");
        let NodeKind::Seq(items) = z.kind() else {
            panic!("z is a sequence")
        };
        let second = items.get(1).expect("2");
        assert!(matches!(second.kind(), NodeKind::Scalar { text: "2", .. }));
        assert_eq!((second.span().start.line, second.span().start.col), (9, 1));
    }

    #[test]
    fn a_block_indentation_error_is_still_an_error() {
        let text = "a:\n  b: 1\n c: 2\n";
        assert_eq!(
            syntax(text),
            [(
                3,
                2,
                "while parsing a block mapping, did not find expected key".to_string()
            )]
        );
    }

    #[test]
    fn a_join_inside_a_value_is_not_taken() {
        // A plain value continued on an under-indented line: the line does not start with the
        // token the parse stopped at, so nothing is joined and the error stays.
        let text = "x:\n  - v: [a\n  b]\n";
        assert_eq!(syntax(text), [(3, 4, "invalid indentation".to_string())]);
        // Entries separated by a comma are joined and read one by one.
        let text = "x:\n  - v: [a,\n  b]\n";
        assert_eq!(syntax(text), Vec::<(u32, u32, String)>::new());
    }

    #[test]
    fn a_quoted_value_over_two_lines_keeps_its_folding() {
        // The closing bracket is joined; the quoted value's own line break is not touched.
        let text = "x:\n  - [\"a\n    b\",\n  ]\n";
        assert_eq!(syntax(text), Vec::<(u32, u32, String)>::new());
        let parsed = parse(text, &Options::default());
        let x = parsed.documents[0].root().path(&["x"]).expect("x");
        let NodeKind::Seq(items) = x.kind() else {
            panic!("x is a sequence")
        };
        let NodeKind::Seq(inner) = items.get(0).expect("inner").kind() else {
            panic!("inner sequence")
        };
        assert_eq!(inner.get(0).and_then(|n| n.as_str()), Some("a b"));
    }
}
