//! Commands, exit codes, colour, and the findings nodecast reports on real repositories.

use crate::common;

use common::{diag_lines, hosted_cluster, node_pool, nodecast, nodecast_env, Repo};

fn repo_with(files: &[(&str, &str)]) -> Repo {
    let repo = Repo::new();
    for (p, c) in files {
        repo.write(p, c);
    }
    repo.commit("files");
    repo
}

#[test]
fn rules_lists_every_code_and_explain_prints_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let run = nodecast(dir.path(), &["rules"]);
    assert_eq!(run.code, 0);
    for code in ["Y001", "Y002", "Y003", "K004", "I001", "R001"] {
        assert!(
            run.stdout.lines().any(|l| l.starts_with(code)),
            "{code} missing:\n{}",
            run.stdout
        );
    }
    assert!(
        run.stdout.contains("Y002  error    duplicate-key"),
        "{}",
        run.stdout
    );
    let page = nodecast(dir.path(), &["explain", "y002"]);
    assert_eq!(page.code, 0);
    assert!(
        page.stdout.starts_with("# Y002: duplicate-key\n"),
        "{}",
        page.stdout
    );
    let missing = nodecast(dir.path(), &["explain", "Z999"]);
    assert_eq!(missing.code, 2);
    assert!(missing.stderr.contains("no rule has the code `Z999`"));
}

#[test]
fn exit_codes_follow_the_threshold() {
    // One warning (Y003), no error.
    let np = node_pool("workers", "prod", 3, &[])
        .replace("metadata:\n", "metadata:\n  labels:\n    backup: yes\n");
    let repo = repo_with(&[
        ("hc.yaml", &hosted_cluster("prod", "4.18.5")),
        ("np.yaml", &np),
    ]);
    let p = repo.path();
    assert_eq!(nodecast(p, &["check", "--no-base"]).code, 0);
    assert_eq!(
        nodecast(p, &["check", "--no-base", "--fail-on", "warning"]).code,
        1
    );
    assert_eq!(
        nodecast(p, &["check", "--no-base", "--fail-on", "info"]).code,
        1
    );
    assert_eq!(
        nodecast(
            p,
            &["check", "--no-base", "--fail-on", "warning", "--exit-zero"]
        )
        .code,
        0
    );
    // An error.
    repo.write(
        "bad.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n",
    );
    let run = nodecast(p, &["check", "--no-base", "--format", "json"]);
    assert_eq!(run.code, 1);
    assert_eq!(
        diag_lines(&run.json()),
        vec!["Y002 error bad.yaml:5:3", "Y003 warning np.yaml:5:13"]
    );
    // Usage errors.
    assert_eq!(nodecast(p, &["check", "--now", "yesterday"]).code, 2);
    assert_eq!(nodecast(p, &["check", "--format", "yaml"]).code, 2);
    assert_eq!(
        nodecast(p, &["check", "--staged", "--base-dir", "x"]).code,
        2
    );
}

#[test]
fn now_is_reported_as_given() {
    let repo = repo_with(&[("np.yaml", &node_pool("w", "prod", 1, &[]))]);
    let r = nodecast(
        repo.path(),
        &[
            "check",
            "--no-base",
            "--now",
            "2026-11-21T02:00:00Z",
            "--format",
            "json",
        ],
    )
    .json();
    assert_eq!(r["now"], "2026-11-21T02:00:00Z");
}

#[test]
fn colour_follows_the_environment() {
    let repo = repo_with(&[(
        "bad.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n",
    )]);
    let plain = nodecast(repo.path(), &["check", "--no-base"]);
    assert!(
        !plain.stdout.contains('\u{1b}'),
        "NO_COLOR output has escapes"
    );
    let forced = nodecast_env(
        repo.path(),
        &["check", "--no-base"],
        &[("FORCE_COLOR", "1")],
    );
    assert!(
        forced.stdout.contains('\u{1b}'),
        "FORCE_COLOR output has no escapes"
    );
    let never = nodecast_env(
        repo.path(),
        &["check", "--no-base", "--color", "never"],
        &[("FORCE_COLOR", "1")],
    );
    assert!(!never.stdout.contains('\u{1b}'));
    let json = nodecast_env(
        repo.path(),
        &["check", "--no-base", "--format", "json"],
        &[("FORCE_COLOR", "1")],
    );
    assert!(!json.stdout.contains('\u{1b}'), "JSON never has colour");
}

#[test]
fn human_output_has_code_frame_help_and_docs_pointer() {
    let repo = repo_with(&[(
        "bad.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n",
    )]);
    let run = nodecast(repo.path(), &["check", "--no-base"]);
    let out = &run.stdout;
    assert!(out.contains("Y002"), "{out}");
    assert!(out.contains("duplicate key `name`"), "{out}");
    assert!(
        out.contains("[bad.yaml:5:3]"),
        "frame header with path:line:col\n{out}"
    );
    assert!(out.contains("first defined here"), "{out}");
    assert!(out.contains("help: remove one of the two entries"), "{out}");
    assert!(out.contains("docs: nodecast explain Y002"), "{out}");
    assert!(out.contains("Changes\n  not compared (no base)"), "{out}");
    assert!(
        out.contains("Forecast\n  not forecast (no base to compare with)"),
        "{out}"
    );
    assert!(
        out.trim_end()
            .ends_with("1 error, 0 warnings, 0 infos in 1 file (1 object)"),
        "{out}"
    );
}

