//! `nodecast server`: a Language Server Protocol server over stdio, so an editor shows the same
//! findings and forecast as `nodecast check`, live. Base = `HEAD` (or the merge-base of a
//! configured branch), head = the working tree with the editor's unsaved buffers laid over it
//! ([`crate::source::Overlay`]; nothing is written into the repository). Edits are debounced and
//! checked off the message loop with the same engine ([`crate::check::run`], render cache on);
//! a result computed from older buffers than the editor now has is not published. Diagnostics go
//! to open documents (every file with `workspace-diagnostics`), hovers say what a line does to
//! nodes, code actions apply the fixes nodecast knows.

mod actions;
mod convert;
mod hover;
pub mod settings;
mod transport;
mod worker;

use std::collections::{BTreeMap, BTreeSet};
use std::str::FromStr;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionParams, CodeActionProviderCapability,
    DidChangeConfigurationParams, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DidSaveTextDocumentParams, ExecuteCommandOptions,
    ExecuteCommandParams, Hover, HoverContents, HoverParams, HoverProviderCapability,
    InitializeParams, MarkupContent, MarkupKind, MessageType, PositionEncodingKind,
    PublishDiagnosticsParams, SaveOptions, ServerCapabilities, ServerInfo, ShowMessageParams,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, Uri,
};
use serde_json::Value;

use self::convert::Lines;
use self::settings::{Settings, Workspace};
use self::transport::Out;
use self::worker::{Done, Job};
use crate::check::Outcome;
use crate::diagnostic::Side;

/// The command that publishes the findings of every file once (`workspace/executeCommand`).
pub const CHECK_WORKSPACE: &str = "nodecast.checkWorkspace";

/// What the message loop waits for.
enum Event {
    /// A message of the client.
    Client(Message),
    /// The client's input ended: it exited or died.
    Gone,
    /// A check finished.
    Done(Box<Done>),
}

