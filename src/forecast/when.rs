//! When each rollout may start: fills `when` of every disruptive forecast entry from its pool's
//! effective change-management policy at `--now`, and marks changed policies as judged. The
//! forecast owns `when`; `crate::schedule` is the time arithmetic it calls (policies, windows,
//! decisions), and never reads a forecast.

use nodecast_yaml::Span;

use super::codes;
use super::{Action, Forecast, Impact, Input, Settings, When};
use crate::diagnostic::{Diagnostic, Location};
use crate::inventory::clusters;
use crate::inventory::Inventory;
use crate::schedule::days::{self, human, rfc3339};
use crate::schedule::decide::{decide, Decision};
use crate::schedule::duration;
use crate::schedule::lint;
use crate::schedule::model::{Holder, HolderKind, Model};
use crate::schedule::stanza::{Schema, Stanza};

/// Validates the head's change-management objects and schedules every disruptive forecast entry:
/// `now` inside a window, `window` with the next start, `paused`, or `never` (the enhancement's evaluation order: disabled, paused, policy).
pub fn apply(impacts: &mut [Impact], input: &Input<'_>, diagnostics: &mut Vec<Diagnostic>) {
    let now = input.settings.now.as_second();
    let inv = input.head;
    let model = Model::build(inv, now, diagnostics);
    let lint_settings = lint::Settings {
        min_permitted_hours: input.settings.min_permitted_hours,
    };
    lint::run(&model, inv, now, lint_settings, diagnostics);
    // How the MCO model names a pool's cluster (roots found once, only when a pool is asked).
    let roots = std::sync::OnceLock::new();
    let globs = input.settings.cluster_roots;
    let cluster_of = |o: &crate::inventory::Object| {
        let roots = roots.get_or_init(|| clusters::roots(input.base, input.head, globs));
        clusters::label(&clusters::key_of(roots, globs, o))
    };
    for impact in impacts.iter_mut() {
        schedule_one(
            impact,
            &model,
            inv,
            now,
            (&input.settings, &cluster_of),
            diagnostics,
        );
    }
}

/// Marks changed change-management policies as judged: editing a policy moves windows but never
/// touches a node, so the report must not list it as "not yet modelled; assume a rollout".
pub fn cover(input: &Input<'_>, out: &mut Forecast) {
    for change in &input.diff.changes {
        if matches!(
            change.id.kind.as_str(),
            "ChangeManagementPolicy" | "HostedChangeManagementPolicy"
        ) {
            out.covered.insert(change.id.clone());
        }
    }
}

/// How many days of maintenance windows a forecast entry carries for the timeline.
pub const TIMELINE_DAYS: i64 = 7;

/// What node work an action starts, for messages.
fn doing(action: Action) -> &'static str {
    match action {
        Action::Replace => "replacing nodes",
        Action::InPlace => "updating nodes in place",
        Action::Reboot => "rebooting nodes",
        Action::Drain => "draining nodes",
        Action::Restart | Action::Reload => "restarting services on nodes",
        Action::Unknown => "possibly rolling nodes",
        Action::Blocked | Action::None => "changing nodes",
    }
}

/// The stanza-carrying object of a forecast target.
fn holder_of<'m>(
    model: &'m Model,
    inv: &Inventory,
    impact: &Impact,
    cluster_of: &dyn Fn(&crate::inventory::Object) -> String,
) -> Option<&'m Holder> {
    let t = &impact.target;
    match t.kind.as_str() {
        "NodePool" => model.holders.iter().find(|h| {
            h.kind == HolderKind::NodePool
                && h.name == t.name
                && h.namespace == t.namespace
                && inv.objects[h.index].id.scope == t.scope
        }),
        "MachineConfigPool" => {
            let pools: Vec<&Holder> = model
                .holders
                .iter()
                .filter(|h| h.kind == HolderKind::MachineConfigPool && h.name == t.name)
                .collect();
            // The pool of the target's own cluster, named as the MCO model names clusters: a
            // folder prefix took any cluster's pool for the repository's cluster `.`.
            let in_cluster = pools
                .iter()
                .find(|h| cluster_of(&inv.objects[h.index]) == t.cluster);
            in_cluster.copied().or(if pools.len() == 1 {
                pools.first().copied()
            } else {
                None
            })
        }
        _ => None,
    }
}

/// The holder and stanza that govern a pool: the master pool follows ClusterVersion's stanza.
fn governing<'m>(
    model: &'m Model,
    inv: &Inventory,
    pool: &'m Holder,
) -> Option<(&'m Holder, &'m Stanza)> {
    if pool.kind == HolderKind::MachineConfigPool && pool.name == "master" {
        if let Some(cv) = lint::cluster_version_for(model, inv, &inv.objects[pool.index].path) {
            if let Some(st) = &cv.stanza {
                return Some((cv, st));
            }
        }
    }
    pool.stanza.as_deref().map(|st| (pool, st))
}

