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
}
