//! Ignition file contents of MachineConfigs, decoded so rules and forecasts can read them.

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
    /// The file's `path`, when given.
    pub path: Option<String>,
    /// Which source of the file.
    pub source: IgnitionSource,
    /// The span of the `source` value.
    pub source_span: Span,
    /// The URL scheme for non-data URLs (fetched at boot, not decoded).
    pub remote: Option<String>,
    /// The decoded bytes of a data URL, or why they could not be decoded.
    pub decoded: Result<Vec<u8>, data_url::DecodeError>,
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
        let path = file.get("path").and_then(Node::as_str).map(str::to_string);
        if let Some(contents) = file.get("contents") {
            if let Some(f) = one(index, &path, IgnitionSource::Contents, contents, budget) {
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
            if let Some(f) = one(index, &path, IgnitionSource::Append(i), append, budget) {
                out.push(f);
            }
        }
    }
    out
}

fn one(
    index: usize,
    path: &Option<String>,
    source: IgnitionSource,
    resource: Node<'_>,
    budget: &mut data_url::Budget,
) -> Option<IgnitionFile> {
    let node = resource.get("source")?;
    let url = node.as_str()?;
    let compression = resource.get("compression").and_then(Node::as_str);
    let (remote, decoded) = if data_url::is_data_url(url) {
        (None, data_url::decode_within(url, compression, budget))
    } else {
        let scheme = url
            .split_once(':')
            .map(|(s, _)| s.to_string())
            .unwrap_or_default();
        (Some(scheme), Ok(Vec::new()))
    };
    Some(IgnitionFile {
        index,
        path: path.clone(),
        source,
        source_span: node.span(),
        remote,
        decoded,
    })
}
