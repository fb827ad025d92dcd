//! Everything one revision says about a NodePool's rollout inputs, normalised the way the
//! NodePool controller normalises them (domain doc 2–7).

pub mod normalise;

use std::collections::BTreeMap;

use base64::Engine;
use nodecast_yaml::{Node, ProblemKind, Span};

use super::locate::doc_label;
use super::template::{self, escape};
use super::version::{self, Release};
use crate::inventory::{Inventory, Object, ObjectId, ReferenceKind};

/// How a changed input reaches the nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Trigger {
    /// A config-hash input (trigger A).
    Hash,
    /// A config-hash input produced by the control-plane operator (waits while the HostedCluster
    /// is paused).
    HashViaControlPlane,
    /// The release version (trigger C).
    Version,
    /// The machine template (trigger B).
    Template,
    /// The MachineDeployment failure domain (rolls Replace pools like a template change).
    FailureDomain,
    /// Not known; a rollout is assumed.
    Unknown,
    /// Never rolls nodes.
    Never,
}

impl Trigger {
    /// Whether existing nodes roll under InPlace (template-like triggers reach new machines only).
    pub fn rolls_in_place(self) -> bool {
        matches!(
            self,
            Trigger::Hash | Trigger::HashViaControlPlane | Trigger::Version | Trigger::Unknown
        )
    }

    /// Whether existing nodes roll under Replace.
    pub fn rolls_replace(self) -> bool {
        self != Trigger::Never
    }
}

/// Where an input lives: an object and the fields of it (JSON pointers) that feed the input.
#[derive(Clone, Debug)]
pub struct Origin {
    /// The object.
    pub object: ObjectId,
    /// Field prefixes.
    pub prefixes: Vec<String>,
}

/// One normalised input.
#[derive(Clone, Debug)]
pub struct Component {
    /// How a change reaches nodes.
    pub trigger: Trigger,
    /// What it is, for summaries.
    pub label: &'static str,
    /// The normalised value.
    pub value: String,
    /// Where it comes from.
    pub origins: Vec<Origin>,
    /// Field prefixes under the origins that are not part of it.
    pub excludes: Vec<String>,
}

/// One normalised document of `spec.config` or `spec.tuningConfig`.
#[derive(Clone, Debug)]
pub struct ConfigDoc {
    /// The normalised document.
    pub value: String,
    /// The ConfigMap holding it.
    pub cm: ObjectId,
    /// `config` or `tuning`.
    pub key: &'static str,
    /// The diff's label of the document (`MachineConfig name`).
    pub label: String,
    /// Rollout only possible (a Tuned without boot-time settings).
    pub possible: bool,
    /// Fields the controller overwrites (JSON pointers inside the document).
    pub overwritten: &'static [&'static str],
    /// The ConfigMap's file and the document's span.
    pub path: String,
    /// The document's span.
    pub span: Span,
}

/// A document the controller refuses.
#[derive(Clone, Debug)]
pub struct InvalidDoc {
    /// File.
    pub path: String,
    /// Where.
    pub span: Span,
    /// Why.
    pub message: String,
    /// The ConfigMap.
    pub cm: ObjectId,
}

/// A `spec.config` / `spec.tuningConfig` reference.
#[derive(Clone, Debug)]
pub struct ConfigRef {
    /// ConfigMap name.
    pub name: String,
    /// `config` or `tuning`.
    pub key: &'static str,
    /// Span of the name in the NodePool.
    pub span: Span,
    /// Whether the ConfigMap exists on this side.
    pub resolved: bool,
}

/// One revision of a NodePool with its normalised inputs.
pub struct Side<'a> {
    /// The inventory of the revision.
    pub inv: &'a Inventory,
    /// The NodePool.
    pub np: &'a Object,
    /// Its HostedCluster, when present.
    pub hc: Option<&'a Object>,
    /// NodePool release.
    pub release: Release,
    /// HostedCluster release.
    pub hc_release: Release,
    /// Keyed normalised inputs.
    pub components: BTreeMap<&'static str, Component>,
    /// Config and tuning documents.
    pub docs: Vec<ConfigDoc>,
    /// Documents the controller refuses.
    pub invalid: Vec<InvalidDoc>,
    /// A referenced ConfigMap payload that is not valid YAML (reported by Y001).
    pub unreadable_config: bool,
    /// References to ConfigMaps.
    pub refs: Vec<ConfigRef>,
    /// A `ContainerRuntimeConfig` in `spec.config` selects runc.
    pub uses_runc: bool,
}

