//! The API's own validation suites (copied from openshift/api and openshift/hypershift, kept once
//! under testdata/schema-oracle, whose SOURCES.txt files name their origin) as table tests for the
//! stream, boot image, skew and feature-set rules: every case runs through the real binary; every
//! rejected case must be caught at the field the API names, every admitted case must raise no
//! API-rejection finding.

use crate::common;

use std::path::Path;

use common::{nodecast, project_root};
use serde_json::Value;

/// What nodecast must say about one suite case.
enum Expect {
    /// The API rejects it: this code, at the line of this field (JSON pointer; the deepest
    /// existing ancestor when the field was removed).
    Caught(&'static str, &'static str),
    /// The API admits it: no error, except these codes (controller-level or advisory findings,
    /// which are not API rejections).
    Admitted(&'static [&'static str]),
    /// Purely structural and not in issue STR's list: left to the schema validator (SCH).
    LeftToSch(&'static str),
}

use Expect::{Admitted, Caught, LeftToSch};

const STATUS: &str =
    "controller-owned status field; its name format is a generic CRD (schema) check";

/// Every case of every suite, by suite file and case name.
const TABLE: &[(&str, &str, Expect)] = &[
    // HyperShift NodePool osImageStream (release 4.17.0-rc.0, no HostedCluster in the case).
    ("featuregated.nodepools.osimagestream.testsuite.yaml", "When osImageStream.name is set to an invalid value it should fail", Caught("H108", "/spec/osImageStream/name")),
    ("featuregated.nodepools.osimagestream.testsuite.yaml", "When osImageStream.name is rhel-9 it should succeed", Admitted(&[])),
    // Admitted by the API; the controller then refuses rhel-10 on a 4.x release (H108, blocked).
    ("featuregated.nodepools.osimagestream.testsuite.yaml", "When osImageStream.name is rhel-10 it should succeed", Admitted(&["H108"])),
    ("featuregated.nodepools.osimagestream.testsuite.yaml", "When changing osImageStream.name from rhel-10 to rhel-9 it should fail", Caught("H108", "/spec/osImageStream/name")),
    ("featuregated.nodepools.osimagestream.testsuite.yaml", "When changing osImageStream.name from rhel-9 to rhel-10 it should succeed", Admitted(&["H108"])),
    ("featuregated.nodepools.osimagestream.testsuite.yaml", "When removing osImageStream from an existing NodePool it should fail", Caught("H108", "/spec/osImageStream/name")),
    ("featuregated.nodepools.osimagestream.testsuite.yaml", "When adding osImageStream to an existing NodePool it should succeed", Admitted(&["H108"])),
    // MachineConfigPool osImageStream.
    ("machineconfigpools_OSStreams.yaml", "Should be able to create a minimal MachineConfigPool", Admitted(&[])),
    ("machineconfigpools_OSStreams.yaml", "Should be able to select a non-default osImageStream", Admitted(&[])),
    ("machineconfigpools_OSStreams.yaml", "If given, the osImageStream.name must not be empty", Caught("S106", "/spec/osImageStream/name")),
    ("machineconfigpools_OSStreams.yaml", "If given, the osImageStream.name should be composed only by lowercase alphanumeric chars, hyphens and dots", Caught("S106", "/spec/osImageStream/name")),
    ("machineconfigpools_OSStreams.yaml", "If given, the osImageStream.name must be lowercase", Caught("S106", "/spec/osImageStream/name")),
    ("machineconfigpools_OSStreams.yaml", "If given, the osImageStream.name should not exceed 253 characters", Caught("S106", "/spec/osImageStream/name")),
    ("machineconfigpools_OSStreams.yaml", "If given, the osImageStream can be removed", Admitted(&[])),
    ("machineconfigpools_OSStreams.yaml", "If not present, the osImageStream can be added to the pool", Admitted(&[])),
    ("machineconfigpools_OSStreams.yaml", "Status osImageStream can be set", Admitted(&[])),
    ("machineconfigpools_OSStreams.yaml", "Status osImageStream can be updated", Admitted(&[])),
    ("machineconfigpools_OSStreams.yaml", "Status osImageStream can be removed", Admitted(&[])),
    ("machineconfigpools_OSStreams.yaml", "Status osImageStream.name must not be empty", LeftToSch(STATUS)),
    ("machineconfigpools_OSStreams.yaml", "Status osImageStream.name should be composed only by lowercase alphanumeric chars, hyphens and dots", LeftToSch(STATUS)),
    ("machineconfigpools_OSStreams.yaml", "Status osImageStream.name must be lowercase", LeftToSch(STATUS)),
    ("machineconfigpools_OSStreams.yaml", "Status osImageStream.name should not exceed 253 characters", LeftToSch(STATUS)),
    // MachineConfiguration bootImageSkewEnforcement.
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should be able to create a minimal MachineConfiguration", Admitted(&[])),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should not be able to create an automatic BootImageSkewEnforcement configuration knob", Caught("S109", "/spec/bootImageSkewEnforcement/mode")),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should be able to create a manual BootImageSkewEnforcement configuration knob with only ocpVersion defined", Admitted(&[])),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should be able to create a manual BootImageSkewEnforcement configuration knob with only rhcosVersion defined", Admitted(&[])),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should not be able to create a manual BootImageSkewEnforcement configuration knob with rhcosVersion defined in OCPVersion mode", Caught("S109", "/spec/bootImageSkewEnforcement/manual/rhcosVersion")),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should not be able to create a manual BootImageSkewEnforcement configuration knob with ocpVersion defined in RHCOSVersion mode", Caught("S109", "/spec/bootImageSkewEnforcement/manual/ocpVersion")),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should not be able to create a manual BootImageSkewEnforcement configuration knob with an invalid ocpVersion", Caught("S109", "/spec/bootImageSkewEnforcement/manual/ocpVersion")),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should not be able to create a manual BootImageSkewEnforcement configuration knob with an invalid rhcosVersion", Caught("S109", "/spec/bootImageSkewEnforcement/manual/rhcosVersion")),
    // mode None is valid; S111 warns that skew is no longer checked.
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should be able to create a None BootImageSkewEnforcement configuration knob", Admitted(&["S111"])),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should not be able to add manual field if bootImageSkewEnforcement.mode is set to None", Caught("S109", "/spec/bootImageSkewEnforcement/manual")),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "manual field should be set if bootImageSkewEnforcement.mode is set to Manual", Caught("S109", "/spec/bootImageSkewEnforcement/mode")),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should not be able to add manual field in status if bootImageSkewEnforcementStatus.mode is set to None", Caught("S109", "/status/bootImageSkewEnforcementStatus/manual")),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should not able to add automatic field in status if bootImageSkewEnforcementStatus.mode is set to None", Caught("S109", "/status/bootImageSkewEnforcementStatus/automatic")),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should be able to add manual field in status if bootImageSkewEnforcementStatus.mode is set to manual", Admitted(&[])),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should not be able to add a rhcosVersion field when bootImageSkewEnforcementStatus.mode.manual.mode is set to OCPVersion", Caught("S109", "/status/bootImageSkewEnforcementStatus/manual/rhcosVersion")),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should not be able to add a ocpVersion field when bootImageSkewEnforcementStatus.mode.manual.mode is set to RHCOSVersion", Caught("S109", "/status/bootImageSkewEnforcementStatus/manual/ocpVersion")),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should be able to add automatic field in status if bootImageSkewEnforcementStatus.mode is set to automatic", Admitted(&[])),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should require boot image configuration to be set to All when bootImageSkewEnforcementStatus.mode is Automatic", Caught("S109", "/spec/managedBootImages/machineManagers/0/selection/mode")),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should not be able to set boot image configuration to an empty list if bootImageSkewEnforcementStatus.mode is set to Automatic", Caught("S109", "/spec/managedBootImages/machineManagers")),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should require boot image configuration status to be set to All when bootImageSkewEnforcementStatus.mode is Automatic", Caught("S109", "/status/managedBootImagesStatus")),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should be able change boot image configuration if bootImageSkewEnforcementStatus.mode is set to Manual", Admitted(&[])),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should be able change boot image configuration if bootImageSkewEnforcementStatus.mode is set to None", Admitted(&["S111"])),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should not be able to update an automatic bootImageSkewEnforcementStatus.mode with an invalid ocpVersion", Caught("S109", "/status/bootImageSkewEnforcementStatus/automatic/ocpVersion")),
    ("machineconfigurations_BootImageSkewEnforcement.yaml", "Should not be able to update an automatic bootImageSkewEnforcementStatus.mode with an invalid rhcosVersion", Caught("S109", "/status/bootImageSkewEnforcementStatus/automatic/rhcosVersion")),
    // MachineConfiguration managedBootImages (MachineSets, then ControlPlaneMachineSets).
    ("machineconfigurations_ManagedBootImages.yaml", "Should be able to create a minimal MachineConfiguration", Admitted(&[])),
    ("machineconfigurations_ManagedBootImages.yaml", "Should be able to create an empty ManagedBootImages configuration knob", Admitted(&[])),
    ("machineconfigurations_ManagedBootImages.yaml", "Should be able to create a ManagedBootImages configuration knob that opts in all MachineSets", Admitted(&[])),
    ("machineconfigurations_ManagedBootImages.yaml", "Should be able to create a ManagedBootImages configuration knob that opts in MachineSets in partial mode", Admitted(&[])),
    ("machineconfigurations_ManagedBootImages.yaml", "Should not be able to add partial field if machineManager.selection.mode is not set to Partial", Caught("S108", "/spec/managedBootImages/machineManagers/0/selection/partial")),
    ("machineconfigurations_ManagedBootImages.yaml", "Only one unique pair of resource/apigroup is allowed in machineManagers", Caught("S108", "/spec/managedBootImages/machineManagers/1")),
    ("machineconfigurations_ManagedBootImagesCPMS.yaml", "Should be able to create a minimal MachineConfiguration", Admitted(&[])),
    ("machineconfigurations_ManagedBootImagesCPMS.yaml", "Should be able to create an empty ManagedBootImages configuration knob", Admitted(&[])),
    ("machineconfigurations_ManagedBootImagesCPMS.yaml", "Should be able to create a ManagedBootImages configuration knob that opts in all ControlPlaneMachineSets", Admitted(&[])),
    ("machineconfigurations_ManagedBootImagesCPMS.yaml", "Should be able to create a ManagedBootImages configuration knob that opts in no ControlPlaneMachineSets", Admitted(&[])),
    ("machineconfigurations_ManagedBootImagesCPMS.yaml", "Should not be able to create a ManagedBootImages configuration knob that opts in ControlPlaneMachineSets in partial mode", Caught("S108", "/spec/managedBootImages/machineManagers/0/selection/mode")),
    ("machineconfigurations_ManagedBootImagesCPMS.yaml", "Only one unique pair of resource/apigroup is allowed in machineManagers", Caught("S108", "/spec/managedBootImages/machineManagers/1")),
    // FeatureGate featureSet.
    ("featuregates_AAA_ungated.yaml", "Should be able to create a minimal FeatureGate", Admitted(&[])),
    ("featuregates_AAA_ungated.yaml", "Can create TechPreview", Admitted(&[])),
    ("featuregates_AAA_ungated.yaml", "Must reject unsupported value of a FeatureGate", Caught("S121", "/spec/featureSet")),
    // Entering a NoUpgrade set is admitted; S122 warns that it is permanent.
    ("featuregates_AAA_ungated.yaml", "Default to TechPreview", Admitted(&["S122"])),
    ("featuregates_AAA_ungated.yaml", "TechPreview to Default", Caught("S121", "/spec/featureSet")),
    ("featuregates_AAA_ungated.yaml", "TechPreview to Removed", Caught("S121", "/spec/featureSet")),
    ("featuregates_AAA_ungated.yaml", "TechPreview to Custom", Caught("S121", "/spec/featureSet")),
    ("featuregates_AAA_ungated.yaml", "Default to Custom", Admitted(&["S122"])),
    ("featuregates_AAA_ungated.yaml", "Custom to Default", Caught("S121", "/spec/featureSet")),
    ("featuregates_AAA_ungated.yaml", "Must reject an update if unsupported value of a FeatureGate is provided", Caught("S121", "/spec/featureSet")),
    // ClusterVersion desiredUpdate (the capability cases are generic CEL, not STR's).
    ("clusterversions_AAA_ungated.yaml", "Should be able to create a minimal ClusterVersion", Admitted(&[])),
    // An image without a version is admitted; S119 notes the version cannot be checked.
    ("clusterversions_AAA_ungated.yaml", "Should allow image to be set", Admitted(&["S119"])),
    ("clusterversions_AAA_ungated.yaml", "Should allow version to be set", Admitted(&[])),
    ("clusterversions_AAA_ungated.yaml", "Should allow architecture to be empty", Admitted(&[])),
    ("clusterversions_AAA_ungated.yaml", "Should allow architecture and version to be set", Admitted(&[])),
    ("clusterversions_AAA_ungated.yaml", "Version must be set if architecture is set", Caught("S118", "/spec/desiredUpdate/architecture")),
    ("clusterversions_AAA_ungated.yaml", "Should not allow image and architecture to be set", Caught("S118", "/spec/desiredUpdate/architecture")),
    ("clusterversions_AAA_ungated.yaml", "Should be able to create a ClusterVersion with base capability None, and additional capabilities baremetal and MachineAPI", Admitted(&[])),
    ("clusterversions_AAA_ungated.yaml", "Should be able to create a ClusterVersion with base capability None, and additional capabilities baremetal without MachineAPI", Admitted(&[])),
    ("clusterversions_AAA_ungated.yaml", "Should be able to create a ClusterVersion with base capability None, and additional capability OperatorLifecycleManagerV1", Admitted(&[])),
    ("clusterversions_AAA_ungated.yaml", "Should be able to create a ClusterVersion with base capability None, and additional capabilities OperatorLifecycleManager and OperatorLifecycleManagerV1", Admitted(&[])),
    ("clusterversions_AAA_ungated.yaml", "Should be able to create a ClusterVersion with base capability None, and additional capabilities marketplace and OperatorLifecycleManager", Admitted(&[])),
    ("clusterversions_AAA_ungated.yaml", "Should not be able to create a ClusterVersion with base capability None, and additional capabilities marketplace without OperatorLifecycleManager", LeftToSch("capability dependencies are a generic CEL rule of the ClusterVersion CRD, not a version transition")),
    ("clusterversions_AAA_ungated.yaml", "Should not allow image to be set if architecture set", Caught("S118", "/spec/desiredUpdate/architecture")),
    ("clusterversions_AAA_ungated.yaml", "Should not allow architecture to be set if image set", Caught("S118", "/spec/desiredUpdate/architecture")),
    ("clusterversions_AAA_ungated.yaml", "Should be able to add the baremetal capability with a ClusterVersion with base capability None, and implicitly enabled MachineAPI", Admitted(&[])),
    ("clusterversions_AAA_ungated.yaml", "Should be able to add the baremetal capability with a ClusterVersion with base capability None, with the Machine API capability", Admitted(&[])),
    ("clusterversions_AAA_ungated.yaml", "Should be able to add the baremetal capability without MachineAPI with a ClusterVersion with base capability None", Admitted(&[])),
    ("clusterversions_AAA_ungated.yaml", "Should be able to add the marketplace capability with a ClusterVersion with base capability None, and implicitly enabled OperatorLifecycleManager", Admitted(&[])),
    ("clusterversions_AAA_ungated.yaml", "Should be able to add the marketplace capability with a ClusterVersion with base capability None, with the OperatorLifecycleManager capability", Admitted(&[])),
    ("clusterversions_AAA_ungated.yaml", "Should not be able to add the marketplace capability with a ClusterVersion with base capability None, and without OperatorLifecycleManager", LeftToSch("capability dependencies are a generic CEL rule of the ClusterVersion CRD, not a version transition")),
];

