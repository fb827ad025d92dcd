//! The node disruption policy: the MCO's default cluster policies merged with the repository's
//! `MachineConfiguration/cluster`, and the daemon's action calculation for a config diff.

use std::fmt;

use nodecast_yaml::Node;

use super::config::Src;

/// One policy action.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum PolicyAction {
    /// Drain and reboot.
    Reboot,
    /// Drain only.
    Drain,
    /// `systemctl reload <service>`.
    Reload(String),
    /// `systemctl restart <service>`.
    Restart(String),
    /// `systemctl daemon-reload`.
    DaemonReload,
    /// Reload crio; drain when the registries.conf change is unsafe.
    Special,
    /// Nothing.
    None,
}

impl fmt::Display for PolicyAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyAction::Reboot => f.write_str("Reboot"),
            PolicyAction::Drain => f.write_str("Drain"),
            PolicyAction::Reload(s) => write!(f, "Reload {s}"),
            PolicyAction::Restart(s) => write!(f, "Restart {s}"),
            PolicyAction::DaemonReload => f.write_str("DaemonReload"),
            PolicyAction::Special => f.write_str("Special: reload crio.service"),
            PolicyAction::None => f.write_str("None"),
        }
    }
}

/// Where a policy entry comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The MCO's built-in defaults.
    Default,
    /// `MachineConfiguration/cluster` in the repository.
    User(Src),
}

/// One policy entry (file path, unit name, or sshkey).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Path or unit name (empty for sshkey).
    pub key: String,
    /// Actions.
    pub actions: Vec<PolicyAction>,
    /// Where it comes from.
    pub origin: Origin,
}

impl Entry {
    /// "Reload crio.service (default policy)".
    pub fn describe(&self) -> String {
        let actions: Vec<String> = self.actions.iter().map(ToString::to_string).collect();
        let who = match self.origin {
            Origin::Default => "default policy".to_string(),
            Origin::User(_) => "MachineConfiguration/cluster policy".to_string(),
        };
        let key = if self.key.is_empty() {
            "sshkey".to_string()
        } else {
            self.key.clone()
        };
        format!("{} ({who} {key})", actions.join(", "))
    }
}

/// The policies in effect (defaults merged with the user's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policies {
    /// File policies.
    pub files: Vec<Entry>,
    /// Unit policies.
    pub units: Vec<Entry>,
    /// The sshkey policy.
    pub sshkey: Entry,
    /// Whether the cluster runs a release with the newest default policies ([`RECENT`]).
    pub recent_release: bool,
}

/// Default policies that only recent releases have (their release is not recorded in the repository, so nodecast cannot tell): older
/// releases reboot for these paths and units.
pub const RECENT: [&str; 7] = [
    "/etc/crio/policies",
    "/etc/kubernetes/credential-providers",
    "/etc/systemd/system/kubelet.service.d/40-kubelet-crio-image-credential-provider.conf",
    "/etc/iri-registry",
    "/usr/local/bin/load-registry-image.sh",
    "/etc/pki/ca-trust/source/anchors/iri-root-ca.crt",
    "iri-registry.service",
];

/// The first release assumed to have every default policy of the reference MCO commit.
pub const RECENT_RELEASE: (u32, u32) = (4, 21);

/// Whether a release version (`4.21.3`) has the newest default policies.
pub fn is_recent(version: &str) -> bool {
    let mut parts = version.trim_start_matches('v').split('.');
    let major = parts.next().and_then(|x| x.parse::<u32>().ok());
    let minor = parts.next().and_then(|x| x.parse::<u32>().ok());
    match (major, minor) {
        (Some(a), Some(b)) => (a, b) >= RECENT_RELEASE,
        _ => false,
    }
}

fn reload(s: &str) -> PolicyAction {
    PolicyAction::Reload(s.into())
}

fn restart(s: &str) -> PolicyAction {
    PolicyAction::Restart(s.into())
}

