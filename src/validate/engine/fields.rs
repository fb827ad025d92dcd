//! Field paths and values as the API server writes them in its messages, and JSON-pointer
//! escaping: shared by every kind of finding the engine makes.

use serde_json::Value;

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

/// A key as one JSON-pointer segment (`~` and `/` escaped).
pub(super) fn escape(seg: &str) -> String {
    seg.replace('~', "~0").replace('/', "~1")
}

/// A value as the API server quotes it in a message (strings in double quotes).
pub(super) fn quote(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{s:?}"),
        other => other.to_string(),
    }
}

/// The JSON type name the API server uses for a value (`integer` for whole numbers).
pub(super) fn type_word(v: &Value) -> &'static str {
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
