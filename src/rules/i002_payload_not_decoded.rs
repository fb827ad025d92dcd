//! I002: an Ignition file's data URL was not decoded because a decoding budget is used up.

use super::{Context, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Location, Severity};
use crate::parse::IgnitionSource;

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "I002",
    name: "ignition-payload-not-decoded",
    severity: Severity::Warning,
    summary: "A MachineConfig file's data URL was not decoded: the budget for decoded payloads is used up, so its contents are not checked",
};

/// The rule.
pub static RULE: Rule = Rule { code: &CODE, check };

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for d in ctx.head_docs() {
        for f in &d.doc.ignition {
            let Err(err) = &f.decoded else { continue };
            if !err.skipped {
                continue; // I001
            }
            let which = match f.source {
                IgnitionSource::Contents => format!("storage.files[{}].contents", f.index),
                IgnitionSource::Append(i) => format!("storage.files[{}].append[{i}]", f.index),
            };
            let file = f
                .path
                .as_deref()
                .map(|p| format!(" ({p})"))
                .unwrap_or_default();
            let name = d
                .doc
                .doc
                .root
                .path(&["metadata", "name"])
                .and_then(|n| n.as_str())
                .unwrap_or("?");
            out.push(
                Diagnostic::new(
                    &CODE,
                    format!("MachineConfig {name}: {which}{file} was {}", err.message),
                    Location::head(d.path, f.source_span),
                )
                .label("not decoded")
                .help("keep MachineConfig payloads small (the MCO itself refuses rendered configs over 1.5 MB); check this file's contents by hand")
                .note("nodecast bounds the memory decoded payloads take: 64 MiB per file, and 128 MiB for all files of a run beyond a first pass of four times each file's size")
                .object(format!("MachineConfig/{name}")),
            );
        }
    }
}
