//! CRD `openAPIV3Schema` → JSON Schema (draft 2020-12), keeping the Kubernetes extensions the
//! validator reads. Shared by `tools/schemagen` (bundled schemas) and the run-time CRD loader, so
//! a CRD in the linted repository is checked exactly like a bundled one.

use serde_json::{Map, Value};

/// One served version of a CRD, converted.
#[derive(Clone, Debug, PartialEq)]
pub struct Converted {
    /// API group.
    pub group: String,
    /// Kind.
    pub kind: String,
    /// Version name (`v1`, `v1beta1`).
    pub version: String,
    /// Feature set the CRD was rendered for (`Default`, `TechPreviewNoUpgrade`), or `all`.
    pub feature_set: String,
    /// The JSON Schema.
    pub schema: Value,
}

/// The annotation OpenShift puts on a CRD rendered for one feature set.
const FEATURE_SET_ANNOTATION: &str = "release.openshift.io/feature-set";

/// Marks a schema whose kind has the status subresource (the validator then ignores `status`).
pub const STATUS_SUBRESOURCE: &str = "x-nodecast-status-subresource";

/// Keywords copied as they are (they mean the same in OpenAPI v3 and JSON Schema).
const PLAIN: &[&str] = &[
    "required",
    "enum",
    "pattern",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "uniqueItems",
    "multipleOf",
    "minProperties",
    "maxProperties",
    "format",
    "default",
];

/// Converts every served version of a CRD (given as JSON).
pub fn convert_crd(crd: &Value) -> Result<Vec<Converted>, String> {
    if crd.get("kind").and_then(Value::as_str) != Some("CustomResourceDefinition") {
        return Err("not a CustomResourceDefinition".into());
    }
    let spec = crd.get("spec").ok_or("the CRD has no spec")?;
    let group = spec
        .get("group")
        .and_then(Value::as_str)
        .ok_or("the CRD has no spec.group")?;
    let kind = spec
        .pointer("/names/kind")
        .and_then(Value::as_str)
        .ok_or("the CRD has no spec.names.kind")?;
    let feature_set = crd
        .pointer("/metadata/annotations")
        .and_then(|a| a.get(FEATURE_SET_ANNOTATION))
        .and_then(Value::as_str)
        .filter(|s| !s.contains(','))
        .unwrap_or("all");
    let versions = spec
        .get("versions")
        .and_then(Value::as_array)
        .ok_or("the CRD has no spec.versions")?;
    let mut out = Vec::new();
    for version in versions {
        if version.get("served").and_then(Value::as_bool) == Some(false) {
            continue;
        }
        let name = version
            .get("name")
            .and_then(Value::as_str)
            .ok_or("a CRD version has no name")?;
        let Some(schema) = version.pointer("/schema/openAPIV3Schema") else {
            continue;
        };
        let mut converted = convert_node(schema, false);
        if let Value::Object(map) = &mut converted {
            // The API server accepts `apiVersion`, `kind` and `metadata` on every object, whether
            // or not the CRD's schema lists them (many list only `spec` and `status`).
            if let Some(Value::Object(props)) = map.get_mut("properties") {
                for (key, schema) in [
                    ("apiVersion", serde_json::json!({"type": "string"})),
                    ("kind", serde_json::json!({"type": "string"})),
                    ("metadata", serde_json::json!({"type": "object"})),
                ] {
                    props.entry(key).or_insert(schema);
                }
            }
            map.insert(
                "$schema".into(),
                Value::from("https://json-schema.org/draft/2020-12/schema"),
            );
            if version.pointer("/subresources/status").is_some() {
                // The API server ignores `status` in a create or update of such a kind.
                map.insert(STATUS_SUBRESOURCE.into(), Value::Bool(true));
            }
        }
        out.push(Converted {
            group: group.to_string(),
            kind: kind.to_string(),
            version: name.to_string(),
            feature_set: feature_set.to_string(),
            schema: converted,
        });
    }
    Ok(out)
}