/// MCO `pkg/apihelpers/apihelpers.go` `defaultClusterPolicies`.
pub fn defaults() -> Policies {
    let e = |key: &str, actions: Vec<PolicyAction>| Entry {
        key: key.into(),
        actions,
        origin: Origin::Default,
    };
    Policies {
        files: vec![
            e("/var/lib/kubelet/config.json", vec![PolicyAction::None]),
            e(
                "/etc/machine-config-daemon/no-reboot/containers-gpg.pub",
                vec![reload("crio.service")],
            ),
            e("/etc/containers/policy.json", vec![reload("crio.service")]),
            e("/etc/containers/registries.conf", vec![PolicyAction::Special]),
            e("/etc/containers/registries.d", vec![reload("crio.service")]),
            e("/etc/crio/policies", vec![reload("crio.service")]),
            e("/etc/nmstate/openshift", vec![PolicyAction::None]),
            e(
                "/etc/pki/ca-trust/source/anchors/openshift-config-user-ca-bundle.crt",
                vec![
                    restart("coreos-update-ca-trust.service"),
                    restart("crio.service"),
                ],
            ),
            e(
                "/etc/kubernetes/credential-providers",
                vec![restart("kubelet.service")],
            ),
            e(
                "/etc/systemd/system/kubelet.service.d/40-kubelet-crio-image-credential-provider.conf",
                vec![PolicyAction::DaemonReload, restart("kubelet.service")],
            ),
            e("/etc/iri-registry", vec![restart("iri-registry.service")]),
            e(
                "/usr/local/bin/load-registry-image.sh",
                vec![restart("iri-registry.service")],
            ),
            e(
                "/etc/pki/ca-trust/source/anchors/iri-root-ca.crt",
                vec![restart("coreos-update-ca-trust.service")],
            ),
        ],
        units: vec![e(
            "iri-registry.service",
            vec![PolicyAction::DaemonReload, restart("iri-registry.service")],
        )],
        sshkey: e("", vec![PolicyAction::None]),
        recent_release: true,
    }
}

fn parse_actions(node: Option<Node<'_>>) -> Vec<PolicyAction> {
    node.and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter_map(|a| {
            let service = |k: &str| {
                a.path(&[k, "serviceName"])
                    .and_then(Node::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            Some(match a.get("type")?.as_str()? {
                "Reboot" => PolicyAction::Reboot,
                "Drain" => PolicyAction::Drain,
                "Reload" => PolicyAction::Reload(service("reload")),
                "Restart" => PolicyAction::Restart(service("restart")),
                "DaemonReload" => PolicyAction::DaemonReload,
                "None" => PolicyAction::None,
                "Special" => PolicyAction::Special,
                _ => return None,
            })
        })
        .collect()
}

/// `MergeClusterPolicies`: user entries replace defaults with the same path/name, else append;
/// a user sshkey replaces the default only when it has actions.
pub fn merged(machine_configuration: Option<(Node<'_>, &crate::inventory::ObjectId)>) -> Policies {
    let mut p = defaults();
    let Some((root, id)) = machine_configuration else {
        return p;
    };
    let Some(ndp) = root.path(&["spec", "nodeDisruptionPolicy"]) else {
        return p;
    };
    let src = |pointer: String| {
        Origin::User(Src {
            object: id.clone(),
            pointer,
        })
    };
    for (list, section, key) in [
        (&mut p.files, "files", "path"),
        (&mut p.units, "units", "name"),
    ] {
        for (i, item) in ndp
            .get(section)
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            let Some(k) = item.get(key).and_then(Node::as_str) else {
                continue;
            };
            let entry = Entry {
                key: k.to_string(),
                actions: parse_actions(item.get("actions")),
                origin: src(format!("/spec/nodeDisruptionPolicy/{section}/{i}")),
            };
            match list.iter_mut().find(|e| e.key == k) {
                Some(existing) => *existing = entry,
                None => list.push(entry),
            }
        }
    }
    if let Some(ssh) = ndp.get("sshkey") {
        let actions = parse_actions(ssh.get("actions"));
        if !actions.is_empty() {
            p.sshkey = Entry {
                key: String::new(),
                actions,
                origin: src("/spec/nodeDisruptionPolicy/sshkey".into()),
            };
        }
    }
    p
}

/// Longest-prefix match of a file path against file policies (equal, or a parent directory at
/// any depth).
pub fn match_file<'a>(policies: &'a [Entry], path: &str) -> Option<&'a Entry> {
    policies
        .iter()
        .filter(|e| {
            path == e.key || {
                let dir = e.key.trim_end_matches('/');
                path.starts_with(&format!("{dir}/"))
            }
        })
        .max_by_key(|e| e.key.len())
}

