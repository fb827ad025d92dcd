//! Rules stage: each rule is one file with a stable code, a default severity and a doc page in
//! the top-level `rules/` folder. Rules read what earlier stages produced; they never re-parse.
//!
//! Only rules that are their own logic live here — checks across objects that no stage makes while
//! doing its job (duplicates, names, references, YAML hygiene, version transitions). Findings a
//! stage makes while it works (the models, schedules, validation, rendering) are declared in that
//! stage's `codes` module. Adding a rule: write `src/rules/<code>_<name>.rs` with its `CODE`, its
//! `check`, what it reads ([`Reads`]) and a `pub static RULE`, list it in [`ALL`], write
//! `rules/<CODE>.md`, and add a fixture under `testdata/rules/<CODE>/`.

mod i001_invalid_ignition_data_url;
mod i002_payload_not_decoded;
mod k001_incomplete_object;
mod k002_invalid_type_meta;
mod k003_invalid_name;
mod k004_duplicate_object;
mod k005_unknown_kind;
mod r001_missing_reference;
mod r104_templated_value;
mod revisions;
mod s108_managed_boot_images_invalid;
mod s109_skew_enforcement_invalid;
mod s110_boot_image_skew_limit;
mod s111_skew_enforcement_disabled;
mod s112_recorded_boot_image_stale;
mod s115_cluster_version_downgrade;
mod s116_update_skips_minors;
mod s117_update_forced;
mod s118_update_architecture_invalid;
mod s119_update_image_without_version;
mod s120_hosted_release_downgrade;
mod s121_feature_set_change_rejected;
mod s122_feature_set_no_upgrade;
mod s123_feature_gate_status_version;
mod y001_yaml_syntax;
mod y002_duplicate_key;
mod y003_yaml11_ambiguity;
mod y004_yaml_limit;
mod y005_templated_file;
mod y006_file_too_large;
mod y007_binary_file;
mod y008_non_utf8_file;
mod y009_unreadable_file;

use std::collections::HashMap;
use std::sync::Arc;

use nodecast_yaml::Problem;

use crate::code::Code;
use crate::diagnostic::Diagnostic;
use crate::diff::Diff;
use crate::forecast::Impact;
use crate::inventory::Inventory;
use crate::parse::{FileEntry, ParsedDoc};

/// A rule: the code it emits and its check.
pub struct Rule {
    /// The code (declared in the rule's file, or by the stage that also emits it).
    pub code: &'static Code,
    /// Produces the rule's findings.
    pub check: fn(&Context<'_>, &mut Vec<Diagnostic>),
    /// What its findings on a file depend on.
    pub reads: Reads,
}

/// What a rule's findings on a file depend on, so a lint of the base revision on its own can
/// take a file's findings from the head's lint when the file is the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// Anything of the run (inventories, the diff, the forecast, other files).
    Run,
    /// Only the file itself (its path, role and parse), through [`Context::head_docs`] and
    /// [`Context::head_problems`]; every finding is located in that file.
    File,
}

/// Every rule, in code order.
pub static ALL: &[&Rule] = &[
    &i001_invalid_ignition_data_url::RULE,
    &i002_payload_not_decoded::RULE,
    &k001_incomplete_object::RULE,
    &k002_invalid_type_meta::RULE,
    &k003_invalid_name::RULE,
    &k004_duplicate_object::RULE,
    &k005_unknown_kind::RULE,
    &r001_missing_reference::RULE,
    &r104_templated_value::RULE,
    &s108_managed_boot_images_invalid::RULE,
    &s109_skew_enforcement_invalid::RULE,
    &s110_boot_image_skew_limit::RULE,
    &s111_skew_enforcement_disabled::RULE,
    &s112_recorded_boot_image_stale::RULE,
    &s115_cluster_version_downgrade::RULE,
    &s116_update_skips_minors::RULE,
    &s117_update_forced::RULE,
    &s118_update_architecture_invalid::RULE,
    &s119_update_image_without_version::RULE,
    &s120_hosted_release_downgrade::RULE,
    &s121_feature_set_change_rejected::RULE,
    &s122_feature_set_no_upgrade::RULE,
    &s123_feature_gate_status_version::RULE,
    &y001_yaml_syntax::RULE,
    &y002_duplicate_key::RULE,
    &y003_yaml11_ambiguity::RULE,
    &y004_yaml_limit::RULE,
    &y005_templated_file::RULE,
    &y006_file_too_large::RULE,
    &y007_binary_file::RULE,
    &y008_non_utf8_file::RULE,
    &y009_unreadable_file::RULE,
];

