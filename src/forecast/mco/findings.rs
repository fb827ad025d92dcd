//! Findings the MCO model makes while forecasting (M101–M105, M109), each at the field it is
//! about.

use crate::forecast::mco::codes;
use nodecast_yaml::Node;

use super::causes;
use super::config::{self, Src};
use super::pool::usable;
use super::pool::Pool;
use super::refusals::Refusal;
use super::scope::Scope;
use super::selector;
use super::side::{machine_configuration, SideModel};
use crate::diagnostic::{Diagnostic, Location};
use crate::forecast::{Action, Cause};
use crate::inventory::Object;

/// M101 for a refusal, at the offending field (else the pool, else the first cause's file).
pub fn blocked(
    scope: &Scope<'_>,
    cluster: &str,
    p: &Pool,
    r: &Refusal,
    found: &[Cause],
) -> Option<Diagnostic> {
    let pool_loc = p
        .object
        .as_ref()
        .and_then(|id| scope.head.get(id))
        .map(|o| head_at(o, config::locate(o.root(), "/metadata/name")));
    let first_cause = found.first().map(|c| Location::head_file(&c.file));
    let loc = causes::location(scope, r.src.as_ref())
        .or(pool_loc)
        .or(first_cause)?;
    let (label, help) = if r.invalid {
        (
            "invalid",
            "fix this entry: the MCO validates every MachineConfig before it renders the pool, and while one is invalid the pool stays RenderDegraded and none of its changes roll out",
        )
    } else {
        (
            "refused",
            "revert this change, or apply it by reprovisioning the nodes; the pool stays RenderDegraded until the configuration is fixed",
        )
    };
    Some(
        Diagnostic::new(
            &codes::M101,
            format!(
                "pool `{}` of cluster `{cluster}` will not update: the MCO refuses this configuration: {}",
                p.name, r.message
            ),
            loc,
        )
        .label(label)
        .help(help)
        .object(r.src.as_ref().map(|s| s.object.to_string()).unwrap_or_default()),
    )
}

/// M104 for a storage change the overrides accept.
pub fn overridden(scope: &Scope<'_>, p: &Pool, r: &Refusal) -> Option<Diagnostic> {
    let loc = causes::location(scope, r.src.as_ref())?;
    Some(
        Diagnostic::new(
            &codes::M104,
            format!(
                "pool `{}`: {}, but irreconcilableValidationOverrides accepts it for new nodes only",
                p.name, r.message
            ),
            loc,
        )
        .help("existing nodes keep their current storage layout; reprovision them to apply it"),
    )
}

fn in_words(a: Action) -> &'static str {
    match a {
        Action::Blocked => "refused change",
        Action::Reboot => "reboot",
        Action::Drain => "drain",
        Action::Restart => "service restart",
        Action::Reload => "service reload",
        _ => "change",
    }
}

/// M102 at `spec.paused` of a pool whose configuration changes.
pub fn paused(scope: &Scope<'_>, p: &Pool, action: Action) -> Option<Diagnostic> {
    let span = p.paused?;
    let obj = p.object.as_ref().and_then(|id| scope.head.get(id))?;
    Some(
        Diagnostic::new(
            &codes::M102,
            format!(
                "pool `{}` is paused: its {} accumulates with later changes and applies together on unpause",
                p.name,
                in_words(action)
            ),
            head_at(obj, span),
        )
        .help("set spec.paused: false when the nodes may update")
        .object(obj.id.to_string()),
    )
}

/// M103 at the changed node disruption policy field.
pub fn policy_changed(
    scope: &Scope<'_>,
    cluster: &str,
    head: &SideModel<'_>,
    base: &SideModel<'_>,
) -> Option<Diagnostic> {
    let obj =
        machine_configuration(&head.objects).or_else(|| machine_configuration(&base.objects))?;
    let field = scope
        .changes
        .get(&obj.id)
        .and_then(|c| {
            c.fields
                .iter()
                .find(|f| f.path.starts_with("/spec/nodeDisruptionPolicy"))
        })
        .map(|f| f.path.clone())
        .unwrap_or_else(|| "/spec/nodeDisruptionPolicy".into());
    let loc = causes::location(
        scope,
        Some(&Src {
            object: obj.id.clone(),
            pointer: field,
        }),
    )?;
    Some(
        Diagnostic::new(
            &codes::M103,
            format!(
                "the node disruption policy changes together with MachineConfigs in cluster `{cluster}`: the daemon may still read the old policy, so the stronger action of both is forecast"
            ),
            loc,
        )
        .help("merge the MachineConfiguration change first, then the MachineConfig change, to rely on the new policy"),
    )
}

