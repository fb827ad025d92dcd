//! Inventory stage: the objects of one side by identity, with their references resolved.

pub mod clusters;
mod ids;
pub mod kinds;
mod references;
pub mod wrapped;

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::sync::Arc;

use compact_str::CompactString;
use nodecast_yaml::{Node, Span};

pub use references::{Reference, ReferenceKind};

use crate::kustomize::SideRender;
use crate::parse::{type_meta, FileEntry, ParsedDoc, ParsedFile};

/// What makes two definitions the same object for the API server. Its names are held inline up
/// to 24 bytes (most are shorter): every object, index entry and reference holds an identity.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjectId {
    /// API group (`""` for core).
    pub group: CompactString,
    /// Kind.
    pub kind: CompactString,
    /// Namespace; `None` for cluster-scoped kinds, `Some("")` when a namespaced object omits it.
    pub namespace: Option<CompactString>,
    /// `metadata.name`.
    pub name: CompactString,
    /// Which deployment unit the definition belongs to, so two overlays or two Policies may both
    /// define `MachineConfig/99-worker-kargs` for different clusters: `""` for plain files, the
    /// overlay folder for rendered objects, the wrapper for wrapped ones (see [`Origin::group`]).
    pub scope: CompactString,
}

impl fmt::Display for ObjectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The scope is not part of the name users see; reports show it as the object's origin.
        match &self.namespace {
            Some(ns) if !ns.is_empty() => write!(f, "{}/{}/{}", self.kind, ns, self.name),
            _ => write!(f, "{}/{}", self.kind, self.name),
        }
    }
}

/// One object definition of a side.
#[derive(Clone, Debug)]
pub struct Object {
    /// Identity.
    pub id: ObjectId,
    /// Repository-relative path of the defining file.
    pub path: std::sync::Arc<str>,
    /// Index of the document in the file.
    pub doc_index: usize,
    /// How the definition reaches the cluster: as written, rendered by an overlay, or wrapped.
    pub origin: Origin,
    file: Arc<ParsedFile>,
    elsewhere: Arc<Vec<(Span, String)>>,
}

/// How an object definition reaches the cluster; forecast models group pools by [`Origin::group`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Origin {
    /// The Kustomize root (folder) that rendered it, when rendered (shared by the root's objects).
    pub overlay: Option<Arc<str>>,
    /// The Policy / SyncSet that carries it, when wrapped (boxed: most objects are not, and every
    /// object holds an origin).
    pub wrapper: Option<Box<wrapped::Wrapper>>,
}

impl Origin {
    /// The cluster grouping label: the wrapper (`Policy/ns/name`), else the overlay folder, else
    /// `""` (a plain file; the model groups it by folder or `--cluster-root`).
    pub fn group(&self) -> String {
        match (&self.wrapper, &self.overlay) {
            (Some(w), Some(o)) => format!("{} ({o})", w.id),
            (Some(w), None) => w.id.to_string(),
            (None, Some(o)) => o.to_string(),
            (None, None) => String::new(),
        }
    }

    /// "rendered from overlay X" / "wrapped in Policy Y", for messages; empty for plain files.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(w) = &self.wrapper {
            parts.push(format!("{} in {}", w.how.as_str(), w.id));
        }
        if let Some(o) = &self.overlay {
            parts.push(format!("rendered from overlay {o}"));
        }
        parts.join(", ")
    }
}

impl Object {
    /// The parsed document (with what it embeds).
    pub fn parsed(&self) -> &ParsedDoc {
        &self.file.docs[self.doc_index]
    }

    /// `apiVersion` as written (read from the document: every object has one to hold). An
    /// object is made only where `kind` is a string too ([`identity`]), so only `apiVersion` is
    /// looked up: the record hashes it for every object of a fleet.
    pub fn api_version(&self) -> &str {
        self.root()
            .get("apiVersion")
            .and_then(Node::as_str)
            .unwrap_or_default()
    }

