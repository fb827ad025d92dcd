//! `nodecast server`: a test client drives the real binary over stdio with Content-Length framed
//! JSON-RPC, on real Git repositories, and asserts the exact diagnostics, hover texts and code
//! action edits; malformed input and unknown methods get errors without ending the session, and a
//! client that dies ends the server. Every wait has a timeout: a hang fails the test.

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use common::{project_root, Repo};

/// Longest wait for one message (a debug build on a busy machine checks a small repository in
/// well under a second).
const TIMEOUT: Duration = Duration::from_secs(60);

const NOW: &str = "2026-11-21T02:00:00Z";

/// A client of one server process.
struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    messages: Receiver<Value>,
    /// Messages received but not asked for yet.
    pending: Vec<Value>,
    stderr: Arc<Mutex<String>>,
    next_id: i64,
}

impl Client {
    fn start(dir: &Path) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_nodecast"))
            .arg("server")
            .current_dir(dir)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("NO_COLOR", "1")
            .env(
                "XDG_CACHE_HOME",
                concat!(env!("CARGO_TARGET_TMPDIR"), "/cache"),
            )
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("nodecast server starts");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, messages) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("every frame has a Content-Length")];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                let value: Value = serde_json::from_slice(&body).expect("the server writes JSON");
                assert_eq!(value["jsonrpc"], "2.0", "{value}");
                if tx.send(value).is_err() {
                    return;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err = child.stderr.take().expect("stderr");
        let log = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    return;
                }
                if let Ok(mut log) = log.lock() {
                    log.push_str(&String::from_utf8_lossy(&buf[..n]));
                }
            }
        });
        Client {
            stdin: child.stdin.take(),
            child,
            messages,
            pending: Vec::new(),
            stderr,
            next_id: 0,
        }
    }

    fn log(&self) -> String {
        self.stderr.lock().map(|s| s.clone()).unwrap_or_default()
    }

    fn raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write");
        stdin.flush().expect("flush");
    }

    fn send(&mut self, message: Value) {
        let body = serde_json::to_string(&message).expect("json");
        self.raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its response (result or error).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait(&format!("the response to {method}"), |m| {
            m["id"] == id && m.get("method").is_none()
        })
    }

    /// The first message (received or to come) that `pred` accepts.
    fn wait(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.pending.iter().position(&pred) {
            return self.pending.remove(i);
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(m) if pred(&m) => return m,
                Ok(m) => self.pending.push(m),
                Err(_) => panic!(
                    "no {what} within {TIMEOUT:?}; received meanwhile: {:#?}\nserver log:\n{}",
                    self.pending,
                    self.log()
                ),
            }
        }
    }

    /// The diagnostics published for a document version.
    fn diagnostics(&mut self, uri: &str, version: i64) -> Value {
        let m = self.wait(&format!("diagnostics of {uri} v{version}"), |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == version
        });
        m["params"]["diagnostics"].clone()
    }

    fn initialize(&mut self, root: &Path, options: Value, capabilities: Value) -> Value {
        let response = self.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri(root, ""),
                "capabilities": capabilities,
                "initializationOptions": options,
            }),
        );
        self.notify("initialized", json!({}));
        response
    }

    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}),
        );
    }

    /// One incremental edit: replace `[from, to)` (0-based line, UTF-16 column) with `text`.
    fn change(&mut self, uri: &str, version: i64, from: (u32, u32), to: (u32, u32), text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": range(from, to), "text": text}],
            }),
        );
    }

    fn hover(&mut self, uri: &str, line: u32, character: u32) -> String {
        let r = self.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
        );
        r["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// `shutdown`, `exit`, and the exit status (within the timeout).
    fn shut_down(&mut self) -> i32 {
        let r = self.request("shutdown", Value::Null);
        assert_eq!(r["result"], Value::Null, "{r}");
        self.notify("exit", Value::Null);
        self.exit_status()
    }

    fn exit_status(&mut self) -> i32 {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status.code().unwrap_or(-1);
            }
            assert!(
                Instant::now() < deadline,
                "the server did not exit; log:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn uri(root: &Path, rel: &str) -> String {
    let root = root.canonicalize().expect("root");
    let root = root.to_str().expect("utf-8 temp path");
    if rel.is_empty() {
        format!("file://{root}")
    } else {
        format!("file://{root}/{rel}")
    }
}

fn range(from: (u32, u32), to: (u32, u32)) -> Value {
    json!({"start": {"line": from.0, "character": from.1}, "end": {"line": to.0, "character": to.1}})
}

/// A repository holding the common HyperShift cluster (`testdata/hcp/_base/cluster`: HostedCluster
/// `prod`, NodePool `workers` of 3 nodes, the ConfigMap `worker-mc` with a MachineConfig), one
/// commit, a clean working tree.
fn cluster_repo() -> Repo {
    let repo = Repo::new();
    let base = project_root().join("testdata/hcp/_base/cluster");
    for name in ["configmaps.yaml", "hostedcluster.yaml", "nodepool.yaml"] {
        let text = std::fs::read_to_string(base.join(name)).expect("fixture");
        repo.write(name, &text);
    }
    repo.commit("cluster");
    repo
}

fn options() -> Value {
    json!({"now": NOW, "debounceMs": 50})
}

const RULE: &str = "https://github.com/nodecast/nodecast/blob/main/rules";

#[test]
fn edits_of_an_unsaved_buffer_publish_exact_diagnostics_hovers_and_fixes() {
    let repo = cluster_repo();
    let file = repo.path().join("configmaps.yaml");
    let on_disk = std::fs::read_to_string(&file).expect("read");
    let cm = uri(repo.path(), "configmaps.yaml");
    let mut client = Client::start(repo.path());
    let init = client.initialize(repo.path(), options(), json!({}));
    assert_eq!(
        init["result"],
        json!({
            "capabilities": {
                "positionEncoding": "utf-16",
                "textDocumentSync": {"openClose": true, "change": 2, "save": {"includeText": false}},
                "hoverProvider": true,
                "codeActionProvider": {"codeActionKinds": ["quickfix"]},
                "executeCommandProvider": {"commands": ["nodecast.checkWorkspace"]},
            },
            "serverInfo": {"name": "nodecast", "version": env!("CARGO_PKG_VERSION")},
        })
    );

    // Opened as on disk: nothing new against HEAD (the fixture's schema findings are in the
    // other files, and pre-existing).
    client.open(&cm, &on_disk);
    assert_eq!(client.diagnostics(&cm, 1), json!([]));

    // Type a kernel argument into the embedded MachineConfig (under `spec:`, line 14): not saved.
    client.change(
        &cm,
        2,
        (14, 0),
        (14, 0),
        "      kernelArguments:\n      - nosmt\n",
    );
    assert_eq!(client.diagnostics(&cm, 2), json!([]));
    let forecast = "- NodePool clusters/workers  \\[HostedCluster/clusters/prod\\]  replace, drained — 3 nodes, 1 at a time: 3 waves (maxSurge 1, maxUnavailable 0) — now\n  - configmaps.yaml:15:7  MachineConfig 99-worker-sysctl: kernelArguments added: \\[nosmt\\]\n";
    assert_eq!(
        client.hover(&cm, 14, 8),
        format!("**nodecast** · `ConfigMap/clusters/worker-mc` · `/data/config[MachineConfig 99-worker-sysctl]/spec/kernelArguments`\n\nWhat this line does to nodes:\n\n{forecast}")
    );
    assert_eq!(
        client.hover(&cm, 15, 9),
        format!("**nodecast** · `ConfigMap/clusters/worker-mc` · `/data/config[MachineConfig 99-worker-sysctl]/spec/kernelArguments/0`\n\nWhat this field does to nodes:\n\n{forecast}")
    );
    assert_eq!(
        client.hover(&cm, 0, 3),
        format!("**nodecast** · `ConfigMap/clusters/worker-mc` · `/apiVersion`\n\nWhat this change to the object does to nodes:\n\n{forecast}")
    );

    // A label Kubernetes reads as a boolean, with a suppression that suppresses nothing.
    let label = "        backup: yes # nodecast: ignore[Y002] legacy labels\n";
    client.change(&cm, 3, (12, 0), (12, 0), label);
    let y003 = json!({
        "range": range((12, 16), (12, 19)),
        "severity": 2,
        "code": "Y003",
        "codeDescription": {"href": format!("{RULE}/Y003.md")},
        "source": "nodecast",
        "message": "`yes` is the boolean true for Kubernetes (YAML 1.1), not the string \"yes\"\nwrite \"yes\" (quoted) if a string is meant, or true if a boolean is meant",
    });
    let c104 = json!({
        "range": range((12, 20), (12, 58)),
        "severity": 2,
        "code": "C104",
        "codeDescription": {"href": format!("{RULE}/C104.md")},
        "source": "nodecast",
        "message": "suppression of Y002 matches no finding on this line or the next\nremove `Y002` from the suppression",
        "tags": [1],
    });
    assert_eq!(client.diagnostics(&cm, 3), json!([y003, c104]));

    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": cm},
            "range": range((12, 0), (12, 58)),
            "context": {"diagnostics": []},
        }),
    );
    let action = |title: &str, edit: Value, diagnostic: &Value, preferred: bool| {
        let mut a = json!({
            "title": title,
            "kind": "quickfix",
            "diagnostics": [diagnostic],
            "edit": {"changes": {cm.clone(): [edit]}},
        });
        if preferred {
            a["isPreferred"] = json!(true);
        }
        a
    };
    let quote = json!({"range": range((12, 16), (12, 19)), "newText": "\"yes\""});
    let unsuppress = json!({"range": range((12, 19), (12, 58)), "newText": ""});
    assert_eq!(
        actions["result"],
        json!([
            action(
                "Quote `yes` (the string \"yes\")",
                quote.clone(),
                &y003,
                true
            ),
            action(
                "Remove the unused suppression",
                unsuppress.clone(),
                &c104,
                true
            ),
            action(
                "Suppress Y003 on this line (say why in the comment)",
                json!({"range": range((12, 0), (12, 0)), "newText": "        # nodecast: ignore[Y003] <reason>\n"}),
                &y003,
                false
            ),
            action(
                "Suppress Y003 in this file (say why in the comment)",
                json!({"range": range((0, 0), (0, 0)), "newText": "# nodecast: ignore-file[Y003] <reason>\n"}),
                &y003,
                false
            ),
        ])
    );

    // Apply both fixes as an editor would (the later range first): nothing is left.
    client.change(&cm, 4, (12, 19), (12, 58), "");
    client.change(&cm, 5, (12, 16), (12, 19), "\"yes\"");
    assert_eq!(client.diagnostics(&cm, 5), json!([]));
    // The kernel argument moved one line down with the label; its forecast did not change.
    assert!(
        client.hover(&cm, 15, 8).contains("configmaps.yaml:16:7"),
        "{}",
        client.log()
    );

    assert_eq!(client.shut_down(), 0);
    // The buffers were never written: the repository is as committed.
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), on_disk);
    assert!(!client.log().contains("panicked"), "{}", client.log());
}

