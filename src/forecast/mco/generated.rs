//! MachineConfigs the controllers generate from other objects (KubeletConfig, ContainerRuntimeConfig,
//! mirror sets, Image, Proxy, FeatureGate, nodes.config, ClusterVersion, pull secret, CA bundle).
//!
//! Generated content depends on controller templates, so each generated file's value is the
//! canonical JSON of the source fields it depends on (the MCO's template, kubelet-config, container-runtime-config and image controllers): any semantic
//! change of those fields changes the file, formatting does not. registries.conf and CRI-O
//! drop-ins are generated as real text, because the daemon reads them (drain safety, runc).

use std::collections::BTreeMap;

use nodecast_yaml::{Node, Span};
use serde_json::{json, Value};

use super::config::{fields_json, text_file, Item, Mc, McConfig, Src};
use super::pool::Pool;
use super::registries;
use super::selector;
use crate::inventory::{Object, ObjectId};

/// Which generated files exist on either side (so a source removed in head still renders the
/// controller's default content instead of "file removed").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Managed {
    /// registries.conf is generated from mirror sets or Image registry sources.
    pub registries: bool,
    /// policy.json is generated from Image allowed/blocked registries or ClusterImagePolicies.
    pub policy: bool,
}

fn is(o: &Object, group: &str, kind: &str) -> bool {
    o.id.group == group && o.id.kind == kind
}

fn cfg<'a>(objects: &[&'a Object], kind: &str, name: &str) -> Option<&'a Object> {
    objects
        .iter()
        .copied()
        .find(|o| is(o, "config.openshift.io", kind) && o.id.name == name)
}

fn image_sources(img: &Object, key: &str) -> Vec<String> {
    img.root()
        .path(&["spec", "registrySources", key])
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter_map(|n| n.as_str().map(str::to_string))
        .collect()
}

/// Computes [`Managed`] from both sides' objects.
pub fn managed(sides: [&[&Object]; 2]) -> Managed {
    let mut m = Managed::default();
    for objects in sides {
        for o in objects {
            match (o.id.group.as_str(), o.id.kind.as_str()) {
                ("config.openshift.io", "ImageDigestMirrorSet" | "ImageTagMirrorSet")
                | ("operator.openshift.io", "ImageContentSourcePolicy") => m.registries = true,
                ("config.openshift.io", "ClusterImagePolicy") => m.policy = true,
                ("config.openshift.io", "Image") if o.id.name == "cluster" => {
                    if !image_sources(o, "insecureRegistries").is_empty()
                        || !image_sources(o, "blockedRegistries").is_empty()
                    {
                        m.registries = true;
                    }
                    if !image_sources(o, "allowedRegistries").is_empty()
                        || !image_sources(o, "blockedRegistries").is_empty()
                    {
                        m.policy = true;
                    }
                }
                _ => {}
            }
        }
    }
    m
}

fn src(o: &Object, pointer: &str) -> Src {
    Src {
        object: o.id.clone(),
        pointer: pointer.to_string(),
    }
}

/// A generated file from several contributing fields.
struct Gen {
    files: Vec<(String, Item<Value>)>,
    units: Vec<(String, Item<Value>)>,
}

fn file(path: &str, value: Value, srcs: Vec<Src>) -> (String, Item<Value>) {
    (path.to_string(), Item { value, src: srcs })
}

/// The cluster-wide kubelet inputs (FeatureGate, nodes.config) every generated kubelet config
/// includes.
fn kubelet_inputs(objects: &[&Object]) -> (Value, Vec<Src>) {
    let mut v = serde_json::Map::new();
    let mut s = Vec::new();
    if let Some(fg) = cfg(objects, "FeatureGate", "cluster") {
        v.insert("featureGate".into(), fields_json(fg.root(), &["/spec"]));
        s.push(src(fg, "/spec"));
    }
    if let Some(n) = cfg(objects, "Node", "cluster") {
        v.insert("node".into(), fields_json(n.root(), &["/spec"]));
        s.push(src(n, "/spec"));
    }
    (Value::Object(v), s)
}