    /// The document's root mapping.
    pub fn root(&self) -> Node<'_> {
        self.parsed().doc.root()
    }

    /// Where a span of this object is in the head revision: [`Object::path_at`] and the span, so
    /// a value a patch writes is shown in the patch.
    pub fn head_location(&self, span: Span) -> crate::diagnostic::Location {
        crate::diagnostic::Location::head(self.path_at(span), span)
    }

    /// The file a span of this object is in: `path`, except for values of a rendered object
    /// that a patch or a kustomization field writes.
    pub fn path_at(&self, span: Span) -> &str {
        self.elsewhere
            .iter()
            .find(|(s, _)| *s == span)
            .map(|(_, p)| p.as_str())
            .unwrap_or(&self.path)
    }

    /// The file the object is defined in.
    pub fn file(&self) -> &Arc<ParsedFile> {
        &self.file
    }

    /// True when both definitions are the same parsed document (identical blob, same position).
    pub fn same_document(&self, other: &Object) -> bool {
        Arc::ptr_eq(&self.file, &other.file) && self.doc_index == other.doc_index
    }

    /// Whether `other` is this very definition (the same document of the same parse, reaching
    /// the cluster the same way), so what was computed from one holds for the other. A field
    /// compared here is hashed by [`Object::hash_placement`] too.
    pub fn same_definition(&self, other: &Object) -> bool {
        self.same_document(other)
            && self.id == other.id
            && self.path == other.path
            && self.origin == other.origin
            && self.elsewhere == other.elsewhere
    }

    /// Hashes what [`Object::same_definition`] compares beyond the document: where the definition
    /// is and how it reaches the cluster, so a kept result can stand for it with a hash.
    pub fn hash_placement(&self, h: &mut impl std::hash::Hasher) {
        use std::hash::Hash;
        (&self.id, &self.path, &self.origin, &*self.elsewhere).hash(h);
    }

    /// Hashes what [`Object::same_definition`] compares first (the parse and the document).
    pub fn definition_hash(&self, h: &mut impl std::hash::Hasher) {
        h.write_usize(Arc::as_ptr(&self.file) as usize);
        h.write_usize(self.doc_index);
    }
}

/// The objects of one side, indexed by identity.
#[derive(Debug, Default)]
pub struct Inventory {
    /// Every object definition, in file and document order.
    pub objects: Vec<Arc<Object>>,
    /// Identity → index of its first definition ([`Inventory::first`]).
    by_id: ids::FirstDefinitions,
    /// (first, later) definitions of the same identity.
    pub duplicates: Vec<(usize, usize)>,
    /// (group, kind) pairs present, so a missing reference can tell "missing" from "not managed here".
    pub kinds: BTreeSet<(String, String)>,
    /// References between objects, resolved against this side.
    pub references: Vec<Reference>,
    /// Objects a wrapper deletes (ACM `mustnothave`): in `objects`, not in `by_id`.
    pub deletions: Vec<usize>,
    /// Objects absent from the clusters although defined: in base, those the head's Policies
    /// newly enforce ([`wrapped::newly_enforced`]); in head, those a disabled Policy prunes
    /// ([`wrapped::pruned_by_disabling`]). Read by rules and validation, absent for the diff
    /// and the models (in `objects`, not in `by_id`).
    pub dormant: Vec<usize>,
    /// Objects a Policy only checks on both sides ([`wrapped::checked_only`]), in order: listed
    /// by the diff, absent for the models.
    checked_only: Vec<usize>,
    /// Hash of (group, kind, namespace, name) → every definition so named, in object order, in
    /// any scope, deleted ones included: well-known singletons (`coreos-bootimages`) are looked
    /// up per NodePool ([`Inventory::named`]).
    by_name: ids::ByName,
    /// Hash of (group, kind, namespace, name) → the `by_id` entries so named (one per scope), for
    /// [`Inventory::resolve_index`]'s "the only one of that name" without a scan per reference.
    scopes_of_name: ids::ByName,
    /// Wrapper identity → objects it carries, for [`Inventory::carried_pointers`].
    carried: HashMap<ObjectId, Vec<usize>>,
    /// Files read through a symbolic link inside the repository.
    linked: std::collections::HashSet<String>,
    /// Later definitions that are an earlier one's very document read again through a link:
    /// one definition seen twice, never a second object or a duplicate to compare.
    pub link_copies: std::collections::HashSet<usize>,
    /// What decoding carried objects used of the revision's shared budget (alias nodes, payload
    /// bytes, whether it ran out): a budget decides nothing until it runs out.
    pub carried_budget: (usize, u64, bool),
    /// The objects whose definitions made deployment units ([`clusters::split_units`]), sorted:
    /// every object's scope below a unit depends on them, so a scoped check always reads them.
    pub unit_sources: Vec<usize>,
}

/// Settles what each side holds once both sides are known, since each depends on the other:
/// the objects of sibling deployment units are scoped apart ([`clusters::split_units`], whose
/// units it returns), objects a Policy newly enforces are absent from base
/// ([`wrapped::newly_enforced`]), objects a disabled Policy prunes are absent from head
/// ([`wrapped::pruned_by_disabling`]), and objects a Policy only checks on both sides are
/// marked ([`wrapped::checked_only`]).
pub fn settle(base: &mut Inventory, head: &mut Inventory, globs: &[String]) -> BTreeSet<String> {
    let units = clusters::split_units(base, head, globs);
    let dormant = wrapped::newly_enforced(base, head);
    if !dormant.is_empty() {
        base.set_dormant(dormant);
    }
    let pruned = wrapped::pruned_by_disabling(base, head);
    if !pruned.is_empty() {
        head.set_dormant(pruned);
    }
    (base.checked_only, head.checked_only) = wrapped::checked_only(base, head);
    units
}