#[test]
fn settings_mirror_the_configuration_file_from_initialization_options_and_the_client() {
    let repo = cluster_repo();
    // A working-tree change the editor has not opened: a YAML 1.1 boolean label.
    let np = std::fs::read_to_string(repo.path().join("nodepool.yaml")).expect("read");
    repo.write(
        "nodepool.yaml",
        &np.replace(
            "  namespace: clusters\n",
            "  namespace: clusters\n  labels:\n    backup: yes\n",
        ),
    );
    let np_uri = uri(repo.path(), "nodepool.yaml");
    let mut client = Client::start(repo.path());
    let mut options = options();
    // `.nodecast.yaml` keys, camelCase or as in the file: Y003 off.
    options["rules"] = json!({"Y003": "off"});
    client.initialize(
        repo.path(),
        options,
        json!({"workspace": {"configuration": true}}),
    );
    let asked = client.wait("a workspace/configuration request", |m| {
        m["method"] == "workspace/configuration"
    });
    assert_eq!(
        asked["params"],
        json!({"items": [{"scopeUri": uri(repo.path(), ""), "section": "nodecast"}]})
    );
    // The client's settings: list pre-existing findings too (`report: all`).
    client.send(json!({"jsonrpc": "2.0", "id": asked["id"], "result": [{"report": "all"}]}));
    let text = std::fs::read_to_string(repo.path().join("nodepool.yaml")).expect("read");
    client.open(&np_uri, &text);
    let v101 = json!([{
        "range": range((23, 4), (23, 7)),
        "severity": 1,
        "code": "V101",
        "codeDescription": {"href": format!("{RULE}/V101.md")},
        "source": "nodecast",
        "message": "rejected by the API server: spec.platform.aws.subnet: Required value\nadd `subnet`\nnote: `spec.platform.aws.subnet` is absent; shown at its parent\nnote: pre-existing: the base revision has this finding too; it does not fail the check",
    }]);
    assert_eq!(client.diagnostics(&np_uri, 1), v101);

    // Settings pushed by the client replace its earlier ones: only new findings again, and
    // Y003 is back to its default level.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"nodecast": {"report": "new", "rules": {}}}}),
    );
    let republished = client.wait("diagnostics after the settings changed", |m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == np_uri.as_str()
            && m["params"]["diagnostics"] != v101
    });
    assert_eq!(
        republished["params"]["diagnostics"]
            .as_array()
            .expect("array")
            .iter()
            .map(|d| d["code"].clone())
            .collect::<Vec<_>>(),
        [json!("Y003")]
    );

    // An unknown setting is said, not fatal.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"nodecast": {"fail_onn": "warning"}}}),
    );
    let shown = client.wait("a message about the unknown setting", |m| {
        m["method"] == "window/showMessage"
    });
    assert_eq!(
        shown["params"],
        json!({"type": 2, "message": "nodecast: unknown setting `fail_onn` is ignored; did you mean `fail-on`?"})
    );
    assert_eq!(client.shut_down(), 0);
}