/// Objects whose `machineConfigPoolSelector` selects the pool (empty selector: none).
fn selecting<'a>(objects: &[&'a Object], kind: &str, pool: &Pool) -> Vec<&'a Object> {
    let mut out: Vec<&Object> = objects
        .iter()
        .copied()
        .filter(|o| is(o, "machineconfiguration.openshift.io", kind))
        .filter(|o| {
            o.root()
                .path(&["spec", "machineConfigPoolSelector"])
                .and_then(|n| selector::parse(n).ok())
                .is_some_and(|s| !s.is_empty() && s.matches(&pool.labels))
        })
        .collect();
    out.sort_by(|a, b| a.id.name.cmp(&b.id.name));
    out
}

/// Generators (KubeletConfig, ContainerRuntimeConfig) that select no pool: (object, span).
pub fn unmatched(objects: &[&Object], pools: &[Pool]) -> Vec<(ObjectId, Span)> {
    objects
        .iter()
        .filter(|o| {
            is(o, "machineconfiguration.openshift.io", "KubeletConfig")
                || is(
                    o,
                    "machineconfiguration.openshift.io",
                    "ContainerRuntimeConfig",
                )
        })
        .filter(|o| {
            !pools
                .iter()
                .any(|p| selecting(&[o], &o.id.kind, p).len() == 1)
        })
        .map(|o| {
            let span = o
                .root()
                .get("spec")
                .and_then(|s| s.entry("machineConfigPoolSelector"))
                .map(|e| e.key.span())
                .or_else(|| o.root().path(&["metadata", "name"]).map(|n| n.span()))
                .unwrap_or(o.root().span());
            (o.id.clone(), span)
        })
        .collect()
}

fn suffixed(base: &str, index: usize, o: &Object) -> String {
    let annotated = o
        .root()
        .path(&[
            "metadata",
            "annotations",
            "machineconfiguration.openshift.io/mc-name-suffix",
        ])
        .and_then(Node::key_text)
        .filter(|s| !s.is_empty());
    match (annotated, index) {
        (Some(n), _) => format!("{base}-{n}"),
        (None, 0) => base.to_string(),
        (None, i) => format!("{base}-{i}"),
    }
}

fn kubelet_files(o: &Object, inputs: &(Value, Vec<Src>)) -> Gen {
    let root = o.root();
    // Every spec field except the selector and the fields with files of their own feeds
    // kubelet.conf, so a field nodecast does not know still counts as a change.
    const OWN_FILES: [&str; 3] = [
        "machineConfigPoolSelector",
        "autoSizingReserved",
        "logLevel",
    ];
    let spec = root.get("spec");
    let mut conf = serde_json::Map::new();
    let mut s = vec![src(o, "/spec/machineConfigPoolSelector")];
    for e in spec.and_then(Node::as_map).unwrap_or_default() {
        let Some(key) = e.key.key_text() else {
            continue;
        };
        if OWN_FILES.contains(&key) {
            continue;
        }
        conf.insert(key.to_string(), e.value.to_json());
        s.push(src(o, &format!("/spec/{key}")));
    }
    conf.insert("cluster".into(), inputs.0.clone());
    let conf = Value::Object(conf);
    s.extend(inputs.1.iter().cloned());
    let mut files = vec![file("/etc/kubernetes/kubelet.conf", conf, s)];
    if root.path(&["spec", "autoSizingReserved"]).is_some() {
        files.push(file(
            "/etc/node-sizing-enabled.env",
            fields_json(root, &["/spec/autoSizingReserved"]),
            vec![src(o, "/spec/autoSizingReserved")],
        ));
    }
    if root.path(&["spec", "logLevel"]).is_some() {
        files.push(file(
            "/etc/systemd/system/kubelet.service.d/20-logging.conf",
            fields_json(root, &["/spec/logLevel"]),
            vec![src(o, "/spec/logLevel")],
        ));
    }
    Gen {
        files,
        units: Vec::new(),
    }
}

