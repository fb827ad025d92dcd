//! The rollout timeline: one bar per disruptive pool — from when it may start (now, the end of a
//! pause, the next maintenance window) for waves × per-node minutes — beside the permitted windows
//! of its policy in the next days. Markdown draws it as a Mermaid `gantt` chart (GitHub renders
//! it); the HTML report draws the same bars as inline SVG.

use std::fmt::Write;

use crate::check::Outcome;
use crate::forecast::{Action, Impact};

/// One pool on the timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lane {
    /// `MachineConfigPool worker (clusters/prod)`.
    pub label: String,
    /// The action, as the contract names it.
    pub action: String,
    /// Rollout start and end, Unix seconds; `None` when it never starts (held indefinitely or
    /// no window ever opens).
    pub rollout: Option<(i64, i64)>,
    /// How the duration was reckoned, e.g. `3 waves × 10 min`.
    pub duration: String,
    /// Why it starts when it does.
    pub reason: String,
    /// Permitted windows of the pool's policy (Unix seconds).
    pub windows: Vec<(i64, i64)>,
}

fn seconds(rfc3339: &str) -> Option<i64> {
    rfc3339
        .parse::<jiff::Timestamp>()
        .ok()
        .map(|t| t.as_second())
}

/// Whether a forecast entry disrupts nodes (the pools the timeline shows).
pub fn disruptive(i: &Impact) -> bool {
    !matches!(i.action, Action::None | Action::Blocked)
}

/// The lanes of an outcome, in forecast order. Empty unless "now" is fixed (`--now`): a rollout
/// that starts now would otherwise move with the wall clock, and identical inputs must give
/// identical reports (the GitHub Action passes the time of its run).
pub fn lanes(o: &Outcome) -> Vec<Lane> {
    if !o.now_given {
        return Vec::new();
    }
    let now = o.now.as_second();
    o.forecast
        .iter()
        .filter(|i| disruptive(i))
        .map(|i| {
            let waves = i.rollout.as_ref().and_then(|r| r.waves);
            let minutes = i64::from(waves.unwrap_or(1)) * i64::from(o.per_node_minutes);
            let duration = match waves {
                Some(w) => format!(
                    "{w} wave{} × {} min",
                    if w == 1 { "" } else { "s" },
                    o.per_node_minutes
                ),
                None => format!(
                    "1 wave × {} min shown, node count unknown",
                    o.per_node_minutes
                ),
            };
            let start = match i.when.state.as_str() {
                "now" => Some(now),
                "paused" | "window" => i.when.at.as_deref().and_then(seconds),
                _ => None,
            };
            let t = &i.target;
            let name = match &t.namespace {
                Some(ns) => format!("{}/{}", ns, t.name),
                None => t.name.clone(),
            };
            Lane {
                label: format!("{} {name} ({})", t.kind, t.cluster),
                action: super::action_name(i.action),
                rollout: start.map(|s| (s, s + minutes * 60)),
                duration,
                reason: i.when.reason.clone(),
                windows: i
                    .when
                    .windows
                    .iter()
                    .filter_map(|w| Some((seconds(&w.start)?, seconds(&w.end)?)))
                    .collect(),
            }
        })
        .collect()
}

fn mermaid_time(t: i64) -> String {
    jiff::Timestamp::from_second(t)
        .map(|ts| ts.strftime("%Y-%m-%dT%H:%M").to_string())
        .unwrap_or_default()
}

/// Mermaid forbids `:` and `#` in task names, and `;` ends a statement.
fn mermaid_text(s: &str) -> String {
    s.replace([':', '#', ';'], " ")
}

