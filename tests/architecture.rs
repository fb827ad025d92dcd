//! The pipeline's shape, enforced: no import cycle between the stages (the top-level modules of
//! `src/`), and none between sibling modules anywhere below (the files and folders of one
//! folder). A parent module may use its children and they may use it (it is their facade);
//! everything else must point one way, so a stage can be read and changed without the ones above
//! it. `docs/architecture.md` gives the order.
//!
//! Imports are read with `syn` from every `use` and every `crate::`/`super::`/`self::` path in the
//! code (test modules excluded), resolved to the deepest module that exists.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

type Module = Vec<String>;

fn modules(src: &Path) -> BTreeMap<Module, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src is readable") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().and_then(|e| e.to_str()) != Some("rs") {
                continue;
            }
            let rel = path
                .strip_prefix(src)
                .expect("under src")
                .with_extension("");
            let mut parts: Module = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if parts.last().is_some_and(|l| l == "mod") {
                parts.pop();
            }
            if parts == ["lib"] || parts == ["main"] {
                parts.clear();
            }
            out.insert(parts, path);
        }
    }
    out
}

/// Every module path a file's code names, as written (`crate`, `super`, `self` resolved later).
#[derive(Default)]
struct Paths {
    found: Vec<Vec<String>>,
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

fn flatten(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let mut p = prefix.clone();
            if n.ident != "self" {
                p.push(n.ident.to_string());
            }
            out.push(p);
        }
        syn::UseTree::Rename(r) => {
            let mut p = prefix.clone();
            p.push(r.ident.to_string());
            out.push(p);
        }
        syn::UseTree::Glob(_) => out.push(prefix.clone()),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                flatten(t, prefix, out);
            }
        }
    }
}

impl<'ast> Visit<'ast> for Paths {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_test(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_test(&f.attrs) {
            syn::visit::visit_item_fn(self, f);
        }
    }
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut out = Vec::new();
        flatten(&u.tree, &mut Vec::new(), &mut out);
        self.found.extend(out);
    }
    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        if segs
            .first()
            .is_some_and(|s| s == "crate" || s == "super" || s == "self")
        {
            self.found.push(segs);
        }
        syn::visit::visit_path(self, p);
    }
}

/// The module a written path names, from the module `from`.
fn resolve(from: &Module, path: &[String], mods: &BTreeMap<Module, PathBuf>) -> Option<Module> {
    let mut base: Module = match path.first().map(String::as_str) {
        Some("crate") => Vec::new(),
        Some("super") | Some("self") => from.clone(),
        _ => return None,
    };
    let mut rest = &path[1..];
    if path[0] == "super" {
        base.pop();
    }
    while rest.first().is_some_and(|s| s == "super") {
        base.pop();
        rest = &rest[1..];
    }
    let mut full = base;
    full.extend(rest.iter().cloned());
    (0..=full.len())
        .rev()
        .map(|k| full[..k].to_vec())
        .find(|m| mods.contains_key(m))
}

/// Modules declared `#[cfg(test)] mod x;` (test code in a file of its own), with all below them.
fn test_modules(parsed: &BTreeMap<Module, syn::File>) -> BTreeSet<Module> {
    let mut out = BTreeSet::new();
    for (m, file) in parsed {
        for item in &file.items {
            if let syn::Item::Mod(md) = item {
                if md.content.is_none() && is_test(&md.attrs) {
                    let mut child = m.clone();
                    child.push(md.ident.to_string());
                    out.insert(child);
                }
            }
        }
    }
    let below: Vec<Module> = parsed
        .keys()
        .filter(|m| {
            out.iter()
                .any(|t| m.len() > t.len() && m[..t.len()] == t[..])
        })
        .cloned()
        .collect();
    out.extend(below);
    out
}

fn edges(mods: &BTreeMap<Module, PathBuf>) -> BTreeMap<Module, BTreeSet<Module>> {
    let parsed: BTreeMap<Module, syn::File> = mods
        .iter()
        .map(|(m, file)| {
            let text = std::fs::read_to_string(file).expect("readable");
            let f = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            (m.clone(), f)
        })
        .collect();
    let tests = test_modules(&parsed);
    let mut out = BTreeMap::new();
    for (m, file) in &parsed {
        if tests.contains(m) {
            continue;
        }
        let mut paths = Paths::default();
        paths.visit_file(file);
        let targets: BTreeSet<Module> = paths
            .found
            .iter()
            .filter_map(|p| resolve(m, p, mods))
            .filter(|t| t != m && !tests.contains(t))
            .collect();
        out.insert(m.clone(), targets);
    }
    out
}

