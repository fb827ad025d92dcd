//! `--format sarif` checked by an independent consumer: the official SARIF 2.1.0 JSON Schema
//! (draft-04, formats on) plus the rules GitHub code scanning adds on top (conventions.md §1).

use crate::common;

use common::{hosted_cluster, node_pool, nodecast, project_root, Repo};
use serde_json::{json, Value};

fn schema_validator() -> jsonschema::Validator {
    let text =
        std::fs::read_to_string(project_root().join("testdata/sarif/sarif-schema-2.1.0.json"))
            .expect("schema");
    let schema: Value = serde_json::from_str(&text).expect("schema is JSON");
    jsonschema::draft4::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("schema compiles")
}

fn empty_objects(v: &Value, path: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(m) if m.is_empty() => out.push(format!("empty object at {path}")),
        Value::Object(m) => {
            for (k, v) in m {
                empty_objects(v, &format!("{path}/{k}"), out);
            }
        }
        Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                empty_objects(v, &format!("{path}/{i}"), out);
            }
        }
        Value::String(s) if s.is_empty() => out.push(format!("empty string at {path}")),
        _ => {}
    }
}

/// Everything that makes GitHub reject (or misplace) a SARIF file; empty when it would accept it.
fn github_rejects(log: &Value) -> Vec<String> {
    let mut problems: Vec<String> = schema_validator()
        .iter_errors(log)
        .map(|e| format!("schema: {e} at {}", e.instance_path()))
        .collect();
    empty_objects(log, "", &mut problems);
    if log["$schema"] != json!("https://json.schemastore.org/sarif-2.1.0.json") {
        problems.push("$schema".into());
    }
    if log["version"] != json!("2.1.0") {
        problems.push("version".into());
    }
    let Some(runs) = log["runs"].as_array() else {
        problems.push("runs missing".into());
        return problems;
    };
    if runs.len() != 1 {
        problems.push(format!("{} runs", runs.len()));
    }
    for run in runs {
        if run["tool"]["driver"]["name"] != json!("nodecast") {
            problems.push("tool.driver.name".into());
        }
        let rule_ids: Vec<&str> = run["tool"]["driver"]["rules"]
            .as_array()
            .map(|r| r.iter().filter_map(|r| r["id"].as_str()).collect())
            .unwrap_or_default();
        for rule in run["tool"]["driver"]["rules"]
            .as_array()
            .into_iter()
            .flatten()
        {
            for key in ["shortDescription", "fullDescription"] {
                let n = rule[key]["text"].as_str().map_or(0, |t| t.chars().count());
                if n == 0 || n > 1024 {
                    problems.push(format!("rule {} {key} length {n}", rule["id"]));
                }
            }
            if rule["help"]["markdown"].as_str().is_none() {
                problems.push(format!("rule {} help.markdown", rule["id"]));
            }
            if rule["properties"].get("security-severity").is_some() {
                problems.push("security-severity set".into());
            }
        }
        let Some(results) = run["results"].as_array() else {
            problems.push("results missing".into());
            continue;
        };
        for (i, r) in results.iter().enumerate() {
            let id = r["ruleId"].as_str().unwrap_or_default();
            if !rule_ids.contains(&id) {
                problems.push(format!("result {i}: ruleId {id:?} is not a rule"));
            }
            if r["message"]["text"].as_str().is_none_or(str::is_empty) {
                problems.push(format!("result {i}: message"));
            }
            let locs = r["locations"].as_array().map_or(0, Vec::len);
            if locs != 1 {
                problems.push(format!("result {i}: {locs} locations"));
            }
            let mut all = vec![&r["locations"][0]];
            all.extend(r["relatedLocations"].as_array().into_iter().flatten());
            for loc in all {
                let uri = loc["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap_or_default();
                if uri.is_empty()
                    || uri.contains("://")
                    || uri.starts_with('/')
                    || uri.contains('\\')
                {
                    problems.push(format!(
                        "result {i}: uri {uri:?} is not repository-relative"
                    ));
                }
                let region = &loc["physicalLocation"]["region"];
                if !region.is_null() {
                    let n = |k: &str| region[k].as_u64().unwrap_or(0);
                    if n("startLine") == 0 || n("startColumn") == 0 {
                        problems.push(format!("result {i}: region start"));
                    }
                    if n("endLine") < n("startLine")
                        || (n("endLine") == n("startLine") && n("endColumn") < n("startColumn"))
                    {
                        problems.push(format!("result {i}: region ends before it starts"));
                    }
                }
            }
        }
        if results.len() > 25_000 {
            problems.push("too many results".into());
        }
    }
    problems
}

fn sarif(cwd: &std::path::Path, args: &[&str]) -> Value {
    let mut argv = vec!["check"];
    argv.extend_from_slice(args);
    argv.extend_from_slice(&["--format", "sarif"]);
    let run = nodecast(cwd, &argv);
    assert!(run.code == 0 || run.code == 1, "{}", run.stderr);
    assert!(run.stderr.is_empty(), "stderr: {}", run.stderr);
    run.json()
}

fn repo_with_findings() -> Repo {
    let repo = Repo::new();
    repo.write("clusters/prod/hc.yaml", &hosted_cluster("prod", "4.18.5"));
    repo.write(
        "clusters/prod/np.yaml",
        &node_pool("workers", "prod", 3, &[]),
    );
    repo.commit("base");
    // Y002 (error) on line 5 `name: b`, a Y003 warning, and a K004 duplicate across two files.
    repo.write(
        "clusters/prod/cm.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n",
    );
    let np = node_pool("workers", "prod", 3, &[])
        .replace("metadata:\n", "metadata:\n  labels:\n    backup: yes\n");
    repo.write("clusters/prod/np.yaml", &np);
    repo.write(
        "clusters/prod/np copy.yaml",
        &node_pool("workers", "prod", 3, &[]),
    );
    repo
}

#[test]
fn sarif_of_real_findings_is_accepted() {
    let repo = repo_with_findings();
    let log = sarif(repo.path(), &[]);
    let problems = github_rejects(&log);
    assert!(problems.is_empty(), "{problems:#?}\n{log:#}");
    let results = log["runs"][0]["results"].as_array().expect("results");
    let summary: Vec<String> = results
        .iter()
        .map(|r| {
            let loc = &r["locations"][0]["physicalLocation"];
            format!(
                "{} {} {} {}:{}-{}:{}",
                r["ruleId"].as_str().unwrap_or("?"),
                r["level"].as_str().unwrap_or("?"),
                loc["artifactLocation"]["uri"].as_str().unwrap_or("?"),
                loc["region"]["startLine"],
                loc["region"]["startColumn"],
                loc["region"]["endLine"],
                loc["region"]["endColumn"],
            )
        })
        .collect();
    // endColumn is the column after the last character: `name` at 5:3 ends before column 7.
    assert!(
        summary.contains(&"Y002 error clusters/prod/cm.yaml 5:3-5:7".to_string()),
        "{summary:#?}"
    );
    // `yes` at 5:13 ends before column 16.
    assert_eq!(
        summary,
        [
            "Y002 error clusters/prod/cm.yaml 5:3-5:7",
            "Y003 warning clusters/prod/np.yaml 5:13-5:16",
            "K004 error clusters/prod/np.yaml 6:9-6:16",
        ]
    );
    let k004 = results
        .iter()
        .find(|r| r["ruleId"] == "K004")
        .expect("K004");
    assert_eq!(k004["relatedLocations"].as_array().map(Vec::len), Some(1));
    // A path with a space is a valid relative URI.
    assert_eq!(
        k004["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "clusters/prod/np%20copy.yaml"
    );
    assert!(
        k004["message"]["text"]
            .as_str()
            .unwrap_or_default()
            .contains("](1)"),
        "{k004:#}"
    );
    // Every rule is described, with its level.
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules");
    let y002 = rules.iter().find(|r| r["id"] == "Y002").expect("Y002 rule");
    assert_eq!(y002["defaultConfiguration"]["level"], "error");
    assert_eq!(
        y002["helpUri"],
        "https://github.com/nodecast/nodecast/blob/main/rules/Y002.md"
    );
    assert_eq!(
        log["runs"][0]["tool"]["driver"]["semanticVersion"],
        env!("CARGO_PKG_VERSION")
    );
}

#[test]
fn a_clean_run_still_has_results() {
    let repo = Repo::new();
    repo.write("clusters/prod/hc.yaml", &hosted_cluster("prod", "4.18.5"));
    repo.commit("base");
    let log = sarif(repo.path(), &[]);
    assert_eq!(log["runs"][0]["results"], json!([]));
    assert!(github_rejects(&log).is_empty());
}

#[test]
fn file_level_findings_have_no_placeholder_line() {
    let repo = Repo::new();
    repo.write_bytes("bin.yaml", b"a: 1\n\0\0\0");
    repo.commit("base");
    let log = sarif(repo.path(), &["--no-base"]);
    assert!(github_rejects(&log).is_empty(), "{log:#}");
    let r = &log["runs"][0]["results"][0];
    assert_eq!(r["ruleId"], "Y007");
    let loc = &r["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "bin.yaml");
    assert!(loc.get("region").is_none(), "{loc:#}");
}

#[test]
fn fingerprints_survive_line_moves_and_differ_by_field() {
    let repo = repo_with_findings();
    let before = sarif(repo.path(), &[]);
    let fp = |log: &Value, code: &str| -> Vec<String> {
        log["runs"][0]["results"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|r| r["ruleId"] == code)
            .map(|r| {
                r["partialFingerprints"]["nodecastFingerprint/v1"]
                    .as_str()
                    .unwrap_or("")
                    .to_string()
            })
            .collect()
    };
    let y003 = fp(&before, "Y003");
    assert_eq!(y003.len(), 1);
    assert_eq!(y003[0].len(), 40);
    // Move every line down: the finding moves, its fingerprint does not.
    let np = std::fs::read_to_string(repo.path().join("clusters/prod/np.yaml")).expect("np");
    repo.write("clusters/prod/np.yaml", &format!("# moved\n\n{np}"));
    let after = sarif(repo.path(), &[]);
    assert_eq!(fp(&after, "Y003"), y003);
    let line = |log: &Value| {
        log["runs"][0]["results"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|r| r["ruleId"] == "Y003")
            .map(|r| r["locations"][0]["physicalLocation"]["region"]["startLine"].clone())
    };
    assert_eq!(line(&before), Some(json!(5)));
    assert_eq!(line(&after), Some(json!(7)));
    // The same rule on another field has another fingerprint.
    let np2 = np.replace("    backup: yes\n", "    backup: yes\n    restore: no\n");
    repo.write("clusters/prod/np.yaml", &np2);
    let two = fp(&sarif(repo.path(), &[]), "Y003");
    assert_eq!(two.len(), 2);
    assert!(two.contains(&y003[0]));
    assert_ne!(two[0], two[1]);
}

/// The checks above can fail: each mutation GitHub would reject is caught.
#[test]
fn the_validator_rejects_what_github_rejects() {
    let repo = repo_with_findings();
    let good = sarif(repo.path(), &[]);
    assert!(github_rejects(&good).is_empty());
    type Mutation = fn(&mut Value);
    let mutations: [(&str, Mutation); 8] = [
        ("no results", |v| {
            v["runs"][0].as_object_mut().map(|r| r.remove("results"));
        }),
        ("line 0", |v| {
            v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
                json!(0)
        }),
        ("empty snippet", |v| {
            v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["snippet"] =
                json!({})
        }),
        ("absolute uri", |v| {
            v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
                ["uri"] = json!("file:///home/runner/work/x/np.yaml")
        }),
        ("two locations", |v| {
            let loc = v["runs"][0]["results"][0]["locations"][0].clone();
            v["runs"][0]["results"][0]["locations"] = json!([loc.clone(), loc]);
        }),
        ("bad level", |v| {
            v["runs"][0]["results"][0]["level"] = json!("fatal")
        }),
        ("wrong version", |v| v["version"] = json!("2.0.0")),
        ("unknown property", |v| {
            v["runs"][0]["tool"]["driver"]["colour"] = json!("red")
        }),
    ];
    for (name, mutate) in mutations {
        let mut bad = good.clone();
        mutate(&mut bad);
        assert!(!github_rejects(&bad).is_empty(), "{name} was accepted");
    }
}

#[test]
fn several_outputs_in_one_run() {
    let repo = repo_with_findings();
    let out = tempfile::tempdir().expect("tmp");
    let sarif_file = out.path().join("r.sarif");
    let json_file = out.path().join("r.json");
    let run = nodecast(
        repo.path(),
        &[
            "check",
            "--format",
            "human",
            "--output-sarif",
            sarif_file.to_str().expect("utf8"),
            "--output-json",
            json_file.to_str().expect("utf8"),
        ],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.starts_with("nodecast: "), "{}", run.stdout);
    let log: Value =
        serde_json::from_str(&std::fs::read_to_string(&sarif_file).expect("sarif")).expect("json");
    assert!(github_rejects(&log).is_empty());
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(&json_file).expect("json")).expect("json");
    assert_eq!(report["schema"], "nodecast/report/v1");
    assert_eq!(
        report["diagnostics"].as_array().map(Vec::len),
        log["runs"][0]["results"].as_array().map(Vec::len)
    );
}

#[test]
fn a_root_file_with_a_colon_is_no_uri_scheme_and_pages_are_embedded_once() {
    let repo = Repo::new();
    repo.write(
        "c:d.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels:\n    x: yes\n",
    );
    repo.commit("base");
    let text = nodecast(repo.path(), &["check", "--no-base", "--format", "sarif"]).stdout;
    let log: Value = serde_json::from_str(&text).expect("sarif");
    let errors: Vec<String> = schema_validator()
        .iter_errors(&log)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let result = &log["runs"][0]["results"][0];
    assert_eq!(
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "c%3Ad.yaml"
    );
    // Each rule page appears once (as the help's Markdown), not in the plain text too.
    let y003 = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .find(|r| r["id"] == "Y003")
        .expect("Y003");
    let page = nodecast(repo.path(), &["explain", "Y003"]).stdout;
    assert!(y003["help"]["markdown"]
        .as_str()
        .is_some_and(|m| m.contains(page.trim())));
    assert!(!y003["help"]["text"]
        .as_str()
        .is_some_and(|t| t.contains("## Why it matters")));
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .map_or(0, Vec::len);
    assert_eq!(
        text.matches("## Why it matters").count(),
        rules,
        "each page once"
    );
    // The JSON report carries the same fingerprint as SARIF's partialFingerprints.
    let json = nodecast(repo.path(), &["check", "--no-base", "--format", "json"]).json();
    assert_eq!(
        json["diagnostics"][0]["fingerprint"],
        result["partialFingerprints"]["nodecastFingerprint/v1"]
    );
}
