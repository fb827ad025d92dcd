//! Ignition file contents of MachineConfigs, decoded at parse time so every payload is checked
//! (and charged to its budget) once; the bytes are not kept — a fleet's payloads are tens of
//! megabytes few readers look at — and are decoded again for the one that reads them. What the
//! document says about a file (its path, where its source is written) is read from the document
//! when asked for: a fleet has tens of thousands of them.

use nodecast_yaml::{Node, Span};

use super::data_url;
use super::type_meta;

/// Whether a file's content comes from `contents` or one of its `append` entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IgnitionSource {
    /// `contents.source`.
    Contents,
    /// `append[i].source`.
    Append(usize),
}

/// One decoded (or undecodable) Ignition file source.
#[derive(Clone, Debug)]
pub struct IgnitionFile {
    /// Index in `spec.config.storage.files`.
    pub index: usize,
    /// Which source of the file.
    pub source: IgnitionSource,
    /// Not a data URL: fetched at boot, not decoded.
    pub remote: bool,
    /// How many bytes the data URL decodes to (0 for a remote source), or why it could not be
    /// decoded (boxed: nearly every source decodes); [`bytes`] decodes it again.
    pub decoded: Result<u64, Box<data_url::DecodeError>>,
}

/// Decodes every file source of a MachineConfig document within `budget`; other kinds yield
/// nothing.
pub fn decode(root: Node<'_>, budget: &mut data_url::Budget) -> Vec<IgnitionFile> {
    let is_mc = matches!(type_meta(root), Some((api, "MachineConfig")) if api.starts_with("machineconfiguration.openshift.io/"));
    if !is_mc {
        return Vec::new();
    }
    let Some(files) = root
        .path(&["spec", "config", "storage", "files"])
        .and_then(Node::as_seq)
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (index, file) in files.iter().enumerate() {
        if let Some(contents) = file.get("contents") {
            if let Some(f) = one(index, IgnitionSource::Contents, contents, budget) {
                out.push(f);
            }
        }
        for (i, append) in file
            .get("append")
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            if let Some(f) = one(index, IgnitionSource::Append(i), append, budget) {
                out.push(f);
            }
        }
    }
    // Kept for the run: no spare capacity (a fleet holds tens of thousands of these).
    out.shrink_to_fit();
    out
}

/// The `storage.files` entry of a file source of the MachineConfig document `root`, and the
/// resource (`contents` or an `append` item) holding its source.
fn resource<'a>(root: Node<'a>, file: &IgnitionFile) -> Option<(Node<'a>, Node<'a>)> {
    let entry = root
        .path(&["spec", "config", "storage", "files"])?
        .as_seq()?
        .get(file.index)?;
    let resource = match file.source {
        IgnitionSource::Contents => entry.get("contents")?,
        IgnitionSource::Append(i) => entry.get("append")?.as_seq()?.get(i)?,
    };
    Some((entry, resource))
}

/// The file's `path` in the MachineConfig document `root`, when given.
pub fn path<'a>(root: Node<'a>, file: &IgnitionFile) -> Option<&'a str> {
    resource(root, file)?.0.get("path")?.as_str()
}

/// Where the file's `source` value is written in the MachineConfig document `root`.
pub fn source_span(root: Node<'_>, file: &IgnitionFile) -> Span {
    resource(root, file)
        .and_then(|(_, r)| r.get("source"))
        .map(Node::span)
        .unwrap_or_default()
}

/// The decoded bytes of a file source of the MachineConfig document `root` (as [`decode`] found
/// it, so its data URL decodes), `None` when it could not be decoded.
pub fn bytes(root: Node<'_>, file: &IgnitionFile) -> Option<Vec<u8>> {
    file.decoded.as_ref().ok()?;
    if file.remote {
        return Some(Vec::new());
    }
    let (_, resource) = resource(root, file)?;
    let url = resource.get("source")?.as_str()?;
    let compression = resource.get("compression").and_then(Node::as_str);
    // It decoded within a budget no larger than this cap: the same bytes.
    data_url::decode(url, compression).ok()
}

fn one(
    index: usize,
    source: IgnitionSource,
    resource: Node<'_>,
    budget: &mut data_url::Budget,
) -> Option<IgnitionFile> {
    let node = resource.get("source")?;
    let url = node.as_str()?;
    let compression = resource.get("compression").and_then(Node::as_str);
    let remote = !data_url::is_data_url(url);
    let decoded = if remote {
        Ok(0)
    } else {
        data_url::decode_within(url, compression, budget)
            .map(|bytes| bytes.len() as u64)
            .map_err(Box::new)
    };
    Some(IgnitionFile {
        index,
        source,
        remote,
        decoded,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_bytes_are_decoded_again_when_read() {
        let text = "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: x\nspec:\n  config:\n    storage:\n      files:\n      - path: /etc/a\n        contents:\n          source: data:;base64,aGVsbG8=\n        append:\n        - source: data:,more%20text\n        - source: https://example.com/c\n      - path: /etc/b\n        contents:\n          source: data:;base64,!!\n";
        let parsed = crate::parse::parse_file(text.as_bytes());
        let doc = &parsed.docs[0];
        let files: Vec<(Result<u64, _>, Option<Vec<u8>>)> = doc
            .ignition
            .iter()
            .map(|f| (f.decoded.clone(), doc.ignition_bytes(f)))
            .collect();
        assert_eq!(files.len(), 4);
        assert_eq!(files[0], (Ok(5), Some(b"hello".to_vec())));
        assert_eq!(files[1], (Ok(9), Some(b"more text".to_vec())));
        assert_eq!(files[2], (Ok(0), Some(Vec::new())));
        assert!(files[3].0.is_err() && files[3].1.is_none());
    }
}
