//! The Kustomize-heavy fleet (`--size kustomize-small|medium|large`): every cluster is an overlay
//! of shared bases, with strategic-merge and JSON 6902 patches, Kustomize components, config
//! generators and namespace / prefix / label transformers, so a check renders every overlay with
//! the real Kustomize the way it does on real GitOps repositories (the plain fleet's roots only
//! list files, which nodecast takes without running Kustomize).
//!
//! Layout:
//!
//! ```text
//! bases/hosted/common/               HostedCluster, NodePools workers + infra, pull secret,
//!                                    the MachineConfig every NodePool carries (configMapGenerator),
//!                                    the ssh key (secretGenerator), name references for prefixes
//! bases/hosted/<platform>/           ../common + platform defaults (strategic-merge patches)
//! bases/standalone/                  MachineConfigPools, shared MachineConfigs, KubeletConfig,
//!                                    ContainerRuntimeConfig, MachineConfiguration, mirror sets
//! components/hosted/in-place-upgrades   JSON 6902 patch: every NodePool upgrades in place
//! components/hosted/node-tuning         Tuned ConfigMap (generator) + tuningConfig patch
//! components/hosted/audit-logging       audit MachineConfig ConfigMap (generator) + config patch
//! components/standalone/kdump           a MachineConfig with kernel arguments and a unit
//! clusters/hosted/<region>/hc-NNNNN/    overlay: namespace, namePrefix, labels, a
//!                                    strategic-merge patch of the HostedCluster and of the workers
//!                                    pool, a JSON 6902 patch file of the infra pool, an inline
//!                                    JSON 6902 patch, per-pool config ConfigMaps (generator),
//!                                    extra pools (gpu, batch) as resources
//! clusters/standalone/ocp-NNNNN/        overlay: labels, ClusterVersion and the site's
//!                                    MachineConfigs as resources, strategic-merge patch of the
//!                                    pools, JSON 6902 patch file of the KubeletConfig, inline
//!                                    JSON 6902 patch of the ContainerRuntimeConfig
//! ```
//!
//! History: `main` holds one commit (the fleet); each pull request of [`PullRequest::ALL`] is a
//! branch of one commit on top of it. [`Variant::SingleOverlay`] writes only the overlay that
//! [`PullRequest::OverlayPatch`] changes and what it needs, with that branch, so the cost of
//! that change in the whole fleet can be divided by its cost alone.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::model::{
    self, Encoding, Hosted, HostedPool, MachineConfig, McFile, Platform, Standalone, RELEASES,
};
use crate::render::{self, File};
use crate::rng::Rng;
use crate::Size;

/// A Kustomize component an overlay may list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Component {
    /// Every NodePool of the overlay upgrades in place (Agent clusters, and some others).
    InPlaceUpgrades,
    /// A Tuned profile every NodePool of the overlay references.
    NodeTuning,
    /// An audit-rules MachineConfig every NodePool of the overlay carries.
    AuditLogging,
    /// A kdump MachineConfig for the worker pool of a standalone cluster.
    Kdump,
}

impl Component {
    /// The component's folder: overlays list it, and the single-overlay variant keeps it.
    pub fn dir(self) -> &'static str {
        match self {
            Component::InPlaceUpgrades => "components/hosted/in-place-upgrades",
            Component::NodeTuning => "components/hosted/node-tuning",
            Component::AuditLogging => "components/hosted/audit-logging",
            Component::Kdump => "components/standalone/kdump",
        }
    }
}

/// One cluster of the fleet: its parameters and the components its overlay lists.
#[derive(Clone, Debug)]
pub struct Overlay {
    /// The cluster's parameters (the plain fleet's model).
    pub cluster: model::Cluster,
    /// Components the overlay lists, in order.
    pub components: Vec<Component>,
}

impl Overlay {
    /// The overlay's folder: the root nodecast renders (and a standalone cluster's key).
    pub fn dir(&self) -> String {
        match &self.cluster {
            model::Cluster::Hosted(h) => format!("clusters/hosted/{}/{}", h.region, h.name),
            model::Cluster::Standalone(s) => format!("clusters/standalone/{}", s.name),
        }
    }

    /// Whether the overlay lists `c`: which overlays a change to that component reaches.
    pub fn uses(&self, c: Component) -> bool {
        self.components.contains(&c)
    }
}

/// Parameters shared by many overlays (what the shared-base and component pull requests bump).
#[derive(Clone, Debug)]
pub struct Shared {
    /// Revision of the MachineConfig in `bases/hosted/common` (every hosted NodePool).
    pub base_mc_rev: u32,
    /// Revision of the audit rules in `components/hosted/audit-logging`.
    pub audit_rev: u32,
    /// Revision of the Tuned profile in `components/hosted/node-tuning`.
    pub tuned_rev: u32,
    /// MachineConfigs of `bases/standalone` (every standalone cluster).
    pub standalone_mcs: Vec<MachineConfig>,
}

