//! A pull request fails only for what it introduces: head findings are matched against the base
//! revision linted alone, by code, object and field (not by line), in every output format.

use crate::common;

use common::{nodecast, Repo};
use serde_json::Value;

/// A ConfigMap whose `data.enabled` is a boolean: the API server rejects it (V101, an error).
fn bad_configmap(name: &str, value: &str) -> String {
    format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n  namespace: default\ndata:\n  enabled: {value}\n"
    )
}

/// `code state file:line` of every finding.
fn states(r: &Value) -> Vec<String> {
    r["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            format!(
                "{} {} {}:{}",
                d["code"].as_str().unwrap_or("?"),
                d["state"].as_str().unwrap_or("?"),
                d["file"].as_str().unwrap_or("?"),
                d["line"]
            )
        })
        .collect()
}

fn check(repo: &Repo, extra: &[&str]) -> (i32, Value) {
    let mut args = vec![
        "check", "--base", "HEAD^", "--head", "HEAD", "--format", "json",
    ];
    args.extend(extra);
    let run = nodecast(repo.path(), &args);
    assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
    (run.code, run.json())
}

/// Base: one invalid ConfigMap in `old.yaml`.
fn repo_with_an_old_error() -> Repo {
    let repo = Repo::new();
    repo.write("old.yaml", &bad_configmap("old", "yes"));
    repo.write("ok.yaml", &bad_configmap("ok", "\"yes\""));
    repo.commit("base");
    repo
}

#[test]
fn an_unrelated_change_passes_and_counts_the_old_error() {
    let repo = repo_with_an_old_error();
    repo.write("ok.yaml", &bad_configmap("ok", "\"no\""));
    repo.commit("unrelated");
    let (code, r) = check(&repo, &[]);
    assert_eq!(code, 0);
    assert_eq!(states(&r), Vec::<String>::new());
    assert_eq!(r["summary"]["pre_existing"], 1);
    assert_eq!(r["summary"]["errors"], 0);
    // --all lists it, marked, and it still does not fail the check.
    let (code, r) = check(&repo, &["--all"]);
    assert_eq!(code, 0);
    assert_eq!(states(&r), ["V101 pre-existing old.yaml:7"]);
    // The human summary says so in one line.
    let human = nodecast(repo.path(), &["check", "--base", "HEAD^", "--head", "HEAD"]);
    assert_eq!(human.code, 0);
    assert!(
        human
            .stdout
            .trim_end()
            .ends_with("; 1 pre-existing finding not shown (--all lists them)"),
        "{}",
        human.stdout
    );
}

#[test]
fn a_new_error_fails_alone_and_the_old_one_stays_quiet() {
    let repo = repo_with_an_old_error();
    repo.write("new.yaml", &bad_configmap("new", "on"));
    repo.commit("adds a mistake");
    let (code, r) = check(&repo, &[]);
    assert_eq!(code, 1);
    assert_eq!(states(&r), ["V101 new new.yaml:7"]);
    let (_, all) = check(&repo, &["--all"]);
    assert_eq!(
        states(&all),
        ["V101 new new.yaml:7", "V101 pre-existing old.yaml:7"]
    );
    // SARIF: code scanning sees the baseline state of each result.
    let sarif = nodecast(
        repo.path(),
        &[
            "check", "--base", "HEAD^", "--head", "HEAD", "--format", "sarif", "--all",
        ],
    )
    .json();
    let baseline: Vec<(String, String)> = sarif["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                r["baselineState"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    assert_eq!(
        baseline,
        [
            ("new.yaml".to_string(), "new".to_string()),
            ("old.yaml".to_string(), "unchanged".to_string())
        ]
    );
}

#[test]
fn moving_the_object_or_editing_around_it_keeps_it_pre_existing() {
    let repo = repo_with_an_old_error();
    // Moved to another file, with lines added above it.
    std::fs::remove_file(repo.path().join("old.yaml")).expect("rm");
    repo.write(
        "moved/renamed.yaml",
        &format!("# moved here\n\n{}", bad_configmap("old", "yes")),
    );
    repo.commit("move");
    let (code, r) = check(&repo, &["--all"]);
    assert_eq!(code, 0);
    assert_eq!(states(&r), ["V101 pre-existing moved/renamed.yaml:9"]);
}

