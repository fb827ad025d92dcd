//! What nodecast knows about kinds: which are cluster-scoped, and which kinds exist in the API
//! groups it models (to catch typos such as `NodePools`).

/// API groups whose objects can reboot, drain, replace, add or remove nodes, or change what runs
/// on them (directly, or through what their operators render): a changed object of these groups
/// that no model judges is listed as "not yet modelled; assume a rollout".
pub const NODE_GROUPS: [&str; 17] = [
    "hypershift.openshift.io",
    "machineconfiguration.openshift.io",
    "config.openshift.io",
    "operator.openshift.io",
    // Node Tuning Operator: Tuned profiles ([bootloader] → a kernel-arguments MachineConfig).
    "tuned.openshift.io",
    // PerformanceProfile: renders a MachineConfig, a KubeletConfig and a Tuned.
    "performance.openshift.io",
    // Machine API and Cluster API: MachineSets, MachineDeployments, machines (scale, replace).
    "machine.openshift.io",
    "cluster.x-k8s.io",
    "infrastructure.cluster.x-k8s.io",
    // Cluster autoscaler: scale-down drains and removes nodes.
    "autoscaling.openshift.io",
    // SR-IOV node policies drain and reboot nodes; NMState reconfigures node networking.
    "sriovnetwork.openshift.io",
    "nmstate.io",
    // Kata containers install: a MachineConfig extension (reboot).
    "kataconfiguration.openshift.io",
    // Bare-metal hosts and agents: (re)provisioning.
    "metal3.io",
    "agent-install.openshift.io",
    // Hive MachinePools become MachineSets of the spoke cluster.
    "hive.openshift.io",
    // The GPU operator's driver upgrades drain nodes.
    "nvidia.com",
];

/// Whether objects of this kind can affect nodes (see [`NODE_GROUPS`]; core `Node` objects set
/// labels and taints that decide pool membership; ConfigMaps and Secrets feed NodePools and
/// generated MachineConfigs).
pub fn may_affect_nodes(group: &str, kind: &str) -> bool {
    NODE_GROUPS.contains(&group)
        || (group.is_empty() && matches!(kind, "Node" | "ConfigMap" | "Secret"))
        || crate::inventory::wrapped::is_wrapper(group, kind)
}

/// Whether a kind is an ACM `PolicyGenerator` configuration: the input of a Kustomize plugin
/// that generates Policies from the manifests it lists, never an object a cluster receives.
pub fn is_policy_generator(group: &str, kind: &str) -> bool {
    group == "policy.open-cluster-management.io" && kind == "PolicyGenerator"
}

/// API groups whose kinds nodecast knows completely enough to call an unknown kind a mistake.
pub const MODELLED_GROUPS: [(&str, &[&str]); 4] = [
    (
        "hypershift.openshift.io",
        &[
            "HostedCluster",
            "NodePool",
            "HostedControlPlane",
            "AWSEndpointService",
            "CertificateSigningRequestApproval",
            "HostedChangeManagementPolicy",
        ],
    ),
    (
        "machineconfiguration.openshift.io",
        &[
            "MachineConfig",
            "MachineConfigPool",
            "KubeletConfig",
            "ContainerRuntimeConfig",
            "ControllerConfig",
            "MachineConfigNode",
            "MachineOSConfig",
            "MachineOSBuild",
            "PinnedImageSet",
            "OSImageStream",
        ],
    ),
    (
        "config.openshift.io",
        &[
            "APIServer",
            "Authentication",
            "Build",
            "ClusterImagePolicy",
            "ClusterOperator",
            "ClusterVersion",
            "Console",
            "DNS",
            "FeatureGate",
            "Image",
            "ImageContentPolicy",
            "ImageDigestMirrorSet",
            "ImagePolicy",
            "ImageTagMirrorSet",
            "Infrastructure",
            "Ingress",
            "InsightsDataGather",
            "Network",
            "Node",
            "OAuth",
            "OperatorHub",
            "Project",
            "Proxy",
            "Scheduler",
            "ChangeManagementPolicy",
        ],
    ),
    (
        "operator.openshift.io",
        &[
            "MachineConfiguration",
            "ImageContentSourcePolicy",
            "Authentication",
            "CloudCredential",
            "ClusterCSIDriver",
            "Config",
            "Console",
            "CSISnapshotController",
            "DNS",
            "Etcd",
            "IngressController",
            "InsightsOperator",
            "KubeAPIServer",
            "KubeControllerManager",
            "KubeScheduler",
            "KubeStorageVersionMigrator",
            "Network",
            "OLM",
            "OpenShiftAPIServer",
            "OpenShiftControllerManager",
            "ServiceCA",
            "ServiceCatalogAPIServer",
            "ServiceCatalogControllerManager",
            "Storage",
        ],
    ),
];

/// Modelled groups that optional operators add kinds to (`operator.openshift.io/v1`
/// `KubeDescheduler`, `SecondaryScheduler`, `LeaderWorkerSetOperator`, `v1alpha1` `CertManager`,
/// `ZeroTrustWorkloadIdentityManager` …): a kind nodecast does not list there is a mistake only
/// when it reads as a typo of one it lists.
pub fn is_open_group(group: &str) -> bool {
    group == "operator.openshift.io"
}

