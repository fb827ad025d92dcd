//! NodePool OS stream findings beyond what the controller refuses (H108): runc drop-ins the
//! controller does not see, cross-major rebases, explicit defaults, OS changes caused by a release
//! upgrade, and fields the API server drops without the OSStreams gate
//! (`GetRHELStream` in HyperShift `hypershift-operator/controllers/nodepool/config.go`).

use crate::forecast::hypershift::codes;
use nodecast_yaml::Node;

use super::inputs::Side;
use super::locate::key_span;
use crate::diagnostic::{Diagnostic, Location, Severity};
use crate::forecast::boot_images::{self, Metadata};
use crate::forecast::streams;
use crate::forecast::Input;
use crate::inventory::clusters::nearest_above;
use crate::inventory::{Object, ReferenceKind};
use crate::parse::IgnitionSource;

const STREAM: &str = "/spec/osImageStream/name";

fn explicit<'a>(s: &'a Side<'_>) -> Option<&'a str> {
    s.np.root()
        .path(&["spec", "osImageStream", "name"])
        .and_then(Node::as_str)
}

/// The stream the NodePool's nodes run (explicit, or the version default).
pub fn effective(s: &Side<'_>) -> String {
    explicit(s)
        .unwrap_or_else(|| streams::nodepool_default(s.release.version(), s.uses_runc))
        .to_string()
}

fn at(s: &Side<'_>, pointer: &str) -> Location {
    s.np.head_location(key_span(s.np.root(), pointer))
}

fn in_place(s: &Side<'_>) -> bool {
    s.np.root()
        .path(&["spec", "management", "upgradeType"])
        .and_then(Node::as_str)
        == Some("InPlace")
}

fn os_name(stream: &str) -> String {
    match streams::rhel_major(stream) {
        Some(m) => format!("RHEL {m}"),
        None => stream.to_string(),
    }
}

/// Every stream finding of one NodePool revision (and its transition from base).
pub fn findings(input: &Input<'_>, b: Option<&Side<'_>>, h: &Side<'_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let np = h.np.id.to_string();
    runc_dropin(h, &np, &mut out);
    boot_image(input, h, &np, &mut out);
    gate(h, &np, &mut out);
    if let Some(b) = b {
        transitions(b, h, &np, &mut out);
    }
    out
}

/// A CRI-O drop-in in a `spec.config` MachineConfig that resolves `default_runtime` to runc,
/// with the data URL it comes from and the line inside the decoded file.
struct Dropin {
    file: String,
    path: String,
    span: nodecast_yaml::Span,
    line: usize,
    runtime: String,
    /// Written for a ContainerRuntimeConfig (HyperShift detects those itself: H108).
    from_ctrcfg: bool,
}

