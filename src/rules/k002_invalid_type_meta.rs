//! K002: `apiVersion` or `kind` is present but malformed.

use super::{k001_incomplete_object::is_kind, Context, Reads, Rule};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Location, Severity};

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "K002",
    name: "invalid-type-meta",
    severity: Severity::Error,
    summary:
        "apiVersion is not `version` or `group/version`, or kind is not an UpperCamelCase string",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::File,
};

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // Patches and generator manifests are partial objects: completeness is not theirs to have.
    for d in ctx.head_docs().filter(|d| d.role.is_manifest()) {
        let root = d.doc.doc.root();
        let (Some(api), Some(kind)) = (root.get("apiVersion"), root.get("kind")) else {
            continue;
        };
        match api.as_str() {
            Some(s) if valid_api_version(s) => {}
            Some(s) => out.push(
                Diagnostic::new(
                    &CODE,
                    format!("apiVersion `{s}` is not of the form `group/version` (or `v1` for the core group)"),
                    Location::head(d.path, api.span()),
                )
                .label("no valid version")
                .help(hint(s)),
            ),
            None => out.push(
                Diagnostic::new(
                    &CODE,
                    format!("apiVersion must be a string, not a {}", api.type_name()),
                    Location::head(d.path, api.span()),
                )
                .help("write it as `group/version`, e.g. `machineconfiguration.openshift.io/v1`"),
            ),
        }
        if !is_kind(kind) {
            let shown = kind
                .key_text()
                .map(str::to_string)
                .unwrap_or_else(|| kind.type_name().to_string());
            out.push(
                Diagnostic::new(
                    &CODE,
                    format!("kind `{shown}` is not an UpperCamelCase name"),
                    Location::head(d.path, kind.span()),
                )
                .help("kinds are written like `NodePool`, `MachineConfigPool` (case matters)"),
            );
        }
    }
}

fn valid_api_version(s: &str) -> bool {
    let (group, version) = match s.split_once('/') {
        Some((g, v)) => (Some(g), v),
        None => (None, s),
    };
    let group_ok = group.is_none_or(|g| {
        !g.is_empty()
            && g.contains('.')
            && g.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-')
    }) || group.is_some_and(|g| {
        // Built-in groups without a dot (apps, batch, policy, autoscaling).
        !g.is_empty() && g.bytes().all(|b| b.is_ascii_lowercase())
    });
    // A CRD may serve any DNS-1035 label as a version (`v1alpha`, `v2-preview`); nodecast
    // asks for that, starting with `v` and a digit as every served version in practice does.
    let version_ok = version.len() <= 63
        && version.strip_prefix('v').is_some_and(|rest| {
            rest.starts_with(|c: char| c.is_ascii_digit())
                && rest
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !rest.ends_with('-')
        });
    group_ok && version_ok
}

fn hint(s: &str) -> String {
    if s.contains('.') && !s.contains('/') {
        format!("add the version: `{s}/v1` (or the version the CRD serves, e.g. `hypershift.openshift.io/v1beta1`)")
    } else {
        "write `group/version`, e.g. `machineconfiguration.openshift.io/v1`".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::valid_api_version;

    #[test]
    fn api_versions() {
        for ok in [
            "v1",
            "apps/v1",
            "hypershift.openshift.io/v1beta1",
            "operator.openshift.io/v1alpha1",
            "batch/v1",
            "opendatahub.io/v1alpha",
            "x.io/v1gamma1",
            "example.com/v2-preview",
        ] {
            assert!(valid_api_version(ok), "{ok}");
        }
        for bad in [
            "hypershift.openshift.io",
            "v",
            "V1",
            "apps/1",
            "a/b/v1",
            "x.io/valpha1",
            "x.io/v1Beta1",
            "x.io/v1-",
            "",
        ] {
            assert!(!valid_api_version(bad), "{bad}");
        }
    }
}
