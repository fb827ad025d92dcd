//! Validates one object against one compiled schema: structural schema (jsonschema crate),
//! list-type uniqueness, and every `x-kubernetes-validations` CEL rule, with `oldSelf` bound to
//! the base object at the same path for transition rules.

use serde_json::Value;

use super::catalog::SchemaEntry;
use super::cel::{self, Outcome};

/// What kind of problem a finding is; each maps to one rule code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FindingKind {
    /// The structural schema rejects the value (type, enum, pattern, bounds, required).
    Schema,
    /// A field the schema does not declare (the API server drops it).
    UnknownField,
    /// An `x-kubernetes-validations` rule is false.
    Rule,
    /// A transition rule (`oldSelf`) is false against the base revision.
    TransitionRule,
    /// Two items of a `listType: map`/`set` list have the same key.
    DuplicateKey,
}

/// One problem with an object, located by JSON pointer into it.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// What it is.
    pub kind: FindingKind,
    /// Where: a JSON pointer into the object (may name a field that is absent).
    pub pointer: String,
    /// Point at the key of the last segment rather than its value.
    pub at_key: bool,
    /// The API server's field path (`spec.taints[0].key`).
    pub field: String,
    /// The message, as the API server would phrase it (without the field path).
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
    /// Another place involved (the first of two duplicate items).
    pub related: Option<String>,
    /// A type or unsupported-value error: the API server then skips the CEL rules (and says so).
    pub blocks_rules: bool,
}

/// A rule nodecast could not evaluate, for `--verbose` and coverage.
#[derive(Clone, Debug, PartialEq)]
pub struct Skipped {
    /// Where the rule sits in the object.
    pub pointer: String,
    /// The rule text.
    pub rule: String,
    /// Why it could not be evaluated.
    pub reason: String,
}

/// Everything validating one object produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Problems found.
    pub findings: Vec<Finding>,
    /// Rules evaluated (pass or fail).
    pub evaluated: usize,
    /// Rules that could not be evaluated.
    pub skipped: Vec<Skipped>,
}

/// Validates `head` (with `old` as the base revision of the same object, if any).
pub fn validate(entry: &SchemaEntry, head: &Value, old: Option<&Value>) -> Report {
    validate_with(entry, head, old.map(Old::Value))
}

/// Validates an update that leaves the object as it was (the base revision is the same document):
/// like [`validate`] with `old` equal to `head`, without converting or comparing the old object —
/// every transition rule ratchets.
pub fn validate_unchanged(entry: &SchemaEntry, head: &Value) -> Report {
    validate_with(entry, head, Some(Old::SameAsHead))
}

/// The base revision of the object being validated.
enum Old<'a> {
    Value(&'a Value),
    SameAsHead,
}

fn validate_with(entry: &SchemaEntry, head: &Value, old: Option<Old<'_>>) -> Report {
    let schema = entry.schema();
    let head = with_defaults(schema, head);
    let old_owned = match old {
        Some(Old::Value(o)) => Some(with_defaults(schema, o)),
        _ => None,
    };
    // Unchanged: the walk sees the very same values on both sides (pointer-equal all the way down).
    let old: Option<&Value> = match old {
        Some(Old::SameAsHead) => Some(&head),
        _ => old_owned.as_ref(),
    };
    let mut report = Report::default();
    match entry.validator() {
        Ok(validator) => schema_errors(validator, schema, &head, &mut report.findings),
        Err(e) => report.skipped.push(Skipped {
            pointer: String::new(),
            rule: "openAPIV3Schema".into(),
            reason: e.clone(),
        }),
    }
    metadata_fields(&head, &mut report.findings);
    // Like the API server, evaluate the CEL rules only when no value has the wrong type or an
    // unsupported value (their rules would read garbage).
    let run_rules = !report.findings.iter().any(|f| f.blocks_rules);
    walk(schema, &head, old, "", run_rules, &mut report);
    drop_echoes_of_missing_fields(&mut report.findings);
    report
        .findings
        .sort_by(|a, b| a.pointer.cmp(&b.pointer).then(a.message.cmp(&b.message)));
    report.findings.dedup();
    report
}

