//! Bounded resources and clean exits (issue 15, part 4), on generated hostile repositories run
//! through the real binary: alias bombs and gzip bombs stay within nodecast's budgets under
//! `prlimit --as=3G` (no abort, a report with the findings), remote Kustomize bases are refused
//! before anything runs, the renderer gets an empty kubeconfig, and a render timeout or a signal
//! stops the renderer's whole process group and leaves no temporary folder behind.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::Value;

/// Address-space limit the hostile runs must fit (`prlimit --as`).
const AS_LIMIT: &str = "3221225472";

struct Outcome {
    code: Option<i32>,
    signal: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs the binary in `cwd` under `prlimit --as=3G` (when prlimit exists).
fn limited(cwd: &Path, args: &[&str], env: &[(&str, &str)]) -> Outcome {
    let bin = env!("CARGO_BIN_EXE_nodecast");
    let mut cmd = if Path::new("/usr/bin/prlimit").exists() {
        let mut c = Command::new("/usr/bin/prlimit");
        c.arg(format!("--as={AS_LIMIT}")).arg("--").arg(bin);
        c
    } else {
        eprintln!("prlimit not found: running without the address-space limit");
        Command::new(bin)
    };
    cmd.args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("nodecast runs");
    use std::os::unix::process::ExitStatusExt;
    Outcome {
        code: out.status.code(),
        signal: out.status.signal(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn json(o: &Outcome) -> Value {
    assert_eq!(o.signal, None, "killed by a signal: {}", o.stderr);
    common::parse_json(&o.stdout, &o.stderr)
}

fn diags<'a>(r: &'a Value, code: &str) -> Vec<&'a Value> {
    r["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["code"] == code)
        .collect()
}

/// Peak resident memory of the largest child this test process waited for, in MiB.
fn children_peak_mib() -> u64 {
    // SAFETY: getrusage fills the struct it is given.
    let usage = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut u);
        u
    };
    (usage.ru_maxrss as u64) / 1024
}

#[test]
fn a_thousand_small_alias_bombs_in_one_file_stay_bounded() {
    let dir = tempfile::tempdir().expect("tmp");
    // Each document stays under the per-document limit (about 66,000 nodes); all of them together
    // would be 66 million nodes.
    let doc = "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n---\n";
    let text = doc.repeat(1000);
    assert!(text.len() < 170 * 1024);
    std::fs::write(dir.path().join("ci-values.yaml"), &text).expect("write");
    // Two more copies under other names: the run's budget is shared by all files.
    std::fs::write(dir.path().join("copy-1.yaml"), format!("# 1\n{text}")).expect("write");
    std::fs::write(dir.path().join("copy-2.yaml"), format!("# 2\n{text}")).expect("write");
    let started = Instant::now();
    let out = limited(
        dir.path(),
        &["check", "--no-base", ".", "--format", "json"],
        &[],
    );
    let r = json(&out);
    assert_eq!(out.code, Some(1), "Y004 is an error: {}", out.stderr);
    let y004 = diags(&r, "Y004");
    assert_eq!(y004.len(), 3, "one finding per file, not per document");
    let messages: Vec<&str> = y004.iter().filter_map(|d| d["message"].as_str()).collect();
    assert!(messages.iter().all(|m| m
        .starts_with("alias expansion exceeds the budget for all documents of this file")
        && m.contains("later documents of this file were dropped for the same reason")));
    assert_eq!(
        messages
            .iter()
            .filter(|m| m.contains("the run's alias expansion budget"))
            .count(),
        1,
        "the third file in content order finds the run's budget used up: {messages:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(120));
    assert!(
        children_peak_mib() < 1536,
        "peak {} MiB",
        children_peak_mib()
    );
}

fn gzip_zeros(mib: usize) -> String {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(&vec![0u8; mib * 1024 * 1024]).expect("gzip");
    let gz = enc.finish().expect("gzip");
    format!(
        "data:;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(gz)
    )
}

fn machine_config(name: &str, payloads: usize, url: &str) -> String {
    let mut s = format!(
        "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: {name}\n  labels:\n    machineconfiguration.openshift.io/role: worker\nspec:\n  config:\n    ignition:\n      version: 3.4.0\n    storage:\n      files:\n"
    );
    for i in 0..payloads {
        s.push_str(&format!(
            "      - path: /var/lib/blob-{i}\n        mode: 420\n        contents:\n          compression: gzip\n          source: {url}\n"
        ));
    }
    s
}

#[test]
fn a_hundred_gzip_payloads_in_one_machine_config_are_bounded_and_reported_truthfully() {
    let dir = tempfile::tempdir().expect("tmp");
    let mc = machine_config("99-worker-blobs", 100, &gzip_zeros(37));
    assert!(mc.len() > 3_000_000, "{}", mc.len());
    std::fs::write(dir.path().join("mc.yaml"), &mc).expect("write");
    let out = limited(
        dir.path(),
        &["check", "--no-base", ".", "--format", "json", "--no-schema"],
        &[],
    );
    let r = json(&out);
    assert_eq!(out.code, Some(0), "warnings only: {}", out.stderr);
    assert!(diags(&r, "I001").is_empty(), "nothing is called invalid");
    let i002 = diags(&r, "I002");
    // 64 MiB per file: the first 37 MiB payload fits, the second does not, nor any later one.
    assert_eq!(i002.len(), 99);
    assert_eq!(
        i002[0]["message"],
        "MachineConfig 99-worker-blobs: storage.files[1].contents (/var/lib/blob-1) was not decoded: this file's budget (64 MiB) for decoded Ignition payloads is used up, so the contents of this Ignition file are not checked"
    );
    assert_eq!(
        (i002[0]["line"].as_u64(), i002[0]["column"].as_u64()),
        (Some(22), Some(19))
    );
    assert!(
        children_peak_mib() < 1536,
        "peak {} MiB",
        children_peak_mib()
    );
}

/// A payload an overlay renders is decoded within the budget of rendered overlays, not its
/// file's: once that is used up, each rendered MachineConfig whose payload was not decoded gets
/// its own I002 at the line that writes it, naming the overlay (before, only files' own
/// documents were looked at, so these went unreported).
#[test]
fn rendered_payloads_beyond_the_render_budget_are_reported_where_they_are_written() {
    if !common::require_kubectl("rendered_payloads_beyond_the_render_budget") {
        return;
    }
    let dir = tempfile::tempdir().expect("tmp");
    let root = dir.path();
    std::fs::create_dir_all(root.join("base")).expect("mkdir");
    std::fs::write(
        root.join("base/mc.yaml"),
        machine_config("99-worker-blob", 1, &gzip_zeros(40)),
    )
    .expect("write");
    std::fs::write(
        root.join("base/kustomization.yaml"),
        "resources:\n- mc.yaml\n",
    )
    .expect("write");
    for o in ["a", "b", "c"] {
        std::fs::create_dir_all(root.join(o)).expect("mkdir");
        std::fs::write(
            root.join(o).join("kustomization.yaml"),
            format!("namePrefix: {o}-\nresources:\n- ../base\n"),
        )
        .expect("write");
    }
    let out = limited(
        root,
        &[
            "check",
            "--no-base",
            ".",
            "--format",
            "json",
            "--no-schema",
            "--no-cache",
        ],
        &[],
    );
    let r = json(&out);
    assert_eq!(out.code, Some(0), "warnings only: {}", out.stderr);
    assert!(diags(&r, "I001").is_empty(), "nothing is called invalid");
    // 64 MiB for rendered overlays, in root order: overlay a's 40 MiB fits, b's and c's do not.
    let found: Vec<(String, u64, u64, String)> = diags(&r, "I002")
        .iter()
        .map(|d| {
            (
                d["file"].as_str().unwrap_or_default().to_string(),
                d["line"].as_u64().unwrap_or_default(),
                d["column"].as_u64().unwrap_or_default(),
                d["message"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    let expected: Vec<(String, u64, u64, String)> = ["b", "c"]
        .iter()
        .map(|o| {
            (
                "base/mc.yaml".to_string(),
                17,
                19,
                format!("MachineConfig {o}-99-worker-blob: storage.files[0].contents (/var/lib/blob-0) was not decoded: the budget of rendered overlays (64 MiB per run) for decoded Ignition payloads is used up, so the contents of this Ignition file are not checked"),
            )
        })
        .collect();
    assert_eq!(found, expected, "{}", out.stdout);
    let notes = &diags(&r, "I002")[0]["notes"];
    assert_eq!(
        notes[1], "checked as the cluster receives it: rendered from overlay b",
        "{notes}"
    );
}

#[test]
fn gzip_payloads_across_files_share_the_run_budget() {
    let dir = tempfile::tempdir().expect("tmp");
    let url = gzip_zeros(40);
    for i in 0..10 {
        std::fs::write(
            dir.path().join(format!("mc-{i}.yaml")),
            machine_config(&format!("99-worker-{i}"), 1, &url),
        )
        .expect("write");
    }
    let out = limited(
        dir.path(),
        &["check", "--no-base", ".", "--format", "json", "--no-schema"],
        &[],
    );
    let r = json(&out);
    let i002 = diags(&r, "I002");
    // 128 MiB beyond the first pass: three 40 MiB payloads fit, seven do not.
    assert_eq!(i002.len(), 7, "{}", out.stdout);
    assert!(i002.iter().all(|d| d["message"].as_str().is_some_and(
        |m| m.contains("the run's budget (128 MiB beyond the first pass, shared by all files)")
    )));
    // The same files give the same report (which files fit does not depend on thread timing).
    let again = limited(
        dir.path(),
        &["check", "--no-base", ".", "--format", "json", "--no-schema"],
        &[],
    );
    assert_eq!(again.stdout, out.stdout);
}

/// A folder with a fake `kubectl` that records how it was run, then does `body`.
fn fake_kubectl(body: &str) -> (tempfile::TempDir, PathBuf) {
    let bin = tempfile::tempdir().expect("tmp");
    let log = bin.path().join("calls.log");
    let script = format!(
        "#!/bin/sh\necho \"run $* KUBECONFIG=$KUBECONFIG size=$(wc -c < \"$KUBECONFIG\")\" >> '{}'\n{body}\n",
        log.display()
    );
    let path = bin.path().join("kubectl");
    std::fs::write(&path, script).expect("write");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    (bin, log)
}

fn path_with(bin: &Path) -> String {
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

fn overlay(dir: &Path, resources: &[&str]) {
    std::fs::create_dir_all(dir.join("clusters/prod")).expect("mkdir");
    let list: String = resources.iter().map(|r| format!("- {r}\n")).collect();
    std::fs::write(
        dir.join("clusters/prod/kustomization.yaml"),
        format!("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: clusters\nresources:\n{list}"),
    )
    .expect("write");
    std::fs::write(
        dir.join("clusters/prod/cm.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: b\n",
    )
    .expect("write");
}

#[test]
fn every_remote_form_kustomize_accepts_is_refused_before_anything_runs() {
    for remote in [
        "git::git@host.example.com:org/repo//dir",
        "github.com/org/repo/dir?ref=v1",
        "https://example.com/org/repo//dir",
        "ssh://git@host.example.com/org/repo",
        "git@github.com:org/repo.git/dir",
        "https://example.com/manifests.yaml",
    ] {
        let dir = tempfile::tempdir().expect("tmp");
        overlay(dir.path(), &["cm.yaml", remote]);
        let (bin, log) = fake_kubectl("exit 1");
        let out = limited(
            dir.path(),
            &["check", "--no-base", ".", "--format", "json"],
            &[("PATH", &path_with(bin.path()))],
        );
        let r = json(&out);
        let r102 = diags(&r, "R102");
        assert_eq!(r102.len(), 1, "{remote}: {}", out.stdout);
        assert!(
            r102[0]["message"]
                .as_str()
                .is_some_and(|m| m.contains(&format!("`{remote}` is a remote"))),
            "{remote}: {}",
            r102[0]["message"]
        );
        assert_eq!(
            (r102[0]["line"].as_u64(), r102[0]["column"].as_u64()),
            (Some(6), Some(3)),
            "{remote}"
        );
        assert!(!log.exists(), "{remote}: the renderer ran");
    }
}

#[test]
fn the_renderer_gets_an_empty_kubeconfig() {
    let dir = tempfile::tempdir().expect("tmp");
    overlay(dir.path(), &["cm.yaml"]);
    // A second resource that is a folder, so the root is not taken as its own render.
    std::fs::create_dir_all(dir.path().join("clusters/prod/sub")).expect("mkdir");
    std::fs::write(
        dir.path().join("clusters/prod/sub/kustomization.yaml"),
        "resources: []\n",
    )
    .expect("write");
    overlay_add(dir.path(), "sub");
    let (bin, log) = fake_kubectl(
        "printf 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: x\\n  namespace: clusters\\ndata:\\n  a: b\\n'",
    );
    let out = limited(
        dir.path(),
        &["check", "--no-base", ".", "--format", "json"],
        &[("PATH", &path_with(bin.path()))],
    );
    json(&out);
    let calls = std::fs::read_to_string(&log).expect("the renderer ran");
    assert_eq!(calls.lines().count(), 1, "{calls}");
    assert!(calls.contains("KUBECONFIG=/"), "{calls}");
    assert!(calls.trim_end().ends_with("size=0"), "{calls}");
}

fn overlay_add(dir: &Path, resource: &str) {
    let k = dir.join("clusters/prod/kustomization.yaml");
    let mut text = std::fs::read_to_string(&k).expect("read");
    text.push_str(&format!("- {resource}\n"));
    std::fs::write(k, text).expect("write");
}

fn alive(pid: i32) -> bool {
    // A zombie still answers kill(0); read its state instead.
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

fn wait_dead(pid: i32) -> bool {
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until {
        if !alive(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// A repository whose overlay needs the renderer, and a fake `kubectl` that starts a grandchild,
/// writes its pid, says it started, and hangs.
fn hanging_render() -> (tempfile::TempDir, tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().expect("tmp");
    overlay(dir.path(), &["cm.yaml"]);
    std::fs::create_dir_all(dir.path().join("clusters/prod/sub")).expect("mkdir");
    std::fs::write(
        dir.path().join("clusters/prod/sub/kustomization.yaml"),
        "resources: []\n",
    )
    .expect("write");
    overlay_add(dir.path(), "sub");
    let marks = dir.path().join("..").join(format!(
        "marks-{}",
        dir.path()
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("x")
    ));
    std::fs::create_dir_all(&marks).expect("mkdir");
    let (bin, _) = fake_kubectl(&format!(
        "sleep 300 &\necho $! > '{m}/grandchild.pid'\ntouch '{m}/started'\nsleep 300",
        m = marks.display()
    ));
    (dir, bin, marks.clone(), marks.join("grandchild.pid"))
}

fn render_folders(tmp: &Path) -> Vec<String> {
    std::fs::read_dir(tmp)
        .expect("tmpdir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("nodecast-render-"))
        .collect()
}

#[test]
fn a_render_timeout_kills_the_renderers_whole_process_group() {
    let (dir, bin, marks, pid_file) = hanging_render();
    let tmp = tempfile::tempdir().expect("tmp");
    let started = Instant::now();
    let out = limited(
        dir.path(),
        &[
            "check",
            "--no-base",
            ".",
            "--format",
            "json",
            "--render-timeout",
            "2",
        ],
        &[
            ("PATH", &path_with(bin.path())),
            ("TMPDIR", &tmp.path().display().to_string()),
        ],
    );
    let r = json(&out);
    assert!(started.elapsed() < Duration::from_secs(60));
    let r101 = diags(&r, "R101");
    assert_eq!(r101.len(), 1, "{}", out.stdout);
    assert!(r101[0]["message"]
        .as_str()
        .is_some_and(|m| m.contains("did not finish within 2 s")));
    let pid: i32 = std::fs::read_to_string(&pid_file)
        .expect("grandchild started")
        .trim()
        .parse()
        .expect("pid");
    assert!(wait_dead(pid), "the renderer's child {pid} survived");
    assert!(render_folders(tmp.path()).is_empty());
    let _ = std::fs::remove_dir_all(marks);
}

fn interrupted_while_rendering(signal: i32, code: i32) {
    let (dir, bin, marks, pid_file) = hanging_render();
    let tmp = tempfile::tempdir().expect("tmp");
    let mut child = Command::new(env!("CARGO_BIN_EXE_nodecast"))
        .args(["check", "--no-base", ".", "--format", "json"])
        .current_dir(dir.path())
        .env("PATH", path_with(bin.path()))
        .env("TMPDIR", tmp.path())
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let until = Instant::now() + Duration::from_secs(60);
    while !marks.join("started").exists() {
        assert!(Instant::now() < until, "the renderer never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(render_folders(tmp.path()).len(), 1, "rendering in progress");
    // SAFETY: signals the child this test spawned.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
    let status = child.wait().expect("wait");
    assert_eq!(status.code(), Some(code), "{status:?}");
    assert!(
        render_folders(tmp.path()).is_empty(),
        "temporary folder left"
    );
    let pid: i32 = std::fs::read_to_string(&pid_file)
        .expect("pid")
        .trim()
        .parse()
        .expect("pid");
    assert!(wait_dead(pid), "the renderer's child {pid} survived");
    let _ = std::fs::remove_dir_all(marks);
}

#[test]
fn sigterm_while_rendering_leaves_no_temporary_folder() {
    interrupted_while_rendering(libc::SIGTERM, 143);
}

#[test]
fn sigint_while_rendering_leaves_no_temporary_folder() {
    interrupted_while_rendering(libc::SIGINT, 130);
}

fn render_output_case(mib: usize) -> Value {
    let dir = tempfile::tempdir().expect("tmp");
    overlay(dir.path(), &["cm.yaml"]);
    std::fs::create_dir_all(dir.path().join("clusters/prod/sub")).expect("mkdir");
    std::fs::write(
        dir.path().join("clusters/prod/sub/kustomization.yaml"),
        "resources: []\n",
    )
    .expect("write");
    overlay_add(dir.path(), "sub");
    // Comment lines: valid YAML of any size.
    let (bin, _) = fake_kubectl(&format!(
        "yes '# padding padding padding padding padding padding padding padding padding padding' | head -c {}",
        mib * 1024 * 1024
    ));
    let out = limited(
        dir.path(),
        &["check", "--no-base", ".", "--format", "json"],
        &[("PATH", &path_with(bin.path()))],
    );
    json(&out)
}

#[test]
fn render_output_is_bounded_per_render_and_per_run() {
    let r = render_output_case(70);
    let r101 = diags(&r, "R101");
    assert_eq!(r101.len(), 1, "{r}");
    assert!(r101[0]["message"]
        .as_str()
        .is_some_and(|m| m.contains("produced more than 64 MiB of output and was stopped")));
    // 40 MiB fits one render but not the run's 32 MiB (the repository is tiny).
    let r = render_output_case(40);
    let r101 = diags(&r, "R101");
    assert_eq!(r101.len(), 1, "{r}");
    assert!(r101[0]["message"].as_str().is_some_and(|m| m.contains(
        "not rendered: with this overlay the rendered output of the run (overlays in root order) would exceed 32 MiB"
    )));
}