/// The Kustomize fleet model.
#[derive(Clone, Debug)]
pub struct Fleet {
    /// One overlay per cluster, in index order (two hosted for every standalone).
    pub overlays: Vec<Overlay>,
    /// What the shared bases and components hold.
    pub shared: Shared,
}

/// Which repository to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// The whole fleet with every pull request branch.
    Fleet,
    /// Only the overlay [`PullRequest::OverlayPatch`] changes (with its bases, components and
    /// the repository's other files) and that pull request's branch: the denominator of "a
    /// one-overlay change in the fleet costs N× the same change alone".
    SingleOverlay,
}

/// The pull requests written as branches on top of `main`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PullRequest {
    /// (a) One overlay's patch: the workers NodePool of the first hosted cluster moves one
    /// z-stream up (towards its control plane's release), in that overlay's strategic-merge patch.
    OverlayPatch,
    /// (b) One shared base: the MachineConfig of `bases/hosted/common` that every hosted
    /// NodePool carries.
    SharedBase,
    /// (c) One component: the audit rules of `components/hosted/audit-logging`, carried by
    /// every NodePool of the overlays that list it.
    Component,
}

impl PullRequest {
    /// Every pull request, in the order the benchmark runs them.
    pub const ALL: [PullRequest; 3] = [
        PullRequest::OverlayPatch,
        PullRequest::SharedBase,
        PullRequest::Component,
    ];

    /// The branch holding it: what `nodecast check --head` names.
    pub fn branch(self) -> &'static str {
        match self {
            PullRequest::OverlayPatch => "pr/overlay-patch",
            PullRequest::SharedBase => "pr/shared-base",
            PullRequest::Component => "pr/component",
        }
    }

    /// Its commit message (says what it changes, as a reviewer would read it).
    pub fn message(self) -> &'static str {
        match self {
            PullRequest::OverlayPatch => {
                "hc-00000: workers NodePool one z-stream up (overlay patch)\n"
            }
            PullRequest::SharedBase => {
                "bases/hosted/common: new sysctl revision for every NodePool\n"
            }
            PullRequest::Component => "components/hosted/audit-logging: new audit rules revision\n",
        }
    }

    /// The overlays whose render the change alters (what a check that renders only what a change
    /// touches would still render).
    pub fn reach(self, fleet: &Fleet) -> Vec<String> {
        let hosted = |o: &&Overlay| matches!(o.cluster, model::Cluster::Hosted(_));
        match self {
            PullRequest::OverlayPatch => fleet
                .overlays
                .iter()
                .filter(hosted)
                .take(1)
                .map(Overlay::dir)
                .collect(),
            PullRequest::SharedBase => fleet
                .overlays
                .iter()
                .filter(hosted)
                .map(Overlay::dir)
                .collect(),
            PullRequest::Component => fleet
                .overlays
                .iter()
                .filter(|o| o.uses(Component::AuditLogging))
                .map(Overlay::dir)
                .collect(),
        }
    }

    /// Applies the change to the model, whose re-render is the branch's commit.
    pub fn apply(self, fleet: &mut Fleet) {
        match self {
            PullRequest::OverlayPatch => {
                if let Some(h) = fleet
                    .overlays
                    .iter_mut()
                    .find_map(|o| match &mut o.cluster {
                        model::Cluster::Hosted(h) => Some(h),
                        model::Cluster::Standalone(_) => None,
                    })
                {
                    h.pools[0].release = (h.pools[0].release + 1).min(h.release);
                }
            }
            PullRequest::SharedBase => fleet.shared.base_mc_rev += 1,
            PullRequest::Component => fleet.shared.audit_rev += 1,
        }
    }
}

/// Clusters of each size (the plain fleet's sizes count documents; here the overlays are the
/// cost, and medium matches the issue's fleet of about 120 overlays).
pub fn clusters(size: Size) -> usize {
    match size {
        Size::Small => 12,
        Size::Medium => 120,
        Size::Large => 600,
    }
}