fn crio_files(o: &Object) -> Gen {
    let mut files: BTreeMap<String, (serde_json::Map<String, Value>, Vec<Src>)> = BTreeMap::new();
    let ctr = o.root().path(&["spec", "containerRuntimeConfig"]);
    for e in ctr.and_then(Node::as_map).unwrap_or_default() {
        let Some(key) = e.key.key_text() else {
            continue;
        };
        let path = match key {
            "overlaySize" | "additionalLayerStores" | "additionalImageStores" => {
                "/etc/containers/storage.conf".to_string()
            }
            other => format!("/etc/crio/crio.conf.d/01-ctrcfg-{other}"),
        };
        let entry = files.entry(path).or_default();
        entry.0.insert(key.to_string(), e.value.to_json());
        entry
            .1
            .push(src(o, &format!("/spec/containerRuntimeConfig/{key}")));
    }
    Gen {
        files: files
            .into_iter()
            .map(|(path, (m, s))| {
                let value = match m.get("defaultRuntime").and_then(Value::as_str) {
                    Some(rt) => text_file(&format!("[crio.runtime]\ndefault_runtime = \"{rt}\"\n")),
                    None => Value::Object(m),
                };
                (path, Item { value, src: s })
            })
            .collect(),
        units: Vec::new(),
    }
}

fn strings(n: Option<Node<'_>>) -> Vec<String> {
    n.and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter_map(|x| x.as_str().map(str::to_string))
        .collect()
}

fn registries_files(objects: &[&Object], m: Managed) -> Gen {
    let mut files = Vec::new();
    let image = cfg(objects, "Image", "cluster");
    if m.registries {
        let mut conf = registries::template();
        let mut s = Vec::new();
        let mut sources: Vec<&Object> = objects.to_vec();
        sources.sort_by(|a, b| a.id.cmp(&b.id));
        for o in sources {
            let (list, pull) = match (o.id.group.as_str(), o.id.kind.as_str()) {
                ("config.openshift.io", "ImageDigestMirrorSet") => {
                    ("imageDigestMirrors", "digest-only")
                }
                ("config.openshift.io", "ImageTagMirrorSet") => ("imageTagMirrors", "tag-only"),
                ("operator.openshift.io", "ImageContentSourcePolicy") => {
                    ("repositoryDigestMirrors", "digest-only")
                }
                _ => continue,
            };
            s.push(src(o, &format!("/spec/{list}")));
            for item in o
                .root()
                .path(&["spec", list])
                .and_then(Node::as_seq)
                .unwrap_or_default()
            {
                let Some(source) = item.get("source").and_then(Node::as_str) else {
                    continue;
                };
                let never = item.get("mirrorSourcePolicy").and_then(Node::as_str)
                    == Some("NeverContactSource");
                conf.add_mirrors(source, &strings(item.get("mirrors")), pull, never);
            }
        }
        if let Some(img) = image {
            for r in image_sources(img, "insecureRegistries") {
                conf.entry(&r).insecure = true;
            }
            for r in image_sources(img, "blockedRegistries") {
                conf.entry(&r).blocked = true;
            }
            s.push(src(img, "/spec/registrySources/insecureRegistries"));
            s.push(src(img, "/spec/registrySources/blockedRegistries"));
        }
        files.push(file(
            "/etc/containers/registries.conf",
            text_file(&conf.to_toml()),
            s,
        ));
    }
    if m.policy {
        let mut v = serde_json::Map::new();
        let mut s = Vec::new();
        if let Some(img) = image {
            v.insert(
                "image".into(),
                fields_json(
                    img.root(),
                    &[
                        "/spec/registrySources/allowedRegistries",
                        "/spec/registrySources/blockedRegistries",
                    ],
                ),
            );
            s.push(src(img, "/spec/registrySources/allowedRegistries"));
            s.push(src(img, "/spec/registrySources/blockedRegistries"));
        }
        let mut sigstore = serde_json::Map::new();
        let mut ss = Vec::new();
        for o in objects
            .iter()
            .filter(|o| is(o, "config.openshift.io", "ClusterImagePolicy"))
        {
            v.insert(o.id.name.to_string(), fields_json(o.root(), &["/spec"]));
            sigstore.insert(
                o.id.name.to_string(),
                fields_json(o.root(), &["/spec/scopes"]),
            );
            s.push(src(o, "/spec"));
            ss.push(src(o, "/spec/scopes"));
        }
        files.push(file("/etc/containers/policy.json", Value::Object(v), s));
        files.push(file(
            "/etc/containers/registries.d/sigstore-registries.yaml",
            Value::Object(sigstore),
            ss,
        ));
    }
    let mut by_ns: BTreeMap<String, (serde_json::Map<String, Value>, Vec<Src>)> = BTreeMap::new();
    for o in objects
        .iter()
        .filter(|o| is(o, "config.openshift.io", "ImagePolicy"))
    {
        let ns = o
            .root()
            .path(&["metadata", "namespace"])
            .and_then(Node::as_str)
            .unwrap_or("default")
            .to_string();
        let e = by_ns.entry(ns).or_default();
        e.0.insert(o.id.name.to_string(), fields_json(o.root(), &["/spec"]));
        e.1.push(src(o, "/spec"));
    }
    for (ns, (v, s)) in by_ns {
        files.push(file(
            &format!("/etc/crio/policies/{ns}.json"),
            Value::Object(v),
            s,
        ));
    }
    if let Some(img) = image {
        let search = image_sources(img, "containerRuntimeSearchRegistries");
        if !search.is_empty() {
            files.push(file(
                "/etc/containers/registries.conf.d/01-image-searchRegistries.conf",
                json!(search),
                vec![src(
                    img,
                    "/spec/registrySources/containerRuntimeSearchRegistries",
                )],
            ));
        }
    }
    Gen {
        files,
        units: Vec::new(),
    }
}