#[test]
fn bad_files_in_git_blobs_are_reported_and_the_rest_is_checked() {
    let repo = Repo::new();
    repo.write_bytes("bin.yaml", b"apiVersion: v1\x00\x00kind: X\n");
    repo.write_bytes(
        "latin1.yaml",
        b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: caf\xe9\n",
    );
    repo.write(
        "chart/templates/np.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.name }}\n",
    );
    repo.write(
        "alerts.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: alerts\ndata:\n  rule: |\n    summary: {{ $labels.instance }} down\n",
    );
    repo.write(
        "broken.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [unclosed\n",
    );
    repo.write("np.yaml", &node_pool("workers", "prod", 3, &[]));
    repo.write("hc.yaml", &hosted_cluster("prod", "4.18.5"));
    repo.commit("bad files");
    let run = nodecast(
        repo.path(),
        &["check", "--no-base", "--head", "HEAD", "--format", "json"],
    );
    let r = run.json();
    let lines = diag_lines(&r);
    assert!(
        lines.contains(&"Y007 warning bin.yaml:null:null".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"Y008 warning latin1.yaml:4:12".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"Y005 info chart/templates/np.yaml:4:9".to_string()),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Y001 error broken.yaml:")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("alerts.yaml")),
        "template text inside a block scalar is data: {lines:?}"
    );
    assert_eq!(
        r["summary"]["objects"], 3,
        "np, hc and alerts are still inventoried"
    );
}

#[test]
fn changes_inside_embedded_machineconfigs_are_located_in_the_outer_file() {
    let cm = |karg: &str| {
        format!(
            "apiVersion: v1
kind: ConfigMap
metadata:
  name: worker-mc
  namespace: clusters
data:
  config: |
    apiVersion: machineconfiguration.openshift.io/v1
    kind: MachineConfig
    metadata:
      name: 50-kargs
      labels:
        machineconfiguration.openshift.io/role: worker
    spec:
      kernelArguments:
      - {karg}
"
        )
    };
    let repo = repo_with(&[
        ("hc.yaml", &hosted_cluster("prod", "4.18.5")),
        ("np.yaml", &node_pool("workers", "prod", 3, &["worker-mc"])),
        ("cm.yaml", &cm("nosmt")),
    ]);
    repo.write("cm.yaml", &cm("mitigations=off"));
    let run = nodecast(repo.path(), &["check", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = run.json();
    let change = &r["changes"][0];
    assert_eq!(change["object"], "ConfigMap/clusters/worker-mc");
    let fields = change["fields"].as_array().unwrap();
    assert_eq!(fields[0]["path"], "/data/config");
    assert_eq!(fields[0]["line"], 7);
    assert_eq!(fields[0]["column"], 11);
    assert_eq!(
        fields[1]["path"],
        "/data/config[MachineConfig 50-kargs]/spec/kernelArguments"
    );
    assert_eq!(fields[1]["line"], 16);
    assert_eq!(fields[1]["column"], 7);
    // The HyperShift model explains the referenced ConfigMap: never "no node impact".
    assert_eq!(r["unforecast"], serde_json::json!([]));
    assert_eq!(r["forecast"][0]["action"], "replace");
    assert_eq!(r["forecast"][0]["causes"][0]["line"], 15);
    assert_eq!(r["forecast"][0]["causes"][0]["column"], 7);
    let human = nodecast(repo.path(), &["check"]).stdout;
    assert!(!human.contains("no node impact"), "{human}");
    assert!(human.contains("replace, drained"), "{human}");
}

#[test]
fn missing_references_are_errors_only_when_the_kind_is_managed() {
    let repo = repo_with(&[
        ("hc.yaml", &hosted_cluster("prod", "4.18.5")),
        ("np.yaml", &node_pool("workers", "prod", 3, &["worker-mc"])),
        ("np2.yaml", &node_pool("infra", "staging", 3, &[])),
    ]);
    let r = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]).json();
    assert_eq!(
        diag_lines(&r),
        vec!["R001 info np.yaml:16:11", "R001 error np2.yaml:7:16"]
    );
    repo.write(
        "cm.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: worker-mcc\n  namespace: clusters\ndata: {}\n",
    );
    let r = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]).json();
    let d = &r["diagnostics"][0];
    assert_eq!(d["code"], "R001");
    assert_eq!(d["severity"], "error");
    assert_eq!(d["help"], "did you mean `worker-mcc`?");
}

