//! The Git index read straight from its file, for what a staged check asks of it: which paths
//! differ from the base commit, the tree `git write-tree` would write, and a staged path's blob.
//!
//! libgit2 reads the whole index into its own tables and checks its hash with SHA-1DC (about
//! 25 ms of a warm pre-commit check's 110 on the large fleet), and its diff inflates every
//! folder of the base tree. Git itself answers from the index's cache tree (the `TREE`
//! extension: the tree id of each folder no staged change touched since it was last written), so
//! a staged change costs what it touches. This reads the format of
//! `Documentation/gitformat-index.txt` (versions 2 to 4, the cache tree) and declines anything
//! else — a split or sparse index, a conflict, an entry only intended to be added, an extension
//! it must understand and does not, a wrong hash, any length that does not fit — so the caller
//! asks libgit2 instead.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use git2::{Oid, Repository};
use sha1::{Digest, Sha1};

use super::{path_text, Changed};

/// Folders deeper than this are left to libgit2 (the walks here recurse).
const MAX_DEPTH: usize = 256;

/// The index file Git uses for `repo`: `GIT_INDEX_FILE` when set (Git sets it for the hooks of
/// `git commit -a` and `git commit PATHS`, whose staged content is a temporary index), else
/// the repository's own.
pub fn path_of(repo: &Repository) -> PathBuf {
    named_by_git().unwrap_or_else(|| repo.path().join("index"))
}

/// The index as libgit2 reads it, from the file Git uses ([`path_of`]).
pub fn open(repo: &Repository) -> Result<git2::Index, git2::Error> {
    match named_by_git() {
        Some(path) => git2::Index::open(&path),
        None => repo.index(),
    }
}

/// The index file `GIT_INDEX_FILE` names (relative to the working folder, as Git reads it).
fn named_by_git() -> Option<PathBuf> {
    let p = PathBuf::from(std::env::var_os("GIT_INDEX_FILE").filter(|v| !v.is_empty())?);
    if p.is_absolute() {
        return Some(p);
    }
    Some(std::env::current_dir().map(|d| d.join(&p)).unwrap_or(p))
}

/// One stage-0 entry.
struct Entry {
    /// Where its path is in [`Staged::paths`].
    path: (u32, u32),
    mode: u32,
    id: Oid,
}

/// A folder of the cache tree: its tree id while no staged change touched it.
#[derive(Default)]
struct CacheNode {
    /// How many entries it covers, and its tree id; `None` when invalidated.
    valid: Option<(usize, Oid)>,
    children: BTreeMap<Vec<u8>, CacheNode>,
}

/// The stage-0 entries of an index, sorted as Git sorts them, and its cache tree.
pub struct Staged {
    entries: Vec<Entry>,
    paths: Vec<u8>,
    cache: Option<CacheNode>,
}

/// A name in one folder: a staged file or a folder of staged entries.
enum Child<'a> {
    File {
        name: &'a [u8],
        mode: u32,
        id: Oid,
    },
    Dir {
        name: &'a [u8],
        lo: usize,
        hi: usize,
    },
}

impl Child<'_> {
    fn name(&self) -> &[u8] {
        match self {
            Child::File { name, .. } | Child::Dir { name, .. } => name,
        }
    }
}

/// A name in a base tree.
struct BaseItem {
    mode: u32,
    id: Oid,
    tree: bool,
}

/// Reads a big-endian u32 at `at`.
fn be32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

/// Git's offset varint (`decode_varint` of `varint.c`), used by version 4 paths.
fn varint(bytes: &[u8], at: &mut usize) -> Option<usize> {
    let mut c = *bytes.get(*at)?;
    *at += 1;
    let mut val = usize::from(c & 127);
    while c & 128 != 0 {
        val = val.checked_add(1)?;
        if val >> (usize::BITS - 7) != 0 {
            return None;
        }
        c = *bytes.get(*at)?;
        *at += 1;
        val = (val << 7) | usize::from(c & 127);
    }
    Some(val)
}

impl Staged {
    /// Reads the index file at `path`; `None` when it is missing or anything in it is left to
    /// libgit2 (see the module's documentation).
    pub fn read(path: &Path) -> Option<Staged> {
        let bytes = std::fs::read(path).ok()?;
        Self::parse(&bytes)
    }