/// Converts one schema node. `in_junctor` is true inside allOf/anyOf/oneOf/not, where Kubernetes
/// only allows value constraints (so no unknown-field check is added there).
pub fn convert_node(node: &Value, in_junctor: bool) -> Value {
    let Some(src) = node.as_object() else {
        return node.clone();
    };
    let mut out = Map::new();
    let int_or_string = flag(src, "x-kubernetes-int-or-string");
    let preserve = flag(src, "x-kubernetes-preserve-unknown-fields");
    let embedded = flag(src, "x-kubernetes-embedded-resource");
    let nullable = flag(src, "nullable");
    if int_or_string {
        out.insert("type".into(), serde_json::json!(["integer", "string"]));
    } else if let Some(t) = src.get("type").and_then(Value::as_str) {
        let t = Value::from(t);
        out.insert(
            "type".into(),
            if nullable {
                Value::Array(vec![t, Value::from("null")])
            } else {
                t
            },
        );
    }
    for key in PLAIN {
        if let Some(v) = src.get(*key) {
            let mut v = v.clone();
            if *key == "enum" && nullable {
                if let Value::Array(items) = &mut v {
                    if !items.contains(&Value::Null) {
                        items.push(Value::Null);
                    }
                }
            }
            out.insert((*key).into(), v);
        }
    }
    for (bound, exclusive) in [
        ("minimum", "exclusiveMinimum"),
        ("maximum", "exclusiveMaximum"),
    ] {
        if let Some(limit) = src.get(bound) {
            if flag(src, exclusive) {
                out.insert(exclusive.into(), limit.clone());
            } else {
                out.insert(bound.into(), limit.clone());
            }
        }
    }
    if let Some(Value::Object(props)) = src.get("properties") {
        let converted: Map<String, Value> = props
            .iter()
            .map(|(k, v)| (k.clone(), convert_node(v, in_junctor)))
            .collect();
        out.insert("properties".into(), Value::Object(converted));
    }
    if let Some(items) = src.get("items") {
        out.insert("items".into(), convert_node(items, in_junctor));
    }
    match src.get("additionalProperties") {
        Some(Value::Object(_)) => {
            let ap = src.get("additionalProperties").cloned().unwrap_or_default();
            out.insert("additionalProperties".into(), convert_node(&ap, in_junctor));
        }
        Some(Value::Bool(b)) => {
            out.insert("additionalProperties".into(), Value::Bool(*b));
        }
        _ => {
            let is_object = src.get("type").and_then(Value::as_str) == Some("object");
            if is_object && src.contains_key("properties") && !preserve && !embedded && !in_junctor
            {
                // Kubernetes prunes fields its structural schema does not declare; the validator
                // reports them as unknown fields (a warning), not as schema errors.
                out.insert("additionalProperties".into(), Value::Bool(false));
            }
        }
    }
    for junctor in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(items)) = src.get(junctor) {
            if int_or_string && junctor == "anyOf" {
                continue;
            }
            let converted = items.iter().map(|i| convert_node(i, true)).collect();
            out.insert(junctor.into(), Value::Array(converted));
        }
    }
    if let Some(not) = src.get("not") {
        out.insert("not".into(), convert_node(not, true));
    }
    for (k, v) in src {
        if k.starts_with("x-kubernetes-") {
            out.insert(k.clone(), v.clone());
        }
    }
    Value::Object(out)
}

fn flag(src: &Map<String, Value>, key: &str) -> bool {
    src.get(key).and_then(Value::as_bool) == Some(true)
}

/// The file a converted schema is stored under, relative to `schemas/`.
pub fn relative_path(c: &Converted) -> String {
    let group = if c.group.is_empty() { "core" } else { &c.group };
    format!("{group}/{}/{}/{}.json", c.kind, c.version, c.feature_set)
}

/// Hand-authored minimal schemas of the core kinds nodecast reads (their payloads matter).
pub fn core_schemas() -> Vec<Converted> {
    let string_map =
        serde_json::json!({"type": "object", "additionalProperties": {"type": "string"}});
    let meta = serde_json::json!({"type": "object"});
    let base = |kind: &str, extra: Value| {
        let mut props = serde_json::json!({
            "apiVersion": {"type": "string"},
            "kind": {"type": "string"},
            "metadata": meta,
            "immutable": {"type": ["boolean", "null"]},
        });
        if let (Value::Object(p), Value::Object(e)) = (&mut props, extra) {
            p.extend(e);
        }
        Converted {
            group: String::new(),
            kind: kind.to_string(),
            version: "v1".into(),
            feature_set: "all".into(),
            schema: serde_json::json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "properties": props,
                "additionalProperties": false,
            }),
        }
    };
    vec![
        base(
            "ConfigMap",
            serde_json::json!({
                "data": {"type": ["object", "null"], "additionalProperties": {"type": "string"}},
                "binaryData": {"type": ["object", "null"], "additionalProperties": {"type": "string", "format": "byte"}},
            }),
        ),
        base(
            "Secret",
            serde_json::json!({
                "data": {"type": ["object", "null"], "additionalProperties": {"type": "string", "format": "byte"}},
                "stringData": string_map,
                "type": {"type": "string"},
            }),
        ),
    ]
}
