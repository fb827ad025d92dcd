//! repogen: a deterministic, seeded GitOps repository of OpenShift manifests with Git history,
//! so nodecast's benchmarks measure realistic data that anyone can regenerate byte for byte.
//!
//! Two shapes. The plain fleet (`--size small|medium|large`): commit 1 holds the fleet (hosted
//! clusters with NodePools and config ConfigMaps, standalone clusters with pools, MachineConfigs
//! and cluster configuration, kustomizations that only list files, and non-Kubernetes YAML);
//! commit 2 changes about 2% of the documents the way pull requests do. The Kustomize fleet
//! (`--size kustomize-small|kustomize-medium|kustomize-large`, [`kustomize`]): every cluster is
//! an overlay of shared bases and components, and three pull requests are branches.

pub mod kustomize;
pub mod model;
pub mod render;
pub mod rng;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use model::Cluster;
use rng::Rng;

/// How big a repository to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    /// 10 clusters.
    Small,
    /// About 10,000 documents.
    Medium,
    /// About 50,000 documents.
    Large,
}

impl Size {
    /// Parses `small`, `medium` or `large`.
    pub fn parse(s: &str) -> Option<Size> {
        match s {
            "small" => Some(Size::Small),
            "medium" => Some(Size::Medium),
            "large" => Some(Size::Large),
            _ => None,
        }
    }
}

/// How the repository is laid out: the benchmarks compare the cost of plain files with the cost
/// of overlays Kustomize must render.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Cluster folders whose kustomizations only list files (nothing to render).
    Plain,
    /// Overlays of shared bases with patches, components and generators ([`kustomize`]).
    Kustomize,
}

/// Parses a `--size` value: `small|medium|large` (plain) or `kustomize-small|medium|large`.
pub fn parse_size(s: &str) -> Option<(Shape, Size)> {
    match s.strip_prefix("kustomize-") {
        Some(rest) => Size::parse(rest).map(|size| (Shape::Kustomize, size)),
        None => Size::parse(s).map(|size| (Shape::Plain, size)),
    }
}

/// What was written, for throughput figures.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Clusters (hosted + standalone).
    pub clusters: usize,
    /// Files in the head commit.
    pub files: usize,
    /// Kubernetes documents in the head commit (top level).
    pub documents: usize,
    /// Bytes of all files in the head commit.
    pub bytes: usize,
    /// Changes the second commit made.
    pub changes: usize,
    /// Files the second commit changed (Kustomize shape: the pull request branches together).
    pub changed_files: usize,
    /// Kustomize overlays (roots Kustomize renders; 0 for the plain shape, whose roots only
    /// list files).
    pub overlays: usize,
    /// Kustomize shape: each pull request branch with the number of overlays whose render it
    /// changes.
    pub reach: Vec<(String, usize)>,
}

impl Stats {
    /// One-line JSON for scripts.
    pub fn to_json(&self) -> String {
        let reach: Vec<String> = self
            .reach
            .iter()
            .map(|(branch, n)| format!("\"{branch}\":{n}"))
            .collect();
        format!(
            "{{\"clusters\":{},\"files\":{},\"documents\":{},\"bytes\":{},\"changes\":{},\"changed_files\":{},\"overlays\":{},\"reach\":{{{}}}}}",
            self.clusters,
            self.files,
            self.documents,
            self.bytes,
            self.changes,
            self.changed_files,
            self.overlays,
            reach.join(",")
        )
    }
}

/// The fleet model of a size and seed (no files written).
pub fn fleet(size: Size, seed: u64) -> Vec<Cluster> {
    let mut rng = Rng::new(seed);
    let mut clusters = Vec::new();
    let mut docs = 0usize;
    let target = match size {
        Size::Small => None,
        Size::Medium => Some(10_000),
        Size::Large => Some(50_000),
    };
    loop {
        let i = clusters.len();
        match target {
            None if i >= 10 => break,
            Some(t) if docs >= t => break,
            _ => {}
        }
        // Two hosted clusters for every standalone one.
        let c = if i % 3 == 2 {
            Cluster::Standalone(model::standalone(&mut rng, i))
        } else {
            Cluster::Hosted(model::hosted(&mut rng, i))
        };
        docs += render::cluster(&c).iter().map(|f| f.docs).sum::<usize>();
        clusters.push(c);
    }
    clusters
}

/// Renders every file of the fleet.
pub fn files(fleet: &[Cluster]) -> BTreeMap<String, (String, usize)> {
    render::common()
        .into_iter()
        .chain(fleet.iter().flat_map(render::cluster))
        .map(|f| (f.path, (f.text, f.docs)))
        .collect()
}

/// Creates `out`, which must not exist or be empty.
fn prepare(out: &Path) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    if std::fs::read_dir(out)
        .map_err(|e| e.to_string())?
        .next()
        .is_some()
    {
        return Err(format!("{} is not empty", out.display()));
    }
    Ok(())
}

