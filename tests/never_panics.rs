//! Property: whatever bytes a manifest file holds, the pipeline (parse, inventory, diff,
//! validate, rules) never panics, and every reported position lies inside the file.

use std::sync::Arc;

use nodecast::diff::Diff;
use nodecast::inventory::Inventory;
use nodecast::parse::{parse_file, FileEntry};
use nodecast::rules::{self, Context};
use proptest::prelude::*;

fn run(base: &[u8], head: &[u8]) {
    let entry = |bytes: &[u8]| FileEntry::new("f.yaml", Arc::new(parse_file(bytes)));
    let (b, h) = ([entry(base)], [entry(head)]);
    let (bi, hi) = (Inventory::build(&b), Inventory::build(&h));
    let diff = Diff::compute(&bi, &hi, true);
    let mut diags = rules::run(&Context {
        base_files: &b,
        head_files: &h,
        base: &bi,
        head: &hi,
        diff: &diff,
        forecast: &[],
        cluster_roots: &[],
        undecoded: Default::default(),
    });
    let settings = nodecast::validate::Settings::default();
    diags.extend(
        nodecast::validate::run(&bi, &hi, &h, &settings, &[])
            .expect("validates")
            .diagnostics,
    );
    for d in diags {
        if let Some(span) = d.location.span {
            assert!(span.start.offset <= span.end.offset, "{d:?}");
            assert!(span.end.offset <= head.len(), "{d:?}");
            assert!(span.start.line >= 1 && span.start.col >= 1, "{d:?}");
        }
    }
}

/// Fragments that make the generated text look like manifests, so the interesting paths run.
fn manifestish() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "apiVersion: v1\n",
        "kind: ConfigMap\n",
        "kind: NodePool\n",
        "apiVersion: hypershift.openshift.io/v1beta1\n",
        "  replicas: -1\n",
        "metadata:\n",
        "  name: x\n",
        "  name: x\n",
        "data:\n",
        "  config: |\n",
        "    apiVersion: machineconfiguration.openshift.io/v1\n",
        "    kind: MachineConfig\n",
        "    metadata: {name: m}\n",
        "    spec:\n",
        "---\n",
        "- ",
        "&a ",
        "*a ",
        "yes\n",
        "0644\n",
        "{{ x }}\n",
        "\"q\\u00e9\"\n",
        ">-\n",
        "  source: data:;base64,aGk=\n",
        "spec:\n",
        "  config:\n",
        "  - name: c\n",
        "  clusterName: h\n",
        "[",
        "]",
        "{",
        "}",
        ":",
        "\t",
        "é",
    ]);
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(base in prop::collection::vec(any::<u8>(), 0..512), head in prop::collection::vec(any::<u8>(), 0..512)) {
        run(&base, &head);
    }

    #[test]
    fn manifest_like_text_never_panics(base in manifestish(), head in manifestish()) {
        run(base.as_bytes(), head.as_bytes());
    }
}
