//! Compares the normalised inputs of two revisions of a NodePool and turns every difference into
//! causes at the changed fields (one cause per changed input).

mod documents;

use std::collections::BTreeSet;

use super::inputs::{Component, Side, Trigger};
use super::locate;
use nodecast_yaml::Span;

use crate::diagnostic::{Location, Side as DocSide};
use crate::diff::FieldChange;
use crate::forecast::{Cause, Input};
use crate::inventory::ObjectId;

/// A cause with the trigger that decides what it does to nodes.
#[derive(Clone, Debug)]
pub struct Triggered {
    /// How it reaches nodes.
    pub trigger: Trigger,
    /// Where and what.
    pub cause: Cause,
    /// The cause's place as a diagnostic location (head, or base for removals).
    pub location: Location,
    /// Only a possible rollout (a Tuned without boot-time settings, which the Node Tuning Operator may or may not turn into a rollout).
    pub possible: bool,
    /// A NodePool field the model does not know (the rollout is assumed).
    pub unmodelled: bool,
}

/// A cause and its place.
pub type Located = (Cause, Location);

/// Builds a cause and its diagnostic location from one place.
pub(super) fn located(
    id: &ObjectId,
    field: &str,
    file: &str,
    side: DocSide,
    span: Span,
    summary: String,
) -> Located {
    (
        Cause {
            object: id.to_string(),
            field: field.to_string(),
            file: file.to_string(),
            line: span.start.line,
            column: span.start.col,
            summary,
        },
        Location {
            side,
            path: file.to_string(),
            span: Some(span),
        },
    )
}

/// NodePool fields that never roll nodes, and why (HyperShift `capi.go`, cluster-api `MachineTemplateDeepCopyRolloutFields`, the day-2 tags e2e test): the cause says so.
pub const NEVER: &[(&str, &str)] = &[
    ("/spec/replicas", "scales the pool; existing nodes are kept"),
    (
        "/spec/autoScaling",
        "changes the autoscaler's bounds; existing nodes are kept",
    ),
    (
        "/spec/nodeLabels",
        "propagated to the existing nodes without replacing them",
    ),
    (
        "/spec/taints",
        "propagated to the existing nodes without replacing them",
    ),
    (
        "/spec/nodeDrainTimeout",
        "copied onto the machines; it only shapes later drains",
    ),
    (
        "/spec/nodeVolumeDetachTimeout",
        "copied onto the machines; it only shapes later drains",
    ),
    (
        "/spec/management/replace",
        "it says how later rollouts proceed, not what the nodes run",
    ),
    (
        "/spec/management/inPlace",
        "it says how later rollouts proceed, not what the nodes run",
    ),
    (
        "/spec/management/autoRepair",
        "it creates or deletes the MachineHealthCheck; machines are untouched",
    ),
    (
        "/spec/pausedUntil",
        "a pause stops reconciliation; it rolls nothing by itself",
    ),
    (
        "/spec/changeManagement",
        "it says when rollouts may start, not what they change",
    ),
    (
        "/spec/platform/aws/resourceTags",
        "tags are patched onto the existing AWS machines and are not part of the machine template",
    ),
    (
        "/spec/platform/gcp/resourceLabels",
        "labels are not part of the machine template",
    ),
    (
        "/spec/platform/powervs/storageType",
        "it applies to the boot image object, not to the machines",
    ),
    (
        "/spec/platform/powervs/imageDeletePolicy",
        "it applies to the boot image object, not to the machines",
    ),
    (
        "/metadata/annotations/hypershift.openshift.io~1machine-health-check-timeout",
        "it tunes the MachineHealthCheck only",
    ),
    (
        "/metadata/annotations/hypershift.openshift.io~1machine-health-check-node-startup-timeout",
        "it tunes the MachineHealthCheck only",
    ),
    (
        "/metadata/annotations/hypershift.openshift.io~1machine-health-check-max-unhealthy",
        "it tunes the MachineHealthCheck only",
    ),
    (
        "/metadata/annotations/hypershift.openshift.io~1enable-spot",
        "it only adds a tag, a MachineDeployment label and a spot MachineHealthCheck",
    ),
];

/// NodePool fields the API server never lets change (CEL `self == oldSelf`).
pub const IMMUTABLE: &[&str] = &[
    "/spec/clusterName",
    "/spec/management/upgradeType",
    "/spec/arch",
    "/spec/platform/type",
    "/spec/platform/azure/subnetID",
];

/// NodePool spec fields the model reads as inputs (anything else under `/spec` is unknown).
const MODELLED: &[&str] = &[
    "/spec/release",
    "/spec/osImageStream",
    "/spec/platform",
    "/spec/config",
    "/spec/tuningConfig",
];

