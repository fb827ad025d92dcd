//! The composite action: its metadata follows GitHub's rules, and its scripts, run with bash in a
//! simulated Actions environment (event, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, a real PR branch),
//! produce the annotations, summary, outputs and exit codes the workflow relies on.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::{hosted_cluster, node_pool, project_root, Repo};
use nodecast_yaml::{Node, NodeKind};

/// The root of action.yml (the document is kept for the rest of the test run).
fn action() -> Node<'static> {
    let text = std::fs::read_to_string(project_root().join("action.yml")).expect("action.yml");
    let mut parsed = nodecast_yaml::parse(&text, &nodecast_yaml::Options::default());
    assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    Box::leak(Box::new(parsed.documents.swap_remove(0))).root()
}

fn text(n: Option<Node<'_>>) -> String {
    n.and_then(Node::key_text).unwrap_or_default().to_string()
}

#[test]
fn action_metadata_follows_the_rules() {
    let a = action();
    for key in ["name", "description", "runs"] {
        assert!(a.get(key).is_some(), "action.yml lacks {key}");
    }
    assert_eq!(text(a.path(&["runs", "using"])), "composite");
    let inputs = a.get("inputs").and_then(Node::as_map).expect("inputs");
    let ids: Vec<String> = inputs
        .iter()
        .map(|e| e.key.key_text().unwrap_or_default().to_string())
        .collect();
    for id in ["path", "base", "args", "fail-on", "sarif-file", "version"] {
        assert!(ids.iter().any(|i| i == id), "input {id} missing");
    }
    for id in &ids {
        let first = id.chars().next().unwrap_or('0');
        assert!(
            (first.is_ascii_alphabetic() || first == '_')
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
            "bad input id {id}"
        );
    }
    for e in a.get("outputs").and_then(Node::as_map).expect("outputs") {
        let value = text(e.value.get("value"));
        assert!(
            value.starts_with("${{ steps.run.outputs."),
            "output {:?} needs a value",
            e.key.key_text()
        );
    }
    let steps = a
        .path(&["runs", "steps"])
        .and_then(Node::as_seq)
        .expect("steps");
    let mut runs = 0;
    for step in steps {
        if let Some(run) = step.get("run") {
            runs += 1;
            assert_eq!(
                text(step.get("shell")),
                "bash",
                "every run step needs shell"
            );
            let script = text(Some(run));
            assert!(
                !script.contains("${{"),
                "inputs must reach scripts through env:, not the script text: {script}"
            );
            assert!(script.contains("$GITHUB_ACTION_PATH/action/"), "{script}");
        }
        if let Some(env) = step.get("env").and_then(Node::as_map) {
            for e in env {
                if let NodeKind::Scalar { text, .. } = &e.value.kind() {
                    assert!(text.starts_with("${{"), "{text}");
                }
            }
        }
    }
    assert_eq!(runs, 3);
}

/// A repository with a PR branch: base has a pool; the branch adds a YAML 1.1 warning (Y003)
/// and a release change of the pool.
fn pr_repo() -> (Repo, String) {
    let repo = Repo::new();
    // The control plane is already at 4.18.9; the PR moves the NodePool up to it.
    repo.write("clusters/prod/hc.yaml", &hosted_cluster("prod", "4.18.9"));
    repo.write(
        "clusters/prod/np.yaml",
        &node_pool("workers", "prod", 3, &[]),
    );
    let base = repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    let np = node_pool("workers", "prod", 3, &[])
        .replace("metadata:\n", "metadata:\n  labels:\n    backup: yes\n")
        .replace("4.18.5", "4.18.9");
    repo.write("clusters/prod/np.yaml", &np);
    repo.commit("bump");
    (repo, base)
}

struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new(base: &str, labels: &[&str]) -> Self {
        let dir = tempfile::tempdir().expect("tmp");
        let labels: Vec<serde_json::Value> = labels
            .iter()
            .map(|l| serde_json::json!({ "name": l }))
            .collect();
        let event = serde_json::json!({
            "action": "opened",
            "pull_request": {"number": 1, "labels": labels, "base": {"sha": base}, "head": {"sha": "0123456789abcdef0123456789abcdef01234567"}},
        });
        std::fs::write(dir.path().join("event.json"), event.to_string()).expect("event");
        Env { dir }
    }

    fn path(&self, name: &str) -> String {
        self.dir.path().join(name).to_string_lossy().into_owned()
    }

    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(name)).unwrap_or_default()
    }
}

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run_script(script: &str, cwd: &Path, env: &Env, vars: &[(&str, &str)]) -> Out {
    let mut cmd = Command::new("bash");
    cmd.arg(project_root().join("action").join(script))
        .current_dir(cwd)
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_EVENT_NAME", "pull_request")
        .env("GITHUB_EVENT_PATH", env.path("event.json"))
        .env("GITHUB_OUTPUT", env.path("output"))
        .env("GITHUB_STEP_SUMMARY", env.path("summary.md"))
        .env("GITHUB_PATH", env.path("path"))
        .env("GITHUB_ACTION_PATH", project_root())
        .env("RUNNER_TEMP", env.path("runner-temp"))
        .env("NODECAST_BIN", env!("CARGO_BIN_EXE_nodecast"))
        .env("NO_COLOR", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1");
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("bash runs");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn run_step_annotates_summarises_and_sets_outputs() {
    let (repo, base) = pr_repo();
    let env = Env::new(&base, &[]);
    let sarif = env.path("nodecast.sarif");
    let out = run_script(
        "run.sh",
        repo.path(),
        &env,
        &[
            ("NODECAST_SARIF_FILE", &sarif),
            ("NODECAST_ARGS", "--assume-nodes worker=6"),
        ],
    );
    // One warning, fail-on defaults to error: the step passes.
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.starts_with(
            "::warning file=clusters/prod/np.yaml,line=5,col=13,endLine=5,endColumn=16,title=nodecast (Y003)::"
        ),
        "{}",
        out.stdout
    );
    let summary = env.read("summary.md");
    assert!(summary.contains("### Forecast"), "{summary}");
    // The pool's release changed: the HyperShift model forecasts a replace of its 3 nodes.
    assert!(
        summary.contains("| HostedCluster/clusters/prod | NodePool `clusters/workers` | **replace** (drain) | 3 nodes, 1 at a time: 3 waves (maxSurge 1, maxUnavailable 0) |"),
        "{summary}"
    );
    assert!(summary.contains("| warning | [Y003]"), "{summary}");
    assert_eq!(
        env.read("output"),
        format!("errors=0\nwarnings=1\ninfos=0\nfindings=1\ndisruptive=1\nunmodelled=0\nsarif-file={sarif}\n")
    );
    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sarif).expect("sarif")).expect("json");
    assert_eq!(log["runs"][0]["results"][0]["ruleId"], "Y003");

    // fail-on warning fails the step with exit 1.
    let env = Env::new(&base, &[]);
    let out = run_script(
        "run.sh",
        repo.path(),
        &env,
        &[("NODECAST_FAIL_ON", "warning")],
    );
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
}

#[test]
fn args_are_not_evaluated() {
    let (repo, base) = pr_repo();
    let env = Env::new(&base, &[]);
    let marker = env.path("pwned");
    let out = run_script(
        "run.sh",
        repo.path(),
        &env,
        &[("NODECAST_ARGS", &format!("$(touch {marker}) *"))],
    );
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    assert!(!Path::new(&marker).exists());
    assert!(out
        .stdout
        .contains("::error title=nodecast::nodecast could not run the check"));
}

#[test]
fn the_ack_label_acknowledges_rollouts() {
    let (repo, base) = pr_repo();
    repo.write(".nodecast.yaml", "require-ack: true\n");
    let env = Env::new(&base, &[]);
    let out = run_script(
        "run.sh",
        repo.path(),
        &env,
        &[("NODECAST_ACK_ALL", "false")],
    );
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout
            .contains("title=nodecast (C105)::NodePool/clusters/workers will replace 3 node(s) without an acknowledgement"),
        "{}",
        out.stdout
    );
    let env = Env::new(&base, &["nodecast-ack"]);
    let out = run_script("run.sh", repo.path(), &env, &[("NODECAST_ACK_ALL", "true")]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
}

