//! The hooks of `.pre-commit-hooks.yaml`, run by the real pre-commit framework against this
//! repository at the commit under test. `.ci/run` installs pre-commit into a throwaway venv and
//! points NODECAST_PRE_COMMIT at it; without pre-commit the test says so and is skipped.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{git_in, hosted_cluster, node_pool, project_root, Repo};

fn pre_commit() -> Option<PathBuf> {
    let candidate = std::env::var_os("NODECAST_PRE_COMMIT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("pre-commit"));
    let ok = Command::new(&candidate)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then_some(candidate)
}

struct Out {
    code: i32,
    text: String,
}

fn run(pc: &Path, repo: &Path, home: &Path, args: &[&str]) -> Out {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_nodecast"))
        .parent()
        .expect("bin dir")
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new(pc)
        .args(args)
        .current_dir(repo)
        .env("PATH", path)
        .env("PRE_COMMIT_HOME", home)
        .env("PRE_COMMIT_COLOR", "never")
        .env("NO_COLOR", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .output()
        .expect("pre-commit runs");
    Out {
        code: out.status.code().unwrap_or(-1),
        text: format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

/// The commit under test (HEAD of this repository); its `.pre-commit-hooks.yaml` is what runs.
fn commit_under_test() -> String {
    let root = project_root();
    let sha = git_in(&root, &["rev-parse", "HEAD"]).trim().to_string();
    git_in(
        &root,
        &["cat-file", "-e", &format!("{sha}:.pre-commit-hooks.yaml")],
    );
    sha
}

#[test]
fn hooks_run_by_the_real_pre_commit() {
    let Some(pc) = pre_commit() else {
        eprintln!(
            "skipped: pre-commit is not installed (set NODECAST_PRE_COMMIT or put pre-commit on PATH; .ci/run installs it)"
        );
        return;
    };
    let sha = commit_under_test();
    let home = tempfile::tempdir().expect("tmp");
    let repo = Repo::new();
    repo.write(
        ".pre-commit-config.yaml",
        &format!(
            "repos:\n- repo: {}\n  rev: {sha}\n  hooks:\n  - id: nodecast-system\n",
            project_root().display()
        ),
    );
    repo.write("clusters/prod/hc.yaml", &hosted_cluster("prod", "4.18.5"));
    repo.write(
        "clusters/prod/np.yaml",
        &node_pool("workers", "prod", 3, &[]),
    );
    let first = repo.commit("base");

    // A staged invalid manifest: the hook fails with nodecast's diagnostic.
    repo.write(
        "clusters/prod/cm.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n",
    );
    repo.git(&["add", "clusters/prod/cm.yaml"]);
    let bad = run(&pc, repo.path(), home.path(), &["run"]);
    assert_eq!(bad.code, 1, "{}", bad.text);
    assert!(
        bad.text.contains("nodecast (installed binary)"),
        "{}",
        bad.text
    );
    assert!(bad.text.contains("Failed"), "{}", bad.text);
    assert!(bad.text.contains("Y002"), "{}", bad.text);
    assert!(
        bad.text.contains("clusters/prod/cm.yaml:5:3"),
        "{}",
        bad.text
    );

    // Unstaged junk is not what the hook checks (pre-commit stashes it; nodecast reads the index).
    repo.write(
        "clusters/prod/cm.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
    );
    repo.git(&["add", "clusters/prod/cm.yaml"]);
    repo.write(
        "clusters/prod/cm.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n",
    );
    let good = run(&pc, repo.path(), home.path(), &["run"]);
    assert_eq!(good.code, 0, "{}", good.text);
    assert!(good.text.contains("Passed"), "{}", good.text);
    repo.git(&["checkout", "--", "clusters/prod/cm.yaml"]);
    repo.commit("valid config map");

    // A commit that changes no manifest skips the hook (the `files` filter).
    repo.write("README.md", "docs\n");
    repo.git(&["add", "README.md"]);
    let skipped = run(&pc, repo.path(), home.path(), &["run"]);
    assert_eq!(skipped.code, 0, "{}", skipped.text);
    assert!(skipped.text.contains("Skipped"), "{}", skipped.text);

    // pre-push style: the ref range from pre-commit (PRE_COMMIT_FROM_REF/TO_REF) is compared.
    repo.commit("docs");
    repo.write(
        "clusters/prod/cm.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n",
    );
    let second = repo.commit("bad");
    let range = run(
        &pc,
        repo.path(),
        home.path(),
        &["run", "--from-ref", &first, "--to-ref", &second],
    );
    assert_eq!(range.code, 1, "{}", range.text);
    assert!(range.text.contains("Y002"), "{}", range.text);
    // The header names the compared revisions: the range, not the index against HEAD.
    assert!(
        range.text.contains(&format!("nodecast: {second} ("))
            && range.text.contains(&format!(" vs {first} (")),
        "{}",
        range.text
    );
}

/// Runs `git` with the environment pre-commit's hooks see in a real `git commit` (nodecast and
/// pre-commit on PATH, a throwaway pre-commit home).
fn git_with_hooks(pc: &Path, repo: &Path, home: &Path, args: &[&str]) -> Out {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_nodecast"))
        .parent()
        .expect("bin dir")
        .to_path_buf();
    let pc_dir = pc.parent().map(Path::to_path_buf).unwrap_or_default();
    let path = format!(
        "{}:{}:{}",
        bin_dir.display(),
        pc_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("git")
        .args(args)
        .current_dir(repo)
        .env("PATH", path)
        .env("PRE_COMMIT_HOME", home)
        .env("PRE_COMMIT_COLOR", "never")
        .env("NO_COLOR", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .output()
        .expect("git runs");
    Out {
        code: out.status.code().unwrap_or(-1),
        text: format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

#[test]
fn a_rollout_is_shown_at_commit_and_acknowledged_in_the_commit_message() {
    let Some(pc) = pre_commit() else {
        eprintln!("skipped: pre-commit is not installed (set NODECAST_PRE_COMMIT)");
        return;
    };
    let sha = commit_under_test();
    let home = tempfile::tempdir().expect("tmp");
    let repo = Repo::new();
    repo.write(
        ".pre-commit-config.yaml",
        &format!(
            "repos:\n- repo: {}\n  rev: {sha}\n  hooks:\n  - id: nodecast-system\n  - id: nodecast-ack-system\n",
            project_root().display()
        ),
    );
    // The repository asks for acknowledged rollouts.
    repo.write(".nodecast.yaml", "require-ack: true\n");
    let mc = |karg: &str| {
        format!(
            "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 99-worker-kargs\n  labels:\n    machineconfiguration.openshift.io/role: worker\nspec:\n  kernelArguments:\n  - {karg}\n"
        )
    };
    repo.write("cluster/kargs.yaml", &mc("nosmt"));
    repo.commit("base");
    let install = run(
        &pc,
        repo.path(),
        home.path(),
        &[
            "install",
            "--hook-type",
            "pre-commit",
            "--hook-type",
            "commit-msg",
        ],
    );
    assert_eq!(install.code, 0, "{}", install.text);

    // A harmless commit: both hooks pass and nodecast prints nothing.
    repo.write("README.md", "docs\n");
    repo.git(&["add", "README.md"]);
    let quiet = git_with_hooks(
        &pc,
        repo.path(),
        home.path(),
        &["commit", "-q", "-m", "docs"],
    );
    assert_eq!(quiet.code, 0, "{}", quiet.text);
    assert!(!quiet.text.contains("Forecast"), "{}", quiet.text);

    // A kernel argument reboots the worker pool: the pre-commit hook passes but shows the
    // forecast; the commit-msg hook fails until the message acknowledges the rollout.
    repo.write("cluster/kargs.yaml", &mc("mitigations=off"));
    repo.git(&["add", "cluster/kargs.yaml"]);
    let refused = git_with_hooks(
        &pc,
        repo.path(),
        home.path(),
        &["commit", "-q", "-m", "tune workers"],
    );
    assert_ne!(refused.code, 0, "{}", refused.text);
    assert!(refused.text.contains("reboot"), "{}", refused.text);
    assert!(refused.text.contains("C105"), "{}", refused.text);
    assert!(
        refused
            .text
            .contains("Nodecast-Ack: MachineConfigPool/worker"),
        "{}",
        refused.text
    );
    assert_eq!(repo.git(&["log", "--format=%s", "-1"]).trim(), "docs");

    let accepted = git_with_hooks(
        &pc,
        repo.path(),
        home.path(),
        &[
            "commit",
            "-q",
            "-m",
            "tune workers",
            "-m",
            "Nodecast-Ack: MachineConfigPool/worker",
        ],
    );
    assert_eq!(accepted.code, 0, "{}", accepted.text);
    assert!(
        accepted.text.contains("reboot"),
        "the forecast is shown: {}",
        accepted.text
    );
    assert_eq!(
        repo.git(&["log", "--format=%s", "-1"]).trim(),
        "tune workers"
    );
}