/// Codes this test judges: the STR rules and the NodePool stream rule they extend.
fn judged(code: &str) -> bool {
    code.starts_with('S') || code == "H108"
}

/// Suite objects have no name; the inventory needs one (singletons use their fixed name).
fn with_name(text: &str) -> String {
    if text.lines().any(|l| l.starts_with("metadata:")) {
        return text.to_string();
    }
    let kind = text
        .lines()
        .find_map(|l| l.strip_prefix("kind:"))
        .map(str::trim)
        .unwrap_or_default();
    let meta = match kind {
        "NodePool" => "metadata:\n  name: workers\n  namespace: clusters\n",
        "MachineConfigPool" => "metadata:\n  name: worker\n",
        "ClusterVersion" => "metadata:\n  name: version\n",
        _ => "metadata:\n  name: cluster\n",
    };
    let mut out = String::new();
    for line in text.lines() {
        out.push_str(line);
        out.push('\n');
        if line.starts_with("kind:") {
            out.push_str(meta);
        }
    }
    out
}

/// The 1-based line of the key at `pointer` (or its deepest existing ancestor) in `text`.
fn line_of(text: &str, pointer: &str) -> u32 {
    let parsed = nodecast_yaml::parse(text, &nodecast_yaml::Options::default());
    let root = parsed.documents[0].root();
    let mut node = root;
    let mut line = root.span().start.line;
    for key in pointer.split('/').skip(1) {
        if let Some(e) = node.entry(key) {
            line = e.key.span().start.line;
            node = e.value;
        } else if let Some(item) = key
            .parse::<usize>()
            .ok()
            .and_then(|i| node.as_seq()?.get(i))
        {
            line = item.span().start.line;
            node = item;
        } else {
            break;
        }
    }
    line
}

