//! Files a `kustomization.yaml` uses as strategic-merge patches hold partial objects: only the
//! fields they change. Validating them as whole objects would report every required field they
//! leave out, so they are checked for what they contain (types, values, unknown fields) only.

use std::collections::HashSet;

use nodecast_yaml::Node;

use crate::parse::FileEntry;

const NAMES: [&str; 3] = ["kustomization.yaml", "kustomization.yml", "Kustomization"];

/// Repository-relative paths of the files used as patches by some kustomization.
pub fn patch_files(files: &[FileEntry]) -> HashSet<String> {
    let mut out = HashSet::new();
    for file in files {
        let (dir, name) = match file.path.rsplit_once('/') {
            Some((d, n)) => (d, n),
            None => ("", &*file.path),
        };
        if !NAMES.contains(&name) {
            continue;
        }
        for doc in &file.parsed.docs {
            let root = doc.doc.root();
            let mut add = |p: &str| {
                if let Some(path) = join(dir, p) {
                    out.insert(path);
                }
            };
            for item in seq(root.get("patchesStrategicMerge")) {
                if let Some(p) = item.as_str() {
                    add(p);
                }
            }
            for key in ["patches", "patchesJson6902"] {
                for item in seq(root.get(key)) {
                    if let Some(p) = item.get("path").and_then(Node::as_str) {
                        add(p);
                    } else if let Some(p) = item.as_str() {
                        add(p);
                    }
                }
            }
        }
    }
    out
}

fn seq(node: Option<Node<'_>>) -> nodecast_yaml::Seq<'_> {
    node.and_then(Node::as_seq).unwrap_or_default()
}

/// `dir` + a relative path, normalised (`./`, `../`); `None` when it leaves the repository or is
/// not a file path (an inline patch).
fn join(dir: &str, rel: &str) -> Option<String> {
    if rel.contains('\n') || rel.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for seg in rel.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_relative_paths() {
        assert_eq!(join("a/b", "./p.yaml").as_deref(), Some("a/b/p.yaml"));
        assert_eq!(join("a/b", "../c/p.yaml").as_deref(), Some("a/c/p.yaml"));
        assert_eq!(join("", "p.yaml").as_deref(), Some("p.yaml"));
        assert_eq!(join("", "../p.yaml"), None);
    }
}
