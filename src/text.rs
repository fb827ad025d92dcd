//! Small text helpers shared by rules: "did you mean" suggestions, name validation, and
//! reading `key: value` lines of YAML that does not parse.

/// Levenshtein distance, case-insensitive, for "did you mean" suggestions (`strsim`).
pub fn distance(a: &str, b: &str) -> usize {
    strsim::levenshtein(&a.to_lowercase(), &b.to_lowercase())
}

/// The candidate closest to `word` within a distance that still reads as a typo: the one "did
/// you mean" helper of every stage.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).clamp(1, 3);
    candidates
        .into_iter()
        .map(|c| (distance(word, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, c)| (*d, *c))
        .map(|(_, c)| c)
}

/// Whether `s` starts like an RFC 3339 date-time (`YYYY-MM-DDTHH:MM:SS`), the shape the
/// `*Until` CRD rules admit before any time zone or fraction.
pub fn starts_like_rfc3339(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        r.into_iter()
            .all(|i| b.get(i).is_some_and(u8::is_ascii_digit))
    };
    b.len() >= 19
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && b[10] == b'T'
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
        && b[16] == b':'
        && digits(17..19)
}

/// A DNS-1123 subdomain (what most object names must be).
pub fn is_dns_subdomain(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 253
        && name.split('.').all(|label| {
            !label.is_empty()
                && label
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
}

/// A DNS-1123 label (namespace names).
pub fn is_dns_label(name: &str) -> bool {
    name.len() <= 63 && !name.contains('.') && is_dns_subdomain(name)
}

/// `key` and the text after its `:` for a `key: value` line (plain or quoted key, a leading
/// `- ` ignored), else `None`: for reading lines of YAML that does not parse.
pub fn yaml_key(content: &str) -> Option<(&str, &str)> {
    let content = content.strip_prefix("- ").unwrap_or(content);
    if let Some(rest) = content.strip_prefix('"') {
        let end = rest.find('"')?;
        let after = rest[end + 1..].trim_start();
        let value = after.strip_prefix(':')?;
        return Some((&rest[..end], value));
    }
    if let Some(rest) = content.strip_prefix('\'') {
        let end = rest.find('\'')?;
        let after = rest[end + 1..].trim_start();
        let value = after.strip_prefix(':')?;
        return Some((&rest[..end], value));
    }
    let colon = content
        .char_indices()
        .find(|&(i, c)| {
            c == ':'
                && content[i + 1..]
                    .chars()
                    .next()
                    .is_none_or(|n| n == ' ' || n == '\t')
        })
        .map(|(i, _)| i)?;
    let key = &content[..colon];
    if key.contains(' ') && !key.starts_with('#') {
        // `a b: c` is a valid key, but a prose line in a block scalar is more likely.
        return None;
    }
    Some((key, &content[colon + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        assert_eq!(distance("NodePools", "NodePool"), 1);
        assert_eq!(
            closest("NodePools", ["NodePool", "HostedCluster"]),
            Some("NodePool")
        );
        assert_eq!(
            closest("MachineconfigPool", ["MachineConfigPool", "MachineConfig"]),
            Some("MachineConfigPool")
        );
        assert_eq!(closest("Widget", ["NodePool"]), None);
    }

    #[test]
    fn rfc3339_shape() {
        assert!(starts_like_rfc3339("2026-11-21T02:00:00Z"));
        assert!(starts_like_rfc3339("2026-11-21T02:00:00.5+01:00"));
        assert!(!starts_like_rfc3339("2026-11-21 02:00:00"));
        assert!(!starts_like_rfc3339("2026-11-21"));
        assert!(!starts_like_rfc3339("true"));
    }

    #[test]
    fn names() {
        assert!(is_dns_subdomain("99-worker-ssh"));
        assert!(is_dns_subdomain("a.b-c"));
        assert!(!is_dns_subdomain("Workers"));
        assert!(!is_dns_subdomain("-a"));
        assert!(!is_dns_subdomain("a..b"));
        assert!(is_dns_label("clusters"));
        assert!(!is_dns_label("a.b"));
    }
}
