//! `spec.changeManagement` on ClusterVersion, MachineConfigPool, HostedCluster and NodePool:
//! Schema A (`disabledUntil`, `pausedUntil`, `policy`) or Schema B (`strategy`, `byPolicy`, …).

use crate::schedule::codes;
use nodecast_yaml::{Entry, Node, NodeKind, Scalar, Span};

use super::days;
use super::Src;
use crate::diagnostic::{Diagnostic, Fix, Severity};

/// Which revision a stanza or policy follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schema {
    /// Revisions 4–5 of the enhancement: RRULE strings, `disabledUntil`/`pausedUntil`/`policy`.
    A,
    /// Revision 8 (final): structured recurrence, `strategy`/`byPolicy`/`*Until`.
    B,
}

/// A Schema A `*Until` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Until {
    /// `"true"`/`"false"`.
    Flag(bool),
    /// An RFC 3339 instant (seconds).
    At(i64),
}

impl Until {
    /// Active at `t`: `"true"` or a future date.
    pub fn active(self, t: i64) -> bool {
        match self {
            Until::Flag(b) => b,
            Until::At(d) => d > t,
        }
    }
}

/// A policy named by a stanza.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyRef {
    /// `name`.
    pub name: String,
    /// Schema A `policy.namespace`, when set.
    pub namespace: Option<String>,
    /// The name's span.
    pub span: Span,
}

/// Schema B `strategy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrategyB {
    /// Follow `byPolicy`.
    ByPolicy,
    /// Always permitted.
    Permissive,
    /// Never permitted.
    Restrictive,
    /// Permitted until `permissiveUntil`, then `byPolicy` or Restrictive.
    PermissiveUntil,
    /// Held until `restrictiveUntil`, then `byPolicy` or Permissive.
    RestrictiveUntil,
}

/// A parsed stanza.
#[derive(Clone, Debug)]
pub struct Stanza {
    /// Revision.
    pub schema: Schema,
    /// The `changeManagement` key.
    pub key_span: Span,
    /// The stanza as JSON (to compare the master pool's with ClusterVersion's).
    pub json: serde_json::Value,
    /// False when it cannot be read: timing unknown.
    pub valid: bool,
    /// A: `disabledUntil`.
    pub disabled_until: Option<Until>,
    /// A: `pausedUntil`.
    pub paused_until: Option<Until>,
    /// A: `policy`; B: `byPolicy`.
    pub policy: Option<PolicyRef>,
    /// B: `strategy`.
    pub strategy: Option<StrategyB>,
    /// B: `permissiveUntil`.
    pub permissive_until: Option<i64>,
    /// B: `restrictiveUntil`.
    pub restrictive_until: Option<i64>,
}

impl Stanza {
    /// The policy reference that matters (Schema B keeps `byPolicy` under other strategies too).
    pub fn reference(&self) -> Option<&PolicyRef> {
        self.policy.as_ref()
    }
}

const A_KEYS: [&str; 3] = ["disabledUntil", "pausedUntil", "policy"];
const B_KEYS: [&str; 4] = [
    "strategy",
    "byPolicy",
    "permissiveUntil",
    "restrictiveUntil",
];
const B_STRATEGIES: [&str; 5] = [
    "ByPolicy",
    "Permissive",
    "Restrictive",
    "PermissiveUntil",
    "RestrictiveUntil",
];
const OLD_STRATEGIES: [&str; 4] = ["MaintenanceSchedule", "Disabled", "Assisted", "Manual"];