/// Makes each head definition that is one of the base's very definitions (the same document of
/// the same parse, at the same path, reaching the cluster the same way: [`Object::same_definition`])
/// that base object, shared. [`Inventory::build_pair`] shares most of them as it builds the head;
/// this shares what it builds anyway (objects that carry others) and what settling left alike.
/// Run once both sides are settled: an object behind an `Arc` is not changed after.
pub fn share_unchanged(base: &Inventory, head: &mut Inventory) {
    let mut twin = Twin::of(base);
    for (j, o) in head.objects.iter_mut().enumerate() {
        if let Some(b) = twin.find(j, (&o.file, o.doc_index), |b| b.same_definition(o)) {
            *o = b.clone();
        }
    }
}

/// What building one side's objects carries from object to object.
struct Building<'b> {
    /// What decoding carried objects may still use.
    budget: crate::parse::Budget,
    /// The base's objects, when the head is built beside them.
    twin: Option<Twin<'b>>,
}

/// The base's objects by document, to find the one a head definition is: both sides list their
/// objects in the same order, so the base object at the head's index (shifted by what the last
/// match found) is nearly always the one. Tried first, it keeps the walk sequential instead of a
/// search of the base per object.
struct Twin<'b> {
    base: &'b [Arc<Object>],
    /// ((parse address, document), base index), sorted.
    by_document: Vec<((usize, usize), usize)>,
    shift: isize,
}

impl<'b> Twin<'b> {
    fn of(base: &'b Inventory) -> Self {
        let mut by_document: Vec<((usize, usize), usize)> = base
            .objects
            .iter()
            .enumerate()
            .map(|(i, o)| ((Arc::as_ptr(&o.file) as usize, o.doc_index), i))
            .collect();
        by_document.sort_unstable();
        Twin {
            base: &base.objects,
            by_document,
            shift: 0,
        }
    }

    /// The base object of document `(file, doc_index)` that `same` accepts, for the head object
    /// at index `j`.
    fn find(
        &mut self,
        j: usize,
        (file, doc_index): (&Arc<ParsedFile>, usize),
        same: impl Fn(&Object) -> bool,
    ) -> Option<&'b Arc<Object>> {
        let base = self.base;
        let guess = j
            .checked_add_signed(self.shift)
            .filter(|&i| base.get(i).is_some_and(|b| same(b)));
        let i = guess.or_else(|| {
            let key = (Arc::as_ptr(file) as usize, doc_index);
            let from = self.by_document.partition_point(|(k, _)| *k < key);
            self.by_document[from..]
                .iter()
                .take_while(|(k, _)| *k == key)
                .map(|&(_, i)| i)
                .find(|&i| same(&base[i]))
        })?;
        self.shift = i as isize - j as isize;
        base.get(i)
    }
}

/// A hash of (group, kind, namespace, name): the name indexes hold object indices under it and
/// compare the identities on lookup (no copy of every name).
fn name_hash(group: &str, kind: &str, namespace: Option<&str>, name: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (group, kind, namespace, name).hash(&mut h);
    h.finish()
}

fn name_key(id: &ObjectId) -> u64 {
    name_hash(&id.group, &id.kind, id.namespace.as_deref(), &id.name)
}

fn same_name(a: &ObjectId, b: &ObjectId) -> bool {
    a.group == b.group && a.kind == b.kind && a.namespace == b.namespace && a.name == b.name
}

impl Inventory {
    /// Builds the inventory of one side from its parsed files.
    pub fn build(files: &[FileEntry]) -> Self {
        Inventory::build_with(files, &SideRender::default())
    }

    /// Builds the inventory from parsed files and rendered overlays: objects of files a render
    /// consumed come from the render instead; wrapped objects (Policies, SyncSets) are added
    /// after their wrappers.
    pub fn build_with(files: &[FileEntry], rendered: &SideRender) -> Self {
        let mut inv = Inventory::objects_of(files, rendered, None);
        inv.index_identities();
        inv
    }

    /// Both sides' inventories, as [`Inventory::build_with`] builds each: a head definition that
    /// is one of the base's, and carries nothing, is that base object, shared, instead of a copy
    /// built and dropped when the two are settled ([`share_unchanged`]). Building every copy and
    /// dropping most of them left the allocator's pages holed (10 MiB of resident memory that
    /// nothing used on the large fleet).
    pub fn build_pair(
        (base_files, base_render): (&[FileEntry], &SideRender),
        (head_files, head_render): (&[FileEntry], &SideRender),
    ) -> (Self, Self) {
        let mut base = Inventory::objects_of(base_files, base_render, None);
        let mut head = Inventory::objects_of(head_files, head_render, Some(&base));
        rayon::join(|| base.index_identities(), || head.index_identities());
        (base, head)
    }

