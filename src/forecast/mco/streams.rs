//! OS streams of MachineConfigPools (`spec.osImageStream`, checked against the cluster's `OSImageStream`):
//! the effective stream of each pool (its own, the worker pool's for custom pools, the cluster
//! default), the reboot a stream change causes, and the findings about stream names and the
//! MachineSets that boot them.

use crate::forecast::mco::codes;
use nodecast_yaml::Node;
use semver::Version;

use super::config::Src;
use super::pool::Pool;
use super::scope::Scope;
use super::side::SideModel;
use crate::diagnostic::{Diagnostic, Location};
use crate::forecast::streams;
use crate::inventory::Object;
use crate::text::is_dns_subdomain;

const MC_GROUP: &str = "machineconfiguration.openshift.io";

fn find<'a>(objects: &[&'a Object], group: &str, kind: &str, name: &str) -> Option<&'a Object> {
    objects
        .iter()
        .copied()
        .find(|o| o.id.group == group && o.id.kind == kind && o.id.name == name)
}

/// `OSImageStream/cluster`, when the repository holds it.
pub fn os_image_stream<'a>(objects: &[&'a Object]) -> Option<&'a Object> {
    find(objects, MC_GROUP, "OSImageStream", "cluster")
}

/// The version the cluster was installed with: the oldest completed ClusterVersion history entry.
fn install_version(objects: &[&Object]) -> Option<Version> {
    let cv = find(objects, "config.openshift.io", "ClusterVersion", "version")?;
    cv.root()
        .path(&["status", "history"])
        .and_then(Node::as_seq)?
        .iter()
        .rev()
        .filter(|h| h.get("state").and_then(Node::as_str) == Some("Completed"))
        .find_map(|h| h.get("version").and_then(Node::key_text))
        .and_then(|v| Version::parse(v).ok())
}

fn okd(objects: &[&Object]) -> bool {
    find(objects, "config.openshift.io", "FeatureGate", "cluster")
        .and_then(|f| f.root().path(&["spec", "featureSet"]))
        .and_then(Node::as_str)
        == Some("OKD")
}

/// The cluster default stream and the field that sets it (None: the MCO's built-in default).
pub fn cluster_default(objects: &[&Object]) -> (String, Option<Src>) {
    if let Some(o) = os_image_stream(objects) {
        for pointer in ["/spec/defaultStream", "/status/defaultStream"] {
            let keys: Vec<&str> = pointer.split('/').skip(1).collect();
            if let Some(name) = o.root().path(&keys).and_then(Node::as_str) {
                return (
                    name.to_string(),
                    Some(Src {
                        object: o.id.clone(),
                        pointer: pointer.into(),
                    }),
                );
            }
        }
    }
    let builtin = streams::mco_builtin_default(install_version(objects).as_ref(), okd(objects));
    (builtin.to_string(), None)
}

/// The stream a pool's nodes run and the field that decides it: the pool's own name, the worker
/// pool's for custom pools (`GetEffectiveOSImageStreamName`), else the cluster default.
pub fn effective(side: &SideModel<'_>, p: &Pool) -> (String, Option<Src>) {
    if let Some((name, src)) = super::side::effective_stream(side, p) {
        return (name, Some(src));
    }
    cluster_default(&side.objects)
}

/// The pool's stream change between base and head, when its effective stream differs: an OS
/// image change, which always reboots and drains.
pub fn change(
    base: &SideModel<'_>,
    head: &SideModel<'_>,
    p: &Pool,
) -> Option<super::decide::Reason> {
    let base_pool = base.pools.iter().find(|b| b.name == p.name)?;
    let (from, bsrc) = effective(base, base_pool);
    let (to, hsrc) = effective(head, p);
    if from == to {
        return None;
    }
    let mut srcs = Vec::new();
    if let Some(s) = hsrc {
        srcs.push((crate::diagnostic::Side::Head, s));
    }
    if let Some(s) = bsrc {
        srcs.push((crate::diagnostic::Side::Base, s));
    }
    let offered = os_image_stream(&head.objects)
        .map(available)
        .filter(|a| !a.is_empty())
        .is_none_or(|a| a.contains(&to));
    let caveat = if offered {
        ""
    } else {
        " (OSImageStream/cluster does not offer it yet: admission denies the pool until it does, see S106)"
    };
    Some(super::decide::Reason {
        summary: format!(
            "OS stream {from} → {to}: a new OS image → Reboot (an OS update always reboots){caveat}"
        ),
        srcs,
    })
}