fn cluster_version<'a>(s: &SideModel<'a>) -> Option<&'a Object> {
    s.objects
        .iter()
        .copied()
        .find(|o| o.id.group == "config.openshift.io" && o.id.kind == "ClusterVersion")
}

/// M105 when `desiredUpdate` changes while master or arbiter is paused.
pub fn upgrade_with_paused(head: &SideModel<'_>, base: &SideModel<'_>) -> Option<Diagnostic> {
    let desired = |o: Option<&Object>| {
        o.and_then(|o| o.root().path(&["spec", "desiredUpdate"]).map(Node::to_json))
    };
    let required: Vec<&str> = head
        .pools
        .iter()
        .filter(|p| (p.name == "master" || p.name == "arbiter") && p.paused.is_some())
        .map(|p| p.name.as_str())
        .collect();
    let obj = cluster_version(head)?;
    if required.is_empty()
        || desired(Some(obj)).is_none()
        || desired(Some(obj)) == desired(cluster_version(base))
    {
        return None;
    }
    Some(
        Diagnostic::new(
            &codes::M105,
            format!(
                "the cluster upgrade will report an error until required pool(s) {} are unpaused",
                required.join(", ")
            ),
            head_at(obj, config::locate(obj.root(), "/spec/desiredUpdate")),
        )
        .help("unpause the master (and arbiter) pool before changing spec.desiredUpdate")
        .object(obj.id.to_string()),
    )
}

/// M109 for changed MachineConfigs that no pool of the cluster selects (on either side): their
/// pool is not in the repository, so their rollout cannot be forecast. Returns their identities
/// (which stay listed as not forecast).
pub fn unselected_configs(
    scope: &Scope<'_>,
    base: &SideModel<'_>,
    head: &SideModel<'_>,
    out: &mut Vec<Diagnostic>,
) -> Vec<crate::inventory::ObjectId> {
    let mut ids = Vec::new();
    for (id, ch) in &scope.changes {
        if id.group != "machineconfiguration.openshift.io" || id.kind != "MachineConfig" {
            continue;
        }
        let selected = |side: &SideModel<'_>, obj: Option<&Object>| {
            obj.is_some_and(|o| {
                let labels = selector::labels_of(o.root());
                side.pools
                    .iter()
                    .filter_map(usable)
                    .any(|s| s.matches(&labels))
            })
        };
        if selected(head, ch.head) || selected(base, ch.base) {
            continue;
        }
        let (loc, obj) = match (ch.head, ch.base) {
            (Some(h), _) => (head_at(h, config::locate(h.root(), "/metadata/labels")), h),
            (None, Some(b)) => {
                let span = config::locate(b.root(), "/metadata/labels");
                (Location::base(b.path_at(span), span), b)
            }
            (None, None) => continue,
        };
        let role = selector::labels_of(obj.root())
            .get("machineconfiguration.openshift.io/role")
            .cloned()
            .unwrap_or_default();
        out.push(
            Diagnostic::new(
                &codes::M109,
                format!(
                    "{id} changed but no MachineConfigPool in this repository selects it (role `{role}`): its rollout cannot be forecast; assume its nodes reboot"
                ),
                loc,
            )
            .help("add the pool's MachineConfigPool manifest next to the cluster's other pools, or fix the role label")
            .object(id.to_string()),
        );
        ids.push(id.clone());
    }
    ids
}

/// A head location in the file that writes the span (a patch or kustomization field of a rendered
/// object, else the object's own file).
fn head_at(obj: &Object, span: nodecast_yaml::Span) -> Location {
    obj.head_location(span)
}