/// The fleet model of a size and seed (no files written): tests derive expected forecasts from it.
pub fn fleet(size: Size, seed: u64) -> Fleet {
    // Its own stream: the plain fleet of the same seed is unchanged.
    let mut rng = Rng::new(seed ^ 0x6b75_7374_6f6d_697a);
    let standalone_mcs = model::standalone(&mut rng, 0)
        .mcs
        .into_iter()
        .take(5)
        .enumerate()
        .map(|(i, mut mc)| {
            mc.name = format!("{}-{}-fleet-{i}", 50 + i, mc.role);
            mc
        })
        .collect();
    let overlays = (0..clusters(size))
        .map(|i| {
            if i % 3 == 2 {
                let mut s = model::standalone(&mut rng, i);
                // The first five are the shared base's (bases/standalone).
                s.mcs.drain(..5);
                let components = if rng.chance(40) {
                    vec![Component::Kdump]
                } else {
                    Vec::new()
                };
                Overlay {
                    cluster: model::Cluster::Standalone(s),
                    components,
                }
            } else {
                let mut h = model::hosted(&mut rng, i);
                let in_place = h.platform == Platform::Agent || rng.chance(25);
                let tuning = h.pools.iter().any(|p| p.tuned_rev.is_some());
                // The first hosted cluster carries the audit rules, so the single-overlay
                // repository holds a component too.
                let audit = i == 0 || rng.chance(35);
                for p in &mut h.pools {
                    p.in_place = in_place;
                    p.tuned_rev = tuning.then_some(0);
                }
                if i == 0 {
                    // Its workers pool is one z-stream behind the control plane, so the
                    // overlay-patch pull request has a step to take.
                    h.release = h.release.max(1);
                    h.pools[0].release = h.release - 1;
                }
                let mut components = Vec::new();
                if in_place {
                    components.push(Component::InPlaceUpgrades);
                }
                if tuning {
                    components.push(Component::NodeTuning);
                }
                if audit {
                    components.push(Component::AuditLogging);
                }
                Overlay {
                    cluster: model::Cluster::Hosted(h),
                    components,
                }
            }
        })
        .collect();
    Fleet {
        overlays,
        shared: Shared {
            base_mc_rev: 0,
            audit_rev: 0,
            tuned_rev: 0,
            standalone_mcs,
        },
    }
}

/// Renders every file of a variant of the fleet (a pure function of the model, so a bumped
/// parameter changes exactly the files a real pull request would).
pub fn files(fleet: &Fleet, variant: Variant) -> BTreeMap<String, (String, usize)> {
    let overlays: Vec<&Overlay> = match variant {
        Variant::Fleet => fleet.overlays.iter().collect(),
        Variant::SingleOverlay => fleet
            .overlays
            .iter()
            .filter(|o| matches!(o.cluster, model::Cluster::Hosted(_)))
            .take(1)
            .collect(),
    };
    let mut out: Vec<File> = common();
    let mut platforms: Vec<Platform> = Vec::new();
    let mut components: Vec<Component> = Vec::new();
    let mut standalone = false;
    for o in &overlays {
        match &o.cluster {
            model::Cluster::Hosted(h) => {
                if !platforms.contains(&h.platform) {
                    platforms.push(h.platform);
                }
                out.extend(hosted_overlay(h, o));
            }
            model::Cluster::Standalone(s) => {
                standalone = true;
                out.extend(standalone_overlay(s, o));
            }
        }
        for c in &o.components {
            if !components.contains(c) {
                components.push(*c);
            }
        }
    }
    // Only bases some overlay uses: an unused base would be a root of its own, and an
    // incomplete cluster is not what a fleet repository holds.
    if !platforms.is_empty() {
        out.extend(hosted_common(&fleet.shared));
    }
    for p in platforms {
        out.extend(platform_base(p));
    }
    if standalone {
        out.extend(standalone_base(&fleet.shared));
    }
    for c in components {
        out.extend(component(c, &fleet.shared));
    }
    out.into_iter()
        .map(|f| (f.path, (f.text, f.docs)))
        .collect()
}

fn text(path: String, text: String) -> File {
    File {
        path,
        text,
        docs: 0,
    }
}

fn common() -> Vec<File> {
    let mut files = render::common();
    files[0].text = "# Fleet manifests\n\nGenerated by repogen for nodecast benchmarks: every cluster is a Kustomize\noverlay of `bases/`, some with `components/`.\n".into();
    files
}

const HOSTED_API: &str = "apiVersion: hypershift.openshift.io/v1beta1";
const KUSTOMIZATION: &str = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n";
const COMPONENT: &str = "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n";

fn platform_name(p: Platform) -> &'static str {
    match p {
        Platform::Aws => "aws",
        Platform::Azure => "azure",
        Platform::KubeVirt => "kubevirt",
        Platform::Agent => "agent",
    }
}

