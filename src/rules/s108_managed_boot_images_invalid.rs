//! S108: `MachineConfiguration` `spec.managedBootImages.machineManagers` is rejected or unsupported.

use nodecast_yaml::Node;

use super::revisions::{at, pairs};
use super::{Context, Rule};
use crate::diagnostic::{Diagnostic, Severity};
use crate::inventory::Object;

/// The rule.
pub static RULE: Rule = Rule {
    code: "S108",
    name: "managed-boot-images-invalid",
    severity: Severity::Error,
    summary: "MachineConfiguration managedBootImages has an invalid machine manager, selection, or platform",
    check,
};

/// Platforms whose MachineSets the boot image controller updates (VAP `update-bootimages`).
const MACHINESET_PLATFORMS: [&str; 4] = ["AWS", "GCP", "VSphere", "Azure"];
/// Platforms whose ControlPlaneMachineSets it updates (VAP `update-bootimages-cpms`).
const CPMS_PLATFORMS: [&str; 3] = ["AWS", "GCP", "Azure"];
const MAX_MANAGERS: usize = 5;

/// The platform of the cluster the object belongs to: the `Infrastructure/cluster` in the
/// repository that shares the longest folder prefix with it.
pub(crate) fn platform<'a>(ctx: &Context<'a>, o: &Object) -> Option<&'a str> {
    let common = |p: &str| {
        p.chars()
            .zip(o.path.chars())
            .take_while(|(a, b)| a == b)
            .count()
    };
    ctx.head
        .objects
        .iter()
        .filter(|i| {
            i.id.group == "config.openshift.io"
                && i.id.kind == "Infrastructure"
                && i.id.name == "cluster"
        })
        .max_by_key(|i| common(&i.path))
        .and_then(|i| {
            let r = i.root();
            r.path(&["status", "platformStatus", "type"])
                .or_else(|| r.path(&["status", "platform"]))
                .or_else(|| r.path(&["spec", "platformSpec", "type"]))
                .and_then(Node::as_str)
        })
}

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (_, o) in pairs(
        ctx.base,
        ctx.head,
        "operator.openshift.io",
        "MachineConfiguration",
    ) {
        let Some(list) = super::revisions::node(o, "/spec/managedBootImages/machineManagers")
            .and_then(Node::as_seq)
        else {
            continue;
        };
        let base = "/spec/managedBootImages/machineManagers";
        let mut push = |pointer: String, msg: String, help: &str| {
            out.push(
                Diagnostic::new(
                    &RULE,
                    format!("MachineConfiguration {} is rejected: {msg}", o.id.name),
                    at(o, &pointer),
                )
                .label("invalid boot image management")
                .help(help.to_string())
                .object(o.id.to_string()),
            )
        };
        if list.len() > MAX_MANAGERS {
            push(
                base.into(),
                format!(
                    "{} machine managers, at most {MAX_MANAGERS} are allowed",
                    list.len()
                ),
                "keep one entry per resource and apiGroup",
            );
        }
        let mut seen: Vec<(&str, &str)> = Vec::new();
        for (i, m) in list.iter().enumerate() {
            let p = format!("{base}/{i}");
            let resource = m.get("resource").and_then(Node::as_str).unwrap_or("");
            let group = m.get("apiGroup").and_then(Node::as_str).unwrap_or("");
            if !matches!(resource, "machinesets" | "controlplanemachinesets") {
                push(
                    format!("{p}/resource"),
                    format!("resource `{resource}` is not machinesets or controlplanemachinesets"),
                    "use resource: machinesets or controlplanemachinesets",
                );
            }
            if group != "machine.openshift.io" {
                push(
                    format!("{p}/apiGroup"),
                    format!("apiGroup `{group}` is not machine.openshift.io"),
                    "use apiGroup: machine.openshift.io (Cluster API machines are not managed)",
                );
            }
            if seen.contains(&(resource, group)) {
                push(
                    p.clone(),
                    format!("a second entry for {resource}/{group}"),
                    "merge the entries: one per resource and apiGroup",
                );
            }
            seen.push((resource, group));
            let mode = m
                .path(&["selection", "mode"])
                .and_then(Node::as_str)
                .unwrap_or("");
            if !matches!(mode, "All" | "Partial" | "None") {
                push(
                    format!("{p}/selection/mode"),
                    format!("selection mode `{mode}` is not All, Partial or None"),
                    "use selection.mode: All, Partial or None",
                );
            }
            let partial = m.path(&["selection", "partial"]).is_some();
            if partial != (mode == "Partial") {
                push(format!("{p}/selection/partial"), "selection.partial is required when the mode is Partial, and forbidden otherwise".into(), "set selection.partial.machineResourceSelector with mode Partial only");
            }
            if resource == "controlplanemachinesets" && mode == "Partial" {
                push(
                    format!("{p}/selection/mode"),
                    "only All or None selection mode is permitted for ControlPlaneMachineSets"
                        .into(),
                    "use mode All or None for controlplanemachinesets",
                );
            }
            if let Some(platform) = platform(ctx, o) {
                let supported: &[&str] = if resource == "controlplanemachinesets" {
                    &CPMS_PLATFORMS
                } else {
                    &MACHINESET_PLATFORMS
                };
                if (mode == "All" || mode == "Partial") && !supported.contains(&platform) {
                    push(p.clone(), format!("boot image updates for {resource} are not supported on platform {platform} (only {})", supported.join(", ")), "remove the entry, or set its selection mode to None");
                }
            }
        }
    }
}
