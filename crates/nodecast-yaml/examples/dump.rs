//! Prints the located tree of a YAML file (a debugging aid).
use nodecast_yaml::{parse, Node, NodeKind, Options};

fn show(src: &str, n: &Node, depth: usize, label: &str) {
    let s = n.span();
    let text = src.get(s.start.offset..s.end.offset).unwrap_or("?");
    let kind = match &n.kind() {
        NodeKind::Scalar { text, style, value } => format!("{style:?} {text:?} {value:?}"),
        NodeKind::Seq(_) => "seq".into(),
        NodeKind::Map(_) => "map".into(),
    };
    println!(
        "{}{label}{}:{}-{}:{} [{}..{}] {kind} tag={:?} alias={} src={:?}",
        "  ".repeat(depth),
        s.start.line,
        s.start.col,
        s.end.line,
        s.end.col,
        s.start.offset,
        s.end.offset,
        n.tag(),
        n.from_alias(),
        text
    );
    match &n.kind() {
        NodeKind::Scalar { .. } => {}
        NodeKind::Seq(items) => items.iter().for_each(|i| show(src, &i, depth + 1, "- ")),
        NodeKind::Map(entries) => entries.iter().for_each(|e| {
            show(src, &e.key, depth + 1, "K ");
            show(src, &e.value, depth + 2, "V ");
        }),
    }
}

fn main() {
    let path = std::env::args().nth(1).expect("path");
    let src = std::fs::read_to_string(path).expect("read");
    let parsed = parse(&src, &Options::default());
    for d in &parsed.documents {
        println!(
            "--- doc {} {:?}",
            d.index,
            (d.span.start.line, d.span.end.line)
        );
        show(&src, &d.root(), 0, "");
    }
    for p in &parsed.problems {
        println!(
            "PROBLEM {:?} {} at {}:{} other={:?}",
            p.kind,
            p.message,
            p.span.start.line,
            p.span.start.col,
            p.other.map(|o| (o.start.line, o.start.col))
        );
    }
}
