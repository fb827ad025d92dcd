//! The scenario fixture layout (CONTRIBUTING.md, "Scenario fixtures"): the builder's rules
//! (`common::fixture`), the shell builder kept to the same rules (`tools/fixture.sh`, used by
//! `fuzz/seed.sh`), and cases that hold only what differs from what they build on.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::fixture::{self, build, cases, inherited};
use common::project_root;

/// The suites whose cases build on shared `_base/` folders.
const SUITES: &[&str] = &["hcp", "mco", "rules", "real"];

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn text(files: &BTreeMap<PathBuf, Vec<u8>>) -> Vec<(String, String)> {
    files
        .iter()
        .map(|(k, v)| {
            (
                k.display().to_string(),
                String::from_utf8_lossy(v).into_owned(),
            )
        })
        .collect()
}

/// Every file under `root`, read back from disk.
fn read_tree(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    walkdir::WalkDir::new(root)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(root).expect("below").to_path_buf();
            (rel, std::fs::read(e.path()).expect("read"))
        })
        .collect()
}

#[test]
fn a_folder_is_its_bases_in_order_then_its_own_files_minus_its_removals() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    write(root, "_base/cluster/hc.yaml", "hc 1\n");
    write(root, "_base/cluster/np.yaml", "np 1\n");
    write(root, "_base/cluster/extra/cm.yaml", "cm 1\n");
    write(root, "_base/hc-2/hc.yaml", "hc 2\n");
    write(
        root,
        "case/before/_from",
        "# the cluster, with the HostedCluster at 2\n../../_base/cluster\n\n  ../../_base/hc-2  \n",
    );
    write(root, "case/before/secret.yaml", "s 1\n");
    write(root, "case/after/_from", "../before\n");
    write(root, "case/after/np.yaml", "np 2\n");
    write(root, "case/after/_remove", "extra\nsecret.yaml\n");
    write(
        root,
        "case/after/sub/_remove",
        "# a subfolder may drop what it inherits\n",
    );
    write(root, "case/expected.txt", "nothing\n");
    let built = build(&root.join("case"));
    let want = [
        ("after/hc.yaml", "hc 2\n"),
        ("after/np.yaml", "np 2\n"),
        ("before/extra/cm.yaml", "cm 1\n"),
        ("before/hc.yaml", "hc 2\n"),
        ("before/np.yaml", "np 1\n"),
        ("before/secret.yaml", "s 1\n"),
        ("expected.txt", "nothing\n"),
    ];
    assert_eq!(
        text(&built),
        want.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<Vec<_>>()
    );
    let out = tempfile::tempdir().expect("tempdir");
    fixture::materialise(&root.join("case"), out.path());
    assert_eq!(
        read_tree(out.path()),
        built,
        "materialise writes what build returns"
    );
    assert_eq!(
        text(&inherited(&root.join("case/after"))),
        vec![
            ("extra/cm.yaml".to_string(), "cm 1\n".to_string()),
            ("hc.yaml".to_string(), "hc 2\n".to_string()),
            ("np.yaml".to_string(), "np 1\n".to_string()),
            ("secret.yaml".to_string(), "s 1\n".to_string()),
        ]
    );
}

#[test]
fn a_loop_a_missing_base_or_a_removal_of_nothing_is_an_error() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    write(root, "loop/a/_from", "../b\n");
    write(root, "loop/b/_from", "../a\n");
    write(root, "missing/after/_from", "../../_base/nowhere\n");
    write(root, "nothing/after/_remove", "configmaps.yaml\n");
    write(root, "nothing/after/nodepool.yaml", "np\n");
    for (case, why) in [
        ("loop", "loops back"),
        ("missing", "nowhere"),
        ("nothing", "`_remove` names `configmaps.yaml`"),
    ] {
        let err = std::panic::catch_unwind(|| build(&root.join(case)))
            .expect_err(&format!("{case} builds"));
        let msg = err.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(msg.contains(why), "{case}: {msg}");
        let run = Command::new("bash")
            .arg(project_root().join("tools/fixture.sh"))
            .arg(root.join(case))
            .arg(root.join("out").join(case))
            .output()
            .expect("bash runs");
        assert_eq!(run.status.code(), Some(1), "tools/fixture.sh on {case}");
    }
}

#[test]
fn tools_fixture_sh_builds_what_the_tests_build() {
    let tmp = tempfile::tempdir().expect("tempdir");
    for suite in SUITES {
        let src = project_root().join("testdata").join(suite);
        let dest = tmp.path().join(suite);
        let run = Command::new("bash")
            .arg(project_root().join("tools/fixture.sh"))
            .arg(&src)
            .arg(&dest)
            .output()
            .expect("bash runs");
        assert!(
            run.status.success(),
            "tools/fixture.sh testdata/{suite}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(
            read_tree(&dest) == build(&src),
            "testdata/{suite}: tools/fixture.sh and common::fixture build different trees"
        );
    }
}

/// A case file equal to the one it would inherit is a copy the layout exists to avoid.
#[test]
fn scenario_cases_hold_only_what_differs_from_what_they_build_on() {
    let mut copies = Vec::new();
    let mut folders = 0;
    for suite in SUITES {
        for entry in walkdir::WalkDir::new(project_root().join("testdata").join(suite))
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_name() == fixture::FROM)
        {
            let folder = entry.path().parent().expect("folder");
            folders += 1;
            let base = inherited(folder);
            for own in walkdir::WalkDir::new(folder)
                .into_iter()
                .filter_entry(|e| e.path() == folder || !e.path().join(fixture::FROM).is_file())
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_file())
            {
                let rel = own.path().strip_prefix(folder).expect("below");
                if base.get(rel) == Some(&std::fs::read(own.path()).expect("read")) {
                    copies.push(own.path().display().to_string());
                }
            }
        }
    }
    assert!(
        folders > 100,
        "the suites build on bases ({folders} folders)"
    );
    assert!(
        copies.is_empty(),
        "files equal to what their folder inherits through `_from` (delete them):\n{}",
        copies.join("\n")
    );
}

#[test]
fn every_suite_lists_its_cases_without_its_bases() {
    for suite in SUITES {
        let root = project_root().join("testdata").join(suite);
        let all = common::case_dirs(&root);
        let listed = cases(&root);
        assert!(root.join("_base").is_dir(), "testdata/{suite}/_base");
        assert_eq!(
            listed.len() + 1,
            all.len(),
            "testdata/{suite}: only _base is left out"
        );
        assert!(listed.iter().all(|c| c.join("after").is_dir()), "{suite}");
    }
}