#[test]
fn rewriting_the_wrong_value_with_another_wrong_one_is_changed_and_fails() {
    let repo = repo_with_an_old_error();
    repo.write("old.yaml", &bad_configmap("old", "off"));
    repo.commit("still wrong");
    let (code, r) = check(&repo, &[]);
    assert_eq!(code, 1);
    assert_eq!(states(&r), ["V101 changed old.yaml:7"]);
}

#[test]
fn report_all_in_the_configuration_lists_everything_and_no_base_lints_everything() {
    let repo = repo_with_an_old_error();
    repo.write(".nodecast.yaml", "report: all\n");
    repo.commit("configure");
    let (code, r) = check(&repo, &[]);
    assert_eq!(code, 0);
    assert_eq!(states(&r), ["V101 pre-existing old.yaml:7"]);
    let lint = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]);
    assert_eq!(lint.code, 1);
    assert_eq!(states(&lint.json()), ["V101 new old.yaml:7"]);
    // A wrong value of the setting is a configuration finding with its line.
    repo.write(".nodecast.yaml", "report: everything\n");
    let run = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]);
    let codes: Vec<String> = states(&run.json());
    assert!(
        codes.contains(&"C102 new .nodecast.yaml:1".to_string()),
        "{codes:?}"
    );
}

#[test]
fn a_report_written_into_the_working_tree_does_not_change_what_is_compared() {
    let repo = Repo::new();
    repo.write("old.yaml", &bad_configmap("old", "\"a\""));
    repo.commit("base");
    repo.write("old.yaml", &bad_configmap("old", "\"b\""));
    repo.commit("head");
    let first = nodecast(
        repo.path(),
        &["check", "--format", "json", "--output-json", "report.json"],
    );
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(repo.path().join("report.json").is_file());
    // The untracked report is not a manifest change: the next run still compares HEAD^.
    let again = nodecast(repo.path(), &["check", "--format", "json"]).json();
    assert_eq!(again["compared"], first.json()["compared"]);
    assert!(
        again["compared"]["base"]["label"]
            .as_str()
            .is_some_and(|l| l.starts_with("HEAD^")),
        "{}",
        again["compared"]
    );
    assert_eq!(again["changes"].as_array().map(Vec::len), Some(1));
    // An untracked JSON manifest is a change: then the working tree is compared with HEAD.
    repo.write(
        "new.json",
        r#"{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "n", "namespace": "default"}}"#,
    );
    let dirty = nodecast(repo.path(), &["check", "--format", "json"]).json();
    assert!(
        dirty["compared"]["base"]["label"]
            .as_str()
            .is_some_and(|l| l.starts_with("HEAD (")),
        "{}",
        dirty["compared"]
    );
}

/// A CRD whose `spec` has the given CEL rules (`x-kubernetes-validations` entries, as YAML flow
/// mappings).
fn crd(kind: &str, rules: &[&str]) -> String {
    let plural = format!("{}s", kind.to_lowercase());
    let mut s = format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {plural}.example.com\nspec:\n  group: example.com\n  names:\n    kind: {kind}\n    listKind: {kind}List\n    plural: {plural}\n    singular: {}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              size:\n                type: integer\n              mode:\n                type: string\n            x-kubernetes-validations:\n",
        kind.to_lowercase()
    );
    for r in rules {
        s.push_str(&format!("            - {r}\n"));
    }
    s
}

fn custom(kind: &str, name: &str, size: u32) -> String {
    format!(
        "apiVersion: example.com/v1\nkind: {kind}\nmetadata:\n  name: {name}\n  namespace: default\nspec:\n  size: {size}\n  mode: fast\n"
    )
}

/// Base: a Widget CRD with a plain rule the committed widget `w` breaks (pre-existing) beside a
/// transition rule; a Gadget CRD with an optional-`oldSelf` rule that an update leaving the gadget
/// as it was breaks and a create does not (so the base on its own does not have the head's
/// finding); an invalid ConfigMap. Not committed.
fn widgets_and_gadgets() -> Repo {
    let repo = Repo::new();
    repo.write(
        "crds/widget.yaml",
        &crd(
            "Widget",
            &[
                "{rule: 'self.size <= 5', message: 'size is at most 5'}",
                "{rule: 'self.mode == oldSelf.mode', message: 'mode is immutable'}",
            ],
        ),
    );
    repo.write(
        "crds/gadget.yaml",
        &crd(
            "Gadget",
            &["{rule: '!oldSelf.hasValue() || self.size > oldSelf.value().size', optionalOldSelf: true, message: 'size grows on every update'}"],
        ),
    );
    repo.write("widget.yaml", &custom("Widget", "w", 7));
    repo.write("gadget.yaml", &custom("Gadget", "g", 1));
    repo.write("old.yaml", &bad_configmap("old", "yes"));
    repo
}

