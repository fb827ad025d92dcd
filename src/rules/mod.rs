//! Rules stage: each rule is one file with a stable code, a default severity and a doc page in
//! the top-level `rules/` folder. Rules read what earlier stages produced; they never re-parse.
//!
//! Adding a rule: write `src/rules/<code>_<name>.rs` with a `pub static RULE: Rule`, list it in
//! [`ALL`], write `rules/<CODE>.md`, and add a fixture under `testdata/rules/<CODE>/`.

mod c101_config_unknown_key;
mod c102_config_invalid_value;
mod c103_incomplete_suppression;
mod c104_unused_suppression;
mod c105_unacknowledged_rollout;
mod c106_stale_baseline_entry;
pub(crate) mod h101_config_document_invalid;
pub(crate) mod h102_config_reference_unresolved;
pub(crate) mod h103_config_change_no_rollout;
pub(crate) mod h104_config_unreferenced;
pub(crate) mod h105_release_version_unreadable;
pub(crate) mod h106_release_version_rejected;
pub(crate) mod h107_release_version_skew;
pub(crate) mod h108_os_image_stream_invalid;
pub(crate) mod h109_replace_strategy_invalid;
pub(crate) mod h110_nodepool_immutable_field;
pub(crate) mod h111_in_place_template_change;
pub(crate) mod h112_paused_until_invalid;
pub(crate) mod h113_hostedcluster_pause_ignored;
pub(crate) mod h114_generated_config_may_roll;
pub(crate) mod h115_nodepool_field_not_modelled;
pub(crate) mod h116_tuning_rollout_possible;
pub(crate) mod h117_nodepool_deleted;
mod i001_invalid_ignition_data_url;
mod i002_payload_not_decoded;
mod k001_incomplete_object;
mod k002_invalid_type_meta;
mod k003_invalid_name;
mod k004_duplicate_object;
mod k005_unknown_kind;
pub(crate) mod m101_blocked_config;
pub(crate) mod m102_paused_pool;
pub(crate) mod m103_policy_changed_with_configs;
pub(crate) mod m104_storage_override;
pub(crate) mod m105_upgrade_with_paused_required_pool;
pub(crate) mod m106_invalid_selector;
pub(crate) mod m107_pool_selector;
pub(crate) mod m108_generator_selects_no_pool;
pub(crate) mod m109_config_selects_no_pool;
mod r001_missing_reference;
pub(crate) mod r101_render_failed;
pub(crate) mod r102_render_refused;
pub(crate) mod r103_renderer_missing;
mod r104_templated_value;
mod revisions;
pub(crate) mod s101_nodepool_runc_dropin;
pub(crate) mod s102_in_place_stream_rebase;
pub(crate) mod s103_explicit_default_stream;
pub(crate) mod s104_release_changes_os_stream;
pub(crate) mod s105_stream_needs_feature_gate;
pub(crate) mod s106_pool_stream_unavailable;
pub(crate) mod s107_boot_image_unavailable;
pub(crate) mod s108_managed_boot_images_invalid;
pub(crate) mod s109_skew_enforcement_invalid;
pub(crate) mod s110_boot_image_skew_limit;
pub(crate) mod s111_skew_enforcement_disabled;
pub(crate) mod s112_recorded_boot_image_stale;
pub(crate) mod s113_machineset_stream_label;
pub(crate) mod s114_machineset_owned_skipped;
pub(crate) mod s115_cluster_version_downgrade;
pub(crate) mod s116_update_skips_minors;
pub(crate) mod s117_update_forced;
pub(crate) mod s118_update_architecture_invalid;
pub(crate) mod s119_update_image_without_version;
pub(crate) mod s120_hosted_release_downgrade;
pub(crate) mod s121_feature_set_change_rejected;
pub(crate) mod s122_feature_set_no_upgrade;
pub(crate) mod s123_feature_gate_status_version;
pub(crate) mod v101_schema_violation;
pub(crate) mod v102_unknown_field;
pub(crate) mod v103_cel_rule_failed;
pub(crate) mod v104_cel_transition_rule_failed;
pub(crate) mod v105_no_schema;
pub(crate) mod v106_duplicate_list_key;
pub(crate) mod w101_change_management_unreleased;
pub(crate) mod w102_invalid_rrule;
pub(crate) mod w103_rrule_portability;
pub(crate) mod w104_rare_dates;
pub(crate) mod w105_invalid_window_time;
pub(crate) mod w106_overlapping_windows;
pub(crate) mod w107_invalid_exclusion;
pub(crate) mod w108_schedule_never_opens;
pub(crate) mod w109_little_permitted_time;
pub(crate) mod w110_invalid_policy;
pub(crate) mod w111_invalid_stanza;
pub(crate) mod w112_expired_until;
pub(crate) mod w113_unresolved_policy;
pub(crate) mod w114_unreferenced_policy;
pub(crate) mod w115_master_stanza_differs;
pub(crate) mod w116_windows_never_overlap;
pub(crate) mod w117_empty_bypass_annotation;
pub(crate) mod w118_rollout_outside_window;
pub(crate) mod w119_rollout_exceeds_window;
pub(crate) mod w120_pool_machine_config_target;
mod y001_yaml_syntax;
mod y002_duplicate_key;
mod y003_yaml11_ambiguity;
mod y004_yaml_limit;
mod y005_templated_file;
mod y006_file_too_large;
mod y007_binary_file;
mod y008_non_utf8_file;
mod y009_unreadable_file;
pub(crate) mod y010_unreadable_change;