/// Serves one client over stdin/stdout until it exits or goes away. True when it asked to shut
/// down before exiting (exit code 0, as the protocol says), false otherwise (1).
pub fn serve() -> bool {
    // Checks run edit after edit for hours: what each keeps is freed by a later one, so packing
    // it in shared chunks would keep chunks for a few live blocks each.
    nodecast_alloc::stop();
    let (events_tx, events) = mpsc::channel::<Event>();
    let (out, writer) = transport::stdio(events_tx.clone());
    let jobs = worker::start(events_tx);
    let mut server = Server::new(out, jobs);
    let clean = loop {
        let wait = server
            .due
            .filter(|_| !server.running)
            .map(|due| due.saturating_duration_since(Instant::now()));
        let event = match wait {
            Some(wait) => events.recv_timeout(wait),
            None => events.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match event {
            Ok(Event::Client(message)) => {
                if let Some(clean) = server.handle(message) {
                    break clean;
                }
            }
            Ok(Event::Done(done)) => server.finished(*done),
            Ok(Event::Gone) | Err(RecvTimeoutError::Disconnected) => {
                eprintln!("nodecast server: the client went away; exiting");
                break false;
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
        server.start_due_check();
    };
    if server.running {
        // A render may be running: stop it and remove its temporary folder, as on a signal.
        crate::kustomize::interrupt::stop_renders(15);
    }
    writer.finish(Duration::from_secs(2));
    clean
}

/// Where the session is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Waiting for `initialize`.
    Starting,
    /// Serving.
    Running,
    /// `shutdown` received: waiting for `exit`.
    ShuttingDown,
}

/// One open document.
struct Doc {
    /// Its repository-relative path (`None` outside the workspace or not a file).
    path: Option<String>,
    /// The editor's text.
    text: String,
    /// The editor's version.
    version: i32,
}

/// The latest outcome and what it was computed from.
struct Checked {
    outcome: Outcome,
    /// Each open document's version.
    versions: BTreeMap<String, i32>,
    /// The edit counter when the check started (equal to the loop's: nothing changed since).
    generation: u64,
}

struct Server {
    out: Out,
    jobs: Sender<Job>,
    phase: Phase,
    workspace: Option<Workspace>,
    init_options: Value,
    client_settings: Value,
    settings: Settings,
    settings_problems: Vec<String>,
    /// Problems of the `.nodecast.yaml` keys the editor sets, as last shown.
    config_problems: Vec<String>,
    docs: BTreeMap<String, Doc>,
    /// Counts edits, opens, saves and settings changes: what a check's outcome may be behind on.
    generation: u64,
    /// Counts settings changes.
    epoch: u64,
    due: Option<Instant>,
    running: bool,
    last: Option<Checked>,
    /// Files (not open) whose findings were published: cleared when they have none any more.
    published: BTreeSet<String>,
    /// Publish every file's findings with the next result (the workspace command).
    workspace_once: bool,
    supports_configuration: bool,
    next_request: i32,
    configuration_requests: BTreeSet<RequestId>,
    last_error: Option<String>,
}

impl Server {
    fn new(out: Out, jobs: Sender<Job>) -> Self {
        Server {
            out,
            jobs,
            phase: Phase::Starting,
            workspace: None,
            init_options: Value::Null,
            client_settings: Value::Null,
            settings: Settings::default(),
            settings_problems: Vec::new(),
            config_problems: Vec::new(),
            docs: BTreeMap::new(),
            generation: 0,
            epoch: 0,
            due: None,
            running: false,
            last: None,
            published: BTreeSet::new(),
            workspace_once: false,
            supports_configuration: false,
            next_request: 0,
            configuration_requests: BTreeSet::new(),
            last_error: None,
        }
    }

    /// Handles one message; `Some(clean)` when the session ends.
    fn handle(&mut self, message: Message) -> Option<bool> {
        match message {
            Message::Request(req) => {
                let id = req.id.clone();
                let response = match self.request(req) {
                    Ok(value) => Response::new_ok(id, value),
                    Err((code, text)) => Response::new_err(id, code as i32, text),
                };
                self.out.send(response.into());
                None
            }
            Message::Notification(n) => self.notification(n),
            Message::Response(r) => {
                self.response(r);
                None
            }
        }
    }

    fn request(&mut self, req: Request) -> Result<Value, (ErrorCode, String)> {
        match (self.phase, req.method.as_str()) {
            (Phase::Starting, "initialize") => {
                let params: InitializeParams = params(req)?;
                Ok(self.initialize(params))
            }
            (Phase::Starting, _) => Err((
                ErrorCode::ServerNotInitialized,
                "the server is not initialized yet: send `initialize` first".into(),
            )),
            (Phase::ShuttingDown, _) => Err((
                ErrorCode::InvalidRequest,
                "the server is shutting down: only `exit` is accepted".into(),
            )),
            (Phase::Running, "initialize") => Err((
                ErrorCode::InvalidRequest,
                "the server is already initialized".into(),
            )),
            (Phase::Running, "shutdown") => {
                self.phase = Phase::ShuttingDown;
                Ok(Value::Null)
            }
            (Phase::Running, "textDocument/hover") => {
                let params: HoverParams = params(req)?;
                Ok(self.hover(params))
            }
            (Phase::Running, "textDocument/codeAction") => {
                let params: CodeActionParams = params(req)?;
                Ok(self.code_actions(params))
            }
            (Phase::Running, "workspace/executeCommand") => {
                let params: ExecuteCommandParams = params(req)?;
                if params.command != CHECK_WORKSPACE {
                    return Err((
                        ErrorCode::InvalidParams,
                        format!("unknown command `{}`", params.command),
                    ));
                }
                self.workspace_once = true;
                self.due = Some(Instant::now());
                Ok(Value::Null)
            }
            (Phase::Running, method) => Err((
                ErrorCode::MethodNotFound,
                format!("nodecast does not implement `{method}`"),
            )),
        }
    }

    fn initialize(&mut self, params: InitializeParams) -> Value {
        #[allow(deprecated)]
        let folder = params
            .workspace_folders
            .as_ref()
            .and_then(|f| f.first())
            .and_then(|f| convert::path_of(&f.uri))
            .or_else(|| params.root_uri.as_ref().and_then(convert::path_of))
            .or_else(|| params.root_path.as_ref().map(std::path::PathBuf::from));
        self.workspace = folder.filter(|f| f.is_dir()).map(Workspace::new);
        self.supports_configuration = params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.configuration)
            .unwrap_or(false);
        self.init_options = params.initialization_options.unwrap_or(Value::Null);
        self.apply_settings();
        self.phase = Phase::Running;
        let capabilities = ServerCapabilities {
            position_encoding: Some(PositionEncodingKind::UTF16),
            text_document_sync: Some(TextDocumentSyncCapability::Options(
                TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::INCREMENTAL),
                    save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                        include_text: Some(false),
                    })),
                    ..Default::default()
                },
            )),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
                ..Default::default()
            })),
            execute_command_provider: Some(ExecuteCommandOptions {
                commands: vec![CHECK_WORKSPACE.into()],
                ..Default::default()
            }),
            ..Default::default()
        };
        serde_json::json!({
            "capabilities": capabilities,
            "serverInfo": ServerInfo {
                name: "nodecast".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            },
        })
    }

    fn notification(&mut self, n: Notification) -> Option<bool> {
        if n.method == "exit" {
            return Some(self.phase == Phase::ShuttingDown);
        }
        if self.phase != Phase::Running {
            // Before `initialize` (and after `shutdown`) notifications are dropped.
            return None;
        }
        let method = n.method.clone();
        let result = match method.as_str() {
            "initialized" => {
                self.request_configuration();
                // Editors open their documents right after: one check covers them all.
                self.edited();
                Ok(())
            }
            "textDocument/didOpen" => {
                notification_params(n).map(|p: DidOpenTextDocumentParams| self.did_open(p))
            }
            "textDocument/didChange" => {
                notification_params(n).map(|p: DidChangeTextDocumentParams| self.did_change(p))
            }
            "textDocument/didSave" => {
                notification_params(n).map(|_: DidSaveTextDocumentParams| self.edited())
            }
            "textDocument/didClose" => {
                notification_params(n).map(|p: DidCloseTextDocumentParams| self.did_close(p))
            }
            "workspace/didChangeConfiguration" => notification_params(n)
                .map(|p: DidChangeConfigurationParams| self.configuration_changed(p.settings)),
            "workspace/didChangeWatchedFiles" => {
                self.edited();
                Ok(())
            }
            _ => Ok(()),
        };
        if let Err(problem) = result {
            eprintln!("nodecast server: {method} ignored: {problem}");
        }
        None
    }

    fn response(&mut self, r: Response) {
        if !self.configuration_requests.remove(&r.id) {
            return;
        }
        match r.response_result {
            Ok(Value::Array(mut items)) if !items.is_empty() => {
                self.client_settings = items.swap_remove(0);
                self.apply_settings();
                self.edited();
            }
            _ => {}
        }
    }

    /// Asks the client for the `nodecast` section of its settings.
    fn request_configuration(&mut self) {
        if !self.supports_configuration {
            return;
        }
        self.next_request += 1;
        let id = RequestId::from(format!("nodecast-{}", self.next_request));
        self.configuration_requests.insert(id.clone());
        let scope = self
            .workspace
            .as_ref()
            .and_then(|w| convert::uri_of(&w.folder));
        self.out.send(
            Request::new(
                id,
                "workspace/configuration".into(),
                lsp_types::ConfigurationParams {
                    items: vec![lsp_types::ConfigurationItem {
                        scope_uri: scope,
                        section: Some("nodecast".into()),
                    }],
                },
            )
            .into(),
        );
    }

    fn configuration_changed(&mut self, settings: Value) {
        // Clients that pull settings send `null` (or `{"nodecast": null}`) as a mere signal.
        let pushed = match settings.as_object() {
            Some(m) if m.len() == 1 => {
                m.get("nodecast").is_some_and(|v| !v.is_null()) || m.get("nodecast").is_none()
            }
            Some(m) => !m.is_empty(),
            None => false,
        };
        if pushed {
            self.client_settings = settings;
            self.apply_settings();
            // Every finding may change: check at once, and no earlier outcome holds any more.
            self.generation += 1;
            self.due = Some(Instant::now());
        } else {
            self.request_configuration();
        }
    }

    fn apply_settings(&mut self) {
        self.epoch += 1;
        let merged = settings::merge(&[&self.init_options, &self.client_settings]);
        let (settings, problems) = settings::parse(&merged);
        self.settings = settings;
        self.warn_about_settings(problems);
    }

    /// Shows the problems of the settings, once each time they change.
    fn warn_about_settings(&mut self, problems: Vec<String>) {
        if problems != self.settings_problems {
            for p in &problems {
                self.show(MessageType::WARNING, format!("nodecast: {p}"));
            }
            self.settings_problems = problems;
        }
    }

    fn did_open(&mut self, p: DidOpenTextDocumentParams) {
        let uri = p.text_document.uri;
        let file = convert::path_of(&uri);
        if self.workspace.is_none() {
            // An editor that opened a file, not a folder: the repository holding the file.
            if let Some(dir) = file.as_deref().and_then(std::path::Path::parent) {
                self.workspace = Some(Workspace::new(crate::config::root_of(dir)));
            }
        }
        let path = match (&self.workspace, &file) {
            (Some(ws), Some(file)) => convert::relative(&ws.root, file),
            _ => None,
        };
        let key = uri.as_str().to_string();
        let doc = Doc {
            path,
            text: p.text_document.text,
            version: p.text_document.version,
        };
        // When the latest outcome was computed from this very text, and nothing changed since,
        // it holds for the document now: publish at once, no check needed.
        let generation = self.generation;
        let current = match (&mut self.last, &doc.path) {
            (Some(last), Some(path)) if last.generation == generation => {
                let same = convert::text_of(&last.outcome, Side::Head, path) == Some(&doc.text);
                if same {
                    last.versions.insert(key.clone(), doc.version);
                }
                same
            }
            _ => false,
        };
        self.docs.insert(key.clone(), doc);
        if current {
            self.publish_document(&key);
        } else {
            self.edited();
        }
    }

    fn did_change(&mut self, p: DidChangeTextDocumentParams) {
        let key = p.text_document.uri.as_str().to_string();
        let Some(doc) = self.docs.get_mut(&key) else {
            return;
        };
        for change in p.content_changes {
            match change.range {
                None => doc.text = change.text,
                Some(range) => {
                    let lines = Lines::new(&doc.text);
                    let start = lines.offset(range.start);
                    let end = lines.offset(range.end).max(start);
                    doc.text.replace_range(start..end, &change.text);
                }
            }
        }
        doc.version = p.text_document.version;
        self.edited();
    }

    fn did_close(&mut self, p: DidCloseTextDocumentParams) {
        let key = p.text_document.uri.as_str().to_string();
        let Some(doc) = self.docs.remove(&key) else {
            return;
        };
        if !self.settings.workspace_diagnostics {
            self.publish(&p.text_document.uri, Vec::new(), None);
        }
        // The file is read from disk again: check when the buffer held unsaved changes.
        let on_disk = doc
            .path
            .as_ref()
            .zip(self.workspace.as_ref())
            .and_then(|(path, ws)| std::fs::read(ws.root.join(path)).ok());
        if on_disk.as_deref() != Some(doc.text.as_bytes()) {
            self.edited();
        }
    }

    /// Something the check reads changed: check again once the edits pause.
    fn edited(&mut self) {
        self.generation += 1;
        self.due = Some(Instant::now() + self.settings.debounce);
    }

    /// Starts the pending check when its time has come and no check is running.
    fn start_due_check(&mut self) {
        if self.running || self.phase != Phase::Running {
            return;
        }
        match self.due {
            Some(due) if due <= Instant::now() => {}
            _ => return,
        }
        self.due = None;
        let Some(ws) = self.workspace.clone() else {
            return;
        };
        let mut overlay: BTreeMap<String, Arc<[u8]>> = BTreeMap::new();
        let mut versions = BTreeMap::new();
        for (uri, doc) in &self.docs {
            if let Some(path) = &doc.path {
                overlay.insert(path.clone(), Arc::from(doc.text.as_bytes()));
            }
            versions.insert(uri.clone(), doc.version);
        }
        match self.settings.options(&ws, Arc::new(overlay)) {
            Ok((options, problems)) => {
                if problems != self.config_problems {
                    for p in &problems {
                        self.show(MessageType::WARNING, format!("nodecast: {p}"));
                    }
                    self.config_problems = problems;
                }
                let job = Job {
                    generation: self.generation,
                    epoch: self.epoch,
                    options,
                    versions,
                };
                self.running = self.jobs.send(job).is_ok();
            }
            Err(fatal) => self.error(format!("{}; {}", fatal.message, fatal.hint)),
        }
    }

    fn finished(&mut self, done: Done) {
        self.running = false;
        match done.result {
            Err(problem) => self.error(problem),
            Ok(outcome) => {
                self.last_error = None;
                eprintln!(
                    "nodecast server: checked in {} ms: {} finding(s), {} forecast entr{}{}",
                    done.elapsed.as_millis(),
                    outcome.diagnostics.len(),
                    outcome.forecast.len(),
                    if outcome.forecast.len() == 1 {
                        "y"
                    } else {
                        "ies"
                    },
                    if done.generation == self.generation {
                        ""
                    } else {
                        " (the buffers changed meanwhile; checking again)"
                    }
                );
                let previous = self.last.replace(Checked {
                    outcome,
                    versions: done.versions,
                    generation: done.generation,
                });
                // Freeing a large repository's outcome takes a while: not on the message loop.
                if let Some(previous) = previous {
                    let _ = std::thread::Builder::new()
                        .name("nodecast-free".into())
                        .spawn(move || drop(previous));
                }
                if done.epoch != self.epoch {
                    // Computed with settings changed since: the next check publishes.
                    return;
                }
                let uris: Vec<String> = self.docs.keys().cloned().collect();
                for uri in uris {
                    self.publish_document(&uri);
                }
                self.publish_workspace();
            }
        }
    }

    /// Publishes the findings of an open document when the latest outcome holds for its text.
    fn publish_document(&mut self, key: &str) {
        let (Some(last), Some(ws), Some(doc)) = (&self.last, &self.workspace, self.docs.get(key))
        else {
            return;
        };
        let Some(path) = &doc.path else {
            return;
        };
        if last.versions.get(key) != Some(&doc.version) {
            // Edited since: the next check publishes.
            return;
        }
        let found = diagnostics_of(&last.outcome, &ws.root, path, Some(&doc.text));
        let version = doc.version;
        if let Ok(uri) = Uri::from_str(key) {
            self.publish(&uri, found, Some(version));
        }
    }

    /// With `workspace-diagnostics` (or once, on the workspace command): every file's findings,
    /// and an empty list for files that had some and have none now.
    fn publish_workspace(&mut self) {
        let (Some(last), Some(ws)) = (&self.last, &self.workspace) else {
            return;
        };
        let open: BTreeSet<&str> = self
            .docs
            .values()
            .filter_map(|d| d.path.as_deref())
            .collect();
        let mut now = BTreeSet::new();
        let mut messages = Vec::new();
        if self.settings.workspace_diagnostics || self.workspace_once {
            let paths: BTreeSet<&str> = last
                .outcome
                .diagnostics
                .iter()
                .filter(|d| d.location.side == Side::Head)
                .map(|d| d.location.path.as_str())
                .collect();
            for path in paths.into_iter().filter(|p| !open.contains(p)) {
                if let Some(uri) = convert::uri_of(&ws.root.join(path)) {
                    let on_disk = std::fs::read_to_string(ws.root.join(path)).ok();
                    let found = diagnostics_of(&last.outcome, &ws.root, path, on_disk.as_deref());
                    messages.push((uri, found));
                    now.insert(path.to_string());
                }
            }
        }
        for gone in self.published.difference(&now) {
            if open.contains(gone.as_str()) {
                continue;
            }
            if let Some(uri) = convert::uri_of(&ws.root.join(gone)) {
                messages.push((uri, Vec::new()));
            }
        }
        self.published = now;
        self.workspace_once = false;
        for (uri, found) in messages {
            self.publish(&uri, found, None);
        }
    }

    fn publish(&self, uri: &Uri, diagnostics: Vec<lsp_types::Diagnostic>, version: Option<i32>) {
        self.out.send(
            Notification::new(
                "textDocument/publishDiagnostics".into(),
                PublishDiagnosticsParams {
                    uri: uri.clone(),
                    diagnostics,
                    version,
                },
            )
            .into(),
        );
    }

    /// The latest outcome with the open document's text, when it was computed from that text.
    fn current(&self, uri: &Uri) -> Option<(&Checked, &Doc, &str, &Workspace)> {
        let key = uri.as_str();
        let doc = self.docs.get(key)?;
        let last = self.last.as_ref()?;
        let ws = self.workspace.as_ref()?;
        let path = doc.path.as_deref()?;
        (last.versions.get(key) == Some(&doc.version)).then_some((last, doc, path, ws))
    }

    fn hover(&self, p: HoverParams) -> Value {
        let position = p.text_document_position_params.position;
        let uri = &p.text_document_position_params.text_document.uri;
        let Some((last, doc, path, _)) = self.current(uri) else {
            return Value::Null;
        };
        let offset = Lines::new(&doc.text).offset(position);
        match hover::hover(&last.outcome, path, offset, position.line + 1) {
            Some(text) => serde_json::to_value(Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: text,
                }),
                range: None,
            })
            .unwrap_or(Value::Null),
            None => Value::Null,
        }
    }

    fn code_actions(&self, p: CodeActionParams) -> Value {
        let Some((last, doc, path, ws)) = self.current(&p.text_document.uri) else {
            return Value::Array(Vec::new());
        };
        let lines = Lines::new(&doc.text);
        let range = (lines.offset(p.range.start), lines.offset(p.range.end));
        let found = actions::actions(
            &last.outcome,
            &ws.root,
            &p.text_document.uri,
            path,
            &doc.text,
            range,
        );
        serde_json::to_value(found).unwrap_or(Value::Array(Vec::new()))
    }

    fn show(&self, kind: MessageType, message: String) {
        self.out.send(
            Notification::new(
                "window/showMessage".into(),
                ShowMessageParams { typ: kind, message },
            )
            .into(),
        );
    }

    /// A check that could not run: said once (until it runs again), and in the log.
    fn error(&mut self, problem: String) {
        eprintln!("nodecast server: {problem}");
        if self.last_error.as_ref() != Some(&problem) {
            self.show(MessageType::ERROR, format!("nodecast: {problem}"));
            self.last_error = Some(problem);
        }
    }
}

/// The findings of one head file as LSP diagnostics. Spans are in the text the check read: the
/// file's (or, for a file no stage parses such as `.nodecast.yaml`, `text`: the buffer the check
/// was given, or the file on disk).
fn diagnostics_of(
    o: &Outcome,
    root: &std::path::Path,
    path: &str,
    text: Option<&str>,
) -> Vec<lsp_types::Diagnostic> {
    let text = convert::text_of(o, Side::Head, path)
        .or(text)
        .unwrap_or_default();
    let lines = Lines::new(text);
    o.diagnostics
        .iter()
        .filter(|d| d.location.path == path)
        .map(|d| convert::diagnostic(o, root, d, &lines))
        .collect()
}

fn params<T: serde::de::DeserializeOwned>(req: Request) -> Result<T, (ErrorCode, String)> {
    serde_json::from_value(req.params).map_err(|e| {
        (
            ErrorCode::InvalidParams,
            format!("invalid parameters for `{}`: {e}", req.method),
        )
    })
}

fn notification_params<T: serde::de::DeserializeOwned>(n: Notification) -> Result<T, String> {
    serde_json::from_value(n.params).map_err(|e| format!("invalid parameters: {e}"))
}