/// Kinds optional operators add to `operator.openshift.io` (Red Hat's descheduler, secondary
/// scheduler, cert-manager, external secrets, run-once duration override, leader worker set and
/// zero trust workload identity operators): real kinds, even where one reads like a payload
/// kind's typo (`KubeDescheduler`, `KubeScheduler`).
pub const OPERATOR_ADDED_KINDS: &[&str] = &[
    "KubeDescheduler",
    "SecondaryScheduler",
    "CertManager",
    "IstioCSR",
    "TrustManager",
    "ExternalSecretsManager",
    "ExternalSecretsConfig",
    "RunOnceDurationOverride",
    "LeaderWorkerSetOperator",
    "ZeroTrustWorkloadIdentityManager",
    "SpireServer",
    "SpireAgent",
    "SpiffeCSIDriver",
    "SpireOIDCDiscoveryProvider",
];

/// Core and well-known kinds that have no namespace.
const CLUSTER_SCOPED: [&str; 24] = [
    "Namespace",
    "Node",
    "PersistentVolume",
    "ClusterRole",
    "ClusterRoleBinding",
    "CustomResourceDefinition",
    "StorageClass",
    "PriorityClass",
    "ValidatingWebhookConfiguration",
    "MutatingWebhookConfiguration",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding",
    "APIService",
    "IngressClass",
    "RuntimeClass",
    "CSIDriver",
    "CSINode",
    "VolumeAttachment",
    "SecurityContextConstraints",
    "ClusterResourceQuota",
    "Project",
    "User",
    "Group",
    "ManagedCluster",
];

/// The API group of an `apiVersion` (`""` for the core group).
pub fn group_of(api_version: &str) -> &str {
    api_version.rsplit_once('/').map(|(g, _)| g).unwrap_or("")
}

/// Whether every OpenShift cluster already holds the object (the installer creates it): the
/// cluster configuration singletons (`config.openshift.io`, named `cluster`; ClusterVersion
/// `version`) and the operators' (`operator.openshift.io`, named `cluster`; the default
/// IngressController). A manifest of one is applied onto the existing object, so it need not
/// repeat what the cluster already set (ClusterVersion's `spec.clusterID`).
pub fn always_exists(id: &super::ObjectId) -> bool {
    match id.group.as_str() {
        "config.openshift.io" => {
            id.name == "cluster" || (id.kind == "ClusterVersion" && id.name == "version")
        }
        "operator.openshift.io" => {
            id.name == "cluster"
                || (id.kind == "IngressController"
                    && id.name == "default"
                    && id.namespace.as_deref() == Some("openshift-ingress-operator"))
        }
        _ => false,
    }
}

/// Whether objects of this kind have no namespace, as the API server defines it.
///
/// `ChangeManagementPolicy` is namespaced in revisions 4–5 of the enhancement's API: it is kept
/// namespaced unless it is in `config.openshift.io` (the latest revision, cluster-scoped).
pub fn is_cluster_scoped(group: &str, kind: &str) -> bool {
    match group {
        "config.openshift.io" | "machineconfiguration.openshift.io" | "operator.openshift.io" => {
            true
        }
        "hypershift.openshift.io" => false,
        "hive.openshift.io" => matches!(
            kind,
            "SelectorSyncSet" | "ClusterImageSet" | "HiveConfig" | "SelectorSyncIdentityProvider"
        ),
        ""
        | "rbac.authorization.k8s.io"
        | "apiextensions.k8s.io"
        | "storage.k8s.io"
        | "scheduling.k8s.io"
        | "admissionregistration.k8s.io"
        | "apiregistration.k8s.io"
        | "networking.k8s.io"
        | "node.k8s.io"
        | "security.openshift.io"
        | "quota.openshift.io"
        | "project.openshift.io"
        | "user.openshift.io"
        | "cluster.open-cluster-management.io" => CLUSTER_SCOPED.contains(&kind),
        _ => false,
    }
}

/// The known kinds of a modelled group, or `None` when nodecast does not model the group.
pub fn known_kinds(group: &str) -> Option<&'static [&'static str]> {
    MODELLED_GROUPS
        .iter()
        .find(|(g, _)| *g == group)
        .map(|(_, kinds)| *kinds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes() {
        assert!(is_cluster_scoped(
            "machineconfiguration.openshift.io",
            "MachineConfig"
        ));
        assert!(is_cluster_scoped("", "Namespace"));
        assert!(!is_cluster_scoped("", "ConfigMap"));
        assert!(!is_cluster_scoped("hypershift.openshift.io", "NodePool"));
        assert!(!is_cluster_scoped("example.com", "Widget"));
        assert_eq!(group_of("v1"), "");
        assert_eq!(
            group_of("hypershift.openshift.io/v1beta1"),
            "hypershift.openshift.io"
        );
    }
}
