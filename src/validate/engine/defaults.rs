//! Schema defaults, applied as the API server applies them before validating: a separate step
//! because the CEL rules and the schema both see the defaulted object.

use serde_json::Value;

/// Applies schema defaults as the API server does before validating (absent fields only).
pub fn with_defaults(schema: &Value, v: &Value) -> Value {
    let mut out = v.clone();
    apply_defaults(schema, &mut out);
    out
}

/// Fills the absent fields of one value, then recurses into the fields and items it has.
fn apply_defaults(schema: &Value, v: &mut Value) {
    match v {
        Value::Object(map) => {
            if let Some(Value::Object(props)) = schema.get("properties") {
                for (name, sub) in props {
                    if !map.contains_key(name) {
                        if let Some(d) = sub.get("default") {
                            map.insert(name.clone(), d.clone());
                        }
                    }
                }
                for (name, value) in map.iter_mut() {
                    if let Some(sub) = props.get(name) {
                        apply_defaults(sub, value);
                    }
                }
            } else if let Some(ap @ Value::Object(_)) = schema.get("additionalProperties") {
                for value in map.values_mut() {
                    apply_defaults(ap, value);
                }
            }
        }
        Value::Array(items) => {
            if let Some(sub) = schema.get("items") {
                for item in items {
                    apply_defaults(sub, item);
                }
            }
        }
        _ => {}
    }
}
