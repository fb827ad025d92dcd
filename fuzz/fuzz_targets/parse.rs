//! Feeds arbitrary bytes to the located YAML parser and to embedded-document parsing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nodecast_yaml::{parse, parse_embedded, scalar_source_map, Node, NodeKind, Options, Span};

fn check(src: &str, s: Span) {
    assert!(s.start.offset <= s.end.offset && s.end.offset <= src.len());
    assert!(src.is_char_boundary(s.start.offset) && src.is_char_boundary(s.end.offset));
}

fn scalars<'a>(root: Node<'a>, out: &mut Vec<Node<'a>>) {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        match n.kind() {
            NodeKind::Scalar { .. } => out.push(n),
            NodeKind::Seq(items) => stack.extend(items),
            NodeKind::Map(entries) => {
                for e in entries {
                    stack.push(e.key);
                    stack.push(e.value);
                }
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let src = String::from_utf8_lossy(data);
    let opts = Options::default();
    let parsed = parse(&src, &opts);
    let mut found = Vec::new();
    for d in &parsed.documents {
        check(&src, d.span);
        scalars(d.root(), &mut found);
    }
    for p in &parsed.problems {
        check(&src, p.span);
    }
    for scalar in found.into_iter().take(8) {
        check(&src, scalar.span());
        let map = scalar_source_map(&src, scalar);
        assert!(map.offsets.iter().all(|&o| o <= src.len()));
        let inner = parse_embedded(&src, scalar, &opts);
        for d in &inner.documents {
            check(&src, d.span);
        }
        for p in &inner.problems {
            check(&src, p.span);
        }
    }
});