fn available(o: &Object) -> Vec<String> {
    o.root()
        .path(&["status", "availableStreams"])
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter_map(|s| s.get("name").and_then(Node::as_str).map(str::to_string))
        .collect()
}

fn value_at(o: &Object, keys: &[&str]) -> Location {
    let span = o
        .root()
        .path(keys)
        .map(|n| n.span())
        .unwrap_or_else(|| super::config::locate(o.root(), &format!("/{}", keys.join("/"))));
    o.head_location(span)
}

/// Findings about stream names (S106), MachineSets (S113, S114) and boot image management
/// platforms (S108) of one cluster's head; `assumed` is the configured platform.
pub fn lint(
    scope: &Scope<'_>,
    head: &SideModel<'_>,
    assumed: Option<&str>,
    out: &mut Vec<Diagnostic>,
) {
    boot_image_platforms(head, assumed, out);
    let ois = os_image_stream(&head.objects);
    let names = ois.map(available).filter(|a| !a.is_empty());
    let mut check = |o: &Object, keys: &[&str], what: String| {
        let Some(name) = o.root().path(keys).and_then(Node::as_str) else {
            return;
        };
        let problem = if !is_dns_subdomain(name) {
            Some(format!("`{name}` is not a valid stream name (lowercase RFC 1123 subdomain, 1–253 characters), so the API server rejects it"))
        } else {
            names
                .as_ref()
                .filter(|n| !n.iter().any(|x| x == name))
                .map(|n| format!("`{name}` is not an available stream of OSImageStream/cluster ({}), so admission denies it", n.join(", ")))
        };
        if let Some(problem) = problem {
            out.push(
                Diagnostic::new(
                    &codes::S106,
                    format!("{what}: {problem}"),
                    value_at(o, keys),
                )
                .label("unknown OS stream")
                .help(match &names {
                    Some(n) => format!("use one of: {}", n.join(", ")),
                    None => {
                        "use a stream the release ships: rhel-9, rhel-10 (centos-10 on OKD)".into()
                    }
                })
                .object(o.id.to_string()),
            );
        }
    };
    for p in &head.pools {
        if let Some(o) = p.object.as_ref().and_then(|id| scope.head.get(id)) {
            check(
                o,
                &["spec", "osImageStream", "name"],
                format!("pool `{}` gets no new configuration", p.name),
            );
        }
    }
    if let Some(o) = ois {
        check(
            o,
            &["spec", "defaultStream"],
            "OSImageStream/cluster is rejected".into(),
        );
    }
    machine_sets(head, out);
}

const STREAM_LABEL: &str = "machineconfiguration.openshift.io/osstream";

fn labels(n: Option<Node<'_>>) -> Vec<(&str, &str)> {
    n.and_then(Node::as_map)
        .unwrap_or_default()
        .iter()
        .filter_map(|e| Some((e.key.as_str()?, e.value.key_text().unwrap_or(""))))
        .collect()
}

/// The pool whose nodes a MachineSet's machines become (`node-role.kubernetes.io/<pool>` in
/// the template's node labels; worker otherwise).
fn pool_of<'a>(ms: &Object, pools: &'a [Pool]) -> Option<&'a Pool> {
    let node_labels = labels(
        ms.root()
            .path(&["spec", "template", "spec", "metadata", "labels"]),
    );
    let role = node_labels
        .iter()
        .filter_map(|(k, _)| k.strip_prefix("node-role.kubernetes.io/"))
        .find(|r| *r != "worker")
        .unwrap_or("worker");
    pools.iter().find(|p| p.name == role)
}

