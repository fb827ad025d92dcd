//! `.nodecast.yaml`: what a repository tells nodecast about itself (files, rule levels, facts the
//! manifests do not hold), validated with located diagnostics like any manifest.

pub mod codes;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use globset::{GlobSet, GlobSetBuilder};
use nodecast_yaml::{Node, NodeKind, Span};

use crate::code::Code;
use crate::diagnostic::{Diagnostic, Location, Severity};

/// The commented configuration `nodecast init` writes: every key with its default or an example.
pub const TEMPLATE: &str = include_str!("template.yaml");

/// File names nodecast looks for, in order.
pub const FILE_NAMES: [&str; 2] = [".nodecast.yaml", ".nodecast.yml"];

/// Every top-level key, for validation and "did you mean".
pub const KEYS: [&str; 12] = [
    "include",
    "exclude",
    "rules",
    "overrides",
    "fail-on",
    "cluster-roots",
    "assume-nodes",
    "require-ack",
    "baseline",
    "platform",
    "report",
    "redact",
];

/// Infrastructure platform types `platform` accepts (the cluster's platform when the repository
/// holds no `Infrastructure/cluster`).
pub const PLATFORMS: [&str; 14] = [
    "AWS",
    "Azure",
    "BareMetal",
    "GCP",
    "IBMCloud",
    "KubeVirt",
    "Nutanix",
    "OpenStack",
    "Ovirt",
    "PowerVS",
    "VSphere",
    "External",
    "None",
    "AlibabaCloud",
];

const OVERRIDE_KEYS: [&str; 2] = ["paths", "rules"];

const REDACT_KEYS: [&str; 2] = ["fields", "files"];

/// A rule level set by configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// The rule's findings are dropped.
    Off,
    /// Findings get this severity.
    Severity(Severity),
}

/// Rule levels for the files a set of globs selects (`None`: every file).
#[derive(Clone, Debug)]
pub struct LevelSet {
    /// Which files; `None` for the top-level `rules`.
    pub paths: Option<GlobSet>,
    /// Code → level.
    pub levels: BTreeMap<String, Level>,
}

/// The validated configuration; invalid parts are left out and reported in `diagnostics`.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// Repository-relative path of the file, when one was read.
    pub path: Option<String>,
    /// Only files matching these globs are read (`None`: all).
    pub include: Option<GlobSet>,
    /// Files matching these globs are not read.
    pub exclude: Option<GlobSet>,
    /// Top-level `rules` first, then each `overrides` entry in order (later wins).
    pub levels: Vec<LevelSet>,
    /// `fail-on`.
    pub fail_on: Option<Severity>,
    /// `cluster-roots`.
    pub cluster_roots: Vec<String>,
    /// `assume-nodes`.
    pub assume_nodes: BTreeMap<String, u32>,
    /// `require-ack`.
    pub require_ack: bool,
    /// `baseline`: path of a baseline file, relative to the repository root.
    pub baseline: Option<String>,
    /// `platform`: the clusters' platform when the repository holds no `Infrastructure/cluster`.
    pub platform: Option<String>,
    /// `report: all`: list the findings the base revision already had too (default `new`: only
    /// what the change brings is listed and decides the exit code).
    pub report_all: bool,
    /// `redact`: more values no output may show (beyond Secrets, credentials, password hashes and
    /// private Ignition files).
    pub redact: crate::redact::Extra,
    /// Problems of the file itself (C101 unknown key, C102 invalid value).
    pub diagnostics: Vec<Diagnostic>,
}

impl Config {
    /// The level configured for a code in a file (the last matching entry wins).
    pub fn level(&self, code: &str, path: &str) -> Option<Level> {
        self.levels
            .iter()
            .filter(|set| set.paths.as_ref().is_none_or(|g| g.is_match(path)))
            .filter_map(|set| set.levels.get(code).copied())
            .next_back()
    }

