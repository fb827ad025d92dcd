//! What the generated repository holds, as parameters: rendering turns them into YAML, and a
//! "pull request" bumps a few of them (release, replicas, file contents, kernel arguments, labels).

use crate::rng::Rng;

/// OpenShift z-streams the clusters run; a release bump moves one step along this list.
pub const RELEASES: [&str; 8] = [
    "4.17.12", "4.17.14", "4.18.5", "4.18.9", "4.18.12", "4.19.1", "4.19.3", "4.19.6",
];

/// Platforms of hosted NodePools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Platform {
    /// AWS EC2 instances.
    Aws,
    /// Azure VMs.
    Azure,
    /// KubeVirt VMs on the management cluster.
    KubeVirt,
    /// Bare metal agents.
    Agent,
}

/// A HyperShift hosted cluster with its NodePools.
#[derive(Clone, Debug)]
pub struct Hosted {
    /// `metadata.name`.
    pub name: String,
    /// Region folder.
    pub region: &'static str,
    /// Platform of the cluster and its pools.
    pub platform: Platform,
    /// Index into [`RELEASES`] of the control plane.
    pub release: usize,
    /// Revision of the HostedCluster's labels.
    pub labels_rev: u32,
    /// NodePools (2–4).
    pub pools: Vec<HostedPool>,
    /// Whether each NodePool has its own file (else one multi-document file).
    pub split_files: bool,
}

/// A NodePool with the ConfigMaps it references.
#[derive(Clone, Debug)]
pub struct HostedPool {
    /// Short name (`workers`, `infra`, ...).
    pub name: &'static str,
    /// `spec.replicas`.
    pub replicas: u32,
    /// Index into [`RELEASES`].
    pub release: usize,
    /// `upgradeType: InPlace` (else Replace).
    pub in_place: bool,
    /// Revision of `spec.nodeLabels`.
    pub labels_rev: u32,
    /// Revision of the MachineConfig file in its config ConfigMap.
    pub mc_rev: u32,
    /// Revision of the KubeletConfig in its config ConfigMap (`None`: no KubeletConfig).
    pub kubelet_rev: Option<u32>,
    /// Whether the config ConfigMap also holds a ContainerRuntimeConfig and an ImageDigestMirrorSet.
    pub runtime: bool,
    /// Revision of its Tuned profile (`None`: no tuning ConfigMap).
    pub tuned_rev: Option<u32>,
}

/// One Ignition file of a MachineConfig.
#[derive(Clone, Debug)]
pub struct McFile {
    /// Path on the node.
    pub path: String,
    /// How the contents are encoded in the data URL.
    pub encoding: Encoding,
    /// Revision of the contents.
    pub rev: u32,
    /// Lines of content.
    pub lines: u32,
}

/// Data URL encodings Ignition accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// `data:;base64,...`
    Base64,
    /// `data:;base64,...` of gzip bytes with `compression: gzip`.
    Gzip,
    /// `data:,percent%20encoded`
    Percent,
}

/// A MachineConfig of a standalone cluster.
#[derive(Clone, Debug)]
pub struct MachineConfig {
    /// `metadata.name`.
    pub name: String,
    /// Role label (`master`, `worker`, `infra`).
    pub role: &'static str,
    /// Ignition files.
    pub files: Vec<McFile>,
    /// Kernel arguments (with a revision that adds one).
    pub kargs: Option<u32>,
    /// A systemd unit.
    pub unit: Option<u32>,
    /// Revision of extra labels.
    pub labels_rev: u32,
}

/// A standalone cluster: pools, MachineConfigs and cluster-wide configuration.
#[derive(Clone, Debug)]
pub struct Standalone {
    /// Folder name.
    pub name: String,
    /// Index into [`RELEASES`] of `ClusterVersion.spec.desiredUpdate`.
    pub release: usize,
    /// `maxUnavailable` of worker and infra pools, per pool (master, worker, infra).
    pub pool_rev: [u32; 3],
    /// MachineConfigs (20–60).
    pub mcs: Vec<MachineConfig>,
    /// Revision of the KubeletConfig.
    pub kubelet_rev: u32,
    /// Revision of the ContainerRuntimeConfig.
    pub crio_rev: u32,
    /// Revision of the mirror sets.
    pub mirror_rev: u32,
    /// Revision of the MachineConfiguration's node disruption policy.
    pub mconf_rev: u32,
    /// Whether MachineConfigs are one file each (else grouped by role in multi-document files).
    pub split_files: bool,
}

/// A cluster of either kind.
#[derive(Clone, Debug)]
pub enum Cluster {
    /// HyperShift hosted.
    Hosted(Hosted),
    /// Standalone (MCO).
    Standalone(Standalone),
}

const REGIONS: [&str; 4] = ["us-east-1", "eu-west-1", "ap-south-1", "us-west-2"];
const ROLES: [&str; 5] = ["worker", "worker", "worker", "master", "infra"];
const POOL_NAMES: [&str; 4] = ["workers", "infra", "gpu", "batch"];
const FILE_PATHS: [&str; 10] = [
    "/etc/chrony.conf",
    "/etc/sysctl.d/99-tuning.conf",
    "/etc/modprobe.d/blacklist.conf",
    "/etc/containers/registries.conf.d/99-mirror.conf",
    "/etc/crio/crio.conf.d/99-limits.conf",
    "/etc/audit/rules.d/99-compliance.rules",
    "/etc/NetworkManager/conf.d/99-dns.conf",
    "/etc/security/limits.d/99-nofile.conf",
    "/etc/systemd/journald.conf.d/99-retention.conf",
    "/etc/kubernetes/static-pod-resources/extra.conf",
];

