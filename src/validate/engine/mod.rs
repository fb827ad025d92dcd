//! Validates one object against one compiled schema (compiled and held by the catalog):
//! structural schema (jsonschema crate), list-type uniqueness, and every
//! `x-kubernetes-validations` CEL rule, with `oldSelf` bound to the base object at the same path
//! for transition rules.
//!
//! This module holds the findings' types and the entry points, which run the steps in the API
//! server's order; each child does one job: `defaults` fills schema defaults, `schema_errors`
//! translates the structural schema's errors, `rules` walks the object for the CEL rules, `lists`
//! checks list keys for duplicates, and `fields` writes paths and values as the API server does.
//! The walks go only where the schema's [`super::reach`] says defaults and rules are.

use serde_json::Value;

use super::catalog::SchemaEntry;

mod defaults;
mod fields;
mod lists;
mod rules;
mod schema_errors;

use defaults::with_defaults;
use fields::escape;
pub use fields::{field_path, field_path_pointer};
use rules::walk;
use schema_errors::schema_errors;

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
    /// The declared name an unknown field most likely means (its key can be renamed to it).
    pub rename: Option<String>,
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

/// Validates `head` (with `old` as the base revision of the same object, if any); `head` is
/// taken, as the API server's defaults are filled into it.
pub fn validate(entry: &SchemaEntry, head: Value, old: Option<&Value>) -> Report {
    validate_with(entry, head, old.map(Old::Value))
}

/// Validates an update that leaves the object as it was (the base revision is the same document):
/// like [`validate`] with `old` equal to `head`, without converting or comparing the old object —
/// every transition rule ratchets.
pub fn validate_unchanged(entry: &SchemaEntry, head: Value) -> Report {
    validate_with(entry, head, Some(Old::SameAsHead))
}

/// The base revision of the object being validated.
enum Old<'a> {
    Value(&'a Value),
    SameAsHead,
}

/// The shared body of [`validate`] and [`validate_unchanged`]: defaults, schema, ObjectMeta, rules.
fn validate_with(entry: &SchemaEntry, head: Value, old: Option<Old<'_>>) -> Report {
    let schema = entry.schema();
    let reach = entry.reach();
    let head = with_defaults(schema, reach, head);
    let old_owned = match old {
        Some(Old::Value(o)) => Some(with_defaults(schema, reach, o.clone())),
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
    walk(schema, reach, &head, old, "", run_rules, &mut report);
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
    walk(
        entry.schema(),
        entry.reach(),
        patch,
        None,
        "",
        false,
        &mut report,
    );
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

/// ObjectMeta fields the API server would drop, which the open `metadata` schema lets through.
fn metadata_fields(object: &Value, out: &mut Vec<Finding>) {
    let Some(meta) = object.get("metadata").and_then(Value::as_object) else {
        return;
    };
    for name in meta.keys() {
        if OBJECT_META.contains(&name.as_str()) {
            continue;
        }
        let pointer = format!("/metadata/{}", escape(name));
        let closest = crate::text::closest(name, OBJECT_META.iter().copied());
        let hint = closest.map(|s| format!("did you mean `{s}`? "));
        out.push(Finding {
            kind: FindingKind::UnknownField,
            field: field_path(&pointer),
            message: format!("unknown field \"{}\"", field_path(&pointer)),
            pointer,
            at_key: true,
            help: hint,
            related: None,
            rename: closest.map(str::to_string),
            blocks_rules: false,
        });
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
        assert_eq!(lines(&validate(&e, ok, None)), Vec::<String>::new());
        let bad =
            json!({"metadata": {"lables": {}}, "n": true, "strict": {"b": 1}, "tags": ["a", "a"]});
        assert_eq!(
            lines(&validate(&e, bad, None)),
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
            lines(&validate(&e, json!({"a": "x"}), None)),
            vec!["Rule  Invalid value: \"object\": a is x"]
        );
        let report = validate(&e, json!({"a": "x", "n": "one"}), None);
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
        let report = validate(&e, json!({"min": 7}), None);
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
            lines(&validate(&e, new.clone(), Some(&old))),
            vec!["TransitionRule /pools/0/arch Invalid value: \"string\": arch is immutable"]
        );
        // Without an old object (a create), transition rules do not run.
        assert_eq!(lines(&validate(&e, new, None)), Vec::<String>::new());
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
            lines(&validate(&e, json!({"mode": "Other"}), None)),
            vec!["TransitionRule /mode Invalid value: \"string\": must start as Initial"]
        );
        assert_eq!(
            lines(&validate(
                &e,
                json!({"mode": "Other"}),
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
                lines(&validate_unchanged(&e, object.clone())),
                lines(&validate(&e, object.clone(), Some(&copy))),
                "{object}"
            );
        }
        assert_eq!(
            lines(&validate_unchanged(
                &e,
                json!({"arch": "arm", "mode": "Other", "count": 5})
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
        let reach = crate::validate::reach::Reach::of(&schema);
        let v = with_defaults(&schema, &reach, serde_json::json!({"b": 5}));
        assert_eq!(v, serde_json::json!({"b": 5, "a": 1}));
    }
}
