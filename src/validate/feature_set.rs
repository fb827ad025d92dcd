//! Which feature-set variant of a CRD applies to an object: `--feature-set`, else the
//! HostedCluster's `spec.configuration.featureGate.featureSet` for HyperShift objects, else the
//! `FeatureGate/cluster` of the object's own cluster (as the MCO model groups clusters), else the
//! one every FeatureGate of the repository agrees on, else Default.

use std::collections::BTreeSet;

use crate::inventory::clusters::{key_of, root_of, roots};
use crate::inventory::{Inventory, Object};

/// Decides the feature set per object.
pub struct Resolver {
    forced: Option<String>,
    /// Cluster roots, so an object finds its own cluster's FeatureGate.
    roots: BTreeSet<String>,
    globs: Vec<String>,
    /// Each `FeatureGate/cluster`'s variant, by the cluster that holds it.
    clusters: Vec<(String, String)>,
    /// The variant every `FeatureGate/cluster` of the repository declares, when they agree: a
    /// FeatureGate kept outside the cluster's folder still speaks for a one-cluster repository.
    agreed: Option<String>,
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
    /// Reads the feature sets the head revision declares (`base` and `globs` find the clusters
    /// as the models do).
    pub fn new(base: &Inventory, head: &Inventory, globs: &[String], forced: Option<&str>) -> Self {
        let roots = match forced {
            Some(_) => BTreeSet::new(),
            None => roots(base, head, globs),
        };
        // Every definition, not only an identity's first: each cluster root holds its own.
        let clusters: Vec<(String, String)> = head
            .objects
            .iter()
            .enumerate()
            .filter(|(i, o)| {
                o.id.group == "config.openshift.io"
                    && o.id.kind == "FeatureGate"
                    && o.id.name == "cluster"
                    && !head.is_absent(*i)
            })
            .map(|(_, o)| {
                let set = o
                    .root()
                    .path(&["spec", "featureSet"])
                    .and_then(|n| n.as_str())
                    .unwrap_or_default();
                (key_of(&roots, globs, o), variant(set))
            })
            .collect();
        let agreed = clusters
            .first()
            .map(|(_, set)| set.clone())
            .filter(|first| clusters.iter().all(|(_, set)| set == first));
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
            roots,
            globs: globs.to_vec(),
            clusters,
            agreed,
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
        self.of_cluster(&key_of(&self.roots, &self.globs, object))
    }

    /// The variant of a cluster's own FeatureGate, else the repository's agreed one, else Default.
    fn of_cluster(&self, cluster: &str) -> String {
        self.clusters
            .iter()
            .find(|(c, _)| c == cluster)
            .map(|(_, set)| set.clone())
            .or_else(|| self.agreed.clone())
            .unwrap_or_else(|| "Default".into())
    }

    /// The variant for a manifest embedded in a ConfigMap of `namespace` (or a patch) at `path`:
    /// the hosted cluster's there (HyperShift hands it to that cluster), else that of the
    /// cluster holding the file.
    pub fn for_namespace(&self, namespace: &str, path: &str) -> String {
        if let Some(f) = &self.forced {
            return f.clone();
        }
        self.hosted
            .iter()
            .find(|(n, _, _)| n == namespace)
            .map(|(_, _, set)| set.clone())
            .unwrap_or_else(|| {
                let root = root_of(&self.roots, path);
                self.of_cluster(if root.is_empty() { "." } else { &root })
            })
    }
}