fn crio_dropins(h: &Side<'_>) -> Vec<Dropin> {
    let np_index = h.inv.first(&h.np.id);
    let mut out = Vec::new();
    let from_np = np_index
        .map(|i| h.inv.references_from(i))
        .unwrap_or_default();
    for r in from_np
        .iter()
        .filter(|r| r.kind == ReferenceKind::NodePoolConfig)
    {
        let Some(cm) = r.resolved.map(|i| &h.inv.objects[i]) else {
            continue;
        };
        for emb in cm.parsed().embedded.iter().filter(|e| e.key == "config") {
            for d in &emb.docs {
                let droot = d.doc.root();
                if droot.get("kind").and_then(Node::as_str) == Some("ContainerRuntimeConfig") {
                    if let Some(rt) = droot
                        .path(&["spec", "containerRuntimeConfig", "defaultRuntime"])
                        .and_then(Node::as_str)
                    {
                        // The MCO writes this drop-in for a ContainerRuntimeConfig.
                        out.push(Dropin {
                            file: cm.path.to_string(),
                            path: "/etc/crio/crio.conf.d/01-ctrcfg-defaultRuntime".into(),
                            span: droot.span(),
                            line: 1,
                            runtime: rt.to_string(),
                            from_ctrcfg: true,
                        });
                    }
                }
                for f in &d.ignition {
                    let Some(path) = d.ignition_path(f) else {
                        continue;
                    };
                    if !path.starts_with("/etc/crio/crio.conf.d/")
                        || f.source != IgnitionSource::Contents
                    {
                        continue;
                    }
                    let Some(bytes) = d.ignition_bytes(f) else {
                        continue;
                    };
                    let text = String::from_utf8_lossy(&bytes);
                    let Ok(table) = text.parse::<toml::Table>() else {
                        continue;
                    };
                    let Some(rt) = table
                        .get("crio")
                        .and_then(|c| c.get("runtime"))
                        .and_then(|r| r.get("default_runtime"))
                        .and_then(toml::Value::as_str)
                    else {
                        continue;
                    };
                    let line = text
                        .lines()
                        .position(|l| l.trim_start().starts_with("default_runtime"))
                        .map_or(1, |i| i + 1);
                    out.push(Dropin {
                        file: cm.path.to_string(),
                        path: path.to_string(),
                        span: d.ignition_span(f),
                        line,
                        runtime: rt.to_string(),
                        from_ctrcfg: false,
                    });
                }
            }
        }
    }
    // Lexical path order; the last drop-in that sets default_runtime wins.
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

fn runc_dropin(h: &Side<'_>, np: &str, out: &mut Vec<Diagnostic>) {
    let stream = effective(h);
    if !streams::lacks_runc(&stream) {
        return;
    }
    let Some(last) = crio_dropins(h).pop() else {
        return;
    };
    if last.runtime != "runc" || last.from_ctrcfg {
        return;
    }
    let how = if explicit(h).is_some() {
        "its osImageStream"
    } else {
        "the release default"
    };
    out.push(
        Diagnostic::new(
            &codes::S101,
            format!(
                "NodePool {} nodes will fail to run containers: {} sets CRI-O default_runtime = \"runc\" on {} ({how}), which has no runc",
                h.np.id.name, last.path, stream
            ),
            Location::head(&last.file, last.span),
        )
        .label(format!("line {} of the decoded file: default_runtime = \"runc\"", last.line))
        .help("remove the runc drop-in (crun is the default), or pin spec.osImageStream.name: rhel-9 on this NodePool")
        .note("HyperShift detects runc only in ContainerRuntimeConfig documents, not in MachineConfig drop-ins: the controller accepts the NodePool and the nodes fail later")
        .note("drop-ins under /etc/crio/crio.conf.d/ apply in lexical path order; the last default_runtime wins")
        .object(np),
    );
}

fn gate(h: &Side<'_>, np: &str, out: &mut Vec<Diagnostic>) {
    let (Some(name), Some(hc)) = (explicit(h), h.hc) else {
        return;
    };
    let Some(g) = streams::gate("OSStreams") else {
        return;
    };
    let fg = hc.root().path(&["spec", "configuration", "featureGate"]);
    let set = fg
        .and_then(|f| f.get("featureSet"))
        .and_then(Node::as_str)
        .unwrap_or("");
    let custom: Vec<&str> = fg
        .and_then(|f| f.path(&["customNoUpgrade", "enabled"]))
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter_map(Node::as_str)
        .collect();
    let release = h.hc_release.version();
    if streams::gate_enabled(g, set, &custom, release) {
        return;
    }
    out.push(
        Diagnostic::new(
            &codes::S105,
            format!(
                "NodePool {} osImageStream `{name}` is dropped by the API server: {} requires the {} feature gate, which HostedCluster {} (feature set {}, release {}) does not enable",
                h.np.id.name,
                g.fields,
                g.name,
                hc.id.name,
                if set.is_empty() { "Default" } else { set },
                h.hc_release.describe()
            ),
            at(h, "/spec/osImageStream"),
        )
        .label("field unknown to the Default NodePool CRD")
        .help(format!(
            "remove spec.osImageStream until the release enables {} by default ({}.{}), or enable the gate through the HostedCluster's feature set",
            g.name, g.default_from.0, g.default_from.1
        ))
        .note("the field is pruned on admission, so the NodePool keeps the release default stream")
        .object(np),
    );
}

fn transitions(b: &Side<'_>, h: &Side<'_>, np: &str, out: &mut Vec<Diagnostic>) {
    let (be, he) = (effective(b), effective(h));
    let (bx, hx) = (explicit(b), explicit(h));
    if let Some(name) = hx {
        let default = streams::nodepool_default(h.release.version(), h.uses_runc);
        if bx.is_none() && name == default && be == name {
            out.push(
                Diagnostic::new(
                    &codes::S103,
                    format!(
                        "NodePool {} osImageStream `{name}` is the default for release {}: no rollout",
                        h.np.id.name,
                        h.release.describe()
                    ),
                    at(h, STREAM),
                )
                .label("equals the release default")
                .help("nothing to do; the pin keeps the NodePool on this stream across later upgrades")
                .note("the config hash normalises an explicit default to \"\", so the hash does not change")
                .object(np),
            );
        }
    }
    if be == he || streams::rhel_major(&be) == streams::rhel_major(&he) {
        return;
    }
    let change = format!("{} → {}", os_name(&be), os_name(&he));
    if bx != hx {
        if in_place(h) {
            out.push(
                Diagnostic::new(
                    &codes::S102,
                    format!(
                        "NodePool {} rebases its existing nodes {change} in place, with no way back",
                        h.np.id.name
                    ),
                    at(h, STREAM),
                )
                .label("cross-major OS change on an InPlace NodePool")
                .help("prefer a new Replace NodePool on the new stream and move the workload; a downgrade or removal of osImageStream is rejected afterwards")
                .note("existing RHEL 9 boot disks stay and are rebased to the new OS image; in disconnected clusters both streams' images must be mirrored")
                .object(np),
            );
        }
        return;
    }
    if hx.is_some() {
        return;
    }
    let mut d = Diagnostic::new(
        &codes::S104,
        format!(
            "NodePool {} moves its nodes {change}: release {} → {} changes the default OS stream and the NodePool pins none",
            h.np.id.name,
            b.release.describe(),
            h.release.describe()
        ),
        at(h, "/spec/release/image"),
    )
    .label(format!("default stream {be} → {he}"))
    .help(format!(
        "to stay on {}, pin `spec.osImageStream.name: {be}` in the same change; otherwise test workloads on {} first",
        os_name(&be),
        os_name(&he)
    ))
    .object(np);
    if in_place(h) {
        d = d.note(
            "InPlace: the existing nodes are rebased across OS majors in place, with no way back",
        );
    } else {
        d = d.note("Replace: new machines boot the new stream's boot image");
    }
    out.push(d.severity(Severity::Warning));
}

/// The boot image metadata: `--stream-metadata`, else the repository's `coreos-bootimages` for
/// this NodePool ([`repository_metadata`]).
fn metadata(input: &Input<'_>, h: &Side<'_>) -> Option<(Metadata, String)> {
    if let Some(m) = &input.settings.stream_metadata {
        return Some(((*m).clone(), "--stream-metadata".into()));
    }
    repository_metadata(h)
        .and_then(|o| Metadata::from_value(&o.root().to_json()).map(|m| (m, o.path.to_string())))
}

/// Which of the repository's `coreos-bootimages` ConfigMaps speaks for a NodePool: a fleet keeps
/// one per management cluster or release, so the first of the repository judged every NodePool
/// by another cluster's regions (a missed S107, or a false one). The only one present on this
/// side; else, among those of the NodePool's own scope (unit, overlay, wrapper) if any, the one
/// in the nearest folder holding the NodePool's; else the one they all agree with. Several that
/// disagree with none nearer say nothing: which release's metadata applies is unknown.
fn repository_metadata<'a>(h: &Side<'a>) -> Option<&'a Object> {
    let all: Vec<&Object> = h
        .inv
        .named(
            "",
            "ConfigMap",
            Some("openshift-machine-config-operator"),
            "coreos-bootimages",
        )
        .collect();
    if let [one] = all.as_slice() {
        return Some(one);
    }
    let own: Vec<&Object> = all
        .iter()
        .copied()
        .filter(|o| o.id.scope == h.np.id.scope)
        .collect();
    let candidates = if own.is_empty() { &all } else { &own };
    if let [one] = candidates.as_slice() {
        return Some(one);
    }
    if let Some(o) = nearest_above(&h.np.path, candidates.iter().copied()) {
        return Some(o);
    }
    let data = |o: &Object| o.root().get("data").map(Node::to_json);
    let first = all.first()?;
    all.iter().all(|o| data(o) == data(first)).then_some(*first)
}

