//! The server's settings, from `initializationOptions` and `workspace/configuration` (section
//! `nodecast`): every key of `.nodecast.yaml` (the editor's value replaces the file's), and what the
//! command line would say for a check (the base to compare with, rendering, schemas, `--now`).
//! Keys are written as in `.nodecast.yaml` (`fail-on`) or in camelCase (`failOn`), as editors'
//! settings usually are.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::check::Options;
use crate::source::{CompareRequest, Overlay};
use crate::Fatal;

/// Keys of the server's own (the others are `.nodecast.yaml`'s).
pub const SERVER_KEYS: [&str; 16] = [
    "base",
    "debounce-ms",
    "now",
    "workspace-diagnostics",
    "render",
    "kustomize",
    "cache",
    "cache-dir",
    "schema",
    "schemas",
    "feature-set",
    "unknown-fields",
    "per-node-minutes",
    "enforce-windows",
    "min-permitted-hours",
    "config",
];

/// What the editor set.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The revision compared with (`HEAD`, or a branch: its merge-base with `HEAD`).
    pub base: Option<String>,
    /// How long after the last keystroke a check starts.
    pub debounce: Duration,
    /// A fixed "now" (RFC 3339), for reproducible windows.
    pub now: Option<jiff::Timestamp>,
    /// Publish the findings of every file, not only of open ones.
    pub workspace_diagnostics: bool,
    /// Render Kustomize roots.
    pub render: bool,
    /// The Kustomize program (`kubectl`, `kustomize`, a path).
    pub kustomize: Option<PathBuf>,
    /// Use the render cache.
    pub cache: bool,
    /// Where the render cache is.
    pub cache_dir: Option<PathBuf>,
    /// Validate against schemas.
    pub schema: bool,
    /// More schemas (`--schemas`).
    pub schemas: Option<PathBuf>,
    /// `--feature-set`.
    pub feature_set: Option<String>,
    /// `--unknown-fields error`.
    pub unknown_fields_are_errors: bool,
    /// `--per-node-minutes`.
    pub per_node_minutes: u32,
    /// `--enforce-windows`.
    pub enforce_windows: bool,
    /// `--min-permitted-hours`.
    pub min_permitted_hours: u32,
    /// `--config`: the configuration file (else `.nodecast.yaml` is discovered).
    pub config: Option<PathBuf>,
    /// `.nodecast.yaml` keys the editor sets.
    pub repository: Map<String, Value>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            base: None,
            debounce: Duration::from_millis(200),
            now: None,
            workspace_diagnostics: false,
            render: true,
            kustomize: None,
            cache: true,
            cache_dir: None,
            schema: true,
            schemas: None,
            feature_set: None,
            unknown_fields_are_errors: false,
            per_node_minutes: 10,
            enforce_windows: false,
            min_permitted_hours: 48,
            config: None,
            repository: Map::new(),
        }
    }
}