/// The base revision's own validation takes the head's result for every document the change
/// left alone — also where the schema has transition rules, which ratchet on an update that
/// changes nothing, so such an update finds what a create finds. Not where a rule reads an
/// optional `oldSelf`: that rule runs on the create too, against no old object. The report
/// (every finding listed) is byte-identical to `--full`, which validates the base afresh.
#[test]
fn unchanged_documents_are_validated_once_and_the_report_is_the_full_one() {
    let repo = widgets_and_gadgets();
    repo.commit("base");
    repo.write("other.yaml", &custom("Widget", "other", 9));
    repo.commit("another widget");
    let (code, all) = check(&repo, &["--all"]);
    let (_, full) = check(&repo, &["--all", "--full"]);
    assert_eq!(all, full);
    assert_eq!(code, 1);
    assert_eq!(
        states(&all),
        [
            "V104 new gadget.yaml:6",
            "V101 pre-existing old.yaml:7",
            "V103 new other.yaml:6",
            "V103 pre-existing widget.yaml:6",
        ]
    );
}

/// A one-off check keeps its validation results in the cache folder and takes them back in the
/// next one: the report is the full one cold, warm, with a cache another pair of revisions left
/// (a document's transition rules read its own base, never the one of the run that stored it),
/// and with corrupt files in the folder.
#[test]
fn validation_results_kept_in_the_cache_give_the_full_report() {
    let repo = widgets_and_gadgets();
    repo.commit("base");
    // The widget's mode changes (a transition finding against this base only).
    repo.write(
        "widget.yaml",
        &custom("Widget", "w", 7).replace("mode: fast", "mode: slow"),
    );
    repo.write("other.yaml", &custom("Widget", "other", 9));
    repo.commit("mode and another widget");
    // The widget is as the first commit had it: against the second, its mode changes back.
    repo.write("widget.yaml", &custom("Widget", "w", 7));
    repo.commit("mode back");
    let cache_dir = tempfile::tempdir().expect("tempdir");
    let cache = cache_dir.path().to_str().expect("utf-8 path");
    let pairs = [("HEAD~2", "HEAD~1"), ("HEAD~1", "HEAD"), ("HEAD~2", "HEAD")];
    let run = |base: &str, head: &str, extra: &[&str]| {
        let mut args = vec![
            "check", "--base", base, "--head", head, "--format", "json", "--all",
        ];
        args.extend(extra);
        let r = nodecast(repo.path(), &args);
        assert!(r.code == 0 || r.code == 1, "{}", r.stderr);
        r.json()
    };
    let full: Vec<Value> = pairs.iter().map(|(b, h)| run(b, h, &["--full"])).collect();
    assert_eq!(
        states(&full[1]),
        [
            "V104 new gadget.yaml:6",
            "V101 pre-existing old.yaml:7",
            "V103 pre-existing other.yaml:6",
            "V103 changed widget.yaml:6",
            "V104 new widget.yaml:6",
        ]
    );
    // Cold, then each pair after the others left their results, twice round.
    for round in 0..2 {
        for (i, (b, h)) in pairs.iter().enumerate() {
            let got = run(b, h, &["--cache-dir", cache]);
            assert_eq!(got, full[i], "round {round}, {b}..{h}");
        }
    }
    let kept: Vec<std::path::PathBuf> = std::fs::read_dir(format!("{cache}/validation"))
        .expect("the validation cache folder")
        .flatten()
        .map(|e| e.path())
        .collect();
    assert!(!kept.is_empty());
    // Corrupt files are ignored (and replaced).
    for (i, path) in kept.iter().enumerate() {
        let text = std::fs::read_to_string(path).expect("a kept file");
        let bad = if i % 2 == 0 {
            text[..text.len() / 2].to_string()
        } else {
            text.replace("nodecast-validation-cache/", "nodecast-validation-cache/0")
        };
        std::fs::write(path, bad).expect("corrupt");
    }
    for (i, (b, h)) in pairs.iter().enumerate() {
        assert_eq!(
            run(b, h, &["--cache-dir", cache]),
            full[i],
            "corrupt, {b}..{h}"
        );
    }
}
