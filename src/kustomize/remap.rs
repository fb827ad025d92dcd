//! Gives every node of a rendered object a place in the repository: where its value is written
//! (origin file, patch, kustomization field), else the object's first line in its origin file.

use nodecast_yaml::{Entry, Node, NodeKind, Span};

/// Replaces the spans of `node` (from Kustomize's output) with spans in the repository.
///
/// `cands` are nodes at the same position in documents that may have written the value: the
/// origin document first, then patches and kustomization fields. A scalar takes the span of the
/// first candidate with an equal value; anything not found takes `fallback` (a span, usually
/// the object's first key, and its file tag).
///
/// Each candidate carries a tag (0 = the origin file); every span given out is recorded in
/// `assigned` with its tag, so [`elsewhere`] can tell which spans point into another file.
pub fn remap(
    node: &mut Node,
    cands: &[Cand<'_>],
    fallback: (Span, usize),
    assigned: &mut Vec<(Span, usize)>,
) {
    let elsewhere = assigned;
    fn take(
        span: &mut Span,
        found: Option<&Cand<'_>>,
        fallback: (Span, usize),
        elsewhere: &mut Vec<(Span, usize)>,
    ) {
        let (at, tag) = found.map(|c| (c.0.span, c.1)).unwrap_or(fallback);
        *span = at;
        elsewhere.push((at, tag));
    }
    match &mut node.kind {
        NodeKind::Scalar { .. } => {
            let found = cands.iter().find(|c| same_scalar(c.0, node));
            take(&mut node.span, found, fallback, elsewhere);
        }
        NodeKind::Map(entries) => {
            let found = cands.iter().find(|c| c.0.as_map().is_some());
            take(&mut node.span, found, fallback, elsewhere);
            for Entry { key, value } in entries.iter_mut() {
                let name = key.as_str().unwrap_or_default().to_string();
                let sub: Vec<(&Entry, usize)> = cands
                    .iter()
                    .filter_map(|c| Some((c.0.entry(&name)?, c.1)))
                    .collect();
                // The key is shown where the value is set: the entry whose scalar value matches
                // (a patch that changes it), else the first entry that has the key.
                let key_cands: Vec<Cand<'_>> = sub
                    .iter()
                    .filter(|(e, _)| same_scalar(&e.value, value))
                    .chain(sub.iter())
                    .map(|(e, t)| (&e.key, *t))
                    .collect();
                take(&mut key.span, key_cands.first(), fallback, elsewhere);
                let values: Vec<Cand<'_>> = sub.iter().map(|(e, t)| (&e.value, *t)).collect();
                remap(value, &values, fallback, elsewhere);
            }
        }
        NodeKind::Seq(items) => {
            let found = cands.iter().find(|c| c.0.as_seq().is_some());
            take(&mut node.span, found, fallback, elsewhere);
            let all = || {
                cands
                    .iter()
                    .filter_map(|c| Some((c.0.as_seq()?, c.1)))
                    .flat_map(|(s, t)| s.iter().map(move |n| (n, t)))
            };
            for (i, item) in items.iter_mut().enumerate() {
                let sub: Vec<Cand<'_>> = match item_key(item) {
                    Some((k, v)) => all()
                        .filter(|c| c.0.get(&k).and_then(Node::as_str) == Some(v.as_str()))
                        .collect(),
                    None if matches!(item.kind, NodeKind::Scalar { .. }) => {
                        all().filter(|c| same_scalar(c.0, item)).collect()
                    }
                    None => cands
                        .iter()
                        .filter_map(|c| Some((c.0.as_seq()?.get(i)?, c.1)))
                        .collect(),
                };
                remap(item, &sub, fallback, elsewhere);
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
pub type Cand<'a> = (&'a Node, usize);

/// The merge key of a list item (`name`, else `path` or `key`), the way strategic merge matches them.
fn item_key(item: &Node) -> Option<(String, String)> {
    ["name", "path", "key", "mountPath", "containerPort"]
        .iter()
        .find_map(|k| Some((k.to_string(), item.get(k)?.as_str()?.to_string())))
}

fn same_scalar(a: &Node, b: &Node) -> bool {
    match (&a.kind, &b.kind) {
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
        ) => ta == tb || (va == vb && *va != nodecast_yaml::Scalar::Str),
        _ => false,
    }
}

/// A synthetic node placing `value` at `path` (e.g. `commonLabels` at `metadata.labels`), so a
/// kustomization field can be a candidate for the rendered objects it changes.
pub fn at_path(path: &[&str], value: &Node) -> Node {
    let mut node = value.clone();
    for key in path.iter().rev() {
        let span = value.span;
        node = Node {
            span,
            kind: NodeKind::Map(vec![Entry {
                key: Node {
                    span,
                    kind: NodeKind::Scalar {
                        text: (*key).into(),
                        style: nodecast_yaml::ScalarStyle::Plain,
                        value: nodecast_yaml::Scalar::Str,
                    },
                    tag: None,
                    from_alias: false,
                },
                value: node,
            }]),
            tag: None,
            from_alias: false,
        };
    }
    node
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Node {
        nodecast_yaml::parse(text, &Default::default()).documents[0]
            .root
            .clone()
    }

    #[test]
    fn values_take_the_span_where_they_are_written() {
        let origin = doc("kind: MachineConfig\nspec:\n  kernelArguments:\n  - nosmt\n");
        let patch = doc("kind: MachineConfig\nspec:\n  osImageURL: foo\n");
        let mut rendered = doc(
            "kind: MachineConfig\nmetadata:\n  name: x\nspec:\n  kernelArguments:\n  - nosmt\n  osImageURL: foo\n",
        );
        let fallback = origin.span;
        let mut elsewhere = Vec::new();
        remap(
            &mut rendered,
            &[(&origin, 0), (&patch, 1)],
            (fallback, 0),
            &mut elsewhere,
        );
        let elsewhere = super::elsewhere(&elsewhere);
        assert!(elsewhere.iter().any(|(s, t)| s.start.line == 3 && *t == 1));
        assert!(elsewhere.iter().all(|(_, t)| *t == 1));
        let k = rendered.path(&["spec", "kernelArguments"]).unwrap();
        assert_eq!(k.as_seq().unwrap()[0].span.start.line, 4);
        let os = rendered.path(&["spec", "osImageURL"]).unwrap();
        assert_eq!((os.span.start.line, os.span.start.col), (3, 15));
        let name = rendered.path(&["metadata", "name"]).unwrap();
        assert_eq!(name.span, fallback);
    }
}
