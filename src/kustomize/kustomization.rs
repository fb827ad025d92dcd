//! What a kustomization file refers to: other kustomizations, files, plugins, remote sources.

use nodecast_yaml::{Node, Span};

/// File names Kustomize accepts for a kustomization, in its lookup order.
pub const FILE_NAMES: [&str; 3] = ["kustomization.yaml", "kustomization.yml", "Kustomization"];

/// Whether a path names a kustomization file.
pub fn is_kustomization_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    FILE_NAMES.contains(&name)
}

/// The folder of a repository-relative path ("" for the root).
pub fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

/// Joins a relative reference to a folder and normalises `.`/`..`; `None` when it leaves the tree.
pub fn join(dir: &str, rel: &str) -> Option<String> {
    if rel.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// A reference written in a kustomization, with where it is written.
#[derive(Clone, Debug)]
pub struct Ref {
    /// The text as written.
    pub text: String,
    /// Its span in the kustomization file.
    pub span: Span,
    /// Which field (`resources`, `components`, `patches`, …).
    pub field: &'static str,
}

/// The references of one kustomization document.
#[derive(Clone, Debug, Default)]
pub struct Refs {
    /// `resources`, `bases`, `components`: files or kustomization folders.
    pub inputs: Vec<Ref>,
    /// Files read by patches, generators, replacements, CRDs, configurations.
    pub files: Vec<Ref>,
    /// Plugin configurations (`generators`, `transformers`, `validators`) and `helmCharts`.
    pub plugins: Vec<Ref>,
}

/// Whether Kustomize would fetch a reference over the network instead of reading a local file:
/// an `http(s)` URL (`IsRemoteFile`: fetched for resources, patches and every other file field), or
/// anything `git.NewRepoSpecFromURL` accepts as a repository (cloned for resources, bases and
/// components): `https://`, `http://`, `ssh://`, `file://`, `git::` prefixes, `user@host:path`,
/// `github.com/org/repo/dir`, `…//dir`, `….git/dir`, `_git/`, with `?ref=`/`?version=`.
pub fn is_remote(text: &str) -> bool {
    is_remote_file(text) || is_git_repo(text)
}

/// `loader.IsRemoteFile`: `url.Parse` finds the scheme `http` or `https` (any case).
fn is_remote_file(text: &str) -> bool {
    let Some((scheme, _)) = text.split_once(':') else {
        return false;
    };
    let valid = scheme
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid && (scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https"))
}

fn trim_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    (s.len() >= prefix.len() && s.is_char_boundary(prefix.len()))
        .then(|| s.split_at(prefix.len()))
        .filter(|(head, _)| head.eq_ignore_ascii_case(prefix))
        .map(|(_, rest)| rest)
}

/// Whether Kustomize would clone the reference (rather than download it).
pub fn is_git_url(text: &str) -> bool {
    !is_remote_file(text) && is_git_repo(text)
}

/// `git.NewRepoSpecFromURL` succeeds (kustomize `api/internal/git/repospec.go`, ported step by
/// step): Kustomize then clones the repository.
fn is_git_repo(n: &str) -> bool {
    if n.starts_with('/') {
        return false;
    }
    let n = n.split_once('?').map_or(n, |(before, _)| before);
    // extractHost
    let n = trim_prefix_ignore_case(n, "git::").unwrap_or(n);
    let (scheme, n) = ["ssh://", "https://", "http://", "file://"]
        .iter()
        .find_map(|p| trim_prefix_ignore_case(n, p).map(|rest| (*p, rest)))
        .unwrap_or(("", n));
    let user_len = {
        let b = n.as_bytes();
        match b.first() {
            Some(c) if c.is_ascii_alphabetic() => {
                let end = b
                    .iter()
                    .position(|c| !(c.is_ascii_alphanumeric() || *c == b'-'))
                    .unwrap_or(b.len());
                (b.get(end) == Some(&b'@')).then_some(end + 1)
            }
            _ => None,
        }
    };
    let (username, n) = n.split_at(user_len.unwrap_or(0));
    let lower = n.to_ascii_lowercase();
    let std_github = lower.starts_with("github.com/") || lower.starts_with("github.com:");
    let accept_scp = scheme.is_empty() && (!username.is_empty() || std_github);
    if scheme.is_empty() && !accept_scp {
        return false;
    }
    let (host, rest) = if scheme == "file://" {
        (scheme.to_string(), format!("{username}{n}"))
    } else {
        let mut sep = n.find('/');
        if accept_scp {
            if let Some(colon) = n.find(':') {
                if sep.is_none() || (colon > 0 && Some(colon) < sep) {
                    sep = Some(colon);
                }
            }
        }
        let (mut host, rest) = match sep {
            Some(i) => (n[..=i].to_string(), n[i + 1..].to_string()),
            None => (n.to_string(), String::new()),
        };
        if std_github {
            host = "github.com/".into();
        }
        if host.is_empty() {
            return false;
        }
        (host, rest)
    };
    // parsePathParts
    let all_segments = host.starts_with("file://");
    let (repo, kust_root) = if let Some(i) = rest.find("_git/") {
        let after = &rest[i + 5..];
        let first = after.split('/').next().unwrap_or_default();
        (
            format!("{}{first}", &rest[..i + 5]),
            after
                .split_once('/')
                .map(|(_, r)| r.to_string())
                .unwrap_or_default(),
        )
    } else if let Some(i) = rest.find("//") {
        (rest[..i].to_string(), rest[i + 2..].to_string())
    } else if let Some(i) = rest.find(".git") {
        (rest[..i + 4].to_string(), rest[i + 4..].to_string())
    } else if all_segments {
        (rest.clone(), String::new())
    } else {
        let segments: Vec<&str> = rest.split('/').collect();
        if segments.len() < 2 {
            return false;
        }
        (segments[..2].join("/"), segments[2..].join("/"))
    };
    if repo.is_empty() {
        return false;
    }
    // kustRootPathExitsRepo
    let cleaned = clean_path(kust_root.trim_start_matches('/'));
    cleaned.split('/').next() != Some("..")
}

/// Go's `filepath.Clean` on a relative path.
fn clean_path(p: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." if parts.last().is_some_and(|l| *l != "..") => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    }
}

fn strings(node: Option<Node<'_>>) -> impl Iterator<Item = Node<'_>> {
    node.and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter(|n| n.as_str().is_some())
}

/// Reads the references of a kustomization document.
pub fn refs(root: Node<'_>) -> Refs {
    let mut out = Refs::default();
    let push = |list: &mut Vec<Ref>, field: &'static str, node: Node<'_>| {
        if let Some(text) = node.as_str() {
            // Inline patches (`patchesStrategicMerge` entries holding YAML) are not files.
            if !text.contains('\n') && !text.trim().is_empty() {
                list.push(Ref {
                    text: text.trim().to_string(),
                    span: node.span(),
                    field,
                });
            }
        }
    };
    for field in ["resources", "bases", "components"] {
        for n in strings(root.get(field)) {
            push(&mut out.inputs, field, n);
        }
    }
    for field in ["patchesStrategicMerge", "crds", "configurations"] {
        for n in strings(root.get(field)) {
            push(&mut out.files, field, n);
        }
    }
    for field in ["patches", "patchesJson6902", "replacements"] {
        for item in root.get(field).and_then(Node::as_seq).unwrap_or_default() {
            if let Some(n) = item.get("path") {
                push(&mut out.files, field, n);
            } else if item.as_str().is_some() {
                push(&mut out.files, field, item);
            }
        }
    }
    for field in ["configMapGenerator", "secretGenerator"] {
        for item in root.get(field).and_then(Node::as_seq).unwrap_or_default() {
            let mut files: Vec<Node<'_>> = strings(item.get("files")).collect();
            files.extend(strings(item.get("envs")));
            files.extend(item.get("env"));
            for n in files {
                if let Some(text) = n.as_str() {
                    let file = text.split_once('=').map(|(_, f)| f).unwrap_or(text);
                    out.files.push(Ref {
                        text: file.trim().to_string(),
                        span: n.span(),
                        field,
                    });
                }
            }
        }
    }
    for field in ["generators", "transformers", "validators"] {
        for item in root.get(field).and_then(Node::as_seq).unwrap_or_default() {
            let text = item.as_str().unwrap_or("(inline plugin configuration)");
            out.plugins.push(Ref {
                text: text.to_string(),
                span: item.span(),
                field,
            });
        }
    }
    for field in ["helmCharts", "helmChartInflationGenerator"] {
        if let Some(node) = root.get(field) {
            out.plugins.push(Ref {
                text: field.to_string(),
                span: node.span(),
                field,
            });
        }
    }
    out
}

/// Whether a document is an ACM PolicyGenerator configuration: a plugin's input that nodecast
/// keeps as an object of the repository, so a change to it is seen.
pub fn is_policy_generator(doc: Node<'_>) -> bool {
    crate::parse::type_meta(doc).is_some_and(|(api, kind)| {
        kind == "PolicyGenerator" && api.starts_with("policy.open-cluster-management.io/")
    })
}

/// The repository paths a PolicyGenerator configuration (`doc`, read from `path`) lists as
/// manifests: `policies[].manifests[].path`, each a file or a folder ([`lists`]).
pub fn policy_generator_manifests(doc: Node<'_>, path: &str) -> Vec<String> {
    policy_generator_policies(doc, path)
        .into_iter()
        .flatten()
        .collect()
}

/// The manifests of each policy a PolicyGenerator configuration makes (`policies[N].manifests`),
/// as [`policy_generator_manifests`]: each policy is its own Policy, with its own placement.
pub fn policy_generator_policies(doc: Node<'_>, path: &str) -> Vec<Vec<String>> {
    let dir = dir_of(path);
    doc.get("policies")
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .map(|p| {
            p.get("manifests")
                .and_then(Node::as_seq)
                .unwrap_or_default()
                .iter()
                .filter_map(|m| m.get("path").and_then(Node::as_str))
                .filter_map(|m| join(dir, m))
                .collect()
        })
        .collect()
}

/// Whether a listed manifest path covers `path`: the file itself, or a folder above it.
pub fn lists(listed: &str, path: &str) -> bool {
    path == listed
        || path
            .strip_prefix(listed)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// Whether a plugin configuration (a `generators`/`transformers` entry) is a built-in one,
/// which Kustomize runs without executing anything.
pub fn is_builtin_plugin(doc: Node<'_>) -> bool {
    let annotated = doc
        .path(&["metadata", "annotations"])
        .and_then(Node::as_map)
        .is_some_and(|entries| {
            entries.iter().any(|e| {
                e.key.as_str().is_some_and(|k| {
                    k.starts_with("config.kubernetes.io/function") || k == "config.k8s.io/function"
                })
            })
        });
    !annotated && doc.get("apiVersion").and_then(Node::as_str) == Some("builtin")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_and_normalises() {
        assert_eq!(join("overlays/prod", "../../base").as_deref(), Some("base"));
        assert_eq!(join("a", "./b/c.yaml").as_deref(), Some("a/b/c.yaml"));
        assert_eq!(join("", "../x"), None);
        assert_eq!(join("a", "/etc/passwd"), None);
    }

    #[test]
    fn remote_references() {
        // Forms from kustomize's repospec_test.go and examples/remoteBuild.md.
        for remote in [
            "https://github.com/org/repo//base?ref=v1",
            "github.com/org/repo/base?ref=v1",
            "github.com/org/repo/dir",
            "github.com/org/repo",
            "GitHub.com/org/repo",
            "github.com:org/repo",
            "git::git@host:org/repo//dir",
            "git::https://gitlab.com/org/repo.git//dir?ref=main",
            "git@github.com:org/repo.git/dir",
            "git@gitlab.example.com:org/repo",
            "ssh://git@host.example.com/org/repo",
            "ssh://host.example.com/org/repo.git",
            "https://dev.azure.com/org/project/_git/repo/path",
            "https://example.com/manifests.yaml",
            "HTTP://example.com/x.yaml",
            "http://10.0.0.1:8080/a/b",
            "file:///srv/git/repo",
            "user@host.example.com:path/to/repo.git",
            "https://host.example.com/org/repo?version=v1",
        ] {
            assert!(is_remote(remote), "{remote}");
        }
        for local in [
            "../../base",
            "base",
            "overlays/prod",
            "./nodepool.yaml",
            "host.example.com/org/repo",
            "gitlab.com/org/repo",
            "/abs/path",
            "a:b",
            "github.com/org",
        ] {
            assert!(!is_remote(local), "{local}");
        }
    }

    #[test]
    fn kustomization_names() {
        assert!(is_kustomization_path("a/kustomization.yaml"));
        assert!(is_kustomization_path("Kustomization"));
        assert!(!is_kustomization_path("a/kustomization.json"));
    }
}