fn core_object<'a>(objects: &[&'a Object], kind: &str, name: &str) -> Option<&'a Object> {
    objects.iter().copied().find(|o| {
        o.id.group.is_empty()
            && o.id.kind == kind
            && o.id.name == name
            && o.id.namespace.as_deref() == Some("openshift-config")
    })
}

fn template_files(objects: &[&Object]) -> (Gen, Option<Item<String>>) {
    let mut files = Vec::new();
    let mut units = Vec::new();
    if let Some(ps) = core_object(objects, "Secret", "pull-secret") {
        files.push(file(
            "/var/lib/kubelet/config.json",
            fields_json(ps.root(), &["/data", "/stringData"]),
            vec![src(ps, "/data"), src(ps, "/stringData")],
        ));
    }
    let proxy = cfg(objects, "Proxy", "cluster");
    let trusted = proxy
        .and_then(|p| p.root().path(&["spec", "trustedCA", "name"]))
        .and_then(Node::as_str)
        .filter(|s| !s.is_empty());
    let mut ca = serde_json::Map::new();
    let mut ca_src = Vec::new();
    for name in ["user-ca-bundle"].into_iter().chain(trusted) {
        if let Some(cm) = core_object(objects, "ConfigMap", name) {
            ca.insert(
                name.to_string(),
                fields_json(cm.root(), &["/data/ca-bundle.crt"]),
            );
            ca_src.push(src(cm, "/data/ca-bundle.crt"));
        }
    }
    if let (Some(p), Some(_)) = (proxy, trusted) {
        ca.insert(
            "trustedCA".into(),
            fields_json(p.root(), &["/spec/trustedCA"]),
        );
        ca_src.push(src(p, "/spec/trustedCA"));
    }
    if !ca.is_empty() {
        files.push(file(
            "/etc/pki/ca-trust/source/anchors/openshift-config-user-ca-bundle.crt",
            Value::Object(ca),
            ca_src,
        ));
    }
    if let Some(p) = proxy {
        let env = fields_json(
            p.root(),
            &["/spec/httpProxy", "/spec/httpsProxy", "/spec/noProxy"],
        );
        let set = env.as_object().is_some_and(|m| !m.is_empty());
        let s = vec![
            src(p, "/spec/httpProxy"),
            src(p, "/spec/httpsProxy"),
            src(p, "/spec/noProxy"),
        ];
        files.push(file("/etc/mco/proxy.env", env, s.clone()));
        if set {
            for unit in ["crio.service", "kubelet.service", "rpm-ostreed.service"] {
                units.push(file(
                    unit,
                    json!({"dropins": [{"name": "10-mco-default-env.conf"}]}),
                    s.clone(),
                ));
            }
        }
    }
    let release = objects
        .iter()
        .find(|o| is(o, "config.openshift.io", "ClusterVersion") && o.id.name == "version")
        .and_then(|cv| {
            let du = cv.root().path(&["spec", "desiredUpdate"])?;
            let v = du.to_json();
            let version = v.get("version").and_then(Value::as_str);
            let image = v.get("image").and_then(Value::as_str);
            let text = match (version, image) {
                (_, Some(i)) if !i.is_empty() => i.to_string(),
                (Some(ver), _) => ver.to_string(),
                _ => v.to_string(),
            };
            Some(Item::new(text, src(cv, "/spec/desiredUpdate")))
        });
    (Gen { files, units }, release)
}