fn hosted_common(shared: &Shared) -> Vec<File> {
    let dir = "bases/hosted/common";
    let mut files = Vec::new();
    files.push(text(
        format!("{dir}/kustomization.yaml"),
        format!(
            "{KUSTOMIZATION}# Shared by every hosted cluster: the HostedCluster, the workers and infra NodePools, the\n# pull secret, the MachineConfig every NodePool carries and the ssh key.\nresources:\n- pull-secret.yaml\n- hostedcluster.yaml\n- nodepools.yaml\n# Overlays add a name prefix: these references follow it.\nconfigurations:\n- name-references.yaml\nconfigMapGenerator:\n- name: base-config\n  files:\n  - config=machineconfig-base.yaml\nsecretGenerator:\n- name: ssh-key\n  literals:\n  - id_rsa.pub=ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFleetFleetFleetFleetFleetFleetFleetFleet fleet@example.com\n  options:\n    disableNameSuffixHash: true\n"
        ),
    ));
    files.push(text(
        format!("{dir}/name-references.yaml"),
        "nameReference:\n- kind: HostedCluster\n  group: hypershift.openshift.io\n  fieldSpecs:\n  - kind: NodePool\n    path: spec/clusterName\n- kind: ConfigMap\n  version: v1\n  fieldSpecs:\n  - kind: NodePool\n    path: spec/config/name\n  - kind: NodePool\n    path: spec/tuningConfig/name\n- kind: Secret\n  version: v1\n  fieldSpecs:\n  - kind: HostedCluster\n    path: spec/pullSecret/name\n  - kind: HostedCluster\n    path: spec/sshKey/name\n".into(),
    ));
    files.push(render::file(
        format!("{dir}/pull-secret.yaml"),
        vec!["apiVersion: v1\nkind: Secret\nmetadata:\n  name: pull-secret\n  labels:\n    hypershift.openshift.io/safe-to-delete-with-cluster: \"true\"\ntype: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: ZmFrZQ==\n".into()],
    ));
    let mut hc = format!(
        "{HOSTED_API}\nkind: HostedCluster\nmetadata:\n  name: cluster\n  annotations:\n    hypershift.openshift.io/cleanup-cloud-resources: \"true\"\nspec:\n  release:\n    image: {img}\n  pullSecret:\n    name: pull-secret\n  sshKey:\n    name: ssh-key\n  fips: false\n  controllerAvailabilityPolicy: HighlyAvailable\n  etcd:\n    managementType: Managed\n    managed:\n      storage:\n        type: PersistentVolume\n        persistentVolume:\n          size: 8Gi\n  networking:\n    networkType: OVNKubernetes\n    clusterNetwork:\n    - cidr: 10.132.0.0/14\n    serviceNetwork:\n    - cidr: 172.31.0.0/16\n    machineNetwork:\n    - cidr: 10.0.0.0/16\n  services:\n",
        img = render::release_image(0)
    );
    for (svc, ty) in [
        ("APIServer", "LoadBalancer"),
        ("Ignition", "Route"),
        ("Konnectivity", "Route"),
        ("OAuthServer", "Route"),
    ] {
        let _ = write!(
            hc,
            "  - service: {svc}\n    servicePublishingStrategy:\n      type: {ty}\n"
        );
    }
    files.push(render::file(format!("{dir}/hostedcluster.yaml"), vec![hc]));
    let pools = ["workers", "infra"]
        .iter()
        .map(|p| {
            format!(
                "{HOSTED_API}\nkind: NodePool\nmetadata:\n  name: {p}\nspec:\n  clusterName: cluster\n  replicas: 2\n  arch: amd64\n  release:\n    image: {img}\n  management:\n    autoRepair: true\n    upgradeType: Replace\n    replace:\n      strategy: RollingUpdate\n      rollingUpdate:\n        maxSurge: 1\n        maxUnavailable: 0\n  nodeDrainTimeout: 10m0s\n  nodeLabels:\n    node-role.kubernetes.io/{p}: \"\"\n  config:\n  - name: base-config\n",
                img = render::release_image(0)
            )
        })
        .collect();
    files.push(render::file(format!("{dir}/nodepools.yaml"), pools));
    let f = McFile {
        path: "/etc/sysctl.d/90-fleet.conf".into(),
        encoding: Encoding::Base64,
        rev: shared.base_mc_rev,
        lines: 8,
    };
    files.push(text(
        format!("{dir}/machineconfig-base.yaml"),
        format!(
            "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  labels:\n    machineconfiguration.openshift.io/role: worker\n  name: 90-fleet-sysctl\nspec:\n  config:\n    ignition:\n      version: 3.2.0\n    storage:\n      files:\n{}",
            render::ignition_file(&f, "      ")
        ),
    ));
    files
}

/// The per-cluster platform fields of the HostedCluster come from each overlay; a platform base
/// sets the type and what every NodePool of that platform shares.
fn platform_base(p: Platform) -> Vec<File> {
    let dir = format!("bases/hosted/{}", platform_name(p));
    let hc = match p {
        Platform::Aws => "    type: AWS\n    aws:\n      endpointAccess: Public\n",
        Platform::Azure => "    type: Azure\n",
        Platform::KubeVirt => "    type: KubeVirt\n",
        Platform::Agent => "    type: Agent\n",
    };
    let np = pool_defaults(p);
    vec![
        text(
            format!("{dir}/kustomization.yaml"),
            format!(
                "{KUSTOMIZATION}resources:\n- ../common\npatches:\n- path: hostedcluster.yaml\n- path: nodepools.yaml\n  target:\n    group: hypershift.openshift.io\n    kind: NodePool\n"
            ),
        ),
        text(
            format!("{dir}/hostedcluster.yaml"),
            format!("{HOSTED_API}\nkind: HostedCluster\nmetadata:\n  name: cluster\nspec:\n  platform:\n{hc}"),
        ),
        text(
            format!("{dir}/nodepools.yaml"),
            format!("# Every NodePool of the base (the target selects them; the name is not read).\n{HOSTED_API}\nkind: NodePool\nmetadata:\n  name: all\nspec:\n  platform:\n{np}"),
        ),
    ]
}