#[test]
fn malformed_messages_and_unknown_methods_get_errors_and_the_server_keeps_running() {
    let repo = cluster_repo();
    let mut client = Client::start(repo.path());
    // Before `initialize`: not initialized.
    let early = client.request("textDocument/hover", json!({}));
    assert_eq!(early["error"]["code"], -32002, "{early}");
    client.initialize(repo.path(), options(), json!({}));

    let error = |client: &mut Client, what: &str| {
        client.wait(what, |m| m.get("error").is_some() && m["id"].is_null())
    };
    client.raw(b"Content-Length: 9\r\n\r\n{not json");
    let e = error(&mut client, "a parse error");
    assert_eq!(e["error"]["code"], -32700, "{e}");
    client.raw(b"Content-Length: abc\r\n\r\n");
    let e = error(&mut client, "a header error");
    assert_eq!(e["error"]["code"], -32700, "{e}");
    client.raw(b"Content-Length: 5\r\n\r\n[1,2]");
    let e = error(&mut client, "an invalid request");
    assert_eq!(e["error"]["code"], -32600, "{e}");
    // JSON with an id but no method: an invalid request, answered with its id.
    client.send(json!({"jsonrpc": "2.0", "id": 77, "params": {}}));
    let e = client.wait("the invalid request's error", |m| m["id"] == 77);
    assert_eq!(e["error"]["code"], -32600, "{e}");

    let unknown = client.request("nodecast/unknown", json!({}));
    assert_eq!(
        unknown["error"],
        json!({"code": -32601, "message": "nodecast does not implement `nodecast/unknown`"})
    );
    let bad = client.request("textDocument/hover", json!({"position": "here"}));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    let command = client.request("workspace/executeCommand", json!({"command": "rm -rf"}));
    assert_eq!(
        command["error"],
        json!({"code": -32602, "message": "unknown command `rm -rf`"})
    );
    // Unknown notifications and notifications with bad parameters are ignored.
    client.notify("nodecast/whatever", json!({}));
    client.notify("textDocument/didOpen", json!({"nonsense": true}));
    // Still serving: a hover on a document that is not open has no content.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(repo.path(), "nodepool.yaml")}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(hover["result"], Value::Null, "{hover}");
    let again = client.request("initialize", json!({"capabilities": {}}));
    assert_eq!(again["error"]["code"], -32600, "{again}");
    assert_eq!(client.shut_down(), 0);
    assert!(!client.log().contains("panicked"), "{}", client.log());
}

