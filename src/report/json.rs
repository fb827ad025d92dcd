//! The JSON report, contract `nodecast/report/v1` (docs/json-report.md), as types: serializing a
//! [`Report`] is the report, and [`schema`] derives its JSON Schema from the same types, so the
//! two cannot drift. Fields are only ever added; field order is declaration order.

use schemars::JsonSchema;
use serde::Serialize;

use crate::check::Outcome;
use crate::diagnostic::{Diagnostic, Location};
use crate::source::SnapshotInfo;

/// The contract identifier.
pub const SCHEMA: &str = "nodecast/report/v1";

/// Where the committed schema lives in the repository (`$id` of the generated schema).
pub const SCHEMA_PATH: &str = "schemas/nodecast/report.schema.json";

/// The whole report: what `--format json` prints.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(
    title = "nodecast report",
    description = "The JSON report of `nodecast check --format json` (contract nodecast/report/v1): fields and values are only ever added.",
    extend("$id" = format!("https://github.com/nodecast/nodecast/blob/main/{SCHEMA_PATH}"))
)]
pub struct Report<'a> {
    /// The contract identifier, `nodecast/report/v1`.
    #[schemars(extend("const" = SCHEMA))]
    pub schema: &'static str,
    /// The two revisions compared.
    pub compared: Compared<'a>,
    /// The `--now` time (RFC 3339), null when the clock was read.
    #[schemars(extend("format" = "date-time"))]
    pub now: Option<String>,
    /// One entry per pool whose rollout inputs changed, strongest action first.
    pub forecast: Vec<PoolForecast<'a>>,
    /// Changed objects that may affect nodes and that no model covers yet (assume a rollout).
    pub unforecast: Vec<String>,
    /// Every changed object.
    pub changes: Vec<Change<'a>>,
    /// Each changed file that could not be read on one side or both.
    pub unreadable: Vec<UnreadableFile<'a>>,
    /// The findings, in reading order (pre-existing ones only with `--all`).
    pub diagnostics: Vec<Finding<'a>>,
    /// Counts over the whole run.
    pub summary: Summary,
}

/// What was compared with what (`compared`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct Compared<'a> {
    /// The base revision.
    pub base: Snapshot<'a>,
    /// The head revision.
    pub head: Snapshot<'a>,
}

/// One compared revision.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Snapshot<'a> {
    /// Where the revision was read from.
    pub source: Source,
    /// The full commit id, null when the revision is not a commit.
    pub rev: Option<&'a str>,
    /// A human label, e.g. `HEAD^ (1a2b3c4)` or `working tree`.
    pub label: &'a str,
}

/// Where a compared revision was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// A Git commit.
    Git,
    /// The Git index (`--staged`).
    Index,
    /// The working tree.
    Worktree,
    /// A plain directory (`--base-dir`).
    Dir,
    /// Nothing (`--no-base`).
    None,
}

/// One pool whose rollout inputs changed (`forecast[]`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct PoolForecast<'a> {
    /// The pool.
    pub target: Target<'a>,
    /// What happens to its nodes.
    pub action: Action,
    /// Whether its nodes are drained.
    pub drain: bool,
    /// How many nodes, null when not known.
    pub nodes: Option<u32>,
    /// Why, each with its exact place.
    pub causes: Vec<Cause<'a>>,
    /// When the action may start.
    pub when: When<'a>,
    /// How the rollout proceeds, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Rollout<'a>")]
    pub rollout: Option<Rollout<'a>>,
    /// The rollout fingerprints of both revisions, when the model computes them.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "RolloutFingerprint<'a>")]
    pub fingerprint: Option<RolloutFingerprint<'a>>,
}

/// Which pool a forecast entry is about.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Target<'a> {
    /// The cluster the pool belongs to (its HostedCluster, folder or wrapping object).
    pub cluster: &'a str,
    /// The pool's kind.
    #[schemars(extend("enum" = ["NodePool", "MachineConfigPool"]))]
    pub kind: &'a str,
    /// The pool's namespace (NodePools), null for cluster-scoped pools.
    pub namespace: Option<&'a str>,
    /// The pool's name.
    pub name: &'a str,
}

/// The node action, strongest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// The controller refuses the new configuration and rolls out nothing.
    Blocked,
    /// A change nodecast cannot read may reach the pool: assume a drained rollout.
    Unknown,
    /// New machines replace the old ones (HyperShift Replace).
    Replace,
    /// Nodes are updated in place (HyperShift InPlace).
    InPlace,
    /// Drain and reboot.
    Reboot,
    /// Drain, no reboot.
    Drain,
    /// A service restarts, no drain.
    Restart,
    /// A service reloads, no drain.
    Reload,
    /// Nothing happens to nodes.
    None,
}