/// What every NodePool of a platform shares (under `spec.platform`).
fn pool_defaults(p: Platform) -> &'static str {
    match p {
        Platform::Aws => "    type: AWS\n    aws:\n      instanceType: m6i.2xlarge\n      rootVolume:\n        size: 120\n        type: gp3\n",
        Platform::Azure => "    type: Azure\n    azure:\n      vmSize: Standard_D4s_v3\n      image:\n        type: AzureMarketplace\n        azureMarketplace:\n          publisher: azureopenshift\n          offer: aro4\n          sku: aro_418\n          version: 418.94.20250122\n      osDisk:\n        sizeGiB: 128\n        diskStorageAccountType: Premium_LRS\n",
        Platform::KubeVirt => "    type: KubeVirt\n    kubevirt:\n      compute:\n        cores: 4\n        memory: 16Gi\n      rootVolume:\n        type: Persistent\n        persistent:\n          size: 64Gi\n",
        Platform::Agent => "    type: Agent\n",
    }
}

/// A NodePool's platform fields that name the cluster (subnet, instance profile, agent label).
fn pool_platform(h: &Hosted) -> Vec<(&'static str, String)> {
    let n = &h.name;
    match h.platform {
        Platform::Aws => vec![
            ("aws/instanceProfile", format!("{n}-worker")),
            ("aws/subnet/id", format!("subnet-{n}")),
        ],
        Platform::Azure => vec![(
            "azure/subnetID",
            format!("/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/{n}-rg/providers/Microsoft.Network/virtualNetworks/{n}/subnets/default"),
        )],
        Platform::KubeVirt => Vec::new(),
        Platform::Agent => vec![("agent/agentLabelSelector/matchLabels/cluster", n.clone())],
    }
}

/// `a/b/c: v` as nested YAML mappings indented by `ind`.
fn nested(entries: &[(&str, String)], ind: usize) -> String {
    let mut s = String::new();
    let mut open: Vec<&str> = Vec::new();
    for (path, value) in entries {
        let parts: Vec<&str> = path.split('/').collect();
        let keep = open
            .iter()
            .zip(&parts)
            .take_while(|(a, b)| a == b)
            .count()
            .min(parts.len() - 1);
        open.truncate(keep);
        for (depth, part) in parts.iter().enumerate().skip(keep) {
            let pad = " ".repeat(ind + 2 * depth);
            if depth + 1 == parts.len() {
                let _ = writeln!(s, "{pad}{part}: {value}");
            } else {
                let _ = writeln!(s, "{pad}{part}:");
                open.push(part);
            }
        }
    }
    s
}

fn pool_config(h: &Hosted, p: &HostedPool) -> String {
    render::pool_documents(h, p).join("---\n")
}