/// What rules can read: both sides' files and inventories, the diff and the forecast.
pub struct Context<'a> {
    /// Base files.
    pub base_files: &'a [FileEntry],
    /// Head files.
    pub head_files: &'a [FileEntry],
    /// Base inventory.
    pub base: &'a Inventory,
    /// Head inventory.
    pub head: &'a Inventory,
    /// Differences.
    pub diff: &'a Diff,
    /// Forecast.
    pub forecast: &'a [Impact],
    /// Folder globs that each hold one standalone cluster (`--cluster-root`, `cluster-roots`).
    pub cluster_roots: &'a [String],
    /// [`Context::undecoded_payloads`], found once for the two rules that read them (I001,
    /// I002): finding them walks every document of a fleet. `Default::default()`.
    pub undecoded: std::sync::OnceLock<Vec<UndecodedPayload<'a>>>,
}

/// A document of the head side, top-level or embedded in a ConfigMap.
pub struct DocRef<'a> {
    /// The file's path.
    pub path: &'a str,
    /// What the file is: object rules (K001–K005) read whole objects only, not patches.
    pub role: crate::classify::Role,
    /// The document.
    pub doc: &'a ParsedDoc,
    /// The ConfigMap key it is embedded under, when embedded.
    pub embedded_in: Option<&'a str>,
    /// The rendered object it is (or is embedded in), when an overlay rendered it: its values
    /// may be written by another file (a patch), see [`DocRef::path_at`].
    pub rendered: Option<&'a crate::inventory::Object>,
}

/// An Ignition file source of a head MachineConfig that was not decoded, with what names it.
pub struct UndecodedPayload<'a> {
    /// Where its `source` value is written.
    pub location: crate::diagnostic::Location,
    /// The MachineConfig's `metadata.name`.
    pub name: &'a str,
    /// Which source: `storage.files[1].contents (/etc/blob)`.
    pub source: String,
    /// Why it was not decoded (a budget used up when `skipped`).
    pub error: &'a crate::parse::data_url::DecodeError,
    /// How the object reaches the cluster when no file holds it as written ("rendered from
    /// overlay X", "carried in Policy Y"), for a note.
    pub delivered: Option<String>,
}

impl<'a> DocRef<'a> {
    /// The file `span` of this document is in: `path`, except for a rendered value that a
    /// patch or a kustomization field writes.
    pub fn path_at(&self, span: nodecast_yaml::Span) -> &'a str {
        match self.rendered {
            Some(o) => o.path_at(span),
            None => self.path,
        }
    }
}

impl<'a> Context<'a> {
    /// Every head document, embedded ones included (rules check embedded objects too).
    pub fn head_docs(&self) -> impl Iterator<Item = DocRef<'a>> + 'a {
        // Made as they are read: rules walk them side by side, and a fleet has a hundred
        // thousand documents.
        self.head_files.iter().flat_map(|file| {
            file.parsed.docs.iter().flat_map(move |doc| {
                // Most documents embed none: no list is made for them.
                if doc.embedded.is_empty() {
                    return DocRefs::One(Some(DocRef {
                        path: &file.path,
                        role: file.role,
                        doc,
                        embedded_in: None,
                        rendered: None,
                    }));
                }
                let mut out = Vec::new();
                push_doc(&file.path, file.role, doc, None, &mut out);
                DocRefs::Many(out.into_iter())
            })
        })
    }