    /// The objects, without the identity indexes.
    fn objects_of(files: &[FileEntry], rendered: &SideRender, base: Option<&Inventory>) -> Self {
        let mut inv = Inventory::default();
        let mut building = Building {
            // Carried objects' payloads are decoded against one budget per revision, in object
            // order.
            budget: crate::parse::Budget::new(
                crate::parse::RUN_ALIAS_BUDGET,
                crate::parse::RUN_PAYLOAD_BUDGET / 2,
                "the budget of objects carried by Policies and SyncSets (64 MiB per revision)",
            ),
            twin: base.map(Twin::of),
        };
        let building = &mut building;
        // What a plain file's objects write elsewhere: nothing, one list for all of them.
        let nowhere: Arc<Vec<(Span, String)>> = Arc::default();
        for file in files {
            if rendered.consumed.contains(&*file.path) || !deployed(file.role) {
                continue;
            }
            for doc_index in 0..file.parsed.docs.len() {
                let origin = Origin::default();
                inv.add(
                    &file.path,
                    &file.parsed,
                    doc_index,
                    origin,
                    &nowhere,
                    building,
                );
            }
        }
        let by_path: HashMap<&str, &FileEntry> = files.iter().map(|f| (&*f.path, f)).collect();
        for (overlay, listed) in &rendered.identity {
            let overlay: Arc<str> = overlay.as_str().into();
            for file in listed.iter().filter_map(|p| by_path.get(&**p)) {
                for doc_index in 0..file.parsed.docs.len() {
                    let origin = Origin {
                        overlay: Some(overlay.clone()),
                        wrapper: None,
                    };
                    inv.add(
                        &file.path,
                        &file.parsed,
                        doc_index,
                        origin,
                        &nowhere,
                        building,
                    );
                }
            }
        }
        // A render's objects come together: one path and one overlay name for all of them.
        let mut names: Option<(Arc<str>, Arc<str>)> = None;
        for r in &rendered.objects {
            let (path, overlay) = match names.take() {
                Some((p, o)) if *p == *r.path && *o == *r.overlay => (p, o),
                _ => (r.path.as_str().into(), r.overlay.as_str().into()),
            };
            let origin = Origin {
                overlay: Some(overlay.clone()),
                wrapper: None,
            };
            inv.add(&path, &r.file, 0, origin, &r.elsewhere, building);
            names = Some((path, overlay));
        }
        inv.linked = files
            .iter()
            .filter(|f| f.via_link)
            .map(|f| f.path.to_string())
            .collect();
        let budget = &building.budget;
        inv.carried_budget = (
            crate::parse::RUN_ALIAS_BUDGET.saturating_sub(budget.alias_left),
            (crate::parse::RUN_PAYLOAD_BUDGET / 2).saturating_sub(budget.payload.left),
            budget.alias_hit || budget.payload.hit,
        );
        // Built by pushing; what later stages read keeps no spare capacity.
        inv.objects.shrink_to_fit();
        inv
    }

    /// Builds everything keyed by identity from `objects` (in object order, deleted ones left
    /// out): the first definition of each, the later ones, the scopes of each name, the
    /// references and the link copies. Run once the objects (and their scopes) are final.
    fn index_identities(&mut self) {
        self.by_id.clear();
        self.duplicates.clear();
        let deleted: std::collections::HashSet<usize> = self
            .deletions
            .iter()
            .chain(&self.dormant)
            .copied()
            .collect();
        for index in 0..self.objects.len() {
            if deleted.contains(&index) {
                continue;
            }
            if let Some(first) = self.by_id.insert(&self.objects, index) {
                self.duplicates.push((first, index));
            }
        }
        let name_of =
            |id: &ObjectId, i: usize| (name_key(id), u32::try_from(i).unwrap_or(u32::MAX));
        self.scopes_of_name = ids::ByName::new(
            self.by_id
                .iter(&self.objects)
                .map(|(id, i)| name_of(id, i))
                .collect(),
        );
        self.by_name = ids::ByName::new(
            self.objects
                .iter()
                .enumerate()
                .map(|(i, o)| name_of(&o.id, i))
                .collect(),
        );
        self.references = references::resolve(self);
        self.references.shrink_to_fit();
        self.link_copies.clear();
        if self.linked.is_empty() {
            return;
        }
        for &(first, later) in &self.duplicates {
            let (a, b) = (&self.objects[first], &self.objects[later]);
            if a.same_document(b)
                && (self.linked.contains(&*a.path) || self.linked.contains(&*b.path))
            {
                self.link_copies.insert(later);
            }
        }
    }

