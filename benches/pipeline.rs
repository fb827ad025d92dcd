//! Criterion benchmarks of the hot stages on generated repositories (repogen, seed 1): parse,
//! inventory + diff, forecast, rules, and the whole `check::run`.
//!
//! `cargo bench --bench pipeline` measures the small and medium repositories (generated into a
//! temporary folder at start). `cargo test --bench pipeline` (criterion's test mode) runs each
//! benchmark once on the small repository only, so CI can prove the harness works cheaply.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};

use nodecast::check::{self, Options};
use nodecast::diff::Diff;
use nodecast::inventory::Inventory;
use nodecast::source::{self, CompareRequest};
use nodecast::{forecast, parse, rules};

fn request(path: &std::path::Path) -> CompareRequest {
    CompareRequest {
        path: path.to_path_buf(),
        base: Some("HEAD^".into()),
        head: Some("HEAD".into()),
        max_file_size: 10 * 1024 * 1024,
        ..CompareRequest::default()
    }
}

fn sizes() -> Vec<(&'static str, repogen::Size)> {
    // Criterion passes `--bench` under `cargo bench`; without it (test mode) only the small repo.
    if std::env::args().any(|a| a == "--bench") {
        vec![
            ("small", repogen::Size::Small),
            ("medium", repogen::Size::Medium),
        ]
    } else {
        vec![("small", repogen::Size::Small)]
    }
}

fn stages(c: &mut Criterion) {
    let tmp = tempfile::tempdir().expect("temporary folder");
    for (name, size) in sizes() {
        let dir = tmp.path().join(name);
        let stats = repogen::generate(size, 1, &dir).expect("generate the repository");
        eprintln!("{name}: {}", stats.to_json());
        let req = request(&dir);
        let now: jiff::Timestamp = "2026-11-21T12:00:00Z".parse().expect("time");
        let options = Options::new(req.clone(), now);

        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        group.throughput(criterion::Throughput::Elements(stats.documents as u64));

        group.bench_function("source (read both revisions)", |b| {
            b.iter(|| source::load(&req).expect("load"))
        });
        let loaded = source::load(&req).expect("load");
        group.bench_function("parse", |b| {
            b.iter(|| parse::parse_sides(&loaded.base, &loaded.head))
        });
        let files = parse::parse_sides(&loaded.base, &loaded.head);
        group.bench_function("inventory+diff", |b| {
            b.iter(|| {
                let base = Inventory::build(&files.base);
                let head = Inventory::build(&files.head);
                let diff = Diff::compute(&base, &head, true);
                (base, head, diff)
            })
        });
        let base = Inventory::build(&files.base);
        let head = Inventory::build(&files.head);
        let diff = Diff::compute(&base, &head, true);
        let input = forecast::Input {
            base: &base,
            head: &head,
            diff: &diff,
            settings: nodecast::check::forecast_settings(&options),
            memo: None,
        };
        group.bench_function("forecast", |b| b.iter(|| forecast::forecast(&input)));
        let impacts = forecast::forecast(&input).impacts;
        group.bench_function("rules", |b| {
            b.iter(|| {
                rules::run(&rules::Context {
                    base_files: &files.base,
                    head_files: &files.head,
                    base: &base,
                    head: &head,
                    diff: &diff,
                    forecast: &impacts,
                    cluster_roots: &[],
                    undecoded: Default::default(),
                })
            })
        });
        // SCHEMA+CEL BENCH: when the schema + CEL validation stage (SCH) lands, benchmark its
        // entry point here on `files.head` (with `files.base` as `oldSelf`), e.g.
        //     group.bench_function("schema+CEL", |b| b.iter(|| schema::validate(&ctx)));
        // Until then its cost is part of "rules" / "check" if it runs there, and of the
        // whole-process numbers of tools/bench.sh in any case.
        group.bench_function("check (whole pipeline)", |b| {
            b.iter_batched(
                || options.clone(),
                |o| check::run(&o).expect("check"),
                BatchSize::LargeInput,
            )
        });
        group.finish();
    }
}

criterion_group!(benches, stages);
criterion_main!(benches);
