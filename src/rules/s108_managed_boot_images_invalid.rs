//! S108: `MachineConfiguration` `spec.managedBootImages.machineManagers` is rejected or unsupported.
//!
//! The structure is checked here; platform support needs the cluster's platform, which the MCO
//! model knows per cluster (`forecast/mco/streams.rs`), so that part is produced there.

use nodecast_yaml::Node;

use super::revisions::{at, pairs};
use super::{Context, Reads, Rule};
use crate::diagnostic::Diagnostic;

/// The rule.
pub static RULE: Rule = Rule {
    code: &crate::forecast::mco::codes::S108,
    check,
    reads: Reads::Run,
};

const MAX_MANAGERS: usize = 5;

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
                    &crate::forecast::mco::codes::S108,
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
        }
    }
}
