//! The controller's normalisation of config-hash inputs, so equal inputs compare equal
//! (`config.go`: documents re-serialised, defaults applied, order kept).

use nodecast_yaml::Node;
use serde_json::{Map, Value};

/// Canonical JSON text: keys sorted, so two semantically equal values give the same text.
pub fn canonical(v: &Value) -> String {
    sorted(v).to_string()
}

fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let mut out = Map::new();
            for k in keys {
                out.insert(k.clone(), sorted(&m[k]));
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// Drops nulls, empty strings, empty lists and empty maps (Go `omitempty`): `proxy: {}` ≡ unset.
pub fn pruned(v: &Value) -> Option<Value> {
    match v {
        Value::Null => None,
        Value::String(s) if s.is_empty() => None,
        Value::Array(a) => {
            let items: Vec<Value> = a.iter().filter_map(pruned).collect();
            (!items.is_empty()).then_some(Value::Array(items))
        }
        Value::Object(m) => {
            let out: Map<String, Value> = m
                .iter()
                .filter_map(|(k, v)| pruned(v).map(|v| (k.clone(), v)))
                .collect();
            (!out.is_empty()).then_some(Value::Object(out))
        }
        other => Some(other.clone()),
    }
}

/// The canonical, `omitempty`-pruned JSON of an optional node (`""` when absent or empty).
pub fn field(node: Option<Node<'_>>) -> String {
    node.map(Node::to_json)
        .as_ref()
        .and_then(pruned)
        .map(|v| canonical(&v))
        .unwrap_or_default()
}

/// The kinds `spec.config` accepts, and how each is compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfigKind {
    /// MachineConfig: role label forced to `worker`.
    MachineConfig,
    /// KubeletConfig / ContainerRuntimeConfig: pool selector overwritten.
    PoolSelected,
    /// ImageContentSourcePolicy / ImageDigestMirrorSet / ClusterImagePolicy: raw bytes hashed.
    Raw,
}

/// The accepted kind of a `spec.config` document (`defaultAndValidateConfigManifest`).
pub fn config_kind(api_version: &str, kind: &str) -> Option<ConfigKind> {
    let group = crate::inventory::kinds::group_of(api_version);
    match (group, kind) {
        ("machineconfiguration.openshift.io", "MachineConfig") => Some(ConfigKind::MachineConfig),
        ("machineconfiguration.openshift.io", "KubeletConfig" | "ContainerRuntimeConfig") => {
            Some(ConfigKind::PoolSelected)
        }
        ("operator.openshift.io", "ImageContentSourcePolicy")
        | ("config.openshift.io", "ImageDigestMirrorSet" | "ClusterImagePolicy") => {
            Some(ConfigKind::Raw)
        }
        _ => None,
    }
}

/// The role label the controller forces on MachineConfigs.
pub const ROLE_LABEL: &str = "machineconfiguration.openshift.io/role";

/// Fields the controller overwrites, as JSON pointers inside the document (changes there are
/// normalised away and are not causes).
pub fn overwritten_fields(kind: ConfigKind) -> &'static [&'static str] {
    match kind {
        ConfigKind::MachineConfig => &["/metadata/labels/machineconfiguration.openshift.io~1role"],
        ConfigKind::PoolSelected => &["/spec/machineConfigPoolSelector"],
        ConfigKind::Raw => &[],
    }
}

/// The normalised form of one config document. `raw` is the document's own text (for the kinds
/// hashed byte for byte).
pub fn config_document(kind: ConfigKind, root: Node<'_>, raw: &str) -> String {
    match kind {
        ConfigKind::MachineConfig => {
            let mut v = root.to_json();
            if let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) {
                let labels = meta
                    .entry("labels")
                    .or_insert_with(|| Value::Object(Map::new()));
                if let Some(labels) = labels.as_object_mut() {
                    labels.insert(ROLE_LABEL.into(), Value::String("worker".into()));
                }
            }
            canonical(&v)
        }
        ConfigKind::PoolSelected => {
            let mut v = root.to_json();
            if let Some(spec) = v.get_mut("spec").and_then(Value::as_object_mut) {
                spec.insert(
                    "machineConfigPoolSelector".into(),
                    serde_json::json!({"matchLabels": {"machineconfiguration.openshift.io/mco-built-in": ""}}),
                );
            }
            canonical(&v)
        }
        ConfigKind::Raw => {
            // ClusterImagePolicy v1alpha1 is rewritten to v1 before hashing.
            raw.replace("config.openshift.io/v1alpha1", "config.openshift.io/v1")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The document's root (the document is kept for the rest of the test run).
    fn node(text: &str) -> Node<'static> {
        let mut parsed = nodecast_yaml::parse(text, &nodecast_yaml::Options::default());
        Box::leak(Box::new(parsed.documents.swap_remove(0))).root()
    }

    #[test]
    fn empty_structs_equal_unset() {
        assert_eq!(field(None), "");
        assert_eq!(field(Some(node("{}"))), "");
        assert_eq!(field(Some(node("httpProxy: \"\"\nnoProxy: null\n"))), "");
        assert_ne!(field(Some(node("httpProxy: http://p:3128\n"))), "");
    }

    #[test]
    fn machineconfig_role_and_formatting_do_not_matter() {
        let a = node("apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: a\n  labels:\n    machineconfiguration.openshift.io/role: infra\nspec:\n  kernelArguments: [a]\n");
        let b = node("kind: MachineConfig\napiVersion: machineconfiguration.openshift.io/v1\n# comment\nmetadata: {name: a}\nspec:\n  kernelArguments:\n  - a\n");
        assert_eq!(
            config_document(ConfigKind::MachineConfig, a, ""),
            config_document(ConfigKind::MachineConfig, b, "")
        );
    }
}
