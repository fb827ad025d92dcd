//! Kustomization reading: references of every field, the remote-base recognition Kustomize's
//! repospec does, path joining, and Kustomize error message cleaning. Input: a kustomization file.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nodecast::kustomize::kustomization::{dir_of, is_builtin_plugin, is_git_url, is_remote, join, refs};
use nodecast::kustomize::run::{clean_error, concise};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let parsed = nodecast_yaml::parse(&text, &nodecast_yaml::Options::default());
    for doc in &parsed.documents {
        let r = refs(doc.root());
        let _ = is_builtin_plugin(doc.root());
        for reference in r.inputs.iter().chain(&r.files).chain(&r.plugins) {
            let remote = is_remote(&reference.text);
            if is_git_url(&reference.text) {
                assert!(remote);
            }
            if let Some(joined) = join("clusters/prod", &reference.text) {
                assert!(!joined.starts_with('/'));
                assert!(!joined.split('/').any(|p| p == ".."));
                let _ = dir_of(&joined);
            }
        }
    }
    for line in text.lines().take(16) {
        let _ = is_remote(line);
        let _ = concise(line);
    }
    let _ = clean_error(&text);
});
