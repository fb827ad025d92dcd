//! Schema defaults, applied as the API server applies them before validating: a separate step
//! because the CEL rules and the schema both see the defaulted object.

use serde_json::Value;

use crate::validate::reach::Reach;

/// Applies schema defaults as the API server does before validating: a `null` the schema does
/// not allow is dropped first (or takes the default), then absent fields take their defaults
/// (apiextensions' `PruneNonNullableNullsWithoutDefaults`, then `Default`). `reach` is the
/// schema's own map of where its defaults are: pruning runs only on a value with a `null`, and
/// defaulting only down the paths to a default.
pub fn with_defaults(schema: &Value, reach: &Reach, v: Value) -> Value {
    // Debug builds check the pruned walks against the full ones, in every suite.
    #[cfg(debug_assertions)]
    let full = with_all_defaults(schema, &v);
    let mut out = v;
    if has_null(&out) {
        prune_nulls(schema, &mut out);
    }
    if reach.has_defaults() {
        apply_reached(schema, reach, &mut out);
    }
    #[cfg(debug_assertions)]
    assert_eq!(out, full, "defaults pruned by the schema's reach");
    out
}

/// [`with_defaults`] walking every field the schema declares: what the pruned walk must equal.
#[cfg(any(test, debug_assertions))]
pub fn with_all_defaults(schema: &Value, v: &Value) -> Value {
    let mut out = v.clone();
    prune_nulls(schema, &mut out);
    apply_defaults(schema, &mut out);
    out
}

/// Whether a `null` is anywhere in the value (pruning has nothing to drop otherwise).
fn has_null(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Object(map) => map.values().any(has_null),
        Value::Array(items) => items.iter().any(has_null),
        _ => false,
    }
}

/// [`apply_defaults`] down the paths `reach` keeps: fills a node's absent fields only where a
/// declared property has a default, and enters only the fields and items with a default below.
fn apply_reached(schema: &Value, reach: &Reach, v: &mut Value) {
    match v {
        Value::Object(map) => {
            if let Some(Value::Object(props)) = schema.get("properties") {
                if reach.has_own_defaults() {
                    fill_absent(props, map);
                }
                for (name, value) in map.iter_mut() {
                    if let Some((below, sub)) = reach.field_for_defaults(name).zip(props.get(name))
                    {
                        apply_reached(sub, below, value);
                    }
                }
            } else if let Some(ap @ Value::Object(_)) = schema.get("additionalProperties") {
                if let Some(below) = reach.additional(false) {
                    for value in map.values_mut() {
                        apply_reached(ap, below, value);
                    }
                }
            }
        }
        Value::Array(items) => {
            if let Some((sub, below)) = schema.get("items").zip(reach.items(false)) {
                for item in items {
                    apply_reached(sub, below, item);
                }
            }
        }
        _ => {}
    }
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

/// Gives each declared property the object lacks (or holds as a `null` its schema does not
/// allow) its default, in the order the schema declares them.
fn fill_absent(props: &serde_json::Map<String, Value>, map: &mut serde_json::Map<String, Value>) {
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
}

/// Fills the absent fields of one value (and a `null` its schema does not allow, when it has a
/// default), then recurses into the fields and items it has.
#[cfg(any(test, debug_assertions))]
fn apply_defaults(schema: &Value, v: &mut Value) {
    match v {
        Value::Object(map) => {
            if let Some(Value::Object(props)) = schema.get("properties") {
                fill_absent(props, map);
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
    use super::{with_all_defaults, with_defaults};
    use crate::validate::reach::Reach;
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
        let expected = json!({"opt": null, "mode": "Auto", "list": [null], "data": {"b": "x"}});
        assert_eq!(with_all_defaults(&schema, &object), expected);
        assert_eq!(
            with_defaults(&schema, &Reach::of(&schema), object),
            expected
        );
    }
}
