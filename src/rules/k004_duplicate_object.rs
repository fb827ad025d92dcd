//! K004: two definitions of the same object in one tree.

use nodecast_yaml::Node;

use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Location, Severity};
use crate::inventory::Object;

/// The rule.
pub static RULE: Rule = Rule {
    code: "K004",
    name: "duplicate-object",
    severity: Severity::Error,
    summary:
        "Two documents define the same object (group, kind, namespace, name); one is silently lost",
    check,
};

fn name_span(o: &Object) -> nodecast_yaml::Span {
    o.root()
        .path(&["metadata", "name"])
        .map(|n: &Node| n.span)
        .unwrap_or(o.root().span)
}

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    if ctx.head.duplicates.is_empty() {
        return;
    }
    let roots = crate::forecast::mco::cluster_roots(ctx.base, ctx.head);
    let linked: std::collections::HashSet<&str> = ctx
        .head_files
        .iter()
        .filter(|f| f.via_link)
        .map(|f| f.path.as_str())
        .collect();
    for &(first, later) in &ctx.head.duplicates {
        let (a, b) = (&ctx.head.objects[first], &ctx.head.objects[later]);
        if crate::forecast::mco::in_different_clusters(&roots, a, b) {
            continue;
        }
        // A file seen again through a symbolic link: the same document, not a second definition.
        if a.same_document(b)
            && (linked.contains(a.path.as_str()) || linked.contains(b.path.as_str()))
        {
            continue;
        }
        out.push(
            Diagnostic::new(
                &RULE,
                format!(
                    "{} is defined twice; the cluster keeps only the one applied last",
                    b.id
                ),
                Location::head(&b.path, name_span(b)),
            )
            .label("second definition")
            .related(Location::head(&a.path, name_span(a)), "first definition")
            .help("delete one definition, or rename one if they are meant to be two objects")
            .object(b.id.to_string()),
        );
    }
}
