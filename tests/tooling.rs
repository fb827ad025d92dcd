//! What installs and editors use: shell completions, manual pages, `nodecast init`, and the JSON
//! Schema of `.nodecast.yaml` (kept in step with the configuration parser).

use crate::common;

use common::{nodecast, project_root};
use serde_json::Value;

fn config_schema() -> Value {
    let text = std::fs::read_to_string(project_root().join("schemas/nodecast/config.schema.json"))
        .expect("schema");
    serde_json::from_str(&text).expect("schema is JSON")
}

/// A YAML text as the JSON an editor's schema validation sees.
fn yaml_json(text: &str) -> Value {
    let parsed = nodecast_yaml::parse(text, &nodecast_yaml::Options::default());
    parsed
        .documents
        .first()
        .map(|d| d.root().to_json())
        .unwrap_or(Value::Null)
}

#[test]
fn completions_are_valid_scripts_for_every_shell() {
    let dir = tempfile::tempdir().expect("tmp");
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let run = nodecast(dir.path(), &["completions", shell]);
        assert_eq!(run.code, 0, "{shell}: {}", run.stderr);
        assert!(run.stdout.contains("check"), "{shell}");
        // Each shell names options its own way (`--fail-on`, fish's `-l fail-on`).
        assert!(run.stdout.contains("fail-on"), "{shell}");
    }
    let bash = nodecast(dir.path(), &["completions", "bash"]);
    let script = dir.path().join("nodecast.bash");
    std::fs::write(&script, &bash.stdout).expect("write");
    let syntax = std::process::Command::new("bash")
        .arg("-n")
        .arg(&script)
        .output()
        .expect("bash");
    assert!(
        syntax.status.success(),
        "{}",
        String::from_utf8_lossy(&syntax.stderr)
    );
    let bad = nodecast(dir.path(), &["completions", "tcsh"]);
    assert_eq!(bad.code, 2);
}

#[test]
fn manual_pages_cover_every_command() {
    let dir = tempfile::tempdir().expect("tmp");
    let run = nodecast(dir.path(), &["man"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains(".TH nodecast 1"), "{}", run.stdout);
    let out = dir.path().join("man");
    let run = nodecast(dir.path(), &["man", "--dir", out.to_str().expect("utf-8")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let check = std::fs::read_to_string(out.join("nodecast-check.1")).expect("check page");
    assert!(check.contains(".TH nodecast-check 1"));
    for option in ["fail\\-on", "baseline", "all"] {
        assert!(check.contains(option), "nodecast-check.1 lacks {option}");
    }
    for page in [
        "nodecast.1",
        "nodecast-explain.1",
        "nodecast-init.1",
        "nodecast-server.1",
    ] {
        assert!(out.join(page).is_file(), "{page}");
    }
}

#[test]
fn init_writes_a_configuration_the_parser_and_the_schema_accept_and_never_overwrites() {
    let dir = tempfile::tempdir().expect("tmp");
    let run = nodecast(dir.path(), &["init"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let file = dir.path().join(".nodecast.yaml");
    let text = std::fs::read_to_string(&file).expect("written");
    let parsed = nodecast::config::parse(&text, ".nodecast.yaml", nodecast::catalog::all());
    assert_eq!(
        parsed.diagnostics,
        Vec::new(),
        "the template is a valid configuration"
    );
    let schema = config_schema();
    let validator = jsonschema::validator_for(&schema).expect("schema compiles");
    assert!(validator.is_valid(&yaml_json(&text)));
    // A second init refuses; --force replaces.
    std::fs::write(&file, "fail-on: warning\n").expect("write");
    let again = nodecast(dir.path(), &["init"]);
    assert_eq!(again.code, 2);
    assert!(again.stderr.contains("already exists"), "{}", again.stderr);
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        "fail-on: warning\n"
    );
    let forced = nodecast(dir.path(), &["init", "--force"]);
    assert_eq!(forced.code, 0);
    assert_eq!(std::fs::read_to_string(&file).expect("read"), text);
}

#[test]
fn the_configuration_schema_names_exactly_the_keys_the_parser_reads() {
    let schema = config_schema();
    let mut properties: Vec<&str> = schema["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .map(String::as_str)
        .collect();
    properties.sort_unstable();
    let mut keys = nodecast::config::KEYS.to_vec();
    keys.sort_unstable();
    assert_eq!(properties, keys);
    assert_eq!(
        schema["properties"]["platform"]["enum"]
            .as_array()
            .expect("enum")
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>(),
        nodecast::config::PLATFORMS.to_vec()
    );
    // The schema and the parser agree on what is wrong.
    let validator = jsonschema::validator_for(&schema).expect("schema compiles");
    for (text, code) in [
        ("fail-om: warning\n", "C101"),
        ("fail-on: fatal\n", "C102"),
        ("report: everything\n", "C102"),
        ("rules: {Y003: loud}\n", "C102"),
        ("require-ack: maybe\n", "C102"),
    ] {
        assert!(
            !validator.is_valid(&yaml_json(text)),
            "schema accepts {text:?}"
        );
        let codes: Vec<&str> = nodecast::config::parse(text, "c", nodecast::catalog::all())
            .diagnostics
            .iter()
            .map(|d| d.code)
            .collect();
        assert!(codes.contains(&code), "{text:?}: {codes:?}");
    }
    for text in [
        "fail-on: warning\nreport: all\n",
        "rules: {Y003: off, K005: info}\noverrides:\n- paths: [\"a/**\"]\n  rules: {R001: off}\n",
        "assume-nodes: {worker: 6}\ncluster-roots: [\"standalone/*\"]\nplatform: AWS\n",
    ] {
        assert!(
            validator.is_valid(&yaml_json(text)),
            "schema rejects {text:?}"
        );
        assert_eq!(
            nodecast::config::parse(text, "c", nodecast::catalog::all()).diagnostics,
            Vec::new(),
            "{text:?}"
        );
    }
}

#[test]
fn every_option_of_check_is_documented_in_the_readme() {
    let readme = std::fs::read_to_string(project_root().join("README.md")).expect("README");
    let help = nodecast(&project_root(), &["check", "--help"]).stdout;
    let mut options: Vec<&str> = help
        .split(|c: char| c.is_whitespace() || c == ',' || c == '=' || c == '[' || c == ']')
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .filter(|w| w[2..].chars().all(|c| c.is_ascii_lowercase() || c == '-'))
        .collect();
    options.sort_unstable();
    options.dedup();
    assert!(options.len() > 30, "{options:?}");
    let missing: Vec<&&str> = options
        .iter()
        .filter(|o| !readme.contains(&format!("`{o}")))
        .collect();
    assert!(missing.is_empty(), "not in the README: {missing:?}");
}
