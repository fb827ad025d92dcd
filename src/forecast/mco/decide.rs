//! The daemon's side: diff two rendered configurations (`newMachineConfigDiff`) and turn the
//! diff into node actions with the node disruption policy (`calculatePostConfigChange…`).

use std::collections::BTreeMap;

use serde_json::Value;

use super::config::{file_text, Item, Src};
use super::merge::Rendered;
use super::policy::{self, Policies, PolicyAction};
use super::registries;
use crate::diagnostic::Side;
use crate::forecast::Action;

/// One explained reason, with the fields it comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct Reason {
    /// "kernel argument psi=1 added → Reboot (…)".
    pub summary: String,
    /// Contributing fields (base or head side).
    pub srcs: Vec<(Side, Src)>,
}

/// The diff flags of `newMachineConfigDiff`, plus changed items.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    /// osImageURL differs.
    pub os_update: bool,
    /// baseOSExtensionsContainerImage differs (upstream does not say whether this alone reboots: forecast as a possible reboot).
    pub extensions_image: bool,
    /// Release payload (template configs and OS image) differs.
    pub release: bool,
    /// Kernel arguments differ (ordered).
    pub kargs: bool,
    /// FIPS differs.
    pub fips: bool,
    /// Kernel type differs.
    pub kernel_type: bool,
    /// Extensions differ (ordered).
    pub extensions: bool,
    /// Changed file paths.
    pub files: Vec<String>,
    /// Changed unit names.
    pub units: Vec<String>,
    /// passwd differs.
    pub passwd: bool,
    /// Refusal-relevant sections that differ.
    pub other: bool,
    /// The reasons the MCO cannot render the config differ (an invalid value was introduced).
    pub invalid: bool,
}

impl Delta {
    /// Nothing the daemon acts on changed.
    pub fn is_empty(&self) -> bool {
        *self == Delta::default()
    }
}

/// The keys whose values differ between two maps, in key order (`newMachineConfigDiff`).
fn changed_keys<T: PartialEq>(
    a: &BTreeMap<String, Item<T>>,
    b: &BTreeMap<String, Item<T>>,
) -> Vec<String> {
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| a.get(*k).map(|i| &i.value) != b.get(*k).map(|i| &i.value))
        .cloned()
        .collect()
}

/// The values of an ordered list, without their sources, for comparison.
fn values<T: Clone>(items: &[Item<T>]) -> Vec<T> {
    items.iter().map(|i| i.value.clone()).collect()
}

/// Compares two rendered configurations (Ignition section, LUKS and version are not compared).
pub fn delta(a: &Rendered, b: &Rendered) -> Delta {
    Delta {
        os_update: a.os_image_url.as_ref().map(|i| &i.value)
            != b.os_image_url.as_ref().map(|i| &i.value),
        extensions_image: a.extensions_image.as_ref().map(|i| &i.value)
            != b.extensions_image.as_ref().map(|i| &i.value),
        release: a.release.as_ref().map(|i| &i.value) != b.release.as_ref().map(|i| &i.value),
        kargs: values(&a.kernel_arguments) != values(&b.kernel_arguments),
        fips: a.fips.value != b.fips.value,
        kernel_type: a.kernel_type.value != b.kernel_type.value,
        extensions: values(&a.extensions) != values(&b.extensions),
        files: changed_keys(&a.files, &b.files),
        units: changed_keys(&a.units, &b.units),
        passwd: !changed_keys(&a.users, &b.users).is_empty()
            || !changed_keys(&a.groups, &b.groups).is_empty(),
        other: !changed_keys(&a.directories, &b.directories).is_empty()
            || !changed_keys(&a.links, &b.links).is_empty()
            || !changed_keys(&a.storage, &b.storage).is_empty()
            || values(&a.ignition_kargs) != values(&b.ignition_kargs),
        invalid: a.invalid != b.invalid,
    }
}

/// The decision for one pool.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The contract action.
    pub action: Action,
    /// Whether nodes drain.
    pub drain: bool,
    /// The daemon's action list.
    pub actions: Vec<PolicyAction>,
    /// Why, item by item.
    pub reasons: Vec<Reason>,
}

