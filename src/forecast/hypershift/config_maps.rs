//! ConfigMap-level findings: edits no NodePool hashes (H103) and NodePool configuration nobody
//! references (H104); marks the ConfigMaps and Secrets the model judged.

use crate::forecast::hypershift::codes;
use std::collections::BTreeSet;

use nodecast_yaml::Node;

use super::{locate, GROUP};
use crate::diagnostic::{Diagnostic, Location};
use crate::diff::ChangeKind;
use crate::forecast::{Forecast, Input};
use crate::inventory::{ObjectId, ReferenceKind};

/// ConfigMap-level findings: changes no NodePool hashes, and configuration nobody references.
pub fn findings(
    input: &Input<'_>,
    out: &mut Forecast,
    rolling: &BTreeSet<String>,
) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    // Built once: a fleet has thousands of references and hundreds of changed ConfigMaps.
    let targets: std::collections::HashSet<&ObjectId> = [input.base, input.head]
        .iter()
        .flat_map(|inv| inv.references.iter())
        .filter(|r| {
            matches!(
                r.kind,
                ReferenceKind::NodePoolConfig | ReferenceKind::NodePoolTuning
            )
        })
        .map(|r| &r.target)
        .collect();
    let referenced = |id: &ObjectId| targets.contains(id);
    for change in input
        .diff
        .changes
        .iter()
        .filter(|c| c.id.group.is_empty() && c.id.kind == "ConfigMap")
    {
        let obj = change
            .head
            .map(|i| &input.head.objects[i])
            .or_else(|| change.base.map(|i| &input.base.objects[i]));
        let Some(obj) = obj else { continue };
        let first = change.fields.first();
        let loc = match (change.kind, first, change.head) {
            (ChangeKind::Changed, Some(f), Some(_)) => match &f.after {
                Some(_) => obj.head_location(locate::field_span(obj, &f.path)),
                None => f
                    .head
                    .clone()
                    .unwrap_or_else(|| Location::head_file(&obj.path)),
            },
            (ChangeKind::Removed, _, _) => Location::base(&obj.path, obj.root().span()),
            _ => obj.head_location(locate::key_span(obj.root(), "/metadata/name")),
        };
        if referenced(&change.id) {
            out.covered.insert(change.id.clone());
            if change.kind == ChangeKind::Changed && !rolling.contains(&change.id.to_string()) {
                diags.push(
                    Diagnostic::new(
                        &codes::H103,
                        format!(
                            "ConfigMap {} changed, but not in anything the NodePool controller hashes: no rollout",
                            change.id.name
                        ),
                        loc,
                    )
                    .label("no effect on nodes")
                    .help("nothing to do; formatting, comments, document order, the role label and pool selectors are normalised away")
                    .object(change.id.to_string()),
                );
            }
            continue;
        }
        let holds_manifests = [
            change.base.map(|i| &input.base.objects[i]),
            change.head.map(|i| &input.head.objects[i]),
        ]
        .into_iter()
        .flatten()
        .any(|o| !o.parsed().embedded.is_empty());
        if holds_manifests && change.kind != ChangeKind::Removed {
            out.covered.insert(change.id.clone());
            diags.push(
                Diagnostic::new(
                    &codes::H104,
                    format!(
                        "ConfigMap {} holds NodePool configuration but no NodePool references it: the change rolls nothing",
                        change.id.name
                    ),
                    loc,
                )
                .label("unreferenced")
                .help(format!(
                    "add `- name: {}` to a NodePool's spec.config (or spec.tuningConfig), or delete the ConfigMap",
                    change.id.name
                ))
                .object(change.id.to_string()),
            );
        }
    }
    for change in input
        .diff
        .changes
        .iter()
        .filter(|c| c.id.group.is_empty() && c.id.kind == "Secret")
    {
        let used = [input.base, input.head].iter().any(|inv| {
            inv.of_kind(GROUP, "HostedCluster").any(|hc| {
                hc.id.namespace == change.id.namespace
                    && ["sshKey", "pullSecret", "additionalTrustBundle"]
                        .iter()
                        .any(|k| {
                            hc.root().path(&["spec", k, "name"]).and_then(Node::as_str)
                                == Some(change.id.name.as_str())
                        })
            })
        });
        if used {
            out.covered.insert(change.id.clone());
        }
    }
    diags
}