#[test]
fn missing_git_objects_are_reported_not_hidden() {
    let repo = repo_with(&[
        ("np.yaml", &node_pool("workers", "prod", 3, &[])),
        ("hc.yaml", &hosted_cluster("prod", "4.18.5")),
    ]);
    let blob = repo.git(&["rev-parse", "HEAD:np.yaml"]).trim().to_string();
    let object = repo
        .path()
        .join(".git/objects")
        .join(&blob[..2])
        .join(&blob[2..]);
    std::fs::remove_file(&object).expect("loose object");
    let run = nodecast(
        repo.path(),
        &["check", "--no-base", "--head", "HEAD", "--format", "json"],
    );
    let r = run.json();
    assert_eq!(diag_lines(&r), vec!["Y009 warning np.yaml:null:null"]);
    assert!(
        r["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .contains(&blob),
        "{}",
        r["diagnostics"][0]
    );
    assert_eq!(run.code, 0, "a warning does not fail the run by default");
}

#[test]
fn frames_follow_the_terminal_width_and_fall_back_to_ascii() {
    let repo = common::Repo::new();
    repo.write(
        "a.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n  labels:\n    x: yes\n",
    );
    repo.commit("base");
    let run = |env: &[(&str, &str)]| {
        common::nodecast_env(
            repo.path(),
            &["check", "--no-base", "--color", "never"],
            env,
        )
        .stdout
    };
    let unicode = run(&[]);
    assert!(unicode.contains('╭') || unicode.contains('│'), "{unicode}");
    // The error (Y002) comes before the warning (Y003), whatever their lines.
    let (e, w) = (
        unicode.find("Y002").expect("Y002"),
        unicode.find("Y003").expect("Y003"),
    );
    assert!(e < w, "{unicode}");
    for env in [[("TERM", "dumb")], [("LANG", "C")]] {
        let ascii = run(&env);
        assert!(
            !ascii.contains('│') && !ascii.contains('╭'),
            "{env:?}: {ascii}"
        );
    }
    let narrow = run(&[("COLUMNS", "60")]);
    let widest = narrow.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    assert!(
        widest <= 60 + 20,
        "frames follow COLUMNS: {widest}\n{narrow}"
    );
}

#[test]
fn a_cause_in_a_deleted_file_says_so() {
    let repo = common::Repo::new();
    repo.write(
        "c/k.yaml",
        "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 99-worker-kargs\n  labels:\n    machineconfiguration.openshift.io/role: worker\nspec:\n  kernelArguments:\n  - nosmt\n",
    );
    repo.commit("base");
    repo.git(&["rm", "-q", "c/k.yaml"]);
    repo.commit("delete");
    let out = common::nodecast(
        repo.path(),
        &[
            "check", "--base", "HEAD^", "--head", "HEAD", "--color", "never",
        ],
    )
    .stdout;
    assert!(
        out.contains(
            "      c/k.yaml:9:5 (deleted file, base revision)  kernel argument nosmt removed"
        ),
        "{out}"
    );
    assert!(out.trim_end().starts_with("nodecast:"), "{out}");
    assert!(
        out.trim_end()
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("1 pool reboots · ")),
        "{out}"
    );
}

/// Found by the `check` fuzz target: a changed value whose fifth byte falls inside a character
/// ("日本語") made the diff's data-URL test slice a string mid-character and panic.
#[test]
fn a_changed_value_in_any_script_is_compared() {
    let repo = repo_with(&[(
        "cm.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: greeting\n  namespace: default\ndata:\n  text: 日本語\n",
    )]);
    repo.write(
        "cm.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: greeting\n  namespace: default\ndata:\n  text: 日本語です\n",
    );
    let run = nodecast(repo.path(), &["check", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = run.json();
    let fields = &r["changes"][0]["fields"];
    assert_eq!(fields[0]["path"], "/data/text");
    assert_eq!(fields[0]["after"], "\"日本語です\"");
}

/// Found by the `check` fuzz target: a finding past column 65,535 of a line (a minified JSON
/// manifest) made miette's code frame panic; it is now shown with its position, without a frame.
#[test]
fn a_finding_at_the_end_of_a_very_long_line_is_reported() {
    let long = "x".repeat(70_000);
    let json = format!(
        "{{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{{\"name\":\"a\",\"namespace\":\"default\"}},\"data\":{{\"k\":\"{long}\",\"k\":\"again\"}}}}\n"
    );
    let repo = repo_with(&[("cm.json", &json)]);
    let run = nodecast(repo.path(), &["check", "--no-base", "--color", "never"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let col = json.rfind("\"k\"").expect("second key") + 1;
    assert!(
        run.stdout.contains(&format!("Y002 cm.json:1:{col}: ")),
        "{}",
        run.stdout
    );
    // A short line of the same file still gets its frame.
    let short = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n  name: c\n";
    let repo = repo_with(&[("cm.yaml", short)]);
    let run = nodecast(repo.path(), &["check", "--no-base", "--color", "never"]);
    assert!(run.stdout.contains("╭─[cm.yaml:5:3]"), "{}", run.stdout);
}