/// One reason for the action.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Cause<'a> {
    /// The changed object, `Kind/namespace/name`.
    pub object: &'a str,
    /// The JSON pointer of the changed field.
    pub field: &'a str,
    /// The repository-relative file, `/`-separated.
    pub file: &'a str,
    /// The 1-based line.
    #[schemars(range(min = 1))]
    pub line: u32,
    /// The 1-based column.
    #[schemars(range(min = 1))]
    pub column: u32,
    /// What changed, in words.
    pub summary: &'a str,
}

/// When the action may start.
#[derive(Debug, Serialize, JsonSchema)]
pub struct When<'a> {
    /// As soon as it syncs, after a pause, in the next maintenance window, or never.
    #[schemars(extend("enum" = ["now", "paused", "window", "never"]))]
    pub state: &'a str,
    /// When it may start (RFC 3339), null when not known or not bounded.
    #[schemars(extend("format" = "date-time"))]
    pub at: Option<&'a str>,
    /// Why, in words.
    pub reason: &'a str,
    /// The permitted windows of the pool's policy in the next 7 days.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub windows: Vec<Window<'a>>,
}

/// One permitted maintenance window, in UTC.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Window<'a> {
    /// The start (RFC 3339).
    #[schemars(extend("format" = "date-time"))]
    pub start: &'a str,
    /// The end (RFC 3339).
    #[schemars(extend("format" = "date-time"))]
    pub end: &'a str,
}

/// How a rollout proceeds.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Rollout<'a> {
    /// Extra machines created at a time (HyperShift Replace).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u32")]
    pub max_surge: Option<u32>,
    /// Nodes unavailable at a time.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u32")]
    pub max_unavailable: Option<u32>,
    /// The number of waves, when the node count is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u32")]
    pub waves: Option<u32>,
    /// In words, e.g. "3 nodes, 1 at a time: 3 waves".
    pub summary: &'a str,
}

/// The sha256 of the normalised rollout inputs of each revision.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RolloutFingerprint<'a> {
    /// In base, null when the pool is not there.
    pub base: Option<&'a str>,
    /// In head, null when the pool is not there.
    pub head: Option<&'a str>,
}

/// One changed object (`changes[]`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct Change<'a> {
    /// The object, `Kind/namespace/name` or `Kind/name`.
    pub object: String,
    /// What happened to it.
    pub change: ChangeKind,
    /// Its file in base, null when it is not in base.
    pub base_file: Option<&'a str>,
    /// Its file in head, null when it is not in head.
    pub file: Option<&'a str>,
    /// The overlay or wrapper it reaches the cluster through, null for a plain file.
    pub origin: Option<String>,
    /// The cluster grouping of that overlay or wrapper, null for a plain file.
    pub group: Option<String>,
    /// Why it reaches no node, null when nodecast cannot say so.
    pub no_node_impact: Option<&'a str>,
    /// The changed fields (empty for added and removed objects).
    pub fields: Vec<ChangedField<'a>>,
}

/// What happened to a changed object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ChangeKind {
    /// Only in head.
    Added,
    /// Only in base.
    Removed,
    /// In both, different.
    Changed,
    /// Its file could not be read on one side or both.
    Unreadable,
}

/// One changed field of a changed object.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ChangedField<'a> {
    /// The JSON pointer of the field (inside embedded documents `/data/config[Kind name]/…`).
    pub path: &'a str,
    /// The head file, null when the field is not in head.
    pub file: Option<&'a str>,
    /// The 1-based head line, null when not known.
    #[schemars(range(min = 1))]
    pub line: Option<u32>,
    /// The 1-based head column, null when not known.
    #[schemars(range(min = 1))]
    pub column: Option<u32>,
    /// The base file, null when the field is not in base.
    pub base_file: Option<&'a str>,
    /// The 1-based base line, null when not known.
    #[schemars(range(min = 1))]
    pub base_line: Option<u32>,
    /// The 1-based base column, null when not known.
    #[schemars(range(min = 1))]
    pub base_column: Option<u32>,
    /// The base value, short and redacted; null when the field was added.
    pub before: Option<&'a str>,
    /// The head value, short and redacted; null when the field was removed.
    pub after: Option<&'a str>,
    /// A unified diff of a changed multi-line payload, else null.
    pub text_diff: Option<&'a str>,
}