    /// Marks objects as absent from the cluster on this side ([`Inventory::dormant`]).
    fn set_dormant(&mut self, dormant: Vec<usize>) {
        self.dormant = dormant;
        self.index_identities();
    }

    /// Whether a Policy only checks the object on both sides ([`Inventory::checked_only`]).
    pub fn is_checked_only(&self, index: usize) -> bool {
        self.checked_only.binary_search(&index).is_ok()
    }

    /// Whether an object is absent from the cluster on this side although it is defined: a
    /// wrapper deletes it, ACM does not enforce it yet ([`Inventory::dormant`]), or a Policy only
    /// checks it ([`Inventory::checked_only`]). The lists are in object order.
    pub fn is_absent(&self, index: usize) -> bool {
        [&self.deletions, &self.dormant, &self.checked_only]
            .iter()
            .any(|l| l.binary_search(&index).is_ok())
    }

    /// Gives objects a scope after the fact ([`clusters::split_units`]): `scopes[i]` for object
    /// `i`, where it is `Some` and the object is neither a wrapper nor carried by one (their
    /// scopes name the wrapper). The identity indexes and references are built again.
    pub fn rescope(&mut self, scopes: Vec<Option<String>>) {
        for (o, scope) in self.objects.iter_mut().zip(scopes) {
            let Some(scope) = scope else { continue };
            if o.origin.wrapper.is_none() && !self.carried.contains_key(&o.id) {
                Arc::make_mut(o).id.scope = scope.into();
            }
        }
        self.index_identities();
    }

    fn add(
        &mut self,
        path: &Arc<str>,
        file: &Arc<ParsedFile>,
        doc_index: usize,
        origin: Origin,
        elsewhere: &Arc<Vec<(Span, String)>>,
        building: &mut Building<'_>,
    ) {
        // The same document, placed the same way, is the same object: its identity is read from
        // the document and the origin. One that may carry others is built: what it carries
        // depends on the payload budget left, which the objects before it spent.
        let index = self.objects.len();
        if origin.wrapper.is_none() {
            let same = |b: &Object| {
                Arc::ptr_eq(&b.file, file)
                    && b.doc_index == doc_index
                    && b.path == *path
                    && b.origin == origin
                    && (Arc::ptr_eq(&b.elsewhere, elsewhere) || b.elsewhere == *elsewhere)
                    && !wrapped::carries(&b.id)
            };
            if let Some(b) = building
                .twin
                .as_mut()
                .and_then(|t| t.find(index, (file, doc_index), same))
            {
                self.kinds
                    .insert((b.id.group.to_string(), b.id.kind.to_string()));
                self.objects.push(b.clone());
                return;
            }
        }
        let doc = &file.docs[doc_index];
        let Some(mut id) = identity(doc.doc.root()) else {
            return;
        };
        id.scope = origin.group().into();
        self.kinds
            .insert((id.group.to_string(), id.kind.to_string()));
        if let Some(w) = &origin.wrapper {
            self.carried.entry(w.id.clone()).or_default().push(index);
        }
        let deleted = origin
            .wrapper
            .as_ref()
            .is_some_and(|w| w.how == wrapped::How::Deleted);
        if deleted {
            self.deletions.push(index);
        }
        let object = Object {
            id,
            path: path.clone(),
            doc_index,
            origin: origin.clone(),
            file: file.clone(),
            elsewhere: elsewhere.clone(),
        };
        let nested = wrapped::unwrap(&object, &mut building.budget);
        // Objects live to the end of a check, beside each other.
        self.objects
            .push(nodecast_alloc::packed(|| Arc::new(object)));
        for (wrapper, nested_file) in nested {
            let origin = Origin {
                overlay: origin.overlay.clone(),
                wrapper: Some(Box::new(wrapper)),
            };
            for i in 0..nested_file.docs.len() {
                self.add(path, &nested_file, i, origin.clone(), elsewhere, building);
            }
        }
    }

    /// JSON pointers (relative to `obj`) of the objects `obj` carries (Policy templates, SyncSet
    /// resources): the diff reports changes inside them on the carried objects, not twice.
    pub fn carried_pointers(&self, obj: &Object) -> Vec<String> {
        let (outer, prefix) = match &obj.origin.wrapper {
            Some(w) => (&w.id, w.pointer.as_str()),
            None => (&obj.id, ""),
        };
        self.carried
            .get(outer)
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .map(|&i| &self.objects[i])
            .filter(|o| o.origin.overlay == obj.origin.overlay)
            .filter_map(|o| o.origin.wrapper.as_ref())
            .filter(|w| &w.id == outer && w.pointer.len() > prefix.len())
            .filter_map(|w| w.pointer.strip_prefix(prefix).map(str::to_string))
            .filter(|p| p.starts_with('/'))
            .collect()
    }

