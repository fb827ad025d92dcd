//! Findings about one NodePool: what makes the controller refuse it (blocked), and what it warns
//! about (`spec.config` documents, OS streams, rollout settings, versions, pauses).

use crate::forecast::hypershift::codes;
use nodecast_yaml::Node;

use super::compare::IMMUTABLE;
use super::inputs::Side;
use super::locate;
use super::paused::{self, Pause};
use super::shape::{self, Strategy};
use super::version::{self, Release};
use crate::diagnostic::{Diagnostic, Location, Severity};
use crate::forecast::Input;

/// The findings about a NodePool and whether the controller refuses its new configuration.
#[derive(Debug, Default)]
pub struct Verdict {
    /// Findings.
    pub diagnostics: Vec<Diagnostic>,
    /// Whether nothing rolls until the problem is fixed.
    pub blocked: bool,
}

impl Verdict {
    fn block(&mut self, d: Diagnostic) {
        self.blocked = true;
        self.diagnostics.push(d);
    }
}

/// The span of a value (or its deepest existing ancestor key) in the NodePool, on the head side.
fn head_at(side: &Side<'_>, path: &[&str]) -> Location {
    let root = side.np.root();
    let span = root
        .path(path)
        .map(|n| n.span())
        .unwrap_or_else(|| locate::key_span(root, &format!("/{}", path.join("/"))));
    side.np.head_location(span)
}

const RELEASE: [&str; 3] = ["spec", "release", "image"];

/// Checks a NodePool's head revision (and its transition from base, when there is one).
pub fn nodepool(input: &Input<'_>, b: Option<&Side<'_>>, h: &Side<'_>) -> Verdict {
    let mut v = Verdict::default();
    let np = h.np.id.to_string();
    for inv in &h.invalid {
        v.block(
            Diagnostic::new(
                &codes::H101,
                format!("NodePool {} rolls out nothing: {}", h.np.id.name, inv.message),
                Location::head(&inv.path, inv.span),
            )
            .label("refused by the NodePool controller")
            .help("spec.config accepts MachineConfig, KubeletConfig, ContainerRuntimeConfig, ImageContentSourcePolicy, ImageDigestMirrorSet and ClusterImagePolicy; spec.tuningConfig exactly one Tuned or PerformanceProfile per ConfigMap")
            .note("the controller sets ValidMachineConfig=False (or ValidTuningConfig=False) and stops reconciling the NodePool")
            .object(inv.cm.to_string()),
        );
    }
    if h.unreadable_config {
        v.blocked = true;
    }
    if let Some(b) = b {
        references(&mut v, b, h, &np);
    }
    versions(&mut v, b, h, &np);
    streams(&mut v, b, h, &np);
    v.diagnostics
        .extend(super::os_stream::findings(input, b, h));
    strategy(&mut v, h, &np);
    if b.is_some() {
        immutable(&mut v, input, h, &np);
    }
    pause(&mut v, input, h, &np);
    v
}

fn references(v: &mut Verdict, b: &Side<'_>, h: &Side<'_>, np: &str) {
    for r in h.refs.iter().filter(|r| !r.resolved) {
        let field = if r.key == "config" {
            "spec.config"
        } else {
            "spec.tuningConfig"
        };
        let loc = h.np.head_location(r.span);
        match b.refs.iter().find(|x| x.key == r.key && x.name == r.name) {
            Some(x) if x.resolved => v.block(
                Diagnostic::new(
                    &codes::H102,
                    format!(
                        "NodePool {} rolls out nothing: this change deletes ConfigMap `{}`, which its {field} still references",
                        h.np.id.name, r.name
                    ),
                    loc,
                )
                .label("deleted in this change")
                .help(format!("keep ConfigMap `{}`, or remove it from {field} in the same change", r.name))
                .note("a missing ConfigMap sets ValidMachineConfig=False and the controller stops reconciling the NodePool")
                .object(np),
            ),
            Some(_) => {}
            None => v.diagnostics.push(
                Diagnostic::new(
                    &codes::H102,
                    format!(
                        "NodePool {} now references ConfigMap `{}`, which is not in the repository: its content is unknown, so a rollout is assumed",
                        h.np.id.name, r.name
                    ),
                    loc,
                )
                .severity(Severity::Warning)
                .label("not in the repository")
                .help(format!("add ConfigMap `{}` to the repository so its effect can be forecast, or fix the name", r.name))
                .object(np),
            ),
        }
    }
}