#[test]
fn the_server_exits_promptly_without_a_panic_when_the_client_dies() {
    let repo = cluster_repo();
    let mut client = Client::start(repo.path());
    client.initialize(repo.path(), json!({"debounceMs": 0}), json!({}));
    let cm = uri(repo.path(), "configmaps.yaml");
    let text = std::fs::read_to_string(repo.path().join("configmaps.yaml")).expect("read");
    client.open(&cm, &text);
    // The client dies (its end of the pipe closes), possibly while a check runs.
    let started = Instant::now();
    client.stdin = None;
    let status = client.exit_status();
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "took {:?}",
        started.elapsed()
    );
    // No `shutdown` came first: exit code 1, as the protocol says; no panic.
    assert_eq!(status, 1, "{}", client.log());
    assert!(!client.log().contains("panicked"), "{}", client.log());

    // `exit` without `shutdown`: also 1.
    let mut client = Client::start(repo.path());
    client.initialize(repo.path(), options(), json!({}));
    client.notify("exit", Value::Null);
    assert_eq!(client.exit_status(), 1);
}

#[test]
fn kustomize_renders_read_the_unsaved_buffers() {
    if !common::require_kubectl("kustomize_renders_read_the_unsaved_buffers") {
        return;
    }
    let repo = Repo::new();
    let cluster = project_root().join("testdata/hcp/_base/cluster");
    for name in ["configmaps.yaml", "hostedcluster.yaml", "nodepool.yaml"] {
        let text = std::fs::read_to_string(cluster.join(name)).expect("fixture");
        repo.write(&format!("base/{name}"), &text);
    }
    repo.write(
        "base/kustomization.yaml",
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- hostedcluster.yaml\n- nodepool.yaml\n- configmaps.yaml\n",
    );
    repo.write(
        "clusters/prod/kustomization.yaml",
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- ../../base\npatches:\n- path: nodepool-patch.yaml\n",
    );
    let patch = "apiVersion: hypershift.openshift.io/v1beta1\nkind: NodePool\nmetadata:\n  name: workers\n  namespace: clusters\nspec:\n  platform:\n    aws:\n      instanceType: m6i.xlarge\n";
    repo.write("clusters/prod/nodepool-patch.yaml", patch);
    repo.commit("overlay");
    let patch_uri = uri(repo.path(), "clusters/prod/nodepool-patch.yaml");
    let mut client = Client::start(repo.path());
    client.initialize(repo.path(), options(), json!({}));
    client.open(&patch_uri, patch);
    assert_eq!(client.diagnostics(&patch_uri, 1), json!([]));
    assert_eq!(
        client.hover(&patch_uri, 8, 10),
        "**nodecast** · `NodePool/clusters/workers` · `/spec/platform/aws/instanceType`\n\nUnchanged against merge-base of HEAD (_HEAD_): this change rolls no node through it.\n"
            .replace("_HEAD_", repo.git(&["rev-parse", "--short=7", "HEAD"]).trim())
    );
    // The patch changes the instance type in the editor only: the render reads the buffer.
    client.change(&patch_uri, 2, (8, 24), (8, 24), "2");
    assert_eq!(client.diagnostics(&patch_uri, 2), json!([]));
    assert_eq!(
        client.hover(&patch_uri, 8, 10),
        "**nodecast** · `NodePool/clusters/workers` · `/spec/platform/aws/instanceType`\n\nWhat this line does to nodes:\n\n- NodePool clusters/workers  \\[HostedCluster/clusters/prod\\]  replace, drained — 3 nodes, 1 at a time: 3 waves (maxSurge 1, maxUnavailable 0) — now\n  - clusters/prod/nodepool-patch.yaml:9:7  machine template: instanceType \"m6i.xlarge\" -> \"m6i.2xlarge\"\n"
    );
    assert_eq!(client.shut_down(), 0);
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
}