/// The fields an item comes from on both sides (head first, each once), for a reason.
fn srcs_of<T>(a: Option<&Item<T>>, b: Option<&Item<T>>) -> Vec<(Side, Src)> {
    let mut out: Vec<(Side, Src)> = Vec::new();
    for (side, item) in [(Side::Head, b), (Side::Base, a)] {
        for s in item.map(|i| i.src.clone()).unwrap_or_default() {
            if !out.iter().any(|(_, o)| *o == s) {
                out.push((side, s));
            }
        }
    }
    out
}

/// How an item changed, for a reason's wording.
fn verb<T>(a: Option<&Item<T>>, b: Option<&Item<T>>) -> &'static str {
    match (a, b) {
        (None, Some(_)) => "added",
        (Some(_), None) => "removed",
        _ => "changed",
    }
}

/// Reasons for an ordered list (kernel arguments, extensions): additions, removals or reorder.
fn list_reasons(what: &str, a: &[Item<String>], b: &[Item<String>], then: &str) -> Vec<Reason> {
    let mut sa = values(a);
    let mut sb = values(b);
    sa.sort();
    sb.sort();
    if sa == sb {
        let srcs = b
            .iter()
            .zip(a.iter())
            .filter(|(x, y)| x.value != y.value || x.src != y.src)
            .flat_map(|(x, y)| {
                x.src
                    .iter()
                    .map(|s| (Side::Head, s.clone()))
                    .chain(y.src.iter().map(|s| (Side::Base, s.clone())))
            })
            .collect();
        return vec![Reason {
            summary: format!(
                "{what}s reordered from [{}] to [{}] {then}",
                values(a).join(" "),
                values(b).join(" ")
            ),
            srcs,
        }];
    }
    let mut out = Vec::new();
    let mut remaining: Vec<&Item<String>> = a.iter().collect();
    let mut added = Vec::new();
    for item in b {
        match remaining.iter().position(|x| x.value == item.value) {
            Some(p) => {
                remaining.remove(p);
            }
            None => added.push(item),
        }
    }
    for item in added {
        out.push(Reason {
            summary: format!("{what} {} added {then}", item.value),
            srcs: item.src.iter().map(|s| (Side::Head, s.clone())).collect(),
        });
    }
    for item in remaining {
        out.push(Reason {
            summary: format!("{what} {} removed {then}", item.value),
            srcs: item.src.iter().map(|s| (Side::Base, s.clone())).collect(),
        });
    }
    out
}

/// `calculatePostConfigChangeNodeDisruptionAction` plus the drain decision, explained.
pub fn decide(a: &Rendered, b: &Rendered, d: &Delta, p: &Policies) -> Decision {
    let mut reasons = Vec::new();
    let os = os_reasons(a, b, d, &mut reasons);
    let kernel = kernel_reasons(a, b, d, &mut reasons);
    let reboot = os || kernel;
    if d.other {
        reasons.push(storage_reason(a, b));
    }
    let mut lists: Vec<Vec<PolicyAction>> = Vec::new();
    let mut unsafe_registries: Option<String> = None;
    for path in &d.files {
        let (reason, actions, drain) = file_reason(a, b, p, path);
        if drain.is_some() {
            unsafe_registries = drain;
        }
        reasons.push(reason);
        lists.push(actions);
    }
    for name in &d.units {
        let (x, y) = (a.units.get(name), b.units.get(name));
        let decided = policy::decide_unit(p, name);
        let mut srcs = srcs_of(x, y);
        if let Some(s) = decided.policy {
            srcs.push((Side::Head, s));
        }
        reasons.push(Reason {
            summary: format!("unit {name} {} → {}", verb(x, y), decided.why),
            srcs,
        });
        lists.push(decided.actions);
    }
    if d.passwd {
        let (reason, actions) = passwd_reason(a, b, p);
        reasons.push(reason);
        lists.push(actions);
    }
    let actions = if reboot {
        vec![PolicyAction::Reboot]
    } else {
        policy::combine(&lists)
    };
    let (action, drain) = classify(&actions, unsafe_registries.is_some());
    Decision {
        action,
        drain,
        actions,
        reasons,
    }
}

