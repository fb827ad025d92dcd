//! Which values are private: Secret `data`/`stringData`, registry credentials, Ignition password
//! hashes and the contents of Ignition files whose path or mode marks them private, plus what a
//! repository adds in `.nodecast.yaml` (`redact`).

use globset::GlobSet;
use nodecast_yaml::Node;

/// Redaction a repository adds (`.nodecast.yaml` `redact:`).
#[derive(Clone, Debug, Default)]
pub struct Extra {
    /// `Kind/json/pointer` globs (segments unescaped, `*` one segment, `**` any): these values are
    /// private too.
    pub fields: Option<GlobSet>,
    /// Ignition file paths (globs) whose contents are private too.
    pub files: Option<GlobSet>,
}

/// Keys whose value is a registry credential wherever they appear.
const CREDENTIAL_KEYS: [&str; 2] = [".dockerconfigjson", ".dockercfg"];

/// Whether the value at `segs` (unescaped pointer segments) of a document is private. `root` is
/// the document's root (an Ignition file entry's `path` and `mode` are read from it).
pub fn is_private<S: AsRef<str>>(
    kind: &str,
    group: &str,
    root: Node<'_>,
    segs: &[S],
    extra: &Extra,
) -> bool {
    let seg = |i: usize| segs.get(i).map(AsRef::as_ref);
    if segs.iter().any(|s| CREDENTIAL_KEYS.contains(&s.as_ref())) {
        return true;
    }
    if kind == "Secret" && group.is_empty() && matches!(seg(0), Some("data" | "stringData")) {
        return true;
    }
    // Ignition `passwd.users[].passwordHash`, wherever the Ignition config sits.
    if let Some(i) = segs.iter().position(|s| s.as_ref() == "passwordHash") {
        if i >= 2 && seg(i - 2) == Some("users") {
            return true;
        }
    }
    if ignition_file_is_private(root, segs, extra) {
        return true;
    }
    extra.fields.as_ref().is_some_and(|g| {
        let mut key = kind.to_string();
        for s in segs {
            key.push('/');
            key.push_str(s.as_ref());
        }
        g.is_match(&key)
    })
}

/// `…/storage/files/N/contents…` or `…/append…` of a file entry whose path or mode is private.
fn ignition_file_is_private<S: AsRef<str>>(root: Node<'_>, segs: &[S], extra: &Extra) -> bool {
    let Some(at) = segs.windows(4).position(|w| {
        w[0].as_ref() == "storage"
            && w[1].as_ref() == "files"
            && matches!(w[3].as_ref(), "contents" | "append")
    }) else {
        return false;
    };
    let Some(entry) = node_at(root, &segs[..at + 3]) else {
        return false;
    };
    let path = entry.get("path").and_then(Node::as_str).unwrap_or_default();
    let mode = entry.get("mode").and_then(|m| match m.kind() {
        nodecast_yaml::NodeKind::Scalar {
            value: nodecast_yaml::Scalar::Int(i),
            ..
        } => Some(i),
        _ => None,
    });
    private_file(path, mode) || extra.files.as_ref().is_some_and(|g| g.is_match(path))
}

/// Whether an Ignition file's path or mode marks its contents as private: key material, anything
/// under a `private` folder, credential stores, or a mode that only the owner may read.
pub fn private_file(path: &str, mode: Option<i64>) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    const SUFFIXES: [&str; 8] = [
        ".key", "-key.pem", "_key.pem", ".key.pem", ".p12", ".pfx", ".keytab", ".jks",
    ];
    const NAMES: [&str; 7] = [
        "id_rsa",
        "id_dsa",
        "id_ecdsa",
        "id_ed25519",
        "shadow",
        "gshadow",
        "auth.json",
    ];
    SUFFIXES.iter().any(|s| name.ends_with(s))
        || NAMES.contains(&name)
        || path.contains("/private/")
        || path == "/var/lib/kubelet/config.json"
        || path.ends_with("/.docker/config.json")
        || path.ends_with("/.dockercfg")
        || mode.is_some_and(|m| (0..=0o7777).contains(&m) && m & 0o077 == 0)
}

/// The node at unescaped pointer segments.
pub fn node_at<'n, S: AsRef<str>>(root: Node<'n>, segs: &[S]) -> Option<Node<'n>> {
    segs.iter().try_fold(root, |n, s| match n.kind() {
        nodecast_yaml::NodeKind::Map(_) => n.get(s.as_ref()),
        nodecast_yaml::NodeKind::Seq(items) => {
            s.as_ref().parse::<usize>().ok().and_then(|i| items.get(i))
        }
        nodecast_yaml::NodeKind::Scalar { .. } => None,
    })
}

/// The API group of an `apiVersion` (`""` for core).
pub fn group_of(api_version: &str) -> &str {
    api_version
        .rsplit_once('/')
        .map(|(g, _)| g)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The document's root (the document is kept for the rest of the test run).
    fn root(text: &str) -> Node<'static> {
        let mut parsed = nodecast_yaml::parse(text, &Default::default());
        Box::leak(Box::new(parsed.documents.swap_remove(0))).root()
    }

    #[test]
    fn secrets_and_credentials() {
        let r = root("a: 1\n");
        let x = Extra::default();
        assert!(is_private("Secret", "", r, &["data", "x"], &x));
        assert!(is_private("Secret", "", r, &["stringData"], &x));
        assert!(!is_private("Secret", "", r, &["metadata", "name"], &x));
        assert!(!is_private("ConfigMap", "", r, &["data", "x"], &x));
        assert!(is_private(
            "ConfigMap",
            "",
            r,
            &["data", ".dockerconfigjson"],
            &x
        ));
        assert!(is_private(
            "MachineConfig",
            "machineconfiguration.openshift.io",
            r,
            &["spec", "config", "passwd", "users", "0", "passwordHash"],
            &x
        ));
    }

    #[test]
    fn private_ignition_files() {
        let r = root(
            "spec:\n  config:\n    storage:\n      files:\n      - path: /etc/pki/tls/private/a.pem\n        contents: {source: 'data:,x'}\n      - path: /etc/kubernetes/kubeconfig\n        mode: 0600\n        contents: {source: 'data:,y'}\n      - path: /etc/motd\n        mode: 420\n        contents: {source: 'data:,z'}\n",
        );
        let x = Extra::default();
        let at = |i: &str| {
            is_private(
                "MachineConfig",
                "machineconfiguration.openshift.io",
                r,
                &[
                    "spec", "config", "storage", "files", i, "contents", "source",
                ],
                &x,
            )
        };
        assert!(at("0"));
        assert!(at("1"));
        assert!(!at("2"));
        assert!(private_file("/etc/ssl/server.key", None));
        assert!(private_file("/root/.ssh/id_ed25519", Some(0o644)));
        assert!(private_file("/var/lib/kubelet/config.json", Some(0o644)));
        assert!(!private_file("/etc/ssl/ca.pem", Some(0o644)));
        assert!(private_file("/opt/x.conf", Some(0o400)));
    }
}
