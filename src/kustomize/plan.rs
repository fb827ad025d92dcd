//! Planning renders: which kustomizations are roots, and for each root the files its render
//! reads (the closure of its bases and components) or why it must not be rendered (a remote base,
//! a plugin). Planning reads the side's tree only; nothing runs here.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use nodecast_yaml::Node;
use sha2::{Digest, Sha256};

use super::kustomization::{
    self, dir_of, is_kustomization_path, is_remote, join, Ref, Refs, FILE_NAMES,
};
use super::tree::{self, Reads};
use super::{candidates, display_root, location};
use crate::diagnostic::{Location, Side};
use crate::parse::{self, FileEntry, FileStatus};

/// A root's inputs, gathered from a side's tree.
pub(super) struct Plan {
    /// The root's folder.
    pub root: String,
    /// The root's kustomization file.
    pub file: String,
    /// Copied files (path → bytes), when the root can be rendered.
    pub inputs: BTreeMap<String, Vec<u8>>,
    /// Files whose objects the render replaces.
    pub consumed: BTreeSet<String>,
    /// Kustomization files of the closure, parsed.
    pub kustomizations: Vec<candidates::Kust>,
    /// Why the root is not rendered (refused).
    pub refused: Option<(String, Location)>,
    /// Hash of the inputs: equal hashes render once for both sides.
    pub fingerprint: [u8; 32],
    /// The folders of the closure (every file below them is an input).
    pub dirs: Vec<String>,
}

/// The root kustomization files of a side: those no other kustomization refers to.
pub(super) fn roots(files: &[FileEntry]) -> Vec<String> {
    let kust: Vec<&FileEntry> = files
        .iter()
        .filter(|f| is_kustomization_path(&f.path))
        .collect();
    let dirs: BTreeSet<&str> = kust.iter().map(|f| dir_of(&f.path)).collect();
    let mut referenced: BTreeSet<String> = BTreeSet::new();
    for f in &kust {
        let Some(doc) = f.parsed.docs.first() else {
            continue;
        };
        for r in kustomization::refs(doc.doc.root()).inputs {
            if let Some(target) = join(dir_of(&f.path), &r.text) {
                if dirs.contains(target.as_str()) {
                    referenced.insert(target);
                }
            }
        }
    }
    let mut seen_dirs = BTreeSet::new();
    kust.iter()
        .filter(|f| !referenced.contains(dir_of(&f.path)))
        .filter(|f| f.parsed.status == FileStatus::Parsed)
        // A Component is only ever built into a kustomization that lists it; Kustomize refuses
        // to build one on its own, so an unused one is no root.
        .filter(|f| !is_component(f))
        // Kustomize reads only the first name found in a folder.
        .filter(|f| seen_dirs.insert(dir_of(&f.path).to_string()))
        .map(|f| f.path.to_string())
        .collect()
}

/// Components are built only into the kustomizations that list them, so they are never roots.
fn is_component(f: &FileEntry) -> bool {
    f.parsed.docs.first().is_some_and(|d| {
        parse::type_meta(d.doc.root()).is_some_and(|(api, kind)| {
            kind == "Component" && api.starts_with("kustomize.config.k8s.io/")
        })
    })
}

/// Gathers a root's closure from the side's tree and decides whether it may be rendered.
pub(super) fn plan(tree: &Reads, root_file: &str, side: Side) -> Plan {
    let root = dir_of(root_file).to_string();
    let mut p = Plan {
        root: root.clone(),
        file: root_file.to_string(),
        inputs: BTreeMap::new(),
        consumed: BTreeSet::new(),
        kustomizations: Vec::new(),
        refused: None,
        fingerprint: [0; 32],
        dirs: Vec::new(),
    };
    p.dirs = p.closure(tree, side);
    if p.refused.is_some() {
        return p;
    }
    for dir in &p.dirs {
        for (path, bytes) in tree.files_under(dir).iter() {
            if p.inputs.len() >= tree::MAX_FILES {
                break;
            }
            p.inputs
                .entry(path.clone())
                .or_insert_with(|| bytes.clone());
        }
    }
    p.fingerprint = fingerprint(&root, &p.inputs);
    p
}

/// The hash of a root and its inputs: two sides with equal hashes render once.
fn fingerprint(root: &str, inputs: &BTreeMap<String, Vec<u8>>) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(root.as_bytes());
    for (path, bytes) in inputs {
        hasher.update((path.len() as u64).to_le_bytes());
        hasher.update(path.as_bytes());
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    }
    hasher.finalize().into()
}