/// Exact match of a unit name.
pub fn match_unit<'a>(policies: &'a [Entry], name: &str) -> Option<&'a Entry> {
    policies.iter().find(|e| e.key == name)
}

/// The decision for one changed item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decided {
    /// The actions it contributes.
    pub actions: Vec<PolicyAction>,
    /// "… → Reload crio.service (default policy …)".
    pub why: String,
    /// The user policy entry, when one decided.
    pub policy: Option<Src>,
}

/// What the daemon does for the changed files, units and passwd (steps 3–8 of
/// `calculatePostConfigChangeNodeDisruptionAction`), per item so each can be explained.
pub fn decide_file(p: &Policies, path: &str) -> Decided {
    decide(
        p,
        match_file(&p.files, path),
        "Reboot (no node disruption policy matches this path)",
    )
}

/// Decision for a changed unit.
pub fn decide_unit(p: &Policies, name: &str) -> Decided {
    decide(
        p,
        match_unit(&p.units, name),
        "Reboot (no node disruption policy for this unit)",
    )
}

/// The matched policy entry's actions, or a reboot (with `unmatched` as the reason).
fn decide(p: &Policies, entry: Option<&Entry>, unmatched: &str) -> Decided {
    match entry {
        Some(e) if too_new(p, e) => older_release(e),
        Some(e) => Decided {
            actions: e.actions.clone(),
            why: e.describe(),
            policy: user_src(e),
        },
        None => Decided {
            actions: vec![PolicyAction::Reboot],
            why: unmatched.into(),
            policy: None,
        },
    }
}

fn too_new(p: &Policies, e: &Entry) -> bool {
    !p.recent_release && e.origin == Origin::Default && RECENT.contains(&e.key.as_str())
}

fn older_release(e: &Entry) -> Decided {
    Decided {
        actions: vec![PolicyAction::Reboot],
        why: format!(
            "Reboot (the default policy `{}` → {} exists only from OpenShift {}.{}; this cluster pins no such release in ClusterVersion spec.desiredUpdate)",
            e.key,
            e.actions.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "),
            RECENT_RELEASE.0,
            RECENT_RELEASE.1
        ),
        policy: None,
    }
}

/// Decision for a passwd change.
pub fn decide_passwd(p: &Policies) -> Decided {
    Decided {
        actions: p.sshkey.actions.clone(),
        why: p.sshkey.describe(),
        policy: user_src(&p.sshkey),
    }
}

fn user_src(e: &Entry) -> Option<Src> {
    match &e.origin {
        Origin::User(s) => Some(s.clone()),
        Origin::Default => None,
    }
}

