//! Values filled in at deploy time: argocd-vault-plugin `<path:…>` references, Go/Helm template
//! actions `{{ … }}` and ACM hub templates `{{hub … hub}}`. They are unknown values: never an
//! error by themselves, and never trusted as unchanged (a changed text is a changed value).

/// The placeholder in a value, when it holds one (shortened for messages).
pub fn placeholder(value: &str) -> Option<String> {
    let found = find(value, "{{hub", "hub}}")
        .or_else(|| find(value, "<path:", ">"))
        .or_else(|| find(value, "{{", "}}"))?;
    Some(if found.chars().count() > 60 {
        format!("{}…", found.chars().take(59).collect::<String>())
    } else {
        found.to_string()
    })
}

/// Whether a value holds a placeholder.
pub fn is_templated(value: &str) -> bool {
    placeholder(value).is_some()
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
    fn recognises_the_three_forms() {
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
        assert_eq!(placeholder("{{ unterminated"), None);
    }
}