/// A CEL rule that fails with "no such key: x" because `x` is a missing required field repeats
/// the "Required value" finding for `x`: keep the one that says what to add.
fn drop_echoes_of_missing_fields(findings: &mut Vec<Finding>) {
    let missing: Vec<String> = findings
        .iter()
        .filter(|f| f.kind == FindingKind::Schema && f.message == "Required value")
        .map(|f| f.pointer.clone())
        .collect();
    findings.retain(|f| {
        !matches!(f.kind, FindingKind::Rule | FindingKind::TransitionRule)
            || !missing.iter().any(|m| {
                m.rsplit_once('/').is_some_and(|(parent, key)| {
                    parent == f.pointer
                        && f.message
                            .contains(&format!("no such key: {key} evaluating rule"))
                })
            })
    });
}

/// Validates a partial object (a Kustomize patch): what it holds must be valid, but absent
/// required fields and the CEL rules (which read the whole object) are not checked.
pub fn validate_patch(entry: &SchemaEntry, patch: &Value) -> Report {
    let mut report = Report::default();
    if let Ok(validator) = entry.validator() {
        schema_errors(validator, entry.schema(), patch, &mut report.findings);
    }
    // Strategic-merge directives (`$patch: delete`, `$retainKeys`) and `null` (delete the field)
    // are patch syntax, not values.
    report.findings.retain(|f| match f.kind {
        FindingKind::Schema => {
            f.message != "Required value" && !f.message.starts_with("Invalid value: \"null\"")
        }
        FindingKind::UnknownField => !f
            .pointer
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .starts_with('$'),
        _ => true,
    });
    walk(entry.schema(), patch, None, "", false, &mut report);
    metadata_fields(patch, &mut report.findings);
    report
        .findings
        .sort_by(|a, b| a.pointer.cmp(&b.pointer).then(a.message.cmp(&b.message)));
    report.findings.dedup();
    report
}

/// The fields of ObjectMeta a manifest may set (CRD schemas leave `metadata` open; the API server
/// drops anything else).
const OBJECT_META: &[&str] = &[
    "name",
    "generateName",
    "namespace",
    "selfLink",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "labels",
    "annotations",
    "ownerReferences",
    "finalizers",
    "managedFields",
];

fn metadata_fields(object: &Value, out: &mut Vec<Finding>) {
    let Some(meta) = object.get("metadata").and_then(Value::as_object) else {
        return;
    };
    for name in meta.keys() {
        if OBJECT_META.contains(&name.as_str()) {
            continue;
        }
        let pointer = format!("/metadata/{}", escape(name));
        let hint = crate::text::closest(name, OBJECT_META.iter().copied())
            .map(|s| format!("did you mean `{s}`? "));
        out.push(Finding {
            kind: FindingKind::UnknownField,
            field: field_path(&pointer),
            message: format!("unknown field \"{}\"", field_path(&pointer)),
            pointer,
            at_key: true,
            help: hint,
            related: None,
            blocks_rules: false,
        });
    }
}

/// Applies schema defaults as the API server does before validating (absent fields only).
pub fn with_defaults(schema: &Value, v: &Value) -> Value {
    let mut out = v.clone();
    apply_defaults(schema, &mut out);
    out
}

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

/// `spec.taints[0].key` for `/spec/taints/0/key`.
pub fn field_path(pointer: &str) -> String {
    let mut out = String::new();
    for seg in pointer.split('/').skip(1) {
        let seg = seg.replace("~1", "/").replace("~0", "~");
        if !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{seg}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&seg);
        }
    }
    out
}

fn escape(seg: &str) -> String {
    seg.replace('~', "~0").replace('/', "~1")
}

fn quote(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{s:?}"),
        other => other.to_string(),
    }
}