fn boot_image(input: &Input<'_>, h: &Side<'_>, np: &str, out: &mut Vec<Diagnostic>) {
    let root = h.np.root();
    let platform = root
        .path(&["spec", "platform", "type"])
        .and_then(Node::as_str)
        .unwrap_or("");
    // A NodePool that names its own image does not use the release's boot images.
    if root.path(&["spec", "platform", "aws", "ami"]).is_some()
        || root.path(&["spec", "platform", "azure", "image"]).is_some()
    {
        return;
    }
    let Some((meta, from)) = metadata(input, h) else {
        return;
    };
    let region_key = match platform {
        "AWS" => Some(["spec", "platform", "aws", "region"]),
        "PowerVS" => Some(["spec", "platform", "powervs", "region"]),
        _ => None,
    };
    let region = region_key.and_then(|k| {
        h.hc.and_then(|hc| hc.root().path(&k))
            .and_then(Node::as_str)
    });
    let stream = effective(h);
    let arch = boot_images::coreos_arch(root.path(&["spec", "arch"]).and_then(Node::as_str));
    let Some(why) = meta.missing(&boot_images::Target {
        stream: &stream,
        arch,
        platform,
        region,
    }) else {
        return;
    };
    let pointer = if explicit(h).is_some() {
        STREAM
    } else {
        "/spec/release/image"
    };
    let mut d = Diagnostic::new(
        &codes::S107,
        format!(
            "NodePool {} gets no machines: {why}",
            h.np.id.name
        ),
        at(h, pointer),
    )
    .label(format!("selects the {stream} boot image"))
    .help("choose a stream, architecture or region the release ships boot images for, or set an explicit image on the NodePool's platform")
    .note(format!("the controller sets ValidPlatformImage=False and creates no machines (boot image metadata from {from})"))
    .object(np);
    if let (Some(hc), Some(k)) = (h.hc, region_key) {
        d = d.related(
            hc.head_location(key_span(hc.root(), &format!("/{}", k.join("/")))),
            "the HostedCluster's region",
        );
    }
    out.push(d);
}