fn versions(v: &mut Verdict, b: Option<&Side<'_>>, h: &Side<'_>, np: &str) {
    let skip =
        h.hc.and_then(|hc| {
            super::template::annotation(
                hc.root(),
                "hypershift.openshift.io/skip-release-image-validation",
            )
        })
        .is_some_and(|s| s == "true");
    if let Some(b) = b {
        let unreadable = |r: &Release| matches!(r, Release::Unreadable(_));
        // A placeholder (`<path:…>`, `{{ … }}`) is reported by R104 as a templated value.
        let templated = |r: &Release| matches!(r, Release::Unreadable(s) if crate::placeholder::is_templated(s));
        if b.release.hash_input() != h.release.hash_input()
            && (unreadable(&b.release) || unreadable(&h.release))
            && !templated(&b.release)
            && !templated(&h.release)
        {
            v.diagnostics.push(
                Diagnostic::new(
                    &codes::H105,
                    format!(
                        "NodePool {} release changed and its version cannot be read from the pullspec: a rollout is predicted",
                        h.np.id.name
                    ),
                    head_at(h, &RELEASE),
                )
                .label("version not readable")
                .help("use a pullspec with the version tag (`…:4.18.9-x86_64`, optionally with `@sha256:…`) so the version can be compared")
                .note("the config hash uses the payload version, not the pullspec: a tag → digest change of the same payload would not roll nodes, but nodecast cannot tell")
                .object(np),
            );
        }
    }
    let Some(npv) = h.release.version() else {
        return;
    };
    let hcv = h.hc_release.version();
    if !skip {
        let base_v = b.and_then(|b| b.release.version());
        if let Some((why, fix)) = version::rejection_with_fix(npv, base_v, hcv) {
            v.block(
                Diagnostic::new(
                    &codes::H106,
                    format!("NodePool {} rolls out nothing: {why}", h.np.id.name),
                    head_at(h, &RELEASE),
                )
                .label("rejected release")
                .help(fix)
                .note("the controller sets ValidReleaseImage=False and does not roll the NodePool")
                .object(np),
            );
            return;
        }
    }
    if let Some((warn, msg)) = hcv.and_then(|hcv| version::skew(npv, hcv)) {
        let mut d = Diagnostic::new(&codes::H107, msg, head_at(h, &RELEASE))
            .label("version skew")
            .help("keep NodePools at or below the HostedCluster's version and within 3 minors of it")
            .note("the controller reports SupportedVersionSkew=False (reason UnsupportedSkew) but still reconciles")
            .object(np);
        if !warn {
            d = d.severity(Severity::Info);
        }
        v.diagnostics.push(d);
    }
}

fn streams(v: &mut Verdict, b: Option<&Side<'_>>, h: &Side<'_>, np: &str) {
    let stream_of = |s: &Side<'_>| {
        s.np.root()
            .path(&["spec", "osImageStream", "name"])
            .and_then(Node::as_str)
            .map(str::to_string)
    };
    let head = stream_of(h);
    let base = b.and_then(stream_of);
    let loc = head_at(h, &["spec", "osImageStream", "name"]);
    let mut block = |msg: String, help: &str| {
        v.block(
            Diagnostic::new(
                &codes::H108,
                format!("NodePool {} rolls out nothing: {msg}", h.np.id.name),
                loc.clone(),
            )
            .label("invalid OS stream")
            .help(help.to_string())
            .object(np),
        )
    };
    if let (Some(bs), None) = (&base, &head) {
        block(
            format!("osImageStream `{bs}` is removed, which the API server rejects once it is set"),
            "keep spec.osImageStream, or create a new NodePool",
        );
        return;
    }
    let Some(name) = head else { return };
    if base.as_deref() == Some("rhel-10") && name == "rhel-9" {
        block(
            "osImageStream rhel-10 → rhel-9 is a downgrade the API server rejects".into(),
            "create a new NodePool on rhel-9 instead",
        );
        return;
    }
    if name != "rhel-9" && name != "rhel-10" {
        block(
            format!("osImageStream `{name}` is not a known stream (rhel-9, rhel-10)"),
            "use rhel-9 or rhel-10",
        );
        return;
    }
    if name == "rhel-10" {
        if h.release.version().is_some_and(|r| r.major < 5) {
            block(
                format!(
                    "osImageStream rhel-10 needs release 5.0 or later, not {}",
                    h.release.describe()
                ),
                "remove osImageStream or use rhel-9 until the NodePool runs 5.x",
            );
        } else if h.uses_runc {
            block(
                "osImageStream rhel-10 cannot run the runc runtime its ContainerRuntimeConfig selects".into(),
                "drop the runc ContainerRuntimeConfig or stay on rhel-9",
            );
        }
    }
}

