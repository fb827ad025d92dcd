//! I002: an Ignition file's data URL was not decoded because a decoding budget is used up.

use super::{Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "I002",
    name: "ignition-payload-not-decoded",
    severity: Severity::Warning,
    summary: "A MachineConfig file's data URL was not decoded: the budget for decoded payloads is used up, so its contents are not checked",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for p in ctx.undecoded_payloads() {
        if !p.error.skipped {
            continue; // I001
        }
        let mut d = Diagnostic::new(
            &CODE,
            format!("MachineConfig {}: {} was {}", p.name, p.source, p.error.message),
            p.location.clone(),
        )
        .label("not decoded")
        .help("keep MachineConfig payloads small (the MCO itself refuses rendered configs over 1.5 MB); check this file's contents by hand")
        .note("nodecast bounds the memory decoded payloads take: 64 MiB per file, 128 MiB for all files of a run beyond a first pass of four times each file's size, 64 MiB for rendered overlays, and 64 MiB per revision for objects Policies and SyncSets carry")
        .object(format!("MachineConfig/{}", p.name));
        if let Some(how) = &p.delivered {
            d = d.note(format!("checked as the cluster receives it: {how}"));
        }
        out.push(d);
    }
}
