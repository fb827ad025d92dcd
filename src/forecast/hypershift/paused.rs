//! `spec.pausedUntil` as `support/util/pausereconcile.go` reads it (HyperShift).

use jiff::Timestamp;
use nodecast_yaml::Node;

use super::compare::Triggered;
use super::inputs::{Side, Trigger};
use crate::forecast::{Action, Input, When};

/// What a `pausedUntil` value means at a given time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pause {
    /// Not paused (unset, false, or a date in the past).
    Active,
    /// Paused until the field is removed.
    Indefinite,
    /// Paused until this time.
    Until(Timestamp),
    /// Not a value the controller can read: it does not pause. `admitted` says whether the
    /// API server's CEL rule lets it through at all.
    Invalid {
        /// Whether the CRD's CEL rule accepts the value.
        admitted: bool,
    },
}

/// Go `strconv.ParseBool`.
fn parse_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// The CRD's CEL rule: a date-time prefix or one of four boolean spellings.
fn admitted(s: &str) -> bool {
    if ["true", "false", "True", "False"].contains(&s) {
        return true;
    }
    crate::text::starts_like_rfc3339(s)
}

/// Reads a `pausedUntil` value at time `now`.
pub fn read(value: Option<&str>, now: Timestamp) -> Pause {
    let Some(value) = value else {
        return Pause::Active;
    };
    let ok = admitted(value);
    if let Some(b) = parse_bool(value) {
        return if !ok {
            Pause::Invalid { admitted: false }
        } else if b {
            Pause::Indefinite
        } else {
            Pause::Active
        };
    }
    if !ok {
        return Pause::Invalid { admitted: false };
    }
    // RFC 3339 needs an offset; jiff's parser requires one too.
    match value.parse::<Timestamp>() {
        Ok(at) if at > now => Pause::Until(at),
        Ok(_) => Pause::Active,
        Err(_) => Pause::Invalid { admitted: true },
    }
}

/// When a NodePool's rollout may start: its own pause, else a HostedCluster pause for inputs its
/// control-plane operator produces (untested upstream, so nodecast says so), else now.
pub fn when(input: &Input<'_>, h: &Side<'_>, triggered: &[Triggered], action: Action) -> When {
    let now = input.settings.now;
    let np_pause = read(
        h.np.root()
            .path(&["spec", "pausedUntil"])
            .and_then(Node::key_text),
        now,
    );
    match np_pause {
        Pause::Indefinite => {
            return When {
                state: "paused".into(),
                at: None,
                reason: "NodePool spec.pausedUntil is true: nothing rolls until the field is removed or set to false".into(),
                windows: Vec::new(),
            }
        }
        Pause::Until(at) => {
            return When {
                state: "paused".into(),
                at: Some(at.to_string()),
                reason: format!("NodePool spec.pausedUntil: changes accumulate and roll together after {at}"),
                windows: Vec::new(),
            }
        }
        Pause::Active | Pause::Invalid { .. } => {}
    }
    let disruptive: Vec<&Triggered> = triggered
        .iter()
        .filter(|t| t.trigger != Trigger::Never)
        .collect();
    let via_cpo = !disruptive.is_empty()
        && disruptive
            .iter()
            .all(|t| t.trigger == Trigger::HashViaControlPlane);
    if via_cpo && matches!(action, Action::Replace | Action::InPlace) {
        let hc_pause =
            h.hc.map(|hc| {
                read(
                    hc.root()
                        .path(&["spec", "pausedUntil"])
                        .and_then(Node::key_text),
                    now,
                )
            })
            .unwrap_or(Pause::Active);
        let reason = "the HostedCluster is paused and these inputs (SSH key, image content sources) are produced by its control-plane operator".to_string();
        match hc_pause {
            Pause::Indefinite => {
                return When {
                    state: "paused".into(),
                    at: None,
                    reason,
                    windows: Vec::new(),
                }
            }
            Pause::Until(at) => {
                return When {
                    state: "paused".into(),
                    at: Some(at.to_string()),
                    reason,
                    windows: Vec::new(),
                }
            }
            _ => {}
        }
    }
    When::now()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controller_semantics() {
        let now: Timestamp = "2026-11-21T12:00:00Z".parse().expect("time");
        assert_eq!(read(None, now), Pause::Active);
        assert_eq!(read(Some("true"), now), Pause::Indefinite);
        assert_eq!(read(Some("False"), now), Pause::Active);
        assert_eq!(
            read(Some("2026-12-01T00:00:00Z"), now),
            Pause::Until("2026-12-01T00:00:00Z".parse().expect("time"))
        );
        assert_eq!(read(Some("2025-01-01T00:00:00Z"), now), Pause::Active);
        assert_eq!(
            read(Some("2026-12-01T00:00:00"), now),
            Pause::Invalid { admitted: true }
        );
        assert_eq!(read(Some("TRUE"), now), Pause::Invalid { admitted: false });
        assert_eq!(
            read(Some("tomorrow"), now),
            Pause::Invalid { admitted: false }
        );
    }
}
