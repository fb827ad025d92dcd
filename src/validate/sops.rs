//! SOPS-encrypted manifests (`*.sops.yaml`), which Flux's kustomize-controller, ksops or
//! helm-secrets decrypt before anything is applied: the top-level `sops` stanza is the
//! encryption's metadata and never reaches the API server, and an `ENC[…]` value is ciphertext
//! whose plain value (and type) exists only after decryption. Validating either as written would
//! be a false alarm on every encrypted file of a repository.

use nodecast_yaml::Node;

/// Whether a document is SOPS-encrypted: its root holds a `sops` mapping with the message
/// authentication code and the tool's version or modification time that SOPS always writes (a
/// user's own `sops` field without them stays an unknown field).
pub fn is_encrypted(root: Node<'_>) -> bool {
    root.get("sops").is_some_and(|stanza| {
        stanza.get("mac").is_some()
            && (stanza.get("version").is_some() || stanza.get("lastmodified").is_some())
    })
}

/// Whether a value is SOPS ciphertext: `ENC[<cipher>,data:…,type:…]`.
pub fn is_ciphertext(value: &str) -> bool {
    value
        .strip_prefix("ENC[")
        .and_then(|rest| rest.strip_suffix(']'))
        .is_some_and(|inner| {
            inner
                .split(',')
                .nth(1)
                .is_some_and(|f| f.starts_with("data:"))
                && inner.contains(",type:")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The document's root (the document is kept for the rest of the test run).
    fn root(text: &str) -> Node<'static> {
        let mut parsed = nodecast_yaml::parse(text, &nodecast_yaml::Options::default());
        Box::leak(Box::new(parsed.documents.swap_remove(0))).root()
    }

    #[test]
    fn only_the_stanza_sops_writes_marks_a_document_encrypted() {
        assert!(is_encrypted(root(
            "kind: Secret\nsops:\n  mac: ENC[AES256_GCM,data:x,iv:y,tag:z,type:str]\n  version: 3.7.3\n"
        )));
        assert!(is_encrypted(root(
            "sops:\n  mac: ENC[AES256_GCM,data:x,type:str]\n  lastmodified: '2022-12-10T18:21:16Z'\n"
        )));
        assert!(!is_encrypted(root("sops:\n  version: 3.7.3\n")));
        assert!(!is_encrypted(root("sops: yes\n")));
        assert!(!is_encrypted(root(
            "spec:\n  sops:\n    mac: x\n    version: 1\n"
        )));
    }

    #[test]
    fn ciphertext_is_the_enc_form_only() {
        assert!(is_ciphertext(
            "ENC[AES256_GCM,data:Mw==,iv:a,tag:b,type:int]"
        ));
        assert!(is_ciphertext("ENC[AES256_GCM,data:,iv:a,tag:b,type:str]"));
        assert!(!is_ciphertext("ENC[AES256_GCM,data:Mw==]"));
        assert!(!is_ciphertext("ENC[something]"));
        assert!(!is_ciphertext("3"));
        assert!(!is_ciphertext("xENC[AES256_GCM,data:Mw==,type:int]"));
    }
}
