//! Configuration, suppressions, baseline and rollout acknowledgement, end to end on real
//! repositories with the real binary.

use crate::common;

use common::{diag_lines, hosted_cluster, node_pool, nodecast, Repo};

/// A NodePool with two YAML 1.1 booleans (Y003 warnings at 5:13 and 6:14).
fn np_with_booleans() -> String {
    node_pool("workers", "prod", 3, &[]).replace(
        "metadata:\n",
        "metadata:\n  labels:\n    backup: yes\n    restore: no\n",
    )
}

fn base_repo() -> Repo {
    let repo = Repo::new();
    repo.write("clusters/prod/hc.yaml", &hosted_cluster("prod", "4.18.5"));
    repo.write("clusters/prod/np.yaml", &np_with_booleans());
    repo.commit("base");
    repo
}

fn json_lines(repo: &Repo, args: &[&str]) -> (i32, Vec<String>) {
    let mut argv = vec!["check"];
    argv.extend_from_slice(args);
    argv.extend_from_slice(&["--format", "json"]);
    let run = nodecast(repo.path(), &argv);
    assert!(run.code != 2, "{}", run.stderr);
    (run.code, diag_lines(&run.json()))
}

#[test]
fn configuration_is_discovered_and_applied() {
    let repo = base_repo();
    let p = repo.path();
    assert_eq!(
        json_lines(&repo, &["--no-base"]),
        (
            0,
            vec![
                "Y003 warning clusters/prod/np.yaml:5:13".to_string(),
                "Y003 warning clusters/prod/np.yaml:6:14".to_string(),
            ]
        )
    );
    // fail-on from the root configuration, found from a subfolder; the config file is not a manifest.
    repo.write(".nodecast.yaml", "fail-on: warning\n");
    let sub = p.join("clusters/prod");
    let run = nodecast(&sub, &["check", "--no-base", "--format", "json"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(diag_lines(&run.json()).len(), 2);
    // The command line wins over the file.
    assert_eq!(
        nodecast(&sub, &["check", "--no-base", "--fail-on", "error"]).code,
        0
    );
    // Levels: off everywhere, raised for one folder by an override; `off` needs no quotes.
    repo.write(
        ".nodecast.yaml",
        "rules:\n  Y003: off\noverrides:\n- paths: [\"clusters/prod/**\"]\n  rules:\n    Y003: error\n",
    );
    assert_eq!(
        json_lines(&repo, &["--no-base"]),
        (
            1,
            vec![
                "Y003 error clusters/prod/np.yaml:5:13".to_string(),
                "Y003 error clusters/prod/np.yaml:6:14".to_string(),
            ]
        )
    );
    // exclude: the file is not read at all.
    repo.write(".nodecast.yaml", "exclude: [\"clusters/prod/np.yaml\"]\n");
    assert_eq!(json_lines(&repo, &["--no-base"]), (0, vec![]));
    // include: only matching files are read.
    repo.write("other/np.yaml", &np_with_booleans());
    repo.write(".nodecast.yaml", "include: [\"other/**\"]\n");
    assert_eq!(
        json_lines(&repo, &["--no-base"]).1,
        [
            "Y003 warning other/np.yaml:5:13",
            "Y003 warning other/np.yaml:6:14",
            // The HostedCluster is not included any more.
            "R001 info other/np.yaml:10:16",
        ]
    );
    std::fs::remove_file(p.join("other/np.yaml")).expect("rm");
    // --config FILE overrides discovery; its mistakes are findings at their line.
    let elsewhere = tempfile::tempdir().expect("tmp");
    let cfg = elsewhere.path().join("ci.yaml");
    std::fs::write(&cfg, "rules:\n  Y003: off\nexlude: []\n").expect("write");
    let run = nodecast(
        p,
        &[
            "check",
            "--no-base",
            "--config",
            cfg.to_str().expect("utf8"),
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 1);
    let r = run.json();
    assert_eq!(
        diag_lines(&r),
        [format!("C101 error {}:3:1", cfg.display())]
    );
    assert_eq!(r["diagnostics"][0]["help"], "did you mean `exclude`?");
}

#[test]
fn human_output_names_the_configuration_mistake() {
    let repo = base_repo();
    repo.write(".nodecast.yaml", "fail_on: warning\n");
    let run = nodecast(repo.path(), &["check", "--no-base"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .contains("C101 .nodecast.yaml:1:1: unknown configuration key `fail_on` is ignored"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("did you mean `fail-on`?"),
        "{}",
        run.stdout
    );
}

#[test]
fn suppressions_on_the_line_the_line_above_and_the_file() {
    let repo = base_repo();
    let np = np_with_booleans()
        .replace(
            "    backup: yes\n",
            "    backup: yes  # nodecast: ignore[Y003] the backup operator reads a boolean\n",
        )
        .replace(
            "    restore: no\n",
            "    # nodecast: ignore[Y003]\n    restore: no\n",
        );
    repo.write("clusters/prod/np.yaml", &np);
    assert_eq!(
        json_lines(&repo, &["--no-base"]).1,
        ["C103 warning clusters/prod/np.yaml:6:5"]
    );
    // A whole-file suppression: K005 in it suppresses nothing; the line suppressions still cover
    // their findings (every covering suppression counts as used).
    let np2 = format!("# nodecast: ignore-file[Y003, K005] generated by the pool operator\n{np}");
    repo.write("clusters/prod/np.yaml", &np2);
    assert_eq!(
        json_lines(&repo, &["--no-base"]).1,
        [
            "C104 warning clusters/prod/np.yaml:1:1",
            "C103 warning clusters/prod/np.yaml:7:5",
        ]
    );
    // The human summary counts what was suppressed.
    let human = nodecast(repo.path(), &["check", "--no-base"]).stdout;
    assert!(human.contains(", 2 suppressed)"), "{human}");
    let md = nodecast(repo.path(), &["check", "--no-base", "--format", "markdown"]).stdout;
    assert!(
        md.contains("Not shown: 2 suppressed by comments, 0 held by the baseline."),
        "{md}"
    );
}

#[test]
fn baseline_reports_only_new_findings_and_stale_entries() {
    let repo = base_repo();
    let p = repo.path();
    let out = tempfile::tempdir().expect("tmp");
    let file = out.path().join("baseline.json");
    let f = file.to_str().expect("utf8");
    let w = nodecast(p, &["baseline", "write", f, "--no-base"]);
    assert_eq!(w.code, 0, "{}", w.stderr);
    assert!(w.stderr.contains("wrote 2 finding(s)"), "{}", w.stderr);
    let b: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("read")).expect("json");
    assert_eq!(b["schema"], "nodecast/baseline/v1");
    assert_eq!(b["findings"][0]["code"], "Y003");
    assert_eq!(b["findings"][0]["object"], "NodePool/clusters/workers");
    assert_eq!(b["findings"][0]["field"], "/metadata/labels/backup");
    // Nothing new.
    assert_eq!(
        json_lines(
            &repo,
            &["--no-base", "--baseline", f, "--fail-on", "warning"]
        ),
        (0, vec![])
    );
    // Lines move: still nothing new.
    repo.write(
        "clusters/prod/np.yaml",
        &format!("# moved down\n\n{}", np_with_booleans()),
    );
    assert_eq!(
        json_lines(&repo, &["--no-base", "--baseline", f]).1,
        Vec::<String>::new()
    );
    // A new finding is reported; a fixed one leaves a stale entry.
    let np = np_with_booleans().replace(
        "    restore: no\n",
        "    restore: \"no\"\n    archive: on\n",
    );
    repo.write("clusters/prod/np.yaml", &np);
    assert_eq!(
        json_lines(&repo, &["--no-base", "--baseline", f]).1,
        [
            format!("C106 info {f}:null:null"),
            "Y003 warning clusters/prod/np.yaml:7:14".to_string(),
        ]
    );
    // A broken baseline is a usage error, not findings.
    std::fs::write(&file, "{").expect("write");
    let run = nodecast(p, &["check", "--no-base", "--baseline", f]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("is not a nodecast baseline"),
        "{}",
        run.stderr
    );
}

#[test]
fn rollouts_need_an_acknowledgement_in_the_compared_range() {
    let repo = Repo::new();
    repo.write("clusters/prod/hc.yaml", &hosted_cluster("prod", "4.18.9"));
    repo.write(
        "clusters/prod/np.yaml",
        &node_pool("workers", "prod", 3, &[]),
    );
    repo.write(".nodecast.yaml", "require-ack: true\n");
    repo.git(&["add", "-A"]);
    // A trailer before the compared range does not count.
    repo.git(&[
        "commit",
        "-q",
        "-m",
        "base\n\nNodecast-Ack: NodePool/clusters/workers",
    ]);
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write(
        "clusters/prod/np.yaml",
        &node_pool("workers", "prod", 3, &[]).replace("4.18.5", "4.18.9"),
    );
    repo.commit("bump the pool release");
    let (code, lines) = json_lines(&repo, &["--base", "main", "--head", "HEAD"]);
    assert_eq!(
        (code, lines),
        (1, vec!["C105 error clusters/prod/np.yaml:12:5".to_string()])
    );
    let run = nodecast(repo.path(), &["check", "--base", "main", "--head", "HEAD"]);
    assert!(
        run.stdout
            .contains("add the trailer `Nodecast-Ack: NodePool/clusters/workers`"),
        "{}",
        run.stdout
    );
    // --ack names it.
    assert_eq!(
        json_lines(
            &repo,
            &[
                "--base",
                "main",
                "--head",
                "HEAD",
                "--ack",
                "NodePool/clusters/workers"
            ]
        ),
        (0, vec![])
    );
    // A trailer in the range names it.
    repo.git(&[
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "ack\n\nNodecast-Ack: NodePool/clusters/workers",
    ]);
    assert_eq!(
        json_lines(&repo, &["--base", "main", "--head", "HEAD"]),
        (0, vec![])
    );
    // Without require-ack nothing is asked.
    repo.write(".nodecast.yaml", "require-ack: false\n");
    repo.git(&["reset", "-q", "--hard", "HEAD~1"]);
    repo.write(".nodecast.yaml", "require-ack: false\n");
    assert_eq!(
        json_lines(&repo, &["--base", "main", "--head", "HEAD"]),
        (0, vec![])
    );
}
