//! The schemas a run validates with: the bundled ones (embedded at build time from `schemas/`),
//! CRDs found in the linted repository, and `--schemas DIR`. Each is parsed and compiled once,
//! on first use, and shared by every object (and, for bundled ones, every run in the process).

use std::sync::{Arc, OnceLock};

use serde_json::Value;

use super::convert::Converted;

mod table {
    include!(concat!(env!("OUT_DIR"), "/schema_table.rs"));
}

/// One schema: which kind/version/feature set it validates, and its compiled form.
pub struct SchemaEntry {
    /// API group.
    pub group: String,
    /// Kind.
    pub kind: String,
    /// Version.
    pub version: String,
    /// Feature set (`Default`, `TechPreviewNoUpgrade`, `all`).
    pub feature_set: String,
    /// Where it comes from (`bundled`, a repository path, a `--schemas` file).
    pub origin: String,
    /// The cluster whose repository CRD this is, set only where the repository's CRDs of the kind
    /// disagree ([`Catalog::find_in`]).
    pub cluster: Option<String>,
    text: Option<&'static str>,
    json: OnceLock<Value>,
    validator: OnceLock<Result<jsonschema::Validator, String>>,
    transition: OnceLock<bool>,
    optional_old_self: OnceLock<bool>,
    reach: OnceLock<super::reach::Reach>,
}

impl SchemaEntry {
    fn bundled(path: &str, text: &'static str) -> Option<Self> {
        let mut parts = path.trim_end_matches(".json").split('/');
        let group = parts.next()?;
        let kind = parts.next()?;
        let version = parts.next()?;
        let feature_set = parts.next()?;
        Some(SchemaEntry {
            group: if group == "core" {
                String::new()
            } else {
                group.to_string()
            },
            kind: kind.to_string(),
            version: version.to_string(),
            feature_set: feature_set.to_string(),
            origin: "bundled".into(),
            cluster: None,
            text: Some(text),
            json: OnceLock::new(),
            validator: OnceLock::new(),
            transition: OnceLock::new(),
            optional_old_self: OnceLock::new(),
            reach: OnceLock::new(),
        })
    }

    /// A schema converted at run time.
    pub fn from_converted(c: Converted, origin: &str) -> Self {
        let json = OnceLock::new();
        let _ = json.set(c.schema);
        SchemaEntry {
            group: c.group,
            kind: c.kind,
            version: c.version,
            feature_set: c.feature_set,
            origin: origin.to_string(),
            cluster: None,
            text: None,
            json,
            validator: OnceLock::new(),
            transition: OnceLock::new(),
            optional_old_self: OnceLock::new(),
            reach: OnceLock::new(),
        }
    }

    /// The JSON Schema (parsed on first use).
    pub fn schema(&self) -> &Value {
        self.json.get_or_init(|| {
            self.text
                .and_then(|t| serde_json::from_str(t).ok())
                .unwrap_or(Value::Bool(true))
        })
    }

    /// Where in the schema defaults and CEL rules are (mapped on first use), so the walks after
    /// the structural check skip the fields with neither.
    pub fn reach(&self) -> &super::reach::Reach {
        self.reach
            .get_or_init(|| super::reach::Reach::of(self.schema()))
    }

    /// The compiled validator (compiled on first use).
    pub fn validator(&self) -> &Result<jsonschema::Validator, String> {
        self.validator.get_or_init(|| {
            let deferred = super::lazy_pattern::deferred(self.schema());
            jsonschema::options()
                .with_keyword(super::lazy_pattern::KEYWORD, super::lazy_pattern::factory)
                .with_draft(jsonschema::Draft::Draft202012)
                // The formats the API server checks on strings; `int32`/`int64` only describe
                // numbers and other unknown formats are annotations.
                .should_validate_formats(true)
                .should_ignore_unknown_formats(true)
                .with_format("byte", is_base64)
                .with_format("duration", |s: &str| {
                    super::cel::k8s::parse_duration(s).is_some()
                })
                .build(deferred.as_ref().unwrap_or(self.schema()))
                .map_err(|e| format!("the schema does not compile: {e}"))
        })
    }

    /// Whether any rule of the schema may read an absent `oldSelf` (`optionalOldSelf: true`,
    /// checked anywhere in the schema): such a rule runs on a create too, so an unchanged
    /// update's result is not a create's.
    pub fn has_optional_old_self(&self) -> bool {
        fn any(v: &Value) -> bool {
            match v {
                Value::Object(map) => map
                    .iter()
                    .any(|(k, v)| (k == "optionalOldSelf" && v.as_bool() == Some(true)) || any(v)),
                Value::Array(items) => items.iter().any(any),
                _ => false,
            }
        }
        *self.optional_old_self.get_or_init(|| any(self.schema()))
    }