/// One changed file that could not be read (`unreadable[]`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct UnreadableFile<'a> {
    /// The repository-relative file.
    pub file: &'a str,
    /// Why base could not be read, null when it was read or there is no base file.
    pub base: Option<&'a str>,
    /// Why head could not be read, null when it was read or there is no head file.
    pub head: Option<&'a str>,
    /// The 1-based line of the problem, null when not known.
    #[schemars(range(min = 1))]
    pub line: Option<u32>,
    /// The 1-based column of the problem, null when not known.
    #[schemars(range(min = 1))]
    pub column: Option<u32>,
}

/// One finding (`diagnostics[]`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct Finding<'a> {
    /// The stable rule code (`nodecast explain CODE`).
    #[schemars(regex(pattern = r"^[A-Z][0-9]{3}$"))]
    pub code: &'a str,
    /// How serious it is.
    pub severity: Severity,
    /// The one-line summary.
    pub message: &'a str,
    /// The repository-relative file.
    pub file: &'a str,
    /// The 1-based first line, null when the finding is about the whole file.
    #[schemars(range(min = 1))]
    pub line: Option<u32>,
    /// The 1-based first column, null when not known.
    #[schemars(range(min = 1))]
    pub column: Option<u32>,
    /// The 1-based line just after the range, null when not known.
    #[schemars(range(min = 1))]
    pub end_line: Option<u32>,
    /// The 1-based column just after the range, null when not known.
    #[schemars(range(min = 1))]
    pub end_column: Option<u32>,
    /// The object concerned, null when the finding is about no object.
    pub object: Option<&'a str>,
    /// How to fix it, null when there is nothing more to say.
    pub help: Option<&'a str>,
    /// The rule's documentation page.
    #[schemars(extend("format" = "uri"))]
    pub url: String,
    /// Whether the change brought it.
    pub state: FindingState,
    /// Why the rule fired, as notes.
    pub notes: &'a [String],
    /// Other places involved.
    pub related: Vec<Related<'a>>,
    /// The stable identity of the finding (rule code, object, field path), as in baselines and SARIF.
    pub fingerprint: String,
}

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    /// Wrong: the cluster would reject or misapply it.
    Error,
    /// Probably wrong, or risky.
    Warning,
    /// Worth knowing.
    Info,
}

/// Whether the compared change brought a finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FindingState {
    /// The base revision does not have it.
    New,
    /// The base revision has it too, and the change edited its place.
    Changed,
    /// The base revision has it and the change did not touch its place (listed only with `--all`).
    PreExisting,
}

/// Another place a finding involves.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Related<'a> {
    /// The repository-relative file.
    pub file: &'a str,
    /// Which revision the file is read from.
    pub revision: Revision,
    /// The 1-based first line, null when not known.
    #[schemars(range(min = 1))]
    pub line: Option<u32>,
    /// The 1-based first column, null when not known.
    #[schemars(range(min = 1))]
    pub column: Option<u32>,
    /// The 1-based line just after the range, null when not known.
    #[schemars(range(min = 1))]
    pub end_line: Option<u32>,
    /// The 1-based column just after the range, null when not known.
    #[schemars(range(min = 1))]
    pub end_column: Option<u32>,
    /// What that place is.
    pub message: &'a str,
}

/// A compared revision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Revision {
    /// The base revision.
    Base,
    /// The head revision.
    Head,
}

/// Counts over the whole run (`summary`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct Summary {
    /// Files read in head.
    pub files: usize,
    /// Objects in head.
    pub objects: usize,
    /// Error findings the change introduces.
    pub errors: usize,
    /// Warning findings the change introduces.
    pub warnings: usize,
    /// Info findings the change introduces.
    pub infos: usize,
    /// Forecast entries whose action is not `none`.
    pub disruptive: usize,
    /// Findings the base revision already had (listed only with `--all`).
    pub pre_existing: usize,
}

/// Builds the report of a run.
pub fn report(o: &Outcome) -> Report<'_> {
    let counts = super::counts(o);
    Report {
        schema: SCHEMA,
        compared: Compared {
            base: snapshot(&o.base_info),
            head: snapshot(&o.head_info),
        },
        // The wall clock is never printed: identical inputs give byte-identical reports.
        now: o.now_given.then(|| o.now.to_string()),
        forecast: o.forecast.iter().map(pool_forecast).collect(),
        unforecast: o.unforecast.iter().map(|id| id.to_string()).collect(),
        changes: changes(o),
        unreadable: o
            .diff
            .unreadable
            .iter()
            .map(|u| UnreadableFile {
                file: &u.path,
                base: u.base.as_deref(),
                head: u.head.as_deref(),
                line: u.location.span.map(|s| s.start.line),
                column: u.location.span.map(|s| s.start.col),
            })
            .collect(),
        diagnostics: o
            .diagnostics
            .iter()
            .map(|d| {
                // The stable identity SARIF and the baseline use (code, object, field path).
                finding(d, crate::fingerprint::of(d, &o.files.base, &o.files.head))
            })
            .collect(),
        summary: Summary {
            files: counts.files,
            objects: counts.objects,
            errors: counts.errors,
            warnings: counts.warnings,
            infos: counts.infos,
            disruptive: counts.disruptive,
            pre_existing: counts.pre_existing,
        },
    }
}