fn sha256(path: &Path) -> String {
    let out = Command::new("sha256sum")
        .arg(path)
        .output()
        .expect("sha256sum");
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn install_verifies_the_pinned_checksum() {
    let env = Env::new("0000000000000000000000000000000000000001", &[]);
    // A fake release: v9.9.9 with a `nodecast` that prints its version.
    let rel = env.dir.path().join("releases/v9.9.9");
    std::fs::create_dir_all(&rel).expect("mkdir");
    let stage = env.dir.path().join("stage");
    std::fs::create_dir_all(&stage).expect("mkdir");
    std::fs::write(stage.join("nodecast"), "#!/bin/sh\necho nodecast 9.9.9\n").expect("w");
    let archive = rel.join("nodecast-9.9.9-x86_64-unknown-linux-gnu.tar.gz");
    let tar = Command::new("tar")
        .args(["-czf", archive.to_str().expect("utf8"), "-C"])
        .arg(&stage)
        .arg("nodecast")
        .status()
        .expect("tar");
    assert!(tar.success());
    let checksums = env.path("checksums.txt");
    std::fs::write(
        &checksums,
        format!(
            "# pinned\n{}  nodecast-9.9.9-x86_64-unknown-linux-gnu.tar.gz\n",
            sha256(&archive)
        ),
    )
    .expect("w");
    let base_url = format!("file://{}", env.dir.path().join("releases").display());
    let vars = |version: &'static str| {
        vec![
            ("NODECAST_VERSION", version.to_string()),
            ("NODECAST_CHECKSUMS", checksums.clone()),
            ("NODECAST_DOWNLOAD_BASE", base_url.clone()),
            ("RUNNER_OS", "Linux".to_string()),
            ("RUNNER_ARCH", "X64".to_string()),
        ]
    };
    let run = |v: Vec<(&'static str, String)>| {
        let refs: Vec<(&str, &str)> = v.iter().map(|(k, v)| (*k, v.as_str())).collect();
        run_script("install.sh", env.dir.path(), &env, &refs)
    };
    let ok = run(vars("v9.9.9"));
    assert_eq!(ok.code, 0, "{}{}", ok.stdout, ok.stderr);
    assert!(ok.stdout.contains("nodecast 9.9.9"), "{}", ok.stdout);
    assert_eq!(
        env.read("path").trim(),
        format!("{}/nodecast-bin/bin", env.path("runner-temp"))
    );
    // An unlisted version is refused before anything is downloaded.
    let unlisted = run(vars("1.0.0"));
    assert_eq!(unlisted.code, 2);
    assert!(
        unlisted.stdout.contains("no pinned checksum"),
        "{}",
        unlisted.stdout
    );
    // A tampered archive is refused.
    std::fs::write(&archive, b"not the release").expect("w");
    let tampered = run(vars("9.9.9"));
    assert_eq!(tampered.code, 2);
    assert!(
        tampered.stdout.contains("checksum mismatch"),
        "{}",
        tampered.stdout
    );
}

#[test]
fn the_build_cache_key_follows_the_action_sources() {
    let out = |dir: &Path| {
        let run = Command::new("bash")
            .arg(project_root().join("action/cache-key.sh"))
            .env("GITHUB_ACTION_PATH", dir)
            .env("RUNNER_OS", "Linux")
            .env("RUNNER_ARCH", "X64")
            .env_remove("GITHUB_OUTPUT")
            .output()
            .expect("bash");
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        String::from_utf8_lossy(&run.stdout).trim().to_string()
    };
    let tmp = tempfile::tempdir().expect("tmp");
    std::fs::create_dir_all(tmp.path().join("src")).expect("mkdir");
    std::fs::write(tmp.path().join("Cargo.toml"), "[package]\n").expect("write");
    std::fs::write(tmp.path().join("src/main.rs"), "fn main() {}\n").expect("write");
    let first = out(tmp.path());
    assert!(first.starts_with("nodecast-Linux-X64-"), "{first}");
    assert_eq!(first.len(), "nodecast-Linux-X64-".len() + 16, "{first}");
    assert_eq!(out(tmp.path()), first, "stable");
    std::fs::write(tmp.path().join("src/main.rs"), "fn main() { }\n").expect("write");
    assert_ne!(out(tmp.path()), first, "a source change is a new key");
    // The key of this repository is not empty (no github.action_ref needed).
    assert!(out(&project_root()).len() > 20);
}
