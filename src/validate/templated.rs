//! Placeholders (`<path:…>`, `{{ … }}`, `{{hub … hub}}`) and SOPS ciphertext (`ENC[…]`) are
//! unknown values: the API server receives whatever the plugin, hub template or decryption fills
//! in, so a finding about one is not a finding about the manifest. R104 says "cannot check: templated value" where the value changes.

use nodecast_yaml::{Node, NodeKind};

use super::engine::{Finding, FindingKind};
use super::locate;
use crate::placeholder::is_templated;

/// Whether a finding is about a placeholder: a schema finding whose offending value is one, or a
/// CEL rule whose subject (the node the rule sits on, in either revision) holds one, so its
/// result depends on the filled-in value.
pub fn is_about_placeholder(f: &Finding, head: Node<'_>, old: Option<Node<'_>>) -> bool {
    fn at<'n>(root: Node<'n>, pointer: &str) -> Option<Node<'n>> {
        locate::node(root, pointer)
    }
    let at = |root| at(root, &f.pointer);
    match f.kind {
        FindingKind::Schema => at(head).is_some_and(is_templated_scalar),
        FindingKind::Rule => at(head).is_some_and(holds_placeholder),
        FindingKind::TransitionRule => {
            at(head).is_some_and(holds_placeholder)
                || old.and_then(at).is_some_and(holds_placeholder)
        }
        FindingKind::UnknownField | FindingKind::DuplicateKey => false,
    }
}

fn is_templated_scalar(node: Node<'_>) -> bool {
    matches!(node.kind(), NodeKind::Scalar { .. })
        && node
            .as_str()
            .is_some_and(|s| is_templated(s) || super::sops::is_ciphertext(s))
}

fn holds_placeholder(node: Node<'_>) -> bool {
    match node.kind() {
        NodeKind::Scalar { .. } => is_templated_scalar(node),
        NodeKind::Map(entries) => entries.iter().any(|e| holds_placeholder(e.value)),
        NodeKind::Seq(items) => items.iter().any(holds_placeholder),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The document's root (the document is kept for the rest of the test run).
    fn root(text: &str) -> Node<'static> {
        let mut parsed = nodecast_yaml::parse(text, &nodecast_yaml::Options::default());
        Box::leak(Box::new(parsed.documents.swap_remove(0))).root()
    }

    fn finding(kind: FindingKind, pointer: &str) -> Finding {
        Finding {
            kind,
            pointer: pointer.into(),
            at_key: false,
            field: String::new(),
            message: String::new(),
            help: None,
            related: None,
            rename: None,
            blocks_rules: false,
        }
    }

    #[test]
    fn only_findings_that_depend_on_a_placeholder_are_about_one() {
        let doc = root(
            "spec:\n  release:\n    image: <path:secret/data/r#tag>\n  replicas: x\n  data:\n    k: '{{hub fromSecret \"a\" \"b\" \"c\" hub}}'\n",
        );
        let yes = [
            finding(FindingKind::Schema, "/spec/release/image"),
            finding(FindingKind::Schema, "/spec/data/k"),
            finding(FindingKind::Rule, "/spec/release"),
            finding(FindingKind::Rule, "/spec/release/image"),
            finding(FindingKind::TransitionRule, "/spec/data"),
        ];
        for f in &yes {
            assert!(is_about_placeholder(f, doc, None), "{}", f.pointer);
        }
        let no = [
            // A plain wrong value, a missing field, a schema finding on a parent.
            finding(FindingKind::Schema, "/spec/replicas"),
            finding(FindingKind::Schema, "/spec/services"),
            finding(FindingKind::Schema, "/spec/release"),
            finding(FindingKind::Rule, "/spec/replicas"),
            finding(FindingKind::UnknownField, "/spec/release/image"),
        ];
        for f in &no {
            assert!(!is_about_placeholder(f, doc, None), "{}", f.pointer);
        }
        let old = root("spec:\n  data: '{{ .Values.x }}'\n");
        let plain = root("spec:\n  data: 1\n");
        assert!(is_about_placeholder(
            &finding(FindingKind::TransitionRule, "/spec/data"),
            plain,
            Some(old)
        ));
    }
}