/// The report as `--format json` prints it: pretty JSON and a final newline.
pub fn render(o: &Outcome) -> Result<String, serde_json::Error> {
    let mut text = serde_json::to_string_pretty(&report(o))?;
    text.push('\n');
    Ok(text)
}

/// The JSON Schema of the report, generated from [`Report`] (committed as [`SCHEMA_PATH`]).
pub fn schema() -> Result<String, serde_json::Error> {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    let mut text = serde_json::to_string_pretty(&generator.into_root_schema_for::<Report<'_>>())?;
    text.push('\n');
    Ok(text)
}

fn snapshot(info: &SnapshotInfo) -> Snapshot<'_> {
    use crate::source::SourceKind;
    Snapshot {
        source: match info.kind {
            SourceKind::Git => Source::Git,
            SourceKind::Index => Source::Index,
            SourceKind::Worktree => Source::Worktree,
            SourceKind::Dir => Source::Dir,
            SourceKind::None => Source::None,
        },
        rev: info.rev.as_deref(),
        label: &info.label,
    }
}

/// A forecast entry in the contract's shape. Destructured in full, so a field added to
/// [`crate::forecast::Impact`] does not compile until the contract says whether it shows it.
fn pool_forecast(impact: &crate::forecast::Impact) -> PoolForecast<'_> {
    use crate::forecast::Action as A;
    let crate::forecast::Impact {
        target,
        action,
        drain,
        nodes,
        causes,
        when,
        rollout,
        fingerprint,
    } = impact;
    let crate::forecast::When {
        state,
        at,
        reason,
        windows,
    } = when;
    PoolForecast {
        target: Target {
            cluster: &target.cluster,
            kind: &target.kind,
            namespace: target.namespace.as_deref(),
            name: &target.name,
        },
        action: match action {
            A::Blocked => Action::Blocked,
            A::Unknown => Action::Unknown,
            A::Replace => Action::Replace,
            A::InPlace => Action::InPlace,
            A::Reboot => Action::Reboot,
            A::Drain => Action::Drain,
            A::Restart => Action::Restart,
            A::Reload => Action::Reload,
            A::None => Action::None,
        },
        drain: *drain,
        nodes: *nodes,
        causes: causes
            .iter()
            .map(|c| {
                let crate::forecast::Cause {
                    object,
                    field,
                    file,
                    line,
                    column,
                    summary,
                } = c;
                Cause {
                    object,
                    field,
                    file,
                    line: *line,
                    column: *column,
                    summary,
                }
            })
            .collect(),
        when: When {
            state,
            at: at.as_deref(),
            reason,
            windows: windows
                .iter()
                .map(|w| {
                    let crate::forecast::Window { start, end } = w;
                    Window { start, end }
                })
                .collect(),
        },
        rollout: rollout.as_ref().map(|r| {
            let crate::forecast::Rollout {
                max_surge,
                max_unavailable,
                waves,
                summary,
            } = r;
            Rollout {
                max_surge: *max_surge,
                max_unavailable: *max_unavailable,
                waves: *waves,
                summary,
            }
        }),
        fingerprint: fingerprint.as_ref().map(|f| {
            let crate::forecast::Fingerprint { base, head } = f;
            RolloutFingerprint {
                base: base.as_deref(),
                head: head.as_deref(),
            }
        }),
    }
}

/// Line, column, end line and end column of a location, all null when it has no range.
fn position(loc: &Location) -> [Option<u32>; 4] {
    match loc.span {
        Some(s) => [
            Some(s.start.line),
            Some(s.start.col),
            Some(s.end.line),
            Some(s.end.col),
        ],
        None => [None; 4],
    }
}

