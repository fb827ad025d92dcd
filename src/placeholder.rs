//! Values filled in at deploy time: argocd-vault-plugin `<path:…>` references, Go/Helm/Argo CD
//! template actions `{{ … }}`, ACM hub templates `{{hub … hub}}`, PolicyGenTemplate and
//! kube-compare variables (`$name`, `$mcp`), shell substitutions (`${VAR}`) and the upper-case
//! tokens scripts replace (`CLUSTER_NAME`, `BASE_DOMAIN_PLACEHOLDER`). They are unknown values:
//! never an error by themselves, and never trusted as unchanged (a changed text is a changed
//! value).

/// The placeholder in a value, when it holds one (shortened for messages).
pub fn placeholder(value: &str) -> Option<String> {
    let found = find(value, "{{hub", "hub}}")
        .or_else(|| find(value, "<path:", ">"))
        .or_else(|| find(value, "{{", "}}"))
        .or_else(|| find(value, "${", "}"))
        .or_else(|| dollar_variable(value))?;
    Some(if found.chars().count() > 60 {
        format!("{}…", found.chars().take(59).collect::<String>())
    } else {
        found.to_string()
    })
}

/// Whether a value holds a placeholder, or an upper-case token a script replaces: a finding
/// about such a value is about the filled-in value, not the manifest.
pub fn is_templated(value: &str) -> bool {
    placeholder(value).is_some() || script_token(value).is_some()
}

/// A generator variable: `$` and an identifier (`$mcp`, `$isolated`), not `$$` or `$6$…`.
fn dollar_variable(value: &str) -> Option<&str> {
    let bytes = value.as_bytes();
    bytes.iter().enumerate().find_map(|(i, &b)| {
        let first = *bytes.get(i + 1)?;
        let starts = b == b'$'
            && (first.is_ascii_alphabetic() || first == b'_')
            && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric() && bytes[i - 1] != b'$');
        if !starts {
            return None;
        }
        let len = bytes[i + 1..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count();
        let end = i + 1 + len;
        // `$6$salt$hash` (a crypt hash) is data, not a variable.
        (bytes.get(end) != Some(&b'$')).then(|| &value[i..end])
    })
}

/// An upper-case token a deploy script replaces: letters, digits and `_`, at least one `_`,
/// starting with a letter, at least 6 characters (`CLUSTER_NAME`, `CLUSTER_NAME_PLACEHOLDER`),
/// standing alone between separators.
fn script_token(value: &str) -> Option<&str> {
    value
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .find(|t| {
            t.len() >= 6
                && t.contains('_')
                && t.starts_with(|c: char| c.is_ascii_uppercase())
                && t.chars().any(|c| c.is_ascii_uppercase())
                && t.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        })
}

fn find<'a>(value: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = value.find(open)?;
    let rest = &value[start + open.len()..];
    let end = rest.find(close)?;
    Some(&value[start..start + open.len() + end + close.len()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_every_form() {
        assert_eq!(
            placeholder("quay.io/x:<path:secret/data/rel#tag>").as_deref(),
            Some("<path:secret/data/rel#tag>")
        );
        assert_eq!(
            placeholder("{{hub fromSecret \"ns\" \"s\" \"k\" hub}}").as_deref(),
            Some("{{hub fromSecret \"ns\" \"s\" \"k\" hub}}")
        );
        assert_eq!(
            placeholder("a-{{ .Values.x }}").as_deref(),
            Some("{{ .Values.x }}")
        );
        assert_eq!(placeholder("plain <b> text"), None);
        assert_eq!(placeholder("$mcp").as_deref(), Some("$mcp"));
        assert_eq!(
            placeholder("node-role.kubernetes.io/$mcp").as_deref(),
            Some("$mcp")
        );
        assert_eq!(
            placeholder("${CLUSTER}.example.com").as_deref(),
            Some("${CLUSTER}")
        );
        // Script tokens are unknown values for findings, but not shown as templates (an
        // environment variable's name is written the same way).
        assert_eq!(script_token("CLUSTER_NAME-workers"), Some("CLUSTER_NAME"));
        assert_eq!(
            script_token("api.BASE_DOMAIN_PLACEHOLDER"),
            Some("BASE_DOMAIN_PLACEHOLDER")
        );
        assert!(is_templated("CLUSTER_NAME_PLACEHOLDER"));
        assert_eq!(placeholder("CLUSTER_NAME"), None);
        // Not placeholders: crypt hashes, prices, ordinary upper-case words and env names.
        assert_eq!(placeholder("$6$rounds=5000$salt$hash"), None);
        assert_eq!(placeholder("costs 5$"), None);
        assert_eq!(placeholder("AWS"), None);
        assert_eq!(placeholder("OVNKubernetes"), None);
        assert_eq!(placeholder("worker-cnf"), None);
        assert_eq!(placeholder("{{ unterminated"), None);
    }
}
