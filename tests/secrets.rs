//! No secret byte in any output: a pull secret, a `stringData` Secret, Ignition password hashes
//! (plain and embedded in a HyperShift ConfigMap) and private Ignition files change in a real Git
//! repository; every format, the `--output-*` files, `--verbose`, a baseline and the GitHub step
//! summary are searched for any 8-character piece of any secret value, raw or base64.

use crate::common;

use base64::Engine;
use common::{nodecast, nodecast_env, Repo};
use sha2::{Digest, Sha256};

fn b64(s: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(s.as_bytes())
}

/// `<redacted: N bytes, sha256 XXXXXXXX>` as the report writes it.
fn described(value: &str) -> String {
    let hash = Sha256::digest(value.as_bytes());
    let hex: String = hash.iter().take(4).map(|b| format!("{b:02x}")).collect();
    format!("<redacted: {} bytes, sha256 {hex}>", value.len())
}

/// The secret material of one revision.
struct Material {
    registry_password: &'static str,
    password: &'static str,
    token: &'static str,
    hash: &'static str,
    embedded_hash: &'static str,
    kube_token: &'static str,
    tls_key: &'static str,
    app_token: &'static str,
    app_conf: &'static str,
    templated: &'static str,
}

const BASE: Material = Material {
    registry_password: "Vq7nR2xK9pLm4TzW",
    password: "Qw3rT8yUi0pAs5dF",
    token: "Mz8Kp2Lq7Wx4Nc9R",
    hash: "$6$rounds=4096$Yx3Lk9Qa$Hj5Gf8Ds2Ap0Lk7Zx4Cv",
    embedded_hash: "$6$rounds=4096$Pm2Nb6Vc$Tr9Ew1Qy4Ui8Op3As6Df",
    kube_token: "Kt5Rp9Zm2Xq8Wn3L",
    tls_key: "Bk4Jh7Gf1Ds9Aq2W",
    app_token: "Ap9Zx2Cv7Bn4Mq1W",
    app_conf: "Cf3Vb8Nm1Qw6Er4T",
    templated: "Rt5Yu0Io3Pa8Sd2F",
};

const HEAD: Material = Material {
    registry_password: "Hg6Fd1Sa8Pq3Wz7X",
    password: "Lo9Ik2Uj5Yh8Tg1R",
    token: "Ed4Rf7Tg0Yh3Uj6I",
    hash: "$6$rounds=4096$Wq1Er5Ty$Ui7Op2As9Df4Gh6Jk3Lz",
    embedded_hash: "$6$rounds=4096$Xc8Vb3Nm$Qa5Ws0Ed7Rf2Tg9Yh4Uj",
    kube_token: "Nb2Vc7Xz4Lk9Jh1G",
    tls_key: "Fd8Sa3Qw6Er1Ty5U",
    app_token: "Zx7Cv2Bn9Mq4Wl1K",
    app_conf: "Po0Iu5Yt2Re8Wq3E",
    templated: "Gh9Jk4Lz7Xc2Vb5N",
};

impl Material {
    fn auth(&self) -> String {
        format!("robot-deployer:{}", self.registry_password)
    }

    fn dockerconfigjson(&self) -> String {
        format!(
            "{{\"auths\":{{\"quay.io\":{{\"auth\":\"{}\",\"email\":\"ops@example.com\"}}}}}}",
            b64(&self.auth())
        )
    }

    fn kubeconfig(&self) -> String {
        format!(
            "apiVersion: v1\nkind: Config\nusers:\n- name: admin\n  user:\n    token: {}\n",
            self.kube_token
        )
    }

    fn tls(&self) -> String {
        format!(
            "-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----\n",
            self.tls_key
        )
    }

    fn app_file(&self) -> String {
        format!("password={}\n", self.app_conf)
    }