/// Whether a diff path is at, below, or (for added/removed parents) above a prefix.
pub fn under(path: &str, prefix: &str) -> bool {
    path == prefix
        || path
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.starts_with('/') || rest.starts_with('['))
        || prefix
            .strip_prefix(path)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// Whether a diff path is at or below a prefix (not above it).
pub(super) fn below(path: &str, prefix: &str) -> bool {
    path == prefix
        || path
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.starts_with('/') || rest.starts_with('['))
}

/// The readable name of a path's last field (`taints[0]`, `replicas`).
pub(super) fn field_name(path: &str) -> String {
    let inner = path.rsplit(']').next().unwrap_or(path);
    let segs: Vec<&str> = inner.split('/').filter(|s| !s.is_empty()).collect();
    let name = match segs.as_slice() {
        [.., parent, last] if last.parse::<usize>().is_ok() => format!("{parent}[{last}]"),
        [.., last] => (*last).to_string(),
        [] => "document".to_string(),
    };
    name.replace("~1", "/").replace("~0", "~")
}

/// "replicas 3 -> 4", "nodeLabels added: {env: prod}", "taints removed (was [{key: a, effect: NoSchedule}])".
pub fn field_summary(f: &FieldChange) -> String {
    let name = field_name(&f.path);
    match (&f.before, &f.after) {
        (Some(b), Some(a)) if f.text_diff.is_some() => format!("{name} changed ({b} -> {a})")
            .chars()
            .take(160)
            .collect(),
        (Some(b), Some(a)) => format!("{name} {b} -> {a}"),
        (None, Some(a)) => format!("{name} added: {a}"),
        (Some(b), None) => format!("{name} removed (was {b})"),
        (None, None) => format!("{name} changed"),
    }
}

/// A cause at a changed field: in head, or in base when the field was removed.
pub fn at_field(
    input: &Input<'_>,
    id: &ObjectId,
    f: &FieldChange,
    summary: String,
) -> Option<Located> {
    let removed = f.after.is_none() && f.before.is_some();
    let (obj, side) = match (removed, input.head.get(id)) {
        (false, Some(o)) => (o, DocSide::Head),
        _ => (input.base.get(id)?, DocSide::Base),
    };
    let span = locate::field_span(obj, &f.path);
    let summary = if removed && !summary.contains("removed") {
        format!("{summary} (removed; see base)")
    } else {
        summary
    };
    Some(located(id, &f.path, obj.path_at(span), side, span, summary))
}

/// A cause at a field of an object that the diff does not list (derived inputs).
fn at_prefix(input: &Input<'_>, id: &ObjectId, prefix: &str, summary: String) -> Option<Located> {
    let (obj, side) = match input.head.get(id) {
        Some(o) => (o, DocSide::Head),
        None => (input.base.get(id)?, DocSide::Base),
    };
    let span = locate::field_span(obj, prefix);
    Some(located(id, prefix, obj.path_at(span), side, span, summary))
}

/// The changed fields of an object (none when it did not change).
pub(super) fn fields<'i>(input: &Input<'i>, id: &ObjectId) -> &'i [FieldChange] {
    input
        .diff
        .change_of(id)
        .map(|c| c.fields.as_slice())
        .unwrap_or_default()
}

/// Every cause that makes the two revisions differ for the controller.
pub fn causes(input: &Input<'_>, b: &Side<'_>, h: &Side<'_>) -> Vec<Triggered> {
    let mut out = Vec::new();
    components(input, b, h, &mut out);
    documents::documents(input, b, h, &mut out);
    documents::references(b, h, input, &mut out);
    nodepool_fields(input, b, h, &mut out);
    let mut seen = BTreeSet::new();
    out.retain(|t| seen.insert((t.cause.object.clone(), t.cause.field.clone())));
    out.sort_by(|x, y| {
        (&x.cause.file, x.cause.line, x.cause.column, &x.cause.field).cmp(&(
            &y.cause.file,
            y.cause.line,
            y.cause.column,
            &y.cause.field,
        ))
    });
    out
}