/// Strongly connected components of more than one node (Tarjan).
fn cycles(nodes: &[String], e: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        e: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<String, usize>,
        low: BTreeMap<String, usize>,
        stack: Vec<String>,
        on: BTreeSet<String>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    fn visit(s: &mut State<'_>, v: &str) {
        s.index.insert(v.to_string(), s.next);
        s.low.insert(v.to_string(), s.next);
        s.next += 1;
        s.stack.push(v.to_string());
        s.on.insert(v.to_string());
        let targets: Vec<String> = s.e.get(v).into_iter().flatten().cloned().collect();
        for w in targets {
            if !s.index.contains_key(&w) {
                visit(s, &w);
                let l = s.low[&w].min(s.low[v]);
                s.low.insert(v.to_string(), l);
            } else if s.on.contains(&w) {
                let l = s.index[&w].min(s.low[v]);
                s.low.insert(v.to_string(), l);
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(&w);
                let done = w == v;
                comp.push(w);
                if done {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                s.out.push(comp);
            }
        }
    }
    let mut s = State {
        e,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for n in nodes {
        if !s.index.contains_key(n) {
            visit(&mut s, n);
        }
    }
    s.out
}

/// For each folder (module with children): the import cycles among its children, each with the
/// file-level imports that make it.
fn sibling_cycles(src: &Path) -> Vec<String> {
    let mods = modules(src);
    let e = edges(&mods);
    let parents: BTreeSet<Module> = mods
        .keys()
        .filter(|m| !m.is_empty())
        .map(|m| m[..m.len() - 1].to_vec())
        .collect();
    let mut found = Vec::new();
    for parent in parents {
        let n = parent.len();
        let kids: BTreeSet<String> = mods
            .keys()
            .filter(|m| m.len() > n && m[..n] == parent[..])
            .map(|m| m[n].clone())
            .collect();
        let mut lifted: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut why: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
        for (a, ts) in &e {
            if a.len() <= n || a[..n] != parent[..] {
                continue;
            }
            for t in ts {
                if t.len() > n && t[..n] == parent[..] && t[n] != a[n] {
                    lifted.entry(a[n].clone()).or_default().insert(t[n].clone());
                    why.entry((a[n].clone(), t[n].clone()))
                        .or_default()
                        .push(format!("{} -> {}", a.join("::"), t.join("::")));
                }
            }
        }
        let kids: Vec<String> = kids.into_iter().collect();
        for comp in cycles(&kids, &lifted) {
            let mut detail = Vec::new();
            for a in &comp {
                for b in &comp {
                    if let Some(w) = why.get(&(a.clone(), b.clone())) {
                        detail.extend(w.iter().cloned());
                    }
                }
            }
            let at = if parent.is_empty() {
                "crate".to_string()
            } else {
                parent.join("::")
            };
            found.push(format!("in {at}: {comp:?} via {detail:?}"));
        }
    }
    found
}

#[test]
fn no_import_cycle_between_stages_or_sibling_modules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = sibling_cycles(&src);
    assert!(found.is_empty(), "import cycles:\n{}", found.join("\n"));
}

#[test]
fn the_checker_finds_a_cycle() {
    let tmp = tempfile::tempdir().expect("tmp");
    let src = tmp.path();
    std::fs::write(src.join("lib.rs"), "mod a;\nmod b;\nmod c;\n").expect("write");
    std::fs::write(src.join("a.rs"), "use crate::b::B;\npub struct A;\n").expect("write");
    std::fs::write(src.join("b.rs"), "pub struct B(crate::a::A);\n").expect("write");
    std::fs::write(
        src.join("c.rs"),
        "#[cfg(test)]\nmod tests { use crate::a::A; }\n",
    )
    .expect("write");
    assert_eq!(
        sibling_cycles(src),
        ["in crate: [\"a\", \"b\"] via [\"a -> b\", \"b -> a\"]"]
    );
    // A parent and its children may use each other; siblings below are checked the same way.
    std::fs::create_dir(src.join("d")).expect("dir");
    std::fs::write(src.join("b.rs"), "pub struct B;\n").expect("write");
    std::fs::write(
        src.join("d/mod.rs"),
        "mod x;\nmod y;\nmod z;\npub use x::X;\nuse z::Z;\n#[cfg(test)]\nmod t;\n",
    )
    .expect("write");
    std::fs::write(src.join("d/x.rs"), "use super::y::Y;\npub struct X;\n").expect("write");
    std::fs::write(src.join("d/y.rs"), "pub struct Y(super::x::X);\n").expect("write");
    std::fs::write(src.join("d/z.rs"), "pub struct Z(super::X);\n").expect("write");
    std::fs::write(src.join("d/t.rs"), "use super::y::Y;\nuse super::x::X;\n").expect("write");
    assert_eq!(
        sibling_cycles(src),
        ["in d: [\"x\", \"y\"] via [\"d::x -> d::y\", \"d::y -> d::x\"]"]
    );
}

#[test]
fn the_architecture_document_lists_every_module_of_the_tree() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc =
        std::fs::read_to_string(root.join("docs/architecture.md")).expect("docs/architecture.md");
    let layout = doc
        .split("## Layout")
        .nth(1)
        .expect("docs/architecture.md has a Layout section");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root.join("src")).expect("src") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let listed = if path.is_dir() {
            format!("src/{name}/")
        } else if name.ends_with(".rs") {
            format!("src/{name}")
        } else {
            continue;
        };
        if !layout.contains(&listed) {
            missing.push(listed);
        }
    }
    for line in layout.lines().filter(|l| l.starts_with("src/")) {
        let path = line.split_whitespace().next().unwrap_or_default();
        if !root.join(path).exists() {
            missing.push(format!("{path} (listed, but not in the tree)"));
        }
    }
    missing.sort();
    assert!(
        missing.is_empty(),
        "docs/architecture.md Layout and src/ differ: {missing:?}"
    );
}
