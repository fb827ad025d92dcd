//! Symbolic links stored in Git (mode `120000`: the blob holds the target path), resolved against
//! the same revision the way a checkout would see them: a link to a file reads that file's blob,
//! a link to a folder reads every file below it under the link's path. A link that leaves the
//! repository, dangles, or loops is never followed and is reported instead.

use git2::Oid;

/// How deep links may chain (a link to a link, a linked folder holding links).
const MAX_DEPTH: u32 = 8;

/// What a path is in a revision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A regular or executable file.
    File,
    /// A symbolic link.
    Link,
    /// A folder.
    Dir,
}

/// A revision's file tree (a commit's tree or the index), as link resolution needs it.
pub trait Tree {
    /// What `path` is, and its object id.
    fn kind(&self, path: &[u8]) -> Option<(Kind, Oid)>;
    /// Every file and link below the folder `dir` (repository-relative paths).
    fn list(&self, dir: &[u8]) -> Vec<(Vec<u8>, Kind, Oid)>;
    /// The target a link blob holds.
    fn target(&self, link: Oid) -> Option<Vec<u8>>;
}

/// The files a link at `link` brings in: `(path, blob)` for each file it reaches (the link's own
/// path for a file, paths below it for a folder), or `(path, why not)` when it cannot be followed.
pub fn resolve(tree: &dyn Tree, link: &[u8], id: Oid) -> Vec<(Vec<u8>, Result<Oid, String>)> {
    resolve_at(tree, link, id, 0)
}

fn resolve_at(
    tree: &dyn Tree,
    link: &[u8],
    id: Oid,
    depth: u32,
) -> Vec<(Vec<u8>, Result<Oid, String>)> {
    let fail = |why: String| vec![(link.to_vec(), Err(why))];
    if depth > MAX_DEPTH {
        return fail("too many levels of symbolic links: not read".into());
    }
    let Some(target) = tree.target(id) else {
        return fail("the symbolic link could not be read".into());
    };
    let shown = super::path_text(&target);
    let Some(rel) = join(parent(link), &target) else {
        return fail(format!(
            "symbolic link to `{shown}` points outside the repository: not read"
        ));
    };
    if rel.is_empty() || link == rel.as_slice() || below(link, &rel) {
        return fail(format!(
            "symbolic link to `{shown}` loops back to a folder that holds it: not read"
        ));
    }
    match tree.kind(&rel) {
        None => fail(format!(
            "symbolic link to `{shown}`: the target does not exist in this revision: not read"
        )),
        Some((Kind::File, oid)) => vec![(link.to_vec(), Ok(oid))],
        Some((Kind::Link, oid)) => rebase(resolve_at(tree, &rel, oid, depth + 1), &rel, link),
        Some((Kind::Dir, _)) => {
            let mut out = Vec::new();
            for (path, kind, oid) in tree.list(&rel) {
                match kind {
                    Kind::File => out.push((path, Ok(oid))),
                    Kind::Link => out.extend(resolve_at(tree, &path, oid, depth + 1)),
                    Kind::Dir => {}
                }
            }
            rebase(out, &rel, link)
        }
    }
}

/// `path` with each symbolic link on the way replaced by what it points to, as the operating
/// system resolves a path in a checkout: a Kustomize root below a linked folder reads its files
/// through the link. `None` when a link on the way leaves the repository or chains too deep; a
/// path that does not exist is returned as far as it was resolved.
pub fn real_path(tree: &dyn Tree, path: &[u8]) -> Option<Vec<u8>> {
    real_path_at(tree, path, 0)
}

fn real_path_at(tree: &dyn Tree, path: &[u8], depth: u32) -> Option<Vec<u8>> {
    // A path the tree holds as it is has no link on its way (a link holds nothing below it):
    // one lookup, not one per part.
    if let Some((Kind::File | Kind::Dir, _)) = tree.kind(path) {
        return Some(path.to_vec());
    }
    let mut out: Vec<u8> = Vec::new();
    for part in path.split(|b| *b == b'/').filter(|p| !p.is_empty()) {
        let mut next = out.clone();
        if !next.is_empty() {
            next.push(b'/');
        }
        next.extend_from_slice(part);
        out = match tree.kind(&next) {
            Some((Kind::Link, id)) if depth < MAX_DEPTH => {
                let target = tree.target(id)?;
                real_path_at(tree, &join(parent(&next), &target)?, depth + 1)?
            }
            Some((Kind::Link, _)) => return None,
            _ => next,
        };
    }
    Some(out)
}

