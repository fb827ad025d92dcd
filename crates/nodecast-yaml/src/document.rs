//! Documents own their arena; a few callers change a tree after parsing (Kustomize's output placed
//! back in the files that write it) or build one from other trees' nodes (a Hive patch as a
//! partial object), and do it here, so the arena's invariants stay inside this crate.
use std::fmt;
use std::sync::Arc;

use crate::node::{Node, NodeId, NodeKind};
use crate::tree::{Class, Ref, TextAt, Tree, TreeBuilder, Value, VIA_ALIAS};
use crate::{ScalarStyle, Source, Span};

/// One YAML document of a stream, so multi-document files keep each object's own range.
#[derive(Clone)]
pub struct Document {
    /// 0-based index of the document in its stream (counting empty documents too).
    pub index: usize,
    /// The range the document's content covers.
    pub span: Span,
    tree: Arc<Tree>,
    root: Ref,
}

impl Document {
    /// The document of a finished tree.
    pub(crate) fn new((tree, root): (Tree, Ref), index: usize, span: Span) -> Self {
        Document {
            index,
            span,
            tree: Arc::new(tree),
            root,
        }
    }

    /// The document's root node.
    pub fn root(&self) -> Node<'_> {
        Node {
            tree: &self.tree,
            r: self.root,
        }
    }

    /// A document whose root is `node`, a node of this document (its nodes are shared, not
    /// copied); `None` for a node of another document.
    pub fn subdocument(&self, node: Node<'_>) -> Option<Document> {
        std::ptr::eq(node.tree, &*self.tree).then(|| Document {
            index: 0,
            span: node.span(),
            tree: self.tree.clone(),
            root: node.r,
        })
    }

    /// The text the document's positions point into (for an embedded document, the outer file).
    pub fn source(&self) -> &Arc<Source> {
        &self.tree.source
    }

    /// The document with no node shared by aliases (each alias's nodes copied), so a change to
    /// one node changes one place.
    pub fn unshared(self) -> Document {
        if !self.tree.shares() {
            return self;
        }
        let mut b = Builder::new();
        let root = b.copy(self.root());
        b.finish(root, self.index, self.span)
    }

    fn tree_mut(&mut self) -> &mut Tree {
        Arc::make_mut(&mut self.tree)
    }

    /// Sets the span of one node (a node of [`Document::unshared`]'s result, so it is one place).
    pub fn set_span(&mut self, node: NodeId, span: Span) {
        self.tree_mut().set_span(node.0, span);
    }

    /// Removes entries: each the mapping it is in and its index there (the nodes are copied,
    /// so node ids taken before do not name the same nodes after).
    pub fn remove_entries(&mut self, which: &[(NodeId, usize)]) {
        let mut b = Builder::new();
        let root = b.copy_without(self.root(), which);
        *self = b.finish(root, self.index, self.span);
    }
}

impl PartialEq for Document {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index && self.span == other.span && self.root() == other.root()
    }
}

impl fmt::Debug for Document {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Document")
            .field("root", &self.root())
            .field("index", &self.index)
            .field("span", &self.span)
            .finish()
    }
}

/// Builds a document out of new scalars and other documents' nodes (a partial object put
/// together from a patch), every node keeping the span it is given or had.
pub struct Builder {
    b: TreeBuilder,
}

impl Default for Builder {
    fn default() -> Self {
        Builder::new()
    }
}

impl Builder {
    /// An empty document under construction.
    pub fn new() -> Self {
        Builder {
            b: TreeBuilder::default(),
        }
    }

    /// A plain string scalar at `span`.
    pub fn scalar(&mut self, text: &str, span: Span) -> NodeId {
        NodeId(self.b.scalar(
            (span.start.offset, span.end.offset),
            TextAt::Own(text),
            ScalarStyle::Plain,
            Value::Str,
            None,
            false,
            Some(span),
        ))
    }

    /// A mapping of the given (key, value) entries at `span`.
    pub fn map(&mut self, span: Span, entries: &[(NodeId, NodeId)]) -> NodeId {
        let refs: Vec<Ref> = entries.iter().flat_map(|(k, v)| [k.0, v.0]).collect();
        NodeId(self.b.collection(
            Class::Map,
            (span.start.offset, span.end.offset),
            &refs,
            None,
            false,
            Some(span),
        ))
    }

    /// A copy of `node` and everything below it (spans, tags and alias marks kept).
    pub fn copy(&mut self, node: Node<'_>) -> NodeId {
        self.copy_without(node, &[])
    }

    /// [`Builder::copy`] leaving out the entries `skip` names (a mapping and an entry index).
    fn copy_without(&mut self, node: Node<'_>, skip: &[(NodeId, usize)]) -> NodeId {
        let span = node.span();
        let at = (span.start.offset, span.end.offset);
        let tag = node.tag().map(Box::from);
        let from_alias = node.from_alias();
        let r = match node.kind() {
            NodeKind::Scalar { text, style, value } => self.b.scalar(
                at,
                TextAt::Own(text),
                style,
                Value::of(&value),
                tag,
                from_alias,
                Some(span),
            ),
            NodeKind::Seq(items) => {
                let refs: Vec<Ref> = items.iter().map(|n| self.copy_without(n, skip).0).collect();
                self.b
                    .collection(Class::Seq, at, &refs, tag, from_alias, Some(span))
            }
            NodeKind::Map(entries) => {
                let refs: Vec<Ref> = entries
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| !skip.contains(&(node.id(), *i)))
                    .flat_map(|(_, e)| {
                        [
                            self.copy_without(e.key, skip).0,
                            self.copy_without(e.value, skip).0,
                        ]
                    })
                    .collect();
                self.b
                    .collection(Class::Map, at, &refs, tag, from_alias, Some(span))
            }
        };
        NodeId(r & !VIA_ALIAS)
    }

    /// The document rooted at `root`.
    pub fn finish(self, root: NodeId, index: usize, span: Span) -> Document {
        Document::new(
            self.b.finish(root.0, "".into(), Source::new("".into())),
            index,
            span,
        )
    }
}