fn type_word(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
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

fn schema_errors(
    validator: &jsonschema::Validator,
    schema: &Value,
    head: &Value,
    out: &mut Vec<Finding>,
) {
    use jsonschema::error::ValidationErrorKind as K;
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

fn schema_error(error: &jsonschema::ValidationError<'_>, schema: &Value, out: &mut Vec<Finding>) {
    use jsonschema::error::ValidationErrorKind as K;
    {
        let pointer = error.instance_path().as_str().to_string();
        let field = field_path(&pointer);
        let instance = error.instance().clone().into_owned();
        let finding = |message: String, help: Option<String>| Finding {
            kind: FindingKind::Schema,
            pointer: pointer.clone(),
            at_key: false,
            field: field.clone(),
            message,
            help,
            related: None,
            blocks_rules: false,
        };
        match error.kind() {
            K::AdditionalProperties { unexpected } => {
                let known: Vec<String> = schema_at(schema, &pointer)
                    .and_then(|s| s.get("properties"))
                    .and_then(Value::as_object)
                    .map(|p| p.keys().cloned().collect())
                    .unwrap_or_default();
                for name in unexpected {
                    let p = format!("{pointer}/{}", escape(name));
                    let hint = crate::text::closest(name, known.iter().map(String::as_str))
                        .map(|s| format!("did you mean `{s}`? "));
                    out.push(Finding {
                        kind: FindingKind::UnknownField,
                        field: field_path(&p),
                        message: format!("unknown field \"{}\"", field_path(&p)),
                        pointer: p,
                        at_key: true,
                        help: hint,
                        related: None,
                        blocks_rules: false,
                    });
                }
            }
            K::Required { property } => {
                let name = property.as_str().unwrap_or_default();
                let p = format!("{pointer}/{}", escape(name));
                out.push(Finding {
                    field: field_path(&p),
                    pointer: p,
                    ..finding("Required value".into(), Some(format!("add `{name}`")))
                });
            }
            K::Enum { options } => {
                let allowed: Vec<String> = options
                    .as_array()
                    .map(|a| a.iter().map(quote).collect())
                    .unwrap_or_default();
                out.push(finding(
                    format!(
                        "Unsupported value: {}: supported values: {}",
                        quote(&instance),
                        allowed.join(", ")
                    ),
                    Some(format!("use one of {}", allowed.join(", "))),
                ));
            }
            K::Pattern { pattern } => out.push(finding(
                format!("{field} in body should match '{pattern}'"),
                Some(format!(
                    "the value must match the regular expression `{pattern}`"
                )),
            )),
            K::MinLength { limit } => out.push(finding(
                format!("{field} in body should be at least {limit} chars long"),
                Some(format!("give at least {limit} characters")),
            )),
            K::MaxLength { limit } => out.push(finding(
                format!("Too long: may not be more than {limit} bytes"),
                Some(format!("shorten it to at most {limit} characters")),
            )),
            K::MinItems { limit } => out.push(finding(
                format!("{field} in body should have at least {limit} items"),
                Some(format!("list at least {limit} items")),
            )),
            K::MaxItems { limit } => out.push(finding(
                format!("Too many: must have at most {limit} items"),
                Some(format!("list at most {limit} items")),
            )),
            K::Minimum { limit } => out.push(finding(
                format!("{field} in body should be greater than or equal to {limit}"),
                None,
            )),
            K::Maximum { limit } => out.push(finding(
                format!("{field} in body should be less than or equal to {limit}"),
                None,
            )),
            K::ExclusiveMinimum { limit } => out.push(finding(
                format!("{field} in body should be greater than {limit}"),
                None,
            )),
            K::ExclusiveMaximum { limit } => out.push(finding(
                format!("{field} in body should be less than {limit}"),
                None,
            )),
            K::Type { kind } => {
                let want = match kind {
                    jsonschema::error::TypeKind::Single(t) => t.to_string(),
                    jsonschema::error::TypeKind::Multiple(set) => set
                        .iter()
                        .map(|t| t.to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                };
                out.push(finding(
                    format!(
                        "Invalid value: \"{}\": {field} in body must be of type {want}",
                        type_word(&instance)
                    ),
                    Some(format!("write a value of type {want}")),
                ))
            }
            K::Format { format } => out.push(finding(
                format!(
                    "{field} in body must be of type {format}: {}",
                    quote(&instance)
                ),
                Some(match format.as_str() {
                    "byte" => {
                        "encode the value in base64 (or put plain text under `stringData`)".into()
                    }
                    "duration" => "write a duration such as `30s`, `5m` or `1h30m`".into(),
                    other => format!("write a valid {other}"),
                }),
            )),
            _ => out.push(finding(format!("Invalid value: {error}"), None)),
        }
    }
}

fn rules_of(schema: &Value) -> &[Value] {
    schema
        .get("x-kubernetes-validations")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

fn walk(
    schema: &Value,
    v: &Value,
    old: Option<&Value>,
    ptr: &str,
    run_rules: bool,
    report: &mut Report,
) {
    if v.is_null() {
        return;
    }
    let rules = rules_of(schema);
    if run_rules && !rules.is_empty() {
        let this = cel::to_cel(v);
        // The same value on both sides (an unchanged object): no second conversion, no deep
        // comparison for ratcheting.
        let same = old.is_some_and(|o| std::ptr::eq(o, v));
        let old_cel = if same {
            Some(this.clone())
        } else {
            old.map(cel::to_cel)
        };
        cel::at_node(&this, old_cel.as_ref(), |bound| {
            for rule in rules {
                let old = Compared {
                    value: old_cel.as_ref(),
                    same,
                };
                run_rule(rule, v, &this, old, bound, ptr, report);
            }
        });
    }
    match v {
        Value::Object(map) => {
            let props = schema.get("properties").and_then(Value::as_object);
            let ap = schema.get("additionalProperties").filter(|a| a.is_object());
            for (name, value) in map {
                let sub = props.and_then(|p| p.get(name)).or(ap);
                if let Some(sub) = sub {
                    let old_value = old.and_then(|o| o.get(name));
                    let p = format!("{ptr}/{}", escape(name));
                    walk(sub, value, old_value, &p, run_rules, report);
                }
            }
        }
        Value::Array(items) => {
            let list_type = schema.get("x-kubernetes-list-type").and_then(Value::as_str);
            let keys: Vec<&str> = schema
                .get("x-kubernetes-list-map-keys")
                .and_then(Value::as_array)
                .map(|k| k.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            duplicates(list_type, &keys, items, ptr, report);
            if let Some(sub) = schema.get("items") {
                for (i, item) in items.iter().enumerate() {
                    let old_item = match (list_type, old) {
                        (Some("map"), Some(Value::Array(old_items))) => old_items
                            .iter()
                            .find(|o| keys.iter().all(|k| o.get(k) == item.get(k))),
                        _ => None,
                    };
                    walk(
                        sub,
                        item,
                        old_item,
                        &format!("{ptr}/{i}"),
                        run_rules,
                        report,
                    );
                }
            }
        }
        _ => {}
    }
}

fn duplicates(
    list_type: Option<&str>,
    keys: &[&str],
    items: &[Value],
    ptr: &str,
    report: &mut Report,
) {
    let key_of = |item: &Value| -> Option<Value> {
        match list_type {
            Some("map") => {
                let mut m = serde_json::Map::new();
                for k in keys {
                    m.insert((*k).to_string(), item.get(*k)?.clone());
                }
                Some(Value::Object(m))
            }
            Some("set") => Some(item.clone()),
            _ => None,
        }
    };
    let mut seen: Vec<(Value, usize)> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let Some(key) = key_of(item) else { continue };
        if let Some((_, first)) = seen.iter().find(|(k, _)| *k == key) {
            let item_pointer = format!("{ptr}/{i}");
            // Point at the item's (first) key field: one line, where the two items differ.
            let at = |index: usize| match (list_type, keys.first()) {
                (Some("map"), Some(k)) => format!("{ptr}/{index}/{}", escape(k)),
                _ => format!("{ptr}/{index}"),
            };
            let shown = match (&key, list_type) {
                (Value::Object(m), Some("map")) => {
                    let parts: Vec<String> =
                        m.iter().map(|(k, v)| format!("{k}={}", quote(v))).collect();
                    parts.join(", ")
                }
                _ => quote(&key),
            };
            report.findings.push(Finding {
                kind: FindingKind::DuplicateKey,
                field: field_path(&item_pointer),
                pointer: at(i),
                at_key: false,
                message: format!("Duplicate value: {shown}"),
                help: Some(format!(
                    "item {first} has the same {}; merge the two items or remove one",
                    if list_type == Some("map") {
                        "key"
                    } else {
                        "value"
                    }
                )),
                related: Some(at(*first)),
                blocks_rules: false,
            });
        } else {
            seen.push((key, i));
        }
    }
}

/// Resolves a rule's `fieldPath` (`.spec.foo`, `.foo['bar']`, `.items[0]`) to a pointer suffix.
pub fn field_path_pointer(field_path: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = field_path.trim();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            if end == 0 {
                return None;
            }
            out.push('/');
            out.push_str(&escape(&r[..end]));
            rest = &r[end..];
        } else if let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']')?;
            let inner = r[..end].trim_matches(|c| c == '\'' || c == '"');
            out.push('/');
            out.push_str(&escape(inner));
            rest = &r[end + 1..];
        } else {
            return None;
        }
    }
    Some(out)
}