fn hosted_overlay(h: &Hosted, o: &Overlay) -> Vec<File> {
    let dir = o.dir();
    let up = "../../../..";
    let n = &h.name;
    let mut files = Vec::new();
    let mut k = format!(
        "{KUSTOMIZATION}namespace: clusters\nnamePrefix: {n}-\nlabels:\n- pairs:\n    fleet.example.com/cluster: {n}\n    fleet.example.com/region: {r}\nresources:\n- {up}/bases/hosted/{p}\n",
        r = h.region,
        p = platform_name(h.platform)
    );
    for p in h.pools.iter().skip(2) {
        let _ = writeln!(k, "- nodepool-{}.yaml", p.name);
    }
    if !o.components.is_empty() {
        k.push_str("components:\n");
        for c in &o.components {
            let _ = writeln!(k, "- {up}/{}", c.dir());
        }
    }
    k.push_str("patches:\n- path: hostedcluster.yaml\n- path: nodepool-workers.yaml\n- target:\n    kind: NodePool\n    name: workers\n  patch: |-\n    - op: add\n      path: /spec/config/-\n      value:\n        name: workers-config\n");
    if h.pools.len() > 1 {
        k.push_str("- path: nodepool-infra.yaml\n  target:\n    group: hypershift.openshift.io\n    version: v1beta1\n    kind: NodePool\n    name: infra\n");
    }
    k.push_str("configMapGenerator:\n");
    for p in &h.pools {
        let _ = write!(
            k,
            "- name: {p}-config\n  files:\n  - config={p}-config.yaml\n",
            p = p.name
        );
    }
    files.push(text(format!("{dir}/kustomization.yaml"), k));

    // The HostedCluster: what names this cluster (strategic merge).
    files.push(text(
        format!("{dir}/hostedcluster.yaml"),
        format!(
            "{HOSTED_API}\nkind: HostedCluster\nmetadata:\n  name: cluster\n  labels:\n    fleet.example.com/tier: \"{t}\"\nspec:\n  release:\n    image: {img}\n  infraID: {n}-x7k2q\n  issuerURL: https://{n}-oidc.example.com\n  dns:\n    baseDomain: {n}.example.com\n  platform:\n{pb}",
            t = h.labels_rev,
            img = render::release_image(h.release),
            pb = render::platform_block(h, "    ")
        ),
    ));
    // workers: strategic merge.
    let w = &h.pools[0];
    let mut wp = format!(
        "{HOSTED_API}\nkind: NodePool\nmetadata:\n  name: workers\nspec:\n  replicas: {r}\n  release:\n    image: {img}\n  nodeLabels:\n    fleet.example.com/generation: \"{l}\"\n",
        r = w.replicas,
        img = render::release_image(w.release),
        l = w.labels_rev
    );
    let platform = pool_platform(h);
    if !platform.is_empty() {
        wp.push_str("  platform:\n");
        wp.push_str(&nested(&platform, 4));
    }
    files.push(text(format!("{dir}/nodepool-workers.yaml"), wp));
    // infra: JSON 6902.
    if let Some(p) = h.pools.get(1) {
        let mut jp = format!(
            "- op: replace\n  path: /spec/replicas\n  value: {r}\n- op: replace\n  path: /spec/release/image\n  value: {img}\n- op: add\n  path: /spec/nodeLabels/fleet.example.com~1generation\n  value: \"{l}\"\n- op: add\n  path: /spec/config/-\n  value:\n    name: infra-config\n",
            r = p.replicas,
            img = render::release_image(p.release),
            l = p.labels_rev
        );
        for (path, value) in &platform {
            let _ = write!(
                jp,
                "- op: add\n  path: /spec/platform/{path}\n  value: {value}\n"
            );
        }
        // Intermediate objects the base does not have.
        if h.platform == Platform::Aws {
            jp = jp.replace(
                "- op: add\n  path: /spec/platform/aws/subnet/id\n  value: ",
                "- op: add\n  path: /spec/platform/aws/subnet\n  value:\n    id: ",
            );
        }
        if h.platform == Platform::Agent {
            jp = jp.replace(
                "- op: add\n  path: /spec/platform/agent/agentLabelSelector/matchLabels/cluster\n  value: ",
                "- op: add\n  path: /spec/platform/agent\n  value:\n    agentLabelSelector:\n      matchLabels:\n        cluster: ",
            );
        }
        files.push(text(format!("{dir}/nodepool-infra.yaml"), jp));
    }
    // gpu, batch: whole NodePools of this cluster.
    for p in h.pools.iter().skip(2) {
        files.push(render::file(
            format!("{dir}/nodepool-{}.yaml", p.name),
            vec![extra_pool(h, p)],
        ));
    }
    for p in &h.pools {
        files.push(text(
            format!("{dir}/{}-config.yaml", p.name),
            pool_config(h, p),
        ));
    }
    files.push(text(
        format!("{dir}/values.yaml"),
        format!(
            "# Helm values of the cluster's add-ons (not a Kubernetes object).\ncluster: {}\nregion: {}\nmonitoring:\n  retention: 15d\n  remoteWrite: true\nlogging:\n  forwarders: [loki, splunk]\n",
            h.name, h.region
        ),
    ));
    files
}

/// A NodePool an overlay adds (not in the base): the whole object, platform included.
fn extra_pool(h: &Hosted, p: &HostedPool) -> String {
    let mut s = format!(
        "{HOSTED_API}\nkind: NodePool\nmetadata:\n  name: {p}\nspec:\n  clusterName: cluster\n  replicas: {r}\n  arch: amd64\n  release:\n    image: {img}\n  management:\n    autoRepair: true\n    upgradeType: Replace\n    replace:\n      strategy: RollingUpdate\n      rollingUpdate:\n        maxSurge: 1\n        maxUnavailable: 0\n  nodeDrainTimeout: 10m0s\n  nodeLabels:\n    node-role.kubernetes.io/{p}: \"\"\n    fleet.example.com/generation: \"{l}\"\n  config:\n  - name: base-config\n  - name: {p}-config\n  platform:\n",
        p = p.name,
        r = p.replicas,
        img = render::release_image(p.release),
        l = p.labels_rev
    );
    s.push_str(pool_defaults(h.platform));
    let n = &h.name;
    match h.platform {
        Platform::Aws => {
            let _ = write!(
                s,
                "      instanceProfile: {n}-worker\n      subnet:\n        id: subnet-{n}\n"
            );
        }
        Platform::Azure => {
            let _ = writeln!(s, "      subnetID: /subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/{n}-rg/providers/Microsoft.Network/virtualNetworks/{n}/subnets/default");
        }
        Platform::KubeVirt => {}
        Platform::Agent => {
            let _ = write!(
                s,
                "    agent:\n      agentLabelSelector:\n        matchLabels:\n          cluster: {n}\n"
            );
        }
    }
    s
}

