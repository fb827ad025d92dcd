//! Rollout acknowledgement (`require-ack`): every disruptive forecast entry must be acknowledged by
//! a `Nodecast-Ack:` commit trailer in the compared range or by `--ack TARGET`.

use nodecast_yaml::{LineIndex, Span};

use super::codes;
use crate::diagnostic::{Diagnostic, Location};
use crate::forecast::{Action, Impact};
use crate::parse::FileEntry;

/// The trailer key.
pub const TRAILER: &str = "Nodecast-Ack";

/// The name an acknowledgement uses for a pool: `Kind/namespace/name` or `Kind/name`.
pub fn target_name(i: &Impact) -> String {
    match &i.target.namespace {
        Some(ns) if !ns.is_empty() => format!("{}/{ns}/{}", i.target.kind, i.target.name),
        _ => format!("{}/{}", i.target.kind, i.target.name),
    }
}

/// Whether an action disrupts nodes enough to need an acknowledgement.
pub fn disruptive(a: Action) -> bool {
    matches!(
        a,
        Action::Unknown | Action::Replace | Action::InPlace | Action::Reboot | Action::Drain
    )
}

/// `Nodecast-Ack:` trailer values of the commits reachable from `head` (default HEAD) and not
/// from `base`, found from the repository at `path`.
pub fn trailers(path: &std::path::Path, base: Option<&str>, head: Option<&str>) -> Vec<String> {
    let Ok(repo) = git2::Repository::discover(path) else {
        return Vec::new();
    };
    let Some(base) = base.and_then(|b| git2::Oid::from_str(b).ok()) else {
        return Vec::new();
    };
    let head = match head.and_then(|h| git2::Oid::from_str(h).ok()) {
        Some(h) => h,
        None => match repo.head().ok().and_then(|h| h.target()) {
            Some(h) => h,
            None => return Vec::new(),
        },
    };
    let Ok(mut walk) = repo.revwalk() else {
        return Vec::new();
    };
    if walk.push(head).is_err() || walk.hide(base).is_err() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for oid in walk.flatten() {
        let Ok(commit) = repo.find_commit(oid) else {
            continue;
        };
        if let Ok(message) = commit.message() {
            out.extend(message_trailers(message));
        }
    }
    out
}

/// `Nodecast-Ack:` trailer values of a commit message (the file Git hands a `commit-msg` hook):
/// the commit being made acknowledges its own rollouts.
pub fn message_trailers(message: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(trailers) = git2::message_trailers_strs(message) {
        for (k, v) in trailers.iter() {
            if k.eq_ignore_ascii_case(TRAILER) {
                out.extend(
                    v.split(',')
                        .map(|t| t.trim().to_string())
                        .filter(|t| !t.is_empty()),
                );
            }
        }
    }
    out
}

/// A changed object that may affect nodes but that no forecast model judged: it needs an
/// acknowledgement too (when unsure, predict the disruption).
pub struct Unmodelled<'a> {
    /// Its identity (also the acknowledgement target).
    pub id: String,
    /// The first changed field in head (or the object), where the finding goes.
    pub location: Option<&'a Location>,
    /// The head file defining it.
    pub file: Option<&'a str>,
    /// The base file that defined it (for removed objects).
    pub base_file: Option<&'a str>,
}

