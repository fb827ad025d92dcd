//! `ChangeManagementPolicy` / `HostedChangeManagementPolicy` objects of both schemas.

use crate::schedule::codes;
use nodecast_yaml::Node;

use super::days::{self, DAY};
use super::duration;
use super::rrule;
use super::stanza::Schema;
use super::structured;
use super::windows::{Dates, Schedule};
use super::Src;
use crate::diagnostic::{Diagnostic, Severity};
use crate::inventory::Object;

/// The two policy kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyKind {
    /// `ChangeManagementPolicy` (namespaced in Schema A, cluster-scoped in Schema B).
    Cluster,
    /// `HostedChangeManagementPolicy` (Schema B, HostedCluster namespace).
    Hosted,
}

impl PolicyKind {
    /// The kind name.
    pub fn name(self) -> &'static str {
        match self {
            PolicyKind::Cluster => "ChangeManagementPolicy",
            PolicyKind::Hosted => "HostedChangeManagementPolicy",
        }
    }
}

/// `spec.strategy` of a policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Changes may start at any time.
    Permissive,
    /// No change starts (a deliberate hold).
    Restrictive,
    /// Changes start inside the schedule's windows.
    MaintenanceSchedule,
}

/// A policy as nodecast evaluates it.
#[derive(Clone, Debug)]
pub struct Policy {
    /// Index in the inventory.
    pub index: usize,
    /// Kind.
    pub kind: PolicyKind,
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`, when set.
    pub namespace: Option<String>,
    /// `Kind/namespace/name`.
    pub label: String,
    /// Which revision it follows, when it says.
    pub schema: Option<Schema>,
    /// The strategy; `None` when missing or invalid (timing unknown).
    pub strategy: Option<Strategy>,
    /// The schedule under `MaintenanceSchedule`; `None` when `maintenanceSchedule` is missing.
    pub schedule: Option<Schedule>,
    /// False when the schedule could not be read (timing unknown).
    pub readable: bool,
}

/// Parses and validates a policy object.
pub fn parse(
    index: usize,
    obj: &Object,
    kind: PolicyKind,
    now: i64,
    out: &mut Vec<Diagnostic>,
) -> Policy {
    let src = Src::of(obj);
    let root = obj.root();
    let namespace = root
        .path(&["metadata", "namespace"])
        .and_then(Node::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_string);
    let mut p = Policy {
        index,
        kind,
        name: obj.id.name.to_string(),
        namespace: namespace.clone(),
        label: match &namespace {
            Some(ns) => format!("{}/{ns}/{}", kind.name(), obj.id.name),
            None => format!("{}/{}", kind.name(), obj.id.name),
        },
        schema: None,
        strategy: None,
        schedule: None,
        readable: true,
    };
    let recurrence = root.path(&["spec", "maintenanceSchedule", "permit", "recurrence"]);
    p.schema = match (kind, recurrence.map(|r| r.kind())) {
        (PolicyKind::Hosted, _) => Some(Schema::B),
        (_, Some(nodecast_yaml::NodeKind::Map(_))) => Some(Schema::B),
        (_, Some(_)) if recurrence.and_then(Node::as_str).is_some() => Some(Schema::A),
        _ => None,
    };
    scope(&src, root, &p, out);
    let Some(spec) = root.get("spec").filter(|s| s.as_map().is_some()) else {
        out.push(
            src.diag(
                &codes::W110,
                root.get("spec").unwrap_or(root),
                "the policy has no `spec`, so its strategy is unknown",
            )
            .help("add `spec.strategy: Permissive`, `Restrictive` or `MaintenanceSchedule`"),
        );
        p.readable = false;
        return p;
    };
    let ms = spec.entry("maintenanceSchedule");
    match spec.get("strategy") {
        None => out.push(
            src.diag(
                &codes::W110,
                spec,
                "`spec.strategy` is missing, so when changes may start is unknown",
            )
            .help("set `strategy: Permissive`, `Restrictive` or `MaintenanceSchedule`"),
        ),
        Some(s) => {
            p.strategy = match s.as_str() {
                Some("Permissive") => Some(Strategy::Permissive),
                Some("Restrictive") => Some(Strategy::Restrictive),
                Some("MaintenanceSchedule") => Some(Strategy::MaintenanceSchedule),
                _ => {
                    let shown = s.key_text().unwrap_or(s.type_name());
                    let mut d = src.diag(&codes::W110, s, format!("`{shown}` is not a policy strategy, so when changes may start is unknown"));
                    d = match s.as_str().and_then(|t| {
                        crate::text::closest(
                            t,
                            ["Permissive", "Restrictive", "MaintenanceSchedule"],
                        )
                    }) {
                        Some(c) => d
                            .help(format!("did you mean `{c}`?"))
                            .fix(crate::diagnostic::Fix::rename(s.span(), c)),
                        None => d.help("use Permissive, Restrictive or MaintenanceSchedule"),
                    };
                    out.push(d);
                    None
                }
            };
        }
    }
    match (p.strategy, ms) {
        (Some(Strategy::MaintenanceSchedule), None) => out.push(
            src.diag(&codes::W110, spec.get("strategy").unwrap_or(spec), "`MaintenanceSchedule` without `maintenanceSchedule` behaves as Restrictive: no change will ever start")
                .severity(Severity::Warning)
                .help("add `maintenanceSchedule.permit`, or say `strategy: Restrictive` if the hold is deliberate"),
        ),
        (Some(s), Some(e)) if s != Strategy::MaintenanceSchedule => out.push(
            src.diag(&codes::W110, e.key, format!("`maintenanceSchedule` is ignored under `strategy: {s:?}`"))
                .severity(Severity::Warning)
                .help("remove it, or set `strategy: MaintenanceSchedule` to use it"),
        ),
        _ => {}
    }
    if let Some(e) = ms {
        match schedule(&src, e.value, now, out) {
            Some(s) => p.schedule = Some(s),
            None => p.readable = false,
        }
    }
    p
}

fn scope(src: &Src<'_>, root: Node<'_>, p: &Policy, out: &mut Vec<Diagnostic>) {
    let ns_node = root.path(&["metadata", "namespace"]);
    let at = ns_node.or_else(|| root.get("metadata")).unwrap_or(root);
    match (p.kind, p.schema, &p.namespace) {
        (PolicyKind::Cluster, Some(Schema::A), None) => out.push(
            src.diag(&codes::W110, at, "this ChangeManagementPolicy uses an RRULE string (Schema A), whose policies are namespaced, but it has no namespace")
                .help("set `metadata.namespace` (e.g. `openshift-machine-config-operator`), or switch to the structured recurrence of the cluster-scoped revision"),
        ),
        (PolicyKind::Cluster, Some(Schema::B), Some(_)) => out.push(
            src.diag(&codes::W110, at, "this ChangeManagementPolicy uses the structured recurrence (Schema B), whose ChangeManagementPolicy is cluster-scoped, but it has a namespace")
                .help("remove `metadata.namespace`, or use HostedChangeManagementPolicy for hosted clusters"),
        ),
        (PolicyKind::Hosted, _, None) => out.push(
            src.diag(&codes::W110, at, "a HostedChangeManagementPolicy is namespaced (the HostedCluster's namespace), but this one has no namespace")
                .help("set `metadata.namespace` to the HostedCluster's namespace"),
        ),
        _ => {}
    }
}

/// Parses `spec.maintenanceSchedule`; `None` when its windows cannot be known.
fn schedule(src: &Src<'_>, ms: Node<'_>, now: i64, out: &mut Vec<Diagnostic>) -> Option<Schedule> {
    if ms.is_null() {
        return Some(Schedule {
            permit: false,
            dates: Dates::Every,
            start: 0,
            duration: None,
            exclude: false,
            exclusions: Vec::new(),
        });
    }
    if ms.as_map().is_none() {
        out.push(
            src.diag(
                &codes::W110,
                ms,
                format!(
                    "`maintenanceSchedule` must be a mapping, not a {}",
                    ms.type_name()
                ),
            )
            .help("write `maintenanceSchedule: {permit: {…}, exclude: […]}`"),
        );
        return None;
    }
    let mut ok = true;
    let mut s = Schedule {
        permit: false,
        dates: Dates::Every,
        start: 0,
        duration: None,
        exclude: false,
        exclusions: Vec::new(),
    };
    if let Some(permit) = ms.get("permit").filter(|p| !p.is_null()) {
        s.permit = true;
        if permit.as_map().is_none() {
            out.push(
                src.diag(&codes::W110, permit, "`permit` must be a mapping")
                    .help("write `permit: {recurrence: …, startTime: \"02:00\", duration: 4h}`"),
            );
            return None;
        }
        match permit.get("recurrence").filter(|r| !r.is_null()) {
            None => {}
            Some(r) if r.as_map().is_some() => match structured::parse(src, r, out) {
                Some(d) => s.dates = d,
                None => ok = false,
            },
            Some(r) => match r.as_str() {
                Some(text) => {
                    let (rec, findings) = rrule::parse(text);
                    for f in findings {
                        out.push(src.in_string(r, f));
                    }
                    match rec {
                        Some(rec) => s.dates = Dates::Rule(rec),
                        None => ok = false,
                    }
                }
                None => {
                    out.push(src.diag(&codes::W102, r, format!("`recurrence` must be an RRULE string or a structured mapping, not a {}", r.type_name()))
                        .help("quote it: `recurrence: \"FREQ=WEEKLY;BYDAY=SA\"`"));
                    ok = false;
                }
            },
        }
        if let Some(st) = permit.get("startTime").filter(|n| !n.is_null()) {
            match st.as_str().and_then(duration::time_of_day) {
                Some(t) => {
                    s.start = t.seconds;
                    if t.with_seconds {
                        out.push(
                            src.diag(
                                &codes::W105,
                                st,
                                "`startTime` has seconds; the proposal's format is `HH:MM`",
                            )
                            .severity(Severity::Warning)
                            .help("write `HH:MM`, e.g. \"02:00\""),
                        );
                    }
                }
                None => {
                    let hint = if st.as_str().is_none() {
                        " (quote it: an unquoted 02:00 may be read as a number)"
                    } else {
                        ""
                    };
                    out.push(src.diag(&codes::W105, st, format!("`startTime` is not a time of day `HH:MM` (00:00–23:59, UTC){hint}, so the window is unknown"))
                        .help("write e.g. `startTime: \"02:00\"`"));
                    ok = false;
                }
            }
        }
        if let Some(du) = permit.get("duration").filter(|n| !n.is_null()) {
            match du.as_str().and_then(duration::go_duration) {
                Some(secs) if secs > 0 => {
                    s.duration = Some(secs);
                    if let Dates::Rule(rec) = &s.dates {
                        overlapping(src, du, rec, secs, now, out);
                    } else if secs > DAY {
                        out.push(src.diag(&codes::W106, du, format!("windows of {} on every date overlap: changes may start at any time", duration::show(secs)))
                            .help("shorten `duration` to 24h or less, or use `strategy: Permissive`"));
                    }
                }
                Some(_) => {
                    out.push(src.diag(&codes::W105, du, "`duration` must be greater than zero, so this window never opens").help("write a positive duration such as `4h`, or omit it to keep the window open until the end of the day"));
                    ok = false;
                }
                None => {
                    out.push(src.diag(&codes::W105, du, "`duration` is not a duration like `8h` or `1h30m`, so the window is unknown").help("write a Go duration with units h, m, s, e.g. `4h` or `1h30m`"));
                    ok = false;
                }
            }
        }
    }
    if let Some(ex) = ms.get("exclude").filter(|e| !e.is_null()) {
        s.exclude = true;
        match ex.as_seq() {
            None => {
                out.push(
                    src.diag(
                        &codes::W107,
                        ex,
                        format!("`exclude` must be a list, not a {}", ex.type_name()),
                    )
                    .help("write `exclude: [{fromDate: 2026-12-24, untilDate: 2027-01-02}]`"),
                );
                ok = false;
            }
            Some(items) => {
                for item in items {
                    match exclusion(src, item, out) {
                        Some(r) => s.exclusions.push(r),
                        None => ok = false,
                    }
                }
            }
        }
    }
    ok.then_some(s)
}