/// A new hosted cluster.
pub fn hosted(rng: &mut Rng, index: usize) -> Hosted {
    let platform = *rng.pick(&[
        Platform::Aws,
        Platform::Aws,
        Platform::Azure,
        Platform::KubeVirt,
        Platform::Agent,
    ]);
    let release = rng.range(0, RELEASES.len() as u32 - 2) as usize;
    let n = rng.range(2, 4) as usize;
    let pools = POOL_NAMES[..n]
        .iter()
        .map(|&name| HostedPool {
            name,
            replicas: rng.range(2, 12),
            release: release.saturating_sub(rng.range(0, 1) as usize),
            in_place: platform == Platform::Agent || rng.chance(25),
            labels_rev: 0,
            mc_rev: 0,
            kubelet_rev: rng.chance(50).then_some(0),
            runtime: rng.chance(40),
            tuned_rev: rng.chance(50).then_some(0),
        })
        .collect();
    Hosted {
        name: format!("hc-{index:05}"),
        region: REGIONS[rng.range(0, REGIONS.len() as u32 - 1) as usize],
        platform,
        release,
        labels_rev: 0,
        pools,
        split_files: rng.chance(60),
    }
}

/// A new standalone cluster.
pub fn standalone(rng: &mut Rng, index: usize) -> Standalone {
    let count = rng.range(20, 60);
    let mcs = (0..count)
        .map(|i| {
            let role = ROLES[rng.range(0, ROLES.len() as u32 - 1) as usize];
            let nfiles = rng.range(0, 3);
            let files = (0..nfiles)
                .map(|f| McFile {
                    path: format!(
                        "{}.{i}.{f}",
                        FILE_PATHS[(i as usize + f as usize) % FILE_PATHS.len()]
                    ),
                    encoding: *rng.pick(&[Encoding::Base64, Encoding::Gzip, Encoding::Percent]),
                    rev: 0,
                    lines: rng.range(3, 40),
                })
                .collect();
            // Shared names across clusters (the usual 99-worker-ssh), plus cluster-specific ones.
            let name = if i < 5 {
                format!("{}-{role}-base-{i}", 50 + i)
            } else {
                format!("{}-{role}-site{index}-{i}", 50 + i % 49)
            };
            MachineConfig {
                name,
                role,
                files,
                kargs: (nfiles == 0 || rng.chance(20)).then_some(0),
                unit: rng.chance(20).then_some(0),
                labels_rev: 0,
            }
        })
        .collect();
    Standalone {
        name: format!("ocp-{index:05}"),
        release: rng.range(0, RELEASES.len() as u32 - 2) as usize,
        pool_rev: [0; 3],
        mcs,
        kubelet_rev: 0,
        crio_rev: 0,
        mirror_rev: 0,
        mconf_rev: 0,
        split_files: rng.chance(70),
    }
}

/// Changes one object of a cluster the way a pull request would; returns what it did.
pub fn mutate(rng: &mut Rng, cluster: &mut Cluster) -> &'static str {
    match cluster {
        Cluster::Hosted(h) => {
            let n = h.pools.len();
            let p = &mut h.pools[rng.range(0, n as u32 - 1) as usize];
            match rng.range(0, 6) {
                0 => {
                    h.release = (h.release + 1).min(RELEASES.len() - 1);
                    "HostedCluster release bump"
                }
                1 => {
                    p.release = (p.release + 1).min(RELEASES.len() - 1);
                    "NodePool release bump"
                }
                2 => {
                    p.replicas += 1;
                    "NodePool replicas"
                }
                3 => {
                    p.labels_rev += 1;
                    "NodePool labels"
                }
                4 => {
                    p.mc_rev += 1;
                    "MachineConfig file in a NodePool config ConfigMap"
                }
                5 if p.kubelet_rev.is_some() => {
                    p.kubelet_rev = p.kubelet_rev.map(|r| r + 1);
                    "KubeletConfig in a NodePool config ConfigMap"
                }
                _ => {
                    h.labels_rev += 1;
                    "HostedCluster labels"
                }
            }
        }
        Cluster::Standalone(s) => {
            let n = s.mcs.len();
            let mc = &mut s.mcs[rng.range(0, n as u32 - 1) as usize];
            match rng.range(0, 9) {
                0..=2 if !mc.files.is_empty() => {
                    let f = rng.range(0, mc.files.len() as u32 - 1) as usize;
                    mc.files[f].rev += 1;
                    "MachineConfig file contents"
                }
                0..=3 => {
                    mc.kargs = Some(mc.kargs.map_or(0, |r| r + 1));
                    "MachineConfig kernel arguments"
                }
                4 => {
                    mc.labels_rev += 1;
                    "MachineConfig labels"
                }
                5 => {
                    s.kubelet_rev += 1;
                    "KubeletConfig"
                }
                6 => {
                    s.crio_rev += 1;
                    "ContainerRuntimeConfig"
                }
                7 => {
                    s.pool_rev[rng.range(1, 2) as usize] += 1;
                    "MachineConfigPool maxUnavailable"
                }
                8 => {
                    s.mirror_rev += 1;
                    "mirror sets"
                }
                _ => {
                    s.release = (s.release + 1).min(RELEASES.len() - 1);
                    "ClusterVersion release bump"
                }
            }
        }
    }
}