/// A C105 finding for every disruptive entry (and every unmodelled node-affecting change) that no
/// acknowledgement names.
pub fn check(
    forecast: &[Impact],
    unmodelled: &[Unmodelled<'_>],
    acks: &[String],
    head: &[FileEntry],
) -> Vec<Diagnostic> {
    let rule = &codes::C105;
    let all = acks.iter().any(|a| a.eq_ignore_ascii_case("all"));
    let mut out = Vec::new();
    for u in unmodelled {
        if all || acks.iter().any(|a| a == &u.id) {
            continue;
        }
        let location = match (u.location, u.file, u.base_file) {
            (Some(l), _, _) => l.clone(),
            (None, Some(f), _) => Location::head_file(f),
            (None, None, Some(f)) => Location {
                side: crate::diagnostic::Side::Base,
                path: f.to_string(),
                span: None,
            },
            (None, None, None) => continue,
        };
        out.push(
            Diagnostic::new(
                rule,
                format!(
                    "{} changed and may roll nodes (not yet modelled) without an acknowledgement (require-ack is on)",
                    u.id
                ),
                location,
            )
            .object(u.id.clone())
            .help(format!(
                "add the trailer `{TRAILER}: {}` (or `{TRAILER}: all`) to a commit message in this change, or pass `--ack {}`",
                u.id, u.id
            )),
        );
    }
    for i in forecast.iter().filter(|i| disruptive(i.action)) {
        let name = target_name(i);
        if all || acks.iter().any(|a| a == &name) {
            continue;
        }
        let action = serde_json::to_value(i.action)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let nodes = match i.nodes {
            Some(n) => format!("{n} node(s)"),
            None => "all nodes".to_string(),
        };
        let location = i
            .causes
            .first()
            .map(|c| cause_location(&c.file, c.line, c.column, head))
            .unwrap_or_else(|| Location::head_file(""));
        out.push(
            Diagnostic::new(
                rule,
                format!("{name} will {action} {nodes} without an acknowledgement (require-ack is on)"),
                location,
            )
            .object(name.clone())
            .help(format!(
                "add the trailer `{TRAILER}: {name}` (or `{TRAILER}: all`) to a commit message in this change, or pass `--ack {name}`"
            )),
        );
    }
    out
}

/// The head location of a cause (line and column) up to the end of its line.
fn cause_location(file: &str, line: u32, column: u32, head: &[FileEntry]) -> Location {
    let text = head
        .iter()
        .find(|f| *f.path == *file)
        .and_then(|f| f.parsed.text.clone());
    let Some(text) = text else {
        return Location::head_file(file);
    };
    let index = LineIndex::new(&text);
    let line_text_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1) as usize)
        .map(str::len)
        .sum();
    let line_text = text[line_text_start..].lines().next().unwrap_or_default();
    let start = line_text_start
        + line_text
            .char_indices()
            .nth(column.saturating_sub(1) as usize)
            .map(|(i, _)| i)
            .unwrap_or(0);
    let end = line_text_start + line_text.len();
    Location::head(
        file,
        Span {
            start: index.pos(&text, start),
            end: index.pos(&text, end.max(start)),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forecast::{Cause, Target, When};

    fn impact(action: Action, kind: &str, ns: Option<&str>, name: &str) -> Impact {
        Impact {
            target: Target {
                cluster: "HostedCluster/clusters/prod".into(),
                kind: kind.into(),
                namespace: ns.map(str::to_string),
                name: name.into(),
                scope: String::new(),
            },
            action,
            drain: true,
            nodes: Some(3),
            causes: vec![Cause {
                object: "NodePool/clusters/workers".into(),
                field: "/spec/replicas".into(),
                file: "np.yaml".into(),
                line: 2,
                column: 3,
                summary: "x".into(),
            }],
            when: When::now(),
            rollout: None,
            fingerprint: None,
        }
    }

    fn head_file(path: &str, text: &str) -> FileEntry {
        FileEntry::new(
            path,
            std::sync::Arc::new(crate::parse::parse_file(text.as_bytes())),
        )
    }

    #[test]
    fn unacknowledged_disruptions_are_errors_at_the_cause() {
        let head = [head_file("np.yaml", "kind: NodePool\n  replicas: 3\n")];
        let forecast = [
            impact(Action::Replace, "NodePool", Some("clusters"), "workers"),
            impact(Action::Reboot, "MachineConfigPool", None, "worker"),
            impact(Action::None, "NodePool", Some("clusters"), "quiet"),
            impact(Action::Restart, "MachineConfigPool", None, "infra"),
        ];
        let found = check(&forecast, &[], &[], &head);
        let lines: Vec<String> = found
            .iter()
            .map(|d| {
                let s = d.location.span.expect("span");
                format!(
                    "{} {}:{}-{}:{} {}",
                    d.code, s.start.line, s.start.col, s.end.line, s.end.col, d.message
                )
            })
            .collect();
        assert_eq!(
            lines,
            [
                "C105 2:3-2:14 NodePool/clusters/workers will replace 3 node(s) without an acknowledgement (require-ack is on)",
                "C105 2:3-2:14 MachineConfigPool/worker will reboot 3 node(s) without an acknowledgement (require-ack is on)",
            ]
        );
        assert_eq!(
            found[0].help.as_deref(),
            Some("add the trailer `Nodecast-Ack: NodePool/clusters/workers` (or `Nodecast-Ack: all`) to a commit message in this change, or pass `--ack NodePool/clusters/workers`")
        );
        let one = check(&forecast, &[], &["NodePool/clusters/workers".into()], &head);
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].object.as_deref(), Some("MachineConfigPool/worker"));
        assert!(check(&forecast, &[], &["all".into()], &head).is_empty());
    }

    #[test]
    fn trailers_come_from_the_compared_range_only() {
        let tmp = tempfile::tempdir().expect("tmp");
        let repo = git2::Repository::init(tmp.path()).expect("init");
        let sig = git2::Signature::now("t", "t@example.com").expect("sig");
        let tree = {
            let mut idx = repo.index().expect("index");
            let id = idx.write_tree().expect("tree");
            repo.find_tree(id).expect("tree")
        };
        let c1 = repo
            .commit(
                Some("HEAD"),
                &sig,
                &sig,
                "old\n\nNodecast-Ack: NodePool/clusters/old\n",
                &tree,
                &[],
            )
            .expect("c1");
        let p1 = repo.find_commit(c1).expect("c1");
        let c2 = repo
            .commit(Some("HEAD"), &sig, &sig, "roll workers\n\nNodecast-Ack: NodePool/clusters/workers\nSigned-off-by: t <t@example.com>\n", &tree, &[&p1])
            .expect("c2");
        let p2 = repo.find_commit(c2).expect("c2");
        repo.commit(
            Some("HEAD"),
            &sig,
            &sig,
            "more\n\nNodecast-Ack: MachineConfigPool/worker, all\n",
            &tree,
            &[&p2],
        )
        .expect("c3");
        let acks = trailers(tmp.path(), Some(&c1.to_string()), None);
        assert_eq!(
            acks,
            [
                "MachineConfigPool/worker",
                "all",
                "NodePool/clusters/workers"
            ]
        );
        assert!(trailers(tmp.path(), None, None).is_empty());
    }
}
