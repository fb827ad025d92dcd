//! Shared helpers for integration tests: real Git repositories in temp dirs, and the real binary.
#![allow(dead_code)]

pub mod fixture;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// A Git repository in a temporary directory, driven with the `git` CLI.
pub struct Repo {
    dir: tempfile::TempDir,
}

impl Repo {
    /// A new repository on branch `main`.
    pub fn new() -> Self {
        let repo = Repo {
            dir: tempfile::tempdir().expect("tempdir"),
        };
        repo.git(&["init", "-q", "-b", "main"]);
        repo
    }

    /// The working tree.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Runs git in the repository and returns its stdout; panics when git fails.
    pub fn git(&self, args: &[&str]) -> String {
        git_in(self.path(), args)
    }

    /// Writes a file (creating folders).
    pub fn write(&self, rel: &str, content: &str) {
        self.write_bytes(rel, content.as_bytes());
    }

    /// Writes raw bytes.
    pub fn write_bytes(&self, rel: &str, content: &[u8]) {
        let path = self.path().join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, content).expect("write");
    }

    /// Stages everything and commits; returns the commit id.
    pub fn commit(&self, msg: &str) -> String {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", msg]);
        self.git(&["rev-parse", "HEAD"]).trim().to_string()
    }
}

/// Runs git in a folder with a fixed identity and no user/system config.
pub fn git_in(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What a run of the binary produced.
pub struct Run {
    /// Exit code.
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Run {
    /// Stdout as JSON, a JSON report checked against its schema ([`parse_json`]).
    pub fn json(&self) -> Value {
        parse_json(&self.stdout, &self.stderr)
    }
}

/// Parses a run's stdout as JSON; a JSON report (`"schema": "nodecast/report/v1"`) must also
/// validate against the committed report schema, so every report the suites produce checks it.
pub fn parse_json(stdout: &str, stderr: &str) -> Value {
    let doc: Value = serde_json::from_str(stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{stdout}\nstderr:\n{stderr}"));
    if doc["schema"] == nodecast::report::json::SCHEMA {
        let errors = report_schema_errors(&doc);
        assert!(
            errors.is_empty(),
            "the JSON report does not match {}:\n{}\nreport:\n{stdout}",
            nodecast::report::json::SCHEMA_PATH,
            errors.join("\n"),
        );
    }
    doc
}

/// The committed report schema, compiled once per test binary (formats asserted).
pub fn report_schema() -> &'static jsonschema::Validator {
    static VALIDATOR: std::sync::OnceLock<jsonschema::Validator> = std::sync::OnceLock::new();
    VALIDATOR.get_or_init(|| {
        let path = project_root().join(nodecast::report::json::SCHEMA_PATH);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let schema: Value = serde_json::from_str(&text).expect("the report schema is JSON");
        jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(&schema)
            .expect("the report schema compiles")
    })
}

/// Every way `doc` breaks the committed report schema, as `instance path: message`.
pub fn report_schema_errors(doc: &Value) -> Vec<String> {
    report_schema()
        .iter_errors(doc)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

/// Runs `nodecast ARGS` in `cwd` with colour off and a fixed clock.
pub fn nodecast(cwd: &Path, args: &[&str]) -> Run {
    nodecast_env(cwd, args, &[])
}

/// Runs `nodecast ARGS` in `cwd` with extra environment variables.
pub fn nodecast_env(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_nodecast"));
    cmd.args(args)
        .current_dir(cwd)
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env("NO_COLOR", "1")
        // Frames are laid out the same wherever the tests run: Unicode, 100 columns.
        .env("LANG", "C.UTF-8")
        .env_remove("LC_ALL")
        .env_remove("LC_CTYPE")
        .env_remove("COLUMNS")
        .env_remove("TERM")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        // A test run from a Git hook must not read the hook's index.
        .env_remove("GIT_INDEX_FILE")
        // The render cache of the test runs lives in the build folder, never in the user's home.
        .env(
            "XDG_CACHE_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/cache"),
        );
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("nodecast runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The repository root (for testdata).
pub fn project_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `CODE severity file:line:col` for every diagnostic of a JSON report, in report order.
pub fn diag_lines(report: &Value) -> Vec<String> {
    report["diagnostics"]
        .as_array()
        .expect("diagnostics array")
        .iter()
        .map(|d| {
            format!(
                "{} {} {}:{}:{}",
                d["code"].as_str().unwrap_or("?"),
                d["severity"].as_str().unwrap_or("?"),
                d["file"].as_str().unwrap_or("?"),
                d["line"],
                d["column"]
            )
        })
        .collect()
}

/// A HostedCluster manifest.
pub fn hosted_cluster(name: &str, release: &str) -> String {
    format!(
        "apiVersion: hypershift.openshift.io/v1beta1
kind: HostedCluster
metadata:
  name: {name}
  namespace: clusters
spec:
  release:
    image: quay.io/openshift-release-dev/ocp-release:{release}-x86_64
  pullSecret:
    name: pull-secret
  platform:
    type: AWS
  services:
  - service: APIServer
    servicePublishingStrategy:
      type: LoadBalancer
  - service: OAuthServer
    servicePublishingStrategy:
      type: Route
  - service: Konnectivity
    servicePublishingStrategy:
      type: Route
  - service: Ignition
    servicePublishingStrategy:
      type: Route
"
    )
}

/// A NodePool manifest (`replicas` on line 8, column 13).
pub fn node_pool(name: &str, cluster: &str, replicas: u32, config: &[&str]) -> String {
    let mut s = format!(
        "apiVersion: hypershift.openshift.io/v1beta1
kind: NodePool
metadata:
  name: {name}
  namespace: clusters
spec:
  clusterName: {cluster}
  replicas: {replicas}
  management:
    upgradeType: Replace
  release:
    image: quay.io/openshift-release-dev/ocp-release:4.18.5-x86_64
  platform:
    type: AWS
"
    );
    if !config.is_empty() {
        s.push_str("  config:\n");
        for c in config {
            s.push_str(&format!("  - name: {c}\n"));
        }
    }
    s
}

/// Whether `kubectl` (for `kubectl kustomize`) is on PATH.
pub fn kubectl_available() -> bool {
    Command::new("kubectl")
        .args(["version", "--client"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// For tests that render with the real `kubectl kustomize`: true when kubectl is there; in CI
/// (`CI=true`) a missing kubectl fails the test, elsewhere the test is skipped with the reason.
pub fn require_kubectl(test: &str) -> bool {
    if kubectl_available() {
        return true;
    }
    assert!(
        std::env::var("CI").map_or(true, |v| v != "true"),
        "{test}: kubectl is not on PATH, and CI=true requires it (install kubectl for `kubectl kustomize`)"
    );
    eprintln!("skipping {test}: kubectl is not on PATH (it renders the Kustomize overlays this test needs)");
    false
}

/// Copies a fixture tree (e.g. out of this repository, so its paths are relative to the copy).
pub fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from)
        .into_iter()
        .filter_map(Result::ok)
    {
        let rel = entry.path().strip_prefix(from).expect("below");
        let dest = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &dest).expect("copy");
        }
    }
}

/// The case folders under `root`, sorted (fixture and scenario harnesses walk them all).
pub fn case_dirs(root: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// A `kubectl` that logs each call's arguments to the returned file, then runs the real one.
pub fn logging_kubectl() -> (tempfile::TempDir, std::path::PathBuf) {
    let bin = tempfile::tempdir().expect("tempdir");
    let log = bin.path().join("calls.log");
    let wrapper = bin.path().join("kubectl");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\necho \"$@\" >> '{}'\nexec kubectl \"$@\"\n",
            log.display()
        ),
    )
    .expect("write");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    (bin, log)
}