/// The OS image changes (release, `osImageURL`, extensions image), which always reboot:
/// whether there is one.
fn os_reasons(a: &Rendered, b: &Rendered, d: &Delta, reasons: &mut Vec<Reason>) -> bool {
    if d.release {
        reasons.push(Reason {
            summary: "release update: new OS image and template configs → Reboot (an OS update always reboots)".into(),
            srcs: srcs_of(a.release.as_ref(), b.release.as_ref()),
        });
    }
    if d.os_update {
        let show = |r: &Rendered| {
            r.os_image_url
                .as_ref()
                .map(|i| i.value.clone())
                .unwrap_or_else(|| "(release default)".into())
        };
        reasons.push(Reason {
            summary: format!(
                "osImageURL {} → {} → Reboot (an OS update always reboots)",
                show(a),
                show(b)
            ),
            srcs: srcs_of(a.os_image_url.as_ref(), b.os_image_url.as_ref()),
        });
    }
    if d.extensions_image {
        reasons.push(Reason {
            summary: "baseOSExtensionsContainerImage changed → Reboot (possible: the daemon does not diff it, it is applied with the next OS update)".into(),
            srcs: srcs_of(a.extensions_image.as_ref(), b.extensions_image.as_ref()),
        });
    }
    d.release || d.os_update || d.extensions_image
}

/// The kernel changes (arguments, FIPS, kernel type, extensions), which always reboot: whether
/// there is one.
fn kernel_reasons(a: &Rendered, b: &Rendered, d: &Delta, reasons: &mut Vec<Reason>) -> bool {
    if d.kargs {
        reasons.extend(list_reasons(
            "kernel argument",
            &a.kernel_arguments,
            &b.kernel_arguments,
            "→ Reboot (kernel arguments always reboot)",
        ));
    }
    if d.fips {
        reasons.push(Reason {
            summary: format!("fips {} → {} → Reboot", a.fips.value, b.fips.value),
            srcs: srcs_of(Some(&a.fips), Some(&b.fips)),
        });
    }
    if d.kernel_type {
        reasons.push(Reason {
            summary: format!(
                "kernelType {} → {} → Reboot (a kernel change always reboots)",
                a.kernel_type.value, b.kernel_type.value
            ),
            srcs: srcs_of(Some(&a.kernel_type), Some(&b.kernel_type)),
        });
    }
    if d.extensions {
        reasons.extend(list_reasons(
            "extension",
            &a.extensions,
            &b.extensions,
            "→ Reboot (extensions always reboot)",
        ));
    }
    d.kargs || d.fips || d.kernel_type || d.extensions
}

/// Ignition storage changes, which the daemon does not apply to existing nodes.
fn storage_reason(a: &Rendered, b: &Rendered) -> Reason {
    let mut srcs = Vec::new();
    for (x, y) in [
        (&a.directories, &b.directories),
        (&a.links, &b.links),
        (&a.storage, &b.storage),
    ] {
        for k in changed_keys(x, y) {
            srcs.extend(srcs_of(x.get(&k), y.get(&k)));
        }
    }
    Reason {
        summary:
            "Ignition storage (directories, links, disks) changed → not applied to existing nodes"
                .into(),
        srcs,
    }
}

/// A changed file's reason and actions under the disruption policy; for the registries file
/// (the `Special` action), why the change drains, if it does.
fn file_reason(
    a: &Rendered,
    b: &Rendered,
    p: &Policies,
    path: &str,
) -> (Reason, Vec<PolicyAction>, Option<String>) {
    let (x, y) = (a.files.get(path), b.files.get(path));
    let decided = policy::decide_file(p, path);
    let mut why = decided.why.clone();
    let mut drain = None;
    if decided.actions.contains(&PolicyAction::Special) {
        let old = x.and_then(|i| file_text(&i.value));
        let new = y.and_then(|i| file_text(&i.value));
        match registries::drain_reason(old.as_deref(), new.as_deref()) {
            Some(r) => {
                why.push_str(&format!("; drain: {r}"));
                drain = Some(r);
            }
            None => why.push_str("; no drain: only safe additions"),
        }
    }
    let mut srcs = srcs_of(x, y);
    if let Some(s) = decided.policy {
        srcs.push((Side::Head, s));
    }
    let reason = Reason {
        summary: format!("file {path} {} → {why}", verb(x, y)),
        srcs,
    };
    (reason, decided.actions, drain)
}