    /// Whether any rule of the schema is a transition rule (reads `oldSelf`).
    pub fn has_transition_rules(&self) -> bool {
        *self.transition.get_or_init(|| {
            let mut found = false;
            visit_rules(self.schema(), "", &mut |_, rule| {
                found |= super::cel::is_transition(rule);
            });
            found
        })
    }
}

/// The `byte` format: standard base64 (what a Secret's `data` values must be), decoded as the
/// API server's Go decoder does, which skips `\r` and `\n` (Kustomize's generators wrap
/// base64 every 70 characters).
fn is_base64(s: &str) -> bool {
    use base64::Engine;
    let joined: String = s.chars().filter(|c| !matches!(c, '\r' | '\n')).collect();
    base64::engine::general_purpose::STANDARD
        .decode(joined)
        .is_ok()
}

/// Calls `f(schema_path, rule)` for every `x-kubernetes-validations` rule of a schema.
pub fn visit_rules(schema: &Value, path: &str, f: &mut dyn FnMut(&str, &str)) {
    let Some(obj) = schema.as_object() else {
        return;
    };
    if let Some(Value::Array(rules)) = obj.get("x-kubernetes-validations") {
        for r in rules {
            if let Some(text) = r.get("rule").and_then(Value::as_str) {
                f(path, text);
            }
        }
    }
    if let Some(Value::Object(props)) = obj.get("properties") {
        for (k, v) in props {
            visit_rules(v, &format!("{path}.{k}"), f);
        }
    }
    if let Some(items) = obj.get("items") {
        visit_rules(items, &format!("{path}[*]"), f);
    }
    if let Some(ap @ Value::Object(_)) = obj.get("additionalProperties") {
        visit_rules(ap, &format!("{path}[*]"), f);
    }
}

/// The schemas of a run.
#[derive(Clone, Default)]
pub struct Catalog {
    entries: Vec<Arc<SchemaEntry>>,
    /// How to find an object's cluster, only when two clusters' CRDs of one kind disagree.
    clusters: Option<Arc<Clusters>>,
}

/// The clusters of a run (found as the models find them), for kinds whose repository CRDs
/// differ per cluster: an operator at two versions in two clusters' folders.
pub struct Clusters {
    /// Cluster root folders.
    pub roots: std::collections::BTreeSet<String>,
    /// `--cluster-root` globs.
    pub globs: Vec<String>,
    /// (group, kind, version) whose repository CRDs declare different schemas.
    disagree: std::collections::HashSet<(String, String, String)>,
}

