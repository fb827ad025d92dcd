import os, sys
R = {
"S101": ("nodepool-runc-dropin", "Error", "A MachineConfig CRI-O drop-in in a RHEL 10 NodePool's config makes runc the default runtime, which RHEL 10 lacks", True,
 "A NodePool whose effective OS stream is `rhel-10` (explicit, or the 5.x default) and whose `spec.config` ConfigMaps hold a MachineConfig writing a CRI-O drop-in under `/etc/crio/crio.conf.d/` that resolves `[crio.runtime] default_runtime` to `runc`. The drop-ins are decoded from their Ignition data URLs and applied in lexical path order (the last `default_runtime` wins). The finding points at the data URL (`source:`) line; its label gives the line inside the decoded file.",
 "RHEL 10 ships no runc. HyperShift detects runc only in `ContainerRuntimeConfig` documents, not in MachineConfig drop-ins, so the controller accepts the NodePool, rolls it, and the new nodes fail to start containers.",
 "```yaml\n# ConfigMap data.config, MachineConfig storage.files[0]\n- contents:\n    source: data:,%5Bcrio.runtime%5D%0Adefault_runtime%20%3D%20%22runc%22%0A\n  path: /etc/crio/crio.conf.d/99-runc.conf\n```\n\n```\nconfigmaps.yaml:21:15: S101 NodePool workers nodes will fail to run containers: /etc/crio/crio.conf.d/99-runc.conf sets CRI-O default_runtime = \"runc\" on rhel-10 (the release default), which has no runc\n```",
 "Remove the drop-in (crun is the default runtime), or pin `spec.osImageStream.name: rhel-9` on the NodePool while it needs runc."),
"S102": ("in-place-stream-rebase", "Warning", "An InPlace NodePool's OS stream change rebases its existing nodes across RHEL majors with no way back", True,
 "A change of `spec.osImageStream.name` on a NodePool with `management.upgradeType: InPlace` that changes the effective stream's RHEL major (e.g. unset on 5.x with runc fallback → `rhel-10`, or `rhel-9` → `rhel-10`).",
 "InPlace NodePools rebase the **existing** nodes to the new OS image; their RHEL 9 boot disks stay. There is no rollback on that NodePool: the API server rejects `rhel-10` → `rhel-9` and removing the field.",
 "```yaml\nspec:\n  management:\n    upgradeType: InPlace\n  osImageStream:\n    name: rhel-10   # was rhel-9\n```",
 "Prefer a new `Replace` NodePool on the new stream and move the workload over; if you keep the in-place rebase, test it on a small NodePool first and mirror both streams' OS images in disconnected clusters."),
"S103": ("explicit-default-stream", "Info", "A NodePool now pins the OS stream its release uses anyway: no rollout", True,
 "A NodePool that did not set `spec.osImageStream.name` now sets it to the stream its release already uses (`rhel-9` before 5.0 or with a runc ContainerRuntimeConfig, `rhel-10` on 5.x).",
 "The config hash normalises an explicit default to the empty value, so the pin changes nothing on the nodes; it only keeps the NodePool on this stream across later upgrades. This finding tells the reviewer the edit is safe.",
 "```yaml\nspec:\n  release:\n    image: quay.io/openshift-release-dev/ocp-release:4.18.5-x86_64\n  osImageStream:\n    name: rhel-9   # new\n```",
 "Nothing to fix."),
"S104": ("release-changes-os-stream", "Warning", "A release upgrade moves an unpinned NodePool to another OS major (RHEL 9 → RHEL 10)", True,
 "A NodePool without `spec.osImageStream` whose release change moves the default stream (`major >= 5` ⇒ `rhel-10`, unless a runc ContainerRuntimeConfig keeps `rhel-9`), e.g. 4.22 → 5.0.",
 "Newer HyperShift releases no longer keep running nodes on their observed stream: the upgrade rolls the NodePool onto RHEL 10. On InPlace NodePools the existing nodes are rebased across OS majors with no way back.",
 "```yaml\nspec:\n  release:\n    image: quay.io/openshift-release-dev/ocp-release:5.0.0-x86_64   # was 4.22.3\n```",
 "Pin `spec.osImageStream.name: rhel-9` in the same change to stay on RHEL 9, or test the workloads on RHEL 10 first."),
"S105": ("stream-needs-feature-gate", "Warning", "A NodePool sets osImageStream, but its HostedCluster's feature set and release do not enable the OSStreams gate", True,
 "A NodePool that sets `spec.osImageStream` while its HostedCluster's `spec.configuration.featureGate` (feature set, or `customNoUpgrade.enabled`) does not enable `OSStreams` and its release predates the gate's default-on release (5.0). The gate facts live in one table (`src/forecast/streams.rs`).",
 "The Default NodePool CRD of such a cluster has no `osImageStream` field: the API server drops it on admission and the NodePool silently keeps the release default stream.",
 "```yaml\nspec:\n  osImageStream:\n    name: rhel-9\n```",
 "Remove the field until the release enables `OSStreams` by default, or enable the gate through the HostedCluster's feature set."),
}
def page(code, name, sev, summary, what, why, ex, fix):
    return f"# {code}: {name}\n\n**Default severity:** {sev.lower()}\n\n## What it checks\n\n{what}\n\n## Why it matters\n\n{why}\n\n## Example\n\n{ex}\n\n## How to fix\n\n{fix}\n"
def stub(code, name, sev, summary, where):
    mod = f"{code.lower()}_{name.replace('-', '_')}"
    return mod, f"""//! {code}: {summary[0].lower()+summary[1:]}.
//!
//! {where} emits these findings while it models the cluster; this file registers the code, its
//! severity and its page.

use super::{{Context, Rule}};
use crate::diagnostic::{{Diagnostic, Severity}};

/// The rule.
pub static RULE: Rule = Rule {{
    code: "{code}",
    name: "{name}",
    severity: Severity::{sev},
    summary: "{summary}",
    check,
}};

/// Findings come from the forecast stage, which has the modelled inputs.
fn check(_: &Context<'_>, _: &mut Vec<Diagnostic>) {{}}
"""
if __name__ == "__main__":
    for code,(name,sev,summary,is_stub,what,why,ex,fix) in R.items():
        open(f"rules/{code}.md","w").write(page(code,name,sev,summary,what,why,ex,fix))
        if is_stub:
            mod, text = stub(code,name,sev,summary,"The HyperShift forecast model (`forecast/hypershift/os_stream.rs`)")
            open(f"src/rules/{mod}.rs","w").write(text)
            print(mod)