/// `failOn` → `fail-on`.
fn kebab(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The settings object of a `nodecast` section, whether or not it is wrapped in one.
fn section(value: &Value) -> Option<&Map<String, Value>> {
    let map = value.as_object()?;
    match map.get("nodecast") {
        Some(Value::Object(inner)) => Some(inner),
        _ => Some(map),
    }
}

/// Later layers' keys replace earlier ones' (initialization options, then the workspace
/// configuration).
pub fn merge(layers: &[&Value]) -> Value {
    let mut out = Map::new();
    for layer in layers {
        if let Some(map) = section(layer) {
            for (k, v) in map {
                if !v.is_null() {
                    out.insert(kebab(k), v.clone());
                }
            }
        }
    }
    Value::Object(out)
}

/// Reads settings; what cannot be used is said in `problems` and left at its default.
pub fn parse(value: &Value) -> (Settings, Vec<String>) {
    let mut s = Settings::default();
    let mut problems = Vec::new();
    let Some(map) = section(value) else {
        if !value.is_null() {
            problems.push("settings must be an object of keys".into());
        }
        return (s, problems);
    };
    for (key, v) in map {
        let key = kebab(key);
        if v.is_null() {
            continue;
        }
        let mut bad = |what: &str| problems.push(format!("setting `{key}`: expected {what}"));
        match key.as_str() {
            "base" => match v.as_str() {
                Some(b) if !b.trim().is_empty() => s.base = Some(b.trim().to_string()),
                _ => bad("a revision (`HEAD`, a branch)"),
            },
            "debounce-ms" => match v.as_u64() {
                Some(ms) => s.debounce = Duration::from_millis(ms.min(60_000)),
                None => bad("milliseconds"),
            },
            "now" => match v.as_str().and_then(|t| t.parse::<jiff::Timestamp>().ok()) {
                Some(t) => s.now = Some(t),
                None => bad("an RFC 3339 time like 2026-11-21T02:00:00Z"),
            },
            "workspace-diagnostics" => flag(v, &mut s.workspace_diagnostics, &mut bad),
            "render" => flag(v, &mut s.render, &mut bad),
            "cache" => flag(v, &mut s.cache, &mut bad),
            "schema" => flag(v, &mut s.schema, &mut bad),
            "enforce-windows" => flag(v, &mut s.enforce_windows, &mut bad),
            "kustomize" => path(v, &mut s.kustomize, &mut bad),
            "cache-dir" => path(v, &mut s.cache_dir, &mut bad),
            "schemas" => path(v, &mut s.schemas, &mut bad),
            "config" => path(v, &mut s.config, &mut bad),
            "feature-set" => match v.as_str() {
                Some(f) => s.feature_set = Some(f.to_string()),
                None => bad("a feature set name"),
            },
            "unknown-fields" => match v.as_str() {
                Some("warning") => s.unknown_fields_are_errors = false,
                Some("error") => s.unknown_fields_are_errors = true,
                _ => bad("`warning` or `error`"),
            },
            "per-node-minutes" => count(v, &mut s.per_node_minutes, &mut bad),
            "min-permitted-hours" => count(v, &mut s.min_permitted_hours, &mut bad),
            k if crate::config::KEYS.contains(&k) => {
                s.repository.insert(key.clone(), v.clone());
            }
            other => {
                let known = SERVER_KEYS
                    .iter()
                    .chain(crate::config::KEYS.iter())
                    .copied();
                problems.push(match crate::text::closest(other, known) {
                    Some(c) => format!("unknown setting `{other}` is ignored; did you mean `{c}`?"),
                    None => format!("unknown setting `{other}` is ignored"),
                });
            }
        }
    }
    (s, problems)
}

fn flag(v: &Value, out: &mut bool, bad: &mut impl FnMut(&str)) {
    match v.as_bool() {
        Some(b) => *out = b,
        None => bad("true or false"),
    }
}

fn path(v: &Value, out: &mut Option<PathBuf>, bad: &mut impl FnMut(&str)) {
    match v.as_str() {
        Some(p) if !p.is_empty() => *out = Some(PathBuf::from(p)),
        _ => bad("a path"),
    }
}

fn count(v: &Value, out: &mut u32, bad: &mut impl FnMut(&str)) {
    match v.as_u64().and_then(|n| u32::try_from(n).ok()) {
        Some(n) => *out = n,
        None => bad("a whole number"),
    }
}

/// The folder an editor opened: what is checked (`folder`) and what paths are relative to
/// (`root`: the repository's working tree, or the folder outside a repository; canonical).
#[derive(Clone, Debug)]
pub struct Workspace {
    /// The folder opened (the check's PATH: only manifests below it are read).
    pub folder: PathBuf,
    /// The repository root, canonical.
    pub root: PathBuf,
}

impl Workspace {
    /// The workspace of a folder.
    pub fn new(folder: PathBuf) -> Self {
        let root = crate::config::root_of(&folder);
        let root = root.canonicalize().unwrap_or(root);
        Workspace { folder, root }
    }
}

impl Settings {
    /// The check's options: head = the working tree with `overlay` laid over it, base = the
    /// configured revision (default `HEAD`, nothing before the first commit); the repository's
    /// `.nodecast.yaml` (an open buffer of it included) with the editor's keys over it, applied as
    /// the command line applies it. Problems of the editor's keys are returned as messages.
    pub fn options(
        &self,
        ws: &Workspace,
        overlay: Overlay,
    ) -> Result<(Options, Vec<String>), Fatal> {
        let repo = git2::Repository::discover(&ws.folder).ok();
        let has_commit = repo.as_ref().is_some_and(|r| {
            r.head()
                .ok()
                .and_then(|h| h.peel_to_commit().ok())
                .is_some()
        });
        let base = match (&self.base, has_commit) {
            (Some(b), _) => Some(b.clone()),
            (None, true) => Some("HEAD".to_string()),
            (None, false) => None,
        };
        let request = CompareRequest {
            path: ws.folder.clone(),
            base,
            max_file_size: 10 * 1024 * 1024,
            overlay: overlay.clone(),
            ..CompareRequest::default()
        };
        let mut options = Options::new(request, self.now.unwrap_or_else(jiff::Timestamp::now));
        options.now_given = self.now.is_some();
        options.per_node_minutes = self.per_node_minutes;
        options.min_permitted_hours = self.min_permitted_hours;
        options.enforce_windows = self.enforce_windows;
        options.validation.schemas_dir = self.schemas.clone();
        options.validation.feature_set = self.feature_set.clone();
        options.validation.unknown_fields_are_errors = self.unknown_fields_are_errors;
        options.validation.disabled = !self.schema;
        options.kustomize = crate::kustomize::Settings {
            enabled: self.render,
            program: self.kustomize.clone(),
            cache_dir: if self.cache {
                self.cache_dir
                    .clone()
                    .or_else(crate::kustomize::cache::default_dir)
            } else {
                None
            },
            ..crate::kustomize::Settings::default()
        };
        let mut problems = Vec::new();
        let file = self
            .config
            .clone()
            .or_else(|| crate::config::discover(&ws.folder));
        let known = crate::catalog::all();
        let from_file = match &file {
            Some(file) => {
                let rel = crate::config::relative_name(file, &ws.root);
                match overlay.get(&rel) {
                    Some(bytes) => Some(crate::config::parse(
                        &String::from_utf8_lossy(bytes),
                        &rel,
                        known,
                    )),
                    None => Some(crate::config::load(file, &rel, known)?),
                }
            }
            None => None,
        };
        let config = if self.repository.is_empty() {
            from_file
        } else {
            let text = serde_json::to_string(&self.repository).unwrap_or_default();
            let editor = crate::config::parse(&text, "editor settings", known);
            problems.extend(editor.diagnostics.iter().map(|d| match &d.help {
                Some(h) => format!("editor settings: {} ({h})", d.message),
                None => format!("editor settings: {}", d.message),
            }));
            let keys: Vec<String> = self.repository.keys().cloned().collect();
            let mut editor = editor;
            editor.diagnostics.clear();
            Some(match from_file {
                Some(f) => f.overridden_by(editor, &keys),
                None => editor,
            })
        };
        if let Some(config) = config {
            options.apply_config(config, &ws.root)?;
        }
        Ok((options, problems))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_mirror_the_configuration_file_in_either_spelling() {
        let (s, problems) = parse(&json!({"nodecast": {
            "failOn": "warning",
            "report": "all",
            "assume-nodes": {"worker": 6},
            "debounceMs": 50,
            "base": "main",
            "workspaceDiagnostics": true,
            "fail_onn": 1,
            "render": "yes",
        }}));
        assert_eq!(s.base.as_deref(), Some("main"));
        assert_eq!(s.debounce, Duration::from_millis(50));
        assert!(s.workspace_diagnostics);
        assert_eq!(
            s.repository.keys().collect::<Vec<_>>(),
            ["fail-on", "report", "assume-nodes"]
        );
        assert_eq!(
            problems,
            [
                "unknown setting `fail_onn` is ignored; did you mean `fail-on`?",
                "setting `render`: expected true or false"
            ]
        );
        let merged = merge(&[
            &json!({"report": "all", "base": "x"}),
            &json!({"nodecast": {"base": "y"}}),
        ]);
        assert_eq!(merged, json!({"report": "all", "base": "y"}));
    }
}