/// The passwd change's reason (the changed users and groups) and actions under the SSH key
/// policy.
fn passwd_reason(a: &Rendered, b: &Rendered, p: &Policies) -> (Reason, Vec<PolicyAction>) {
    let decided = policy::decide_passwd(p);
    let mut srcs = Vec::new();
    for k in changed_keys(&a.users, &b.users) {
        srcs.extend(srcs_of(a.users.get(&k), b.users.get(&k)));
    }
    for k in changed_keys(&a.groups, &b.groups) {
        srcs.extend(srcs_of(a.groups.get(&k), b.groups.get(&k)));
    }
    if let Some(s) = decided.policy {
        srcs.push((Side::Head, s));
    }
    let reason = Reason {
        summary: format!("passwd (users, SSH keys) changed → {}", decided.why),
        srcs,
    };
    (reason, decided.actions)
}

/// Maps the daemon's action list to the contract action (`none` when the daemon does nothing, `reload`/`restart` for service actions, `drain`, `reboot`).
pub fn classify(actions: &[PolicyAction], unsafe_registries: bool) -> (Action, bool) {
    let has = |f: &dyn Fn(&PolicyAction) -> bool| actions.iter().any(f);
    if has(&|a| *a == PolicyAction::Reboot) {
        (Action::Reboot, true)
    } else if has(&|a| *a == PolicyAction::Drain)
        || (unsafe_registries && has(&|a| *a == PolicyAction::Special))
    {
        (Action::Drain, true)
    } else if has(&|a| matches!(a, PolicyAction::Restart(_))) {
        (Action::Restart, false)
    } else if has(&|a| {
        matches!(
            a,
            PolicyAction::Reload(_) | PolicyAction::DaemonReload | PolicyAction::Special
        )
    }) {
        (Action::Reload, false)
    } else {
        (Action::None, false)
    }
}

/// Files of a rendered config as path → value (for tests and refusals).
pub fn file_value<'a>(r: &'a Rendered, path: &str) -> Option<&'a Value> {
    r.files.get(path).map(|i| &i.value)
}

#[cfg(test)]
mod tests {
    //! Oracle: MCO `pkg/daemon/update_test.go` `TestCalculatePostConfigChangeAction` (day-2 column
    //! of the MCO's `pkg/daemon/update_test.go`), `TestMachineConfigDiff`, and the cases derived from code.

    use super::*;
    use crate::forecast::mco::config::{Item, Mc, McConfig, Src};
    use crate::forecast::mco::merge::merge;
    use crate::forecast::mco::policy::defaults;
    use serde_json::json;

    const REGISTRIES: &str = "/etc/containers/registries.conf";
    const PULL: &str = "/var/lib/kubelet/config.json";
    const CA: &str = "/etc/pki/ca-trust/source/anchors/openshift-config-user-ca-bundle.crt";
    const GPG: &str = "/etc/machine-config-daemon/no-reboot/containers-gpg.pub";

    fn src() -> Src {
        crate::forecast::mco::config::test_src()
    }

    #[derive(Default, Clone)]
    struct Cfg {
        files: Vec<(&'static str, String)>,
        keys: Option<Vec<&'static str>>,
        password: Option<&'static str>,
        kargs: Vec<&'static str>,
        os: Option<&'static str>,
        kernel_type: Option<&'static str>,
        extensions: Vec<&'static str>,
        units: Vec<(&'static str, &'static str)>,
    }

    fn file(path: &'static str, text: &str) -> (&'static str, String) {
        (path, text.to_string())
    }

    fn build(c: &Cfg) -> Rendered {
        let mut m = McConfig::default();
        for (p, text) in &c.files {
            m.files.push((
                p.to_string(),
                Item::new(json!({"contents": {"source": format!("data:,{}", text.replace(' ', "%20").replace('\n', "%0A").replace('"', "%22").replace('=', "%3D"))}, "overwrite": true}), src()),
            ));
        }
        if c.keys.is_some() || c.password.is_some() {
            let mut u = serde_json::Map::new();
            if let Some(k) = &c.keys {
                u.insert("sshAuthorizedKeys".into(), json!(k));
            }
            if let Some(p) = c.password {
                u.insert("passwordHash".into(), json!(p));
            }
            m.users.push((
                "core".into(),
                Item::new(serde_json::Value::Object(u), src()),
            ));
        }
        m.kernel_arguments = c
            .kargs
            .iter()
            .map(|k| Item::new(k.to_string(), src()))
            .collect();
        m.extensions = c
            .extensions
            .iter()
            .map(|k| Item::new(k.to_string(), src()))
            .collect();
        m.os_image_url = c.os.map(|o| Item::new(o.to_string(), src()));
        m.kernel_type = c.kernel_type.map(|o| Item::new(o.to_string(), src()));
        for (name, contents) in &c.units {
            m.units.push((
                name.to_string(),
                Item::new(json!({"contents": contents}), src()),
            ));
        }
        let mc = Mc {
            name: "00-test".into(),
            labels: Default::default(),
            generated: false,
            config: m,
        };
        merge(&[&mc])
    }