/// Parses and validates a stanza; `None` when absent in effect (null, empty, or an unsupported
/// revision).
pub fn parse(
    src: &Src<'_>,
    entry: Entry<'_>,
    now: i64,
    out: &mut Vec<Diagnostic>,
) -> Option<Stanza> {
    let node = &entry.value;
    if node.is_null() {
        return None;
    }
    let Some(map) = node.as_map() else {
        out.push(
            src.diag(
                &codes::W111,
                *node,
                format!(
                    "`changeManagement` must be a mapping, not a {}",
                    node.type_name()
                ),
            )
            .help("write e.g. `changeManagement: {policy: {name: weekend}}`"),
        );
        return Some(unreadable(entry));
    };
    let strategy_text = node.get("strategy").and_then(Node::as_str);
    if node.get("config").is_some() || strategy_text.is_some_and(|s| OLD_STRATEGIES.contains(&s)) {
        out.push(src.diag(&codes::W111, entry.key, "this stanza follows an early revision of the change-management proposal (inline `config` / strategy `MaintenanceSchedule`, `Disabled`, `Assisted`, `Manual`) that nodecast does not support; it is ignored")
            .severity(Severity::Warning)
            .help("move the schedule into a ChangeManagementPolicy and reference it with `policy: {name: …}` (or `strategy: ByPolicy` + `byPolicy`)"));
        return None;
    }
    let a: Vec<Entry<'_>> = map
        .iter()
        .filter(|e| e.key.key_text().is_some_and(|k| A_KEYS.contains(&k)))
        .collect();
    let b: Vec<Entry<'_>> = map
        .iter()
        .filter(|e| e.key.key_text().is_some_and(|k| B_KEYS.contains(&k)))
        .collect();
    for e in map {
        let k = e.key.key_text().unwrap_or_default();
        if !A_KEYS.contains(&k) && !B_KEYS.contains(&k) {
            let mut d = src
                .diag(
                    &codes::W111,
                    e.key,
                    format!("unknown change-management field `{k}`; it is ignored"),
                )
                .severity(Severity::Warning);
            d = match crate::text::closest(k, A_KEYS.iter().chain(B_KEYS.iter()).copied()) {
                Some(s) => d
                    .help(format!("did you mean `{s}`?"))
                    .fix(Fix::rename(e.key.span(), s)),
                None => d.help(format!(
                    "fields are {} (Schema A) or {} (Schema B)",
                    A_KEYS.join(", "),
                    B_KEYS.join(", ")
                )),
            };
            out.push(d);
        }
    }
    let mut st = Stanza {
        schema: if b.is_empty() { Schema::A } else { Schema::B },
        key_span: entry.key.span(),
        json: node.to_json(),
        valid: true,
        disabled_until: None,
        paused_until: None,
        policy: None,
        strategy: None,
        permissive_until: None,
        restrictive_until: None,
    };
    if a.is_empty() && b.is_empty() {
        return None;
    }
    if !a.is_empty() && !b.is_empty() {
        let first_b = b[0];
        out.push(src.diag(&codes::W111, first_b.key, format!("the stanza mixes Schema A fields ({}) with Schema B fields ({}), so when changes may start is unknown",
            a.iter().filter_map(|e| e.key.key_text()).collect::<Vec<_>>().join(", "),
            b.iter().filter_map(|e| e.key.key_text()).collect::<Vec<_>>().join(", ")))
            .help("use one revision: `disabledUntil`/`pausedUntil`/`policy`, or `strategy`/`byPolicy`/`permissiveUntil`/`restrictiveUntil`"));
        st.valid = false;
        return Some(st);
    }
    match st.schema {
        Schema::A => parse_a(src, *node, now, &mut st, out),
        Schema::B => parse_b(src, *node, now, &mut st, out),
    }
    Some(st)
}

fn unreadable(entry: Entry<'_>) -> Stanza {
    Stanza {
        schema: Schema::A,
        key_span: entry.key.span(),
        json: entry.value.to_json(),
        valid: false,
        disabled_until: None,
        paused_until: None,
        policy: None,
        strategy: None,
        permissive_until: None,
        restrictive_until: None,
    }
}

