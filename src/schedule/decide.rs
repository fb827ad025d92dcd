//! The effective change-management state of an object at an instant, and when a material change
//! may start (the enhancement's evaluation order: disabled, paused, the policy's windows and exclusions).

use super::days::human;
use super::duration;
use super::model::{Holder, Model};
use super::policy::Strategy;
use super::stanza::{Schema, Stanza, StrategyB, Until};
use super::windows::Next;

/// When a material change may start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// It may start now; `until` is the end of the current window when a schedule permits it.
    Now {
        /// Why.
        reason: String,
        /// End of the current window (schedules only).
        until: Option<i64>,
    },
    /// Held: until `at`, or indefinitely.
    Paused {
        /// When the hold ends.
        at: Option<i64>,
        /// Why.
        reason: String,
    },
    /// The next window `[at, end)`.
    Window {
        /// Start.
        at: i64,
        /// End.
        end: i64,
        /// Why.
        reason: String,
    },
    /// No window within the search cap.
    Never {
        /// Why.
        reason: String,
    },
    /// The stanza or policy cannot be evaluated; nodecast assumes now.
    Unknown {
        /// Why.
        reason: String,
    },
}

impl Decision {
    /// The contract's `when.state`.
    pub fn state(&self) -> &'static str {
        match self {
            Decision::Now { .. } | Decision::Unknown { .. } => "now",
            Decision::Paused { .. } => "paused",
            Decision::Window { .. } => "window",
            Decision::Never { .. } => "never",
        }
    }

    /// The contract's `when.at`.
    pub fn at(&self) -> Option<i64> {
        match self {
            Decision::Paused { at, .. } => *at,
            Decision::Window { at, .. } => Some(*at),
            _ => None,
        }
    }

    /// Why, in words.
    pub fn reason(&self) -> &str {
        match self {
            Decision::Now { reason, .. }
            | Decision::Paused { reason, .. }
            | Decision::Window { reason, .. }
            | Decision::Never { reason }
            | Decision::Unknown { reason } => reason,
        }
    }

    fn prefixed(self, prefix: &str) -> Decision {
        let p = |r: String| format!("{prefix}; then {r}");
        match self {
            Decision::Now { reason, until } => Decision::Now {
                reason: p(reason),
                until,
            },
            Decision::Paused { at, reason } => Decision::Paused {
                at,
                reason: p(reason),
            },
            Decision::Window { at, end, reason } => Decision::Window {
                at,
                end,
                reason: p(reason),
            },
            Decision::Never { reason } => Decision::Never { reason: p(reason) },
            Decision::Unknown { reason } => Decision::Unknown { reason: p(reason) },
        }
    }
}

/// What applies after an override ends.
#[derive(Clone, Copy)]
enum Then {
    Policy,
    Permissive,
    Restrictive,
}

/// When a material change to `holder` may start if evaluated at `t` under `stanza`.
pub fn decide(model: &Model, holder: &Holder, stanza: &Stanza, t: i64) -> Decision {
    if !stanza.valid {
        return Decision::Unknown {
            reason:
                "the change-management stanza cannot be read; timing unknown, assuming immediately"
                    .into(),
        };
    }
    match stanza.schema {
        Schema::A => {
            if let Some(u) = stanza.disabled_until.filter(|u| u.active(t)) {
                return Decision::Now {
                    reason: match u {
                        Until::At(d) => format!("change management is disabled until {} (disabledUntil)", human(d)),
                        Until::Flag(_) => "change management is disabled (disabledUntil: \"true\")".into(),
                    },
                    until: None,
                };
            }
            match stanza.paused_until.filter(|u| u.active(t)) {
                Some(Until::Flag(_)) => Decision::Paused {
                    at: None,
                    reason: "changes are paused indefinitely (pausedUntil: \"true\")".into(),
                },
                Some(Until::At(d)) => after_hold(model, holder, Then::Policy, d, "pausedUntil"),
                None => then_at(model, holder, Then::Policy, t),
            }
        }
        Schema::B => match stanza.strategy {
            Some(StrategyB::Permissive) => Decision::Now { reason: "strategy Permissive: changes may start at any time".into(), until: None },
            Some(StrategyB::Restrictive) => Decision::Paused { at: None, reason: "strategy Restrictive: changes are held indefinitely".into() },
            Some(StrategyB::ByPolicy) => then_at(model, holder, Then::Policy, t),
            Some(StrategyB::PermissiveUntil) => {
                let then = if holder.policy.is_some() || stanza.policy.is_some() { Then::Policy } else { Then::Restrictive };
                match stanza.permissive_until {
                    Some(d) if d > t => Decision::Now {
                        reason: format!("permissive until {} (permissiveUntil), then {}", human(d), then_name(model, holder, then)),
                        until: Some(d),
                    },
                    _ => then_at(model, holder, then, t),
                }
            }
            Some(StrategyB::RestrictiveUntil) => {
                let then = if holder.policy.is_some() || stanza.policy.is_some() { Then::Policy } else { Then::Permissive };
                match stanza.restrictive_until {
                    Some(d) if d > t => after_hold(model, holder, then, d, "restrictiveUntil"),
                    _ => then_at(model, holder, then, t),
                }
            }
            None => Decision::Unknown { reason: "the change-management strategy cannot be read; timing unknown, assuming immediately".into() },
        },
    }
}