    pub(super) fn parse(bytes: &[u8]) -> Option<Staged> {
        const HASH: usize = 20;
        if bytes.len() < 12 + HASH || &bytes[..4] != b"DIRC" {
            return None;
        }
        let body = &bytes[..bytes.len() - HASH];
        let trailer = &bytes[bytes.len() - HASH..];
        // An all-zero trailer is an index written with `index.skipHash`; Git does not check it.
        if trailer.iter().any(|&b| b != 0) && Sha1::digest(body).as_slice() != trailer {
            return None;
        }
        let version = be32(bytes, 4)?;
        if !(2..=4).contains(&version) {
            return None;
        }
        let count = be32(bytes, 8)? as usize;
        let mut entries = Vec::with_capacity(count.min(body.len() / 62));
        let mut paths: Vec<u8> = Vec::with_capacity(body.len() / 2);
        let mut previous: (usize, usize) = (0, 0);
        let mut at: usize = 12;
        for _ in 0..count {
            let start = at;
            let fixed = body.get(start..start.checked_add(62)?)?;
            let mode = be32(fixed, 24)?;
            let id = Oid::from_bytes(&fixed[40..60]).ok()?;
            let flags = u16::from_be_bytes([fixed[60], fixed[61]]);
            at = start + 62;
            if flags & 0x4000 != 0 {
                if version < 3 {
                    return None;
                }
                let extended = u16::from_be_bytes(body.get(at..at + 2)?.try_into().ok()?);
                // Intent to add (bit 13): libgit2 decides what such an entry means.
                if extended & (1 << 13) != 0 {
                    return None;
                }
                at += 2;
            }
            // A conflict (stage 1 to 3) or a sparse index's folder entry.
            if (flags >> 12) & 0x3 != 0 || mode & 0o170000 == 0o040000 {
                return None;
            }
            let path_start = paths.len();
            if version == 4 {
                let strip = varint(body, &mut at)?;
                let keep = previous.1.checked_sub(strip)?;
                paths.extend_from_within(previous.0..previous.0 + keep);
                let len = body.get(at..)?.iter().position(|&b| b == 0)?;
                paths.extend_from_slice(&body[at..at + len]);
                at += len + 1;
            } else {
                let len = body.get(at..)?.iter().position(|&b| b == 0)?;
                paths.extend_from_slice(&body[at..at + len]);
                // Padded with 1 to 8 NULs to a multiple of 8 from the entry's start.
                let used = at + len - start;
                at = start + (used + 8) / 8 * 8;
                if at > body.len() {
                    return None;
                }
            }
            let len = paths.len() - path_start;
            if len == 0 {
                return None;
            }
            // Git keeps entries sorted and unique; anything else is not an index Git wrote.
            if !entries.is_empty()
                && paths[previous.0..previous.0 + previous.1] >= paths[path_start..]
            {
                return None;
            }
            previous = (path_start, len);
            entries.push(Entry {
                path: (u32::try_from(path_start).ok()?, u32::try_from(len).ok()?),
                mode,
                id,
            });
        }
        let mut cache = None;
        while at < body.len() {
            let signature = body.get(at..at + 4)?;
            let size = be32(body, at + 4)? as usize;
            let data = body.get(at + 8..(at + 8).checked_add(size)?)?;
            match signature {
                b"TREE" => {
                    let mut pos = 0;
                    let root = cache_node(data, &mut pos, 0)?;
                    if pos != data.len() {
                        return None;
                    }
                    cache = Some(root.1);
                }
                // An extension whose name starts with a capital letter is optional; any other
                // (`link`: a split index, `sdir`: a sparse one) changes what the entries mean.
                [b'A'..=b'Z', ..] => {}
                _ => return None,
            }
            at += 8 + size;
        }
        Some(Staged {
            entries,
            paths,
            cache,
        })
    }

    fn path(&self, i: usize) -> &[u8] {
        self.path_of_entry(&self.entries[i])
    }

    /// The staged blob at `path`: `Some(None)` when nothing is staged there, `None` when it is
    /// not a plain file (a link, a submodule).
    pub fn blob(&self, path: &str) -> Option<Option<Oid>> {
        match self
            .entries
            .binary_search_by(|e| self.path_of_entry(e).cmp(path.as_bytes()))
        {
            Ok(i) if self.entries[i].mode & 0o170000 == 0o100000 => Some(Some(self.entries[i].id)),
            Ok(_) => None,
            Err(_) => Some(None),
        }
    }

    fn path_of_entry(&self, e: &Entry) -> &[u8] {
        let (start, len) = e.path;
        &self.paths[start as usize..(start + len) as usize]
    }

    /// The tree `git write-tree` would write; `None` when a folder is deeper than this walks.
    pub fn tree(&self) -> Option<Oid> {
        self.dir_id(0, self.entries.len(), 0, self.cache.as_ref(), 0)
    }