    /// This configuration with the keys `keys` taken from `other` instead (an editor's settings
    /// over the repository's file: a key the editor sets replaces the file's, the others stay).
    pub fn overridden_by(mut self, other: Config, keys: &[String]) -> Config {
        for key in keys {
            match key.as_str() {
                "include" => self.include = other.include.clone(),
                "exclude" => self.exclude = other.exclude.clone(),
                "rules" => {
                    self.levels.retain(|l| l.paths.is_some());
                    let top = other.levels.iter().filter(|l| l.paths.is_none()).cloned();
                    self.levels.splice(0..0, top);
                }
                "overrides" => {
                    self.levels.retain(|l| l.paths.is_none());
                    let rest = other.levels.iter().filter(|l| l.paths.is_some()).cloned();
                    self.levels.extend(rest);
                }
                "fail-on" => self.fail_on = other.fail_on,
                "cluster-roots" => self.cluster_roots = other.cluster_roots.clone(),
                "assume-nodes" => self.assume_nodes = other.assume_nodes.clone(),
                "require-ack" => self.require_ack = other.require_ack,
                "baseline" => self.baseline = other.baseline.clone(),
                "platform" => self.platform = other.platform.clone(),
                "report" => self.report_all = other.report_all,
                "redact" => self.redact = other.redact.clone(),
                _ => {}
            }
        }
        self
    }

    /// Whether a repository-relative path is read.
    pub fn selects(&self, path: &str) -> bool {
        let name = path.rsplit('/').next().unwrap_or(path);
        if FILE_NAMES.contains(&name) {
            return false;
        }
        self.include.as_ref().is_none_or(|g| g.is_match(path))
            && !self.exclude.as_ref().is_some_and(|g| g.is_match(path))
    }
}