fn standalone_base(shared: &Shared) -> Vec<File> {
    let dir = "bases/standalone";
    let mut files = Vec::new();
    let pools: Vec<String> = ["master", "worker", "infra"]
        .iter()
        .map(|name| {
            let selector = if *name == "infra" {
                "    matchExpressions:\n    - key: machineconfiguration.openshift.io/role\n      operator: In\n      values: [worker, infra]\n".to_string()
            } else {
                format!("    matchLabels:\n      machineconfiguration.openshift.io/role: {name}\n")
            };
            format!(
                "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfigPool\nmetadata:\n  name: {name}\n  labels:\n    pools.operator.machineconfiguration.openshift.io/{name}: \"\"\nspec:\n  machineConfigSelector:\n{selector}  nodeSelector:\n    matchLabels:\n      node-role.kubernetes.io/{name}: \"\"\n  maxUnavailable: 1\n"
            )
        })
        .collect();
    files.push(render::file(
        format!("{dir}/machineconfigpools.yaml"),
        pools,
    ));
    files.push(render::file(
        format!("{dir}/machineconfigs.yaml"),
        shared
            .standalone_mcs
            .iter()
            .map(render::machine_config)
            .collect(),
    ));
    files.push(render::file(
        format!("{dir}/kubeletconfig.yaml"),
        vec!["apiVersion: machineconfiguration.openshift.io/v1\nkind: KubeletConfig\nmetadata:\n  name: infra-kubelet\nspec:\n  machineConfigPoolSelector:\n    matchLabels:\n      pools.operator.machineconfiguration.openshift.io/infra: \"\"\n  kubeletConfig:\n    maxPods: 250\n    systemReserved:\n      cpu: 1000m\n      memory: 4Gi\n".into()],
    ));
    files.push(render::file(
        format!("{dir}/containerruntimeconfig.yaml"),
        vec!["apiVersion: machineconfiguration.openshift.io/v1\nkind: ContainerRuntimeConfig\nmetadata:\n  name: worker-crio\nspec:\n  machineConfigPoolSelector:\n    matchLabels:\n      pools.operator.machineconfiguration.openshift.io/worker: \"\"\n  containerRuntimeConfig:\n    pidsLimit: 2048\n    logLevel: info\n".into()],
    ));
    files.push(render::file(
        format!("{dir}/machineconfiguration.yaml"),
        vec!["apiVersion: operator.openshift.io/v1\nkind: MachineConfiguration\nmetadata:\n  name: cluster\nspec:\n  logLevel: Normal\n  operatorLogLevel: Normal\n  nodeDisruptionPolicy:\n    files:\n    - path: /etc/chrony.conf\n      actions:\n      - type: Restart\n        restart:\n          serviceName: chronyd.service\n    sshkey:\n      actions:\n      - type: None\n".into()],
    ));
    files.push(render::file(
        format!("{dir}/mirrorsets.yaml"),
        vec![
            "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: digest-mirrors\nspec:\n  imageDigestMirrors:\n  - source: registry.redhat.io/ubi9\n    mirrors:\n    - mirror0.example.com/ubi9\n    mirrorSourcePolicy: AllowContactingSource\n".into(),
            "apiVersion: config.openshift.io/v1\nkind: ImageTagMirrorSet\nmetadata:\n  name: tag-mirrors\nspec:\n  imageTagMirrors:\n  - source: quay.io/example\n    mirrors:\n    - mirror.example.com/example\n".into(),
        ],
    ));
    files.push(text(
        format!("{dir}/kustomization.yaml"),
        format!("{KUSTOMIZATION}# What every standalone cluster runs; overlays patch the pools and the kubelet.\nresources:\n- machineconfigpools.yaml\n- machineconfigs.yaml\n- kubeletconfig.yaml\n- containerruntimeconfig.yaml\n- machineconfiguration.yaml\n- mirrorsets.yaml\n"),
    ));
    files
}

