//! List uniqueness (`x-kubernetes-list-type: map` keys and `set` values): a check the structural
//! schema cannot express, so the walk runs it on every list.

use serde_json::Value;

use super::fields::{escape, field_path, quote};
use super::{Finding, FindingKind, Report};

/// Reports every list item whose key (map) or value (set) repeats an earlier item's.
pub(super) fn duplicates(
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
                rename: None,
                blocks_rules: false,
            });
        } else {
            seen.push((key, i));
        }
    }
}