    fn run(a: &Cfg, b: &Cfg) -> Decision {
        let (ra, rb) = (build(a), build(b));
        decide(&ra, &rb, &delta(&ra, &rb), &defaults())
    }

    fn reload_crio() -> PolicyAction {
        PolicyAction::Reload("crio.service".into())
    }

    fn restart(s: &str) -> PolicyAction {
        PolicyAction::Restart(s.into())
    }

    const REG_OLD: &str = "unqualified-search-registries = [\"registry.access.redhat.com\"]\n";
    const REG_SAFE: &str =
        "unqualified-search-registries = [\"registry.access.redhat.com\", \"quay.io\"]\n";

    fn base() -> Cfg {
        Cfg {
            files: vec![
                file(REGISTRIES, REG_OLD),
                file(PULL, "{}"),
                file("/etc/random-reboot-file", "a"),
                file("/etc/kubernetes/kubelet-ca.crt", "ca1"),
                file("/etc/containers/policy.json", "{}"),
                file(GPG, "k1"),
                file(CA, "c1"),
            ],
            keys: Some(vec!["key1"]),
            ..Cfg::default()
        }
    }

    fn with_file(c: &Cfg, path: &'static str, text: &str) -> Cfg {
        let mut c = c.clone();
        c.files.retain(|(p, _)| *p != path);
        c.files.push(file(path, text));
        c
    }

    fn without_file(c: &Cfg, path: &str) -> Cfg {
        let mut c = c.clone();
        c.files.retain(|(p, _)| *p != path);
        c
    }

    #[test]
    fn l1_unknown_file_reboots_and_drains() {
        let d = run(&base(), &with_file(&base(), "/etc/random-reboot-file", "b"));
        assert_eq!(
            (d.actions, d.action, d.drain),
            (vec![PolicyAction::Reboot], Action::Reboot, true)
        );
    }

    #[test]
    fn l2_pull_secret_content_is_none() {
        let d = run(&base(), &with_file(&base(), PULL, "{\"auths\":{}}"));
        assert_eq!(
            (d.actions, d.action, d.drain),
            (vec![PolicyAction::None], Action::None, false)
        );
    }

    #[test]
    fn l3_ssh_key_change_is_none() {
        let mut b = base();
        b.keys = Some(vec!["key2"]);
        let d = run(&base(), &b);
        assert_eq!(
            (d.actions, d.action, d.drain),
            (vec![PolicyAction::None], Action::None, false)
        );
    }

    #[test]
    fn l4_registries_conf_is_special_and_drains_only_when_unsafe() {
        let d = run(&base(), &with_file(&base(), REGISTRIES, REG_SAFE));
        assert_eq!(
            (d.actions, d.action, d.drain),
            (vec![PolicyAction::Special], Action::Reload, false)
        );
        let d = run(
            &base(),
            &with_file(&base(), REGISTRIES, "unqualified-search-registries = []\n"),
        );
        assert_eq!(
            (d.actions, d.action, d.drain),
            (vec![PolicyAction::Special], Action::Drain, true)
        );
    }

    #[test]
    fn l5_kubelet_ca_has_no_day2_policy_and_reboots() {
        let d = run(
            &base(),
            &with_file(&base(), "/etc/kubernetes/kubelet-ca.crt", "ca2"),
        );
        assert_eq!((d.action, d.drain), (Action::Reboot, true));
    }

    #[test]
    fn l6_registries_plus_pull_secret_is_special() {
        let b = with_file(&with_file(&base(), REGISTRIES, REG_SAFE), PULL, "{\"a\":1}");
        let d = run(&base(), &b);
        assert_eq!(
            (d.actions, d.action, d.drain),
            (vec![PolicyAction::Special], Action::Reload, false)
        );
    }

