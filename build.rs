//! Embeds every `rules/CODE.md` page in the binary so `nodecast explain CODE` works anywhere.

use std::fmt::Write;

fn main() {
    println!("cargo:rerun-if-changed=rules");
    let mut pages: Vec<(String, String)> = std::fs::read_dir("rules")
        .map(|dir| {
            dir.filter_map(Result::ok)
                .filter_map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    let code = name.strip_suffix(".md")?.to_string();
                    let path = std::fs::canonicalize(e.path()).ok()?;
                    Some((code, path.to_string_lossy().into_owned()))
                })
                .collect()
        })
        .unwrap_or_default();
    pages.sort();
    let mut out = String::from(
        "/// Every rule page: (code, Markdown).\npub static PAGES: &[(&str, &str)] = &[\n",
    );
    for (code, path) in pages {
        let _ = writeln!(out, "    ({code:?}, include_str!({path:?})),");
    }
    out.push_str("];\n");
    let dest = std::path::Path::new(&std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into()))
        .join("rule_pages.rs");
    if let Err(err) = std::fs::write(&dest, out) {
        panic!("cannot write {}: {err}", dest.display());
    }
    schema_table();
}

/// Embeds every bundled JSON Schema (`schemas/**.json`, written by `tools/schemagen`).
fn schema_table() {
    println!("cargo:rerun-if-changed=schemas");
    let mut files = Vec::new();
    let mut stack = vec![std::path::PathBuf::from("schemas")];
    while let Some(dir) = stack.pop() {
        println!("cargo:rerun-if-changed={}", dir.display());
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                let rel = path
                    .strip_prefix("schemas")
                    .map(|p| p.to_string_lossy().replace('\\', "/"))
                    .unwrap_or_default();
                if let Ok(abs) = std::fs::canonicalize(&path) {
                    files.push((rel, abs.to_string_lossy().into_owned()));
                }
            }
        }
    }
    files.sort();
    let mut out = String::from(
        "/// Every bundled schema: (path below schemas/, JSON).\npub static SCHEMAS: &[(&str, &str)] = &[\n",
    );
    for (rel, abs) in files {
        let _ = writeln!(out, "    ({rel:?}, include_str!({abs:?})),");
    }
    out.push_str("];\n");
    let dest = std::path::Path::new(&std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into()))
        .join("schema_table.rs");
    if let Err(err) = std::fs::write(&dest, out) {
        panic!("cannot write {}: {err}", dest.display());
    }
}