fn parse_a(src: &Src<'_>, node: Node<'_>, now: i64, st: &mut Stanza, out: &mut Vec<Diagnostic>) {
    for (key, slot) in [("disabledUntil", 0), ("pausedUntil", 1)] {
        let Some(v) = node.get(key).filter(|v| !v.is_null()) else {
            continue;
        };
        match until_a(src, key, v, out) {
            Some(u) => {
                if let Until::At(d) = u {
                    if d <= now {
                        let then = if slot == 0 {
                            "the stanza's other fields"
                        } else {
                            "the policy"
                        };
                        out.push(
                            src.diag(
                                &codes::W112,
                                v,
                                format!(
                                    "`{key}` expired on {}; the object now follows {then}",
                                    days::human(d)
                                ),
                            )
                            .help(format!(
                                "remove `{key}` (or set \"false\"), or move the date forward"
                            )),
                        );
                    }
                }
                if slot == 0 {
                    st.disabled_until = Some(u);
                } else {
                    st.paused_until = Some(u);
                }
            }
            None => st.valid = false,
        }
    }
    if let Some(p) = node.get("policy").filter(|p| !p.is_null()) {
        st.policy = reference(src, p, true, out);
        if st.policy.is_none() {
            st.valid = false;
        }
    } else if st.disabled_until.is_none() && st.paused_until.is_none() {
        st.valid = false;
    }
}

/// HyperShift's `pausedUntil` format: `"true"`/`"false"` (any capitalisation HyperShift takes) or
/// RFC 3339, at most 35 characters; a YAML boolean is a type error.
fn until_a(src: &Src<'_>, key: &str, v: Node<'_>, out: &mut Vec<Diagnostic>) -> Option<Until> {
    if let NodeKind::Scalar {
        value: Scalar::Bool(b),
        ..
    } = v.kind()
    {
        out.push(src.diag(&codes::W111, v, format!("`{key}` is a YAML boolean, but the field is a string; the API server rejects it"))
            .help(format!("quote it: `{key}: \"{b}\"`")));
        return None;
    }
    let Some(s) = v.as_str() else {
        out.push(src.diag(&codes::W111, v, format!("`{key}` must be a string (\"true\", \"false\" or an RFC 3339 date-time), not a {}", v.type_name()))
            .help(format!("write e.g. `{key}: \"2026-12-01T00:00:00Z\"`")));
        return None;
    };
    match s {
        "true" | "True" => return Some(Until::Flag(true)),
        "false" | "False" => return Some(Until::Flag(false)),
        _ => {}
    }
    let shape = s.len() <= 35 && crate::text::starts_like_rfc3339(s);
    match (shape, s.parse::<jiff::Timestamp>()) {
        (true, Ok(t)) => Some(Until::At(t.as_second())),
        (true, Err(_)) => {
            out.push(
                src.diag(
                    &codes::W111,
                    v,
                    format!(
                        "`{key}` is not an RFC 3339 date-time (a zone such as `Z` is required)"
                    ),
                )
                .help(format!("write e.g. `{key}: \"{}Z\"`", &s[..19])),
            );
            None
        }
        (false, _) => {
            out.push(src.diag(&codes::W111, v, format!("`{key}` must be \"true\", \"false\" or an RFC 3339 date-time of at most 35 characters"))
                .help(format!("write e.g. `{key}: \"2026-12-01T00:00:00Z\"`")));
            None
        }
    }
}

