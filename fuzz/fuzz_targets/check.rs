//! The whole check on a pair of small trees: the input is split on lines `===` into files, taken
//! alternately for the base and the head tree (`f0.yaml`, `f1.yaml`, … and a
//! `kustomization.yaml` when a chunk starts with `resources:`), and compared like
//! `nodecast check --base-dir base head --no-render --no-schema`, then reported in every format.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(dir) = tempfile::tempdir() else { return };
    let (base, head) = (dir.path().join("base"), dir.path().join("head"));
    for side in [&base, &head] {
        if std::fs::create_dir_all(side.join("sub")).is_err() {
            return;
        }
    }
    for (i, chunk) in text.split("\n===\n").take(16).enumerate() {
        let side = if i % 2 == 0 { &base } else { &head };
        let name = if chunk.starts_with("resources:") {
            "sub/kustomization.yaml".to_string()
        } else {
            format!("f{}.yaml", i / 2)
        };
        if std::fs::write(side.join(name), chunk).is_err() {
            return;
        }
    }
    let mut options = nodecast::check::Options::new(
        nodecast::source::CompareRequest {
            path: head.clone(),
            base_dir: Some(base.clone()),
            max_file_size: 1024 * 1024,
            ..Default::default()
        },
        "2026-11-21T02:00:00Z".parse().expect("time"),
    );
    options.now_given = true;
    options.kustomize.enabled = false;
    options.validation.disabled = true;
    let Ok(outcome) = nodecast::check::run(&options) else {
        return;
    };
    let json = nodecast::report::json::render(&outcome).expect("the report serialises");
    assert!(json.starts_with('{'));
    let _ = nodecast::report::sarif::report(&outcome);
    let _ = nodecast::report::markdown::render(&outcome, 65_536);
    let _ = nodecast::report::github::render(&outcome);
    let _ = nodecast::report::junit::render(&outcome);
    let _ = nodecast::report::gitlab::report(&outcome);
    let _ = nodecast::report::html::render(&outcome);
    for (width, quiet, unicode) in [(100, false, true), (40, true, false)] {
        let _ = nodecast::report::human::render(
            &outcome,
            nodecast::report::human::Style {
                color: false,
                width,
                quiet,
                unicode,
            },
        );
    }
});
