//! Every finding code of every stage, with its page: what `nodecast rules` and `explain` print,
//! what configuration and suppressions are checked against, and SARIF's rule metadata.
//!
//! Stages declare their codes beside the code that emits them (`<stage>::codes`, and each rule
//! file of `rules`); this module only gathers them, so it sits above every stage.

use std::sync::LazyLock;

use crate::code::Code;

mod pages {
    include!(concat!(env!("OUT_DIR"), "/rule_pages.rs"));
}

static ALL: LazyLock<Vec<&'static Code>> = LazyLock::new(|| {
    let mut all: Vec<&'static Code> = Vec::new();
    for stage in [
        crate::config::codes::ALL,
        crate::triage::codes::ALL,
        crate::kustomize::codes::ALL,
        crate::validate::codes::ALL,
        crate::schedule::codes::ALL,
        crate::forecast::codes::ALL,
        crate::forecast::hypershift::codes::ALL,
        crate::forecast::mco::codes::ALL,
    ] {
        all.extend(stage.iter().copied());
    }
    all.extend(crate::rules::ALL.iter().map(|r| r.code));
    all.sort_by_key(|c| c.code);
    // A code a stage declares may also be emitted by a rule (S108): list it once.
    all.dedup_by_key(|c| c.code);
    all
});

/// Every code, in code order.
pub fn all() -> &'static [&'static Code] {
    &ALL
}

/// The code with this text (case-insensitive).
pub fn find(code: &str) -> Option<&'static Code> {
    all()
        .iter()
        .copied()
        .find(|c| c.code.eq_ignore_ascii_case(code))
}

/// The code's documentation page (Markdown), embedded at build time.
pub fn page(code: &str) -> Option<&'static str> {
    pages::PAGES
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(code))
        .map(|(_, p)| *p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_a_page_and_every_page_a_code() {
        for code in all() {
            let page =
                page(code.code).unwrap_or_else(|| panic!("rules/{}.md is missing", code.code));
            assert!(
                page.starts_with(&format!("# {}: {}", code.code, code.name)),
                "rules/{}.md must start with `# {}: {}`",
                code.code,
                code.code,
                code.name
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
                    code.code
                );
            }
            assert!(
                page.contains(&format!("**Default severity:** {}", code.severity)),
                "rules/{}.md states another default severity than the code ({})",
                code.code,
                code.severity
            );
        }
        for (code, _) in pages::PAGES {
            assert!(
                find(code).is_some(),
                "rules/{code}.md documents no registered code"
            );
        }
    }

    #[test]
    fn codes_are_declared_once() {
        let mut declared: Vec<&str> = Vec::new();
        for stage in [
            crate::config::codes::ALL,
            crate::triage::codes::ALL,
            crate::kustomize::codes::ALL,
            crate::validate::codes::ALL,
            crate::schedule::codes::ALL,
            crate::forecast::codes::ALL,
            crate::forecast::hypershift::codes::ALL,
            crate::forecast::mco::codes::ALL,
        ] {
            declared.extend(stage.iter().map(|c| c.code));
        }
        let in_rules = crate::rules::ALL
            .iter()
            .filter(|r| !declared.contains(&r.code.code))
            .map(|r| r.code.code)
            .collect::<Vec<_>>();
        declared.extend(in_rules);
        let n = declared.len();
        declared.sort_unstable();
        declared.dedup();
        assert_eq!(declared.len(), n, "a code is declared twice");
        assert_eq!(declared.len(), all().len());
    }
}
