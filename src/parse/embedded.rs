//! YAML documents embedded in HyperShift ConfigMaps (`data.config`, `data.tuning`).

use nodecast_yaml::{Node, Options, Problem, Span};

use super::{decode_doc_within, type_meta, Budget, ParsedDoc};

/// The ConfigMap keys HyperShift reads manifests from (NodePool `spec.config` and `spec.tuningConfig`).
pub const MANIFEST_KEYS: [&str; 2] = ["config", "tuning"];

/// Documents parsed out of one ConfigMap value, located in the outer file.
#[derive(Debug)]
pub struct Embedded {
    /// The `data` key (`config` or `tuning`).
    pub key: String,
    /// The span of the value scalar in the outer file.
    pub value_span: Span,
    /// The embedded documents (spans point into the outer file).
    pub docs: Vec<ParsedDoc>,
    /// YAML problems inside the value (spans point into the outer file).
    pub problems: Vec<Problem>,
    /// False when positions inside the value are approximate (the scalar could not be mapped).
    pub exact: bool,
    /// Each document's byte range in the value's own text, as `docs` lists them.
    pub within: Vec<(u32, u32)>,
}

/// Parses every manifest-looking `data.config` / `data.tuning` of a ConfigMap document.
pub fn decode(outer: &str, root: Node<'_>, opts: &Options, budget: &mut Budget) -> Vec<Embedded> {
    if type_meta(root) != Some(("v1", "ConfigMap")) {
        return Vec::new();
    }
    let Some(data) = root.get("data") else {
        return Vec::new();
    };
    MANIFEST_KEYS
        .iter()
        .filter_map(|key| {
            let value = data.get(key)?;
            let text = value.as_str()?;
            if !looks_like_manifests(text) {
                return None;
            }
            let (parsed, exact, within) =
                nodecast_yaml::parse_embedded_exact(outer, value, &budget.options(opts));
            budget.take(&parsed);
            Some(Embedded {
                key: (*key).to_string(),
                value_span: value.span(),
                docs: parsed
                    .documents
                    .into_iter()
                    .map(|doc| decode_doc_within(outer, doc, opts, budget))
                    .collect(),
                problems: parsed.problems,
                exact,
                within,
            })
        })
        .collect()
}

/// A value holds manifests when some line starts with `apiVersion:` or `kind:`; other payloads
/// (INI, JSON settings of unrelated ConfigMaps) are left alone.
fn looks_like_manifests(text: &str) -> bool {
    text.lines().any(|line| {
        let t = line.trim_start().trim_start_matches("- ");
        t.starts_with("apiVersion:") || t.starts_with("kind:") || t.starts_with("\"apiVersion\":")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_detection() {
        assert!(looks_like_manifests("apiVersion: v1\nkind: X\n"));
        assert!(looks_like_manifests("---\nkind: MachineConfig\n"));
        assert!(!looks_like_manifests("[main]\nkey = value\n"));
        assert!(!looks_like_manifests("{\"a\": 1}"));
    }
}