impl Catalog {
    /// The schemas built into the binary.
    pub fn bundled() -> &'static Catalog {
        static BUNDLED: OnceLock<Catalog> = OnceLock::new();
        BUNDLED.get_or_init(|| Catalog {
            entries: table::SCHEMAS
                .iter()
                .filter_map(|(path, text)| SchemaEntry::bundled(path, text))
                .map(Arc::new)
                .collect(),
            clusters: None,
        })
    }

    /// The bundled schemas with `extra` ones taking precedence for the same kind and version.
    pub fn with(extra: Vec<SchemaEntry>) -> Catalog {
        let mut entries: Vec<Arc<SchemaEntry>> = extra.into_iter().map(Arc::new).collect();
        entries.extend(Catalog::bundled().entries.iter().cloned());
        Catalog {
            entries,
            clusters: None,
        }
    }

    /// [`Catalog::with`], where the repository's CRDs (`repository`, each with its cluster) may
    /// differ per cluster: where two of one kind and version declare different schemas, each
    /// object takes its own cluster's ([`Catalog::find_in`]). `schemas_dir` comes first.
    pub fn with_clusters(
        schemas_dir: Vec<SchemaEntry>,
        repository: Vec<(SchemaEntry, String)>,
        roots: std::collections::BTreeSet<String>,
        globs: &[String],
    ) -> Catalog {
        let mut seen: std::collections::HashMap<(&str, &str, &str, &str), &Value> =
            Default::default();
        let mut disagree = std::collections::HashSet::new();
        for (e, _) in &repository {
            let key = (&*e.group, &*e.kind, &*e.version, &*e.feature_set);
            let schema = e.schema();
            if seen.get(&key).is_some_and(|first| *first != schema) {
                disagree.insert((e.group.clone(), e.kind.clone(), e.version.clone()));
            }
            seen.entry(key).or_insert(schema);
        }
        let clusters = (!disagree.is_empty()).then(|| {
            Arc::new(Clusters {
                roots,
                globs: globs.to_vec(),
                disagree,
            })
        });
        let repository = repository.into_iter().map(|(mut e, cluster)| {
            e.cluster = clusters.is_some().then_some(cluster);
            e
        });
        let mut catalog = Catalog::with(schemas_dir.into_iter().chain(repository).collect());
        catalog.clusters = clusters;
        catalog
    }

    /// Every entry.
    pub fn entries(&self) -> &[Arc<SchemaEntry>] {
        &self.entries
    }

    /// The schema for a kind and version in a feature set: that feature set's variant, else one
    /// valid for all, else the Default one. Extra (repository) schemas come first.
    pub fn find(
        &self,
        group: &str,
        kind: &str,
        version: &str,
        feature_set: &str,
    ) -> Option<&Arc<SchemaEntry>> {
        self.find_in(group, kind, version, feature_set, |_| String::new())
    }

    /// [`Catalog::find`] for an object of the cluster `cluster` names (asked only where two
    /// clusters' CRDs of the kind disagree): its own cluster's CRD (and `--schemas`); a cluster
    /// without one takes the bundled schema, else the repository's first.
    pub fn find_in(
        &self,
        group: &str,
        kind: &str,
        version: &str,
        feature_set: &str,
        cluster: impl FnOnce(&Clusters) -> String,
    ) -> Option<&Arc<SchemaEntry>> {
        let same =
            |e: &&Arc<SchemaEntry>| e.group == group && e.kind == kind && e.version == version;
        let candidates: Vec<&Arc<SchemaEntry>> = self.entries.iter().filter(same).collect();
        // A kind defined by a CRD in the repository (or --schemas) uses only those variants.
        let external = candidates.iter().any(|e| e.origin != "bundled");
        let mut candidates: Vec<&Arc<SchemaEntry>> = candidates
            .into_iter()
            .filter(|e| !external || e.origin != "bundled")
            .collect();
        let split = self.clusters.as_ref().filter(|c| {
            c.disagree
                .contains(&(group.to_string(), kind.to_string(), version.to_string()))
        });
        if let Some(clusters) = split {
            let key = cluster(clusters);
            let own: Vec<&Arc<SchemaEntry>> = candidates
                .iter()
                .copied()
                .filter(|e| e.cluster.as_ref().is_none_or(|c| *c == key))
                .collect();
            if !own.is_empty() {
                candidates = own;
            } else if let Some(b) = Catalog::bundled().find(group, kind, version, feature_set) {
                return Some(b);
            }
        }
        [feature_set, "all", "Default"]
            .iter()
            .find_map(|fs| candidates.iter().find(|e| e.feature_set == *fs).copied())
            .or_else(|| candidates.first().copied())
    }

    /// The versions of a kind that have a schema.
    pub fn versions(&self, group: &str, kind: &str) -> Vec<&str> {
        let mut v: Vec<&str> = self
            .entries
            .iter()
            .filter(|e| e.group == group && e.kind == kind)
            .map(|e| e.version.as_str())
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// Whether any version of the kind has a schema.
    pub fn has_kind(&self, group: &str, kind: &str) -> bool {
        self.entries
            .iter()
            .any(|e| e.group == group && e.kind == kind)
    }
}

/// The `type` the bundled schema of a kind gives the field at a JSON pointer (`None` when the
/// kind has no bundled schema or the schema does not say).
pub fn field_type(api_version: &str, kind: &str, pointer: &str) -> Option<String> {
    let group = crate::inventory::kinds::group_of(api_version);
    let version = api_version.rsplit('/').next().unwrap_or(api_version);
    let entry = Catalog::bundled().find(group, kind, version, "Default")?;
    let mut node = entry.schema();
    for segment in pointer.split('/').skip(1) {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        node = node
            .get("properties")
            .and_then(|p| p.get(&segment))
            .or_else(|| {
                node.get("items")
                    .filter(|_| segment.parse::<usize>().is_ok())
            })
            .or_else(|| node.get("additionalProperties").filter(|a| a.is_object()))?;
    }
    match node.get("type")? {
        Value::String(t) => Some(t.clone()),
        Value::Array(types) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .map(str::to_string),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn field_types_follow_properties_items_and_maps() {
        let t = |api: &str, kind: &str, p: &str| super::field_type(api, kind, p);
        assert_eq!(
            t(
                "machineconfiguration.openshift.io/v1",
                "MachineConfigPool",
                "/spec/paused"
            )
            .as_deref(),
            Some("boolean")
        );
        assert_eq!(
            t("v1", "ConfigMap", "/data/anything").as_deref(),
            Some("string")
        );
        assert_eq!(t("v1", "ConfigMap", "/nowhere/x"), None);
        assert_eq!(t("example.com/v1", "Widget", "/spec"), None);
    }

    #[test]
    fn base64_may_be_wrapped_like_kustomize_writes_it() {
        assert!(super::is_base64("aGVsbG8g\nd29ybGQ=\n"));
        assert!(super::is_base64("aGVsbG8gd29ybGQ=\r\n"));
        assert!(!super::is_base64("aGVsbG8g d29ybGQ="));
        assert!(!super::is_base64("not base64!"));
    }
}
