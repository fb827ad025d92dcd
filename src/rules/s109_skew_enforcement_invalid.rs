//! S109: `MachineConfiguration` `bootImageSkewEnforcement` (spec or status) is rejected by the API server.

use nodecast_yaml::Node;

use super::revisions::{at, pairs};
use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::inventory::Object;

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "S109",
    name: "skew-enforcement-invalid",
    severity: Severity::Error,
    summary: "MachineConfiguration bootImageSkewEnforcement has an invalid mode, a missing or forbidden field, or a malformed version",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

/// `x.y.z`, 5–10 characters.
pub(crate) fn valid_ocp(v: &str) -> bool {
    let parts: Vec<&str> = v.split('.').collect();
    (5..=10).contains(&v.len())
        && parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// `major.minor.(YYYYMMDD|YYYYMMDDHHmm)-build`, 14–21 characters.
pub(crate) fn valid_rhcos(v: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let Some((left, build)) = v.split_once('-') else {
        return false;
    };
    let parts: Vec<&str> = left.split('.').collect();
    (14..=21).contains(&v.len())
        && digits(build)
        && parts.len() == 3
        && digits(parts[0])
        && digits(parts[1])
        && digits(parts[2])
        && matches!(parts[2].len(), 8 | 12)
}

struct Check<'o, 'd> {
    o: &'o Object,
    out: &'d mut Vec<Diagnostic>,
}

impl Check<'_, '_> {
    fn push(&mut self, pointer: &str, msg: String, help: &str) {
        self.out.push(
            Diagnostic::new(
                &CODE,
                format!("MachineConfiguration {} is rejected: {msg}", self.o.id.name),
                at(self.o, pointer),
            )
            .label("invalid skew enforcement")
            .help(help.to_string())
            .object(self.o.id.to_string()),
        );
    }

    /// One `{mode, manual, automatic}` block (spec or status).
    fn block(&mut self, pointer: &str, node: Node<'_>, modes: &[&str]) {
        let mode = node.get("mode").and_then(Node::as_str).unwrap_or("");
        if !modes.contains(&mode) {
            self.push(&format!("{pointer}/mode"), format!("mode `{mode}` is not one of {}", modes.join(", ")), "use mode Manual or None (Automatic is chosen by the MCO and appears only in status)");
        }
        for (key, wanted) in [("manual", "Manual"), ("automatic", "Automatic")] {
            let present = node.get(key);
            if present.is_some() != (mode == wanted) {
                if present.is_none() && !modes.contains(&wanted) {
                    continue;
                }
                self.push(
                    &format!("{pointer}/{}", if present.is_some() { key } else { "mode" }),
                    format!("{key} is required when mode is {wanted}, and forbidden otherwise"),
                    "set the block that matches the mode, and only that one",
                );
            }
        }
        if let Some(m) = node.get("manual") {
            self.versions(&format!("{pointer}/manual"), m, true);
        }
        if let Some(a) = node.get("automatic") {
            self.versions(&format!("{pointer}/automatic"), a, false);
        }
    }

    fn versions(&mut self, pointer: &str, n: Node<'_>, manual: bool) {
        let ocp = n.get("ocpVersion").and_then(Node::key_text);
        let rhcos = n.get("rhcosVersion").and_then(Node::key_text);
        if manual {
            let mode = n.get("mode").and_then(Node::as_str).unwrap_or("");
            if !matches!(mode, "OCPVersion" | "RHCOSVersion") {
                self.push(
                    &format!("{pointer}/mode"),
                    format!("manual.mode `{mode}` is not OCPVersion or RHCOSVersion"),
                    "use manual.mode: OCPVersion or RHCOSVersion",
                );
            }
            if ocp.is_some() != (mode == "OCPVersion") {
                self.push(
                    &format!(
                        "{pointer}/{}",
                        if ocp.is_some() { "ocpVersion" } else { "mode" }
                    ),
                    "ocpVersion is required when mode is OCPVersion, and forbidden otherwise"
                        .into(),
                    "record the boot image version in the field that matches manual.mode",
                );
            }
            if rhcos.is_some() != (mode == "RHCOSVersion") {
                self.push(
                    &format!(
                        "{pointer}/{}",
                        if rhcos.is_some() {
                            "rhcosVersion"
                        } else {
                            "mode"
                        }
                    ),
                    "rhcosVersion is required when mode is RHCOSVersion, and forbidden otherwise"
                        .into(),
                    "record the boot image version in the field that matches manual.mode",
                );
            }
        } else if ocp.is_none() && rhcos.is_none() {
            self.push(
                pointer,
                "automatic needs ocpVersion or rhcosVersion".into(),
                "record at least one version",
            );
        }
        if let Some(v) = ocp.filter(|v| !valid_ocp(v)) {
            self.push(
                &format!("{pointer}/ocpVersion"),
                format!("ocpVersion `{v}` must match the OCP semver compatible format of x.y.z"),
                "write the version as x.y.z, e.g. 4.18.2",
            );
        }
        if let Some(v) = rhcos.filter(|v| !valid_rhcos(v)) {
            self.push(&format!("{pointer}/rhcosVersion"), format!("rhcosVersion `{v}` must match [major].[minor].[YYYYMMDD or YYYYMMDDHHmm]-[build]"), "copy the RHCOS version of the boot image, e.g. 9.6.20251023-0");
        }
    }
}

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (_, o) in pairs(
        ctx.base,
        ctx.head,
        "operator.openshift.io",
        "MachineConfiguration",
    ) {
        let mut c = Check { o, out };
        if let Some(n) = o.root().path(&["spec", "bootImageSkewEnforcement"]) {
            c.block("/spec/bootImageSkewEnforcement", n, &["Manual", "None"]);
        }
        if let Some(n) = o.root().path(&["status", "bootImageSkewEnforcementStatus"]) {
            c.block(
                "/status/bootImageSkewEnforcementStatus",
                n,
                &["Automatic", "Manual", "None"],
            );
            if n.get("mode").and_then(Node::as_str) == Some("Automatic") {
                c.automatic();
            }
        }
    }
}