fn reference(
    src: &Src<'_>,
    p: Node<'_>,
    with_namespace: bool,
    out: &mut Vec<Diagnostic>,
) -> Option<PolicyRef> {
    let Some(name) = p
        .get("name")
        .and_then(|n| n.as_str().map(|s| (s, n.span())))
        .filter(|(s, _)| !s.is_empty())
    else {
        out.push(
            src.diag(
                &codes::W111,
                p,
                "the policy reference has no `name`, so when changes may start is unknown",
            )
            .help("write `{name: <policy>}`"),
        );
        return None;
    };
    let namespace = if with_namespace {
        p.get("namespace")
            .and_then(Node::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    } else {
        None
    };
    Some(PolicyRef {
        name: name.0.to_string(),
        namespace,
        span: name.1,
    })
}

fn parse_b(src: &Src<'_>, node: Node<'_>, now: i64, st: &mut Stanza, out: &mut Vec<Diagnostic>) {
    let Some(s) = node.get("strategy") else {
        out.push(src.diag(&codes::W111, node, "the stanza has Schema B fields but no `strategy`, so when changes may start is unknown")
            .help("add `strategy: ByPolicy` (or Permissive, Restrictive, PermissiveUntil, RestrictiveUntil)"));
        st.valid = false;
        return;
    };
    st.strategy = match s
        .as_str()
        .and_then(|t| B_STRATEGIES.iter().position(|x| *x == t))
    {
        Some(0) => Some(StrategyB::ByPolicy),
        Some(1) => Some(StrategyB::Permissive),
        Some(2) => Some(StrategyB::Restrictive),
        Some(3) => Some(StrategyB::PermissiveUntil),
        Some(_) => Some(StrategyB::RestrictiveUntil),
        None => {
            let shown = s.key_text().unwrap_or(s.type_name());
            let mut d = src.diag(&codes::W111, s, format!("`{shown}` is not a change-management strategy, so when changes may start is unknown"));
            d = match s
                .as_str()
                .and_then(|t| crate::text::closest(t, B_STRATEGIES))
            {
                Some(c) => d
                    .help(format!("did you mean `{c}`?"))
                    .fix(Fix::rename(s.span(), c)),
                None => d.help(format!("use one of {}", B_STRATEGIES.join(", "))),
            };
            out.push(d);
            st.valid = false;
            return;
        }
    };
    if let Some(p) = node.get("byPolicy").filter(|p| !p.is_null()) {
        st.policy = reference(src, p, false, out);
    }
    for (key, want) in [
        ("permissiveUntil", StrategyB::PermissiveUntil),
        ("restrictiveUntil", StrategyB::RestrictiveUntil),
    ] {
        let v = node.get(key).filter(|v| !v.is_null());
        let strategy = st.strategy;
        match (v, strategy == Some(want)) {
            (Some(v), false) => {
                out.push(
                    src.diag(
                        &codes::W111,
                        v,
                        format!("`{key}` is only valid with `strategy: {want:?}`"),
                    )
                    .help(format!("remove `{key}`, or set `strategy: {want:?}`")),
                );
            }
            (None, true) => {
                out.push(src.diag(&codes::W111, s, format!("`strategy: {want:?}` needs `{key}`, so when changes may start is unknown"))
                    .help(format!("add `{key}: \"2026-12-01T00:00:00Z\"`")));
                st.valid = false;
            }
            (Some(v), true) => match v.as_str().and_then(|t| t.parse::<jiff::Timestamp>().ok()) {
                Some(t) => {
                    let t = t.as_second();
                    let fallback = match (want, &st.policy) {
                        (_, Some(p)) => format!("policy `{}`", p.name),
                        (StrategyB::PermissiveUntil, None) => "Restrictive".to_string(),
                        _ => "Permissive".to_string(),
                    };
                    if t <= now {
                        out.push(src.diag(&codes::W112, v, format!("`{key}` expired on {}; the object now follows {fallback}", days::human(t)))
                            .help(format!("remove the date and set the strategy you mean, or move `{key}` forward")));
                    }
                    if want == StrategyB::PermissiveUntil {
                        st.permissive_until = Some(t);
                    } else {
                        st.restrictive_until = Some(t);
                    }
                    if st.policy.is_none() {
                        out.push(src.diag(&codes::W111, s, format!("after `{key}` this object falls back to {fallback}, since no `byPolicy` is set"))
                            .severity(Severity::Info)
                            .help("add `byPolicy: {name: …}` to follow a schedule afterwards"));
                    }
                }
                None => {
                    out.push(
                        src.diag(
                            &codes::W111,
                            v,
                            format!("`{key}` is not an RFC 3339 date-time"),
                        )
                        .help(format!("write e.g. `{key}: \"2026-12-01T00:00:00Z\"`")),
                    );
                    st.valid = false;
                }
            },
            (None, false) => {}
        }
    }
    if st.strategy == Some(StrategyB::ByPolicy) && st.policy.is_none() {
        out.push(
            src.diag(
                &codes::W111,
                s,
                "`strategy: ByPolicy` needs `byPolicy.name`, so when changes may start is unknown",
            )
            .help("add `byPolicy: {name: <policy>}`"),
        );
        st.valid = false;
    }
}