/// Finds the configuration: PATH, then its parents up to the repository root. Outside a
/// repository only PATH itself is looked at.
pub fn discover(path: &Path) -> Option<PathBuf> {
    let start = path.canonicalize().ok()?;
    let start = if start.is_file() {
        start.parent()?.to_path_buf()
    } else {
        start
    };
    let root = git2::Repository::discover(&start)
        .ok()
        .and_then(|r| r.workdir().and_then(|w| w.canonicalize().ok()));
    let mut dir = start.as_path();
    loop {
        for name in FILE_NAMES {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
        match &root {
            Some(root) if dir != root.as_path() => dir = dir.parent()?,
            _ => return None,
        }
    }
}

/// The folder paths in findings are relative to: the repository root, or PATH outside one.
pub fn root_of(path: &Path) -> PathBuf {
    git2::Repository::discover(path)
        .ok()
        .and_then(|r| r.workdir().map(Path::to_path_buf))
        .or_else(|| path.canonicalize().ok())
        .unwrap_or_else(|| path.to_path_buf())
}

/// A file's name relative to the root when it is inside it, else as given.
pub fn relative_name(file: &Path, root: &Path) -> String {
    let abs = file.canonicalize().unwrap_or_else(|_| file.to_path_buf());
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    match abs.strip_prefix(&root) {
        Ok(rel) => rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/"),
        Err(_) => file.display().to_string(),
    }
}

/// Parses and validates a configuration text; `path` is how findings name the file.
pub fn parse(text: &str, path: &str, known: &[&'static Code]) -> Config {
    let mut cfg = Config {
        path: Some(path.to_string()),
        ..Config::default()
    };
    let parsed = nodecast_yaml::parse(text, &nodecast_yaml::Options::default());
    let mut v = Validator {
        known,
        path,
        out: Vec::new(),
    };
    for p in &parsed.problems {
        match p.kind {
            // `off` is meant as a word here; the configuration is read as text, not by Kubernetes.
            nodecast_yaml::ProblemKind::Yaml11Ambiguity(_) => {}
            nodecast_yaml::ProblemKind::DuplicateKey => v.invalid(
                p.span,
                format!("the configuration repeats a key: {}", p.message),
                "keep one of the entries; the later one wins",
            ),
            _ => v.invalid(
                p.span,
                format!("the configuration is not valid YAML: {}", p.message),
                "fix the YAML syntax",
            ),
        }
    }
    let Some(doc) = parsed.documents.first() else {
        cfg.diagnostics = v.out;
        return cfg;
    };
    let Some(entries) = doc.root().as_map() else {
        if !doc.root().is_null() {
            v.invalid(
                doc.root().span(),
                format!(
                    "the configuration must be a mapping, not a {}",
                    doc.root().type_name()
                ),
                "write `key: value` lines, e.g. `fail-on: warning`",
            );
        }
        cfg.diagnostics = v.out;
        return cfg;
    };
    for e in entries {
        let key = e.key.key_text().unwrap_or_default();
        let value = &e.value;
        match key {
            "include" => cfg.include = v.globs(*value),
            "exclude" => cfg.exclude = v.globs(*value),
            "rules" => {
                if let Some(levels) = v.levels(*value) {
                    cfg.levels.insert(
                        0,
                        LevelSet {
                            paths: None,
                            levels,
                        },
                    );
                }
            }
            "overrides" => {
                for item in v.seq(*value) {
                    if let Some(set) = v.override_entry(item) {
                        cfg.levels.push(set);
                    }
                }
            }
            "fail-on" => {
                cfg.fail_on = v.severity(*value, false).and_then(|l| match l {
                    Level::Severity(s) => Some(s),
                    Level::Off => None,
                })
            }
            "cluster-roots" => cfg.cluster_roots = v.strings(*value),
            "assume-nodes" => cfg.assume_nodes = v.counts(*value),
            "require-ack" => cfg.require_ack = v.boolean(*value).unwrap_or(false),
            "baseline" => cfg.baseline = v.string(*value),
            "report" => {
                cfg.report_all = match v.string(*value).as_deref() {
                    Some("all") => true,
                    Some("new") | None => false,
                    Some(other) => {
                        v.invalid(
                            value.span(),
                            format!("`report: {other}` is not `new` or `all`"),
                            "use `new` (only findings the change introduces, the default) or `all`",
                        );
                        false
                    }
                }
            }
            "platform" => {
                cfg.platform = v.string(*value).filter(|p| {
                    let known = PLATFORMS.contains(&p.as_str());
                    if !known {
                        v.invalid(
                            value.span(),
                            format!("`{p}` is not an Infrastructure platform type"),
                            &format!("use one of: {}", PLATFORMS.join(", ")),
                        );
                    }
                    known
                })
            }
            "redact" => cfg.redact = v.redact(*value),
            other => v.unknown_key(e.key, other, &KEYS),
        }
    }
    cfg.diagnostics = v.out;
    cfg
}

/// Reads a configuration file; `rel` is its repository-relative name for findings.
pub fn load(file: &Path, rel: &str, known: &[&'static Code]) -> Result<Config, crate::Fatal> {
    let text = std::fs::read_to_string(file).map_err(|e| {
        crate::Fatal::new(
            format!("cannot read the configuration {}: {e}", file.display()),
            "pass a readable UTF-8 file with --config FILE",
        )
    })?;
    Ok(parse(&text, rel, known))
}

struct Validator<'a> {
    known: &'a [&'static Code],
    path: &'a str,
    out: Vec<Diagnostic>,
}

impl Validator<'_> {
    fn push(&mut self, code: &'static Code, span: Span, message: String, help: String) {
        self.out
            .push(Diagnostic::new(code, message, Location::head(self.path, span)).help(help));
    }

    fn invalid(&mut self, span: Span, message: String, help: &str) {
        self.push(&codes::C102, span, message, help.to_string());
    }

    fn unknown_key(&mut self, key: Node<'_>, name: &str, valid: &[&str]) {
        let closest = crate::text::closest(name, valid.iter().copied());
        let help = match closest {
            Some(c) => format!("did you mean `{c}`?"),
            None => format!("valid keys: {}", valid.join(", ")),
        };
        self.push(
            &codes::C101,
            key.span(),
            format!("unknown configuration key `{name}` is ignored"),
            help,
        );
        self.suggest(closest, key.span());
    }

    /// Attaches "use the suggested name" to the finding just made.
    fn suggest(&mut self, closest: Option<&str>, span: Span) {
        if let (Some(to), Some(last)) = (closest, self.out.last_mut()) {
            last.fix = Some(crate::diagnostic::Fix::rename(span, to));
        }
    }

    fn string(&mut self, n: Node<'_>) -> Option<String> {
        match n.kind() {
            NodeKind::Scalar { text, .. } if !n.is_null() => Some(text.to_string()),
            _ => {
                self.invalid(
                    n.span(),
                    format!("expected a string, found a {}", n.type_name()),
                    "write a single value",
                );
                None
            }
        }
    }

    fn seq<'n>(&mut self, n: Node<'n>) -> nodecast_yaml::Seq<'n> {
        match n.as_seq() {
            Some(items) => items,
            None => {
                self.invalid(
                    n.span(),
                    format!("expected a list, found a {}", n.type_name()),
                    "write a YAML list, e.g. `[\"clusters/**\"]`",
                );
                Default::default()
            }
        }
    }

    fn strings(&mut self, n: Node<'_>) -> Vec<String> {
        let items = self.seq(n);
        items.iter().filter_map(|i| self.string(i)).collect()
    }

    fn redact(&mut self, n: Node<'_>) -> crate::redact::Extra {
        let mut extra = crate::redact::Extra::default();
        let Some(entries) = n.as_map() else {
            self.invalid(
                n.span(),
                format!("expected a mapping with `fields` and `files`, found a {}", n.type_name()),
                "write e.g. `redact: {fields: [\"ConfigMap/data/token\"], files: [\"/etc/app/*.conf\"]}`",
            );
            return extra;
        };
        for e in entries {
            match e.key.key_text().unwrap_or_default() {
                // Field paths and Ignition paths contain `/`: `*` stays inside one segment.
                "fields" => extra.fields = self.globs_with(e.value, true),
                "files" => extra.files = self.globs_with(e.value, true),
                other => self.unknown_key(e.key, other, &REDACT_KEYS),
            }
        }
        extra
    }

    fn globs(&mut self, n: Node<'_>) -> Option<GlobSet> {
        self.globs_with(n, false)
    }

    fn globs_with(&mut self, n: Node<'_>, literal_separator: bool) -> Option<GlobSet> {
        let mut builder = GlobSetBuilder::new();
        let mut any = false;
        for item in self.seq(n) {
            let Some(text) = self.string(item) else {
                continue;
            };
            match globset::GlobBuilder::new(&text)
                .literal_separator(literal_separator)
                .build()
            {
                Ok(g) => {
                    builder.add(g);
                    any = true;
                }
                Err(e) => self.invalid(
                    item.span(),
                    format!("`{text}` is not a valid glob: {}", e.kind()),
                    "write globs like `clusters/**/*.yaml`",
                ),
            }
        }
        if !any {
            return None;
        }
        builder.build().ok()
    }

    fn boolean(&mut self, n: Node<'_>) -> Option<bool> {
        match n.key_text().map(str::to_ascii_lowercase).as_deref() {
            Some("true") => Some(true),
            Some("false") => Some(false),
            _ => {
                self.invalid(
                    n.span(),
                    "expected `true` or `false`".into(),
                    "write `true` or `false`",
                );
                None
            }
        }
    }

    fn severity(&mut self, n: Node<'_>, allow_off: bool) -> Option<Level> {
        let text = match n.kind() {
            NodeKind::Scalar { text, .. } => text.to_ascii_lowercase(),
            _ => String::new(),
        };
        match text.as_str() {
            "error" => Some(Level::Severity(Severity::Error)),
            "warning" => Some(Level::Severity(Severity::Warning)),
            "info" => Some(Level::Severity(Severity::Info)),
            "off" | "false" if allow_off => Some(Level::Off),
            _ => {
                let valid = if allow_off {
                    "off, info, warning or error"
                } else {
                    "info, warning or error"
                };
                self.invalid(
                    n.span(),
                    format!("`{text}` is not a level; expected {valid}"),
                    &format!("write one of {valid}"),
                );
                None
            }
        }
    }

    fn levels(&mut self, n: Node<'_>) -> Option<BTreeMap<String, Level>> {
        let Some(entries) = n.as_map() else {
            self.invalid(
                n.span(),
                format!(
                    "expected a mapping of rule codes, found a {}",
                    n.type_name()
                ),
                "write e.g. `rules: {Y003: off, K005: warning}`",
            );
            return None;
        };
        let names: Vec<&str> = self.known.iter().map(|c| c.code).collect();
        let mut out = BTreeMap::new();
        for e in entries {
            let code = e.key.key_text().unwrap_or_default();
            let Some(rule) = self
                .known
                .iter()
                .find(|c| c.code.eq_ignore_ascii_case(code))
            else {
                let closest = crate::text::closest(code, names.iter().copied());
                let help = match closest {
                    Some(c) => format!("did you mean `{c}`? (`nodecast rules` lists every code)"),
                    None => "`nodecast rules` lists every code".into(),
                };
                self.push(
                    &codes::C102,
                    e.key.span(),
                    format!("`{code}` is not a rule code; its level is ignored"),
                    help,
                );
                self.suggest(closest, e.key.span());
                continue;
            };
            if let Some(level) = self.severity(e.value, true) {
                out.insert(rule.code.to_string(), level);
            }
        }
        Some(out)
    }

    fn override_entry(&mut self, n: Node<'_>) -> Option<LevelSet> {
        let Some(entries) = n.as_map() else {
            self.invalid(
                n.span(),
                format!(
                    "expected a mapping with `paths` and `rules`, found a {}",
                    n.type_name()
                ),
                "write `- paths: [\"legacy/**\"]\\n  rules: {Y003: off}`",
            );
            return None;
        };
        let mut paths = None;
        let mut levels = None;
        for e in entries {
            match e.key.key_text().unwrap_or_default() {
                "paths" => paths = self.globs(e.value),
                "rules" => levels = self.levels(e.value),
                other => self.unknown_key(e.key, other, &OVERRIDE_KEYS),
            }
        }
        let Some(paths) = paths else {
            self.invalid(
                n.span(),
                "an override without `paths` applies to nothing".into(),
                "add `paths: [\"GLOB\"]`",
            );
            return None;
        };
        Some(LevelSet {
            paths: Some(paths),
            levels: levels.unwrap_or_default(),
        })
    }

    fn counts(&mut self, n: Node<'_>) -> BTreeMap<String, u32> {
        let mut out = BTreeMap::new();
        let Some(entries) = n.as_map() else {
            self.invalid(
                n.span(),
                format!(
                    "expected a mapping of pool to node count, found a {}",
                    n.type_name()
                ),
                "write e.g. `assume-nodes: {worker: 6}`",
            );
            return out;
        };
        for e in entries {
            let pool = e.key.key_text().unwrap_or_default().to_string();
            match e.value.key_text().and_then(|s| s.parse::<u32>().ok()) {
                Some(count) => {
                    out.insert(pool, count);
                }
                None => self.invalid(
                    e.value.span(),
                    format!("the node count of `{pool}` must be a whole number"),
                    "write e.g. `worker: 6`",
                ),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(cfg: &Config) -> Vec<String> {
        cfg.diagnostics
            .iter()
            .map(|d| {
                let s = d.location.span.expect("span");
                format!(
                    "{} {}:{} {} | {}",
                    d.code,
                    s.start.line,
                    s.start.col,
                    d.message,
                    d.help.clone().unwrap_or_default()
                )
            })
            .collect()
    }

    #[test]
    fn platform_is_an_infrastructure_type() {
        let cfg = parse(
            "platform: BareMetal\n",
            ".nodecast.yaml",
            crate::catalog::all(),
        );
        assert_eq!(cfg.platform.as_deref(), Some("BareMetal"));
        let bad = parse(
            "platform: baremetal\n",
            ".nodecast.yaml",
            crate::catalog::all(),
        );
        assert_eq!(bad.platform, None);
        assert_eq!(bad.diagnostics.len(), 1);
        assert_eq!(bad.diagnostics[0].code, "C102");
    }

    #[test]
    fn a_valid_configuration() {
        let cfg = parse(
            "include: [\"clusters/**\"]\nexclude: [\"**/vendor/**\"]\nrules:\n  Y003: off\n  k005: info\noverrides:\n- paths: [\"legacy/**\"]\n  rules: {K004: warning}\nfail-on: warning\ncluster-roots: [\"clusters/*\"]\nassume-nodes: {worker: 6}\nrequire-ack: true\nbaseline: .nodecast-baseline.json\n",
            ".nodecast.yaml",
            crate::catalog::all(),
        );
        assert_eq!(lines(&cfg), Vec::<String>::new());
        assert!(cfg.selects("clusters/a/np.yaml"));
        assert!(!cfg.selects("clusters/a/vendor/x.yaml"));
        assert!(!cfg.selects("other/np.yaml"));
        assert!(!cfg.selects("clusters/.nodecast.yaml"));
        assert_eq!(cfg.level("Y003", "clusters/a.yaml"), Some(Level::Off));
        assert_eq!(
            cfg.level("K005", "a.yaml"),
            Some(Level::Severity(Severity::Info))
        );
        assert_eq!(cfg.level("K004", "a.yaml"), None);
        assert_eq!(
            cfg.level("K004", "legacy/a.yaml"),
            Some(Level::Severity(Severity::Warning))
        );
        assert_eq!(cfg.fail_on, Some(Severity::Warning));
        assert_eq!(cfg.cluster_roots, ["clusters/*"]);
        assert_eq!(cfg.assume_nodes.get("worker"), Some(&6));
        assert!(cfg.require_ack);
        assert_eq!(cfg.baseline.as_deref(), Some(".nodecast-baseline.json"));
    }

    #[test]
    fn mistakes_are_located_with_the_fix() {
        let cfg = parse(
            "fail_on: warning\nrules:\n  Y03: off\n  Y002: loud\nassume-nodes: {worker: many}\noverrides:\n- rules: {Y003: off}\n  path: [x]\ninclude: [\"a/[\"]\nrequire-ack: maybe\n",
            ".nodecast.yaml",
            crate::catalog::all(),
        );
        assert_eq!(
            lines(&cfg),
            [
                "C101 1:1 unknown configuration key `fail_on` is ignored | did you mean `fail-on`?",
                "C102 3:3 `Y03` is not a rule code; its level is ignored | did you mean `Y003`? (`nodecast rules` lists every code)",
                "C102 4:9 `loud` is not a level; expected off, info, warning or error | write one of off, info, warning or error",
                "C102 5:24 the node count of `worker` must be a whole number | write e.g. `worker: 6`",
                "C101 8:3 unknown configuration key `path` is ignored | did you mean `paths`?",
                "C102 7:3 an override without `paths` applies to nothing | add `paths: [\"GLOB\"]`",
                "C102 9:11 `a/[` is not a valid glob: unclosed character class; missing ']' | write globs like `clusters/**/*.yaml`",
                "C102 10:14 expected `true` or `false` | write `true` or `false`",
            ]
        );
    }

    #[test]
    fn redaction_keys() {
        let cfg = parse(
            "redact:\n  fields: [\"ConfigMap/data/*\"]\n  files: [\"/etc/app/**\"]\n  paths: [x]\n",
            ".nodecast.yaml",
            crate::catalog::all(),
        );
        assert_eq!(
            lines(&cfg),
            ["C101 4:3 unknown configuration key `paths` is ignored | valid keys: fields, files"]
        );
        let fields = cfg.redact.fields.expect("fields");
        assert!(fields.is_match("ConfigMap/data/token"));
        assert!(
            !fields.is_match("ConfigMap/data/a/b"),
            "`*` stays in one segment"
        );
        assert!(cfg
            .redact
            .files
            .expect("files")
            .is_match("/etc/app/x/y.conf"));
    }

    #[test]
    fn syntax_errors_and_wrong_shapes() {
        let cfg = parse("rules: [\n", "c.yaml", crate::catalog::all());
        assert_eq!(cfg.diagnostics.len(), 1);
        assert_eq!(cfg.diagnostics[0].code, "C102");
        let cfg = parse("- a\n", "c.yaml", crate::catalog::all());
        assert_eq!(
            lines(&cfg),
            ["C102 1:1 the configuration must be a mapping, not a list | write `key: value` lines, e.g. `fail-on: warning`"]
        );
        assert!(parse("# only comments\n", "c.yaml", crate::catalog::all())
            .diagnostics
            .is_empty());
    }

    #[test]
    fn discovery_stops_at_the_repository_root() {
        let tmp = tempfile::tempdir().expect("tmp");
        let repo = tmp.path().join("repo");
        std::fs::create_dir_all(repo.join("clusters/prod")).expect("mkdir");
        git2::Repository::init(&repo).expect("init");
        // Above the repository: never used.
        std::fs::write(tmp.path().join(".nodecast.yaml"), "fail-on: info\n").expect("w");
        assert_eq!(discover(&repo.join("clusters/prod")), None);
        std::fs::write(repo.join(".nodecast.yaml"), "fail-on: info\n").expect("w");
        let found = discover(&repo.join("clusters/prod")).expect("found");
        assert!(
            found.ends_with("repo/.nodecast.yaml"),
            "{}",
            found.display()
        );
        std::fs::write(repo.join("clusters/.nodecast.yml"), "fail-on: info\n").expect("w");
        let nearer = discover(&repo.join("clusters/prod")).expect("found");
        assert!(
            nearer.ends_with("clusters/.nodecast.yml"),
            "{}",
            nearer.display()
        );
    }
}