struct Case {
    suite: String,
    name: String,
    initial: String,
    updated: Option<String>,
}

/// The suites of `TABLE`, under `testdata/schema-oracle/` (shared with `schema_oracle.rs`, so an
/// upstream refresh is made once), sorted by file name.
const SUITES: &[&str] = &[
    "openshift/clusterversions_AAA_ungated.yaml",
    "hypershift/featuregated.nodepools.osimagestream.testsuite.yaml",
    "openshift/featuregates_AAA_ungated.yaml",
    "openshift/machineconfigpools_OSStreams.yaml",
    "openshift/machineconfigurations_BootImageSkewEnforcement.yaml",
    "openshift/machineconfigurations_ManagedBootImages.yaml",
    "openshift/machineconfigurations_ManagedBootImagesCPMS.yaml",
];

fn cases() -> Vec<Case> {
    let dir = project_root().join("testdata/schema-oracle");
    let mut out = Vec::new();
    for suite in SUITES {
        let file = dir.join(suite);
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let parsed = nodecast_yaml::parse(&text, &nodecast_yaml::Options::default());
        let suite: Value = parsed.documents[0].root().to_json();
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        for phase in ["onCreate", "onUpdate"] {
            for c in suite["tests"][phase].as_array().into_iter().flatten() {
                out.push(Case {
                    suite: name.to_string(),
                    name: c["name"].as_str().unwrap_or_default().to_string(),
                    initial: c["initial"].as_str().unwrap_or_default().to_string(),
                    updated: c["updated"].as_str().map(str::to_string),
                });
            }
        }
    }
    out
}