/// One diagnostic in the contract's shape, with its fingerprint.
fn finding(d: &Diagnostic, fingerprint: String) -> Finding<'_> {
    use crate::diagnostic::{Severity as S, Side, State};
    let [line, column, end_line, end_column] = position(&d.location);
    Finding {
        code: d.code,
        severity: match d.severity {
            S::Error => Severity::Error,
            S::Warning => Severity::Warning,
            S::Info => Severity::Info,
        },
        message: &d.message,
        file: &d.location.path,
        line,
        column,
        end_line,
        end_column,
        object: d.object.as_deref(),
        help: d.help.as_deref(),
        url: d.url(),
        state: match d.state {
            State::New => FindingState::New,
            State::Changed => FindingState::Changed,
            State::PreExisting => FindingState::PreExisting,
        },
        notes: &d.notes,
        related: d
            .related
            .iter()
            .map(|l| {
                let [line, column, end_line, end_column] = position(&l.location);
                Related {
                    file: &l.location.path,
                    revision: match l.location.side {
                        Side::Base => Revision::Base,
                        Side::Head => Revision::Head,
                    },
                    line,
                    column,
                    end_line,
                    end_column,
                    message: &l.message,
                }
            })
            .collect(),
        fingerprint,
    }
}

fn changes(o: &Outcome) -> Vec<Change<'_>> {
    use crate::diff::ChangeKind as K;
    o.diff
        .changes
        .iter()
        .map(|c| {
            let base = c.base.and_then(|i| o.base.objects.get(i));
            let head = c.head.and_then(|i| o.head.objects.get(i));
            Change {
                object: c.id.to_string(),
                change: match c.kind {
                    K::Added => ChangeKind::Added,
                    K::Removed => ChangeKind::Removed,
                    K::Changed => ChangeKind::Changed,
                    K::Unreadable => ChangeKind::Unreadable,
                },
                base_file: base.map(|b| &*b.path),
                file: head.map(|h| &*h.path),
                origin: head
                    .or(base)
                    .map(|x| x.origin.describe())
                    .filter(|d| !d.is_empty()),
                group: head
                    .or(base)
                    .map(|x| x.origin.group())
                    .filter(|d| !d.is_empty()),
                no_node_impact: o.no_impact.get(&c.id).map(|n| n.why.as_str()),
                fields: c
                    .fields
                    .iter()
                    .map(|f| {
                        let head_pos = f.head.as_ref().and_then(|l| l.span);
                        let base_pos = f.base.as_ref().and_then(|l| l.span);
                        ChangedField {
                            path: &f.path,
                            file: f.head.as_ref().map(|l| l.path.as_str()),
                            line: head_pos.map(|s| s.start.line),
                            column: head_pos.map(|s| s.start.col),
                            base_file: f.base.as_ref().map(|l| l.path.as_str()),
                            base_line: base_pos.map(|s| s.start.line),
                            base_column: base_pos.map(|s| s.start.col),
                            before: f.before.as_deref(),
                            after: f.after.as_deref(),
                            text_diff: f.text_diff.as_deref(),
                        }
                    })
                    .collect(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The contract's names are the ones the rest of nodecast prints (human output, SARIF).
    #[test]
    fn enum_names_match_the_names_used_elsewhere() {
        use crate::diagnostic::{Severity as S, State};
        use crate::diff::ChangeKind as C;
        use crate::forecast::Action as A;
        use crate::source::SourceKind as K;
        let name = |v: serde_json::Value| v.as_str().map(str::to_string).unwrap_or_default();
        for (s, ours) in [
            (S::Error, Severity::Error),
            (S::Warning, Severity::Warning),
            (S::Info, Severity::Info),
        ] {
            assert_eq!(name(serde_json::json!(ours)), s.as_str());
        }
        for (s, ours) in [
            (State::New, FindingState::New),
            (State::Changed, FindingState::Changed),
            (State::PreExisting, FindingState::PreExisting),
        ] {
            assert_eq!(name(serde_json::json!(ours)), s.as_str());
        }
        for (k, ours) in [
            (C::Added, ChangeKind::Added),
            (C::Removed, ChangeKind::Removed),
            (C::Changed, ChangeKind::Changed),
            (C::Unreadable, ChangeKind::Unreadable),
        ] {
            assert_eq!(name(serde_json::json!(ours)), k.as_str());
        }
        for (k, ours) in [
            (K::Git, Source::Git),
            (K::Index, Source::Index),
            (K::Worktree, Source::Worktree),
            (K::Dir, Source::Dir),
            (K::None, Source::None),
        ] {
            assert_eq!(name(serde_json::json!(ours)), k.as_str());
        }
        for (a, ours) in [
            (A::Blocked, Action::Blocked),
            (A::Unknown, Action::Unknown),
            (A::Replace, Action::Replace),
            (A::InPlace, Action::InPlace),
            (A::Reboot, Action::Reboot),
            (A::Drain, Action::Drain),
            (A::Restart, Action::Restart),
            (A::Reload, Action::Reload),
            (A::None, Action::None),
        ] {
            assert_eq!(name(serde_json::json!(ours)), super::super::action_name(a));
        }
    }
}
