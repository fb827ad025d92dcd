//! Pairs each head object of a kind with its base revision, file-aware: repositories hold several
//! clusters, each with its own `ClusterVersion/version` or `FeatureGate/cluster`, so the same
//! identity in another folder is another object.

use nodecast_yaml::Node;

use crate::diagnostic::Location;
use crate::inventory::{Inventory, Object};

/// Every head object of `group`/`kind` with its base revision (same identity, same file when
/// possible; same identity when it is unique in base).
pub fn pairs<'a>(
    base: &'a Inventory,
    head: &'a Inventory,
    group: &str,
    kind: &str,
) -> Vec<(Option<&'a Object>, &'a Object)> {
    let mut by_id: std::collections::HashMap<&crate::inventory::ObjectId, Vec<&Object>> =
        std::collections::HashMap::new();
    for b in base
        .objects
        .iter()
        .filter(|o| o.id.group == group && o.id.kind == kind)
    {
        by_id.entry(&b.id).or_default().push(b);
    }
    head.objects
        .iter()
        .filter(|o| o.id.group == group && o.id.kind == kind)
        .map(|h| {
            let same: &[&Object] = by_id.get(&h.id).map(Vec::as_slice).unwrap_or_default();
            let b = same
                .iter()
                .copied()
                .find(|b| b.path == h.path)
                .or_else(|| (same.len() == 1).then(|| same[0]));
            (b, &**h)
        })
        .collect()
}

/// The node at a JSON pointer of mapping keys.
pub fn node<'a>(o: &'a Object, pointer: &str) -> Option<Node<'a>> {
    let keys: Vec<&str> = pointer.split('/').skip(1).collect();
    o.root().path(&keys)
}

/// The string at a JSON pointer.
pub fn text<'a>(o: &'a Object, pointer: &str) -> Option<&'a str> {
    node(o, pointer).and_then(Node::key_text)
}

/// The key of the field at `pointer` (its deepest existing ancestor when absent), in head.
pub fn at(o: &Object, pointer: &str) -> Location {
    o.head_location(nodecast_yaml::pointer::walk(o.root(), pointer).key_span())
}
