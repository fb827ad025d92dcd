//! I001: an Ignition file source is a data URL that cannot be decoded.

use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "I001",
    name: "invalid-ignition-data-url",
    severity: Severity::Error,
    summary: "A MachineConfig file's data URL cannot be decoded; the pool would go Degraded",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for p in ctx.undecoded_payloads() {
        if p.error.skipped {
            continue; // I002
        }
        let mut d = Diagnostic::new(
            &CODE,
            format!("MachineConfig {}: {} cannot be decoded: {}", p.name, p.source, p.error.message),
            p.location.clone(),
        )
        .label("undecodable data URL")
        .help("re-encode the file: `base64 -w0 FILE` and write `data:;base64,<output>` (gzip first when `compression: gzip` is set)")
        .note("the Machine Config Operator fails to render this config and marks the pool Degraded")
        .object(format!("MachineConfig/{}", p.name));
        if let Some(how) = &p.delivered {
            d = d.note(format!("checked as the cluster receives it: {how}"));
        }
        out.push(d);
    }
}
