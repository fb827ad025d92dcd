//! K004: two definitions of the same object that reach the same cluster.
//!
//! A GitOps repository holds the same object many times on purpose: once per cluster folder,
//! environment (`int/`, `prod/`), version folder (`4.11-4.15/`), architecture variant, Argo CD
//! application or ACM PolicySet. Only definitions applied together collide: the same file or
//! folder (what `oc apply -f DIR` and an Argo CD directory application read), one standalone
//! cluster (a folder holding its MachineConfigPool or ClusterVersion, or a `cluster-root`), one
//! recursive Argo CD application path, one Kustomize render, one Policy or SyncSet (one policy of
//! a PolicyGenerator) — and within a Policy, an `inform` template, or one naming only the
//! object's status, only checks the object, it never applies it.

use std::collections::BTreeSet;

use nodecast_yaml::Node;

use super::{Context, Reads, Rule};
use crate::classify::{Partial, Role};
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::inventory::clusters::{recursive_applications, under};
use crate::inventory::{wrapped, Inventory, Object};
use crate::kustomize::kustomization::{self, dir_of};

/// The code this rule emits.
pub static CODE: Code = Code {
    code: "K004",
    name: "duplicate-object",
    severity: Severity::Error,
    summary: "Two documents applied together define the same object (group, kind, namespace, name); one is silently lost",
};

/// The rule.
pub static RULE: Rule = Rule {
    code: &CODE,
    check,
    reads: Reads::Run,
};

fn name_span(o: &Object) -> nodecast_yaml::Span {
    o.root()
        .path(&["metadata", "name"])
        .map(|n: Node<'_>| n.span())
        .unwrap_or(o.root().span())
}

fn check(ctx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    if ctx.head.duplicates.is_empty() {
        return;
    }
    let scopes = Scopes {
        clusters: crate::inventory::clusters::roots(ctx.base, ctx.head, ctx.cluster_roots),
        applications: recursive_applications(ctx.head),
        generated: ctx
            .head_files
            .iter()
            .filter(|f| f.role == Role::Partial(Partial::GeneratorManifest))
            .map(|f| &*f.path)
            .collect(),
        policies: crate::classify::generator_policies(ctx.head_files),
    };
    let linked: std::collections::HashSet<&str> = ctx
        .head_files
        .iter()
        .filter(|f| f.via_link)
        .map(|f| &*f.path)
        .collect();
    // A file seen again through a symbolic link: the same document, not a second definition.
    let same_through_link = |a: &Object, b: &Object| {
        a.same_document(b) && (linked.contains(&*a.path) || linked.contains(&*b.path))
    };
    // Every definition of an identity, in order: a later one collides with the first earlier
    // one applied together with it (not only with the very first definition).
    let mut definitions: std::collections::HashMap<usize, Vec<usize>> = Default::default();
    for &(first, later) in &ctx.head.duplicates {
        // A PolicyGenerator is a plugin's input, never applied: two of one name collide nowhere
        // (the Policies they generate are judged as what they are).
        let id = &ctx.head.objects[first].id;
        if crate::inventory::kinds::is_policy_generator(&id.group, &id.kind) {
            continue;
        }
        definitions
            .entry(first)
            .or_insert_with(|| vec![first])
            .push(later);
    }
    let mut pairs: Vec<(usize, usize)> = definitions
        .values()
        .flat_map(|defs| {
            defs.iter().enumerate().skip(1).filter_map(|(n, &later)| {
                let b = &ctx.head.objects[later];
                defs[..n]
                    .iter()
                    .find(|&&earlier| {
                        let a = &ctx.head.objects[earlier];
                        scopes.applied_together(ctx.head, a, b) && !same_through_link(a, b)
                    })
                    .map(|&earlier| (earlier, later))
            })
        })
        .collect();
    pairs.sort_unstable();
    // Point at the definition the change brings, when one of the two was already there as is.
    let unchanged = |o: &Object| {
        ctx.base_files
            .iter()
            .any(|f| *f.path == *o.path && std::sync::Arc::ptr_eq(&f.parsed, o.file()))
    };
    for (first, later) in pairs {
        let (mut a, mut b) = (&ctx.head.objects[first], &ctx.head.objects[later]);
        if unchanged(b) && !unchanged(a) {
            std::mem::swap(&mut a, &mut b);
        }
        // A file seen again through a symbolic link: the same document, not a second definition.
        if a.same_document(b) && (linked.contains(&*a.path) || linked.contains(&*b.path)) {
            continue;
        }
        out.push(
            Diagnostic::new(
                &CODE,
                format!(
                    "{} is defined twice; the cluster keeps only the one applied last",
                    b.id
                ),
                b.head_location(name_span(b)),
            )
            .label("second definition")
            .related(a.head_location(name_span(a)), "first definition")
            .help("delete one definition, or rename one if they are meant to be two objects")
            .object(b.id.to_string()),
        );
    }
}

/// What the repository says about which files are applied together.
struct Scopes<'a> {
    /// Standalone cluster roots (detected, or `cluster-root` globs).
    clusters: BTreeSet<String>,
    /// Source paths of Argo CD Applications that read their folder recursively.
    applications: Vec<String>,
    /// Files a PolicyGenerator reads as manifests.
    generated: std::collections::HashSet<&'a str>,
    /// The manifests of each policy a PolicyGenerator makes.
    policies: Vec<Vec<String>>,
}

impl Scopes<'_> {
    fn applied_together(&self, inv: &Inventory, a: &Object, b: &Object) -> bool {
        // One Policy, SyncSet or Template (the identity's scope is the same): an inform template,
        // or one that names only the object's status, only checks. Two definitions of the wrapper
        // in places never applied together (two components of a catalog) apply neither twice:
        // where they are decides, as below.
        let checks = |o: &Object| wrapped::informs_only(inv, o) || wrapped::checks_status_only(o);
        if a.origin.wrapper.is_some() && (checks(a) || checks(b)) {
            return false;
        }
        // A PolicyGenerator's manifests (and GitOps ZTP's source CRs): each policy it makes is
        // its own Policy, whatever folder its manifests share with another policy's.
        if self.generated.contains(&*a.path) && self.generated.contains(&*b.path) {
            let lists =
                |p: &[String], o: &Object| p.iter().any(|l| kustomization::lists(l, &o.path));
            return a.path == b.path || self.policies.iter().any(|p| lists(p, a) && lists(p, b));
        }
        // One Kustomize render, one file, one folder.
        if a.origin.overlay.is_some() || a.path == b.path || dir_of(&a.path) == dir_of(&b.path) {
            return true;
        }
        let (ca, cb) = (self.cluster_of(&a.path), self.cluster_of(&b.path));
        if ca.is_some() && ca == cb {
            return true;
        }
        self.applications
            .iter()
            .any(|p| under(&a.path, p) && under(&b.path, p))
    }
}

impl Scopes<'_> {
    /// The standalone cluster root holding a file, if any.
    fn cluster_of<'p>(&self, path: &'p str) -> Option<&'p str> {
        let mut dir = dir_of(path);
        loop {
            if self.clusters.contains(dir) {
                return Some(dir);
            }
            if dir.is_empty() {
                return None;
            }
            dir = dir_of(dir);
        }
    }
}
