//! Release versions as the NodePool controller reads them, and its version rules (`nodepool_controller.go` and `support/supportedversion`).

use semver::Version;

/// Lowest minor HyperShift accepts for a NodePool (HS `supportedversion.MinSupportedVersion`).
pub const MIN_SUPPORTED: (u64, u64) = (4, 14);
/// Highest minor HyperShift accepts (HS `LatestSupportedVersion`); moves with every release.
pub const LATEST_SUPPORTED: (u64, u64) = (5, 1);
/// Releases below this are always rejected.
pub const ABSOLUTE_FLOOR: (u64, u64) = (4, 8);
/// How many minors a NodePool may trail its HostedCluster (code and versioning docs: N-3).
pub const MAX_SKEW_MINORS: u64 = 3;

/// What a release pullspec says about the payload version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Release {
    /// The version read from the image tag.
    Known(Version),
    /// A pullspec whose version cannot be read (digest-only or a non-version tag).
    Unreadable(String),
    /// No `spec.release.image`.
    Missing,
}

impl Release {
    /// Reads the version from a release pullspec (`…:4.18.5-x86_64`, `…:5.0.0-ec.2-multi@sha256:…`).
    pub fn from_pullspec(image: Option<&str>) -> Release {
        let Some(image) = image.map(str::trim).filter(|s| !s.is_empty()) else {
            return Release::Missing;
        };
        let without_digest = image.split('@').next().unwrap_or_default();
        let last = without_digest.rsplit('/').next().unwrap_or_default();
        let Some((_, tag)) = last.split_once(':') else {
            return Release::Unreadable(image.to_string());
        };
        let mut tag = tag;
        for arch in ["-x86_64", "-aarch64", "-ppc64le", "-s390x", "-multi"] {
            if let Some(stripped) = tag.strip_suffix(arch) {
                tag = stripped;
                break;
            }
        }
        match Version::parse(tag) {
            Ok(v) => Release::Known(v),
            Err(_) => Release::Unreadable(image.to_string()),
        }
    }

    /// The version when it is known.
    pub fn version(&self) -> Option<&Version> {
        match self {
            Release::Known(v) => Some(v),
            _ => None,
        }
    }

    /// The normalised hash input: the version, or the pullspec when the version is unreadable.
    pub fn hash_input(&self) -> String {
        match self {
            Release::Known(v) => v.to_string(),
            Release::Unreadable(s) => format!("unreadable:{s}"),
            Release::Missing => String::new(),
        }
    }

    /// Short text for summaries.
    pub fn describe(&self) -> String {
        match self {
            Release::Known(v) => v.to_string(),
            Release::Unreadable(s) if crate::placeholder::is_templated(s) => {
                "(templated value)".into()
            }
            Release::Unreadable(_) => "(version not readable from digest)".into(),
            Release::Missing => "(none)".into(),
        }
    }
}

/// `normalizeToV4`: 5.y compares as 4.(23+y), so every minor comparison works across majors.
pub fn as_v4_minor(v: &Version) -> (u64, u64) {
    if v.major >= 5 {
        (4, 23 + (v.major - 5) * 100 + v.minor)
    } else {
        (v.major, v.minor)
    }
}

/// Whether the TLS security profile is a hash input: release ≥ 4.23.0, pre-release ignored.
pub fn includes_tls_profile(release: &Release) -> bool {
    match release {
        Release::Known(v) => (v.major, v.minor, v.patch) >= (4, 23, 0),
        // Unknown version: include it (predict the rollout rather than miss it).
        _ => true,
    }
}

/// The OS stream the controller uses when `osImageStream` is unset (`GetRHELStream`).
pub fn default_stream(release: &Release, uses_runc: bool) -> &'static str {
    crate::forecast::streams::nodepool_default(release.version(), uses_runc)
}

/// Why the controller refuses a NodePool release, with the fix for that case.
pub fn rejection_with_fix(
    np: &Version,
    base_np: Option<&Version>,
    hc: Option<&Version>,
) -> Option<(String, String)> {
    let minor = as_v4_minor(np);
    if minor < ABSOLUTE_FLOOR {
        return Some((
            format!("release {np} is below 4.8, which HyperShift never accepts"),
            "use a supported release (4.8 or later, within 3 minors of the HostedCluster)".into(),
        ));
    }
    if let Some(b) = base_np {
        if as_v4_minor(b) > minor {
            return Some((
                format!("release {b} -> {np} is a y-stream downgrade, which the controller rejects"),
                format!("restore release {b} (a minor is never downgraded); to run {np}, create a new NodePool with it and move the workload"),
            ));
        }
    }
    if let Some(hc) = hc {
        if minor > as_v4_minor(hc) {
            return Some((
                format!("release {np} has a newer minor than the HostedCluster's {hc}"),
                format!(
                    "upgrade the HostedCluster to {}.{} first, then the NodePool",
                    np.major, np.minor
                ),
            ));
        }
    }
    let latest = as_v4_minor(&Version::new(LATEST_SUPPORTED.0, LATEST_SUPPORTED.1, 0));
    if minor > latest {
        return Some((
            format!(
                "release {np} is above the latest minor this HyperShift supports ({}.{})",
                LATEST_SUPPORTED.0, LATEST_SUPPORTED.1
            ),
            format!(
                "stay at {}.{} or below until the management cluster's HyperShift supports {}.{}",
                LATEST_SUPPORTED.0, LATEST_SUPPORTED.1, np.major, np.minor
            ),
        ));
    }
    if minor < MIN_SUPPORTED {
        return Some((
            format!(
                "release {np} is below the oldest supported minor ({}.{})",
                MIN_SUPPORTED.0, MIN_SUPPORTED.1
            ),
            "upgrade the NodePool to a supported minor, within 3 minors of the HostedCluster"
                .into(),
        ));
    }
    None
}