fn standalone_overlay(s: &Standalone, o: &Overlay) -> Vec<File> {
    let dir = o.dir();
    let up = "../../..";
    let mut files = Vec::new();
    let mut resources = vec![
        format!("{up}/bases/standalone"),
        "clusterversion.yaml".into(),
    ];
    files.push(render::file(
        format!("{dir}/clusterversion.yaml"),
        vec![format!(
            "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\nspec:\n  clusterID: 6a1d1e5c-{:04}-4c1e-9d2b-3f0d1c2b3a4e\n  channel: stable-{}\n  desiredUpdate:\n    version: {}\n",
            s.name.len(),
            &RELEASES[s.release][..4],
            RELEASES[s.release]
        )],
    ));
    if s.split_files {
        for mc in &s.mcs {
            let rel = format!("machineconfigs/{}.yaml", mc.name);
            files.push(render::file(
                format!("{dir}/{rel}"),
                vec![render::machine_config(mc)],
            ));
            resources.push(rel);
        }
    } else {
        for role in ["master", "worker", "infra"] {
            let docs: Vec<String> = s
                .mcs
                .iter()
                .filter(|m| m.role == role)
                .map(render::machine_config)
                .collect();
            if !docs.is_empty() {
                let rel = format!("machineconfigs/{role}.yaml");
                files.push(render::file(format!("{dir}/{rel}"), docs));
                resources.push(rel);
            }
        }
    }
    let mut k = format!(
        "{KUSTOMIZATION}labels:\n- pairs:\n    fleet.example.com/site: {}\nresources:\n",
        s.name
    );
    for r in &resources {
        let _ = writeln!(k, "- {r}");
    }
    if !o.components.is_empty() {
        k.push_str("components:\n");
        for c in &o.components {
            let _ = writeln!(k, "- {up}/{}", c.dir());
        }
    }
    let _ = write!(
        k,
        "patches:\n- path: machineconfigpools.yaml\n- path: kubeletconfig.yaml\n  target:\n    group: machineconfiguration.openshift.io\n    kind: KubeletConfig\n    name: infra-kubelet\n- target:\n    kind: ContainerRuntimeConfig\n    name: worker-crio\n  patch: |-\n    - op: replace\n      path: /spec/containerRuntimeConfig/pidsLimit\n      value: {}\n",
        2048 + s.crio_rev * 1024
    );
    files.push(text(format!("{dir}/kustomization.yaml"), k));
    files.push(text(
        format!("{dir}/machineconfigpools.yaml"),
        ["worker", "infra"]
            .iter()
            .enumerate()
            .map(|(i, name)| {
                format!(
                    "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfigPool\nmetadata:\n  name: {name}\nspec:\n  maxUnavailable: {}\n",
                    1 + s.pool_rev[i + 1]
                )
            })
            .collect::<Vec<_>>()
            .join("---\n"),
    ));
    files.push(text(
        format!("{dir}/kubeletconfig.yaml"),
        format!(
            "- op: replace\n  path: /spec/kubeletConfig/maxPods\n  value: {}\n",
            250 + s.kubelet_rev * 10
        ),
    ));
    files
}

fn component(c: Component, shared: &Shared) -> Vec<File> {
    let dir = c.dir();
    let all_pools =
        "- target:\n    group: hypershift.openshift.io\n    kind: NodePool\n  patch: |-\n";
    match c {
        Component::InPlaceUpgrades => vec![text(
            format!("{dir}/kustomization.yaml"),
            format!("{COMPONENT}# Nodes are updated in place instead of replaced (Agent clusters have no machines to spare).\npatches:\n{all_pools}    - op: replace\n      path: /spec/management\n      value:\n        autoRepair: true\n        upgradeType: InPlace\n        inPlace:\n          maxUnavailable: 1\n"),
        )],
        Component::NodeTuning => vec![
            text(
                format!("{dir}/kustomization.yaml"),
                format!("{COMPONENT}configMapGenerator:\n- name: tuned\n  files:\n  - tuning=tuned.yaml\npatches:\n{all_pools}    - op: add\n      path: /spec/tuningConfig\n      value:\n      - name: tuned\n"),
            ),
            text(
                format!("{dir}/tuned.yaml"),
                format!("apiVersion: tuned.openshift.io/v1\nkind: Tuned\nmetadata:\n  name: fleet-tuned\n  namespace: openshift-cluster-node-tuning-operator\nspec:\n  profile:\n  - data: |\n      [main]\n      summary=Fleet profile\n      include=openshift-node\n\n      [sysctl]\n      vm.dirty_ratio=\"{}\"\n    name: fleet-profile\n  recommend:\n  - priority: 20\n    profile: fleet-profile\n", 40 + shared.tuned_rev),
            ),
        ],
        Component::AuditLogging => {
            let f = McFile {
                path: "/etc/audit/rules.d/90-fleet.rules".into(),
                encoding: Encoding::Percent,
                rev: shared.audit_rev,
                lines: 12,
            };
            vec![
                text(
                    format!("{dir}/kustomization.yaml"),
                    format!("{COMPONENT}configMapGenerator:\n- name: audit-config\n  files:\n  - config=machineconfig-audit.yaml\npatches:\n{all_pools}    - op: add\n      path: /spec/config/-\n      value:\n        name: audit-config\n"),
                ),
                text(
                    format!("{dir}/machineconfig-audit.yaml"),
                    format!("apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  labels:\n    machineconfiguration.openshift.io/role: worker\n  name: 90-fleet-audit\nspec:\n  config:\n    ignition:\n      version: 3.2.0\n    storage:\n      files:\n{}", render::ignition_file(&f, "      ")),
                ),
            ]
        }
        Component::Kdump => vec![
            text(
                format!("{dir}/kustomization.yaml"),
                format!("{COMPONENT}resources:\n- machineconfig-kdump.yaml\n"),
            ),
            render::file(
                format!("{dir}/machineconfig-kdump.yaml"),
                vec!["apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 99-worker-kdump\n  labels:\n    machineconfiguration.openshift.io/role: worker\nspec:\n  config:\n    ignition:\n      version: 3.2.0\n    systemd:\n      units:\n      - name: kdump.service\n        enabled: true\n  kernelArguments:\n  - crashkernel=512M\n".into()],
            ),
        ],
    }
}
