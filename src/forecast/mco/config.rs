//! A MachineConfig's content, normalised the way the MCO reads it (Ignition 2.x and 3.x become
//! one shape), with every item remembering which object field it came from.

use std::collections::BTreeMap;

use nodecast_yaml::{Node, Span};
use serde_json::{Map, Value};

use crate::inventory::Object;

use super::selector::{self, Labels};
pub use super::{Invalid, Src};

/// A MachineConfig source for unit tests of the model's pure functions.
#[cfg(test)]
pub(crate) fn test_src() -> Src {
    Src {
        object: crate::inventory::ObjectId {
            group: "machineconfiguration.openshift.io".into(),
            kind: "MachineConfig".into(),
            namespace: None,
            name: "test".into(),
            scope: Default::default(),
        },
        pointer: String::new(),
    }
}

/// A value with the fields it came from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Item<T> {
    /// The value the daemon compares.
    pub value: T,
    /// Where it came from.
    pub src: Vec<Src>,
}

impl<T> Item<T> {
    /// A value from one field.
    pub fn new(value: T, src: Src) -> Self {
        Item {
            value,
            src: vec![src],
        }
    }
}

/// The normalised content of one MachineConfig (user-written or generated).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct McConfig {
    /// Files by path, in list order (entry without `path`).
    pub files: Vec<(String, Item<Value>)>,
    /// systemd units by name.
    pub units: Vec<(String, Item<Value>)>,
    /// passwd users by name.
    pub users: Vec<(String, Item<Value>)>,
    /// passwd groups by name.
    pub groups: Vec<(String, Item<Value>)>,
    /// storage.directories by path.
    pub directories: Vec<(String, Item<Value>)>,
    /// storage.links by path.
    pub links: Vec<(String, Item<Value>)>,
    /// storage.disks / filesystems / raid, keyed by section then entry JSON.
    pub storage: Vec<(String, Item<Value>)>,
    /// Ignition `kernelArguments` section (shouldExist / shouldNotExist).
    pub ignition_kargs: Option<Item<Value>>,
    /// `spec.kernelArguments`.
    pub kernel_arguments: Vec<Item<String>>,
    /// `spec.extensions`.
    pub extensions: Vec<Item<String>>,
    /// `spec.kernelType` when set.
    pub kernel_type: Option<Item<String>>,
    /// `spec.fips` when set.
    pub fips: Option<Item<bool>>,
    /// `spec.osImageURL` when non-empty.
    pub os_image_url: Option<Item<String>>,
    /// `spec.baseOSExtensionsContainerImage` when non-empty.
    pub extensions_image: Option<Item<String>>,
    /// Release payload fingerprint (ClusterVersion), for the template MachineConfigs.
    pub release: Option<Item<String>>,
    /// Reasons the MCO cannot render this MachineConfig.
    pub invalid: Vec<Invalid>,
}

/// A MachineConfig as the renderer sees it.
#[derive(Clone, Debug)]
pub struct Mc {
    /// `metadata.name`.
    pub name: String,
    /// `metadata.labels`.
    pub labels: Labels,
    /// True for controller-generated configs (they never override osImageURL).
    pub generated: bool,
    /// Content.
    pub config: McConfig,
}

/// The annotation the controller puts on MachineConfigs it generates.
pub const GENERATED_BY: &str = "machineconfiguration.openshift.io/generated-by-controller-version";

