//! The CEL half of validation: walks an object beside its schema, runs each node's
//! `x-kubernetes-validations` rules with `oldSelf` bound to the base revision's value at the same
//! place (list-map items matched by key), and words a failed rule as the API server does.

use serde_json::Value;

use super::fields::{field_path, field_path_pointer, type_word};
use super::lists::duplicates;
use super::{Finding, FindingKind, Report, Skipped};
use crate::validate::cel::{self, Outcome};
use crate::validate::reach::Reach;

/// A node's CEL rules (`x-kubernetes-validations`), empty when it has none.
fn rules_of(schema: &Value) -> &[Value] {
    schema
        .get("x-kubernetes-validations")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

/// Validates one node and everything below it: its rules (unless held back), its fields or its
/// items (with list uniqueness), entering only the fields and items the schema's `reach` says
/// have rules or list keys below them. Debug builds also walk every field the schema declares and
/// assert the same report, in every suite.
pub(super) fn walk(
    schema: &Value,
    reach: &Reach,
    v: &Value,
    old: Option<&Value>,
    ptr: &str,
    run_rules: bool,
    report: &mut Report,
) {
    #[cfg(debug_assertions)]
    let full = {
        let mut full = report.clone();
        let mut at = ptr.to_string();
        walk_at(schema, None, v, old, &mut at, run_rules, &mut full);
        full
    };
    if reach.has_rules() {
        let mut at = ptr.to_string();
        walk_at(schema, Some(reach), v, old, &mut at, run_rules, report);
    }
    #[cfg(debug_assertions)]
    assert_eq!(*report, full, "rules walk pruned by the schema's reach");
}

/// [`walk`] with the pointer in one buffer, extended and cut back on the way: a document has
/// thousands of nodes, and a pointer is read only where a rule runs or fails. With `reach`, only
/// where it leads; without, every field the schema declares.
fn walk_at(
    schema: &Value,
    reach: Option<&Reach>,
    v: &Value,
    old: Option<&Value>,
    ptr: &mut String,
    run_rules: bool,
    report: &mut Report,
) {
    if v.is_null() {
        return;
    }
    if run_rules {
        node_rules(schema, v, old, ptr, report);
    }
    match v {
        Value::Object(map) => {
            let props = schema.get("properties").and_then(Value::as_object);
            let ap = schema.get("additionalProperties").filter(|a| a.is_object());
            for (name, value) in map {
                let below = match reach.map(|r| r.field_for_rules(name)) {
                    Some(None) => continue,
                    Some(below) => below,
                    None => None,
                };
                let sub = props.and_then(|p| p.get(name)).or(ap);
                if let Some(sub) = sub {
                    let old_value = old.and_then(|o| o.get(name));
                    let len = ptr.len();
                    nodecast_yaml::pointer::push_segment(ptr, name);
                    walk_at(sub, below, value, old_value, ptr, run_rules, report);
                    ptr.truncate(len);
                }
            }
        }
        Value::Array(items) => walk_items(schema, reach, items, old, ptr, run_rules, report),
        _ => {}
    }
}

/// Runs a node's rules, converting the node (and its base value) to CEL once for all of them.
fn node_rules(schema: &Value, v: &Value, old: Option<&Value>, ptr: &str, report: &mut Report) {
    let rules = rules_of(schema);
    if rules.is_empty() {
        return;
    }
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

/// A list: its duplicates, then each item, with a list-map item's base value found by its keys.
fn walk_items(
    schema: &Value,
    reach: Option<&Reach>,
    items: &[Value],
    old: Option<&Value>,
    ptr: &mut String,
    run_rules: bool,
    report: &mut Report,
) {
    let list_type = schema.get("x-kubernetes-list-type").and_then(Value::as_str);
    let keys: Vec<&str> = schema
        .get("x-kubernetes-list-map-keys")
        .and_then(Value::as_array)
        .map(|k| k.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    duplicates(list_type, &keys, items, ptr, report);
    let below = match reach.map(|r| r.items(true)) {
        Some(None) => return,
        Some(below) => below,
        None => None,
    };
    let Some(sub) = schema.get("items") else {
        return;
    };
    for (i, item) in items.iter().enumerate() {
        let old_item = match (list_type, old) {
            (Some("map"), Some(Value::Array(old_items))) => old_items
                .iter()
                .find(|o| keys.iter().all(|k| o.get(k) == item.get(k))),
            _ => None,
        };
        let len = ptr.len();
        nodecast_yaml::pointer::push_index(ptr, i);
        walk_at(sub, below, item, old_item, ptr, run_rules, report);
        ptr.truncate(len);
    }
}

/// The old value at a node, and whether it is known to be the new value itself.
#[derive(Clone, Copy)]
struct Compared<'a> {
    value: Option<&'a cel::Value>,
    same: bool,
}

/// How a rule runs against the base revision.
enum Run {
    /// Not at all: a transition rule on a create.
    Not,
    /// Counted as passing without evaluation: validation ratcheting of an unchanged value.
    Ratchet,
    /// Evaluated, with `oldSelf` bound this way.
    With(cel::OldSelf),
}

/// Decides how a rule runs: Kubernetes runs transition rules only on update, and does not
/// re-validate a value the update leaves as it was.
fn how_to_run(rule: &Value, text: &str, this: &cel::Value, compared: Compared<'_>) -> Run {
    let old = compared.value;
    let transition = cel::is_transition(text);
    let optional_old = rule.get("optionalOldSelf").and_then(Value::as_bool) == Some(true);
    if transition && old.is_none() && !optional_old {
        // Kubernetes runs a transition rule only on update, where the old object has the field.
        return Run::Not;
    }
    if transition && !optional_old && (compared.same || old == Some(this)) {
        // Validation ratcheting: the API server does not re-validate a value the update leaves
        // as it was (a missing field stays "no such key" on both sides, which is not a change).
        return Run::Ratchet;
    }
    Run::With(if transition && optional_old {
        cel::OldSelf::Optional
    } else if transition {
        cel::OldSelf::Value
    } else {
        cel::OldSelf::Unbound
    })
}

/// Evaluates one rule at a node: counted when it passes, recorded when nodecast cannot evaluate
/// it, a finding when it fails.
fn run_rule(
    rule: &Value,
    v: &Value,
    this: &cel::Value,
    compared: Compared<'_>,
    bound: &mut cel::Bound<'_>,
    ptr: &str,
    report: &mut Report,
) {
    let Some(text) = rule.get("rule").and_then(Value::as_str) else {
        return;
    };
    let old_self = match how_to_run(rule, text, this, compared) {
        Run::Not => return,
        Run::Ratchet => {
            report.evaluated += 1;
            return;
        }
        Run::With(old_self) => old_self,
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
            let message = rule_message(rule, text, bound, old_self, &outcome);
            let transition = cel::is_transition(text);
            report
                .findings
                .push(rule_finding(rule, text, v, ptr, transition, message));
        }
    }
}

/// The rule's own message (`messageExpression`, then `message`, then the rule text), with a
/// runtime error worded as the API server words it.
fn rule_message(
    rule: &Value,
    text: &str,
    bound: &mut cel::Bound<'_>,
    old_self: cel::OldSelf,
    outcome: &Outcome,
) -> String {
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
    match outcome {
        Outcome::Error(e) => format!("{e} evaluating rule: {message}"),
        _ => message,
    }
}

/// A failed rule's finding, at its `fieldPath` and prefixed by its `reason`, as the API server
/// reports it.
fn rule_finding(
    rule: &Value,
    text: &str,
    v: &Value,
    ptr: &str,
    transition: bool,
    message: String,
) -> Finding {
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
    Finding {
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
        rename: None,
        blocks_rules: false,
    }
}