use nodecast_yaml::Problem;

pub(crate) use v101_schema_violation as v101;
pub(crate) use v102_unknown_field as v102;
pub(crate) use v103_cel_rule_failed as v103;
pub(crate) use v104_cel_transition_rule_failed as v104;
pub(crate) use v105_no_schema as v105;
pub(crate) use v106_duplicate_list_key as v106;

use crate::diagnostic::{Diagnostic, Severity};
use crate::diff::Diff;
use crate::forecast::Impact;
use crate::inventory::Inventory;
use crate::parse::{FileEntry, ParsedDoc};

mod pages {
    include!(concat!(env!("OUT_DIR"), "/rule_pages.rs"));
}

/// Where rule documentation is published (SARIF `helpUri`, JSON `url`).
pub const DOCS_BASE: &str = "https://github.com/nodecast/nodecast/blob/main/rules";

/// A rule: identity, default severity, and the check.
pub struct Rule {
    /// Stable code; never renumbered (SARIF ruleId, suppression token, doc slug).
    pub code: &'static str,
    /// kebab-case name.
    pub name: &'static str,
    /// Default severity.
    pub severity: Severity,
    /// One-line summary for `nodecast rules`.
    pub summary: &'static str,
    /// Produces the rule's findings.
    pub check: fn(&Context<'_>, &mut Vec<Diagnostic>),
}

/// Every rule, in code order.
pub static ALL: &[&Rule] = &[
    &c101_config_unknown_key::RULE,
    &c102_config_invalid_value::RULE,
    &c103_incomplete_suppression::RULE,
    &c104_unused_suppression::RULE,
    &c105_unacknowledged_rollout::RULE,
    &c106_stale_baseline_entry::RULE,
    &h101_config_document_invalid::RULE,
    &h102_config_reference_unresolved::RULE,
    &h103_config_change_no_rollout::RULE,
    &h104_config_unreferenced::RULE,
    &h105_release_version_unreadable::RULE,
    &h106_release_version_rejected::RULE,
    &h107_release_version_skew::RULE,
    &h108_os_image_stream_invalid::RULE,
    &h109_replace_strategy_invalid::RULE,
    &h110_nodepool_immutable_field::RULE,
    &h111_in_place_template_change::RULE,
    &h112_paused_until_invalid::RULE,
    &h113_hostedcluster_pause_ignored::RULE,
    &h114_generated_config_may_roll::RULE,
    &h115_nodepool_field_not_modelled::RULE,
    &h116_tuning_rollout_possible::RULE,
    &h117_nodepool_deleted::RULE,
    &i001_invalid_ignition_data_url::RULE,
    &i002_payload_not_decoded::RULE,
    &k001_incomplete_object::RULE,
    &k002_invalid_type_meta::RULE,
    &k003_invalid_name::RULE,
    &k004_duplicate_object::RULE,
    &k005_unknown_kind::RULE,
    &m101_blocked_config::RULE,
    &m102_paused_pool::RULE,
    &m103_policy_changed_with_configs::RULE,
    &m104_storage_override::RULE,
    &m105_upgrade_with_paused_required_pool::RULE,
    &m106_invalid_selector::RULE,
    &m107_pool_selector::RULE,
    &m108_generator_selects_no_pool::RULE,
    &m109_config_selects_no_pool::RULE,
    &r001_missing_reference::RULE,
    &r101_render_failed::RULE,
    &r102_render_refused::RULE,
    &r103_renderer_missing::RULE,
    &r104_templated_value::RULE,
    &s101_nodepool_runc_dropin::RULE,
    &s102_in_place_stream_rebase::RULE,
    &s103_explicit_default_stream::RULE,
    &s104_release_changes_os_stream::RULE,
    &s105_stream_needs_feature_gate::RULE,
    &s106_pool_stream_unavailable::RULE,
    &s107_boot_image_unavailable::RULE,
    &s108_managed_boot_images_invalid::RULE,
    &s109_skew_enforcement_invalid::RULE,
    &s110_boot_image_skew_limit::RULE,
    &s111_skew_enforcement_disabled::RULE,
    &s112_recorded_boot_image_stale::RULE,
    &s113_machineset_stream_label::RULE,
    &s114_machineset_owned_skipped::RULE,
    &s115_cluster_version_downgrade::RULE,
    &s116_update_skips_minors::RULE,
    &s117_update_forced::RULE,
    &s118_update_architecture_invalid::RULE,
    &s119_update_image_without_version::RULE,
    &s120_hosted_release_downgrade::RULE,
    &s121_feature_set_change_rejected::RULE,
    &s122_feature_set_no_upgrade::RULE,
    &s123_feature_gate_status_version::RULE,
    &v101_schema_violation::RULE,
    &v102_unknown_field::RULE,
    &v103_cel_rule_failed::RULE,
    &v104_cel_transition_rule_failed::RULE,
    &v105_no_schema::RULE,
    &v106_duplicate_list_key::RULE,
    &w101_change_management_unreleased::RULE,
    &w102_invalid_rrule::RULE,
    &w103_rrule_portability::RULE,
    &w104_rare_dates::RULE,
    &w105_invalid_window_time::RULE,
    &w106_overlapping_windows::RULE,
    &w107_invalid_exclusion::RULE,
    &w108_schedule_never_opens::RULE,
    &w109_little_permitted_time::RULE,
    &w110_invalid_policy::RULE,
    &w111_invalid_stanza::RULE,
    &w112_expired_until::RULE,
    &w113_unresolved_policy::RULE,
    &w114_unreferenced_policy::RULE,
    &w115_master_stanza_differs::RULE,
    &w116_windows_never_overlap::RULE,
    &w117_empty_bypass_annotation::RULE,
    &w118_rollout_outside_window::RULE,
    &w119_rollout_exceeds_window::RULE,
    &w120_pool_machine_config_target::RULE,
    &y001_yaml_syntax::RULE,
    &y002_duplicate_key::RULE,
    &y003_yaml11_ambiguity::RULE,
    &y004_yaml_limit::RULE,
    &y005_templated_file::RULE,
    &y006_file_too_large::RULE,
    &y007_binary_file::RULE,
    &y008_non_utf8_file::RULE,
    &y009_unreadable_file::RULE,
    &y010_unreadable_change::RULE,
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
}

impl<'a> Context<'a> {
    /// Every head document, embedded ones included (rules check embedded objects too).
    pub fn head_docs(&self) -> Vec<DocRef<'a>> {
        let mut out = Vec::new();
        for file in self.head_files {
            for doc in &file.parsed.docs {
                push_doc(&file.path, file.role, doc, None, &mut out);
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
    use rayon::prelude::*;
    // Rules are independent of each other: run them in parallel, concatenated in rule order.
    let found: Vec<Vec<Diagnostic>> = ALL
        .par_iter()
        .map(|rule| {
            let mut out = Vec::new();
            (rule.check)(ctx, &mut out);
            out
        })
        .collect();
    let mut out: Vec<Diagnostic> = found.into_iter().flatten().collect();
    out.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    out
}

/// The rule with this code (case-insensitive).
pub fn find(code: &str) -> Option<&'static Rule> {
    ALL.iter()
        .copied()
        .find(|r| r.code.eq_ignore_ascii_case(code))
}

/// The rule's documentation page (Markdown), embedded at build time.
pub fn page(code: &str) -> Option<&'static str> {
    pages::PAGES
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(code))
        .map(|(_, p)| *p)
}