fn mc(name: String, pool: &str, g: Gen) -> Mc {
    Mc {
        name,
        labels: [(
            "machineconfiguration.openshift.io/role".to_string(),
            pool.to_string(),
        )]
        .into(),
        generated: true,
        config: McConfig {
            files: g.files,
            units: g.units,
            ..McConfig::default()
        },
    }
}

/// Every generated MachineConfig of one side, for every pool.
pub fn generate(objects: &[&Object], pools: &[Pool], m: Managed) -> Vec<Mc> {
    let mut out = Vec::new();
    let inputs = kubelet_inputs(objects);
    for p in pools {
        let n = &p.name;
        let (template, release) = template_files(objects);
        if !template.files.is_empty() || !template.units.is_empty() || release.is_some() {
            let mut t = mc(format!("00-{n}"), n, template);
            t.config.release = release;
            out.push(t);
        }
        if cfg(objects, "Node", "cluster").is_some() {
            let mut v = inputs.0.clone();
            if let Some(o) = v.as_object_mut() {
                o.insert("generator".into(), json!("97"));
            }
            out.push(mc(
                format!("97-{n}-generated-kubelet"),
                n,
                Gen {
                    files: vec![file("/etc/kubernetes/kubelet.conf", v, inputs.1.clone())],
                    units: Vec::new(),
                },
            ));
        }
        if cfg(objects, "FeatureGate", "cluster").is_some() {
            out.push(mc(
                format!("98-{n}-generated-kubelet"),
                n,
                Gen {
                    files: vec![file(
                        "/etc/kubernetes/kubelet.conf",
                        inputs.0.clone(),
                        inputs.1.clone(),
                    )],
                    units: Vec::new(),
                },
            ));
        }
        for (i, o) in selecting(objects, "KubeletConfig", p).iter().enumerate() {
            let name = suffixed(&format!("99-{n}-generated-kubelet"), i, o);
            out.push(mc(name, n, kubelet_files(o, &inputs)));
        }
        for (i, o) in selecting(objects, "ContainerRuntimeConfig", p)
            .iter()
            .enumerate()
        {
            let name = suffixed(&format!("99-{n}-generated-containerruntime"), i, o);
            out.push(mc(name, n, crio_files(o)));
        }
        let reg = registries_files(objects, m);
        if !reg.files.is_empty() {
            out.push(mc(format!("99-{n}-generated-registries"), n, reg));
        }
    }
    out.extend(super::tuned::generate(objects, pools));
    out
}