    /// [`Context::head_docs`], then every head object that is not a file's own document — what
    /// an overlay rendered, what a Policy or SyncSet carries — embedded ones included: what
    /// reaches the cluster is that object, which may hold what no file does (a patched payload)
    /// and is decoded within its own budget. A render whose documents are its files' own (a
    /// root that only lists files) is not listed twice.
    pub fn delivered_head_docs(&self) -> impl Iterator<Item = DocRef<'a>> + 'a {
        let own: std::collections::HashSet<*const crate::parse::ParsedFile> = self
            .head_files
            .iter()
            .map(|f| std::sync::Arc::as_ptr(&f.parsed))
            .collect();
        let delivered = self
            .head
            .objects
            .iter()
            .filter(move |o| !own.contains(&std::sync::Arc::as_ptr(o.file())))
            .flat_map(|o| {
                let mut out = Vec::new();
                push_doc(
                    &o.path,
                    crate::classify::Role::Manifest,
                    o.parsed(),
                    None,
                    &mut out,
                );
                for d in &mut out {
                    d.rendered = Some(o);
                }
                out
            });
        self.head_docs().chain(delivered)
    }

    /// Every Ignition file source of the head's MachineConfigs that nodecast could not decode
    /// (I001, I002), each once per place and object, in the files' own documents first.
    pub fn undecoded_payloads(&self) -> &[UndecodedPayload<'a>] {
        self.undecoded
            .get_or_init(|| self.find_undecoded_payloads())
    }

    fn find_undecoded_payloads(&self) -> Vec<UndecodedPayload<'a>> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for d in self.delivered_head_docs() {
            let name = d
                .doc
                .doc
                .root()
                .path(&["metadata", "name"])
                .and_then(|n| n.as_str())
                .unwrap_or("?");
            for f in &d.doc.ignition {
                let Err(error) = &f.decoded else { continue };
                let span = d.doc.ignition_span(f);
                // A placeholder a generator fills in (`base64,$data`, `{{hub … hub}}`) is not
                // the payload the cluster receives: nothing to decode yet.
                let written = d
                    .doc
                    .doc
                    .source()
                    .text()
                    .get(span.start.offset..span.end.offset);
                if written.is_some_and(crate::placeholder::is_templated) {
                    continue;
                }
                let path = d.path_at(span);
                if !seen.insert((path, span, name)) {
                    continue;
                }
                let which = match f.source {
                    crate::parse::IgnitionSource::Contents => {
                        format!("storage.files[{}].contents", f.index)
                    }
                    crate::parse::IgnitionSource::Append(i) => {
                        format!("storage.files[{}].append[{i}]", f.index)
                    }
                };
                let file = d
                    .doc
                    .ignition_path(f)
                    .map(|p| format!(" ({p})"))
                    .unwrap_or_default();
                out.push(UndecodedPayload {
                    location: crate::diagnostic::Location::head(path, span),
                    name,
                    source: format!("{which}{file}"),
                    error,
                    delivered: d.rendered.map(|o| o.origin.describe()),
                });
            }
        }
        out
    }

    /// Every YAML problem of the head side, embedded ones included.
    pub fn head_problems(&self) -> Vec<ProblemRef<'a>> {
        let mut out = Vec::new();
        for file in self.head_files {
            out.extend(file.parsed.problems.iter().map(|problem| ProblemRef {
                file,
                problem,
                embedded_in: None,
            }));
            for doc in &file.parsed.docs {
                embedded_problems(file, doc, &mut out);
            }
        }
        out
    }
}

/// The documents of one top-level document: itself, or itself and those it embeds.
enum DocRefs<'a> {
    One(Option<DocRef<'a>>),
    Many(std::vec::IntoIter<DocRef<'a>>),
}

impl<'a> Iterator for DocRefs<'a> {
    type Item = DocRef<'a>;

    fn next(&mut self) -> Option<DocRef<'a>> {
        match self {
            DocRefs::One(one) => one.take(),
            DocRefs::Many(many) => many.next(),
        }
    }
}

fn push_doc<'a>(
    path: &'a str,
    role: crate::classify::Role,
    doc: &'a ParsedDoc,
    embedded_in: Option<&'a str>,
    out: &mut Vec<DocRef<'a>>,
) {
    out.push(DocRef {
        path,
        role,
        doc,
        embedded_in,
        rendered: None,
    });
    for emb in &doc.embedded {
        for inner in &emb.docs {
            push_doc(path, role, inner, Some(&emb.key), out);
        }
    }
}

/// A YAML problem of a head file.
pub struct ProblemRef<'a> {
    /// The file.
    pub file: &'a FileEntry,
    /// The problem.
    pub problem: &'a Problem,
    /// The ConfigMap key whose embedded YAML has the problem, when embedded.
    pub embedded_in: Option<&'a str>,
}