    /// Every secret value in every form a leak could take.
    fn forms(&self) -> Vec<String> {
        let raw = [
            self.registry_password.to_string(),
            self.auth(),
            self.dockerconfigjson(),
            self.password.to_string(),
            self.token.to_string(),
            self.hash.to_string(),
            self.embedded_hash.to_string(),
            self.kube_token.to_string(),
            self.kubeconfig(),
            self.tls_key.to_string(),
            self.tls(),
            self.app_token.to_string(),
            self.app_conf.to_string(),
            self.app_file(),
            self.templated.to_string(),
        ];
        let mut out: Vec<String> = Vec::new();
        for r in raw {
            out.push(b64(&r));
            out.push(r);
        }
        out.push(b64(&self.dockerconfigjson()));
        out
    }

    fn write(&self, repo: &Repo) {
        repo.write(
            "clusters/prod/hostedcluster.yaml",
            &format!(
                "{}---
apiVersion: v1
kind: Secret
metadata:
  name: pull-secret
  namespace: clusters
type: kubernetes.io/dockerconfigjson
data:
  .dockerconfigjson: {}
",
                common::hosted_cluster("prod", "4.18.5"),
                b64(&self.dockerconfigjson())
            ),
        );
        repo.write(
            "clusters/prod/nodepool.yaml",
            &common::node_pool("workers", "prod", 3, &["users"]),
        );
        repo.write(
            "clusters/prod/users.yaml",
            &format!(
                "apiVersion: v1
kind: ConfigMap
metadata:
  name: users
  namespace: clusters
data:
  config: |
    apiVersion: machineconfiguration.openshift.io/v1
    kind: MachineConfig
    metadata:
      name: 99-users
      labels:
        machineconfiguration.openshift.io/role: worker
    spec:
      config:
        ignition:
          version: 3.2.0
        passwd:
          users:
          - name: core
            passwordHash: \"{}\"
",
                self.embedded_hash
            ),
        );
        // The repeated key puts a finding (and its code frame) on the secret's lines.
        repo.write(
            "standalone/a/creds.yaml",
            &format!(
                "apiVersion: v1
kind: Secret
metadata:
  name: creds
  namespace: default
stringData:
  password: {p}
  password: {p}
  token: {t}
",
                p = self.password,
                t = self.token
            ),
        );
        // A template action next to a secret: the file is not parsed, its frame is still masked.
        repo.write(
            "standalone/a/templated.yaml",
            &format!(
                "apiVersion: v1
kind: Secret
metadata:
  name: templated
  namespace: default
stringData:
  user: {{{{ .Values.user }}}}
  password: {}
",
                self.templated
            ),
        );
        repo.write(
            "standalone/a/app.yaml",
            &format!(
                "apiVersion: v1
kind: ConfigMap
metadata:
  name: app
  namespace: default
data:
  token: {}
  visible: plain-setting
",
                self.app_token
            ),
        );
        repo.write(
            "standalone/a/mc.yaml",
            &format!(
                "apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: 99-worker-secrets
  labels:
    machineconfiguration.openshift.io/role: worker
spec:
  config:
    ignition:
      version: 3.2.0
    passwd:
      users:
      - name: core
        passwordHash: {hash}
    storage:
      files:
      - path: /etc/kubernetes/kubeconfig
        mode: 384
        contents:
          source: data:text/plain;base64,{kube}
      - path: /etc/pki/tls/private/server.key
        mode: 420
        contents:
          source: data:,{tls}
      - path: /etc/app/creds.conf
        mode: 420
        contents:
          source: data:,{app}
",
                hash = self.hash,
                kube = b64(&self.kubeconfig()),
                tls = percent(&self.tls()),
                app = percent(&self.app_file()),
            ),
        );
    }
}