const HAPROXY_ANNOTATION: &str = "hypershift.openshift.io/haproxy-image";
const CPO_ANNOTATION: &str = "hypershift.openshift.io/control-plane-operator-image";

fn str_at<'n>(root: &'n Node, path: &[&str]) -> Option<&'n str> {
    root.path(path).and_then(Node::as_str)
}

fn origin(obj: &Object, prefixes: &[&str]) -> Origin {
    Origin {
        object: obj.id.clone(),
        prefixes: prefixes.iter().map(|s| s.to_string()).collect(),
    }
}

impl<'a> Side<'a> {
    /// Collects the inputs of NodePool `np` in `inv`.
    pub fn build(inv: &'a Inventory, np: &'a Object) -> Side<'a> {
        let np_index = inv.by_id.get(&np.id).copied();
        let root = np.root();
        let hc = inv
            .references
            .iter()
            .find(|r| Some(r.from) == np_index && r.kind == ReferenceKind::NodePoolCluster)
            .and_then(|r| r.resolved)
            .map(|i| &inv.objects[i]);
        let release = Release::from_pullspec(str_at(root, &["spec", "release", "image"]));
        let hc_release = hc
            .map(|h| Release::from_pullspec(str_at(h.root(), &["spec", "release", "image"])))
            .unwrap_or(Release::Missing);
        let mut side = Side {
            inv,
            np,
            hc,
            release,
            hc_release,
            components: BTreeMap::new(),
            docs: Vec::new(),
            invalid: Vec::new(),
            unreadable_config: false,
            refs: Vec::new(),
            uses_runc: false,
        };
        side.collect_docs(np_index);
        side.collect_components();
        side
    }

    fn tuning_enabled(&self) -> bool {
        let disabled = self
            .hc
            .and_then(|h| h.root().path(&["spec", "capabilities", "disabled"]))
            .and_then(Node::as_seq)
            .unwrap_or_default();
        !disabled.iter().any(|n| n.as_str() == Some("NodeTuning"))
    }

    fn collect_docs(&mut self, np_index: Option<usize>) {
        let tuning_enabled = self.tuning_enabled();
        let mut profiles = 0;
        for r in self
            .inv
            .references
            .iter()
            .filter(|r| Some(r.from) == np_index)
        {
            let key = match r.kind {
                ReferenceKind::NodePoolConfig => "config",
                ReferenceKind::NodePoolTuning => "tuning",
                ReferenceKind::NodePoolCluster => continue,
            };
            self.refs.push(ConfigRef {
                name: r.target.name.clone(),
                key,
                span: r.span,
                resolved: r.resolved.is_some(),
            });
            let Some(cm) = r.resolved.map(|i| &self.inv.objects[i]) else {
                continue;
            };
            if key == "tuning" && !tuning_enabled {
                continue;
            }
            let payload = cm.root().path(&["data", key]);
            let Some(emb) = cm.parsed().embedded.iter().find(|e| e.key == key) else {
                if key == "tuning" {
                    self.invalid.push(InvalidDoc {
                        path: cm.path.clone(),
                        span: payload.map(|p| p.span).unwrap_or(cm.root().span),
                        message: format!(
                            "ConfigMap `{}` has no Tuned or PerformanceProfile under `data.tuning`",
                            cm.id.name
                        ),
                        cm: cm.id.clone(),
                    });
                }
                continue;
            };
            if emb.problems.iter().any(|p| p.kind == ProblemKind::Syntax) {
                self.unreadable_config = true;
            }
            let raw_docs = payload.and_then(Node::as_str).map(|t| {
                (
                    t,
                    nodecast_yaml::parse(t, &nodecast_yaml::Options::default()),
                )
            });
            if key == "tuning" && emb.docs.len() != 1 {
                self.invalid.push(InvalidDoc {
                    path: cm.path.clone(),
                    span: payload.map(|p| p.span).unwrap_or(cm.root().span),
                    message: format!(
                        "ConfigMap `{}` holds {} documents under `data.tuning`; the controller accepts exactly one Tuned or PerformanceProfile",
                        cm.id.name,
                        emb.docs.len()
                    ),
                    cm: cm.id.clone(),
                });
                continue;
            }
            for (i, d) in emb.docs.iter().enumerate() {
                let droot = &d.doc.root;
                let api = droot.get("apiVersion").and_then(Node::as_str).unwrap_or("");
                let kind = droot.get("kind").and_then(Node::as_str).unwrap_or("");
                let at = droot.get("kind").map(|k| k.span).unwrap_or(droot.span);
                let invalid = |message: String| InvalidDoc {
                    path: cm.path.clone(),
                    span: at,
                    message,
                    cm: cm.id.clone(),
                };
                let label = doc_label(droot, i);
                if key == "config" {
                    let Some(ck) = normalise::config_kind(api, kind) else {
                        let what = if kind.is_empty() {
                            "a document without `kind`".to_string()
                        } else {
                            format!("`{kind}` ({api})")
                        };
                        self.invalid.push(invalid(format!(
                            "ConfigMap `{}` holds {what}, which NodePool `spec.config` does not accept",
                            cm.id.name
                        )));
                        continue;
                    };
                    if kind == "ContainerRuntimeConfig"
                        && str_at(droot, &["spec", "containerRuntimeConfig", "defaultRuntime"])
                            == Some("runc")
                    {
                        self.uses_runc = true;
                    }
                    let raw = raw_docs
                        .as_ref()
                        .and_then(|(t, p)| {
                            let doc = p.documents.iter().find(|x| x.index == d.doc.index)?;
                            t.get(doc.span.start.offset..doc.span.end.offset)
                        })
                        .unwrap_or_default();
                    self.docs.push(ConfigDoc {
                        value: normalise::config_document(ck, droot, raw),
                        cm: cm.id.clone(),
                        key,
                        label,
                        possible: false,
                        overwritten: normalise::overwritten_fields(ck),
                        path: cm.path.clone(),
                        span: droot.span,
                    });
                } else {
                    let group = crate::inventory::kinds::group_of(api);
                    let possible = match (group, kind) {
                        ("tuned.openshift.io", "Tuned") => !boot_time_tuned(droot),
                        ("performance.openshift.io", "PerformanceProfile") => {
                            profiles += 1;
                            if profiles > 1 {
                                self.invalid.push(invalid(
                                    "a second PerformanceProfile for the same NodePool; the controller accepts at most one".into(),
                                ));
                                continue;
                            }
                            false
                        }
                        _ => {
                            self.invalid.push(invalid(format!(
                                "ConfigMap `{}` holds `{kind}` under `data.tuning`; only Tuned and PerformanceProfile are accepted",
                                cm.id.name
                            )));
                            continue;
                        }
                    };
                    self.docs.push(ConfigDoc {
                        value: normalise::canonical(&droot.to_json()),
                        cm: cm.id.clone(),
                        key,
                        label,
                        possible,
                        overwritten: &[],
                        path: cm.path.clone(),
                        span: droot.span,
                    });
                }
            }
        }
    }

    fn add(&mut self, key: &'static str, c: Component) {
        self.components.insert(key, c);
    }

    fn collect_components(&mut self) {
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
            group: String::new(),
            kind: "Secret".into(),
            namespace: hc.id.namespace.clone(),
            name: name.to_string(),
        };
        let value = match self.inv.get(&secret_id).filter(|_| !name.is_empty()) {
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
/// of the generated HAProxy configuration, domain doc 4 and uncertain item 1).
pub fn has_https_proxy(hc: &Node) -> bool {
    str_at(hc, &["spec", "configuration", "proxy", "httpsProxy"]).is_some_and(|s| !s.is_empty())
}

/// A Tuned whose profiles set boot-time parameters (a `[bootloader]` section or kernel command
/// line), so NTO renders a MachineConfig.
fn boot_time_tuned(tuned: &Node) -> bool {
    tuned
        .path(&["spec", "profile"])
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter_map(|p| p.get("data").and_then(Node::as_str))
        .any(|data| {
            data.lines().any(|l| {
                let l = l.trim();
                l.eq_ignore_ascii_case("[bootloader]") || l.starts_with("cmdline")
            })
        })
}