fn strategy(v: &mut Verdict, h: &Side<'_>, np: &str) {
    let root = h.np.root();
    if root
        .path(&["spec", "management", "upgradeType"])
        .and_then(Node::as_str)
        == Some("InPlace")
    {
        return;
    }
    let nodes = shape::size(root).map(|s| s.nodes).unwrap_or(0);
    if let Strategy::Invalid(why) = shape::replace_strategy(root, nodes) {
        v.block(
            Diagnostic::new(
                &codes::H109,
                format!("NodePool {} rolls out nothing: {why}", h.np.id.name),
                h.np.head_location(locate::key_span(root, "/spec/management/replace")),
            )
            .label("invalid Replace strategy")
            .help("set management.replace.rollingUpdate (maxSurge and maxUnavailable, not both 0), or strategy: OnDelete")
            .note("the controller sets UpdateManagementEnabled=False and updates no machines")
            .object(np),
        );
        return;
    }
    if let Some((surge, unavailable)) = shape::both_zero(root) {
        // Not a block: HyperShift admits it, and which of Cluster API's behaviours applies is
        // not in the repository; the forecast keeps the rollout it may start.
        v.diagnostics.push(
            Diagnostic::new(
                &codes::H109,
                format!(
                    "NodePool {}: maxSurge and maxUnavailable are both 0, which the NodePool API documents as invalid",
                    h.np.id.name
                ),
                h.np.head_location(surge.span()),
            )
            .label("maxSurge 0")
            .related(
                h.np.head_location(unavailable.span()),
                "maxUnavailable 0",
            )
            .help("set maxSurge: 1 (new machines first) or maxUnavailable: 1 (one machine down at a time)")
            .note("HyperShift validates only the strategy (RollingUpdate needs rollingUpdate) and copies both values to the MachineDeployment. Cluster API's MachineDeployment webhook rejects integer 0/0 from v1.11 on, where it is registered (the update is refused and nothing rolls); without it, and in earlier versions, the controller resolves 0/0 to maxUnavailable 1: machines are replaced one at a time with no surge, each drained first. nodecast forecasts that rollout")
            .object(np),
        );
    }
}

fn immutable(v: &mut Verdict, input: &Input<'_>, h: &Side<'_>, np: &str) {
    let Some(change) = input.diff.change_of(&h.np.id) else {
        return;
    };
    for f in &change.fields {
        let Some(field) = IMMUTABLE
            .iter()
            .find(|p| f.path == **p || f.path.starts_with(&format!("{p}/")))
        else {
            continue;
        };
        let loc = match &f.after {
            Some(_) => h.np.head_location(locate::field_span(h.np, &f.path)),
            None => f
                .head
                .clone()
                .unwrap_or_else(|| Location::head_file(&h.np.path)),
        };
        v.block(
            Diagnostic::new(
                &codes::H110,
                format!(
                    "NodePool {} cannot be updated: `{}` is immutable and the API server rejects the change",
                    h.np.id.name,
                    field.trim_start_matches('/').replace('/', ".")
                ),
                loc,
            )
            .label("immutable")
            .help("restore the old value; to change it, create a new NodePool and move the workload")
            .object(np),
        );
    }
}

fn pause(v: &mut Verdict, input: &Input<'_>, h: &Side<'_>, np: &str) {
    let value = h.np.root().path(&["spec", "pausedUntil"]);
    let Some(text) = value.and_then(Node::key_text) else {
        return;
    };
    let Pause::Invalid { admitted } = paused::read(Some(text), input.settings.now) else {
        return;
    };
    let loc = head_at(h, &["spec", "pausedUntil"]);
    let d = Diagnostic::new(
        &codes::H112,
        if admitted {
            format!("NodePool {} is not paused: pausedUntil `{text}` is neither true/false nor an RFC 3339 time with a zone", h.np.id.name)
        } else {
            format!("NodePool {} cannot be updated: the API server rejects pausedUntil `{text}`", h.np.id.name)
        },
        loc,
    )
    .label("not a pause the controller understands")
    .help("write `true`, `false`, or an RFC 3339 time with a zone, e.g. 2026-12-01T02:00:00Z")
    .note("the controller reports ReconciliationActive=True with reason InvalidPausedUntilValue and keeps reconciling")
    .object(np);
    if admitted {
        v.diagnostics.push(d);
    } else {
        v.block(d.severity(Severity::Error));
    }
}