    /// The object a reference names: in the referrer's scope (`id.scope`) first, else a plain
    /// file's, else the only one of that name in any overlay or wrapper, else the first of a
    /// name each sibling deployment unit defines.
    pub fn resolve_index(&self, id: &ObjectId) -> Option<usize> {
        if let Some(i) = self.first(id) {
            return Some(i);
        }
        let plain = ObjectId {
            scope: Default::default(),
            ..id.clone()
        };
        if let Some(i) = self.first(&plain) {
            return Some(i);
        }
        let same: Vec<usize> = self
            .scopes_of_name
            .get(name_key(id))
            .filter(|&i| same_name(&self.objects[i].id, id))
            .collect();
        // Plain files of sibling deployment units ([`clusters::split_units`]) were one identity
        // before they were told apart: a referrer outside them takes the first, as it did.
        let units_only = same.iter().all(|&i| {
            self.objects[i].origin.wrapper.is_none() && self.objects[i].origin.overlay.is_none()
        });
        match same.as_slice() {
            [only] => Some(*only),
            [_, _, ..] if units_only => same.iter().min().copied(),
            _ => None,
        }
    }

    /// The object a reference names (see [`Inventory::resolve_index`]).
    pub fn resolve(&self, id: &ObjectId) -> Option<&Object> {
        self.resolve_index(id).map(|i| &*self.objects[i])
    }

    /// The references made by the object at `index` (`references` is in object order, so this
    /// is a binary search, not a scan per NodePool).
    pub fn references_from(&self, index: usize) -> &[Reference] {
        let start = self.references.partition_point(|r| r.from < index);
        let len = self.references[start..].partition_point(|r| r.from == index);
        &self.references[start..start + len]
    }

    /// Every definition of a kind present on this side, in any scope and in object order (not
    /// only each identity's first): a cluster-wide kind (FeatureGate, a CRD) may be defined once
    /// per cluster.
    pub fn present_of_kind<'a>(
        &'a self,
        group: &'a str,
        kind: &'a str,
    ) -> impl Iterator<Item = &'a Object> + 'a {
        self.objects
            .iter()
            .enumerate()
            .filter(move |(i, o)| o.id.group == group && o.id.kind == kind && !self.is_absent(*i))
            .map(|(_, o)| &**o)
    }

    /// Every definition named so that is present on this side, in any scope (overlay, wrapper or
    /// unit), in object order: a well-known singleton (`coreos-bootimages`) may be defined once
    /// per cluster, and one a wrapper deletes is not there to read.
    pub fn named<'a>(
        &'a self,
        group: &'a str,
        kind: &'a str,
        namespace: Option<&'a str>,
        name: &'a str,
    ) -> impl Iterator<Item = &'a Object> + 'a {
        self.by_name
            .get(name_hash(group, kind, namespace, name))
            .filter(|&i| !self.is_absent(i))
            .map(|i| &*self.objects[i])
            .filter(move |o| {
                o.id.group == group
                    && o.id.kind == kind
                    && o.id.namespace.as_deref() == namespace
                    && o.id.name == name
            })
    }

    /// The (first) definition of an identity.
    pub fn get(&self, id: &ObjectId) -> Option<&Object> {
        self.first(id).map(|i| &*self.objects[i])
    }

    /// The index of an identity's first definition (deleted and dormant definitions left out).
    pub fn first(&self, id: &ObjectId) -> Option<usize> {
        self.by_id.get(&self.objects, id)
    }

    /// Every identity defined on this side with its first definition, in no particular order.
    pub fn identities(&self) -> impl Iterator<Item = (&ObjectId, usize)> + '_ {
        self.by_id.iter(&self.objects)
    }

    /// Whether any object of this group and kind is managed on this side.
    pub fn manages(&self, group: &str, kind: &str) -> bool {
        self.kinds.contains(&(group.to_string(), kind.to_string()))
    }

    /// Objects of a kind (first definitions only).
    pub fn of_kind<'a>(
        &'a self,
        group: &'a str,
        kind: &'a str,
    ) -> impl Iterator<Item = &'a Object> + 'a {
        self.objects
            .iter()
            .enumerate()
            .filter(move |(i, o)| {
                o.id.group == group && o.id.kind == kind && self.first(&o.id) == Some(*i)
            })
            .map(|(_, o)| &**o)
    }
}

/// Whether a file's objects reach a cluster as written: a patch or a file no kustomization
/// lists never does; a generator's manifest does (the generator wraps it).
fn deployed(role: crate::classify::Role) -> bool {
    use crate::classify::{Partial, Role};
    matches!(
        role,
        Role::Manifest | Role::Partial(Partial::GeneratorManifest)
    )
}