/// Percent-encodes what a data URL cannot hold literally.
fn percent(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn repository() -> Repo {
    let repo = Repo::new();
    repo.write(
        ".nodecast.yaml",
        "redact:\n  fields: [\"ConfigMap/data/token\"]\n  files: [\"/etc/app/*.conf\"]\n",
    );
    BASE.write(&repo);
    repo.commit("base");
    HEAD.write(&repo);
    repo.commit("rotate every credential");
    repo
}

/// Every window of 8 characters of every secret form that occurs in `text`.
fn leaks(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for form in BASE.forms().into_iter().chain(HEAD.forms()) {
        let chars: Vec<char> = form.chars().collect();
        for w in chars.windows(8) {
            let piece: String = w.iter().collect();
            // Fixed text around the values (`robot-deployer:`, PEM armour, JSON keys) is not secret.
            if PUBLIC.iter().any(|p| p.contains(&piece)) {
                continue;
            }
            if text.contains(&piece) {
                found.push(format!("{piece:?} (from {form:?})"));
                break;
            }
        }
    }
    found
}

/// The non-secret text the secret forms are built around.
const PUBLIC: [&str; 8] = [
    "robot-deployer:",
    "-----BEGIN PRIVATE KEY-----\n",
    "\n-----END PRIVATE KEY-----\n",
    "{\"auths\":{\"quay.io\":{\"auth\":\"",
    "\",\"email\":\"ops@example.com\"}}}",
    "apiVersion: v1\nkind: Config\nusers:\n- name: admin\n  user:\n    token: ",
    "$6$rounds=4096$",
    "password=",
];

#[test]
fn no_secret_byte_in_any_output() {
    let repo = repository();
    let dir = tempfile::tempdir().expect("tmp");
    let out = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    let mut outputs: Vec<(String, String)> = Vec::new();
    for format in ["human", "json", "sarif", "github", "markdown"] {
        let run = nodecast(
            repo.path(),
            &["check", "--head", "HEAD", "--format", format, "--verbose"],
        );
        assert_eq!(run.code, 1, "{format}: {}{}", run.stdout, run.stderr);
        outputs.push((format!("{format} stdout"), run.stdout));
        outputs.push((format!("{format} stderr"), run.stderr));
    }
    let (summary, github_output) = (out("summary.md"), out("github-output"));
    let files = nodecast_env(
        repo.path(),
        &[
            "check",
            "--head",
            "HEAD",
            "--output-sarif",
            &out("r.sarif"),
            "--output-json",
            &out("r.json"),
            "--output-markdown",
            &out("r.md"),
        ],
        &[
            ("GITHUB_ACTIONS", "true"),
            ("GITHUB_STEP_SUMMARY", &summary),
            ("GITHUB_OUTPUT", &github_output),
        ],
    );
    assert_eq!(files.code, 1, "{}{}", files.stdout, files.stderr);
    outputs.push(("actions stdout".into(), files.stdout));
    let baseline = nodecast(
        repo.path(),
        &["baseline", "write", &out("baseline.json"), "--head", "HEAD"],
    );
    assert_eq!(baseline.code, 0, "{}", baseline.stderr);
    for name in ["r.sarif", "r.json", "r.md", "summary.md", "baseline.json"] {
        let text = std::fs::read_to_string(dir.path().join(name)).expect(name);
        assert!(!text.is_empty(), "{name} is empty");
        outputs.push((name.into(), text));
    }
    for (name, text) in &outputs {
        assert_eq!(leaks(text), Vec::<String>::new(), "{name} leaks:\n{text}");
    }

    // What changed is still said: key names, and a digest and length of both values.
    let json = nodecast(
        repo.path(),
        &["check", "--head", "HEAD", "--format", "json"],
    )
    .json();
    let field = |object: &str, path: &str| -> (String, String) {
        let change = json["changes"]
            .as_array()
            .expect("changes")
            .iter()
            .find(|c| c["object"] == object)
            .unwrap_or_else(|| panic!("{object} changed"));
        let f = change["fields"]
            .as_array()
            .expect("fields")
            .iter()
            .find(|f| f["path"] == path)
            .unwrap_or_else(|| panic!("{object} {path}: {change:#}"));
        assert_eq!(f["text_diff"], serde_json::Value::Null, "{path}");
        (
            f["before"].as_str().unwrap_or_default().to_string(),
            f["after"].as_str().unwrap_or_default().to_string(),
        )
    };
    assert_eq!(
        field("Secret/clusters/pull-secret", "/data/.dockerconfigjson"),
        (
            described(&b64(&BASE.dockerconfigjson())),
            described(&b64(&HEAD.dockerconfigjson()))
        )
    );
    assert_eq!(
        field("Secret/default/creds", "/stringData/password"),
        (described(BASE.password), described(HEAD.password))
    );
    assert_eq!(
        field("Secret/default/creds", "/stringData/token"),
        (described(BASE.token), described(HEAD.token))
    );
    assert_eq!(
        field(
            "MachineConfig/99-worker-secrets",
            "/spec/config/passwd/users/0/passwordHash"
        ),
        (described(BASE.hash), described(HEAD.hash))
    );
    assert_eq!(
        field(
            "ConfigMap/clusters/users",
            "/data/config[MachineConfig 99-users]/spec/config/passwd/users/0/passwordHash"
        ),
        (described(BASE.embedded_hash), described(HEAD.embedded_hash))
    );
    assert_eq!(
        field("ConfigMap/default/app", "/data/token"),
        (described(BASE.app_token), described(HEAD.app_token))
    );
    for (i, path) in ["0", "1", "2"].iter().enumerate() {
        let (before, after) = field(
            "MachineConfig/99-worker-secrets",
            &format!("/spec/config/storage/files/{path}/contents/source"),
        );
        assert!(before.starts_with("<redacted: "), "file {i}: {before}");
        assert!(after.starts_with("<redacted: "), "file {i}: {after}");
    }

    // Code frames on a Secret's lines show the key and a placeholder.
    let human = &outputs[0].1;
    assert!(
        human.contains(" 7 │   password: <redacted>      \n"),
        "{human}"
    );
    assert!(
        human.contains(" 9 │   token: <redacted>      \n"),
        "{human}"
    );
    assert!(
        human.contains("      /stringData/password  <redacted: 16 bytes, sha256 "),
        "{human}"
    );
    assert!(
        human.contains(" 8 │   password: <redacted>      \n"),
        "the templated Secret's frame: {human}"
    );
}

#[test]
fn placeholders_and_other_kinds_stay_visible() {
    let repo = Repo::new();
    let secret = |value: &str, setting: &str| {
        format!(
            "apiVersion: v1
kind: Secret
metadata:
  name: vault
  namespace: default
stringData:
  password: <path:secret/data/app#password>
  note: {value}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: default
data:
  setting: {setting}
"
        )
    };
    repo.write("a.yaml", &secret("Ty7Ui2Op9As4Df1G", "first-value"));
    repo.commit("base");
    repo.write("a.yaml", &secret("Hj3Kl8Zx5Cv0Bn6M", "second-value"));
    repo.commit("head");
    let json = nodecast(
        repo.path(),
        &["check", "--head", "HEAD", "--format", "json"],
    )
    .json();
    let fields: Vec<(String, String, String)> = json["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .flat_map(|c| {
            c["fields"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .map(move |f| {
                    (
                        format!(
                            "{} {}",
                            c["object"].as_str().unwrap_or(""),
                            f["path"].as_str().unwrap_or("")
                        ),
                        f["before"].as_str().unwrap_or("").to_string(),
                        f["after"].as_str().unwrap_or("").to_string(),
                    )
                })
        })
        .collect();
    assert_eq!(
        fields,
        [
            (
                "ConfigMap/default/settings /data/setting".to_string(),
                "\"first-value\"".to_string(),
                "\"second-value\"".to_string()
            ),
            (
                "Secret/default/vault /stringData/note".to_string(),
                described("Ty7Ui2Op9As4Df1G"),
                described("Hj3Kl8Zx5Cv0Bn6M")
            ),
        ]
    );
}