/// The excluded day range `[from, until)` of an `exclude[]` entry.
fn exclusion(src: &Src<'_>, item: Node<'_>, out: &mut Vec<Diagnostic>) -> Option<(i64, i64)> {
    let date = |n: Node<'_>| {
        n.as_str()
            .filter(|s| s.len() == 10)
            .and_then(|s| s.parse::<jiff::civil::Date>().ok())
            .map(days::day)
    };
    let Some(from_node) = item.get("fromDate") else {
        out.push(
            src.diag(
                &codes::W107,
                item,
                "an exclusion without `fromDate` excludes nothing",
            )
            .help("add `fromDate: YYYY-MM-DD`"),
        );
        return None;
    };
    let Some(from) = date(from_node) else {
        out.push(
            src.diag(
                &codes::W107,
                from_node,
                "`fromDate` is not a date `YYYY-MM-DD`, so the exclusion is unknown",
            )
            .help("write e.g. `fromDate: 2026-12-24`"),
        );
        return None;
    };
    let until = match item.get("untilDate").filter(|n| !n.is_null()) {
        None => from + 1,
        Some(u) => match date(u) {
            None => {
                out.push(
                    src.diag(
                        &codes::W107,
                        u,
                        "`untilDate` is not a date `YYYY-MM-DD`, so the exclusion is unknown",
                    )
                    .help("write e.g. `untilDate: 2027-01-02` (exclusive)"),
                );
                return None;
            }
            Some(until) if until <= from => {
                out.push(src.diag(&codes::W107, u, "`untilDate` is not after `fromDate`, so the exclusion is empty (untilDate is exclusive)")
                    .help("set `untilDate` to the day after the last excluded day"));
                return None;
            }
            Some(until) => until,
        },
    };
    Some((from, until))
}

/// W106: a duration longer than the gap between two selected dates (windows overlap).
fn overlapping(
    src: &Src<'_>,
    du: Node<'_>,
    rec: &super::recur::Recurrence,
    secs: i64,
    now: i64,
    out: &mut Vec<Diagnostic>,
) {
    let today = days::day_of(now);
    let dates = rec.dates(today, today + 800);
    let gap = dates.windows(2).map(|w| w[1] - w[0]).min();
    if let Some(gap) = gap {
        if secs > gap * DAY {
            out.push(src.diag(&codes::W106, du, format!("windows of {} overlap: selected dates can be {gap} day(s) apart, so the windows merge", duration::show(secs)))
                .help(format!("shorten `duration` to at most {}h, or use `strategy: Permissive` if changes may start any time", gap * 24)));
        }
    }
}