impl ProblemRef<'_> {
    /// The source text under the problem's span.
    pub fn source_text(&self) -> &str {
        let span = self.problem.span;
        self.file
            .parsed
            .text
            .as_deref()
            .and_then(|t| t.get(span.start.offset..span.end.offset))
            .unwrap_or_default()
    }
}

fn embedded_problems<'a>(file: &'a FileEntry, doc: &'a ParsedDoc, out: &mut Vec<ProblemRef<'a>>) {
    for emb in &doc.embedded {
        out.extend(emb.problems.iter().map(|problem| ProblemRef {
            file,
            problem,
            embedded_in: Some(&emb.key),
        }));
        for inner in &emb.docs {
            embedded_problems(file, inner, out);
        }
    }
}

/// Runs every rule and returns the findings sorted by file and position.
pub fn run(ctx: &Context<'_>) -> Vec<Diagnostic> {
    run_sharing(ctx, Sharing::None)
}

/// The findings of the rules that read one file at a time ([`Reads::File`]), by file: a check
/// lints the base revision on its own after the head, and most of its files are the head's
/// own (the same path, role and parse), whose findings are the head's.
#[derive(Clone, Default)]
pub struct ByFile {
    /// The findings on each head file that has any, by its index among the head's files (most
    /// files of a fleet have none).
    found: HashMap<usize, Vec<Diagnostic>>,
}

/// Whether a run keeps or takes the findings of [`Reads::File`] rules by file.
pub enum Sharing<'s> {
    /// Neither.
    None,
    /// Keeps them (the head's lint).
    Keep(&'s mut ByFile),
    /// Takes them, with the head's files they were kept for, for every file the head linted as
    /// it is here, and runs those rules on the other files only.
    Take(&'s ByFile, &'s [FileEntry]),
}

/// Each file's index by path.
fn by_path(files: &[FileEntry]) -> HashMap<&str, usize> {
    files
        .iter()
        .enumerate()
        .map(|(i, f)| (&*f.path, i))
        .collect()
}

