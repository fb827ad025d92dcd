//! K001: a document has `kind` without `apiVersion`, or the reverse.

use nodecast_yaml::Node;

use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Location, Severity};

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "K001",
    name: "incomplete-object",
    severity: Severity::Error,
    summary: "A document has kind but no apiVersion, or apiVersion but no kind",
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
        let Some(entries) = root.as_map() else {
            continue;
        };
        let api = root.get("apiVersion");
        let kind = root.get("kind");
        let (message, help) = match (api, kind) {
            (None, Some(k)) if k.as_str().is_some_and(looks_like_kind) => (
                format!("`kind: {}` without `apiVersion`: the API server rejects this object", k.as_str().unwrap_or_default()),
                "add the apiVersion, e.g. `apiVersion: hypershift.openshift.io/v1beta1` for a NodePool",
            ),
            (Some(a), None) if a.as_str().is_some_and(looks_like_api_version) => (
                format!("`apiVersion: {}` without `kind`: the API server rejects this object", a.as_str().unwrap_or_default()),
                "add the kind of the object (`kind: MachineConfig`, `kind: NodePool`, …)",
            ),
            _ => continue,
        };
        let start = entries.first().map(|e| e.key.span()).unwrap_or(root.span());
        out.push(
            Diagnostic::new(&CODE, message, Location::head(d.path, start))
                .label("this document is meant to be an object")
                .help(help),
        );
    }
}

fn looks_like_kind(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && s.chars().all(|c| c.is_ascii_alphanumeric())
}

fn looks_like_api_version(s: &str) -> bool {
    let version = s.rsplit('/').next().unwrap_or(s);
    version.starts_with('v') && version[1..].starts_with(|c: char| c.is_ascii_digit())
}

/// Exposed for K002, which checks the format of present fields.
pub(super) fn is_kind(node: Node<'_>) -> bool {
    node.as_str().is_some_and(looks_like_kind)
}