    #[test]
    fn l7_registries_ssh_and_os_image_reboot() {
        let mut b = with_file(&base(), REGISTRIES, REG_SAFE);
        b.keys = Some(vec!["key2"]);
        b.os = Some("quay.io/openshift/os@sha256:1");
        let d = run(&base(), &b);
        assert_eq!(
            (d.actions, d.action, d.drain),
            (vec![PolicyAction::Reboot], Action::Reboot, true)
        );
    }

    #[test]
    fn l8_pull_secret_added_is_none() {
        let a = without_file(&base(), PULL);
        let d = run(&a, &base());
        assert_eq!(
            (d.actions, d.action),
            (vec![PolicyAction::None], Action::None)
        );
    }

    #[test]
    fn l9_registries_removed_is_special_and_drains() {
        let d = run(&base(), &without_file(&base(), REGISTRIES));
        assert_eq!(
            (d.actions, d.action, d.drain),
            (vec![PolicyAction::Special], Action::Drain, true)
        );
    }

    #[test]
    fn l10_mixed_with_kargs_reboots() {
        let a = without_file(
            &without_file(&base(), PULL),
            "/etc/kubernetes/kubelet-ca.crt",
        );
        let mut b = without_file(&base(), REGISTRIES);
        b.keys = Some(vec!["key2"]);
        b.kargs = vec!["karg1"];
        let d = run(&a, &b);
        assert_eq!(
            (d.actions, d.action),
            (vec![PolicyAction::Reboot], Action::Reboot)
        );
    }

    #[test]
    fn l11_policy_json_reloads_crio() {
        let d = run(
            &base(),
            &with_file(&base(), "/etc/containers/policy.json", "{\"x\":1}"),
        );
        assert_eq!(
            (d.actions, d.action, d.drain),
            (vec![reload_crio()], Action::Reload, false)
        );
    }

    #[test]
    fn l12_gpg_key_reloads_crio() {
        let d = run(&base(), &with_file(&base(), GPG, "k2"));
        assert_eq!((d.actions, d.action), (vec![reload_crio()], Action::Reload));
    }

    #[test]
    fn l13_user_ca_bundle_restarts_ca_trust_and_crio() {
        let d = run(&base(), &with_file(&base(), CA, "c2"));
        assert_eq!(
            (d.actions, d.action, d.drain),
            (
                vec![
                    restart("coreos-update-ca-trust.service"),
                    restart("crio.service")
                ],
                Action::Restart,
                false
            )
        );
    }

    #[test]
    fn l14_ca_bundle_and_gpg_added_restart_and_reload_in_any_order() {
        let a = without_file(&without_file(&base(), CA), GPG);
        let d = run(&a, &base());
        let mut got = d.actions.clone();
        got.sort();
        let mut want = vec![
            restart("coreos-update-ca-trust.service"),
            restart("crio.service"),
            reload_crio(),
        ];
        want.sort();
        assert_eq!((got, d.action, d.drain), (want, Action::Restart, false));
    }

    #[test]
    fn derived_paths() {
        for (path, want) in [
            ("/etc/containers/registries.d/x.yaml", Action::Reload),
            ("/etc/crio/policies/ns.json", Action::Reload),
            ("/etc/nmstate/openshift/eth0.yml", Action::None),
            ("/etc/kubernetes/kubelet.conf", Action::Reboot),
            ("/etc/crio/crio.conf.d/01-ctrcfg-pidsLimit", Action::Reboot),
            (
                "/etc/containers/registries.conf.d/01-image-searchRegistries.conf",
                Action::Reboot,
            ),
            ("/etc/containers/storage.conf", Action::Reboot),
            ("/etc/mco/proxy.env", Action::Reboot),
        ] {
            let d = run(&base(), &with_file(&base(), path, "new"));
            assert_eq!(d.action, want, "{path}");
        }
    }

