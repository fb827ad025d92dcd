//! HyperShift model: for every NodePool whose inputs differ between base and head, what the
//! NodePool controller does — replace, update in place, nothing, or refuse — and when
//! (HyperShift `hypershift-operator/controllers/nodepool/`: the config hash, the machine template and the release version are the three triggers).

mod checks;
pub mod codes;
mod compare;
mod config_maps;
mod fingerprint;
mod hosted_cluster;
mod impact;
mod inputs;
mod locate;
mod normalise;
mod os_stream;
mod paused;
mod shape;
mod template;
pub(crate) mod version;

use std::collections::BTreeSet;

use rayon::prelude::*;

use super::{Forecast, Input};
use crate::diagnostic::{Diagnostic, Location};
use crate::inventory::{Object, ObjectId};
use inputs::{Side, Trigger};

/// The HyperShift API group.
pub(crate) const GROUP: &str = "hypershift.openshift.io";

/// Adds the HyperShift entries, findings and judged objects to `out`.
pub fn forecast(input: &Input<'_>, out: &mut Forecast) {
    let mut ids: BTreeSet<&ObjectId> = BTreeSet::new();
    ids.extend(input.base.of_kind(GROUP, "NodePool").map(|o| &o.id));
    ids.extend(input.head.of_kind(GROUP, "NodePool").map(|o| &o.id));
    // NodePools are judged independently: in parallel, merged back in identity order.
    let ids: Vec<&ObjectId> = ids.into_iter().collect();
    let judged: Vec<Judged> = ids.par_iter().map(|id| judge(input, id)).collect();
    let mut diagnostics = Vec::new();
    let mut cms_rolling: BTreeSet<String> = BTreeSet::new();
    for (id, j) in ids.into_iter().zip(judged) {
        if j.covered {
            out.covered.insert(id.clone());
        }
        diagnostics.extend(j.diagnostics);
        cms_rolling.extend(j.cms_rolling);
        out.impacts.extend(j.impact);
    }
    diagnostics.extend(hosted_cluster::findings(input, out));
    hosted_cluster::content_not_hashed(input, out);
    diagnostics.extend(config_maps::findings(input, out, &cms_rolling));
    let mut seen = BTreeSet::new();
    diagnostics.retain(|d| seen.insert((d.code, d.location.clone(), d.message.clone())));
    out.diagnostics.extend(diagnostics);
}

/// What one NodePool contributes to the forecast.
#[derive(Default)]
struct Judged {
    covered: bool,
    diagnostics: Vec<Diagnostic>,
    cms_rolling: Vec<String>,
    impact: Option<super::Impact>,
}

fn judge(input: &Input<'_>, id: &ObjectId) -> Judged {
    let mut j = Judged {
        covered: input.diff.change_of(id).is_some(),
        ..Judged::default()
    };
    match (input.base.get(id), input.head.get(id)) {
        (None, Some(h)) => {
            let hs = Side::build(input.head, h);
            j.diagnostics
                .extend(checks::nodepool(input, None, &hs).diagnostics);
        }
        // Not deleted: its file cannot be read in head (the unreadable-change forecast says so).
        (Some(_), None)
            if input
                .diff
                .change_of(id)
                .is_some_and(|c| c.kind == crate::diff::ChangeKind::Unreadable) => {}
        (Some(b), None) => {
            j.diagnostics.push(deleted(b));
            j.impact = Some(removal(input, b));
        }
        (Some(b), Some(h)) => {
            let bs = Side::build(input.base, b);
            let hs = Side::build(input.head, h);
            let verdict = checks::nodepool(input, Some(&bs), &hs);
            j.diagnostics.extend(verdict.diagnostics);
            let triggered = compare::causes(input, &bs, &hs);
            if triggered.is_empty() {
                return j;
            }
            for t in &triggered {
                if t.trigger != Trigger::Never && t.cause.object.starts_with("ConfigMap/") {
                    j.cms_rolling.push(t.cause.object.clone());
                }
            }
            let (impact, extra) = impact::impact(input, &bs, &hs, triggered, verdict.blocked);
            j.diagnostics.extend(extra);
            j.impact = Some(impact);
        }
        (None, None) => {}
    }
    j
}

/// A deleted NodePool: the controller deletes its MachineDeployment, whose machines are drained
/// and deleted; nothing replaces them. The contract's `drain` action (drained, no reboot) with the
/// removal stated in the cause.
fn removal(input: &Input<'_>, b: &Object) -> super::Impact {
    let size = shape::size(b.root());
    let nodes = node_count(input, b);
    let count = match (size, nodes) {
        (Some(s), _) if s.autoscaling_min.is_some() => format!("up to {} nodes", s.nodes),
        (_, Some(1)) => "its node".to_string(),
        (_, Some(n)) => format!("its {n} nodes"),
        (_, None) => "all its nodes".to_string(),
    };
    let cluster = b
        .root()
        .path(&["spec", "clusterName"])
        .and_then(nodecast_yaml::Node::as_str)
        .unwrap_or_default();
    let start = b.root().span().start;
    super::Impact {
        target: super::Target {
            cluster: format!(
                "HostedCluster/{}/{cluster}",
                b.id.namespace.as_deref().unwrap_or_default()
            ),
            kind: "NodePool".into(),
            namespace: b.id.namespace.as_deref().map(str::to_string),
            name: b.id.name.to_string(),
            scope: b.id.scope.to_string(),
        },
        action: super::Action::Drain,
        drain: true,
        nodes,
        causes: vec![super::Cause {
            object: b.id.to_string(),
            field: String::new(),
            file: b.path.to_string(),
            line: start.line,
            column: start.col,
            summary: format!(
                "NodePool deleted (base revision): {count} drained and removed, no replacement"
            ),
        }],
        when: super::When::now(),
        rollout: None,
        fingerprint: None,
    }
}

/// A NodePool's node count: `replicas` (or the autoscaling maximum), else `--assume-nodes`.
pub(crate) fn node_count(input: &Input<'_>, np: &Object) -> Option<u32> {
    shape::size(np.root()).map(|s| s.nodes).or_else(|| {
        let id = &np.id;
        let full = format!(
            "{}/{}",
            id.namespace.as_deref().unwrap_or_default(),
            id.name
        );
        let assumed = &input.settings.assume_nodes;
        assumed
            .get(&full)
            .or_else(|| assumed.get(id.name.as_str()))
            .copied()
    })
}

fn deleted(b: &Object) -> Diagnostic {
    let nodes = shape::size(b.root())
        .map(|s| format!("its {} node(s)", s.nodes))
        .unwrap_or_else(|| "all its nodes".into());
    Diagnostic::new(
        &codes::H117,
        format!(
            "NodePool {} is deleted: {nodes} are drained and removed",
            b.id.name
        ),
        Location::base(&b.path, b.root().span()),
    )
    .label("deleted in this change")
    .help("make sure the workloads fit on the remaining NodePools before merging")
    .object(b.id.to_string())
}
