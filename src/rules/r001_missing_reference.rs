//! R001: a NodePool refers to a HostedCluster or ConfigMap that is not there.

use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Fix, Severity};
use crate::inventory::ReferenceKind;
use crate::text::closest;

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "R001",
    name: "missing-reference",
    severity: Severity::Error,
    summary:
        "A NodePool refers to a HostedCluster or ConfigMap that does not exist in its namespace",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let inv = ctx.head;
    for r in &inv.references {
        // A placeholder name (`CLUSTER_NAME`, `$cluster`) is filled in at deploy time.
        if r.resolved.is_some() || crate::placeholder::is_templated(&r.target.name) {
            continue;
        }
        let from = &inv.objects[r.from];
        let ns = r.target.namespace.as_deref().unwrap_or_default();
        let what = match r.kind {
            ReferenceKind::NodePoolCluster => "HostedCluster",
            ReferenceKind::NodePoolConfig => "ConfigMap (spec.config)",
            ReferenceKind::NodePoolTuning => "ConfigMap (spec.tuningConfig)",
        };
        let managed = inv.manages(&r.target.group, &r.target.kind);
        let location = from.head_location(r.span);
        let diag = if managed {
            let candidates: Vec<&str> = inv
                .of_kind(&r.target.group, &r.target.kind)
                .filter(|o| o.id.namespace == r.target.namespace)
                .map(|o| o.id.name.as_str())
                .collect();
            let mut d = Diagnostic::new(
                &CODE,
                format!(
                    "{} refers to {what} `{}`, which does not exist in namespace `{ns}`",
                    from.id, r.target.name
                ),
                location,
            )
            .label("no such object");
            // The name as written can be replaced only where it is written as is (a name a
            // Kustomize prefix or suffix changes is not the text at the span).
            let written = ctx
                .head_files
                .iter()
                .find(|f| *f.path == *from.path)
                .and_then(|f| f.parsed.text.as_deref())
                .and_then(|t| t.get(r.span.start.offset..r.span.end.offset))
                .map(|t| t.trim_matches(['"', '\'']));
            d = match closest(&r.target.name, candidates.iter().copied()) {
                Some(s) if written == Some(r.target.name.as_str()) => d
                    .help(format!("did you mean `{s}`?"))
                    .fix(Fix::rename(r.span, s)),
                Some(s) => d.help(format!("did you mean `{s}`?")),
                None => d.help(format!(
                    "add the {} `{}` to namespace `{ns}`, or fix the name",
                    r.target.kind, r.target.name
                )),
            };
            d.note(match r.kind {
                ReferenceKind::NodePoolCluster => "the NodePool controller ignores a NodePool whose HostedCluster does not exist",
                _ => "HyperShift reports the missing ConfigMap in the NodePool's conditions and rolls out nothing until it exists",
            })
        } else {
            Diagnostic::new(
                &CODE,
                format!(
                    "{} refers to {what} `{}`; no {} is managed in this repository, so it cannot be checked",
                    from.id, r.target.name, r.target.kind
                ),
                location,
            )
            .severity(Severity::Info)
            .label("not checked")
            .help(format!("make sure {} `{}` exists in namespace `{ns}` on the management cluster", r.target.kind, r.target.name))
        };
        out.push(diag.object(from.id.to_string()));
    }
}