#[test]
fn suggested_names_and_suppression_edits_are_offered_for_new_files_and_the_configuration() {
    let repo = cluster_repo();
    repo.write(".nodecast.yaml", "fail-on: error\n");
    repo.commit("configuration");
    let mut client = Client::start(repo.path());
    client.initialize(repo.path(), options(), json!({}));

    // A file that exists only in the editor, with a suppression naming one code too many.
    let mc = uri(repo.path(), "machineconfig.yaml");
    client.open(
        &mc,
        "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfg # nodecast: ignore[Y002, K005] a typo on purpose\nmetadata:\n  name: 99-test\n",
    );
    let found = client.diagnostics(&mc, 1);
    assert_eq!(
        found
            .as_array()
            .expect("array")
            .iter()
            .map(|d| (d["code"].clone(), d["range"].clone()))
            .collect::<Vec<_>>(),
        [(json!("C104"), range((1, 19), (1, 67)))]
    );
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": mc}, "range": range((1, 30), (1, 30)), "context": {"diagnostics": []}}),
    );
    assert_eq!(
        actions["result"][0]["title"],
        "Remove `Y002` from the suppression"
    );
    assert_eq!(
        actions["result"][0]["edit"]["changes"][&mc],
        json!([{"range": range((1, 19), (1, 67)), "newText": "# nodecast: ignore[K005] a typo on purpose"}])
    );
    assert_eq!(actions["result"].as_array().map(Vec::len), Some(1));

    // Without the suppression: the unknown kind, and the kind it most likely means.
    client.change(&mc, 2, (1, 18), (1, 67), "");
    let found = client.diagnostics(&mc, 2);
    assert_eq!(found[0]["code"], "K005", "{found}");
    assert_eq!(found[0]["range"], range((1, 6), (1, 18)));
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": mc}, "range": range((1, 8), (1, 8)), "context": {"diagnostics": []}}),
    );
    assert_eq!(actions["result"][0]["title"], "Use `MachineConfig`");
    assert_eq!(actions["result"][0]["isPreferred"], true);
    assert_eq!(
        actions["result"][0]["edit"]["changes"][&mc],
        json!([{"range": range((1, 6), (1, 18)), "newText": "MachineConfig"}])
    );

    // The configuration file's buffer is what the check reads: a misspelt key, and its fix.
    let config = uri(repo.path(), ".nodecast.yaml");
    client.open(&config, "fail-on: error\n");
    client.change(&config, 2, (0, 4), (0, 5), "_");
    let found = client.diagnostics(&config, 2);
    assert_eq!(
        found,
        json!([{
            "range": range((0, 0), (0, 7)),
            "severity": 1,
            "code": "C101",
            "codeDescription": {"href": format!("{RULE}/C101.md")},
            "source": "nodecast",
            "message": "unknown configuration key `fail_on` is ignored\ndid you mean `fail-on`?",
        }])
    );
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": config}, "range": range((0, 2), (0, 2)), "context": {"diagnostics": []}}),
    );
    assert_eq!(
        actions["result"],
        json!([{
            "title": "Use `fail-on`",
            "kind": "quickfix",
            "diagnostics": found,
            "edit": {"changes": {config.clone(): [{"range": range((0, 0), (0, 7)), "newText": "fail-on"}]}},
            "isPreferred": true,
        }])
    );
    assert_eq!(client.shut_down(), 0);
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
}