impl Plan {
    /// Reads the root's kustomization and those it builds in (bases, components), recording
    /// what each consumes and refuses; the folders that hold one, whose files are the inputs.
    fn closure(&mut self, tree: &Reads, side: Side) -> Vec<String> {
        let mut queue = vec![self.root.clone()];
        let mut visited: BTreeSet<String> = BTreeSet::new();
        let mut dirs: Vec<String> = Vec::new();
        while let Some(dir) = queue.pop() {
            if !visited.insert(dir.clone()) {
                continue;
            }
            let Some((path, bytes)) = FILE_NAMES.iter().find_map(|name| {
                let path = join(&dir, name)?;
                Some((path.clone(), tree.read(&path)?))
            }) else {
                continue;
            };
            dirs.push(dir.clone());
            self.consumed.insert(path.clone());
            let text: Arc<str> = String::from_utf8_lossy(&bytes).into();
            let source = nodecast_yaml::Source::new(text.clone());
            let parsed = nodecast_yaml::parse_source(&source, &Default::default());
            let Some(doc) = parsed.documents.into_iter().next() else {
                continue;
            };
            let refs = kustomization::refs(doc.root());
            let at = (dir.as_str(), path.as_str());
            queue.extend(self.follow(tree, at, &refs, side));
            self.refuse_plugins(tree, at, &refs, doc.root(), side);
            self.kustomizations
                .push(candidates::Kust { path, doc, text });
        }
        dirs
    }

    /// Follows one kustomization's references (`at`: its folder and file): refuses remote ones,
    /// consumes local files, and gives the kustomization folders it builds in.
    fn follow(&mut self, tree: &Reads, at: (&str, &str), refs: &Refs, side: Side) -> Vec<String> {
        let (dir, path) = at;
        let mut queue = Vec::new();
        for r in refs.inputs.iter().chain(&refs.files) {
            // Kustomize reads a local file of that name first; anything else that looks remote
            // to it is fetched or cloned.
            let local_file = join(dir, &r.text).is_some_and(|t| tree.read(&t).is_some());
            if is_remote(&r.text) && !local_file {
                self.refused
                    .get_or_insert((remote_refusal(&self.root, r), location(side, path, r.span)));
                continue;
            }
            if r.field != "resources" && r.field != "bases" && r.field != "components" {
                continue;
            }
            let Some(target) = join(dir, &r.text) else {
                continue;
            };
            let is_kustomization_dir = FILE_NAMES
                .iter()
                .any(|n| join(&target, n).is_some_and(|f| tree.read(&f).is_some()));
            if is_kustomization_dir {
                queue.push(target);
            } else {
                self.consumed.insert(target);
            }
        }
        for r in &refs.files {
            if let Some(target) = join(dir, &r.text) {
                self.consumed.insert(target);
            }
        }
        queue
    }

    /// Refuses the root when one kustomization (`at`: its folder and file) lists a plugin that
    /// would run.
    fn refuse_plugins(
        &mut self,
        tree: &Reads,
        at: (&str, &str),
        refs: &Refs,
        kust: Node<'_>,
        side: Side,
    ) {
        let (dir, path) = at;
        for r in &refs.plugins {
            if let Some(reason) = plugin_refusal(tree, dir, r, kust) {
                self.refused.get_or_insert((
                    format!(
                        "overlay {} is linted unrendered: {reason}, and nodecast never runs plugins",
                        display_root(&self.root)
                    ),
                    location(side, path, r.span),
                ));
            }
        }
    }
}

/// Why a remote reference keeps the root unrendered (nodecast never uses the network).
fn remote_refusal(root: &str, r: &Ref) -> String {
    format!(
        "overlay {} is linted unrendered: `{}` is a remote {} (Kustomize would {} it), and nodecast never uses the network",
        display_root(root),
        r.text,
        if matches!(r.field, "resources" | "bases" | "components") { "base" } else { "file" },
        if kustomization::is_git_url(&r.text) { "clone" } else { "download" },
    )
}

/// Why a plugin entry must not run (`None` for built-in plugin configurations).
fn plugin_refusal(tree: &Reads, dir: &str, r: &Ref, kust: Node<'_>) -> Option<String> {
    if r.field == "helmCharts" || r.field == "helmChartInflationGenerator" {
        return Some(format!("`{}` needs Helm and chart downloads", r.field));
    }
    let items = kust.get(r.field).and_then(Node::as_seq).unwrap_or_default();
    let inline = items
        .iter()
        .find(|n| n.span() == r.span && n.as_map().is_some());
    let parsed;
    let docs: Vec<Node<'_>> = match inline {
        Some(node) => vec![node],
        None => {
            let path = join(dir, &r.text)?;
            let Some(bytes) = tree.read(&path) else {
                // A folder of plugin configurations, or a missing file: Kustomize reports it.
                return None;
            };
            let text = String::from_utf8_lossy(&bytes).into_owned();
            parsed = nodecast_yaml::parse(&text, &Default::default());
            parsed.documents.iter().map(|d| d.root()).collect()
        }
    };
    docs.iter()
        .find(|d| !kustomization::is_builtin_plugin(**d))
        .map(|d| {
            let kind = d.get("kind").and_then(Node::as_str).unwrap_or("plugin");
            format!("`{}` lists the exec/KRM function plugin {kind}", r.field)
        })
}
