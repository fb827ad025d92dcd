//! The pictures, in a real browser: the HTML report loaded by headless Chromium (screenshot, no
//! console message, one timeline bar per disruptive pool, nothing fetched), and the Markdown
//! summary's Mermaid timeline rendered by the real Mermaid library (what GitHub runs).
//!
//! Needs `chromium` (Debian's package; `NODECAST_CHROMIUM` may name it) and, for the Mermaid test,
//! the `mermaid` npm package (`NODECAST_MERMAID` names the folder holding `node_modules`).
//! `.ci/run` installs both; under `CI=true` a missing one fails the test, locally it is skipped
//! with the reason printed.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{nodecast, Repo};

fn chromium() -> Option<PathBuf> {
    let named = std::env::var_os("NODECAST_CHROMIUM").map(PathBuf::from);
    let found = named.or_else(|| {
        ["chromium", "chromium-browser", "google-chrome"]
            .iter()
            .map(|n| Path::new("/usr/bin").join(n))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        assert!(
            std::env::var("CI").is_err(),
            "chromium is missing (apt-get install chromium, or set NODECAST_CHROMIUM)"
        );
        eprintln!("skipped: no chromium");
    }
    found
}

/// Runs headless Chromium on a local file: (DOM after load, stderr log).
fn load(browser: &Path, page: &Path, extra: &[&str]) -> (String, String) {
    let profile = tempfile::tempdir().expect("profile");
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--allow-file-access-from-files",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=10000",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Console messages the page logged (Chromium prints them as `:CONSOLE` lines).
fn console(log: &str) -> Vec<&str> {
    log.lines().filter(|l| l.contains(":CONSOLE")).collect()
}

/// Two pools reboot: `worker` (6 nodes) in the next window of its nightly policy, `infra` now.
fn repo() -> Repo {
    let repo = Repo::new();
    repo.write(
        "cluster/pools.yaml",
        "apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfigPool
metadata:
  name: worker
spec:
  machineConfigSelector:
    matchLabels:
      machineconfiguration.openshift.io/role: worker
  nodeSelector:
    matchLabels:
      node-role.kubernetes.io/worker: \"\"
  changeManagement:
    strategy: ByPolicy
    byPolicy:
      name: nightly
---
apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfigPool
metadata:
  name: infra
spec:
  machineConfigSelector:
    matchExpressions:
    - key: machineconfiguration.openshift.io/role
      operator: In
      values: [worker, infra]
  nodeSelector:
    matchLabels:
      node-role.kubernetes.io/infra: \"\"
",
    );
    repo.write(
        "cluster/policy.yaml",
        "apiVersion: config.openshift.io/v1alpha1
kind: ChangeManagementPolicy
metadata:
  name: nightly
spec:
  strategy: MaintenanceSchedule
  maintenanceSchedule:
    permit:
      recurrence:
        frequency: Daily
      startTime: \"01:00\"
      duration: 3h
",
    );
    let mc = |karg: &str| {
        format!(
            "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 99-worker-kargs\n  labels:\n    machineconfiguration.openshift.io/role: worker\nspec:\n  kernelArguments:\n  - {karg}\n"
        )
    };
    repo.write("cluster/kargs.yaml", &mc("nosmt"));
    repo.commit("base");
    repo.write("cluster/kargs.yaml", &mc("mitigations=off"));
    repo.commit("head");
    repo
}

fn report(repo: &Repo, format: &str) -> String {
    let run = nodecast(
        repo.path(),
        &[
            "check",
            "--base",
            "HEAD^",
            "--head",
            "HEAD",
            "--now",
            "2026-11-24T12:00:00Z",
            "--assume-nodes",
            "worker=6",
            "--format",
            format,
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.stdout
}

#[test]
fn the_html_report_loads_in_a_real_browser_with_one_bar_per_disruptive_pool() {
    let Some(browser) = chromium() else { return };
    let repo = repo();
    let html = report(&repo, "html");
    // Self-contained: nothing to fetch (links to the rule pages are only anchors).
    for fetch in ["<script", "<link", "src=", "@import", "url("] {
        assert!(!html.contains(fetch), "the page fetches something: {fetch}");
    }
    let dir = tempfile::tempdir().expect("tmp");
    let page = dir.path().join("report.html");
    std::fs::write(&page, &html).expect("write");
    let (dom, log) = load(&browser, &page, &["--dump-dom"]);
    assert_eq!(console(&log), Vec::<&str>::new());
    let bars: Vec<&str> = dom
        .match_indices("<rect class=\"bar\"")
        .map(|(_, m)| m)
        .collect();
    assert_eq!(bars.len(), 2, "one bar per disruptive pool:\n{dom}");
    assert!(dom.contains("data-pool=\"MachineConfigPool worker (cluster)\""));
    assert!(dom.contains("data-pool=\"MachineConfigPool infra (cluster)\""));
    // Seven nightly windows of the worker pool's policy in the next week.
    assert_eq!(dom.matches("<rect class=\"window\"").count(), 7);
    let shot = dir.path().join("report.png");
    let (_, log) = load(
        &browser,
        &page,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1200,900",
        ],
    );
    assert_eq!(console(&log), Vec::<&str>::new());
    let png = std::fs::read(&shot).expect("screenshot written");
    assert!(
        png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 10_000,
        "{} bytes",
        png.len()
    );
    if let Some(keep) = std::env::var_os("NODECAST_KEEP_SCREENSHOT") {
        std::fs::copy(&shot, keep).expect("copy");
    }
}

#[test]
fn the_markdown_timeline_renders_in_real_mermaid() {
    let Some(browser) = chromium() else { return };
    let Some(mermaid) = std::env::var_os("NODECAST_MERMAID")
        .map(PathBuf::from)
        .map(|d| d.join("node_modules/mermaid/dist/mermaid.min.js"))
        .filter(|p| p.is_file())
    else {
        assert!(
            std::env::var("CI").is_err(),
            "NODECAST_MERMAID must name a folder with node_modules/mermaid (npm install mermaid@11)"
        );
        eprintln!("skipped: no mermaid (set NODECAST_MERMAID)");
        return;
    };
    let repo = repo();
    let markdown = report(&repo, "markdown");
    let start = markdown.find("```mermaid\n").expect("a mermaid block") + "```mermaid\n".len();
    let end = start + markdown[start..].find("```").expect("closed");
    let chart = &markdown[start..end];
    assert!(chart.starts_with("gantt\n"), "{chart}");
    let dir = tempfile::tempdir().expect("tmp");
    let page = dir.path().join("chart.html");
    std::fs::write(
        &page,
        format!(
            "<!DOCTYPE html><html><body><pre id=\"src\">{}</pre><div id=\"out\"></div>
<script src=\"file://{}\"></script>
<script>
mermaid.initialize({{startOnLoad: false}});
mermaid.render('timeline', document.getElementById('src').textContent)
  .then(r => {{ document.getElementById('out').innerHTML = r.svg; document.body.dataset.rendered = 'yes'; }})
  .catch(e => {{ document.body.dataset.failed = String(e); }});
</script></body></html>",
            nodecast::report::timeline::escape(chart),
            mermaid.display()
        ),
    )
    .expect("write");
    let (dom, log) = load(&browser, &page, &["--dump-dom"]);
    assert!(
        dom.contains("data-rendered=\"yes\""),
        "mermaid failed:\n{dom}\n{log}"
    );
    assert_eq!(console(&log), Vec::<&str>::new());
    // One critical bar per disruptive pool, and the seven windows.
    assert_eq!(dom.matches("class=\"task crit").count(), 2, "{dom}");
    assert_eq!(dom.matches("class=\"task done").count(), 7, "{dom}");
}