/// The schedule linter's "did you mean" is a quick fix too: a misspelt change-management field
/// (a key) and a misspelt RRULE part (inside a quoted string, replaced where the file writes it).
#[test]
fn schedule_suggestions_are_quick_fixes() {
    let repo = cluster_repo();
    let mut client = Client::start(repo.path());
    client.initialize(repo.path(), options(), json!({}));
    let pool = uri(repo.path(), "pool.yaml");
    client.open(
        &pool,
        "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfigPool\nmetadata:\n  name: worker\nspec:\n  changeManagement:\n    disabledUntill: \"2026-12-01T00:00:00Z\"\n",
    );
    // The one finding of a code among those published.
    let one = |found: Value, code: &str| {
        found
            .as_array()
            .and_then(|all| all.iter().find(|d| d["code"] == code).cloned())
            .unwrap_or_else(|| panic!("no {code}: {found}"))
    };
    let w111 = one(client.diagnostics(&pool, 1), "W111");
    assert_eq!(w111["range"], range((6, 4), (6, 18)));
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": pool}, "range": range((6, 6), (6, 6)), "context": {"diagnostics": []}}),
    );
    // The suggested name first; then suppressing it, on the line or in the file.
    assert_eq!(
        actions["result"][0],
        json!({
            "title": "Use `disabledUntil`",
            "kind": "quickfix",
            "diagnostics": [w111],
            "edit": {"changes": {pool.clone(): [{"range": range((6, 4), (6, 18)), "newText": "disabledUntil"}]}},
            "isPreferred": true,
        })
    );
    assert_eq!(actions["result"].as_array().map(Vec::len), Some(3));

    let policy = uri(repo.path(), "policy.yaml");
    client.open(
        &policy,
        "apiVersion: config.openshift.io/v1alpha1\nkind: ChangeManagementPolicy\nmetadata:\n  name: weekend\n  namespace: openshift-machine-config-operator\nspec:\n  strategy: MaintenanceSchedule\n  maintenanceSchedule:\n    permit:\n      recurrence: \"FREQ=WEEKLY;BYDAYS=SA\"\n      startTime: \"02:00\"\n      duration: 6h\n",
    );
    let w102 = one(client.diagnostics(&policy, 1), "W102");
    assert_eq!(w102["range"], range((9, 31), (9, 37)), "{w102}");
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": policy}, "range": range((9, 33), (9, 33)), "context": {"diagnostics": []}}),
    );
    assert_eq!(actions["result"][0]["title"], "Use `BYDAY`", "{actions}");
    assert_eq!(
        actions["result"][0]["edit"]["changes"][&policy],
        json!([{"range": range((9, 31), (9, 37)), "newText": "BYDAY"}])
    );
    assert_eq!(client.shut_down(), 0);
    assert_eq!(repo.git(&["status", "--porcelain"]), "");
}