fn components(input: &Input<'_>, b: &Side<'_>, h: &Side<'_>, out: &mut Vec<Triggered>) {
    let keys: BTreeSet<&&str> = b.components.keys().chain(h.components.keys()).collect();
    for key in keys {
        let (bc, hc) = (b.components.get(*key), h.components.get(*key));
        let Some(c) = hc.or(bc) else { continue };
        // An input present on one side only (the TLS profile below 4.23) counts as empty there.
        fn value(x: Option<&Component>) -> &str {
            x.map(|x| x.value.as_str()).unwrap_or("")
        }
        if value(bc) == value(hc) {
            continue;
        }
        let mut found = Vec::new();
        for o in &c.origins {
            for f in fields(input, &o.object) {
                if o.prefixes.iter().any(|p| under(&f.path, p))
                    && !c.excludes.iter().any(|e| below(&f.path, e))
                {
                    // A whole parent was added (`/spec/configuration`): point at the input's own
                    // key inside it when head has it.
                    let inner = o.prefixes.iter().find(|p| {
                        p.strip_prefix(f.path.as_str())
                            .is_some_and(|rest| rest.starts_with('/'))
                            && input
                                .head
                                .get(&o.object)
                                .is_some_and(|obj| super::template::at(obj.root(), p).is_some())
                    });
                    let cause = match inner {
                        Some(p) if f.before.is_none() => {
                            let summary = format!("{}: {} set", c.label, field_name(p));
                            at_prefix(input, &o.object, p, summary)
                        }
                        _ => {
                            let summary = if *key == "release" {
                                release_summary(b, h)
                            } else {
                                format!("{}: {}", c.label, field_summary(f))
                            };
                            at_field(input, &o.object, f, summary)
                        }
                    };
                    found.extend(cause);
                }
            }
        }
        if found.is_empty() {
            // A derived input (a Secret's content, a stream default that moved with the release):
            // point at its first source field.
            if let Some((o, prefix)) = c
                .origins
                .first()
                .and_then(|o| o.prefixes.first().map(|p| (o, p)))
            {
                let summary = format!("{} changed", c.label);
                found.extend(at_prefix(input, &o.object, prefix, summary));
            }
        }
        out.extend(found.into_iter().map(|(cause, location)| Triggered {
            trigger: c.trigger,
            cause,
            location,
            possible: false,
            unmodelled: false,
        }));
    }
}

/// "release 4.18.5 -> 4.18.9", with the RHEL 10 note of a 4.x -> 5.x move without a pinned stream.
fn release_summary(b: &Side<'_>, h: &Side<'_>) -> String {
    let mut s = format!(
        "release {} -> {}",
        b.release.describe(),
        h.release.describe()
    );
    let major = |s: &Side<'_>| s.release.version().map(|v| v.major);
    let pinned =
        h.np.root()
            .path(&["spec", "osImageStream", "name"])
            .is_some();
    if major(b).is_some_and(|m| m < 5) && major(h).is_some_and(|m| m >= 5) && !pinned {
        s.push_str("; without osImageStream the nodes may move to RHEL 10");
    }
    s
}

/// Fields of the NodePool itself that are not inputs: never-rolling ones, immutable ones,
/// unknown ones, and modelled ones whose change normalises away.
fn nodepool_fields(input: &Input<'_>, b: &Side<'_>, h: &Side<'_>, out: &mut Vec<Triggered>) {
    let id = &h.np.id;
    let equal_components: Vec<(&str, &super::inputs::Component)> = h
        .components
        .iter()
        .filter(|(k, c)| {
            b.components.get(*k).map(|x| &x.value) == Some(&c.value)
                && c.origins.first().is_some_and(|o| &o.object == id)
        })
        .map(|(k, c)| (*k, c))
        .collect();
    for f in fields(input, id) {
        let p = f.path.as_str();
        let (trigger, summary) = if let Some((_, why)) = NEVER.iter().find(|(n, _)| below(p, n)) {
            (
                Trigger::Never,
                format!("{} (no rollout: {why})", field_summary(f)),
            )
        } else if IMMUTABLE.iter().any(|n| below(p, n)) {
            (
                Trigger::Never,
                format!(
                    "{} (immutable: rejected by the API server)",
                    field_summary(f)
                ),
            )
        } else if let Some((key, _)) = equal_components.iter().find(|(_, c)| {
            c.origins
                .first()
                .is_some_and(|o| o.prefixes.iter().any(|x| under(p, x)))
                && !c.excludes.iter().any(|e| below(p, e))
        }) {
            let why = match *key {
                "release" => format!("same release version {}", h.release.describe()),
                "osImageStream" => "the stream equals the release's default".to_string(),
                _ => "same after the controller's normalisation".to_string(),
            };
            (
                Trigger::Never,
                format!("{} ({why}: no rollout)", field_summary(f)),
            )
        } else if p.starts_with("/spec/") && !MODELLED.iter().any(|m| below(p, m)) {
            (
                Trigger::Unknown,
                format!("{} (field not modelled: rollout assumed)", field_summary(f)),
            )
        } else {
            continue;
        };
        if let Some((cause, location)) = at_field(input, id, f, summary) {
            out.push(Triggered {
                trigger,
                cause,
                location,
                possible: false,
                unmodelled: trigger == Trigger::Unknown,
            });
        }
    }
}