fn then_name(model: &Model, holder: &Holder, then: Then) -> String {
    match then {
        Then::Permissive => "Permissive".into(),
        Then::Restrictive => "Restrictive".into(),
        Then::Policy => holder
            .policy
            .and_then(|i| model.policies.get(i))
            .map_or_else(|| "its policy".into(), |p| format!("policy {}", p.name)),
    }
}

/// Held until `d`, then `then` evaluated at `d`.
fn after_hold(model: &Model, holder: &Holder, then: Then, d: i64, field: &str) -> Decision {
    let held = format!("held until {} ({field})", human(d));
    // Schema A, `permit: null` + `exclude: null` with a pausedUntil date: permissive after the date.
    let null_null = matches!(then, Then::Policy)
        && field == "pausedUntil"
        && holder
            .policy
            .and_then(|i| model.policies.get(i))
            .and_then(|p| p.schedule.as_ref())
            .is_some_and(|s| s.is_null_null());
    if null_null {
        return Decision::Paused {
            at: Some(d),
            reason: format!("{held}; then permitted (the policy's permit and exclude are null)"),
        };
    }
    match then_at(model, holder, then, d) {
        Decision::Now { .. } => Decision::Paused {
            at: Some(d),
            reason: held,
        },
        other => other.prefixed(&held),
    }
}

fn then_at(model: &Model, holder: &Holder, then: Then, t: i64) -> Decision {
    match then {
        Then::Permissive => Decision::Now {
            reason: "Permissive".into(),
            until: None,
        },
        Then::Restrictive => Decision::Paused {
            at: None,
            reason: "Restrictive: changes are held indefinitely".into(),
        },
        Then::Policy => follow_policy(model, holder, t),
    }
}

fn follow_policy(model: &Model, holder: &Holder, t: i64) -> Decision {
    let Some(p) = holder.policy.and_then(|i| model.policies.get(i)) else {
        let name = holder
            .stanza
            .as_ref()
            .and_then(|s| s.policy.as_ref())
            .map_or("?", |r| r.name.as_str());
        return Decision::Unknown {
            reason: format!("policy `{name}` not found; timing unknown, assuming immediately"),
        };
    };
    let name = &p.name;
    match p.strategy {
        None => Decision::Unknown {
            reason: format!(
                "policy {name} has no valid strategy; timing unknown, assuming immediately"
            ),
        },
        Some(Strategy::Permissive) => Decision::Now {
            reason: format!("policy {name} is Permissive"),
            until: None,
        },
        Some(Strategy::Restrictive) => Decision::Paused {
            at: None,
            reason: format!("policy {name} is Restrictive: changes are held indefinitely"),
        },
        Some(Strategy::MaintenanceSchedule) => {
            if !p.readable {
                return Decision::Unknown { reason: format!("policy {name} has an invalid schedule; timing unknown, assuming immediately") };
            }
            let Some(s) = &p.schedule else {
                return Decision::Never { reason: format!("policy {name} is MaintenanceSchedule without maintenanceSchedule, which behaves as Restrictive") };
            };
            match s.next(t) {
                Next::Now { until } => Decision::Now {
                    reason: format!("inside a window of policy {name} until {} ({} left)", human(until), duration::show(until - t)),
                    until: Some(until),
                },
                Next::At { start, end } => Decision::Window {
                    at: start,
                    end,
                    reason: format!("next window of policy {name} opens {} ({} long)", human(start), duration::show(end - start)),
                },
                Next::Never if s.is_null_null() => Decision::Never {
                    reason: format!("policy {name} permits nothing: permit and exclude are both null (revisions before 4 read this as always permitted)"),
                },
                Next::Never => Decision::Never { reason: format!("no permitted window within 1000 days (policy {name})") },
            }
        }
    }
}
