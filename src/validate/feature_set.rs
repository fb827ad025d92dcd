//! Which feature-set variant of a CRD applies to an object: `--feature-set`, else the
//! HostedCluster's `spec.configuration.featureGate.featureSet` for HyperShift objects, else the
//! `FeatureGate/cluster` of the object's own cluster (as the MCO model groups clusters), else the
//! one every FeatureGate of the repository agrees on, else Default.

use std::collections::{BTreeSet, HashMap};

use crate::inventory::clusters::{key_of, path_key, roots};
use crate::inventory::{Inventory, Object};

/// Decides the feature set per object.
pub struct Resolver {
    forced: Option<String>,
    /// The set every `FeatureGate/cluster` of the repository declares, when they agree: a
    /// FeatureGate kept outside the cluster's folder still speaks for a one-cluster repository.
    agreed: Option<String>,
    /// Each cluster's own set, only when the FeatureGates disagree.
    per_cluster: Option<PerCluster>,
    /// Each HostedCluster's set by (namespace, name), the first definition's; looked up for every
    /// HyperShift object, so a fleet's thousand HostedClusters are not scanned for each.
    hosted: HashMap<(String, String), String>,
    /// The set of the first HostedCluster of each namespace.
    hosted_namespaces: HashMap<String, String>,
}

/// FeatureGates that declare different sets, by the cluster that holds each (clusters found as
/// the models find them).
struct PerCluster {
    roots: BTreeSet<String>,
    globs: Vec<String>,
    sets: Vec<(String, String)>,
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
        // Every definition, not only an identity's first: each cluster root holds its own.
        let gates: Vec<(&Object, String)> = head
            .present_of_kind("config.openshift.io", "FeatureGate")
            .filter(|o| o.id.name == "cluster")
            .map(|o| {
                let set = o
                    .root()
                    .path(&["spec", "featureSet"])
                    .and_then(|n| n.as_str())
                    .unwrap_or_default();
                (o, variant(set))
            })
            .collect();
        let agreed = gates
            .first()
            .map(|(_, set)| set.clone())
            .filter(|first| gates.iter().all(|(_, set)| set == first));
        let per_cluster = (agreed.is_none() && !gates.is_empty() && forced.is_none()).then(|| {
            let roots = roots(base, head, globs);
            let sets = gates
                .iter()
                .map(|(o, set)| (key_of(&roots, globs, o), set.clone()))
                .collect();
            PerCluster {
                roots,
                globs: globs.to_vec(),
                sets,
            }
        });
        let mut hosted = HashMap::new();
        let mut hosted_namespaces = HashMap::new();
        for o in head.of_kind("hypershift.openshift.io", "HostedCluster") {
            let set = o
                .root()
                .path(&["spec", "configuration", "featureGate", "featureSet"])
                .and_then(|n| n.as_str())
                .map(variant)
                .unwrap_or_else(|| "Default".into());
            let namespace = o.id.namespace.as_deref().unwrap_or_default().to_string();
            // The first definition of each speaks, as a search in order would find it.
            hosted_namespaces
                .entry(namespace.clone())
                .or_insert_with(|| set.clone());
            hosted
                .entry((namespace, o.id.name.to_string()))
                .or_insert(set);
        }
        Resolver {
            forced: forced.map(variant),
            agreed,
            per_cluster,
            hosted,
            hosted_namespaces,
        }
    }

    /// The variant for one object.
    pub fn for_object(&self, object: &Object) -> String {
        if let Some(f) = &self.forced {
            return f.clone();
        }
        if object.id.group == "hypershift.openshift.io" {
            let ns = object.id.namespace.as_deref().unwrap_or_default();
            let cluster = match object.id.kind.as_str() {
                "NodePool" => object
                    .root()
                    .path(&["spec", "clusterName"])
                    .and_then(|n| n.as_str())
                    .map(str::to_string),
                "HostedCluster" => Some(object.id.name.to_string()),
                _ => None,
            };
            if let Some(name) = cluster {
                if let Some(set) = self.hosted.get(&(ns.to_string(), name)) {
                    return set.clone();
                }
            }
        }
        self.of_cluster(|p| key_of(&p.roots, &p.globs, object))
    }

    /// The variant of a cluster's own FeatureGate (its key found only where FeatureGates
    /// disagree), else the repository's agreed one, else Default.
    fn of_cluster(&self, key: impl FnOnce(&PerCluster) -> String) -> String {
        if let Some(p) = &self.per_cluster {
            let key = key(p);
            if let Some((_, set)) = p.sets.iter().find(|(c, _)| *c == key) {
                return set.clone();
            }
        }
        self.agreed.clone().unwrap_or_else(|| "Default".into())
    }

    /// The variant for a manifest embedded in a ConfigMap of `namespace` (or a patch) at `path`:
    /// the hosted cluster's there (HyperShift hands it to that cluster), else that of the
    /// cluster holding the file.
    pub fn for_namespace(&self, namespace: &str, path: &str) -> String {
        if let Some(f) = &self.forced {
            return f.clone();
        }
        self.hosted_namespaces
            .get(namespace)
            .cloned()
            .unwrap_or_else(|| self.of_cluster(|p| path_key(&p.roots, path)))
    }
}
