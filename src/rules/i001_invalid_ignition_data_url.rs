//! I001: an Ignition file source is a data URL that cannot be decoded.

use super::{Context, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Location, Severity};
use crate::parse::IgnitionSource;

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "I001",
    name: "invalid-ignition-data-url",
    severity: Severity::Error,
    summary: "A MachineConfig file's data URL cannot be decoded; the pool would go Degraded",
};

/// The rule.
pub static RULE: Rule = Rule { code: &CODE, check };

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for d in ctx.head_docs() {
        for f in &d.doc.ignition {
            let Err(err) = &f.decoded else { continue };
            if err.skipped {
                continue; // I002
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
                    format!("MachineConfig {name}: {which}{file} cannot be decoded: {}", err.message),
                    Location::head(d.path, f.source_span),
                )
                .label("undecodable data URL")
                .help("re-encode the file: `base64 -w0 FILE` and write `data:;base64,<output>` (gzip first when `compression: gzip` is set)")
                .note("the Machine Config Operator fails to render this config and marks the pool Degraded")
                .object(format!("MachineConfig/{name}")),
            );
        }
    }
}