impl Check<'_, '_> {
    /// Object rules while the status mode is Automatic: MachineSets stay fully managed.
    fn automatic(&mut self) {
        let root = self.o.root();
        let spec = "/spec/managedBootImages/machineManagers";
        if let Some(list) = root
            .path(&["spec", "managedBootImages", "machineManagers"])
            .and_then(Node::as_seq)
        {
            if list.is_empty() {
                self.push(spec, "when skew enforcement is in Automatic mode, managedBootImages.machineManagers must not be an empty list".into(), "keep a machinesets manager with selection mode All, or set bootImageSkewEnforcement.mode: Manual first");
            }
            for (i, m) in list.iter().enumerate() {
                let mode = m.path(&["selection", "mode"]).and_then(Node::as_str);
                if m.get("resource").and_then(Node::as_str) == Some("machinesets")
                    && mode != Some("All")
                {
                    self.push(&format!("{spec}/{i}/selection/mode"), "when skew enforcement is in Automatic mode, any MachineAPI MachineSet MachineManager must use selection mode 'All'".into(), "use selection mode All for machinesets, or set bootImageSkewEnforcement.mode: Manual first");
                }
            }
        }
        let status = root
            .path(&["status", "managedBootImagesStatus", "machineManagers"])
            .and_then(Node::as_seq)
            .unwrap_or_default();
        let all = status.iter().any(|m| {
            m.get("resource").and_then(Node::as_str) == Some("machinesets")
                && m.path(&["selection", "mode"]).and_then(Node::as_str) == Some("All")
        });
        if !all {
            self.push("/status/managedBootImagesStatus", "when skew enforcement is in Automatic mode, managedBootImagesStatus must contain a MachineManager opting in all MachineAPI MachineSets".into(), "status is controller-owned: do not edit it in Git");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_formats() {
        assert!(valid_ocp("4.18.2"));
        assert!(!valid_ocp("4.18"));
        assert!(!valid_ocp("4.18.2-rc.1"));
        assert!(valid_rhcos("9.6.20251023-0"));
        assert!(valid_rhcos("418.94.202410090804-0"));
        assert!(!valid_rhcos("9.6.2025102-0"));
        assert!(!valid_rhcos("9.6.20251023"));
    }
}