fn run_case(dir: &Path, case: &Case) -> (Value, String) {
    let (before, after) = match &case.updated {
        Some(u) => (Some(with_name(&case.initial)), with_name(u)),
        None => (None, with_name(&case.initial)),
    };
    std::fs::create_dir_all(dir.join("after")).expect("mkdir");
    std::fs::write(dir.join("after/object.yaml"), &after).expect("write");
    let mut args = vec!["check"];
    if let Some(b) = &before {
        std::fs::create_dir_all(dir.join("before")).expect("mkdir");
        std::fs::write(dir.join("before/object.yaml"), b).expect("write");
        args.extend(["--base-dir", "before", "after"]);
    } else {
        args.extend(["--no-base", "after"]);
    }
    // The suites judge the updated object as the API server does, whatever the initial one had.
    args.extend(["--format", "json", "--all"]);
    let run = nodecast(dir, &args);
    assert_ne!(run.code, 2, "{}: {}", case.name, run.stderr);
    (run.json(), after)
}

#[test]
fn every_api_validation_case_is_judged_at_the_right_field() {
    let all = cases();
    assert!(all.len() >= 80, "suites hold {} cases", all.len());
    let mut failures = Vec::new();
    let (mut caught, mut admitted, mut sch) = (0, 0, 0);
    for case in &all {
        let Some((_, _, expect)) = TABLE
            .iter()
            .find(|(s, n, _)| *s == case.suite && *n == case.name)
        else {
            failures.push(format!("{} / {}: not in the table", case.suite, case.name));
            continue;
        };
        let tmp = tempfile::tempdir().expect("tempdir");
        let (report, after) = run_case(tmp.path(), case);
        let diags: Vec<(String, String, u64)> = report["diagnostics"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| judged(d["code"].as_str().unwrap_or_default()))
            .map(|d| {
                (
                    d["code"].as_str().unwrap_or_default().to_string(),
                    d["severity"].as_str().unwrap_or_default().to_string(),
                    d["line"].as_u64().unwrap_or(0),
                )
            })
            .collect();
        match expect {
            Caught(code, pointer) => {
                caught += 1;
                let line = u64::from(line_of(&after, pointer));
                if !diags
                    .iter()
                    .any(|(c, s, l)| c == code && s == "error" && *l == line)
                {
                    failures.push(format!(
                        "{} / {}: expected {code} error at line {line} ({pointer}), got {diags:?}",
                        case.suite, case.name
                    ));
                }
            }
            Admitted(allowed) => {
                admitted += 1;
                let unexpected: Vec<_> = diags
                    .iter()
                    .filter(|(c, _, _)| !allowed.contains(&c.as_str()))
                    .collect();
                if !unexpected.is_empty() {
                    failures.push(format!(
                        "{} / {}: admitted by the API, but nodecast reports {unexpected:?}",
                        case.suite, case.name
                    ));
                }
                for code in *allowed {
                    if !diags.iter().any(|(c, _, _)| c == code) {
                        failures.push(format!(
                            "{} / {}: expected the advisory {code}, got {diags:?}",
                            case.suite, case.name
                        ));
                    }
                }
            }
            LeftToSch(reason) => {
                sch += 1;
                assert!(!reason.is_empty());
            }
        }
    }
    for (s, n, _) in TABLE {
        if !all.iter().any(|c| c.suite == *s && c.name == *n) {
            failures.push(format!("{s} / {n}: in the table but not in the suites"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!((caught, admitted, sch), (37, 46, 6));
}

fn hosted(release: &str) -> String {
    format!(
        "apiVersion: hypershift.openshift.io/v1beta1\nkind: HostedCluster\nmetadata:\n  name: prod\n  namespace: clusters\nspec:\n  release:\n    image: quay.io/openshift-release-dev/ocp-release:{release}-x86_64\n  platform:\n    type: AWS\n    aws:\n      region: us-east-1\n"
    )
}

fn in_place_pool(release: &str, pin: Option<&str>) -> String {
    let mut s = format!(
        "apiVersion: hypershift.openshift.io/v1beta1\nkind: NodePool\nmetadata:\n  name: workers\n  namespace: clusters\nspec:\n  clusterName: prod\n  replicas: 2\n  release:\n    image: quay.io/openshift-release-dev/ocp-release:{release}-x86_64\n  management:\n    upgradeType: InPlace\n  platform:\n    type: AWS\n    aws:\n      instanceType: m6i.xlarge\n"
    );
    if let Some(p) = pin {
        s.push_str(&format!("  osImageStream:\n    name: {p}\n"));
    }
    s
}

/// In a real Git repository: upgrading an unpinned InPlace NodePool from 4.22 to 5.0 rolls it in
/// place and moves its nodes to RHEL 10 (S104, at the release line); pinning rhel-9 in the same
/// commit keeps RHEL 9 and raises nothing about streams.
#[test]
fn unpinned_upgrade_to_five_changes_the_os_and_pinning_fixes_it() {
    let repo = common::Repo::new();
    repo.write("clusters/hc.yaml", &hosted("5.0.0"));
    repo.write("clusters/np.yaml", &in_place_pool("4.22.3", None));
    repo.commit("4.22 NodePool under a 5.0 control plane");
    repo.write("clusters/np.yaml", &in_place_pool("5.0.0", None));
    repo.commit("upgrade");
    let r = nodecast(
        repo.path(),
        &[
            "check",
            "--base",
            "HEAD^",
            "--format",
            "json",
            "--now",
            "2026-11-21T12:00:00Z",
            // The manifests are stubs for the stream semantics; schemas have their own tests.
            "--no-schema",
        ],
    )
    .json();
    assert_eq!(
        common::diag_lines(&r),
        vec!["S104 warning clusters/np.yaml:10:5"]
    );
    assert_eq!(r["forecast"][0]["action"], "in-place");
    let message = r["diagnostics"][0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("RHEL 9 → RHEL 10"), "{message}");

    repo.write("clusters/np.yaml", &in_place_pool("5.0.0", Some("rhel-9")));
    repo.commit("upgrade, pinned");
    let r = nodecast(
        repo.path(),
        &[
            "check",
            "--base",
            "HEAD~2",
            "--format",
            "json",
            "--now",
            "2026-11-21T12:00:00Z",
            // The manifests are stubs for the stream semantics; schemas have their own tests.
            "--no-schema",
        ],
    )
    .json();
    assert_eq!(common::diag_lines(&r), Vec::<String>::new());
    assert_eq!(r["forecast"][0]["action"], "in-place");
}
