//! The keyed config-hash, version and machine-template inputs of a NodePool, from the NodePool,
//! its HostedCluster and the Secrets they name (`Hash()` in HyperShift `hypershift-operator/controllers/nodepool/config.go` and the platform templates).

use base64::Engine;
use nodecast_yaml::Node;

use super::{normalise, origin, str_at, Component, Origin, Side, Trigger};
use crate::forecast::hypershift::template::{self, escape};
use crate::forecast::hypershift::version;
use crate::inventory::{Object, ObjectId};

const HAPROXY_ANNOTATION: &str = "hypershift.openshift.io/haproxy-image";
const CPO_ANNOTATION: &str = "hypershift.openshift.io/control-plane-operator-image";

impl Side<'_> {
    fn add(&mut self, key: &'static str, c: Component) {
        self.components.insert(key, c);
    }

    pub(super) fn collect_components(&mut self) {
        let np = self.np;
        let root = np.root();
        self.add(
            "release",
            Component {
                trigger: Trigger::Version,
                label: "release",
                value: self.release.hash_input(),
                origins: vec![origin(np, &["/spec/release"])],
                excludes: Vec::new(),
            },
        );
        let explicit = str_at(root, &["spec", "osImageStream", "name"]).unwrap_or("");
        let default = version::default_stream(&self.release, self.uses_runc);
        let stream = if explicit == default { "" } else { explicit };
        self.add(
            "osImageStream",
            Component {
                trigger: Trigger::Hash,
                label: "OS image stream",
                value: stream.to_string(),
                origins: vec![origin(np, &["/spec/osImageStream"])],
                excludes: Vec::new(),
            },
        );
        let haproxy = format!("/metadata/annotations/{}", escape(HAPROXY_ANNOTATION));
        self.add(
            "haproxy",
            Component {
                trigger: Trigger::Hash,
                label: "HAProxy image annotation",
                value: template::annotation(root, HAPROXY_ANNOTATION)
                    .unwrap_or_default()
                    .to_string(),
                origins: vec![origin(np, &[&haproxy])],
                excludes: Vec::new(),
            },
        );
        let platform_type = str_at(root, &["spec", "platform", "type"]).unwrap_or("");
        let platform = template::platform(platform_type);
        if let Some(t) = &platform {
            let base = format!("/spec/platform/{}", t.key);
            let mut prefixes = vec![base.clone()];
            prefixes.extend(
                t.np_annotations
                    .iter()
                    .map(|a| format!("/metadata/annotations/{}", escape(a))),
            );
            let excludes = t
                .excluded
                .iter()
                .chain(t.failure_domain)
                .map(|k| format!("{base}/{k}"))
                .collect();
            self.add(
                "template",
                Component {
                    trigger: Trigger::Template,
                    label: "machine template",
                    value: template::np_template(root, t),
                    origins: vec![Origin {
                        object: np.id.clone(),
                        prefixes,
                    }],
                    excludes,
                },
            );
            if !t.failure_domain.is_empty() {
                self.add(
                    "failureDomain",
                    Component {
                        trigger: Trigger::FailureDomain,
                        label: "failure domain",
                        value: template::failure_domain(root, t),
                        origins: vec![Origin {
                            object: np.id.clone(),
                            prefixes: t
                                .failure_domain
                                .iter()
                                .map(|k| format!("{base}/{k}"))
                                .collect(),
                        }],
                        excludes: Vec::new(),
                    },
                );
            }
        }
        let Some(hc) = self.hc else {
            return;
        };
        let h = hc.root();
        let hash = |label, value, prefixes: &[&str]| Component {
            trigger: Trigger::Hash,
            label,
            value,
            origins: vec![origin(hc, prefixes)],
            excludes: Vec::new(),
        };
        self.add(
            "pullSecret",
            hash(
                "pull secret name",
                str_at(h, &["spec", "pullSecret", "name"])
                    .unwrap_or("")
                    .into(),
                &["/spec/pullSecret"],
            ),
        );
        self.add(
            "trustBundle",
            hash(
                "additional trust bundle name",
                str_at(h, &["spec", "additionalTrustBundle", "name"])
                    .unwrap_or("")
                    .into(),
                &["/spec/additionalTrustBundle"],
            ),
        );
        self.add(
            "proxy",
            hash(
                "proxy configuration",
                normalise::field(h.path(&["spec", "configuration", "proxy"])),
                &["/spec/configuration/proxy"],
            ),
        );
        self.add(
            "image",
            hash(
                "image configuration",
                normalise::field(h.path(&["spec", "configuration", "image"])),
                &["/spec/configuration/image"],
            ),
        );
        if version::includes_tls_profile(&self.release) {
            self.add(
                "tlsSecurityProfile",
                hash(
                    "API server TLS security profile",
                    normalise::field(h.path(&[
                        "spec",
                        "configuration",
                        "apiServer",
                        "tlsSecurityProfile",
                    ])),
                    &["/spec/configuration/apiServer/tlsSecurityProfile"],
                ),
            );
        }
        let mut ics = hash(
            "image content sources",
            normalise::field(h.path(&["spec", "imageContentSources"])),
            &["/spec/imageContentSources"],
        );
        ics.trigger = Trigger::HashViaControlPlane;
        self.add("imageContentSources", ics);
        self.add("sshKey", self.ssh_key(hc));
        if let Some(t) = &platform {
            let value = template::hc_template(h, t);
            let mut prefixes: Vec<String> = t
                .hc_annotations
                .iter()
                .map(|a| format!("/metadata/annotations/{}", escape(a)))
                .collect();
            prefixes.extend(t.hc_fields.iter().map(|s| s.to_string()));
            if !prefixes.is_empty() {
                self.add(
                    "hcTemplate",
                    Component {
                        trigger: Trigger::Template,
                        label: "machine template (HostedCluster settings)",
                        value,
                        origins: vec![Origin {
                            object: hc.id.clone(),
                            prefixes,
                        }],
                        excludes: Vec::new(),
                    },
                );
            }
        }
        if has_https_proxy(h) {
            let cpo = format!("/metadata/annotations/{}", escape(CPO_ANNOTATION));
            let value = [
                str_at(h, &["spec", "release", "image"]).unwrap_or(""),
                str_at(h, &["spec", "controlPlaneRelease", "image"]).unwrap_or(""),
                template::annotation(h, CPO_ANNOTATION).unwrap_or(""),
            ]
            .join("\n");
            self.add(
                "generated",
                hash(
                    "control-plane operator image in the generated HAProxy configuration",
                    value,
                    &["/spec/release", "/spec/controlPlaneRelease", &cpo],
                ),
            );
        }
    }

    /// The SSH key input: the key's content when its Secret is in the repository, else its name.
    fn ssh_key(&self, hc: &Object) -> Component {
        let name = str_at(hc.root(), &["spec", "sshKey", "name"]).unwrap_or("");
        let mut origins = vec![origin(hc, &["/spec/sshKey"])];
        let secret_id = ObjectId {
            group: Default::default(),
            kind: "Secret".into(),
            namespace: hc.id.namespace.clone(),
            name: name.into(),
            scope: hc.id.scope.clone(),
        };
        let value = match self.inv.resolve(&secret_id).filter(|_| !name.is_empty()) {
            Some(secret) => {
                origins.push(origin(
                    secret,
                    &["/data/id_rsa.pub", "/stringData/id_rsa.pub"],
                ));
                let s = secret.root();
                let content = str_at(s, &["stringData", "id_rsa.pub"])
                    .map(|t| t.as_bytes().to_vec())
                    .or_else(|| {
                        str_at(s, &["data", "id_rsa.pub"]).and_then(|b| {
                            base64::engine::general_purpose::STANDARD
                                .decode(b.trim())
                                .ok()
                        })
                    })
                    .unwrap_or_default();
                format!("content:{}", String::from_utf8_lossy(&content).trim())
            }
            None if name.is_empty() => String::new(),
            None => format!("name:{name}"),
        };
        Component {
            trigger: Trigger::HashViaControlPlane,
            label: "SSH key",
            value,
            origins,
            excludes: Vec::new(),
        }
    }
}

/// Whether the HostedCluster sets an HTTPS proxy (then the control-plane operator image is part
/// of the generated HAProxy configuration, which the control-plane operator image may change).
pub fn has_https_proxy(hc: Node<'_>) -> bool {
    str_at(hc, &["spec", "configuration", "proxy", "httpsProxy"]).is_some_and(|s| !s.is_empty())
}