/// The identity of a document, when it is a well-formed object (string apiVersion, kind and name).
pub fn identity(root: Node<'_>) -> Option<ObjectId> {
    let (api_version, kind) = type_meta(root)?;
    let metadata = root.get("metadata")?;
    let name = metadata.get("name")?.as_str()?;
    if name.is_empty() {
        return None;
    }
    let group = kinds::group_of(api_version).to_string();
    let namespace = if kinds::is_cluster_scoped(&group, kind) {
        None
    } else {
        Some(
            metadata
                .get("namespace")
                .and_then(Node::as_str)
                .unwrap_or_default()
                .to_string(),
        )
    };
    Some(ObjectId {
        group: group.into(),
        kind: kind.into(),
        namespace: namespace.map(Into::into),
        name: name.into(),
        scope: Default::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{parse_file, FileEntry};

    #[test]
    fn references_from_finds_exactly_the_references_of_each_object() {
        let yaml = "\
apiVersion: hypershift.openshift.io/v1beta1
kind: NodePool
metadata: {name: a, namespace: clusters}
spec: {clusterName: hc, config: [{name: cm1}, {name: cm2}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm1, namespace: clusters}
---
apiVersion: hypershift.openshift.io/v1beta1
kind: NodePool
metadata: {name: b, namespace: clusters}
spec: {clusterName: hc, tuningConfig: [{name: t}]}
---
apiVersion: hypershift.openshift.io/v1beta1
kind: NodePool
metadata: {name: c, namespace: clusters}
";
        let files = vec![FileEntry::new(
            "np.yaml",
            Arc::new(parse_file(yaml.as_bytes())),
        )];
        let inv = Inventory::build(&files);
        assert_eq!(inv.objects.len(), 4);
        for i in 0..inv.objects.len() + 1 {
            let scanned: Vec<String> = inv
                .references
                .iter()
                .filter(|r| r.from == i)
                .map(|r| r.field.clone())
                .collect();
            let found: Vec<String> = inv
                .references_from(i)
                .iter()
                .map(|r| r.field.clone())
                .collect();
            assert_eq!(found, scanned, "object {i}");
        }
        assert_eq!(inv.references_from(0).len(), 3);
        assert_eq!(inv.references_from(1).len(), 0);
        assert_eq!(inv.references_from(2).len(), 2);
        assert_eq!(inv.references_from(3).len(), 0, "no spec, no references");
    }

    /// A file of one MachineConfig `name` with kernel arguments `args`, then `more`.
    fn machine_config(name: &str, args: &str, more: &str) -> Arc<ParsedFile> {
        Arc::new(parse_file(
            format!(
                "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\n\
                 metadata: {{name: {name}}}\nspec: {{kernelArguments: [{args}]}}\n{more}"
            )
            .as_bytes(),
        ))
    }

    #[test]
    fn share_unchanged_shares_exactly_the_base_definitions_the_head_holds_alike() {
        let mc = |name: &str, args: &str| {
            let config_map = format!(
                "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: {name}, namespace: x}}\n"
            );
            machine_config(name, args, &config_map)
        };
        let (a, b_old, b_new, c) = (mc("a", "x"), mc("b", "x"), mc("b", "y"), mc("c", "x"));
        let base = Inventory::build(&[
            FileEntry::new("a.yaml", a.clone()),
            FileEntry::new("b.yaml", b_old),
            FileEntry::new("c.yaml", c.clone()),
        ]);
        // A file added in front shifts every index; b changed; c's very parse is read at
        // another path.
        let mut head = Inventory::build(&[
            FileEntry::new("0.yaml", mc("z", "x")),
            FileEntry::new("a.yaml", a),
            FileEntry::new("b.yaml", b_new),
            FileEntry::new("d.yaml", c),
        ]);
        let before: Vec<Object> = head.objects.iter().map(|o| (**o).clone()).collect();
        share_unchanged(&base, &mut head);
        let shared: Vec<bool> = head
            .objects
            .iter()
            .map(|o| base.objects.iter().any(|b| Arc::ptr_eq(b, o)))
            .collect();
        assert_eq!(
            shared,
            [false, false, true, true, false, false, false, false],
            "only a.yaml's two objects are the base's"
        );
        for (o, was) in head.objects.iter().zip(&before) {
            assert!(o.same_definition(was), "{} at {} changed", o.id, o.path);
        }
        assert_eq!(
            head.get(&head.objects[2].id).map(|o| o.path.as_ref()),
            Some("a.yaml")
        );
    }

    #[test]
    fn a_pair_built_together_is_the_pair_built_apart_sharing_what_carries_nothing() {
        let mc = |name: &str, args: &str| machine_config(name, args, "");
        let policy = Arc::new(parse_file(
            br#"apiVersion: policy.open-cluster-management.io/v1
kind: Policy
metadata: {name: p, namespace: pol}
spec:
  policy-templates:
  - objectDefinition:
      apiVersion: policy.open-cluster-management.io/v1
      kind: ConfigurationPolicy
      metadata: {name: cp}
      spec:
        object-templates:
        - complianceType: mustnothave
          objectDefinition: {apiVersion: v1, kind: ConfigMap, metadata: {name: i, namespace: x}}
"#,
        ));
        let (a, b_old, b_new) = (mc("a", "x"), mc("b", "x"), mc("b", "y"));
        let base_files = [
            FileEntry::new("a.yaml", a.clone()),
            FileEntry::new("b.yaml", b_old),
            FileEntry::new("p.yaml", policy.clone()),
        ];
        // A file added in front shifts every index; b changed; a and the Policy did not.
        let head_files = [
            FileEntry::new("0.yaml", mc("z", "x")),
            FileEntry::new("a.yaml", a),
            FileEntry::new("b.yaml", b_new),
            FileEntry::new("p.yaml", policy),
        ];
        let none = SideRender::default();
        let (base, head) = Inventory::build_pair((&base_files, &none), (&head_files, &none));
        for (together, apart) in [
            (&base, Inventory::build(&base_files)),
            (&head, Inventory::build(&head_files)),
        ] {
            assert_eq!(together.objects.len(), apart.objects.len());
            for (t, a) in together.objects.iter().zip(&apart.objects) {
                // A carried object's document is parsed again by each build.
                let alike = if t.origin.wrapper.is_some() {
                    (&t.id, &t.path, &t.origin) == (&a.id, &a.path, &a.origin)
                        && t.root().to_json() == a.root().to_json()
                } else {
                    t.same_definition(a)
                };
                assert!(alike, "{} at {} differs", t.id, t.path);
            }
            assert_eq!(together.carried, apart.carried);
            assert_eq!(together.deletions, apart.deletions);
            assert_eq!(together.kinds, apart.kinds);
            assert_eq!(together.duplicates, apart.duplicates);
        }
        let shared: Vec<(&str, bool)> = head
            .objects
            .iter()
            .map(|o| (&*o.id.kind, base.objects.iter().any(|b| Arc::ptr_eq(b, o))))
            .collect();
        assert_eq!(
            shared,
            [
                ("MachineConfig", false),
                ("MachineConfig", true),
                ("MachineConfig", false),
                ("Policy", false),
                ("ConfigurationPolicy", false),
                ("ConfigMap", false),
            ],
            "only a.yaml's object is the base's: a Policy and what it carries are built"
        );
        assert_eq!(head.deletions, [5], "the carried ConfigMap is deleted");
    }

    /// Templates and SyncSets yield what they carry (`wrapped::carries`; Policies are in the test
    /// above). Templates carry although a cluster does not apply them as wrappers
    /// (`wrapped::is_wrapper`): a list of carriers that left them out read none of their objects.
    #[test]
    fn each_carrier_yields_what_it_carries() {
        let file = Arc::new(parse_file(
            br#"apiVersion: template.openshift.io/v1
kind: Template
metadata: {name: t, namespace: ns}
objects:
- {apiVersion: machineconfiguration.openshift.io/v1, kind: MachineConfig, metadata: {name: from-template}}
---
apiVersion: hive.openshift.io/v1
kind: SelectorSyncSet
metadata: {name: s}
spec:
  resources:
  - {apiVersion: machineconfiguration.openshift.io/v1, kind: MachineConfig, metadata: {name: from-syncset}}
"#,
        ));
        let inv = Inventory::build(&[FileEntry::new("c.yaml", file)]);
        let found: Vec<(String, Option<String>, bool)> = inv
            .objects
            .iter()
            .map(|o| {
                let wrapper = o.origin.wrapper.as_ref();
                (
                    o.id.to_string(),
                    wrapper.map(|w| format!("{} {}", w.id, w.pointer)),
                    wrapped::carries(&o.id),
                )
            })
            .collect();
        let row =
            |id: &str, w: Option<&str>, carries| (id.to_string(), w.map(String::from), carries);
        assert_eq!(
            found,
            [
                row("Template/ns/t", None, true),
                row(
                    "MachineConfig/from-template",
                    Some("Template/ns/t /objects/0"),
                    false
                ),
                row("SelectorSyncSet/s", None, true),
                row(
                    "MachineConfig/from-syncset",
                    Some("SelectorSyncSet/s /spec/resources/0"),
                    false
                ),
            ]
        );
    }
}