/// Steps 6–8: Reboot wins; `None` is dropped beside other actions; otherwise the concatenation.
pub fn combine(lists: &[Vec<PolicyAction>]) -> Vec<PolicyAction> {
    let all: Vec<PolicyAction> = lists.iter().flatten().cloned().collect();
    if all.contains(&PolicyAction::Reboot) {
        return vec![PolicyAction::Reboot];
    }
    let others: Vec<PolicyAction> = all
        .iter()
        .filter(|a| **a != PolicyAction::None)
        .cloned()
        .collect();
    if others.is_empty() && !all.is_empty() {
        return vec![PolicyAction::None];
    }
    others
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(key: &str, actions: Vec<PolicyAction>) -> Entry {
        Entry {
            key: key.into(),
            actions,
            origin: Origin::Default,
        }
    }

    // MCO TestFindClosestFilePolicyPathMatch.
    #[test]
    fn path_matching() {
        assert_eq!(
            match_file(
                &[user("/etc/example", vec![PolicyAction::None])],
                "/etc/mco/test"
            ),
            None
        );
        let two = [
            user("/etc/mco/test1", vec![PolicyAction::None]),
            user("/etc/mco/test2", vec![PolicyAction::Reboot]),
        ];
        assert_eq!(
            match_file(&two, "/etc/mco/test1").map(|e| &e.actions),
            Some(&vec![PolicyAction::None])
        );
        let nested = [
            user("/etc/mco/f1", vec![PolicyAction::None]),
            user("/etc/mco/f1/f2", vec![PolicyAction::Reboot]),
            user("/etc/mco/f1/f2/f3", vec![reload("crio")]),
        ];
        assert_eq!(
            match_file(&nested, "/etc/mco/f1/f2/example").map(|e| &e.actions),
            Some(&vec![PolicyAction::Reboot])
        );
        assert_eq!(
            match_file(&nested, "/etc/mco/f1/f2/f3").map(|e| &e.actions),
            Some(&vec![reload("crio")])
        );
        let none = [
            user("/etc/mco/f1/test", vec![PolicyAction::None]),
            user("/etc/mco/f1/f2/test", vec![PolicyAction::Reboot]),
            user("/etc/mco/f1/f2/f3/f4", vec![reload("crio")]),
        ];
        assert_eq!(match_file(&none, "/etc/mco/f1/f2/f3"), None);
        // The parent test appends `/`: f2/f does not match f2/f3.
        assert_eq!(
            match_file(&[user("/etc/mco/f1/f2/f", vec![])], "/etc/mco/f1/f2/f3"),
            None
        );
    }

    #[test]
    fn user_policies_replace_equal_paths_and_append_others() {
        let yaml = "spec:\n  nodeDisruptionPolicy:\n    files:\n    - path: /etc/containers/registries.conf\n      actions: [{type: None}]\n    - path: /etc/containers\n      actions: [{type: Restart, restart: {serviceName: crio.service}}]\n    units:\n    - name: chronyd.service\n      actions: [{type: Reload, reload: {serviceName: chronyd.service}}]\n    sshkey:\n      actions: []\n";
        let doc = nodecast_yaml::parse(yaml, &nodecast_yaml::Options::default());
        let id = crate::inventory::ObjectId {
            group: "operator.openshift.io".into(),
            kind: "MachineConfiguration".into(),
            namespace: None,
            name: "cluster".into(),
            scope: Default::default(),
        };
        let p = merged(Some((doc.documents[0].root(), &id)));
        assert_eq!(
            decide_file(&p, "/etc/containers/registries.conf").actions,
            vec![PolicyAction::None]
        );
        // A user parent-directory policy does not displace a more specific default.
        assert_eq!(
            decide_file(&p, "/etc/containers/policy.json").actions,
            vec![reload("crio.service")]
        );
        assert_eq!(
            decide_file(&p, "/etc/containers/storage.conf").actions,
            vec![restart("crio.service")]
        );
        assert_eq!(
            decide_unit(&p, "chronyd.service").actions,
            vec![reload("chronyd.service")]
        );
        // Empty sshkey actions keep the default.
        assert_eq!(decide_passwd(&p).actions, vec![PolicyAction::None]);
        assert!(decide_file(&p, "/etc/containers/registries.conf")
            .why
            .contains("MachineConfiguration/cluster"));
    }

    #[test]
    fn newest_defaults_need_a_recent_release() {
        let mut p = defaults();
        assert_eq!(
            decide_file(&p, "/etc/crio/policies/ns.json").actions,
            vec![reload("crio.service")]
        );
        p.recent_release = false;
        assert_eq!(
            decide_file(&p, "/etc/crio/policies/ns.json").actions,
            vec![PolicyAction::Reboot]
        );
        assert_eq!(
            decide_unit(&p, "iri-registry.service").actions,
            vec![PolicyAction::Reboot]
        );
        // Defaults that exist since the policy was introduced are unaffected.
        assert_eq!(
            decide_file(&p, "/etc/containers/policy.json").actions,
            vec![reload("crio.service")]
        );
        assert!(is_recent("4.21.0") && is_recent("4.22.3") && is_recent("5.0.1"));
        assert!(!is_recent("4.20.9") && !is_recent("4.16") && !is_recent("x"));
    }

    #[test]
    fn combining() {
        assert_eq!(
            combine(&[vec![PolicyAction::None], vec![PolicyAction::Reboot]]),
            vec![PolicyAction::Reboot]
        );
        assert_eq!(
            combine(&[vec![PolicyAction::None], vec![reload("crio.service")]]),
            vec![reload("crio.service")]
        );
        assert_eq!(
            combine(&[vec![PolicyAction::None], vec![PolicyAction::None]]),
            vec![PolicyAction::None]
        );
        assert_eq!(combine(&[]), Vec::<PolicyAction>::new());
        // Not de-duplicated.
        assert_eq!(
            combine(&[vec![reload("crio.service")], vec![reload("crio.service")]]),
            vec![reload("crio.service"), reload("crio.service")]
        );
    }
}