    /// The names of one folder: entries `lo..hi`, all below the folder whose path (with its
    /// slash) is `prefix` bytes long.
    fn children(&self, lo: usize, hi: usize, prefix: usize) -> Vec<Child<'_>> {
        let mut out = Vec::new();
        let mut i = lo;
        while i < hi {
            let rest = &self.path(i)[prefix..];
            match rest.iter().position(|&b| b == b'/') {
                None => {
                    let e = &self.entries[i];
                    out.push(Child::File {
                        name: rest,
                        mode: e.mode,
                        id: e.id,
                    });
                    i += 1;
                }
                Some(slash) => {
                    let name = &rest[..slash];
                    let mut end = i + 1;
                    while end < hi
                        && self.path(end)[prefix..]
                            .strip_prefix(name)
                            .is_some_and(|r| r.first() == Some(&b'/'))
                    {
                        end += 1;
                    }
                    out.push(Child::Dir {
                        name,
                        lo: i,
                        hi: end,
                    });
                    i = end;
                }
            }
        }
        out
    }

    /// The tree id of the folder of entries `lo..hi`: the cache tree's while it is valid and
    /// covers exactly those entries, else computed from them.
    fn dir_id(
        &self,
        lo: usize,
        hi: usize,
        prefix: usize,
        cache: Option<&CacheNode>,
        depth: usize,
    ) -> Option<Oid> {
        if depth > MAX_DEPTH {
            return None;
        }
        if let Some((count, id)) = cache.and_then(|c| c.valid) {
            if count == hi - lo {
                return Some(id);
            }
        }
        let mut items: Vec<(&[u8], u32, Oid)> = Vec::new();
        for child in self.children(lo, hi, prefix) {
            match child {
                Child::File { name, mode, id } => items.push((name, mode, id)),
                Child::Dir { name, lo, hi } => {
                    let sub = cache.and_then(|c| c.children.get(name));
                    let id = self.dir_id(lo, hi, prefix + name.len() + 1, sub, depth + 1)?;
                    items.push((name, 0o040000, id));
                }
            }
        }
        Some(tree_id(&mut items))
    }

    /// The paths whose content or mode differs between the tree `base` and the index, as
    /// libgit2's `diff_tree_to_index` lists them; `None` when a changed path is not a plain file
    /// on either side, or a folder is deeper than this walks.
    pub fn changed(&self, repo: &Repository, base: Oid) -> Option<Vec<Changed>> {
        let mut out = Vec::new();
        let mut prefix = Vec::new();
        self.diff_dir(
            repo,
            Some(base),
            (0, self.entries.len()),
            &mut prefix,
            self.cache.as_ref(),
            &mut out,
        )?;
        out.sort();
        Some(out)
    }

    fn diff_dir(
        &self,
        repo: &Repository,
        base: Option<Oid>,
        (lo, hi): (usize, usize),
        prefix: &mut Vec<u8>,
        cache: Option<&CacheNode>,
        out: &mut Vec<Changed>,
    ) -> Option<()> {
        let depth = prefix.iter().filter(|&&b| b == b'/').count();
        if depth > MAX_DEPTH {
            return None;
        }
        if let Some(base) = base {
            if self.dir_id(lo, hi, prefix.len(), cache, depth)? == base {
                return Some(());
            }
        }
        let mut merged: BTreeMap<Vec<u8>, (Option<BaseItem>, Option<Child<'_>>)> = BTreeMap::new();
        if let Some(id) = base {
            let tree = repo.find_tree(id).ok()?;
            for e in tree.iter() {
                let item = BaseItem {
                    mode: e.filemode() as u32,
                    id: e.id(),
                    tree: e.kind() == Some(git2::ObjectType::Tree),
                };
                merged.entry(e.name_bytes().to_vec()).or_default().0 = Some(item);
            }
        }
        for child in self.children(lo, hi, prefix.len()) {
            let name = child.name().to_vec();
            merged.entry(name).or_default().1 = Some(child);
        }
        for (name, (b, h)) in merged {
            let at = prefix.len();
            prefix.extend_from_slice(&name);
            let result = self.diff_name(repo, prefix, b, h, cache, out);
            prefix.truncate(at);
            result?;
        }
        Some(())
    }

    /// One name of a folder, present in the base, the index or both.
    fn diff_name(
        &self,
        repo: &Repository,
        path: &mut Vec<u8>,
        base: Option<BaseItem>,
        head: Option<Child<'_>>,
        cache: Option<&CacheNode>,
        out: &mut Vec<Changed>,
    ) -> Option<()> {
        let base_tree = base.as_ref().filter(|b| b.tree).map(|b| b.id);
        let base_file = base.as_ref().filter(|b| !b.tree).map(|b| (b.mode, b.id));
        let (head_dir, head_file) = match head {
            Some(Child::Dir { name, lo, hi }) => (Some((name, lo, hi)), None),
            Some(Child::File { mode, id, .. }) => (None, Some((mode, id))),
            None => (None, None),
        };
        if base_tree.is_some() || head_dir.is_some() {
            let at = path.len();
            path.push(b'/');
            let result = match head_dir {
                Some((name, lo, hi)) => {
                    let sub = cache.and_then(|c| c.children.get(name));
                    self.diff_dir(repo, base_tree, (lo, hi), path, sub, out)
                }
                None => base_tree.map_or(Some(()), |t| deleted_tree(repo, t, path, out)),
            };
            path.truncate(at);
            result?;
        }
        let plain = |mode: u32| mode == 0o100644 || mode == 0o100755;
        let file = |in_base: bool, in_head: bool| Changed {
            path: path_text(path),
            in_base,
            in_head,
        };
        match (base_file, head_file) {
            (Some(b), Some(h)) if b == h => {}
            (Some(b), Some(h)) => {
                if !plain(b.0) || !plain(h.0) {
                    return None;
                }
                out.push(file(true, true));
            }
            (Some(b), None) => {
                if !plain(b.0) {
                    return None;
                }
                out.push(file(true, false));
            }
            (None, Some(h)) => {
                if !plain(h.0) {
                    return None;
                }
                out.push(file(false, true));
            }
            (None, None) => {}
        }
        Some(())
    }
}

