//! CoreOS boot image metadata (the `coreos-bootimages` ConfigMap's `stream` / `streams` JSON):
//! which (stream, architecture, platform, region) has a boot image (the `coreos-bootimages` ConfigMap the MCO reads, stream JSON format).

use serde_json::Value;

/// Boot image metadata: the legacy single stream and the per-stream documents.
#[derive(Clone, Debug, Default)]
pub struct Metadata {
    /// `data.stream`: the default (RHEL 9) stream document.
    pub legacy: Option<Value>,
    /// `data.streams`: stream name → stream document (5.0 payloads).
    pub streams: Option<serde_json::Map<String, Value>>,
}

/// Where a NodePool's machines boot from.
pub struct Target<'a> {
    /// Stream name (`rhel-9`, `rhel-10`).
    pub stream: &'a str,
    /// CoreOS architecture (`x86_64`, `aarch64`, `ppc64le`, `s390x`).
    pub arch: &'a str,
    /// HyperShift platform type (`AWS`, `GCP`, `Azure`, `KubeVirt`, `PowerVS`).
    pub platform: &'a str,
    /// Region, where the platform's images are regional.
    pub region: Option<&'a str>,
}

fn json_of(text: &str) -> Option<Value> {
    serde_json::from_str(text).ok()
}

impl Metadata {
    /// Reads a `coreos-bootimages` ConfigMap (as JSON) or a bare stream-metadata document.
    pub fn from_value(v: &Value) -> Option<Metadata> {
        if let Some(data) = v.get("data") {
            let legacy = data.get("stream").and_then(Value::as_str).and_then(json_of);
            let streams = data
                .get("streams")
                .and_then(Value::as_str)
                .and_then(json_of)
                .and_then(|s| s.as_object().cloned());
            return (legacy.is_some() || streams.is_some()).then_some(Metadata { legacy, streams });
        }
        v.get("architectures").map(|_| Metadata {
            legacy: Some(v.clone()),
            streams: None,
        })
    }

    /// Reads metadata from file text (YAML or JSON).
    pub fn parse(text: &str) -> Option<Metadata> {
        let parsed = nodecast_yaml::parse(text, &nodecast_yaml::Options::default());
        let root = parsed.documents.first()?.root().to_json();
        Metadata::from_value(&root)
    }

    /// The stream document HyperShift uses (`StreamForName`): `streams[name]`, falling back to
    /// `stream` when the payload has no `streams` (pre-5.0).
    fn document(&self, stream: &str) -> Option<&Value> {
        match &self.streams {
            Some(s) => s.get(stream),
            None => self.legacy.as_ref(),
        }
    }

    /// Why there is no boot image for `t`, or None when there is one (or the metadata cannot tell).
    pub fn missing(&self, t: &Target<'_>) -> Option<String> {
        let Some(doc) = self.document(t.stream) else {
            return Some(format!(
                "the release's boot image metadata has no `{}` stream",
                t.stream
            ));
        };
        let Some(arch) = doc.get("architectures").and_then(|a| a.get(t.arch)) else {
            return Some(format!("stream {} has no {} boot images", t.stream, t.arch));
        };
        let images = arch.get("images");
        let found = match t.platform {
            "AWS" => match t.region {
                Some(r) => images
                    .and_then(|i| i.pointer(&format!("/aws/regions/{r}")))
                    .is_some(),
                None => return None,
            },
            "PowerVS" => match t.region {
                Some(r) => images
                    .and_then(|i| i.pointer(&format!("/powervs/regions/{r}")))
                    .is_some(),
                None => return None,
            },
            "GCP" => images.and_then(|i| i.get("gcp")).is_some(),
            "KubeVirt" => images.and_then(|i| i.get("kubevirt")).is_some(),
            "Azure" => arch.pointer("/rhel-coreos-extensions/azure-disk").is_some(),
            _ => return None,
        };
        if found {
            return None;
        }
        Some(match t.region {
            Some(r) if matches!(t.platform, "AWS" | "PowerVS") => format!(
                "stream {} has no {} {} boot image in region {r}",
                t.stream, t.arch, t.platform
            ),
            _ => format!(
                "stream {} has no {} {} boot image",
                t.stream, t.arch, t.platform
            ),
        })
    }
}

/// The CoreOS architecture of a NodePool `spec.arch` (default amd64).
pub fn coreos_arch(arch: Option<&str>) -> &'static str {
    match arch.unwrap_or("amd64") {
        "arm64" => "aarch64",
        "ppc64le" => "ppc64le",
        "s390x" => "s390x",
        _ => "x86_64",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_five_oh_configmap() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/testdata/rules/S107/after/coreos-bootimages.yaml"
        ))
        .expect("fixture");
        let m = Metadata::parse(&text).expect("metadata");
        let t = |stream, arch, platform, region| Target {
            stream,
            arch,
            platform,
            region,
        };
        assert_eq!(
            m.missing(&t("rhel-10", "x86_64", "AWS", Some("us-east-1"))),
            None
        );
        assert!(m
            .missing(&t("rhel-10", "x86_64", "AWS", Some("eu-north-1")))
            .is_some());
        assert!(m
            .missing(&t("rhel-9", "aarch64", "KubeVirt", None))
            .is_some());
        assert_eq!(m.missing(&t("rhel-9", "x86_64", "KubeVirt", None)), None);
        assert!(m
            .missing(&t("rhel-9", "ppc64le", "AWS", Some("us-east-1")))
            .is_some());
        assert_eq!(
            m.missing(&t("rhel-9", "ppc64le", "PowerVS", Some("au-syd"))),
            None
        );
        assert!(m
            .missing(&t("rhel-11", "x86_64", "AWS", Some("us-east-1")))
            .is_some());
        assert_eq!(m.missing(&t("rhel-9", "x86_64", "OpenStack", None)), None);
    }
}
