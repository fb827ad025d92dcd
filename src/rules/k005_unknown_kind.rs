//! K005: a kind nodecast does not know in an API group it models (usually a typo). In a group
//! optional operators add kinds to (`operator.openshift.io`), only a near miss of a listed kind.

use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Fix, Location, Severity};
use crate::inventory::kinds;
use crate::parse::type_meta;
use crate::text::closest;

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "K005",
    name: "unknown-kind",
    severity: Severity::Warning,
    summary: "A kind that does not exist in an OpenShift/HyperShift API group (usually a typo)",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::File,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // Patches and generator manifests are partial objects: completeness is not theirs to have.
    for d in ctx.head_docs().filter(|d| d.role.is_manifest()) {
        let root = d.doc.doc.root();
        let Some((api, kind)) = type_meta(root) else {
            continue;
        };
        let group = kinds::group_of(api);
        let Some(known) = kinds::known_kinds(group) else {
            continue;
        };
        if known.contains(&kind)
            || kinds::is_open_group(group) && kinds::OPERATOR_ADDED_KINDS.contains(&kind)
        {
            continue;
        }
        let typo_of = closest(kind, known.iter().copied());
        if kinds::is_open_group(group) && typo_of.is_none() {
            continue;
        }
        let span = root.get("kind").map(|n| n.span()).unwrap_or(root.span());
        let mut diag = Diagnostic::new(
            &CODE,
            format!("`{kind}` is not a kind of {group}: the API server would answer \"no matches for kind\""),
            Location::head(d.path, span),
        )
        .label("unknown kind");
        diag = match typo_of {
            Some(s) => diag
                .help(format!("did you mean `{s}`?"))
                .fix(Fix::rename(span, s)),
            None => diag.help(format!(
                "kinds of {group} nodecast knows: {}",
                known.join(", ")
            )),
        };
        out.push(diag);
    }
}
