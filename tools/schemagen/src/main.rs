//! Regenerates the bundled JSON Schemas under `schemas/` from the reference CRDs under
//! `tools/schemagen/crds/` (`--write`), or fails when the committed ones differ (`--check`, in CI),
//! so the schemas nodecast embeds are never hand-edited.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use nodecast::validate::convert::{convert_crd, core_schemas, relative_path};

fn main() -> ExitCode {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let crds = root.join("tools/schemagen/crds");
    let out_dir = root.join("schemas");
    let generated = match generate(&crds) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("schemagen: {e}");
            return ExitCode::from(2);
        }
    };
    match mode.as_str() {
        "--write" => match write(&out_dir, &generated) {
            Ok(n) => {
                println!("schemagen: wrote {n} schemas to {}", out_dir.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("schemagen: {e}");
                ExitCode::from(2)
            }
        },
        "--check" => {
            let diffs = check(&out_dir, &generated);
            if diffs.is_empty() {
                println!("schemagen: {} schemas up to date", generated.len());
                ExitCode::SUCCESS
            } else {
                for d in &diffs {
                    eprintln!("schemagen: {d}");
                }
                eprintln!("schemagen: run `cargo run -p schemagen -- --write` and commit schemas/");
                ExitCode::from(1)
            }
        }
        _ => {
            eprintln!("usage: schemagen --check | --write");
            ExitCode::from(2)
        }
    }
}

/// Every schema file's path (relative to `schemas/`) and content.
fn generate(crds: &Path) -> Result<BTreeMap<String, String>, String> {
    let mut files: Vec<PathBuf> = walk(crds)
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".crd.yaml"))
        .collect();
    files.sort();
    let mut out = BTreeMap::new();
    let mut converted = core_schemas();
    for file in files {
        let text = std::fs::read_to_string(&file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let parsed = nodecast_yaml_parse(&text);
        let doc = parsed.ok_or_else(|| format!("{}: no YAML document", file.display()))?;
        converted.extend(convert_crd(&doc).map_err(|e| format!("{}: {e}", file.display()))?);
    }
    for c in converted {
        let path = relative_path(&c);
        let mut text = serde_json::to_string_pretty(&c.schema).map_err(|e| e.to_string())?;
        text.push('\n');
        if let Some(previous) = out.insert(path.clone(), text.clone()) {
            if previous != text {
                return Err(format!("two CRDs produce {path} with different schemas"));
            }
        }
    }
    Ok(out)
}

fn nodecast_yaml_parse(text: &str) -> Option<serde_json::Value> {
    nodecast::validate::yaml_to_json(text)
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

fn existing(out_dir: &Path) -> BTreeMap<String, String> {
    walk(out_dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        // schemas/nodecast/ holds nodecast's own schemas (configuration, report), not CRDs.
        .filter(|p| !p.starts_with(out_dir.join("nodecast")))
        .filter_map(|p| {
            let rel = p
                .strip_prefix(out_dir)
                .ok()?
                .to_string_lossy()
                .replace('\\', "/");
            Some((rel, std::fs::read_to_string(&p).unwrap_or_default()))
        })
        .collect()
}

fn check(out_dir: &Path, generated: &BTreeMap<String, String>) -> Vec<String> {
    let have = existing(out_dir);
    let mut diffs = Vec::new();
    for (path, text) in generated {
        match have.get(path) {
            None => diffs.push(format!("schemas/{path} is missing")),
            Some(t) if t != text => diffs.push(format!("schemas/{path} differs from its CRD")),
            _ => {}
        }
    }
    for path in have.keys() {
        if !generated.contains_key(path) {
            diffs.push(format!("schemas/{path} is not generated from any CRD"));
        }
    }
    diffs
}

fn write(out_dir: &Path, generated: &BTreeMap<String, String>) -> Result<usize, String> {
    let have = existing(out_dir);
    for path in have.keys() {
        if !generated.contains_key(path) {
            let _ = std::fs::remove_file(out_dir.join(path));
        }
    }
    for (path, text) in generated {
        let dest = out_dir.join(path);
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&dest, text).map_err(|e| format!("{}: {e}", dest.display()))?;
    }
    Ok(generated.len())
}
