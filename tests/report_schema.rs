//! The JSON Schema of the report (`schemas/nodecast/report.schema.json`): it is the one generated
//! from the report types, and it is strict enough to mean something. Every JSON report the other
//! suites produce is validated against it by `common::Run::json`.
//!
//! `NODECAST_BLESS=1` rewrites the committed schema from the types (review the diff).

use crate::common;

use common::{copy_tree, nodecast, project_root, report_schema_errors};
use serde_json::{json, Value};

#[test]
fn the_committed_report_schema_is_the_one_the_report_types_generate() {
    let generated = nodecast::report::json::schema().expect("the schema serializes");
    let path = project_root().join(nodecast::report::json::SCHEMA_PATH);
    if std::env::var_os("NODECAST_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write the schema");
        return;
    }
    let committed = std::fs::read_to_string(&path).expect("the committed schema");
    assert!(
        committed == generated,
        "{} differs from the schema the report types generate; run \
         `NODECAST_BLESS=1 cargo test --test integration report_schema::` and review the diff",
        nodecast::report::json::SCHEMA_PATH
    );
}

/// The demo's report, which has a forecast, findings, changes and windows.
fn demo_report() -> Value {
    let tmp = tempfile::tempdir().expect("tmp");
    copy_tree(&project_root().join("testdata/demo"), tmp.path());
    let run = nodecast(
        tmp.path(),
        &[
            "check",
            "--base-dir",
            "before",
            "after",
            "--now",
            "2026-11-21T12:00:00Z",
            "--format",
            "json",
        ],
    );
    assert_ne!(run.code, 2, "{}", run.stderr);
    run.json()
}

#[test]
fn the_schema_rejects_what_the_contract_rules_out() {
    let report = demo_report();
    assert!(report_schema_errors(&report).is_empty());
    for key in ["forecast", "diagnostics", "changes"] {
        assert!(
            report[key].as_array().is_some_and(|a| !a.is_empty()),
            "the demo exercises {key}"
        );
    }
    // (what, JSON pointer, the value written there)
    let replaced = [
        ("another contract", "/schema", json!("nodecast/report/v2")),
        ("an unknown action", "/forecast/0/action", json!("explode")),
        (
            "an unknown when.state",
            "/forecast/0/when/state",
            json!("later"),
        ),
        ("a time that is not RFC 3339", "/now", json!("tomorrow")),
        ("nodes as text", "/forecast/0/nodes", json!("3")),
        ("a null rollout", "/forecast/0/rollout", Value::Null),
        (
            "an unknown severity",
            "/diagnostics/0/severity",
            json!("fatal"),
        ),
        ("an unknown state", "/diagnostics/0/state", json!("old")),
        ("a malformed code", "/diagnostics/0/code", json!("y2")),
        ("a line as text", "/diagnostics/0/line", json!("12")),
        ("a made-up line 0", "/diagnostics/0/line", json!(0)),
        ("an unknown change", "/changes/0/change", json!("moved")),
        ("an unknown source", "/compared/base/source", json!("svn")),
        ("a negative count", "/summary/errors", json!(-1)),
    ];
    for (what, pointer, value) in replaced {
        let mut r = report.clone();
        *r.pointer_mut(pointer)
            .unwrap_or_else(|| panic!("the demo report has {pointer}")) = value;
        assert!(
            !report_schema_errors(&r).is_empty(),
            "the schema accepts {what}"
        );
    }
    // (what, JSON pointer of an object, the key removed from it)
    let removed = [
        ("no summary", "", "summary"),
        ("no now", "", "now"),
        ("a finding without its line", "/diagnostics/0", "line"),
        ("a pool without its action", "/forecast/0", "action"),
        ("a change without its fields", "/changes/0", "fields"),
    ];
    for (what, pointer, key) in removed {
        let mut r = report.clone();
        let gone = r
            .pointer_mut(pointer)
            .and_then(Value::as_object_mut)
            .and_then(|o| o.remove(key));
        assert!(gone.is_some(), "the demo report has {pointer}/{key}");
        assert!(
            !report_schema_errors(&r).is_empty(),
            "the schema accepts {what}"
        );
    }
}

#[test]
fn the_schema_requires_every_field_the_report_always_writes_and_only_those() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(project_root().join(nodecast::report::json::SCHEMA_PATH))
            .expect("schema"),
    )
    .expect("JSON");
    let required = |def: &Value| -> Vec<String> {
        def["required"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(
        required(&schema),
        [
            "schema",
            "compared",
            "now",
            "forecast",
            "unforecast",
            "changes",
            "unreadable",
            "diagnostics",
            "summary"
        ]
    );
    // Written only when known: not required.
    let pool = &schema["$defs"]["PoolForecast"];
    for optional in ["rollout", "fingerprint"] {
        assert!(pool["properties"].get(optional).is_some(), "{optional}");
        assert!(
            !required(pool).contains(&optional.to_string()),
            "{optional}"
        );
    }
    assert!(!required(&schema["$defs"]["When"]).contains(&"windows".to_string()));
}
