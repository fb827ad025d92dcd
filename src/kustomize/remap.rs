//! Gives every node of a rendered object a place in the repository: where its value is written
//! (origin file, patch, kustomization field), else the object's first line in its origin file.

use nodecast_yaml::{Builder, Document, Entry, Node, NodeId, NodeKind, Span};

/// Finds the spans in the repository for `node` (from Kustomize's output) and its descendants,
/// each pushed to `spans` for the caller to set on the document.
///
/// `cands` are nodes at the same position in documents that may have written the value: the
/// origin document first, then patches and kustomization fields. A scalar takes the span of the
/// first candidate with an equal value; anything not found takes `fallback` (a span, usually
/// the object's first key, and its file tag).
///
/// Each candidate carries a tag (0 = the origin file); every span given out is recorded in
/// `assigned` with its tag, so [`elsewhere`] can tell which spans point into another file.
pub fn remap(
    node: Node<'_>,
    cands: &[Cand<'_>],
    fallback: (Span, usize),
    assigned: &mut Vec<(Span, usize)>,
    spans: &mut Vec<(NodeId, Span)>,
) {
    let elsewhere = assigned;
    let take = |at: NodeId,
                found: Option<&Cand<'_>>,
                elsewhere: &mut Vec<(Span, usize)>,
                spans: &mut Vec<(NodeId, Span)>| {
        let (span, tag) = found.map(|c| (c.0.span(), c.1)).unwrap_or(fallback);
        spans.push((at, span));
        elsewhere.push((span, tag));
    };
    match node.kind() {
        NodeKind::Scalar { .. } => {
            let found = cands.iter().find(|c| same_scalar(c.0, node));
            take(node.id(), found, elsewhere, spans);
        }
        NodeKind::Map(entries) => {
            let found = cands.iter().find(|c| c.0.as_map().is_some());
            take(node.id(), found, elsewhere, spans);
            for Entry { key, value } in entries.iter() {
                let name = key.as_str().unwrap_or_default();
                let sub: Vec<(Entry<'_>, usize)> = cands
                    .iter()
                    .filter_map(|c| Some((c.0.entry(name)?, c.1)))
                    .collect();
                // The key is shown where the value is set: the entry whose scalar value matches
                // (a patch that changes it), else the first entry that has the key.
                let key_cands: Vec<Cand<'_>> = sub
                    .iter()
                    .filter(|(e, _)| same_scalar(e.value, value))
                    .chain(sub.iter())
                    .map(|(e, t)| (e.key, *t))
                    .collect();
                take(key.id(), key_cands.first(), elsewhere, spans);
                let values: Vec<Cand<'_>> = sub.iter().map(|(e, t)| (e.value, *t)).collect();
                remap(value, &values, fallback, elsewhere, spans);
            }
        }
        NodeKind::Seq(items) => {
            let found = cands.iter().find(|c| c.0.as_seq().is_some());
            take(node.id(), found, elsewhere, spans);
            let all = || {
                cands
                    .iter()
                    .filter_map(|c| Some((c.0.as_seq()?, c.1)))
                    .flat_map(|(s, t)| s.iter().map(move |n| (n, t)))
            };
            for (i, item) in items.iter().enumerate() {
                let sub: Vec<Cand<'_>> = match item_key(item) {
                    Some((k, v)) => all()
                        .filter(|c| c.0.get(&k).and_then(Node::as_str) == Some(v.as_str()))
                        .collect(),
                    None if item.is_scalar() => all().filter(|c| same_scalar(c.0, item)).collect(),
                    None => cands
                        .iter()
                        .filter_map(|c| Some((c.0.as_seq()?.get(i)?, c.1)))
                        .collect(),
                };
                remap(item, &sub, fallback, elsewhere, spans);
            }
        }
    }
}

/// The spans that point into another file than the origin, with that file's tag. A span that
/// was also given out from the origin file is ambiguous and stays with the origin.
pub fn elsewhere(assigned: &[(Span, usize)]) -> Vec<(Span, usize)> {
    let origin: std::collections::HashSet<Span> = assigned
        .iter()
        .filter(|(_, t)| *t == 0)
        .map(|(s, _)| *s)
        .collect();
    let mut out: Vec<(Span, usize)> = assigned
        .iter()
        .filter(|(s, t)| *t != 0 && !origin.contains(s))
        .copied()
        .collect();
    out.sort();
    out.dedup();
    out
}

/// A candidate node and the file it is in (0 = the origin file).
pub type Cand<'a> = (Node<'a>, usize);

/// The merge key of a list item (`name`, else `path` or `key`), the way strategic merge matches them.
fn item_key(item: Node<'_>) -> Option<(String, String)> {
    ["name", "path", "key", "mountPath", "containerPort"]
        .iter()
        .find_map(|k| Some((k.to_string(), item.get(k)?.as_str()?.to_string())))
}

fn same_scalar(a: Node<'_>, b: Node<'_>) -> bool {
    match (a.kind(), b.kind()) {
        (
            NodeKind::Scalar {
                text: ta,
                value: va,
                ..
            },
            NodeKind::Scalar {
                text: tb,
                value: vb,
                ..
            },
        ) => ta == tb || (va == vb && va != nodecast_yaml::Scalar::Str),
        _ => false,
    }
}

/// A synthetic document placing `value` at `path` (e.g. `commonLabels` at `metadata.labels`), so
/// a kustomization field can be a candidate for the rendered objects it changes.
pub fn at_path(path: &[&str], value: Node<'_>) -> Document {
    let mut b = Builder::new();
    let span = value.span();
    let mut node = b.copy(value);
    for key in path.iter().rev() {
        let k = b.scalar(key, span);
        node = b.map(span, &[(k, node)]);
    }
    b.finish(node, 0, span)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Document {
        nodecast_yaml::parse(text, &Default::default())
            .documents
            .swap_remove(0)
    }

    #[test]
    fn values_take_the_span_where_they_are_written() {
        let origin = doc("kind: MachineConfig\nspec:\n  kernelArguments:\n  - nosmt\n");
        let patch = doc("kind: MachineConfig\nspec:\n  osImageURL: foo\n");
        let mut rendered = doc(
            "kind: MachineConfig\nmetadata:\n  name: x\nspec:\n  kernelArguments:\n  - nosmt\n  osImageURL: foo\n",
        );
        let fallback = origin.root().span();
        let mut elsewhere = Vec::new();
        let mut spans = Vec::new();
        remap(
            rendered.root(),
            &[(origin.root(), 0), (patch.root(), 1)],
            (fallback, 0),
            &mut elsewhere,
            &mut spans,
        );
        for (id, span) in spans {
            rendered.set_span(id, span);
        }
        let elsewhere = super::elsewhere(&elsewhere);
        assert!(elsewhere.iter().any(|(s, t)| s.start.line == 3 && *t == 1));
        assert!(elsewhere.iter().all(|(_, t)| *t == 1));
        let rendered = rendered.root();
        let k = rendered.path(&["spec", "kernelArguments"]).unwrap();
        assert_eq!(k.as_seq().unwrap().get(0).unwrap().span().start.line, 4);
        let os = rendered.path(&["spec", "osImageURL"]).unwrap();
        assert_eq!((os.span().start.line, os.span().start.col), (3, 15));
        let name = rendered.path(&["metadata", "name"]).unwrap();
        assert_eq!(name.span(), fallback);
    }
}