fn schedule_one(
    impact: &mut Impact,
    model: &Model,
    inv: &Inventory,
    now: i64,
    (settings, cluster_of): (&Settings<'_>, &dyn Fn(&crate::inventory::Object) -> String),
    out: &mut Vec<Diagnostic>,
) {
    if matches!(impact.action, Action::None | Action::Blocked) {
        return;
    }
    let Some(pool) = holder_of(model, inv, impact, cluster_of) else {
        return;
    };
    let Some((holder, stanza)) = governing(model, inv, pool) else {
        return;
    };
    let material = matches!(
        impact.action,
        Action::Unknown | Action::Replace | Action::InPlace | Action::Reboot
    );
    if stanza.schema == Schema::A && !material {
        if impact.when.state == "now" {
            impact.when.reason = "not a material change (no reboot or replacement): change management does not hold it".into();
        }
        return;
    }
    let bypass: Vec<String> = impact
        .causes
        .iter()
        .filter_map(|c| c.object.strip_prefix("MachineConfig/"))
        .filter(|name| lint::bypasses(inv, name))
        .map(str::to_string)
        .collect();
    if let Some(mc) = bypass.first() {
        if impact.when.state == "now" {
            impact.when.reason = format!(
                "MachineConfig {mc} bypasses change management ({})",
                lint::BYPASS
            );
        }
        return;
    }
    // The pool's own pause: the later start wins.
    let pause = match (impact.when.state.as_str(), impact.when.at.as_deref()) {
        ("paused", None) | ("never", _) => return,
        ("paused" | "window", Some(at)) => at
            .parse::<jiff::Timestamp>()
            .ok()
            .map(|t| t.as_second())
            .filter(|&t| t > now),
        _ => None,
    };
    let t0 = pause.unwrap_or(now);
    let mut decision = decide(model, holder, stanza, t0);
    if let Some(p) = pause {
        let own = impact.when.reason.clone();
        decision = match decision {
            Decision::Now { reason, .. } => Decision::Paused {
                at: Some(p),
                reason: format!("{own}; then {reason}"),
            },
            other => other,
        };
    }
    let mut reason = decision.reason().to_string();
    // Does a multi-wave rollout fit the window it starts in?
    let bounds = match &decision {
        Decision::Now { until: Some(u), .. } => Some((t0, *u)),
        Decision::Window { at, end, .. } => Some((*at, *end)),
        _ => None,
    };
    let location = cause_location(impact, inv)
        .unwrap_or_else(|| inv.objects[holder.index].head_location(stanza.key_span));
    if let (Some((start, end)), Some(waves)) =
        (bounds, impact.rollout.as_ref().and_then(|r| r.waves))
    {
        if waves > 1 {
            let need = i64::from(waves) * i64::from(settings.per_node_minutes) * 60;
            let have = end - start;
            if need <= have {
                reason.push_str(&format!(
                    "; {waves} waves × {} min = {} fits the window ({} available)",
                    settings.per_node_minutes,
                    duration::show(need),
                    duration::show(have)
                ));
            } else {
                reason.push_str(&format!("; {waves} waves × {} min = {} exceed the window ({} available): the rollout continues in later windows", settings.per_node_minutes, duration::show(need), duration::show(have)));
                out.push(
                    Diagnostic::new(&codes::W119, format!(
                        "the rollout of {} {} takes about {} ({waves} waves), longer than its window ({}): nodes will run mixed configurations across several windows",
                        impact.target.kind, impact.target.name, duration::show(need), duration::show(have)), location.clone())
                    .help("lengthen the window, roll more nodes at a time, or accept a multi-window rollout (per-node time: --per-node-minutes)")
                    .object(inv.objects[pool.index].id.to_string()),
                );
            }
        }
    }
    // The policy's windows of the next week, for the rollout timeline.
    let windows = holder
        .policy
        .and_then(|i| model.policies.get(i))
        .and_then(|p| p.schedule.as_ref())
        .map(|s| {
            s.upcoming(now, 64)
                .into_iter()
                .take_while(|(start, _)| *start < now + TIMELINE_DAYS * days::DAY)
                .map(|(start, end)| super::Window {
                    start: rfc3339(start),
                    end: rfc3339(end),
                })
                .collect()
        })
        .unwrap_or_default();
    impact.when = When {
        state: decision.state().into(),
        at: decision.at().map(rfc3339),
        reason,
        windows,
    };
    if settings.enforce_windows && decision.state() != "now" {
        let next = match &decision {
            Decision::Window { at, .. } => format!("next window opens {}", human(*at)),
            Decision::Paused { at: Some(at), .. } => {
                format!("changes are held until {}", human(*at))
            }
            Decision::Paused { at: None, .. } => "changes are held indefinitely".to_string(),
            _ => "no window opens within 1000 days".to_string(),
        };
        out.push(
            Diagnostic::new(&codes::W118, format!("this change would start {} outside the permitted window; {next}", doing(impact.action)), location)
                .related(inv.objects[holder.index].head_location(stanza.key_span), "the change-management stanza that applies")
                .note(format!("{} {}: {}", impact.target.kind, impact.target.name, impact.when.reason))
                .help("merge inside the window, or lift the hold (e.g. `disabledUntil`, `strategy: PermissiveUntil`) when the change must go out now")
                .object(inv.objects[pool.index].id.to_string()),
        );
    }
}

/// The first cause's place, as a head location.
fn cause_location(impact: &Impact, inv: &Inventory) -> Option<Location> {
    let c = impact.causes.first()?;
    let text = inv
        .objects
        .iter()
        .find(|o| *o.path == *c.file)
        .and_then(|o| o.file().text.clone())?;
    let span: Span = crate::schedule::line_col_span(&text, c.line, c.column)?;
    Some(Location::head(&c.file, span))
}
