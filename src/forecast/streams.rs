//! OS stream and feature-gate facts shared by the HyperShift and MCO models and the stream rules
//! (HyperShift `GetRHELStream`, the MCO's stream defaults, boot image skew limits, feature gates): one table per fact, so a promotion or a new
//! stream is one edit.

use semver::Version;

/// The stream names a NodePool accepts (`spec.osImageStream.name` enum).
pub const NODEPOOL_STREAMS: [&str; 2] = ["rhel-9", "rhel-10"];

/// A feature gate and the first release whose Default feature set enables it.
pub struct Gate {
    /// Gate name.
    pub name: &'static str,
    /// First (major, minor) where the Default feature set enables it.
    pub default_from: (u64, u64),
    /// The fields it guards, for messages.
    pub fields: &'static str,
}

/// Gates the stream rules depend on. OSStreams: off in HyperShift's Default set at HS, promoted
/// with the 5.0 payloads (openshift/api #2950, hypershift #9328 / #9372, not yet in a release).
pub const GATES: &[Gate] = &[Gate {
    name: "OSStreams",
    default_from: (5, 0),
    fields: "spec.osImageStream",
}];

/// The gate named `name`.
pub fn gate(name: &str) -> Option<&'static Gate> {
    GATES.iter().find(|g| g.name == name)
}

/// Whether a feature set enables `gate` on `release` (unknown release: assume it does not, so a
/// field that may be dropped is reported).
pub fn gate_enabled(
    gate: &Gate,
    feature_set: &str,
    custom_enabled: &[&str],
    release: Option<&Version>,
) -> bool {
    match feature_set {
        "TechPreviewNoUpgrade" | "DevPreviewNoUpgrade" => true,
        "CustomNoUpgrade" => custom_enabled.contains(&gate.name),
        _ => release.is_some_and(|v| (v.major, v.minor) >= gate.default_from),
    }
}

/// The stream the NodePool controller uses when `osImageStream` is unset (`GetRHELStream`):
/// `major >= 5` only (4.23 is not 5.0), and a runc ContainerRuntimeConfig keeps RHEL 9.
pub fn nodepool_default(release: Option<&Version>, uses_runc: bool) -> &'static str {
    match release {
        Some(v) if v.major >= 5 && !uses_runc => "rhel-10",
        _ => "rhel-9",
    }
}

/// The MCO's built-in default stream (`GetBuiltinDefaultStreamName`): OKD ⇒ `centos-10`, else by
/// the install version's major.
pub fn mco_builtin_default(install: Option<&Version>, okd: bool) -> &'static str {
    if okd {
        return "centos-10";
    }
    match install {
        Some(v) if v.major >= 5 => "rhel-10",
        _ => "rhel-9",
    }
}

/// Streams whose OS has no runc (the MCO and HyperShift refuse runc there).
pub fn lacks_runc(stream: &str) -> bool {
    matches!(stream, "rhel-10" | "centos-10")
}

/// The RHEL major version a stream name stands for, when it says.
pub fn rhel_major(stream: &str) -> Option<u64> {
    stream
        .strip_prefix("rhel-")
        .or_else(|| stream.strip_prefix("centos-"))
        .and_then(|n| n.parse().ok())
}

/// The boot image skew limits (MCO `pkg/controller/common/constants.go`): below either, the MCO
/// reports Upgradeable=False.
pub const SKEW_LIMIT_OCP: (u64, u64, u64) = (4, 13, 0);
/// RHEL (major, minor) limit of recorded RHCOS versions.
pub const SKEW_LIMIT_RHEL: (u64, u64) = (9, 2);

/// The RHEL (major, minor) of an RHCOS version: `9.6.20251023-0`, legacy `418.94.2024…-0`
/// (`94` ⇒ 9.4) and `48.84.…` (⇒ 8.4).
pub fn rhel_of_rhcos(version: &str) -> Option<(u64, u64)> {
    let mut parts = version.split('.');
    let major: u64 = parts.next()?.parse().ok()?;
    let minor_text = parts.next()?;
    let minor: u64 = minor_text.parse().ok()?;
    if major < 40 {
        return Some((major, minor));
    }
    // Legacy: the second field is RHEL major and minor run together.
    let rhel_major = minor_text.get(..1)?.parse().ok()?;
    let rhel_minor = minor_text.get(1..)?.parse().ok()?;
    Some((rhel_major, rhel_minor))
}

/// The RHEL minor a payload ships (for the "recorded boot image is from another RHEL minor"
/// hint), only for releases whose RHCOS base is published; None otherwise (no finding).
pub fn rhel_of_ocp(v: &Version) -> Option<(u64, u64)> {
    match (v.major, v.minor) {
        (4, 13) | (4, 14) | (4, 15) => Some((9, 2)),
        (4, 16) | (4, 17) => Some((9, 4)),
        (4, 18) | (4, 19) | (4, 20) => Some((9, 6)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).expect("version")
    }

    #[test]
    fn nodepool_default_follows_get_rhel_stream() {
        assert_eq!(nodepool_default(Some(&v("4.23.0")), false), "rhel-9");
        assert_eq!(nodepool_default(Some(&v("5.0.0-ec.2")), false), "rhel-10");
        assert_eq!(nodepool_default(Some(&v("5.0.0")), true), "rhel-9");
        assert_eq!(nodepool_default(None, false), "rhel-9");
        assert_eq!(mco_builtin_default(Some(&v("5.1.0")), false), "rhel-10");
        assert_eq!(mco_builtin_default(Some(&v("4.20.0")), true), "centos-10");
    }

    #[test]
    fn rhcos_versions_read_as_rhel() {
        assert_eq!(rhel_of_rhcos("9.6.20251023-0"), Some((9, 6)));
        assert_eq!(rhel_of_rhcos("418.94.202410090804-0"), Some((9, 4)));
        assert_eq!(rhel_of_rhcos("48.84.202109241901-0"), Some((8, 4)));
        assert_eq!(rhel_of_rhcos("x"), None);
    }

    #[test]
    fn gates() {
        let g = gate("OSStreams").expect("gate");
        assert!(!gate_enabled(g, "", &[], Some(&v("4.20.0"))));
        assert!(gate_enabled(g, "", &[], Some(&v("5.0.0"))));
        assert!(gate_enabled(g, "TechPreviewNoUpgrade", &[], None));
        assert!(gate_enabled(g, "CustomNoUpgrade", &["OSStreams"], None));
        assert!(!gate_enabled(g, "CustomNoUpgrade", &[], None));
    }
}
