//! The floors of a check, for the benchmark script: `floors read|parse [PATH] [--base REV]`.
//!
//! `read` loads both snapshots exactly as `nodecast check --base REV` does (Git blobs and the
//! working tree) and stops; `parse` also parses every distinct content (with embedded payloads)
//! and stops. A check cannot be faster than `parse`; the difference is inventory, diff,
//! forecast, rules and report.

use std::path::PathBuf;
use std::process::ExitCode;

use nodecast::source::{self, CompareRequest};

/// The same allocator as the `nodecast` binary, so the floors are comparable.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_default();
    let mut path = PathBuf::from(".");
    let mut base = Some("HEAD^".to_string());
    while let Some(a) = args.next() {
        match a.as_str() {
            "--base" => base = args.next(),
            other => path = PathBuf::from(other),
        }
    }
    let req = CompareRequest {
        path,
        base,
        max_file_size: 10 * 1024 * 1024,
        ..CompareRequest::default()
    };
    let loaded = match source::load(&req) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("floors: {e}");
            return ExitCode::from(2);
        }
    };
    let files = loaded.base.files.len() + loaded.head.files.len();
    match mode.as_str() {
        "read" => println!("read {files} files"),
        "parse" => {
            let parsed = nodecast::parse::parse_sides(&loaded.base, &loaded.head);
            let docs: usize = parsed.head.iter().map(|f| f.parsed.docs.len()).sum();
            println!(
                "read {files} files, parsed {} distinct contents, {docs} head documents",
                parsed.parsed_count
            );
        }
        _ => {
            eprintln!("usage: floors read|parse [PATH] [--base REV]");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}