/// Runs each state (buffers laid over the working tree of `dir`, compared with `base`) twice:
/// with what the earlier states' checks kept, and fresh; the JSON reports must be equal.
fn reused_equals_fresh(
    dir: &Path,
    base: &str,
    states: Vec<Vec<(String, String)>>,
    disk: Option<(String, String)>,
) {
    use nodecast::check::{self, Options, Reuse};
    use nodecast::source::CompareRequest;
    let mut reuse = Reuse::keeping();
    let json = |o: &check::Outcome| nodecast::report::json::render(o).expect("json");
    for (n, state) in states.into_iter().enumerate() {
        let overlay: nodecast::source::Overlay = std::sync::Arc::new(
            state
                .iter()
                .map(|(p, t)| (p.clone(), std::sync::Arc::from(t.as_bytes())))
                .collect(),
        );
        let mut options = Options::new(
            CompareRequest {
                path: dir.to_path_buf(),
                base: Some(base.into()),
                max_file_size: 10 * 1024 * 1024,
                overlay,
                ..CompareRequest::default()
            },
            NOW.parse().expect("time"),
        );
        options.now_given = true;
        options.report_all = n % 2 == 1;
        options.kustomize.cache_dir = Some(concat!(env!("CARGO_TARGET_TMPDIR"), "/cache").into());
        let reused = check::run_reusing(&options, &mut reuse).expect("check");
        let fresh = check::run(&options).expect("check");
        assert_eq!(json(&reused), json(&fresh), "state {n}");
        // A change on disk (the editor saved): read again, not taken from what was kept.
        if let (2, Some((path, text))) = (n, &disk) {
            std::fs::write(dir.join(path), text).expect("write");
        }
    }
}

