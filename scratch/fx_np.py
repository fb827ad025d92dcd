import os
def hc(release, fs=None):
    s=f"""apiVersion: hypershift.openshift.io/v1beta1
kind: HostedCluster
metadata:
  name: prod
  namespace: clusters
spec:
  release:
    image: quay.io/openshift-release-dev/ocp-release:{release}-x86_64
  pullSecret:
    name: pull-secret
  sshKey:
    name: ssh-key
  platform:
    type: AWS
    aws:
      region: us-east-1
"""
    if fs: s+=f"""  configuration:
    featureGate:
      featureSet: {fs}
"""
    return s
def np(release, stream=None, upgrade="Replace", config=False, replicas=3):
    s=f"""apiVersion: hypershift.openshift.io/v1beta1
kind: NodePool
metadata:
  name: workers
  namespace: clusters
spec:
  clusterName: prod
  replicas: {replicas}
  release:
    image: quay.io/openshift-release-dev/ocp-release:{release}-x86_64
  management:
    upgradeType: {upgrade}
"""
    if upgrade=="Replace":
        s+="""    replace:
      strategy: RollingUpdate
      rollingUpdate:
        maxSurge: 1
        maxUnavailable: 0
"""
    else:
        s+="""    inPlace:
      maxUnavailable: 1
"""
    if config: s+="""  config:
  - name: worker-mc
"""
    s+="""  platform:
    type: AWS
    aws:
      instanceType: m6i.xlarge
"""
    if stream: s+=f"""  osImageStream:
    name: {stream}
"""
    return s
RUNC="data:,%5Bcrio.runtime%5D%0Adefault_runtime%20%3D%20%22runc%22%0A"
CRUN="data:,%5Bcrio.runtime%5D%0Adefault_runtime%20%3D%20%22crun%22%0A"
def cm(files):
    s="""apiVersion: v1
kind: ConfigMap
metadata:
  name: worker-mc
  namespace: clusters
data:
  config: |
    apiVersion: machineconfiguration.openshift.io/v1
    kind: MachineConfig
    metadata:
      labels:
        machineconfiguration.openshift.io/role: worker
      name: 99-worker-crio
    spec:
      config:
        ignition:
          version: 3.2.0
        storage:
          files:
"""
    for path,src in files:
        s+=f"""          - contents:
              source: {src}
            mode: 420
            path: {path}
"""
    return s
def write(code, after, before=None, expected="", args="--now 2026-11-21T12:00:00Z"):
    d=f"testdata/rules/{code}"
    for side,files in (("after",after),("before",before)):
        if files is None: continue
        os.makedirs(f"{d}/{side}",exist_ok=True)
        for n,t in files.items(): open(f"{d}/{side}/{n}","w").write(t)
    open(f"{d}/expected.txt","w").write(expected)
    if args: open(f"{d}/args","w").write(args+"\n")
write("S101", {"hostedcluster.yaml":hc("5.0.0"),"nodepool.yaml":np("5.0.0",config=True),
  "configmaps.yaml":cm([("/etc/crio/crio.conf.d/10-crun.conf",CRUN),("/etc/crio/crio.conf.d/99-runc.conf",RUNC)])}, expected="?")
write("S101-ok", {"hostedcluster.yaml":hc("5.0.0"),"nodepool.yaml":np("5.0.0",config=True),
  "configmaps.yaml":cm([("/etc/crio/crio.conf.d/10-runc.conf",RUNC),("/etc/crio/crio.conf.d/99-crun.conf",CRUN)])})
write("S102", {"hostedcluster.yaml":hc("5.0.0"),"nodepool.yaml":np("5.0.0","rhel-10","InPlace")},
  {"hostedcluster.yaml":hc("5.0.0"),"nodepool.yaml":np("5.0.0","rhel-9","InPlace")}, expected="?")
write("S102-ok", {"hostedcluster.yaml":hc("5.0.0"),"nodepool.yaml":np("5.0.0","rhel-10")},
  {"hostedcluster.yaml":hc("5.0.0"),"nodepool.yaml":np("5.0.0","rhel-9")})
write("S103", {"hostedcluster.yaml":hc("4.18.5","TechPreviewNoUpgrade"),"nodepool.yaml":np("4.18.5","rhel-9")},
  {"hostedcluster.yaml":hc("4.18.5","TechPreviewNoUpgrade"),"nodepool.yaml":np("4.18.5")}, expected="?")
write("S103-ok", {"hostedcluster.yaml":hc("4.18.5","TechPreviewNoUpgrade"),"nodepool.yaml":np("4.18.5",replicas=4)},
  {"hostedcluster.yaml":hc("4.18.5","TechPreviewNoUpgrade"),"nodepool.yaml":np("4.18.5")})
write("S104", {"hostedcluster.yaml":hc("5.0.0"),"nodepool.yaml":np("5.0.0",upgrade="InPlace")},
  {"hostedcluster.yaml":hc("5.0.0"),"nodepool.yaml":np("4.22.3",upgrade="InPlace")}, expected="?")
write("S104-ok", {"hostedcluster.yaml":hc("5.0.0"),"nodepool.yaml":np("5.0.0","rhel-9","InPlace")},
  {"hostedcluster.yaml":hc("5.0.0"),"nodepool.yaml":np("4.22.3",upgrade="InPlace")})
write("S105", {"hostedcluster.yaml":hc("4.18.5"),"nodepool.yaml":np("4.18.5","rhel-9")}, expected="?")
write("S105-ok", {"hostedcluster.yaml":hc("4.18.5","TechPreviewNoUpgrade"),"nodepool.yaml":np("4.18.5","rhel-9")})
