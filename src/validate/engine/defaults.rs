//! Schema defaults, applied as the API server applies them before validating: a separate step
//! because the CEL rules and the schema both see the defaulted object.

use serde_json::Value;

/// Applies schema defaults as the API server does before validating: a `null` the schema does
/// not allow is dropped first (or takes the default), then absent fields take their defaults
/// (apiextensions' `PruneNonNullableNullsWithoutDefaults`, then `Default`).
pub fn with_defaults(schema: &Value, v: &Value) -> Value {
    let mut out = v.clone();
    prune_nulls(schema, &mut out);
    apply_defaults(schema, &mut out);
    out
}

/// Whether a field's `null` is not allowed by its schema (`nullable` unset or false).
fn non_nullable(sub: &Value) -> bool {
    sub.get("nullable") != Some(&Value::Bool(true))
}

/// Drops the `null` fields and map values whose schema is not nullable and has no default (the
/// API server prunes them before defaulting: `field: null` is `field` left out); items of a
/// list are kept.
fn prune_nulls(schema: &Value, v: &mut Value) {
    match v {
        Value::Object(map) => {
            let props = schema.get("properties").and_then(Value::as_object);
            let additional = schema.get("additionalProperties").filter(|a| a.is_object());
            map.retain(|name, value| {
                let Some(sub) = props.and_then(|p| p.get(name)).or(additional) else {
                    return true;
                };
                if value.is_null() {
                    return !non_nullable(sub) || sub.get("default").is_some();
                }
                prune_nulls(sub, value);
                true
            });
        }
        Value::Array(items) => {
            if let Some(sub) = schema.get("items") {
                items.iter_mut().for_each(|item| prune_nulls(sub, item));
            }
        }
        _ => {}
    }
}

/// Fills the absent fields of one value (and a `null` its schema does not allow, when it has a
/// default), then recurses into the fields and items it has.
fn apply_defaults(schema: &Value, v: &mut Value) {
    match v {
        Value::Object(map) => {
            if let Some(Value::Object(props)) = schema.get("properties") {
                for (name, sub) in props {
                    let absent = match map.get(name) {
                        None => true,
                        Some(value) => value.is_null() && non_nullable(sub),
                    };
                    if absent {
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

#[cfg(test)]
mod tests {
    use super::with_defaults;
    use serde_json::json;

    #[test]
    fn a_null_the_schema_does_not_allow_is_dropped_or_defaulted() {
        let schema = json!({
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "opt": {"type": "string", "nullable": true},
                "mode": {"type": "string", "default": "Auto"},
                "list": {"type": "array", "items": {"type": "string"}},
                "data": {"type": "object", "additionalProperties": {"type": "string"}}
            }
        });
        let object = json!({
            "name": null,
            "opt": null,
            "mode": null,
            "list": [null],
            "data": {"a": null, "b": "x"}
        });
        assert_eq!(
            with_defaults(&schema, &object),
            json!({"opt": null, "mode": "Auto", "list": [null], "data": {"b": "x"}})
        );
    }
}