/// The skew finding of `SupportedVersionSkew` (does not block): (is_warning, message).
pub fn skew(np: &Version, hc: &Version) -> Option<(bool, String)> {
    let (n, h) = (as_v4_minor(np), as_v4_minor(hc));
    if n == h && (np.major, np.minor, np.patch) > (hc.major, hc.minor, hc.patch) {
        return Some((
            true,
            format!("NodePool release {np} is newer than its HostedCluster's {hc}"),
        ));
    }
    if n.0 == h.0 && h.1 > n.1 {
        let behind = h.1 - n.1;
        if behind > MAX_SKEW_MINORS {
            return Some((
                true,
                format!(
                    "NodePool release {np} is {behind} minors behind its HostedCluster's {hc} (at most {MAX_SKEW_MINORS} are supported)"
                ),
            ));
        }
        if behind == MAX_SKEW_MINORS {
            return Some((
                false,
                format!(
                    "NodePool release {np} is {behind} minors behind its HostedCluster's {hc}: the controller accepts it, the API documentation promises only N-2"
                ),
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).expect("test version")
    }

    #[test]
    fn reads_versions_from_pullspecs() {
        let r = |s| Release::from_pullspec(Some(s));
        assert_eq!(
            r("quay.io/openshift-release-dev/ocp-release:4.18.5-x86_64"),
            Release::Known(v("4.18.5"))
        );
        assert_eq!(
            r("registry:5000/ocp/release:5.0.0-ec.2-multi"),
            Release::Known(v("5.0.0-ec.2"))
        );
        assert_eq!(
            r("quay.io/ocp-release:4.18.5-x86_64@sha256:abc"),
            Release::Known(v("4.18.5"))
        );
        assert!(matches!(
            r("quay.io/ocp-release@sha256:abc"),
            Release::Unreadable(_)
        ));
        assert!(matches!(
            r("quay.io/ocp-release:latest"),
            Release::Unreadable(_)
        ));
        assert_eq!(Release::from_pullspec(None), Release::Missing);
    }

    #[test]
    fn five_x_counts_as_four_twenty_three_plus() {
        assert_eq!(as_v4_minor(&v("5.0.0")), (4, 23));
        assert_eq!(as_v4_minor(&v("5.1.3")), (4, 24));
        assert!(includes_tls_profile(&Release::Known(v("5.0.0-ec.1"))));
        assert!(includes_tls_profile(&Release::Known(v("4.23.0-rc.1"))));
        assert!(!includes_tls_profile(&Release::Known(v("4.22.9"))));
    }

    #[test]
    fn version_rules() {
        assert!(rejection_with_fix(&v("4.19.0"), None, Some(&v("4.18.5"))).is_some());
        assert!(rejection_with_fix(&v("4.17.0"), Some(&v("4.18.0")), Some(&v("4.18.5"))).is_some());
        assert!(rejection_with_fix(&v("4.18.1"), Some(&v("4.18.3")), Some(&v("4.18.5"))).is_none());
        assert!(rejection_with_fix(&v("4.13.0"), None, Some(&v("4.14.0"))).is_some());
        assert!(rejection_with_fix(&v("5.2.0"), None, Some(&v("5.2.0"))).is_some());
        // Each refusal says the fix for its own case.
        let fix = |np: &str, base: Option<&str>, hc: &str| {
            rejection_with_fix(&v(np), base.map(v).as_ref(), Some(&v(hc)))
                .map(|(_, fix)| fix)
                .unwrap_or_default()
        };
        assert_eq!(
            fix("4.19.0", None, "4.18.5"),
            "upgrade the HostedCluster to 4.19 first, then the NodePool"
        );
        assert!(fix("4.17.0", Some("4.18.0"), "4.18.5").starts_with("restore release 4.18.0"));
        assert_eq!(skew(&v("4.18.6"), &v("4.18.5")).map(|s| s.0), Some(true));
        assert_eq!(skew(&v("4.17.0"), &v("4.21.0")).map(|s| s.0), Some(true));
        assert_eq!(skew(&v("4.18.0"), &v("4.21.0")).map(|s| s.0), Some(false));
        assert_eq!(skew(&v("4.20.0"), &v("5.0.0")).map(|s| s.0), Some(false));
        assert_eq!(skew(&v("4.19.0"), &v("5.0.0")).map(|s| s.0), Some(true));
        assert_eq!(skew(&v("4.18.5"), &v("4.18.9")), None);
    }
}