/// Writes the repository at `out` (created; must not exist or be empty) with two commits.
pub fn generate(size: Size, seed: u64, out: &Path) -> Result<Stats, String> {
    prepare(out)?;
    let mut fleet = fleet(size, seed);
    let before = files(&fleet);
    write_all(out, &before, None)?;
    git(out, &["init", "-q", "-b", "main"])?;
    commit(out, "fleet: initial import", 0)?;

    let documents: usize = before.values().map(|(_, d)| d).sum();
    let changes = (documents / 50).max(3);
    let mut rng = Rng::new(seed.wrapping_mul(31).wrapping_add(17));
    let mut kinds: BTreeMap<&'static str, usize> = BTreeMap::new();
    for _ in 0..changes {
        let i = (rng.next_u64() % fleet.len() as u64) as usize;
        *kinds
            .entry(model::mutate(&mut rng, &mut fleet[i]))
            .or_default() += 1;
    }
    let after = files(&fleet);
    let changed_files = write_all(out, &after, Some(&before))?;
    let mut message = String::from("fleet: routine changes\n\n");
    for (k, n) in &kinds {
        message.push_str(&format!("- {k}: {n}\n"));
    }
    commit(out, &message, 1)?;
    // Packed, like a cloned repository.
    git(out, &["gc", "-q"])?;
    Ok(Stats {
        clusters: fleet.len(),
        files: after.len(),
        documents: after.values().map(|(_, d)| d).sum(),
        bytes: after.values().map(|(t, _)| t.len()).sum(),
        changes,
        changed_files,
        overlays: 0,
        reach: Vec::new(),
    })
}

/// Writes the Kustomize fleet at `out` (created; must not exist or be empty): `main` with one
/// commit, and one branch per pull request ([`kustomize::PullRequest::ALL`]; the single-overlay
/// variant has the overlay-patch branch only). `main` stays checked out.
pub fn generate_kustomize(
    size: Size,
    seed: u64,
    variant: kustomize::Variant,
    out: &Path,
) -> Result<Stats, String> {
    prepare(out)?;
    let fleet = kustomize::fleet(size, seed);
    let before = kustomize::files(&fleet, variant);
    write_all(out, &before, None)?;
    git(out, &["init", "-q", "-b", "main"])?;
    commit(out, "fleet: initial import", 0)?;
    let prs: &[kustomize::PullRequest] = match variant {
        kustomize::Variant::Fleet => &kustomize::PullRequest::ALL,
        kustomize::Variant::SingleOverlay => &[kustomize::PullRequest::OverlayPatch],
    };
    let mut changed_files = 0;
    let mut reach = Vec::new();
    for pr in prs {
        let overlays = match variant {
            kustomize::Variant::Fleet => pr.reach(&fleet).len(),
            kustomize::Variant::SingleOverlay => 1,
        };
        reach.push((pr.branch().to_string(), overlays));
        let mut changed = fleet.clone();
        pr.apply(&mut changed);
        let after = kustomize::files(&changed, variant);
        git(out, &["checkout", "-q", "-b", pr.branch()])?;
        changed_files += write_all(out, &after, Some(&before))?;
        commit(out, pr.message(), 1)?;
        git(out, &["checkout", "-q", "main"])?;
    }
    git(out, &["gc", "-q"])?;
    let overlays = before
        .keys()
        .filter(|p| p.starts_with("clusters/") && p.ends_with("/kustomization.yaml"))
        .count();
    Ok(Stats {
        clusters: overlays,
        files: before.len(),
        documents: before.values().map(|(_, d)| d).sum(),
        bytes: before.values().map(|(t, _)| t.len()).sum(),
        changes: prs.len(),
        changed_files,
        overlays,
        reach,
    })
}

fn write_all(
    out: &Path,
    files: &BTreeMap<String, (String, usize)>,
    previous: Option<&BTreeMap<String, (String, usize)>>,
) -> Result<usize, String> {
    let mut written = 0;
    for (path, (text, _)) in files {
        if previous.and_then(|p| p.get(path)).map(|(t, _)| t) == Some(text) {
            continue;
        }
        let full = out.join(path);
        if let Some(dir) = full.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::write(&full, text).map_err(|e| format!("{}: {e}", full.display()))?;
        written += 1;
    }
    Ok(written)
}

fn commit(dir: &Path, message: &str, n: u32) -> Result<(), String> {
    git(dir, &["add", "-A"])?;
    // Fixed dates and identity: the same seed gives the same commit ids.
    let date = format!("2026-11-{:02}T09:00:00Z", 2 + n);
    let status = Command::new("git")
        .args([
            "-c",
            "gc.auto=0",
            "commit",
            "-q",
            "--no-verify",
            "-m",
            message,
        ])
        .current_dir(dir)
        .envs(git_env())
        .env("GIT_AUTHOR_DATE", &date)
        .env("GIT_COMMITTER_DATE", &date)
        .status()
        .map_err(|e| format!("cannot run git: {e}"))?;
    status
        .success()
        .then_some(())
        .ok_or_else(|| "git commit failed".to_string())
}

fn git_env() -> [(&'static str, &'static str); 6] {
    [
        ("GIT_CONFIG_GLOBAL", "/dev/null"),
        ("GIT_CONFIG_NOSYSTEM", "1"),
        ("GIT_AUTHOR_NAME", "Fleet Bot"),
        ("GIT_AUTHOR_EMAIL", "fleet@example.com"),
        ("GIT_COMMITTER_NAME", "Fleet Bot"),
        ("GIT_COMMITTER_EMAIL", "fleet@example.com"),
    ]
}

fn git(dir: &Path, args: &[&str]) -> Result<(), String> {
    let status = Command::new("git")
        .args(["-c", "gc.auto=0"])
        .args(args)
        .current_dir(dir)
        .envs(git_env())
        .status()
        .map_err(|e| format!("cannot run git: {e}"))?;
    status
        .success()
        .then_some(())
        .ok_or_else(|| format!("git {} failed", args.join(" ")))
}