/// Replaces the prefix `from` of each path by `to`.
fn rebase(
    found: Vec<(Vec<u8>, Result<Oid, String>)>,
    from: &[u8],
    to: &[u8],
) -> Vec<(Vec<u8>, Result<Oid, String>)> {
    found
        .into_iter()
        .map(|(p, r)| {
            let rest = p.strip_prefix(from).unwrap_or(&p);
            let mut q = to.to_vec();
            q.extend_from_slice(rest);
            (q, r)
        })
        .collect()
}

fn parent(path: &[u8]) -> &[u8] {
    match path.iter().rposition(|b| *b == b'/') {
        Some(i) => &path[..i],
        None => &[],
    }
}

/// Whether `path` is below the folder `dir`.
fn below(path: &[u8], dir: &[u8]) -> bool {
    path.len() > dir.len() && path.starts_with(dir) && path[dir.len()] == b'/'
}

/// `dir` joined with a relative link target, `..` resolved; `None` when it leaves the root or the
/// target is absolute.
fn join(dir: &[u8], target: &[u8]) -> Option<Vec<u8>> {
    if target.first() == Some(&b'/') {
        return None;
    }
    let mut parts: Vec<&[u8]> = dir
        .split(|b| *b == b'/')
        .filter(|p| !p.is_empty())
        .collect();
    for seg in target.split(|b| *b == b'/') {
        match seg {
            b"" | b"." => {}
            b".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join(&b'/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_are_joined_lexically() {
        assert_eq!(
            join(b"a/b", b"../c.yaml").as_deref(),
            Some(&b"a/c.yaml"[..])
        );
        assert_eq!(
            join(b"a", b"./x/y.yaml").as_deref(),
            Some(&b"a/x/y.yaml"[..])
        );
        assert_eq!(join(b"a", b"../../x"), None);
        assert_eq!(join(b"a", b"/etc/passwd"), None);
        assert!(below(b"a/b/c", b"a/b"));
        assert!(!below(b"a/bc", b"a/b"));
    }

    /// A revision as a list of (path, kind, link target).
    struct Fake(Vec<(&'static str, Kind, &'static str)>);

    impl Tree for Fake {
        fn kind(&self, path: &[u8]) -> Option<(Kind, Oid)> {
            let path = std::str::from_utf8(path).ok()?;
            if let Some(i) = self.0.iter().position(|(p, _, _)| *p == path) {
                return Some((self.0[i].1, Oid::from_bytes(&[i as u8; 20]).ok()?));
            }
            let dir = format!("{path}/");
            self.0
                .iter()
                .any(|(p, _, _)| p.starts_with(&dir))
                .then_some((Kind::Dir, Oid::ZERO_SHA1))
        }

        fn list(&self, _dir: &[u8]) -> Vec<(Vec<u8>, Kind, Oid)> {
            Vec::new()
        }

        fn target(&self, link: Oid) -> Option<Vec<u8>> {
            let i = link.as_bytes()[0] as usize;
            Some(self.0.get(i)?.2.as_bytes().to_vec())
        }
    }

    #[test]
    fn a_path_through_linked_folders_resolves_as_a_checkout_resolves_it() {
        let tree = Fake(vec![
            ("operators/gpu/base/mc.yaml", Kind::File, ""),
            ("gpu", Kind::Link, "operators/gpu"),
            ("shortcuts/g", Kind::Link, "../gpu"),
            ("out", Kind::Link, "../elsewhere"),
            ("loop", Kind::Link, "loop"),
        ]);
        let real = |p: &str| {
            real_path(&tree, p.as_bytes()).map(|r| String::from_utf8(r).unwrap_or_default())
        };
        assert_eq!(
            real("operators/gpu/base").as_deref(),
            Some("operators/gpu/base")
        );
        assert_eq!(real("gpu/base").as_deref(), Some("operators/gpu/base"));
        assert_eq!(real("gpu").as_deref(), Some("operators/gpu"));
        // A link to a link.
        assert_eq!(
            real("shortcuts/g/base").as_deref(),
            Some("operators/gpu/base")
        );
        // A path that does not exist is resolved as far as it goes.
        assert_eq!(
            real("gpu/overlays/prod").as_deref(),
            Some("operators/gpu/overlays/prod")
        );
        // Out of the repository, or a loop: not followed.
        assert_eq!(real("out/x"), None);
        assert_eq!(real("loop/x"), None);
    }
}
