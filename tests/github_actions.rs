//! A simulated GitHub Actions run: the real binary with GITHUB_ACTIONS, GITHUB_EVENT_PATH (a
//! pull_request event), GITHUB_STEP_SUMMARY and GITHUB_OUTPUT in a real repository with a PR branch.

use crate::common;

use std::path::Path;

use common::{git_in, hosted_cluster, node_pool, nodecast_env, Repo, Run};

struct Actions {
    dir: tempfile::TempDir,
}

impl Actions {
    fn new(base_sha: &str) -> Self {
        let dir = tempfile::tempdir().expect("tmp");
        let event = serde_json::json!({
            "action": "synchronize",
            "number": 7,
            "pull_request": {
                "number": 7,
                "base": {"ref": "main", "sha": base_sha},
                "head": {"ref": "feature", "sha": "0123456789abcdef0123456789abcdef01234567"},
            },
        });
        std::fs::write(dir.path().join("event.json"), event.to_string()).expect("event");
        std::fs::write(dir.path().join("summary.md"), "").expect("summary");
        std::fs::write(dir.path().join("output"), "").expect("output");
        Actions { dir }
    }

    fn file(&self, name: &str) -> String {
        self.dir.path().join(name).to_string_lossy().into_owned()
    }

    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(name)).expect("read")
    }

    fn run(&self, cwd: &Path, args: &[&str]) -> Run {
        let (event, summary, output) = (
            self.file("event.json"),
            self.file("summary.md"),
            self.file("output"),
        );
        nodecast_env(
            cwd,
            args,
            &[
                ("GITHUB_ACTIONS", "true"),
                ("GITHUB_EVENT_NAME", "pull_request"),
                ("GITHUB_EVENT_PATH", &event),
                ("GITHUB_STEP_SUMMARY", &summary),
                ("GITHUB_OUTPUT", &output),
            ],
        )
    }
}

/// main: A (cluster + pool) → B (release bump on main); feature (from A): 12 duplicate-key
/// errors and one YAML 1.1 warning. The event's base.sha is B, the moved-on base branch.
fn pr_repo() -> (Repo, String, String) {
    let repo = Repo::new();
    repo.write("clusters/prod/hc.yaml", &hosted_cluster("prod", "4.18.5"));
    repo.write(
        "clusters/prod/np.yaml",
        &node_pool("workers", "prod", 3, &[]),
    );
    let a = repo.commit("A");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    for i in 0..12 {
        repo.write(
            &format!("clusters/prod/cm{i:02}.yaml"),
            &format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{i}\n  name: d{i}\n"),
        );
    }
    let np = node_pool("workers", "prod", 3, &[])
        .replace("metadata:\n", "metadata:\n  labels:\n    backup: yes\n");
    repo.write("clusters/prod/np.yaml", &np);
    repo.commit("feature");
    repo.git(&["checkout", "-q", "main"]);
    repo.write("clusters/prod/hc.yaml", &hosted_cluster("prod", "4.18.9"));
    let b = repo.commit("B");
    repo.git(&["checkout", "-q", "feature"]);
    (repo, a, b)
}

