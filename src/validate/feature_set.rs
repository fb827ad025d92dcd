//! Which feature-set variant of a CRD applies to an object: `--feature-set`, else the
//! HostedCluster's `spec.configuration.featureGate.featureSet` for HyperShift objects, else the
//! cluster FeatureGate's `spec.featureSet`, else Default.

use crate::inventory::{Inventory, Object};

/// Decides the feature set per object.
pub struct Resolver {
    forced: Option<String>,
    cluster: Option<String>,
    hosted: Vec<(String, String, String)>,
}

/// The bundled variant that matches an OpenShift feature set (the preview and custom sets enable
/// at least what TechPreviewNoUpgrade enables, so its CRDs are the closest bundled variant).
pub fn variant(feature_set: &str) -> String {
    match feature_set {
        "" | "Default" | "LatencySensitive" => "Default".into(),
        "TechPreviewNoUpgrade" | "DevPreviewNoUpgrade" | "CustomNoUpgrade" => {
            "TechPreviewNoUpgrade".into()
        }
        other => other.into(),
    }
}

impl Resolver {
    /// Reads the feature sets the head revision declares.
    pub fn new(head: &Inventory, forced: Option<&str>) -> Self {
        let cluster = head
            .of_kind("config.openshift.io", "FeatureGate")
            .find(|o| o.id.name == "cluster")
            .and_then(|o| o.root().path(&["spec", "featureSet"]))
            .and_then(|n| n.as_str())
            .map(variant);
        let hosted = head
            .of_kind("hypershift.openshift.io", "HostedCluster")
            .map(|o| {
                let set = o
                    .root()
                    .path(&["spec", "configuration", "featureGate", "featureSet"])
                    .and_then(|n| n.as_str())
                    .map(variant)
                    .unwrap_or_else(|| "Default".into());
                (
                    o.id.namespace.clone().unwrap_or_default(),
                    o.id.name.clone(),
                    set,
                )
            })
            .collect();
        Resolver {
            forced: forced.map(variant),
            cluster,
            hosted,
        }
    }

    /// The variant for one object.
    pub fn for_object(&self, object: &Object) -> String {
        if let Some(f) = &self.forced {
            return f.clone();
        }
        if object.id.group == "hypershift.openshift.io" {
            let ns = object.id.namespace.clone().unwrap_or_default();
            let cluster = match object.id.kind.as_str() {
                "NodePool" => object
                    .root()
                    .path(&["spec", "clusterName"])
                    .and_then(|n| n.as_str())
                    .map(str::to_string),
                "HostedCluster" => Some(object.id.name.clone()),
                _ => None,
            };
            if let Some(name) = cluster {
                if let Some((_, _, set)) =
                    self.hosted.iter().find(|(n, c, _)| *n == ns && *c == name)
                {
                    return set.clone();
                }
            }
        }
        self.cluster.clone().unwrap_or_else(|| "Default".into())
    }

    /// The variant for a manifest embedded in a ConfigMap of `namespace`: the hosted cluster's
    /// there (HyperShift hands it to that cluster), else the FeatureGate's.
    pub fn for_namespace(&self, namespace: &str) -> String {
        if let Some(f) = &self.forced {
            return f.clone();
        }
        self.hosted
            .iter()
            .find(|(n, _, _)| n == namespace)
            .map(|(_, _, set)| set.clone())
            .or_else(|| self.cluster.clone())
            .unwrap_or_else(|| "Default".into())
    }
}
