//! Ignition validation of a MachineConfig's `spec.config` (every rule of the MCO model's
//! `ignition::validate`, systemd unit lexing included), then the MCO model's reading of the same
//! object. Input: YAML, either a MachineConfig or a bare Ignition config.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nodecast::forecast::mco::config::Src;
use nodecast::inventory::ObjectId;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let parsed = nodecast_yaml::parse(&text, &nodecast_yaml::Options::default());
    let at = |pointer: String| Src {
        object: ObjectId {
            group: "machineconfiguration.openshift.io".into(),
            kind: "MachineConfig".into(),
            namespace: None,
            name: "fuzz".into(),
            scope: String::new(),
        },
        pointer,
    };
    for doc in &parsed.documents {
        let config = doc.root().path(&["spec", "config"]).unwrap_or(doc.root());
        for invalid in nodecast::forecast::mco::ignition::validate(config, &at) {
            assert!(invalid.src.pointer.starts_with("/spec/config"));
            assert!(!invalid.message.is_empty());
        }
    }
});