#[test]
fn annotations_summary_and_outputs() {
    let (repo, a, b) = pr_repo();
    let gh = Actions::new(&b);
    let json = gh.file("report.json");
    let run = gh.run(repo.path(), &["check", "--output-json", &json]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.is_empty(), "{}", run.stderr);

    // Merge-base semantics: compared with A (the fork point), so B's HostedCluster change on main
    // is not part of this pull request.
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json")).expect("json");
    assert_eq!(report["compared"]["base"]["rev"], a.as_str());
    let changed: Vec<&str> = report["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .filter_map(|c| c["object"].as_str())
        .collect();
    assert!(
        !changed.contains(&"HostedCluster/clusters/prod"),
        "{changed:?}"
    );
    assert!(
        changed.contains(&"NodePool/clusters/workers"),
        "{changed:?}"
    );

    // Errors first, capped at 10, then the warning, then the omitted count.
    let lines: Vec<&str> = run.stdout.lines().collect();
    let errors: Vec<&&str> = lines.iter().filter(|l| l.starts_with("::error ")).collect();
    assert_eq!(errors.len(), 10, "{}", run.stdout);
    assert!(lines[..10].iter().all(|l| l.starts_with("::error ")));
    assert_eq!(
        errors[0].split("::").nth(1),
        Some(
            "error file=clusters/prod/cm00.yaml,line=5,col=3,endLine=5,endColumn=7,title=nodecast (Y002)"
        )
    );
    assert!(lines[10].starts_with(
        "::warning file=clusters/prod/np.yaml,line=5,col=13,endLine=5,endColumn=16,title=nodecast (Y003)::"
    ), "{}", run.stdout);
    assert_eq!(
        lines[11],
        "nodecast: 2 errors not annotated (GitHub shows 10 annotations per level and step); the step summary lists every finding"
    );

    // The summary: forecast section first, then every finding (all 13) in <details>.
    let summary = gh.read("summary.md");
    assert!(
        summary.starts_with("## nodecast: working tree vs merge-base of "),
        "{summary}"
    );
    let forecast_at = summary.find("### Forecast").expect("forecast");
    let findings_at = summary.find("### Findings").expect("findings");
    assert!(forecast_at < findings_at);
    assert!(summary.contains("<details><summary>All 13 finding(s)</summary>"));
    assert_eq!(summary.matches("| error | [Y002]").count(), 12, "{summary}");
    assert!(summary.contains("`clusters/prod/cm11.yaml:5:3`"));
    assert!(summary.contains("| warning | [Y003]"));
    assert!(summary.contains("12 error(s), 1 warning(s), 0 info(s)"));

    assert_eq!(
        gh.read("output"),
        "errors=12\nwarnings=1\ninfos=0\nfindings=13\ndisruptive=0\nunmodelled=0\n",
        "a label change on a NodePool rolls nothing, and the HyperShift model judged it"
    );
}

#[test]
fn explicit_format_wins_over_the_environment() {
    let (repo, _, b) = pr_repo();
    let gh = Actions::new(&b);
    let run = gh.run(repo.path(), &["check", "--format", "json"]);
    assert_eq!(run.code, 1);
    assert_eq!(run.json()["schema"], "nodecast/report/v1");
    assert_eq!(
        gh.read("summary.md"),
        "",
        "only the github format writes the summary"
    );
    let md = gh.run(
        repo.path(),
        &["check", "--format", "markdown", "--exit-zero"],
    );
    assert_eq!(md.code, 0);
    assert!(md.stdout.starts_with("## nodecast: "), "{}", md.stdout);
}

#[test]
fn shallow_checkout_without_the_base_is_exit_2_with_the_fix() {
    let (repo, a, _) = pr_repo();
    let clone = tempfile::tempdir().expect("tmp");
    let url = format!("file://{}", repo.path().display());
    git_in(
        clone.path(),
        &[
            "clone", "-q", "--depth", "1", "--branch", "feature", &url, "c",
        ],
    );
    let gh = Actions::new(&a);
    let run = gh.run(&clone.path().join("c"), &["check"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("the repository is shallow"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("fetch-depth: 0"), "{}", run.stderr);
}

#[test]
fn findings_on_changed_lines_are_annotated_first() {
    // Base: an old warning in a.yaml (unchanged by the PR). PR: a new warning in z.yaml.
    let repo = Repo::new();
    repo.write(
        "a.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels:\n    old: yes\n",
    );
    let base = repo.commit("base");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write(
        "z.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: z\n  labels:\n    new: yes\n",
    );
    repo.commit("feature");
    let gh = Actions::new(&base);
    let annotated = |args: &[&str]| -> Vec<String> {
        let run = gh.run(repo.path(), args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.stdout
            .lines()
            .filter(|l| l.starts_with("::"))
            .filter_map(|l| l.split(',').next())
            .map(str::to_string)
            .collect()
    };
    // By default only what the pull request brings is annotated.
    assert_eq!(annotated(&["check"]), ["::warning file=z.yaml"]);
    // With --all the old finding follows, as a notice: the pull request did not bring it.
    assert_eq!(
        annotated(&["check", "--all"]),
        ["::warning file=z.yaml", "::notice file=a.yaml"]
    );
}

#[test]
fn base_main_resolves_to_origin_main_in_a_clone_without_a_local_main() {
    // What `actions/checkout` leaves: the pull request's branch, and `origin/main` only.
    let upstream = Repo::new();
    upstream.write(
        "a.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: default\ndata:\n  k: \"1\"\n",
    );
    upstream.commit("base");
    upstream.git(&["checkout", "-q", "-b", "feature"]);
    upstream.write(
        "a.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: default\ndata:\n  k: \"2\"\n",
    );
    upstream.commit("feature");
    let clone = tempfile::tempdir().expect("tmp");
    let dest = clone.path().join("work");
    common::git_in(
        clone.path(),
        &[
            "clone",
            "-q",
            "--branch",
            "feature",
            upstream.path().to_str().expect("utf-8"),
            "work",
        ],
    );
    assert!(common::git_in(&dest, &["branch", "--list", "main"])
        .trim()
        .is_empty());
    let run = common::nodecast(&dest, &["check", "--base", "main", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = run.json();
    assert!(
        r["compared"]["base"]["label"]
            .as_str()
            .is_some_and(|l| l.starts_with("merge-base of origin/main")),
        "{}",
        r["compared"]
    );
    assert_eq!(r["changes"][0]["object"], "ConfigMap/default/a");
}

#[test]
fn rollouts_are_annotated_on_the_lines_that_cause_them() {
    let repo = Repo::new();
    let mc = |karg: &str| {
        format!(
            "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 99-worker-kargs\n  labels:\n    machineconfiguration.openshift.io/role: worker\nspec:\n  kernelArguments:\n  - {karg}\n"
        )
    };
    repo.write("cluster/kargs.yaml", &mc("nosmt"));
    repo.commit("base");
    repo.write("cluster/kargs.yaml", &mc("mitigations=off"));
    repo.commit("head");
    let run = common::nodecast(
        repo.path(),
        &[
            "check", "--base", "HEAD^", "--head", "HEAD", "--format", "github",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rollouts: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains("title=nodecast rollout"))
        .collect();
    assert_eq!(rollouts.len(), 1, "{}", run.stdout);
    assert!(
        rollouts[0].starts_with(
            "::warning file=cluster/kargs.yaml,line=9,col=5,title=nodecast rollout%3A MachineConfigPool worker reboot (.)::"
        ),
        "{}",
        rollouts[0]
    );
    assert!(rollouts[0].contains("reboot, drained"), "{}", rollouts[0]);
}