fn machine_sets(head: &SideModel<'_>, out: &mut Vec<Diagnostic>) {
    let (default, _) = cluster_default(&head.objects);
    let mc = super::side::machine_configuration(&head.objects);
    let managers: Vec<Node<'_>> = mc
        .and_then(|m| {
            m.root()
                .path(&["spec", "managedBootImages", "machineManagers"])
                .and_then(Node::as_seq)
        })
        .unwrap_or_default()
        .iter()
        .filter(|mm| mm.get("resource").and_then(Node::as_str) == Some("machinesets"))
        .collect();
    // Whether boot image management selects this MachineSet (All, or a Partial selector on its labels).
    let opted_in = |ms: &Object| {
        let labels = super::selector::labels_of(ms.root());
        managers.iter().any(
            |mm| match mm.path(&["selection", "mode"]).and_then(Node::as_str) {
                Some("All") => true,
                Some("Partial") => mm
                    .path(&["selection", "partial", "machineResourceSelector"])
                    .and_then(|n| super::selector::parse(n).ok())
                    .is_some_and(|sel| sel.matches(&labels)),
                _ => false,
            },
        )
    };
    for ms in head
        .objects
        .iter()
        .filter(|o| o.id.group == "machine.openshift.io" && o.id.kind == "MachineSet")
    {
        let own = labels(ms.root().path(&["metadata", "labels"]));
        if let Some(p) = pool_of(ms, &head.pools) {
            let (stream, _) = effective(head, p);
            if stream != default && !own.iter().any(|(k, _)| *k == STREAM_LABEL) {
                out.push(
                    Diagnostic::new(
                        &codes::S113,
                        format!(
                            "MachineSet {} boots nodes for pool `{}` on {stream}, but has no `{STREAM_LABEL}` label: boot image management treats it as {default} and rewrites its boot image",
                            ms.id.name, p.name
                        ),
                        value_at(ms, &["metadata", "name"]),
                    )
                    .label("no osstream label")
                    .help(format!("add the label `{STREAM_LABEL}: {stream}` to the MachineSet's metadata.labels"))
                    .object(ms.id.to_string()),
                );
            }
        }
        let owned = ms
            .root()
            .path(&["metadata", "ownerReferences"])
            .and_then(Node::as_seq)
            .is_some_and(|s| !s.is_empty());
        if owned && opted_in(ms) {
            out.push(
                Diagnostic::new(
                    &codes::S114,
                    format!(
                        "MachineSet {} has an owner reference: boot image management skips it although MachineSets are opted in",
                        ms.id.name
                    ),
                    ms.head_location(super::config::locate(ms.root(), "/metadata/ownerReferences")),
                )
                .label("owned MachineSet")
                .help("update its boot image through its owner, or remove the owner reference if the MachineSet is managed here")
                .object(ms.id.to_string()),
            );
        }
    }
}

/// Platforms whose MachineSets the boot image controller updates (VAP `update-bootimages`).
const MACHINESET_PLATFORMS: [&str; 4] = ["AWS", "GCP", "VSphere", "Azure"];
/// Platforms whose ControlPlaneMachineSets it updates (VAP `update-bootimages-cpms`).
const CPMS_PLATFORMS: [&str; 3] = ["AWS", "GCP", "Azure"];

/// The cluster's platform: `Infrastructure/cluster`, else the configured one.
fn platform<'a>(head: &SideModel<'a>, assumed: Option<&'a str>) -> Option<(&'a str, bool)> {
    find(
        &head.objects,
        "config.openshift.io",
        "Infrastructure",
        "cluster",
    )
    .and_then(|i| {
        let r = i.root();
        r.path(&["status", "platformStatus", "type"])
            .or_else(|| r.path(&["status", "platform"]))
            .or_else(|| r.path(&["spec", "platformSpec", "type"]))
            .and_then(Node::as_str)
    })
    .map(|p| (p, false))
    .or(assumed.map(|p| (p, true)))
}

fn boot_image_platforms(head: &SideModel<'_>, assumed: Option<&str>, out: &mut Vec<Diagnostic>) {
    let Some(mc) = super::side::machine_configuration(&head.objects) else {
        return;
    };
    let Some((platform, is_assumed)) = platform(head, assumed) else {
        return;
    };
    let list = mc
        .root()
        .path(&["spec", "managedBootImages", "machineManagers"])
        .and_then(Node::as_seq)
        .unwrap_or_default();
    for (i, m) in list.iter().enumerate() {
        let resource = m.get("resource").and_then(Node::as_str).unwrap_or("");
        let mode = m.path(&["selection", "mode"]).and_then(Node::as_str);
        let supported: &[&str] = match resource {
            "machinesets" => &MACHINESET_PLATFORMS,
            "controlplanemachinesets" => &CPMS_PLATFORMS,
            _ => continue,
        };
        if !matches!(mode, Some("All") | Some("Partial")) || supported.contains(&platform) {
            continue;
        }
        let source = if is_assumed {
            "the configured `platform`"
        } else {
            "Infrastructure/cluster"
        };
        out.push(
            Diagnostic::new(
                &codes::S108,
                format!(
                    "MachineConfiguration {} is rejected: boot image updates for {resource} are not supported on platform {platform} (only {})",
                    mc.id.name,
                    supported.join(", ")
                ),
                mc.head_location(super::config::locate(
                    mc.root(),
                    &format!("/spec/managedBootImages/machineManagers/{i}"),
                )),
            )
            .label("unsupported platform")
            .help("remove the entry, or set its selection mode to None")
            .note(format!("platform {platform} from {source}; admission policy update-bootimages denies the object"))
            .object(mc.id.to_string()),
        );
    }
}