/// Reads a user MachineConfig object.
pub fn read_mc(obj: &Object) -> Mc {
    let root = obj.root();
    let id = &obj.id;
    let src = |pointer: String| Src {
        object: id.clone(),
        pointer,
    };
    let mut c = McConfig::default();
    let spec = root.get("spec");
    let generated = root
        .path(&["metadata", "annotations"])
        .and_then(|a| a.get(GENERATED_BY))
        .is_some();
    if let Some(config) = spec.and_then(|s| s.get("config")).filter(|n| !n.is_null()) {
        read_ignition(config, &src, &mut c);
    }
    let strings = |key: &str| -> Vec<Item<String>> {
        spec.and_then(|s| s.get(key))
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .enumerate()
            .filter_map(|(i, n)| {
                Some(Item::new(
                    n.key_text()?.to_string(),
                    src(format!("/spec/{key}/{i}")),
                ))
            })
            .collect()
    };
    c.kernel_arguments = strings("kernelArguments");
    c.extensions = strings("extensions");
    if let Some(kt) = spec
        .and_then(|s| s.get("kernelType"))
        .and_then(Node::key_text)
    {
        c.kernel_type = Some(Item::new(kt.to_string(), src("/spec/kernelType".into())));
    }
    if let Some(f) = spec.and_then(|s| s.get("fips")) {
        if let Some(b) = f.to_json().as_bool() {
            c.fips = Some(Item::new(b, src("/spec/fips".into())));
        }
    }
    if let Some(url) = spec
        .and_then(|s| s.get("osImageURL"))
        .and_then(Node::as_str)
        .filter(|s| !s.is_empty())
    {
        c.os_image_url = Some(Item::new(url.to_string(), src("/spec/osImageURL".into())));
    }
    if let Some(img) = spec
        .and_then(|s| s.get("baseOSExtensionsContainerImage"))
        .and_then(Node::as_str)
        .filter(|s| !s.is_empty())
    {
        c.extensions_image = Some(Item::new(
            img.to_string(),
            src("/spec/baseOSExtensionsContainerImage".into()),
        ));
    }
    Mc {
        name: id.name.clone().into(),
        labels: selector::labels_of(root),
        generated,
        config: c,
    }
}

fn keyed(
    node: Option<Node<'_>>,
    base: &str,
    key: &str,
    src: &dyn Fn(String) -> Src,
    normalise: &dyn Fn(&mut Map<String, Value>),
) -> Vec<(String, Item<Value>)> {
    node.and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .enumerate()
        .filter_map(|(i, n)| {
            let mut v = n.to_json();
            let obj = v.as_object_mut()?;
            // An entry without its key is invalid (see `ignition::validate`); it is kept under
            // "" so the checks of the merged configuration still see it.
            let name = obj
                .remove(key)
                .and_then(|k| k.as_str().map(str::to_string))
                .unwrap_or_default();
            normalise(obj);
            Some((name, Item::new(v, src(format!("{base}/{i}")))))
        })
        .collect()
}

fn read_ignition(config: Node<'_>, src: &dyn Fn(String) -> Src, c: &mut McConfig) {
    let version = config
        .path(&["ignition", "version"])
        .and_then(Node::key_text);
    let is_v2 = version.is_some_and(|v| v.starts_with("2."));
    c.invalid.extend(super::ignition::validate(config, src));
    let storage = config.get("storage");
    c.files = keyed(
        storage.and_then(|s| s.get("files")),
        "/spec/config/storage/files",
        "path",
        src,
        &|o| {
            o.remove("filesystem");
            if is_v2 {
                if o.get("append").and_then(Value::as_bool) == Some(true) {
                    o.insert("append".into(), Value::Array(vec![Value::Bool(true)]));
                } else {
                    o.remove("append");
                }
            }
            if o.get("overwrite").is_none_or(Value::is_null) {
                o.insert("overwrite".into(), Value::Bool(true));
            }
            drop_empty_list(o, "append");
        },
    );
    c.directories = keyed(
        storage.and_then(|s| s.get("directories")),
        "/spec/config/storage/directories",
        "path",
        src,
        &|o| {
            o.remove("filesystem");
        },
    );
    c.links = keyed(
        storage.and_then(|s| s.get("links")),
        "/spec/config/storage/links",
        "path",
        src,
        &|o| {
            o.remove("filesystem");
        },
    );
    for section in ["disks", "filesystems", "raid"] {
        for (i, n) in storage
            .and_then(|s| s.get(section))
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            let v = n.to_json();
            c.storage.push((
                format!("{section} {v}"),
                Item::new(v, src(format!("/spec/config/storage/{section}/{i}"))),
            ));
        }
    }
    c.units = keyed(
        config.path(&["systemd", "units"]),
        "/spec/config/systemd/units",
        "name",
        src,
        &|o| {
            if let Some(e) = o.remove("enable") {
                o.entry("enabled").or_insert(e);
            }
            drop_empty_list(o, "dropins");
        },
    );
    c.users = keyed(
        config.path(&["passwd", "users"]),
        "/spec/config/passwd/users",
        "name",
        src,
        &|o| {
            drop_empty_list(o, "sshAuthorizedKeys");
        },
    );
    c.groups = keyed(
        config.path(&["passwd", "groups"]),
        "/spec/config/passwd/groups",
        "name",
        src,
        &|_| {},
    );
    if let Some(k) = config.get("kernelArguments").filter(|n| !n.is_null()) {
        let v = k.to_json();
        if v.as_object().is_some_and(|o| !o.is_empty()) {
            c.ignition_kargs = Some(Item::new(v, src("/spec/config/kernelArguments".into())));
        }
    }
}

