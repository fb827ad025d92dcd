//! Machine-template inputs per platform (trigger B) and the MachineDeployment failure domain
//! (per platform, HyperShift `hypershift-operator/controllers/nodepool/<platform>.go`).

use nodecast_yaml::Node;

/// Where one platform's template comes from.
pub struct PlatformTemplate {
    /// `spec.platform.<key>` of the NodePool.
    pub key: &'static str,
    /// Fields under it that are not in the template (applied in place or elsewhere).
    pub excluded: &'static [&'static str],
    /// Fields under it that go to the MachineDeployment `failureDomain` instead.
    pub failure_domain: &'static [&'static str],
    /// NodePool annotations that feed the template.
    pub np_annotations: &'static [&'static str],
    /// HostedCluster annotations that feed the template.
    pub hc_annotations: &'static [&'static str],
    /// HostedCluster fields (JSON pointers) that feed the template.
    pub hc_fields: &'static [&'static str],
}

const KUBEVIRT_PATCH: &str = "hypershift.openshift.io/kubevirt-vm-jsonpatch";

/// The template sources of a platform type, or `None` when the platform manages no machines.
pub fn platform(platform_type: &str) -> Option<PlatformTemplate> {
    Some(match platform_type {
        "AWS" => PlatformTemplate {
            key: "aws",
            excluded: &["resourceTags"],
            failure_domain: &[],
            np_annotations: &["hypershift.openshift.io/ec2-instance-metadata-http-tokens"],
            hc_annotations: &["hypershift.openshift.io/aws-machine-public-ips"],
            hc_fields: &[],
        },
        "Azure" => PlatformTemplate {
            key: "azure",
            excluded: &[],
            failure_domain: &[],
            np_annotations: &[],
            hc_annotations: &[],
            hc_fields: &[
                "/spec/platform/azure/containerRegistry/credentials/managedIdentity/resourceID",
            ],
        },
        "KubeVirt" => PlatformTemplate {
            key: "kubevirt",
            excluded: &[],
            failure_domain: &[],
            np_annotations: &[
                KUBEVIRT_PATCH,
                "hypershift.openshift.io/nodepool-supports-kubevirt-topology-spread-constraints",
            ],
            hc_annotations: &[KUBEVIRT_PATCH],
            hc_fields: &[],
        },
        "Agent" => PlatformTemplate {
            key: "agent",
            excluded: &[],
            failure_domain: &[],
            np_annotations: &[],
            hc_annotations: &[],
            hc_fields: &[],
        },
        "PowerVS" => PlatformTemplate {
            key: "powervs",
            excluded: &["storageType", "imageDeletePolicy"],
            failure_domain: &[],
            np_annotations: &[],
            hc_annotations: &[],
            hc_fields: &[
                "/spec/platform/powervs/serviceInstanceID",
                "/spec/platform/powervs/subnet",
                "/spec/platform/powervs/region",
            ],
        },
        "OpenStack" => PlatformTemplate {
            key: "openstack",
            excluded: &[],
            failure_domain: &["availabilityZone"],
            np_annotations: &[],
            hc_annotations: &[],
            hc_fields: &[],
        },
        "GCP" => PlatformTemplate {
            key: "gcp",
            excluded: &["resourceLabels"],
            failure_domain: &["zone"],
            np_annotations: &[],
            hc_annotations: &[],
            hc_fields: &[],
        },
        _ => return None,
    })
}

/// JSON-pointer escaping of one key.
pub fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Follows a JSON pointer of mapping keys.
pub fn at<'a>(root: Node<'a>, pointer: &str) -> Option<Node<'a>> {
    pointer
        .split('/')
        .skip(1)
        .map(|k| k.replace("~1", "/").replace("~0", "~"))
        .try_fold(root, |n, k| n.get(&k))
}

/// The NodePool's template fields (platform section minus exclusions and failure-domain fields),
/// as canonical JSON.
pub fn np_template(np: Node<'_>, t: &PlatformTemplate) -> String {
    let mut v = np
        .path(&["spec", "platform", t.key])
        .map(Node::to_json)
        .unwrap_or(serde_json::Value::Null);
    if let Some(m) = v.as_object_mut() {
        for k in t.excluded.iter().chain(t.failure_domain) {
            m.remove(*k);
        }
    }
    let mut parts = vec![super::normalise::pruned(&v)
        .map(|v| super::normalise::canonical(&v))
        .unwrap_or_default()];
    for a in t.np_annotations {
        parts.push(annotation(np, a).unwrap_or_default().to_string());
    }
    parts.join("\n")
}

/// The failure-domain fields as canonical JSON.
pub fn failure_domain(np: Node<'_>, t: &PlatformTemplate) -> String {
    t.failure_domain
        .iter()
        .map(|k| super::normalise::field(np.path(&["spec", "platform", t.key, k])))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The HostedCluster's contribution to the template, as canonical JSON.
pub fn hc_template(hc: Node<'_>, t: &PlatformTemplate) -> String {
    let mut parts: Vec<String> = t
        .hc_annotations
        .iter()
        .map(|a| annotation(hc, a).unwrap_or_default().to_string())
        .collect();
    parts.extend(
        t.hc_fields
            .iter()
            .map(|p| super::normalise::field(at(hc, p))),
    );
    parts.join("\n")
}

/// An annotation's string value.
pub fn annotation<'a>(root: Node<'a>, name: &str) -> Option<&'a str> {
    root.path(&["metadata", "annotations"])?
        .get(name)?
        .key_text()
}