/// A Mermaid `gantt` block (empty when no pool is disrupted).
pub fn mermaid(o: &Outcome) -> String {
    let lanes = lanes(o);
    if lanes.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "```mermaid\ngantt\n    title Rollout timeline (UTC)\n    dateFormat YYYY-MM-DDTHH:mm\n    axisFormat %a %d %H:%M\n",
    );
    for (n, lane) in lanes.iter().enumerate() {
        let _ = writeln!(out, "    section {}", mermaid_text(&lane.label));
        for (k, (s, e)) in lane.windows.iter().enumerate() {
            let _ = writeln!(
                out,
                "    window : done, w{n}_{k}, {}, {}m",
                mermaid_time(*s),
                ((e - s) / 60).max(1)
            );
        }
        match lane.rollout {
            Some((s, e)) => {
                let _ = writeln!(
                    out,
                    "    {} ({}) : crit, r{n}, {}, {}m",
                    mermaid_text(&lane.action),
                    mermaid_text(&lane.duration),
                    mermaid_time(s),
                    ((e - s) / 60).max(1)
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "    never starts ({}) : milestone, r{n}, {}, 0m",
                    mermaid_text(&lane.reason),
                    mermaid_time(o.now.as_second())
                );
            }
        }
    }
    out.push_str("```\n");
    out
}

/// The same timeline as an inline SVG: a lane per pool, windows in green, the rollout in red.
pub fn svg(o: &Outcome) -> String {
    let lanes = lanes(o);
    if lanes.is_empty() {
        return String::new();
    }
    let now = o.now.as_second();
    let end = lanes
        .iter()
        .flat_map(|l| {
            l.rollout
                .iter()
                .map(|r| r.1)
                .chain(l.windows.iter().map(|w| w.1))
        })
        .max()
        .unwrap_or(now)
        .max(now + 3600);
    let (label_w, plot_w, lane_h) = (320.0, 640.0, 34.0);
    let x = |t: i64| label_w + (t - now) as f64 / (end - now) as f64 * plot_w;
    let height = 52.0 + lane_h * lanes.len() as f64;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" role=\"img\" aria-label=\"Rollout timeline\" width=\"{}\" height=\"{height}\" viewBox=\"0 0 {} {height}\">\n",
        label_w + plot_w + 20.0,
        label_w + plot_w + 20.0
    );
    let _ = writeln!(
        out,
        "<text x=\"{label_w}\" y=\"14\" class=\"axis\">{} UTC</text><text x=\"{}\" y=\"14\" class=\"axis\" text-anchor=\"end\">{} UTC</text>",
        escape(&mermaid_time(now)),
        label_w + plot_w,
        escape(&mermaid_time(end))
    );
    // A tick per day (midnight UTC), labelled with the weekday.
    let day = 86_400;
    let mut tick = (now / day + 1) * day;
    while tick < end {
        let label = jiff::Timestamp::from_second(tick)
            .map(|t| t.strftime("%a %d").to_string())
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "<line class=\"tick\" x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"18\" y2=\"{height}\"/><text x=\"{:.1}\" y=\"30\" class=\"axis\">{}</text>",
            x(tick) + 2.0,
            escape(&label),
            x = x(tick),
        );
        tick += day;
    }
    for (n, lane) in lanes.iter().enumerate() {
        let y = 36.0 + lane_h * n as f64;
        let _ = writeln!(
            out,
            "<text x=\"4\" y=\"{}\" class=\"lane\">{}</text>",
            y + 20.0,
            escape(&lane.label)
        );
        for (s, e) in &lane.windows {
            // A window already open starts at the left edge (now).
            let s = &(*s).max(now);
            let _ = writeln!(
                out,
                "<rect class=\"window\" x=\"{:.1}\" y=\"{y}\" width=\"{:.1}\" height=\"28\"><title>permitted {} – {}</title></rect>",
                x(*s),
                (x(*e) - x(*s)).max(1.0),
                escape(&mermaid_time(*s)),
                escape(&mermaid_time(*e))
            );
        }
        match lane.rollout {
            Some((s, e)) => {
                let _ = writeln!(
                    out,
                    "<rect class=\"bar\" data-pool=\"{}\" x=\"{:.1}\" y=\"{}\" width=\"{:.1}\" height=\"16\"><title>{}: {} ({})</title></rect>",
                    escape(&lane.label),
                    x(s),
                    y + 6.0,
                    (x(e) - x(s)).max(3.0),
                    escape(&lane.action),
                    escape(&lane.duration),
                    escape(&lane.reason)
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "<text x=\"{label_w}\" y=\"{}\" class=\"never\">never starts: {}</text>",
                    y + 20.0,
                    escape(&lane.reason)
                );
            }
        }
    }
    out.push_str("</svg>\n");
    out
}

/// HTML/XML text escaping.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
