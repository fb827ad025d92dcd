//! `pattern`s compiled on first use, for the few whose regular expression costs more to build
//! than a whole check of a small repository.
//!
//! A pattern with Unicode classes under bounded repetition compiles into a huge automaton: the
//! HostedCluster's `componentRoutes[].hostname` pattern (`[\p{S}\p{L}…]{0,62}`, three times)
//! alone took 40 MiB and 55 ms at every start, for a field almost no manifest sets. Such a
//! pattern is moved to [`KEYWORD`] before the schema compiles; the keyword translates and
//! compiles it the way the validator's own `pattern` does (ECMA-262 → Rust syntax, then
//! fancy-regex) the first time a value reaches it, and reports a mismatch that
//! [`super::engine`] words exactly like `pattern`'s.

use std::sync::OnceLock;

use jsonschema::{Keyword, ValidationError};
use serde_json::{Map, Value};

/// The keyword a costly `pattern` is moved to.
pub const KEYWORD: &str = "x-nodecast-lazy-pattern";

/// Whether compiling `pattern` up front is not worth it: Unicode property classes.
fn costly(pattern: &str) -> bool {
    pattern.contains("\\p{") || pattern.contains("\\P{")
}

/// The schema with every costly `pattern` moved to [`KEYWORD`], or `None` when it has none.
pub fn deferred(schema: &Value) -> Option<Value> {
    fn has(v: &Value) -> bool {
        match v {
            Value::Object(map) => map
                .iter()
                .any(|(k, v)| (k == "pattern" && v.as_str().is_some_and(costly)) || has(v)),
            Value::Array(items) => items.iter().any(has),
            _ => false,
        }
    }
    fn rewrite(v: &mut Value) {
        match v {
            Value::Object(map) => {
                if map
                    .get("pattern")
                    .and_then(Value::as_str)
                    .is_some_and(costly)
                {
                    if let Some(p) = map.remove("pattern") {
                        map.insert(KEYWORD.to_string(), p);
                    }
                }
                map.values_mut().for_each(rewrite);
            }
            Value::Array(items) => items.iter_mut().for_each(rewrite),
            _ => {}
        }
    }
    if !has(schema) {
        return None;
    }
    let mut out = schema.clone();
    rewrite(&mut out);
    Some(out)
}

/// The keyword's compiled form: the pattern, and its regular expression once a value needed it.
struct Deferred {
    pattern: String,
    translated: String,
    regex: OnceLock<Option<fancy_regex::Regex>>,
}

impl Deferred {
    /// Whether `text` matches; a pattern the engine rejects or cannot finish matches everything
    /// (as nothing can be said against the value).
    fn matches(&self, text: &str) -> bool {
        let regex = self
            .regex
            .get_or_init(|| fancy_regex::Regex::new(&self.translated).ok());
        regex
            .as_ref()
            .is_none_or(|r| r.is_match(text).unwrap_or(true))
    }
}

impl<'i> Keyword<'i> for Deferred {
    fn validate(&self, instance: &'i Value) -> Result<(), ValidationError<'i>> {
        if self.is_valid(instance) {
            Ok(())
        } else {
            Err(ValidationError::custom(self.pattern.clone()))
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        instance.as_str().is_none_or(|s| self.matches(s))
    }
}

/// Builds the keyword from its value (the pattern); a pattern that is not a valid regular
/// expression fails the schema's compilation, as `pattern` does.
pub fn factory<'a>(
    _parent: &'a Map<String, Value>,
    value: &'a Value,
    _path: jsonschema::paths::Location,
) -> Result<Box<dyn for<'i> Keyword<'i>>, ValidationError<'a>> {
    let pattern = value
        .as_str()
        .ok_or_else(|| ValidationError::custom("a pattern must be a string"))?;
    let translated = jsonschema_regex::to_rust_regex(pattern)
        .map_err(|()| ValidationError::custom(format!("invalid pattern {pattern}")))?
        .into_owned();
    regex_syntax::parse(&translated)
        .map_err(|e| ValidationError::custom(format!("invalid pattern {pattern}: {e}")))?;
    Ok(Box::new(Deferred {
        pattern: pattern.to_string(),
        translated,
        regex: OnceLock::new(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_costly_patterns_are_deferred() {
        let schema = serde_json::json!({
            "properties": {
                "hostname": {"type": "string", "pattern": "^[\\p{L}a-z]{0,62}$"},
                "name": {"type": "string", "pattern": "^[a-z]+$"},
                "pattern": {"type": "string"}
            }
        });
        let out = deferred(&schema).expect("one costly pattern");
        assert_eq!(
            out["properties"]["hostname"][KEYWORD],
            "^[\\p{L}a-z]{0,62}$"
        );
        assert!(out["properties"]["hostname"].get("pattern").is_none());
        assert_eq!(out["properties"]["name"]["pattern"], "^[a-z]+$");
        assert_eq!(out["properties"]["pattern"]["type"], "string");
        assert!(deferred(&out["properties"]["name"]).is_none());
    }

    /// The deferred keyword accepts and rejects exactly what `pattern` does.
    #[test]
    fn a_deferred_pattern_judges_like_pattern() {
        let pattern = "^([a-zA-Z0-9\\p{S}\\p{L}]((-?[a-zA-Z0-9\\p{S}\\p{L}]{0,62})?)|([a-zA-Z0-9\\p{S}\\p{L}](([a-zA-Z0-9-\\p{S}\\p{L}]{0,61}[a-zA-Z0-9\\p{S}\\p{L}])?)(\\.)){1,}([a-zA-Z\\p{L}]){2,63})$|^(([a-z0-9][-a-z0-9]{0,61}[a-z0-9]|[a-z0-9]{1,63})[\\.]){0,}([a-z0-9][-a-z0-9]{0,61}[a-z0-9]|[a-z0-9]{1,63})$";
        let plain = serde_json::json!({"type": "string", "pattern": pattern});
        let lazy = deferred(&plain).expect("costly");
        let eager = jsonschema::validator_for(&plain).expect("compiles");
        let deferred = jsonschema::options()
            .with_keyword(KEYWORD, factory)
            .build(&lazy)
            .expect("compiles");
        for value in [
            "console.apps.example.com",
            "bücher.example.de",
            "-bad.example.com",
            "a..b",
            "x",
            "UPPER.example.com",
            "",
        ] {
            let v = serde_json::json!(value);
            assert_eq!(deferred.is_valid(&v), eager.is_valid(&v), "{value}");
            assert_eq!(deferred.validate(&v).is_ok(), eager.is_valid(&v), "{value}");
        }
        let invalid = serde_json::json!({"type": "string", "x-nodecast-lazy-pattern": "[\\p{L}"});
        assert!(jsonschema::options()
            .with_keyword(KEYWORD, factory)
            .build(&invalid)
            .is_err());
    }
}