/// The first `.yaml` file below `dir` whose text holds `needle`, relative to `dir`.
fn first_holding(dir: &Path, needle: &str) -> String {
    let mut found: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "yaml"))
        .filter(|e| std::fs::read_to_string(e.path()).is_ok_and(|t| t.contains(needle)))
        .filter_map(|e| {
            let rel = e.path().strip_prefix(dir).ok()?;
            Some(rel.to_string_lossy().replace('\\', "/"))
        })
        .collect();
    found.sort();
    found.into_iter().next().expect("a file")
}

fn with_kernel_argument(text: &str, arg: &str) -> String {
    text.replacen(
        "\nspec:\n",
        &format!("\nspec:\n  kernelArguments:\n  - {arg}\n"),
        1,
    )
}

/// What the server keeps between checks (files read, parses, placed renders, schema validation
/// of unchanged documents, the base revision's findings) never changes a result: each check of a
/// sequence of edits, made with what the earlier ones kept, reports exactly what a fresh check
/// reports.
#[test]
fn checks_that_reuse_earlier_work_report_what_fresh_checks_report() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("fleet");
    repogen::generate(repogen::Size::Small, 1, &dir).expect("generate");
    let mc = first_holding(&dir, "kind: MachineConfig\n");
    let np = first_holding(&dir, "kind: NodePool\n");
    let text = |rel: &str| std::fs::read_to_string(dir.join(rel)).expect("read");
    let states = vec![
        vec![],
        vec![(mc.clone(), with_kernel_argument(&text(&mc), "nosmt"))],
        vec![
            (
                mc.clone(),
                with_kernel_argument(&text(&mc), "mitigations=off"),
            ),
            (
                np.clone(),
                text(&np).replacen("replicas: ", "replicas: 1", 1),
            ),
        ],
        // A YAML 1.1 boolean and a field no schema declares: findings come and go.
        vec![(
            np.clone(),
            text(&np).replacen("\nspec:\n", "\n  x: yes\nspec:\n", 1),
        )],
        vec![],
    ];
    let saved = (mc.clone(), with_kernel_argument(&text(&mc), "saved"));
    reused_equals_fresh(&dir, "HEAD^", states, Some(saved));
}

/// The same with Kustomize overlays rendered by the real `kubectl kustomize`: placed renders are
/// reused between checks and between the two sides of one.
#[test]
fn reused_renders_report_what_fresh_renders_report() {
    if !common::require_kubectl("reused_renders_report_what_fresh_renders_report") {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("fleet");
    repogen::generate_kustomize(
        repogen::Size::Small,
        1,
        repogen::kustomize::Variant::Fleet,
        &dir,
    )
    .expect("generate");
    let patch = first_holding(&dir, "kind: NodePool\n");
    let shared = first_holding(&dir.join("bases"), "kind: MachineConfig\n");
    let shared = format!("bases/{shared}");
    let text = |rel: &str| std::fs::read_to_string(dir.join(rel)).expect("read");
    let states = vec![
        vec![],
        vec![(
            patch.clone(),
            text(&patch).replacen("replicas: ", "replicas: 1", 1),
        )],
        vec![(
            shared.clone(),
            with_kernel_argument(&text(&shared), "nosmt"),
        )],
        vec![
            (
                patch.clone(),
                text(&patch).replacen("\nspec:\n", "\n  x: yes\nspec:\n", 1),
            ),
            (
                shared.clone(),
                with_kernel_argument(&text(&shared), "nosmt"),
            ),
        ],
        vec![],
    ];
    reused_equals_fresh(&dir, "main", states, None);
}
