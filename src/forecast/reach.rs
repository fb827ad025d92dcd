//! Which kinds of the node-deciding API groups can reach nodes at all. `config.openshift.io` and
//! `operator.openshift.io` hold the MCO's inputs (APIServer TLS, Image, Proxy, Network, Node,
//! FeatureGate …) but also kinds whose operators only run pods; calling every one of those
//! "not modelled: assume a rollout" teaches users to ignore the list. Kinds named here are
//! read by no node-side controller (the MCO, the Node Tuning Operator, HyperShift's NodePool
//! controller), with the reason; every other kind of those groups is assumed to reach nodes.

/// Why a kind of a node-deciding group cannot change what nodes run, when it cannot.
pub fn cannot_reach_nodes(group: &str, kind: &str) -> Option<&'static str> {
    const CONTROL_PLANE: &str = "its operator rolls control-plane pods revision by revision; no MachineConfig, kubelet or node setting is derived from it";
    Some(match (group, kind) {
        ("config.openshift.io", "OAuth") => {
            "it configures the OAuth server's identity providers and tokens (oauth-openshift pods); no node-side controller reads it"
        }
        ("config.openshift.io", "Authentication") => {
            "it configures API authentication (kube-apiserver and oauth pods); no node-side controller reads it"
        }
        ("config.openshift.io", "Console") | ("operator.openshift.io", "Console") => {
            "it configures the web console's pods and routes; no node-side controller reads it"
        }
        ("config.openshift.io", "Ingress") => {
            "it sets the cluster's ingress domain and route defaults (router pods); no node-side controller reads it"
        }
        ("config.openshift.io", "DNS") => {
            "it describes the cluster's DNS zones for the ingress operator; no node-side controller reads it"
        }
        ("config.openshift.io", "Scheduler") => {
            "it configures the kube-scheduler's profile (control-plane pods); no MachineConfig or kubelet setting is derived from it"
        }
        ("config.openshift.io", "Project") => {
            "it sets the project request template (API objects only)"
        }
        ("config.openshift.io", "Build") => "it sets defaults for build pods",
        ("config.openshift.io", "OperatorHub") => {
            "it enables or disables catalog sources (operator catalog pods)"
        }
        ("config.openshift.io", "InsightsDataGather") => {
            "it configures what the Insights operator gathers"
        }
        ("config.openshift.io", "ClusterOperator") => "it is the status an operator reports",
        ("operator.openshift.io", "IngressController") => {
            "it configures router pods; their node placement moves pods, not node configuration"
        }
        ("operator.openshift.io", "Authentication") => {
            "it configures the oauth-openshift and oauth-apiserver pods"
        }
        ("operator.openshift.io", "DNS") => {
            "it configures CoreDNS pods and their placement; no MachineConfig or kubelet setting is derived from it"
        }
        ("operator.openshift.io", "KubeAPIServer")
        | ("operator.openshift.io", "KubeControllerManager")
        | ("operator.openshift.io", "KubeScheduler")
        | ("operator.openshift.io", "OpenShiftAPIServer")
        | ("operator.openshift.io", "OpenShiftControllerManager")
        | ("operator.openshift.io", "Etcd") => CONTROL_PLANE,
        ("operator.openshift.io", "ServiceCA") => "it configures the service CA controller's pods",
        ("operator.openshift.io", "CloudCredential") => {
            "it sets how cloud credentials are minted for operators"
        }
        ("operator.openshift.io", "Storage")
        | ("operator.openshift.io", "ClusterCSIDriver")
        | ("operator.openshift.io", "CSISnapshotController") => {
            "it configures storage operator and CSI driver pods"
        }
        ("operator.openshift.io", "KubeStorageVersionMigrator") => {
            "it configures the storage version migrator's pods"
        }
        ("operator.openshift.io", "InsightsOperator") => "it configures the Insights operator",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::cannot_reach_nodes;

    #[test]
    fn the_mcos_inputs_are_never_called_harmless() {
        for (group, kind) in [
            ("config.openshift.io", "APIServer"),
            ("config.openshift.io", "Image"),
            ("config.openshift.io", "Proxy"),
            ("config.openshift.io", "Network"),
            ("config.openshift.io", "Node"),
            ("config.openshift.io", "FeatureGate"),
            ("config.openshift.io", "ClusterVersion"),
            ("config.openshift.io", "ImageDigestMirrorSet"),
            ("operator.openshift.io", "Network"),
            ("operator.openshift.io", "MachineConfiguration"),
            ("operator.openshift.io", "ImageContentSourcePolicy"),
            ("operator.openshift.io", "SomethingNew"),
        ] {
            assert_eq!(cannot_reach_nodes(group, kind), None, "{kind}");
        }
        assert!(cannot_reach_nodes("operator.openshift.io", "IngressController").is_some());
        assert!(cannot_reach_nodes("config.openshift.io", "OAuth").is_some());
    }
}
