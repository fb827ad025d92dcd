//! The structural schema's errors (from the jsonschema crate) translated into nodecast's
//! findings, worded as the API server words them, so a finding reads the same as `oc apply`'s.

use jsonschema::error::ValidationErrorKind as K;
use serde_json::Value;

use super::fields::{escape, field_path, quote, type_word};
use super::{Finding, FindingKind};

/// Every schema error of `head`; type, enum and format errors hold back the CEL rules.
pub(super) fn schema_errors(
    validator: &jsonschema::Validator,
    schema: &Value,
    head: &Value,
    out: &mut Vec<Finding>,
) {
    for error in validator.iter_errors(head) {
        let blocking = matches!(
            error.kind(),
            K::Enum { .. } | K::Type { .. } | K::Format { .. }
        );
        let before = out.len();
        schema_error(&error, schema, out);
        if blocking {
            for f in &mut out[before..] {
                f.blocks_rules = true;
            }
        }
    }
}

/// One error's findings: unknown fields and missing ones sit at the field, the rest at the value.
fn schema_error(error: &jsonschema::ValidationError<'_>, schema: &Value, out: &mut Vec<Finding>) {
    let pointer = error.instance_path().as_str().to_string();
    match error.kind() {
        K::AdditionalProperties { unexpected } => unknown_fields(schema, &pointer, unexpected, out),
        K::Required { property } => out.push(required(&pointer, property)),
        kind => {
            let field = field_path(&pointer);
            let (message, help) = wrong_value(kind, error.instance(), &field)
                .or_else(|| out_of_bounds(kind, &field))
                .unwrap_or_else(|| (format!("Invalid value: {error}"), None));
            out.push(Finding {
                kind: FindingKind::Schema,
                pointer,
                at_key: false,
                field,
                message,
                help,
                related: None,
                rename: None,
                blocks_rules: false,
            });
        }
    }
}

/// Fields the schema does not declare, each at its key, with the closest declared name.
fn unknown_fields(schema: &Value, pointer: &str, unexpected: &[String], out: &mut Vec<Finding>) {
    let known: Vec<String> = schema_at(schema, pointer)
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    for name in unexpected {
        let p = format!("{pointer}/{}", escape(name));
        let closest = crate::text::closest(name, known.iter().map(String::as_str));
        let hint = closest.map(|s| format!("did you mean `{s}`? "));
        out.push(Finding {
            kind: FindingKind::UnknownField,
            field: field_path(&p),
            message: format!("unknown field \"{}\"", field_path(&p)),
            pointer: p,
            at_key: true,
            help: hint,
            related: None,
            rename: closest.map(str::to_string),
            blocks_rules: false,
        });
    }
}

/// A missing required field, placed at the (absent) field itself.
fn required(pointer: &str, property: &Value) -> Finding {
    let name = property.as_str().unwrap_or_default();
    let p = format!("{pointer}/{}", escape(name));
    Finding {
        kind: FindingKind::Schema,
        field: field_path(&p),
        pointer: p,
        at_key: false,
        message: "Required value".into(),
        help: Some(format!("add `{name}`")),
        related: None,
        rename: None,
        blocks_rules: false,
    }
}

/// A value of the wrong kind (enum, type, format): the message and help, or `None` for other
/// errors.
fn wrong_value(kind: &K, instance: &Value, field: &str) -> Option<(String, Option<String>)> {
    Some(match kind {
        K::Enum { options } => {
            let allowed: Vec<String> = options
                .as_array()
                .map(|a| a.iter().map(quote).collect())
                .unwrap_or_default();
            (
                format!(
                    "Unsupported value: {}: supported values: {}",
                    quote(instance),
                    allowed.join(", ")
                ),
                Some(format!("use one of {}", allowed.join(", "))),
            )
        }
        K::Type { kind } => {
            let want = match kind {
                jsonschema::error::TypeKind::Single(t) => t.to_string(),
                jsonschema::error::TypeKind::Multiple(set) => set
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            };
            (
                format!(
                    "Invalid value: \"{}\": {field} in body must be of type {want}",
                    type_word(instance)
                ),
                Some(format!("write a value of type {want}")),
            )
        }
        K::Format { format } => (
            format!(
                "{field} in body must be of type {format}: {}",
                quote(instance)
            ),
            Some(match format.as_str() {
                "byte" => {
                    "encode the value in base64 (or put plain text under `stringData`)".into()
                }
                "duration" => "write a duration such as `30s`, `5m` or `1h30m`".into(),
                other => format!("write a valid {other}"),
            }),
        ),
        _ => return None,
    })
}

/// A value outside the schema's bounds (pattern, length, item count, range): the message and
/// help, or `None` for other errors.
fn out_of_bounds(kind: &K, field: &str) -> Option<(String, Option<String>)> {
    let pattern_mismatch = |pattern: &str| {
        (
            format!("{field} in body should match '{pattern}'"),
            Some(format!(
                "the value must match the regular expression `{pattern}`"
            )),
        )
    };
    Some(match kind {
        K::Pattern { pattern } => pattern_mismatch(pattern),
        // A pattern compiled on first use (`lazy_pattern`) reports itself as its message.
        K::Custom { keyword, message } if keyword == crate::validate::lazy_pattern::KEYWORD => {
            pattern_mismatch(message)
        }
        K::MinLength { limit } => (
            format!("{field} in body should be at least {limit} chars long"),
            Some(format!("give at least {limit} characters")),
        ),
        K::MaxLength { limit } => (
            format!("Too long: may not be more than {limit} bytes"),
            Some(format!("shorten it to at most {limit} characters")),
        ),
        K::MinItems { limit } => (
            format!("{field} in body should have at least {limit} items"),
            Some(format!("list at least {limit} items")),
        ),
        K::MaxItems { limit } => (
            format!("Too many: must have at most {limit} items"),
            Some(format!("list at most {limit} items")),
        ),
        K::Minimum { limit } => (
            format!("{field} in body should be greater than or equal to {limit}"),
            None,
        ),
        K::Maximum { limit } => (
            format!("{field} in body should be less than or equal to {limit}"),
            None,
        ),
        K::ExclusiveMinimum { limit } => (
            format!("{field} in body should be greater than {limit}"),
            None,
        ),
        K::ExclusiveMaximum { limit } => {
            (format!("{field} in body should be less than {limit}"), None)
        }
        _ => return None,
    })
}

/// The schema node that describes the instance at `pointer`.
fn schema_at<'s>(schema: &'s Value, pointer: &str) -> Option<&'s Value> {
    let mut node = schema;
    for seg in pointer.split('/').skip(1) {
        let seg = seg.replace("~1", "/").replace("~0", "~");
        node = match node.get("properties").and_then(|p| p.get(&seg)) {
            Some(n) => n,
            None => node
                .get("items")
                .filter(|_| seg.parse::<usize>().is_ok())
                .or_else(|| node.get("additionalProperties").filter(|a| a.is_object()))?,
        };
    }
    Some(node)
}