/// [`run`], keeping or taking the findings of the rules that read one file at a time.
pub fn run_sharing(ctx: &Context<'_>, sharing: Sharing<'_>) -> Vec<Diagnostic> {
    use rayon::prelude::*;
    // The files the file rules read here: all of them, or (taking) those the head did not lint
    // as they are here.
    let (fresh, taken): (Vec<FileEntry>, Vec<Diagnostic>) = match &sharing {
        Sharing::Take(by_file, head_files) => {
            let head = by_path(head_files);
            let mut fresh = Vec::new();
            let mut taken = Vec::new();
            for f in ctx.head_files {
                let same = head.get(&*f.path).copied().filter(|&i| {
                    let h = &head_files[i];
                    Arc::ptr_eq(&h.parsed, &f.parsed) && h.role == f.role
                });
                match same {
                    Some(i) => taken.extend(by_file.found.get(&i).into_iter().flatten().cloned()),
                    None => fresh.push(f.clone()),
                }
            }
            (fresh, taken)
        }
        _ => (Vec::new(), Vec::new()),
    };
    let file_ctx = match &sharing {
        Sharing::Take(..) => Some(Context {
            head_files: &fresh,
            undecoded: Default::default(),
            ..*ctx
        }),
        _ => None,
    };
    // Rules are independent of each other: run them in parallel, concatenated in rule order.
    let found: Vec<Vec<Diagnostic>> = ALL
        .par_iter()
        .map(|rule| {
            let mut out = Vec::new();
            match (&file_ctx, rule.reads) {
                (Some(file_ctx), Reads::File) => (rule.check)(file_ctx, &mut out),
                _ => (rule.check)(ctx, &mut out),
            }
            out
        })
        .collect();
    if let Sharing::Keep(by_file) = sharing {
        let index = by_path(ctx.head_files);
        by_file.found.clear();
        for (rule, found) in ALL.iter().zip(&found) {
            if rule.reads != Reads::File {
                continue;
            }
            for d in found {
                // A rule that reads one file finds only in that file (every suite checks it).
                debug_assert!(
                    index.contains_key(d.location.path.as_str()),
                    "{} reads one file at a time, yet found on {}, not a file of the run",
                    rule.code.code,
                    d.location.path
                );
                if let Some(&i) = index.get(d.location.path.as_str()) {
                    by_file.found.entry(i).or_default().push(d.clone());
                }
            }
        }
    }
    let mut out: Vec<Diagnostic> = found.into_iter().flatten().chain(taken).collect();
    out.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::parse::{parse_file, FileEntry};

    fn file(path: &str, text: &str) -> FileEntry {
        FileEntry::new(path, Arc::new(parse_file(text.as_bytes())))
    }

    fn context<'a>(files: &'a [FileEntry], inv: &'a Inventory, diff: &'a Diff) -> Context<'a> {
        Context {
            base_files: &[],
            head_files: files,
            base: inv,
            head: inv,
            diff,
            forecast: &[],
            cluster_roots: &[],
            undecoded: Default::default(),
        }
    }

    /// The base revision's lint takes the head's findings of file rules for the files the two
    /// share (same path, parse and role) and runs those rules on the rest: it finds exactly what
    /// a lint of its own finds.
    #[test]
    fn the_base_lint_takes_the_heads_file_findings_and_finds_the_same() {
        // Each file has findings of file rules (K001, K002, K003, K005, Y003).
        let shared = file(
            "shared.yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Bad_Name\ndata:\n  a: yes\n",
        );
        let moved_text = "kind: Deployment\nmetadata:\n  name: x\n";
        let head = vec![
            shared.clone(),
            file("moved/new.yaml", moved_text),
            file(
                "changed.yaml",
                "apiVersion: apps/v1\nkind: Deploymnt\nmetadata:\n  name: y\n",
            ),
            // The same text as the base's, parsed apart: not the same file to share.
            file("role.yaml", "apiVersion: v1\nkind: Secret\nmetadata: {}\n"),
            file(
                "patch.yaml",
                "apiVersion: v1\nkind: Secret\nmetadata:\n  name: A\n",
            ),
        ];
        let base = vec![
            shared,
            // The same text under another path: linted afresh.
            file("moved/old.yaml", moved_text),
            file(
                "changed.yaml",
                "apiVersion: apps\nkind: deployment\nmetadata:\n  name: y\n",
            ),
            // The same path and text as a head file, another parse: linted afresh.
            file("role.yaml", "apiVersion: v1\nkind: Secret\nmetadata: {}\n"),
            // The head's file as a patch here: another role, linted afresh (the head's findings
            // on it are an object's, which a patch does not have).
            {
                let mut f = head[4].clone();
                f.role = crate::classify::Role::Partial(crate::classify::Partial::KustomizeInput);
                f
            },
        ];
        let (inv, diff) = (Inventory::default(), Diff::default());
        let mut by_file = ByFile::default();
        run_sharing(&context(&head, &inv, &diff), Sharing::Keep(&mut by_file));
        let own = run(&context(&base, &inv, &diff));
        let taken = run_sharing(&context(&base, &inv, &diff), Sharing::Take(&by_file, &head));
        let show = |ds: &[Diagnostic]| -> Vec<String> {
            ds.iter()
                .map(|d| {
                    format!(
                        "{} {}:{:?} {}",
                        d.code, d.location.path, d.location.span, d.message
                    )
                })
                .collect()
        };
        assert_eq!(show(&taken), show(&own));
        // The shared file's findings were taken, not found again: with them left out, the
        // findings differ.
        let on_shared = own
            .iter()
            .filter(|d| d.location.path == "shared.yaml")
            .count();
        assert!(on_shared >= 2, "{:?}", show(&own));
        let mut without = by_file.clone();
        assert!(without.found.remove(&0).is_some());
        let missing = run_sharing(&context(&base, &inv, &diff), Sharing::Take(&without, &head));
        assert_eq!(missing.len() + on_shared, own.len());
    }

    /// A rule file that is not listed in `ALL` would be dead code nobody notices.
    #[test]
    fn every_rule_file_is_listed() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .expect("src/rules")
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .filter(|n| n.as_bytes().get(1).is_some_and(u8::is_ascii_digit))
            .filter_map(|n| n.get(..4).map(str::to_ascii_uppercase))
            .collect();
        files.sort();
        let mut listed: Vec<String> = super::ALL.iter().map(|r| r.code.code.to_string()).collect();
        listed.sort();
        assert_eq!(files, listed);
    }
}