/// Merges a later Ignition entry into an earlier one: later non-null fields win, nested structs
/// merge, `sshAuthorizedKeys` and `append` concatenate, `dropins` merge by name.
pub fn merge_value(base: &mut Value, later: &Value) {
    let (Some(b), Some(l)) = (base.as_object_mut(), later.as_object()) else {
        *base = later.clone();
        return;
    };
    for (k, v) in l {
        if v.is_null() {
            continue;
        }
        match (b.get_mut(k), v) {
            (Some(Value::Array(old)), Value::Array(new))
                if k == "sshAuthorizedKeys" || k == "append" =>
            {
                old.extend(new.iter().cloned())
            }
            (Some(Value::Array(old)), Value::Array(new)) if k == "dropins" => {
                for d in new {
                    let name = d.get("name");
                    match old.iter_mut().find(|o| o.get("name") == name) {
                        Some(o) => merge_value(o, d),
                        None => old.push(d.clone()),
                    }
                }
            }
            (Some(old @ Value::Object(_)), Value::Object(_)) => merge_value(old, v),
            _ => {
                b.insert(k.clone(), v.clone());
            }
        }
    }
}

/// Builds the value of a generated file from a text (registries.conf, crio drop-ins) so the
/// daemon-side logic can read it back.
pub fn text_file(text: &str) -> Value {
    let mut m = Map::new();
    m.insert("text".into(), Value::String(text.to_string()));
    m.insert("overwrite".into(), Value::Bool(true));
    Value::Object(m)
}

/// The text of a rendered file: generated text, or the decoded data URL (None when remote,
/// undecodable or larger than `MAX_TEXT_DECODED`).
pub fn file_text(v: &Value) -> Option<String> {
    if let Some(t) = v.get("text").and_then(Value::as_str) {
        return Some(t.to_string());
    }
    let source = v.pointer("/contents/source")?.as_str()?;
    let compression = v.pointer("/contents/compression").and_then(Value::as_str);
    crate::parse::data_url::decode_text(source, compression)
}

/// Location of a JSON pointer in a node: the deepest existing entry's key (or list item).
pub fn locate(root: Node<'_>, pointer: &str) -> Span {
    nodecast_yaml::pointer::walk(root, pointer).key_span()
}

/// Canonical JSON of some fields of an object (what generated content depends on).
pub fn fields_json(root: Node<'_>, pointers: &[&str]) -> Value {
    let json = root.to_json();
    let mut m = BTreeMap::new();
    for p in pointers {
        if let Some(v) = json.pointer(p).filter(|v| !v.is_null()) {
            m.insert(p.to_string(), v.clone());
        }
    }
    serde_json::to_value(m).unwrap_or(Value::Null)
}

/// Ignition treats an empty list like an absent one: drop it so the two compare equal.
fn drop_empty_list(o: &mut serde_json::Map<String, Value>, key: &str) {
    if o.get(key)
        .and_then(Value::as_array)
        .is_some_and(|a| a.is_empty())
    {
        o.remove(key);
    }
}