    #[test]
    fn derived_combinations() {
        // pull secret + policy.json → reload crio only (None dropped).
        let b = with_file(
            &with_file(&base(), PULL, "{\"a\":2}"),
            "/etc/containers/policy.json",
            "{\"y\":1}",
        );
        assert_eq!(run(&base(), &b).actions, vec![reload_crio()]);
        // SSH + unknown file → reboot.
        let mut b = with_file(&base(), "/etc/random-reboot-file", "c");
        b.keys = Some(vec!["key3"]);
        assert_eq!(run(&base(), &b).action, Action::Reboot);
        // Any unit without a policy reboots.
        let mut b = base();
        b.units = vec![("chronyd.service", "[Unit]\n")];
        assert_eq!(run(&base(), &b).action, Action::Reboot);
        // kernelType, extension, reordered kargs: reboot.
        let mut b = base();
        b.kernel_type = Some("realtime");
        assert_eq!(run(&base(), &b).action, Action::Reboot);
        let mut b = base();
        b.extensions = vec!["usbguard"];
        assert_eq!(run(&base(), &b).action, Action::Reboot);
        let mut a = base();
        a.kargs = vec!["a=1", "b=2"];
        let mut b = base();
        b.kargs = vec!["b=2", "a=1"];
        let d = run(&a, &b);
        assert_eq!(d.action, Action::Reboot);
        assert!(
            d.reasons[0]
                .summary
                .starts_with("kernel arguments reordered from [a=1 b=2] to [b=2 a=1]"),
            "{:?}",
            d.reasons
        );
    }

    #[test]
    fn user_policy_none_on_registries_means_no_reload_and_no_drain() {
        let (ra, rb) = (build(&base()), build(&without_file(&base(), REGISTRIES)));
        let mut p = defaults();
        if let Some(e) = p.files.iter_mut().find(|e| e.key == REGISTRIES) {
            e.actions = vec![PolicyAction::None];
        }
        let d = decide(&ra, &rb, &delta(&ra, &rb), &p);
        assert_eq!(
            (d.actions, d.action, d.drain),
            (vec![PolicyAction::None], Action::None, false)
        );
    }

    // e2e TestNodeDisruptionPolicies: every user action type is executed as configured.
    #[test]
    fn user_policy_actions_map_to_the_contract() {
        let cases = [
            (vec![PolicyAction::None], Action::None, false),
            (vec![PolicyAction::Drain], Action::Drain, true),
            (vec![PolicyAction::Reboot], Action::Reboot, true),
            (vec![PolicyAction::DaemonReload], Action::Reload, false),
            (vec![restart("chronyd.service")], Action::Restart, false),
            (
                vec![PolicyAction::Reload("chronyd.service".into())],
                Action::Reload,
                false,
            ),
            (
                vec![PolicyAction::DaemonReload, restart("chronyd.service")],
                Action::Restart,
                false,
            ),
            (
                vec![PolicyAction::Drain, restart("chronyd.service")],
                Action::Drain,
                true,
            ),
        ];
        for (actions, action, drain) in cases {
            let (ra, rb) = (
                build(&base()),
                build(&with_file(&base(), "/etc/chrony.conf", "x")),
            );
            let mut p = defaults();
            p.files.push(crate::forecast::mco::policy::Entry {
                key: "/etc/chrony.conf".into(),
                actions: actions.clone(),
                origin: crate::forecast::mco::policy::Origin::Default,
            });
            let d = decide(&ra, &rb, &delta(&ra, &rb), &p);
            assert_eq!((d.action, d.drain), (action, drain), "{actions:?}");
        }
    }

    // TestMachineConfigDiff / TestReconcilableDiff flags.
    #[test]
    fn diff_flags() {
        assert!(delta(&build(&Cfg::default()), &build(&Cfg::default())).is_empty());
        let os = Cfg {
            os: Some("quay.io/os:2"),
            ..Cfg::default()
        };
        assert_eq!(
            delta(&build(&Cfg::default()), &build(&os)),
            Delta {
                os_update: true,
                ..Delta::default()
            }
        );
        let empty_kargs = Cfg {
            kargs: vec![],
            ..Cfg::default()
        };
        assert!(delta(&build(&Cfg::default()), &build(&empty_kargs)).is_empty());
        let mut pw = base();
        pw.password = Some("$6$x");
        assert_eq!(
            delta(&build(&base()), &build(&pw)),
            Delta {
                passwd: true,
                ..Delta::default()
            }
        );
        let added = with_file(&Cfg::default(), "/etc/new", "x");
        assert_eq!(
            delta(&build(&Cfg::default()), &build(&added)),
            Delta {
                files: vec!["/etc/new".into()],
                ..Delta::default()
            }
        );
        let d = delta(
            &build(&base()),
            &build(&Cfg {
                keys: Some(vec!["key1"]),
                ..Cfg::default()
            }),
        );
        assert!(!d.files.is_empty() && !d.passwd && !d.kargs && !d.os_update);
    }
}