/// The old value at a node, and whether it is known to be the new value itself.
#[derive(Clone, Copy)]
struct Compared<'a> {
    value: Option<&'a cel::Value>,
    same: bool,
}

fn run_rule(
    rule: &Value,
    v: &Value,
    this: &cel::Value,
    compared: Compared<'_>,
    bound: &mut cel::Bound<'_>,
    ptr: &str,
    report: &mut Report,
) {
    let old = compared.value;
    let Some(text) = rule.get("rule").and_then(Value::as_str) else {
        return;
    };
    let transition = super::cel::is_transition(text);
    let optional_old = rule.get("optionalOldSelf").and_then(Value::as_bool) == Some(true);
    if transition && old.is_none() && !optional_old {
        // Kubernetes runs a transition rule only on update, where the old object has the field.
        return;
    }
    if transition && !optional_old && (compared.same || old == Some(this)) {
        // Validation ratcheting: the API server does not re-validate a value the update leaves
        // as it was (a missing field stays "no such key" on both sides, which is not a change).
        report.evaluated += 1;
        return;
    }
    let old_self = if transition && optional_old {
        cel::OldSelf::Optional
    } else if transition {
        cel::OldSelf::Value
    } else {
        cel::OldSelf::Unbound
    };
    match bound.evaluate(text, old_self) {
        Outcome::Pass => report.evaluated += 1,
        Outcome::Unevaluable(reason) => report.skipped.push(Skipped {
            pointer: ptr.to_string(),
            rule: text.to_string(),
            reason,
        }),
        outcome @ (Outcome::Fail | Outcome::Error(_)) => {
            report.evaluated += 1;
            let message = rule
                .get("messageExpression")
                .and_then(Value::as_str)
                .and_then(|e| bound.message(e, old_self))
                .or_else(|| {
                    rule.get("message")
                        .and_then(Value::as_str)
                        .map(str::to_string)
                })
                .unwrap_or_else(|| format!("failed rule: {text}"));
            // The API server words a runtime error like this (apiextensions validation).
            let message = match outcome {
                Outcome::Error(e) => format!("{e} evaluating rule: {message}"),
                _ => message,
            };
            let suffix = rule
                .get("fieldPath")
                .and_then(Value::as_str)
                .and_then(field_path_pointer)
                .unwrap_or_default();
            let pointer = format!("{ptr}{suffix}");
            let prefix = match rule.get("reason").and_then(Value::as_str) {
                Some("FieldValueForbidden") => "Forbidden".to_string(),
                Some("FieldValueRequired") => "Required value".to_string(),
                Some("FieldValueDuplicate") => "Duplicate value".to_string(),
                _ => format!("Invalid value: \"{}\"", type_word(v)),
            };
            report.findings.push(Finding {
                kind: if transition {
                    FindingKind::TransitionRule
                } else {
                    FindingKind::Rule
                },
                field: field_path(&pointer),
                pointer,
                at_key: false,
                message: format!("{prefix}: {message}"),
                help: Some(if transition {
                    format!(
                        "keep the base revision's value, or replace the object with a new one; \
                         the CRD's rule is `{text}`"
                    )
                } else {
                    format!("the CRD's validation rule is `{text}`")
                }),
                related: None,
                blocks_rules: false,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_paths_read_like_the_api_server() {
        assert_eq!(field_path("/spec/taints/0/key"), "spec.taints[0].key");
        assert_eq!(field_path(""), "");
        assert_eq!(
            field_path_pointer(".spec.foo['a/b'][0]").as_deref(),
            Some("/spec/foo/a~1b/0")
        );
        assert_eq!(field_path_pointer("spec"), None);
    }

    #[test]
    fn transition_rules_are_recognised_by_identifier() {
        assert!(crate::validate::cel::is_transition("self == oldSelf"));
        assert!(crate::validate::cel::is_transition("oldSelf.x"));
        assert!(!crate::validate::cel::is_transition("self.oldSelfish == 1"));
    }

    use crate::validate::catalog::SchemaEntry;
    use crate::validate::convert::{convert_node, Converted};
    use serde_json::json;

    /// A schema entry from an OpenAPI v3 schema, converted as a CRD's would be.
    fn entry(openapi: Value) -> SchemaEntry {
        SchemaEntry::from_converted(
            Converted {
                group: "example.com".into(),
                kind: "Widget".into(),
                version: "v1".into(),
                feature_set: "all".into(),
                schema: convert_node(&openapi, false),
            },
            "test",
        )
    }

    fn lines(report: &Report) -> Vec<String> {
        report
            .findings
            .iter()
            .map(|f| format!("{:?} {} {}", f.kind, f.pointer, f.message))
            .collect()
    }

    #[test]
    fn kubernetes_extensions_are_honoured() {
        let e = entry(json!({
            "type": "object",
            "properties": {
                "metadata": {"type": "object"},
                "n": {"x-kubernetes-int-or-string": true},
                "opt": {"type": "string", "nullable": true},
                "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true,
                         "properties": {"a": {"type": "string"}}},
                "strict": {"type": "object", "properties": {"a": {"type": "string"}}},
                "tags": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"}
            }
        }));
        let ok = json!({"metadata": {"name": "a", "labels": {}}, "n": "10%", "opt": null, "free": {"a": "x", "b": 1}, "strict": {"a": "x"}, "tags": ["a", "b"]});
        assert_eq!(lines(&validate(&e, &ok, None)), Vec::<String>::new());
        let bad =
            json!({"metadata": {"lables": {}}, "n": true, "strict": {"b": 1}, "tags": ["a", "a"]});
        assert_eq!(
            lines(&validate(&e, &bad, None)),
            vec![
                "UnknownField /metadata/lables unknown field \"metadata.lables\"",
                "Schema /n Invalid value: \"boolean\": n in body must be of type integer, string",
                "UnknownField /strict/b unknown field \"strict.b\"",
                "DuplicateKey /tags/1 Duplicate value: \"a\"",
            ]
        );
    }

    #[test]
    fn type_and_enum_errors_hold_back_the_cel_rules() {
        let e = entry(json!({
            "type": "object",
            "x-kubernetes-validations": [{"rule": "self.a != 'x'", "message": "a is x"}],
            "properties": {"a": {"type": "string", "enum": ["x", "y"]}, "n": {"type": "integer"}}
        }));
        assert_eq!(
            lines(&validate(&e, &json!({"a": "x"}), None)),
            vec!["Rule  Invalid value: \"object\": a is x"]
        );
        let report = validate(&e, &json!({"a": "x", "n": "one"}), None);
        assert_eq!(
            lines(&report),
            vec!["Schema /n Invalid value: \"string\": n in body must be of type integer"]
        );
        assert!(report.findings[0].blocks_rules);
        assert_eq!(report.evaluated, 0);
    }

    #[test]
    fn message_expression_reason_and_field_path_shape_the_finding() {
        let e = entry(json!({
            "type": "object",
            "x-kubernetes-validations": [{
                "rule": "self.min <= self.max",
                "messageExpression": "'min ' + string(self.min) + ' exceeds max ' + string(self.max)",
                "message": "static",
                "reason": "FieldValueForbidden",
                "fieldPath": ".min"
            }],
            "properties": {"min": {"type": "integer"}, "max": {"type": "integer", "default": 5}}
        }));
        let report = validate(&e, &json!({"min": 7}), None);
        assert_eq!(
            lines(&report),
            vec!["Rule /min Forbidden: min 7 exceeds max 5"]
        );
        assert_eq!(report.findings[0].field, "min");
        assert_eq!(report.evaluated, 1);
    }

    #[test]
    fn transition_rules_correlate_list_map_items_by_key() {
        let e = entry(json!({
            "type": "object",
            "properties": {"pools": {
                "type": "array",
                "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["name"],
                "items": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}, "arch": {
                        "type": "string",
                        "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "arch is immutable"}]
                    }}
                }
            }}
        }));
        let old =
            json!({"pools": [{"name": "a", "arch": "amd64"}, {"name": "b", "arch": "arm64"}]});
        // Reordered, `b` changed, `c` new: only `b` is compared, at its new index.
        let new = json!({"pools": [{"name": "b", "arch": "amd64"}, {"name": "c", "arch": "s390x"}, {"name": "a", "arch": "amd64"}]});
        assert_eq!(
            lines(&validate(&e, &new, Some(&old))),
            vec!["TransitionRule /pools/0/arch Invalid value: \"string\": arch is immutable"]
        );
        // Without an old object (a create), transition rules do not run.
        assert_eq!(lines(&validate(&e, &new, None)), Vec::<String>::new());
    }

    #[test]
    fn optional_old_self_runs_on_create_too() {
        let e = entry(json!({
            "type": "object",
            "properties": {"mode": {
                "type": "string",
                "x-kubernetes-validations": [{
                    "rule": "oldSelf.hasValue() || self == 'Initial'",
                    "optionalOldSelf": true,
                    "message": "must start as Initial"
                }]
            }}
        }));
        assert_eq!(
            lines(&validate(&e, &json!({"mode": "Other"}), None)),
            vec!["TransitionRule /mode Invalid value: \"string\": must start as Initial"]
        );
        assert_eq!(
            lines(&validate(
                &e,
                &json!({"mode": "Other"}),
                Some(&json!({"mode": "Initial"}))
            )),
            Vec::<String>::new()
        );
    }

    /// An unchanged object (the base is the same document) is validated exactly like an update to
    /// an equal copy: transition rules ratchet, `optionalOldSelf` rules see the old value, and
    /// plain rules and schema errors are reported as before.
    #[test]
    fn an_unchanged_object_is_validated_like_an_update_to_an_equal_copy() {
        let e = entry(json!({
            "type": "object",
            "properties": {
                "arch": {"type": "string", "x-kubernetes-validations": [
                    {"rule": "self == oldSelf", "message": "arch is immutable"},
                    {"rule": "self != 'arm'", "message": "no arm"}
                ]},
                "mode": {"type": "string", "x-kubernetes-validations": [{
                    "rule": "oldSelf.hasValue() && oldSelf.value() == 'Initial' && self == 'Initial'",
                    "optionalOldSelf": true,
                    "message": "mode stays Initial"
                }]},
                "pools": {"type": "array", "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["name"],
                    "items": {"type": "object", "properties": {
                        "name": {"type": "string"},
                        "size": {"type": "integer", "minimum": 1,
                            "x-kubernetes-validations": [{"rule": "self >= oldSelf", "message": "no shrinking"}]}
                    }}},
                "count": {"type": "integer", "maximum": 3}
            }
        }));
        for object in [
            json!({"arch": "arm", "mode": "Other", "count": 5, "pools": [{"name": "a", "size": 0}, {"name": "a", "size": 2}]}),
            json!({"arch": "x86", "mode": "Initial", "count": 1, "pools": [{"name": "b", "size": 3}]}),
        ] {
            let copy = object.clone();
            assert_eq!(
                lines(&validate_unchanged(&e, &object)),
                lines(&validate(&e, &object, Some(&copy))),
                "{object}"
            );
        }
        assert_eq!(
            lines(&validate_unchanged(
                &e,
                &json!({"arch": "arm", "mode": "Other", "count": 5})
            )),
            vec![
                "Rule /arch Invalid value: \"string\": no arm",
                "Schema /count count in body should be less than or equal to 3",
                "TransitionRule /mode Invalid value: \"string\": mode stays Initial",
            ]
        );
    }

    #[test]
    fn defaults_fill_absent_fields_only() {
        let schema = serde_json::json!({"properties": {"a": {"default": 1}, "b": {"default": 2}}});
        let v = with_defaults(&schema, &serde_json::json!({"b": 5}));
        assert_eq!(v, serde_json::json!({"b": 5, "a": 1}));
    }
}