/// Every file of a base folder the index no longer holds, as deleted.
fn deleted_tree(
    repo: &Repository,
    id: Oid,
    path: &mut Vec<u8>,
    out: &mut Vec<Changed>,
) -> Option<()> {
    if path.iter().filter(|&&b| b == b'/').count() > MAX_DEPTH {
        return None;
    }
    let tree = repo.find_tree(id).ok()?;
    for e in tree.iter() {
        let at = path.len();
        path.extend_from_slice(e.name_bytes());
        let result = if e.kind() == Some(git2::ObjectType::Tree) {
            path.push(b'/');
            deleted_tree(repo, e.id(), path, out)
        } else {
            let mode = e.filemode() as u32;
            if mode == 0o100644 || mode == 0o100755 {
                out.push(Changed {
                    path: path_text(path),
                    in_base: true,
                    in_head: false,
                });
                Some(())
            } else {
                None
            }
        };
        path.truncate(at);
        result?;
    }
    Some(())
}

/// The id of a tree of `items` (name, mode, id), as Git hashes it: folders ordered as if their
/// names ended with `/`.
pub(super) fn tree_id(items: &mut [(&[u8], u32, Oid)]) -> Oid {
    let key = |(name, mode, _): &(&[u8], u32, Oid)| -> Vec<u8> {
        let mut n = name.to_vec();
        if *mode == 0o040000 {
            n.push(b'/');
        }
        n
    };
    items.sort_by_cached_key(key);
    let mut body = Vec::new();
    for (name, mode, id) in items.iter() {
        body.extend_from_slice(format!("{mode:o} ").as_bytes());
        body.extend_from_slice(name);
        body.push(0);
        body.extend_from_slice(id.as_bytes());
    }
    let mut hasher = Sha1::new();
    hasher.update(format!("tree {}\0", body.len()).as_bytes());
    hasher.update(&body);
    // A SHA-1 digest is always 20 bytes, an id's length.
    Oid::from_bytes(hasher.finalize().as_slice()).unwrap_or(Oid::ZERO_SHA1)
}

/// Reads one cache-tree node (`name NUL count SP subtrees LF [id]`, then its subtrees).
fn cache_node(data: &[u8], pos: &mut usize, depth: usize) -> Option<(Vec<u8>, CacheNode)> {
    if depth > MAX_DEPTH {
        return None;
    }
    let rest = data.get(*pos..)?;
    let nul = rest.iter().position(|&b| b == 0)?;
    let name = rest[..nul].to_vec();
    let rest = &rest[nul + 1..];
    let sp = rest.iter().position(|&b| b == b' ')?;
    let count: i64 = std::str::from_utf8(&rest[..sp]).ok()?.parse().ok()?;
    let rest2 = &rest[sp + 1..];
    let lf = rest2.iter().position(|&b| b == b'\n')?;
    let subtrees: usize = std::str::from_utf8(&rest2[..lf]).ok()?.parse().ok()?;
    *pos += nul + 1 + sp + 1 + lf + 1;
    let valid = if count >= 0 {
        let id = Oid::from_bytes(data.get(*pos..*pos + 20)?).ok()?;
        *pos += 20;
        Some((usize::try_from(count).ok()?, id))
    } else {
        None
    };
    let mut node = CacheNode {
        valid,
        children: BTreeMap::new(),
    };
    for _ in 0..subtrees {
        let (name, child) = cache_node(data, pos, depth + 1)?;
        node.children.insert(name, child);
    }
    Some((name, node))
}