/// The published address of a rule's page.
pub fn doc_url(code: &str) -> String {
    format!("{DOCS_BASE}/{code}.md")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_a_page_and_every_page_a_rule() {
        for rule in ALL {
            let page =
                page(rule.code).unwrap_or_else(|| panic!("rules/{}.md is missing", rule.code));
            assert!(
                page.starts_with(&format!("# {}: {}", rule.code, rule.name)),
                "rules/{}.md must start with `# {}: {}`",
                rule.code,
                rule.code,
                rule.name
            );
            for section in [
                "## What it checks",
                "## Why it matters",
                "## Example",
                "## How to fix",
            ] {
                assert!(
                    page.contains(section),
                    "rules/{}.md lacks {section}",
                    rule.code
                );
            }
            assert!(
                page.contains(&format!("**Default severity:** {}", rule.severity)),
                "rules/{}.md states another default severity than the code ({})",
                rule.code,
                rule.severity
            );
        }
        for (code, _) in pages::PAGES {
            assert!(
                find(code).is_some(),
                "rules/{code}.md documents no registered rule"
            );
        }
    }

    #[test]
    fn codes_are_unique_and_sorted() {
        let codes: Vec<&str> = ALL.iter().map(|r| r.code).collect();
        let mut sorted = codes.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(codes, sorted);
    }
}
