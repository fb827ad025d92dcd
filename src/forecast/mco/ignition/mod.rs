//! The MCO's validation of one MachineConfig's Ignition config, rule by rule as upstream does it,
//! so a config the render controller refuses makes the pool `blocked` instead of "no impact":
//!
//! - `ValidateMachineConfig` → `IgnParseWrapper` (MCO `pkg/controller/common/helpers.go`): spec
//!   3.0–3.5 parsed at their own version (`ParseCompatibleVersion`), else 2.2 (2.0/2.1 translated
//!   to it); any other version, a missing one, or a JSON value of the wrong type is refused;
//! - Ignition's own validation of that version (coreos/ignition `config/v3_*/types`, and
//!   `config/v2_2/types` of ignition v0.35), then `ValidateIgnition`'s file-mode rule (no
//!   setuid/setgid/sticky bits: at most 0777);
//! - for 2.x configs, `ParseAndConvertConfig` during the merge: duplicate files and units are
//!   folded, any user other than `core` is refused, and the 2.2 → 3.0 translation
//!   (`ign-converter` `Check2_3`, then 3.0 validation) refuses declared filesystems, networkd
//!   units, paths claimed twice or through a link, duplicate drop-ins.
//!
//! Each failure is one [`Invalid`] at the exact entry (or field) it is about.

mod unit;
pub mod url;

use std::collections::BTreeMap;

use nodecast_yaml::{Node, NodeKind, Scalar};

use super::{Invalid, Src};
use url::Spec;

/// A JSON type the Go structs expect (`null` is accepted everywhere).
#[derive(Clone, Copy)]
enum Ty {
    Str,
    Int,
    Bool,
    Obj(&'static [(&'static str, Ty)]),
    List(&'static Ty),
    /// Any object (fields not modelled).
    AnyObj,
}

const NODE_USER: Ty = Ty::Obj(&[("id", Ty::Int), ("name", Ty::Str)]);
const STRINGS: Ty = Ty::List(&Ty::Str);
const VERIFICATION: Ty = Ty::Obj(&[("hash", Ty::Str)]);
const RESOURCE_V3: Ty = Ty::Obj(&[
    ("source", Ty::Str),
    ("compression", Ty::Str),
    (
        "httpHeaders",
        Ty::List(&Ty::Obj(&[("name", Ty::Str), ("value", Ty::Str)])),
    ),
    ("verification", VERIFICATION),
]);
const NODE_V3: [(&str, Ty); 4] = [
    ("path", Ty::Str),
    ("overwrite", Ty::Bool),
    ("user", NODE_USER),
    ("group", NODE_USER),
];
const UNIT_V3: Ty = Ty::Obj(&[
    ("name", Ty::Str),
    ("enabled", Ty::Bool),
    ("mask", Ty::Bool),
    ("contents", Ty::Str),
    (
        "dropins",
        Ty::List(&Ty::Obj(&[("name", Ty::Str), ("contents", Ty::Str)])),
    ),
]);
const CONFIG_V3: Ty = Ty::Obj(&[
    (
        "ignition",
        Ty::Obj(&[
            ("version", Ty::Str),
            (
                "config",
                Ty::Obj(&[("merge", Ty::List(&RESOURCE_V3)), ("replace", RESOURCE_V3)]),
            ),
            (
                "timeouts",
                Ty::Obj(&[("httpResponseHeaders", Ty::Int), ("httpTotal", Ty::Int)]),
            ),
            (
                "security",
                Ty::Obj(&[(
                    "tls",
                    Ty::Obj(&[("certificateAuthorities", Ty::List(&RESOURCE_V3))]),
                )]),
            ),
            (
                "proxy",
                Ty::Obj(&[
                    ("httpProxy", Ty::Str),
                    ("httpsProxy", Ty::Str),
                    ("noProxy", STRINGS),
                ]),
            ),
        ]),
    ),
    (
        "kernelArguments",
        Ty::Obj(&[("shouldExist", STRINGS), ("shouldNotExist", STRINGS)]),
    ),
    (
        "passwd",
        Ty::Obj(&[
            (
                "users",
                Ty::List(&Ty::Obj(&[
                    ("name", Ty::Str),
                    ("passwordHash", Ty::Str),
                    ("sshAuthorizedKeys", STRINGS),
                    ("uid", Ty::Int),
                    ("gecos", Ty::Str),
                    ("homeDir", Ty::Str),
                    ("noCreateHome", Ty::Bool),
                    ("primaryGroup", Ty::Str),
                    ("groups", STRINGS),
                    ("noUserGroup", Ty::Bool),
                    ("noLogInit", Ty::Bool),
                    ("shell", Ty::Str),
                    ("system", Ty::Bool),
                    ("shouldExist", Ty::Bool),
                ])),
            ),
            (
                "groups",
                Ty::List(&Ty::Obj(&[
                    ("name", Ty::Str),
                    ("gid", Ty::Int),
                    ("passwordHash", Ty::Str),
                    ("system", Ty::Bool),
                    ("shouldExist", Ty::Bool),
                ])),
            ),
        ]),
    ),
    (
        "storage",
        Ty::Obj(&[
            (
                "files",
                Ty::List(&Ty::Obj(&[
                    NODE_V3[0],
                    NODE_V3[1],
                    NODE_V3[2],
                    NODE_V3[3],
                    ("mode", Ty::Int),
                    ("contents", RESOURCE_V3),
                    ("append", Ty::List(&RESOURCE_V3)),
                ])),
            ),
            (
                "directories",
                Ty::List(&Ty::Obj(&[
                    NODE_V3[0],
                    NODE_V3[1],
                    NODE_V3[2],
                    NODE_V3[3],
                    ("mode", Ty::Int),
                ])),
            ),
            (
                "links",
                Ty::List(&Ty::Obj(&[
                    NODE_V3[0],
                    NODE_V3[1],
                    NODE_V3[2],
                    NODE_V3[3],
                    ("target", Ty::Str),
                    ("hard", Ty::Bool),
                ])),
            ),
            ("disks", Ty::List(&Ty::AnyObj)),
            ("raid", Ty::List(&Ty::AnyObj)),
            ("filesystems", Ty::List(&Ty::AnyObj)),
            ("luks", Ty::List(&Ty::AnyObj)),
        ]),
    ),
    ("systemd", Ty::Obj(&[("units", Ty::List(&UNIT_V3))])),
]);

const CFG_REF_V2: Ty = Ty::Obj(&[("source", Ty::Str), ("verification", VERIFICATION)]);
const NODE_V2: [(&str, Ty); 5] = [
    ("filesystem", Ty::Str),
    ("path", Ty::Str),
    ("overwrite", Ty::Bool),
    ("user", NODE_USER),
    ("group", NODE_USER),
];
const DROPINS_V2: Ty = Ty::List(&Ty::Obj(&[("name", Ty::Str), ("contents", Ty::Str)]));
const CONFIG_V2: Ty = Ty::Obj(&[
    (
        "ignition",
        Ty::Obj(&[
            ("version", Ty::Str),
            (
                "config",
                Ty::Obj(&[("append", Ty::List(&CFG_REF_V2)), ("replace", CFG_REF_V2)]),
            ),
            (
                "timeouts",
                Ty::Obj(&[("httpResponseHeaders", Ty::Int), ("httpTotal", Ty::Int)]),
            ),
            (
                "security",
                Ty::Obj(&[(
                    "tls",
                    Ty::Obj(&[("certificateAuthorities", Ty::List(&CFG_REF_V2))]),
                )]),
            ),
        ]),
    ),
    (
        "networkd",
        Ty::Obj(&[(
            "units",
            Ty::List(&Ty::Obj(&[
                ("name", Ty::Str),
                ("contents", Ty::Str),
                ("dropins", DROPINS_V2),
            ])),
        )]),
    ),
    (
        "passwd",
        Ty::Obj(&[
            (
                "users",
                Ty::List(&Ty::Obj(&[
                    ("name", Ty::Str),
                    ("passwordHash", Ty::Str),
                    ("sshAuthorizedKeys", STRINGS),
                    ("uid", Ty::Int),
                    ("gecos", Ty::Str),
                    ("homeDir", Ty::Str),
                    ("noCreateHome", Ty::Bool),
                    ("primaryGroup", Ty::Str),
                    ("groups", STRINGS),
                    ("noUserGroup", Ty::Bool),
                    ("noLogInit", Ty::Bool),
                    ("shell", Ty::Str),
                    ("system", Ty::Bool),
                    ("create", Ty::AnyObj),
                ])),
            ),
            (
                "groups",
                Ty::List(&Ty::Obj(&[
                    ("name", Ty::Str),
                    ("gid", Ty::Int),
                    ("passwordHash", Ty::Str),
                    ("system", Ty::Bool),
                ])),
            ),
        ]),
    ),
    (
        "storage",
        Ty::Obj(&[
            (
                "files",
                Ty::List(&Ty::Obj(&[
                    NODE_V2[0],
                    NODE_V2[1],
                    NODE_V2[2],
                    NODE_V2[3],
                    NODE_V2[4],
                    ("mode", Ty::Int),
                    ("append", Ty::Bool),
                    (
                        "contents",
                        Ty::Obj(&[
                            ("source", Ty::Str),
                            ("compression", Ty::Str),
                            ("verification", VERIFICATION),
                        ]),
                    ),
                ])),
            ),
            (
                "directories",
                Ty::List(&Ty::Obj(&[
                    NODE_V2[0],
                    NODE_V2[1],
                    NODE_V2[2],
                    NODE_V2[3],
                    NODE_V2[4],
                    ("mode", Ty::Int),
                ])),
            ),
            (
                "links",
                Ty::List(&Ty::Obj(&[
                    NODE_V2[0],
                    NODE_V2[1],
                    NODE_V2[2],
                    NODE_V2[3],
                    NODE_V2[4],
                    ("target", Ty::Str),
                    ("hard", Ty::Bool),
                ])),
            ),
            ("disks", Ty::List(&Ty::AnyObj)),
            ("raid", Ty::List(&Ty::AnyObj)),
            (
                "filesystems",
                Ty::List(&Ty::Obj(&[
                    ("name", Ty::Str),
                    ("path", Ty::Str),
                    ("mount", Ty::AnyObj),
                ])),
            ),
        ]),
    ),
    (
        "systemd",
        Ty::Obj(&[(
            "units",
            Ty::List(&Ty::Obj(&[
                ("name", Ty::Str),
                ("enable", Ty::Bool),
                ("enabled", Ty::Bool),
                ("mask", Ty::Bool),
                ("contents", Ty::Str),
                ("dropins", DROPINS_V2),
            ])),
        )]),
    ),
]);

const BASE: &str = "/spec/config";

/// Unit name extensions Ignition accepts (`validateName`).
const UNIT_EXTENSIONS: [&str; 12] = [
    ".service",
    ".socket",
    ".device",
    ".mount",
    ".automount",
    ".swap",
    ".target",
    ".path",
    ".timer",
    ".snapshot",
    ".slice",
    ".scope",
];

struct Check<'a> {
    spec: Spec,
    version: String,
    at: &'a dyn Fn(String) -> Src,
    out: Vec<Invalid>,
}

impl Check<'_> {
    fn fail(&mut self, pointer: String, message: String) {
        let src = (self.at)(pointer);
        self.out.push(Invalid { message, src });
    }
}

/// The JSON text of a scalar the way the API server stores it, for Go's `json.Unmarshal` types.
fn json_kind(n: Node<'_>) -> &'static str {
    match n.kind() {
        NodeKind::Scalar { value, .. } => match value {
            Scalar::Null => "null",
            Scalar::Bool(_) => "boolean",
            Scalar::Int(_) => "number",
            Scalar::Float(_) => "number",
            Scalar::Str => "string",
        },
        NodeKind::Seq(_) => "array",
        NodeKind::Map(_) => "object",
    }
}

fn fits(ty: Ty, n: Node<'_>) -> bool {
    if n.is_null() {
        return true;
    }
    match (ty, n.kind()) {
        (
            Ty::Str,
            NodeKind::Scalar {
                value: Scalar::Str, ..
            },
        ) => true,
        (
            Ty::Bool,
            NodeKind::Scalar {
                value: Scalar::Bool(_),
                ..
            },
        ) => true,
        (
            Ty::Int,
            NodeKind::Scalar {
                value: Scalar::Int(_),
                ..
            },
        ) => true,
        // The API server stores a whole float as an integer.
        (
            Ty::Int,
            NodeKind::Scalar {
                value: Scalar::Float(f),
                ..
            },
        ) => f.fract() == 0.0 && f.is_finite() && f.abs() < 9.2e18,
        (Ty::Obj(_) | Ty::AnyObj, NodeKind::Map(_)) => true,
        (Ty::List(_), NodeKind::Seq(_)) => true,
        _ => false,
    }
}

fn ty_name(ty: Ty) -> &'static str {
    match ty {
        Ty::Str => "a string",
        Ty::Int => "an integer",
        Ty::Bool => "a boolean",
        Ty::Obj(_) | Ty::AnyObj => "an object",
        Ty::List(_) => "a list",
    }
}

/// `storage.files[2].mode` for `/storage/files/2/mode`.
fn dotted(pointer: &str) -> String {
    let mut out = String::new();
    for part in pointer.split('/').filter(|p| !p.is_empty()) {
        if part.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{part}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(part);
        }
    }
    out
}

/// Go's `json.Unmarshal` type errors (a wrong type anywhere makes the config unparseable).
fn check_types(c: &mut Check<'_>, ty: Ty, n: Node<'_>, pointer: &mut String) {
    if !fits(ty, n) {
        c.fail(
            format!("{BASE}{pointer}"),
            format!(
                "`{}` must be {}, not {} (Ignition cannot parse the config)",
                dotted(pointer),
                ty_name(ty),
                json_kind(n)
            ),
        );
        return;
    }
    match (ty, n.kind()) {
        (Ty::Obj(fields), NodeKind::Map(entries)) => {
            for e in entries {
                let Some(key) = e.key.key_text() else {
                    continue;
                };
                // An unknown key is only a warning for Ignition.
                if let Some((_, t)) = fields.iter().find(|(f, _)| *f == key) {
                    // One buffer for the walk: a pointer is read only where a type is wrong.
                    let len = pointer.len();
                    nodecast_yaml::pointer::push_segment(pointer, key);
                    check_types(c, *t, e.value, pointer);
                    pointer.truncate(len);
                }
            }
        }
        (Ty::List(item), NodeKind::Seq(items)) => {
            for (i, it) in items.iter().enumerate() {
                let len = pointer.len();
                nodecast_yaml::pointer::push_index(pointer, i);
                check_types(c, *item, it, pointer);
                pointer.truncate(len);
            }
        }
        _ => {}
    }
}

/// Go's `path.Clean`.
fn clean(p: &str) -> String {
    let rooted = p.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|l| *l != "..") {
                    parts.pop();
                } else if !rooted {
                    parts.push("..");
                }
            }
            s => parts.push(s),
        }
    }
    let joined = parts.join("/");
    match (rooted, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".into(),
        (false, false) => joined,
    }
}

/// Go's `path.Ext`.
fn ext(name: &str) -> &str {
    let base = name.rsplit('/').next().unwrap_or(name);
    match base.rfind('.') {
        Some(i) => &base[i..],
        None => "",
    }
}

fn str_at<'n>(n: Node<'n>, key: &str) -> Option<&'n str> {
    n.get(key).and_then(Node::as_str)
}

fn int_at(n: Node<'_>, key: &str) -> Option<i64> {
    match &n.get(key)?.kind() {
        NodeKind::Scalar {
            value: Scalar::Int(i),
            ..
        } => Some(*i),
        NodeKind::Scalar {
            value: Scalar::Float(f),
            ..
        } if f.fract() == 0.0 && f.abs() < 9.2e18 => Some(*f as i64),
        _ => None,
    }
}

fn bool_at(n: Node<'_>, key: &str) -> Option<bool> {
    match &n.get(key)?.kind() {
        NodeKind::Scalar {
            value: Scalar::Bool(b),
            ..
        } => Some(*b),
        _ => None,
    }
}

fn items(n: Option<Node<'_>>) -> nodecast_yaml::Seq<'_> {
    n.and_then(Node::as_seq).unwrap_or_default()
}

/// Why the spec version cannot be used (`IgnParseWrapper`), or which spec applies.
fn spec_of(config: Node<'_>) -> Result<(Spec, String), (String, String)> {
    const SUPPORTED: &str = "2.2, 3.0, 3.1, 3.2, 3.3, 3.4, 3.5";
    let ignition = config.get("ignition");
    let version_node = ignition.and_then(|i| i.get("version"));
    let pointer = match (ignition, version_node) {
        (_, Some(_)) => format!("{BASE}/ignition/version"),
        (Some(_), None) => format!("{BASE}/ignition"),
        (None, _) => BASE.to_string(),
    };
    let Some(text) = version_node.and_then(Node::as_str) else {
        let what = match version_node {
            None => "has no `ignition.version`".to_string(),
            Some(n) => format!(
                "has an `ignition.version` that is {}, not a string",
                json_kind(n)
            ),
        };
        return Err((
            pointer,
            format!(
                "the Ignition config {what}: invalid version (the MCO accepts spec {SUPPORTED})"
            ),
        ));
    };
    let Some((major, minor, patch, rest)) = semver(text) else {
        return Err((
            pointer,
            format!("Ignition version `{text}` is not a version (X.Y.Z): invalid version (the MCO accepts spec {SUPPORTED})"),
        ));
    };
    match (major, minor, patch, rest) {
        (3, m @ 0..=5, 0, "") => Ok((Spec::V3(m as u8), text.to_string())),
        (2, 0..=2, 0, "") => Ok((Spec::V2, text.to_string())),
        _ => Err((
            pointer,
            format!("Ignition version {text} is not supported: unknown version (the MCO accepts spec {SUPPORTED})"),
        )),
    }
}

/// go-semver `NewVersion`: `MAJOR.MINOR.PATCH[-pre][+meta]`, numbers without leading zeros.
fn semver(text: &str) -> Option<(u64, u64, u64, &str)> {
    let split = text.find(['-', '+']).unwrap_or(text.len());
    let (core, rest) = text.split_at(split);
    let nums: Vec<&str> = core.split('.').collect();
    if nums.len() != 3 {
        return None;
    }
    let mut out = [0u64; 3];
    for (i, n) in nums.iter().enumerate() {
        if n.is_empty()
            || !n.bytes().all(|b| b.is_ascii_digit())
            || (n.len() > 1 && n.starts_with('0'))
        {
            return None;
        }
        out[i] = n.parse().ok()?;
    }
    Some((out[0], out[1], out[2], rest))
}

/// Every reason the MCO refuses this `spec.config` (empty when it accepts it).
pub fn validate(config: Node<'_>, at: &dyn Fn(String) -> Src) -> Vec<Invalid> {
    let mut c = Check {
        spec: Spec::V3(5),
        version: String::new(),
        at,
        out: Vec::new(),
    };
    if config.is_null() {
        return Vec::new();
    }
    if config.as_map().is_none() {
        c.fail(
            BASE.into(),
            format!(
                "`spec.config` is {}, not an Ignition config object (Ignition cannot parse it)",
                json_kind(config)
            ),
        );
        return c.out;
    }
    match spec_of(config) {
        Err((pointer, message)) => {
            c.fail(pointer, message);
            return c.out;
        }
        Ok((spec, version)) => {
            c.spec = spec;
            c.version = version;
        }
    }
    let schema = match c.spec {
        Spec::V2 => CONFIG_V2,
        Spec::V3(_) => CONFIG_V3,
    };
    check_types(&mut c, schema, config, &mut String::new());
    if !c.out.is_empty() {
        // Unmarshalling fails: the other rules never run.
        return c.out;
    }
    match c.spec {
        Spec::V2 => v2(&mut c, config),
        Spec::V3(_) => v3(&mut c, config),
    }
    file_modes(&mut c, config);
    c.out
}

fn prefix(c: &Check<'_>) -> String {
    format!("Ignition {}", c.version)
}

/// `ValidateIgnition`: no file mode above 0777 (setuid, setgid and sticky bits are refused).
fn file_modes(c: &mut Check<'_>, config: Node<'_>) {
    for (i, f) in items(config.path(&["storage", "files"])).iter().enumerate() {
        let Some(mode) = int_at(f, "mode") else {
            continue;
        };
        if mode > 0o777 && mode <= 0o7777 {
            let path = str_at(f, "path").unwrap_or_default();
            c.fail(
                format!("{BASE}/storage/files/{i}/mode"),
                format!("{} file {path}: invalid mode 0{mode:o}, cannot exceed 0777 (the MCO refuses setuid, setgid and sticky bits)", prefix(c)),
            );
        }
    }
}

fn mode_rule(c: &mut Check<'_>, n: Node<'_>, pointer: &str, what: &str) {
    if let Some(mode) = int_at(n, "mode") {
        if !(0..=0o7777).contains(&mode) {
            c.fail(
                format!("{pointer}/mode"),
                format!(
                    "{} {what} has an illegal file mode {} ({mode}; Ignition accepts 0 to 07777)",
                    prefix(c),
                    if mode < 0 {
                        mode.to_string()
                    } else {
                        format!("0{mode:o}")
                    }
                ),
            );
        }
    }
}

fn owner_rule(c: &mut Check<'_>, n: Node<'_>, pointer: &str, what: &str) {
    for key in ["user", "group"] {
        let Some(o) = n.get(key) else { continue };
        let id = o.get("id").is_some_and(|v| !v.is_null());
        let name = str_at(o, "name").is_some_and(|s| !s.is_empty());
        if id && name {
            c.fail(
                format!("{pointer}/{key}"),
                format!(
                    "{} {what} sets both `{key}.id` and `{key}.name` (Ignition: cannot set both id and name)",
                    prefix(c)
                ),
            );
        }
    }
}

fn source_rule(c: &mut Check<'_>, res: Node<'_>, pointer: &str, what: &str) {
    let source = str_at(res, "source");
    if let Some(s) = source {
        if let Some(e) = url::source_error(c.spec, s) {
            c.fail(
                format!("{pointer}/source"),
                format!("{} {what}: the source is rejected: {e}", prefix(c)),
            );
        }
    }
    if let Some(comp) = str_at(res, "compression") {
        if !comp.is_empty() && comp != "gzip" {
            c.fail(
                format!("{pointer}/compression"),
                format!(
                    "{} {what}: invalid compression method `{comp}` (only gzip)",
                    prefix(c)
                ),
            );
        }
    }
    if let Some(hash) = res.path(&["verification", "hash"]).and_then(Node::as_str) {
        if matches!(c.spec, Spec::V3(_)) && res.get("source").is_none_or(Node::is_null) {
            c.fail(
                format!("{pointer}/verification/hash"),
                format!(
                    "{} {what}: source must be specified if verification is specified",
                    prefix(c)
                ),
            );
        } else if let Some(e) = url::hash_error(c.spec, hash) {
            c.fail(
                format!("{pointer}/verification/hash"),
                format!("{} {what}: {e}", prefix(c)),
            );
        }
    }
    if matches!(c.spec, Spec::V3(_)) {
        let headers = items(res.get("httpHeaders"));
        if !headers.is_empty() {
            let scheme_ok = source.is_some_and(|s| {
                let l = s.to_ascii_lowercase();
                l.starts_with("http://") || l.starts_with("https://")
            });
            if !scheme_ok {
                c.fail(
                    format!("{pointer}/httpHeaders"),
                    format!("{} {what}: HTTP headers need an http(s) source", prefix(c)),
                );
            }
        }
        let mut names: Vec<&str> = Vec::new();
        for (i, h) in headers.iter().enumerate() {
            let name = str_at(h, "name").unwrap_or_default();
            if name.is_empty() {
                c.fail(
                    format!("{pointer}/httpHeaders/{i}/name"),
                    format!("{} {what}: HTTP header name can't be empty", prefix(c)),
                );
            }
            if str_at(h, "value") == Some("") {
                c.fail(
                    format!("{pointer}/httpHeaders/{i}/value"),
                    format!(
                        "{} {what}: HTTP header `{name}` has an empty value",
                        prefix(c)
                    ),
                );
            }
            if names.contains(&name) {
                c.fail(
                    format!("{pointer}/httpHeaders/{i}"),
                    format!("{} {what}: duplicate HTTP header `{name}`", prefix(c)),
                );
            }
            names.push(name);
        }
    }
}

fn unit_contents_rule(c: &mut Check<'_>, n: Node<'_>, pointer: &str, what: &str) {
    if let Some(text) = str_at(n, "contents") {
        if let Some(e) = unit::parse_error(text) {
            c.fail(
                format!("{pointer}/contents"),
                format!("{} {what}: invalid unit content: {e}", prefix(c)),
            );
        }
    }
}

fn units_rule(c: &mut Check<'_>, config: Node<'_>, section: &str, v2_folded: bool) {
    let networkd = section == "networkd";
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (i, u) in items(config.path(&[section, "units"])).iter().enumerate() {
        let pointer = format!("{BASE}/{section}/units/{i}");
        let name = str_at(u, "name").unwrap_or_default();
        let what = if name.is_empty() {
            format!("{section}.units[{i}]")
        } else {
            format!("unit {name}")
        };
        let allowed: &[&str] = if networkd {
            &[".link", ".netdev", ".network"]
        } else {
            &UNIT_EXTENSIONS
        };
        if !allowed.contains(&ext(name)) {
            let why = if name.is_empty() {
                format!("{section}.units[{i}] has no `name`")
            } else {
                format!("unit name `{name}` has no valid {section} extension")
            };
            c.fail(
                if u.get("name").is_some() {
                    format!("{pointer}/name")
                } else {
                    pointer.clone()
                },
                format!(
                    "{} {why} (Ignition: invalid {} unit extension; allowed: {})",
                    prefix(c),
                    section,
                    allowed.join(", ")
                ),
            );
        }
        unit_contents_rule(c, u, &pointer, &what);
        if !v2_folded {
            if let Some(first) = seen.get(name) {
                c.fail(
                    format!("{pointer}/name"),
                    format!(
                        "{} {what} is listed twice ({section}.units[{first}] and [{i}]): duplicate entry",
                        prefix(c)
                    ),
                );
            }
        }
        seen.entry(name.to_string()).or_insert(i);
        let mut dropins: BTreeMap<&str, usize> = BTreeMap::new();
        for (j, d) in items(u.get("dropins")).iter().enumerate() {
            let dp = format!("{pointer}/dropins/{j}");
            let dname = str_at(d, "name").unwrap_or_default();
            if ext(dname) != ".conf" {
                c.fail(
                    if d.get("name").is_some() {
                        format!("{dp}/name")
                    } else {
                        dp.clone()
                    },
                    format!(
                        "{} {what}: drop-in {} (Ignition: invalid systemd drop-in extension; it must end in .conf)",
                        prefix(c),
                        if dname.is_empty() {
                            "has no `name`".to_string()
                        } else {
                            format!("`{dname}` does not end in .conf")
                        }
                    ),
                );
            }
            unit_contents_rule(c, d, &dp, &format!("{what} drop-in {dname}"));
            if let Some(first) = dropins.get(dname) {
                c.fail(
                    format!("{dp}/name"),
                    format!(
                        "{} {what}: drop-in `{dname}` is listed twice (dropins[{first}] and [{j}]): duplicate entry",
                        prefix(c)
                    ),
                );
            }
            dropins.entry(dname).or_insert(j);
        }
    }
}

/// A path-keyed storage entry (file, directory, link) with where it is.
struct NodeEntry<'n> {
    kind: &'static str,
    index: usize,
    node: Node<'n>,
    path: String,
}

impl NodeEntry<'_> {
    fn pointer(&self) -> String {
        format!("{BASE}/storage/{}/{}", self.kind, self.index)
    }

    fn what(&self) -> String {
        if self.path.is_empty() {
            format!("storage.{}[{}]", self.kind, self.index)
        } else {
            let singular = match self.kind {
                "files" => "file",
                "directories" => "directory",
                _ => "link",
            };
            format!("{singular} {}", self.path)
        }
    }
}

fn storage_nodes<'n>(config: Node<'n>, kinds: &[&'static str]) -> Vec<NodeEntry<'n>> {
    let mut out = Vec::new();
    for kind in kinds {
        for (index, node) in items(config.path(&["storage", kind])).iter().enumerate() {
            out.push(NodeEntry {
                kind,
                index,
                node,
                path: str_at(node, "path").unwrap_or_default().to_string(),
            });
        }
    }
    out
}

fn path_rule(c: &mut Check<'_>, e: &NodeEntry<'_>) {
    let pointer = e.pointer();
    let has_key = e.node.get("path").is_some_and(|p| !p.is_null());
    let at = if has_key {
        format!("{pointer}/path")
    } else {
        pointer.clone()
    };
    let what = e.what();
    if e.path.is_empty() {
        c.fail(
            at,
            format!(
                "{} {what} has no `path` (Ignition: {})",
                prefix(c),
                if c.spec == Spec::V2 {
                    "path not absolute"
                } else {
                    "path not specified"
                }
            ),
        );
    } else if !e.path.starts_with('/') {
        c.fail(
            at,
            format!(
                "{} {what}: the path is not absolute (Ignition: path not absolute)",
                prefix(c)
            ),
        );
    } else if matches!(c.spec, Spec::V3(_)) && clean(&e.path) != e.path {
        c.fail(
            at,
            format!(
                "{} {what}: the path is not fully simplified (write {})",
                prefix(c),
                clean(&e.path)
            ),
        );
    }
}

/// Paths claimed twice and paths through a link of the config.
fn node_conflicts(c: &mut Check<'_>, nodes: &[NodeEntry<'_>], key: &dyn Fn(&str) -> String) {
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for e in nodes {
        let k = key(&e.path);
        if let Some(first) = seen.get(&k) {
            c.fail(
                format!("{}/path", e.pointer()),
                format!(
                    "{} {} is already defined by {first}: duplicate entry",
                    prefix(c),
                    e.what()
                ),
            );
        } else {
            seen.insert(k, e.what());
        }
    }
    let links: Vec<String> = nodes
        .iter()
        .filter(|e| e.kind == "links")
        .map(|e| key(&e.path))
        .collect();
    for e in nodes {
        let p = key(&e.path);
        if let Some(l) = links.iter().find(|l| p.starts_with(&format!("{l}/"))) {
            c.fail(
                format!("{}/path", e.pointer()),
                format!(
                    "{} {}: the path goes through the link {l} the config also writes",
                    prefix(c),
                    e.what()
                ),
            );
        }
    }
}

fn v3(c: &mut Check<'_>, config: Node<'_>) {
    let Spec::V3(minor) = c.spec else { return };
    let nodes = storage_nodes(config, &["directories", "files", "links"]);
    for e in &nodes {
        path_rule(c, e);
        let what = e.what();
        let pointer = e.pointer();
        owner_rule(c, e.node, &pointer, &what);
        match e.kind {
            "files" => {
                mode_rule(c, e.node, &pointer, &what);
                if bool_at(e.node, "overwrite") == Some(true)
                    && e.node
                        .path(&["contents", "source"])
                        .is_none_or(Node::is_null)
                {
                    c.fail(
                        format!("{pointer}/overwrite"),
                        format!(
                            "{} {what}: overwrite must be false if source is unspecified",
                            prefix(c)
                        ),
                    );
                }
                if let Some(res) = e.node.get("contents") {
                    source_rule(c, res, &format!("{pointer}/contents"), &what);
                }
                for (j, res) in items(e.node.get("append")).iter().enumerate() {
                    source_rule(c, res, &format!("{pointer}/append/{j}"), &what);
                }
            }
            "directories" => mode_rule(c, e.node, &pointer, &what),
            _ => {
                let target = str_at(e.node, "target").unwrap_or_default();
                if minor >= 3 && target.is_empty() {
                    c.fail(
                        pointer.clone(),
                        format!("{} {what}: link target is required", prefix(c)),
                    );
                }
                if bool_at(e.node, "hard") == Some(true) && !target.is_empty() {
                    let t = clean(target);
                    let t = if t.starts_with('/') {
                        t
                    } else {
                        clean(&format!("{}/{target}", e.path))
                    };
                    if nodes.iter().any(|d| d.kind == "directories" && d.path == t) {
                        c.fail(
                            pointer.clone(),
                            format!(
                                "{} {what}: hard link target {t} is a directory of the config",
                                prefix(c)
                            ),
                        );
                    }
                }
            }
        }
    }
    node_conflicts(c, &nodes, &|p| p.to_string());
    // Config.Validate: a path that a unit or drop-in with contents also writes.
    let mut unit_paths: Vec<String> = Vec::new();
    for u in items(config.path(&["systemd", "units"])) {
        let name = str_at(u, "name").unwrap_or_default();
        if str_at(u, "contents").is_some_and(|s| !s.is_empty()) {
            unit_paths.push(format!("/etc/systemd/system/{name}"));
        }
        for d in items(u.get("dropins")) {
            if str_at(d, "contents").is_some_and(|s| !s.is_empty()) {
                unit_paths.push(format!(
                    "/etc/systemd/system/{name}.d/{}",
                    str_at(d, "name").unwrap_or_default()
                ));
            }
        }
    }
    for e in &nodes {
        if unit_paths.contains(&e.path) {
            c.fail(
                format!("{}/path", e.pointer()),
                format!(
                    "{} {}: the path conflicts with a systemd unit or drop-in of the config",
                    prefix(c),
                    e.what()
                ),
            );
        }
    }
    units_rule(c, config, "systemd", false);
    passwd_dups(c, config);
    kargs_dups(c, config);
    ignition_section(c, config);
}

fn passwd_dups(c: &mut Check<'_>, config: Node<'_>) {
    for section in ["users", "groups"] {
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        for (i, u) in items(config.path(&["passwd", section])).iter().enumerate() {
            let name = str_at(u, "name").unwrap_or_default();
            if let Some(first) = seen.get(name) {
                c.fail(
                    format!("{BASE}/passwd/{section}/{i}/name"),
                    format!(
                        "{} passwd.{section} `{name}` is listed twice ([{first}] and [{i}]): duplicate entry",
                        prefix(c)
                    ),
                );
            }
            seen.entry(name).or_insert(i);
            if section == "users" {
                for list in ["sshAuthorizedKeys", "groups"] {
                    let mut keys: Vec<&str> = Vec::new();
                    for (j, k) in items(u.get(list)).iter().enumerate() {
                        let k = k.as_str().unwrap_or_default();
                        if keys.contains(&k) {
                            c.fail(
                                format!("{BASE}/passwd/users/{i}/{list}/{j}"),
                                format!(
                                    "{} user `{name}` lists the same {} twice: duplicate entry",
                                    prefix(c),
                                    if list == "groups" { "group" } else { "SSH key" }
                                ),
                            );
                        }
                        keys.push(k);
                    }
                }
            }
        }
    }
}

fn kargs_dups(c: &mut Check<'_>, config: Node<'_>) {
    let mut seen: Vec<&str> = Vec::new();
    for list in ["shouldExist", "shouldNotExist"] {
        for (i, k) in items(config.path(&["kernelArguments", list]))
            .iter()
            .enumerate()
        {
            let k = k.as_str().unwrap_or_default();
            if seen.contains(&k) {
                c.fail(
                    format!("{BASE}/kernelArguments/{list}/{i}"),
                    format!(
                        "{} kernel argument `{k}` is listed twice in kernelArguments: duplicate entry",
                        prefix(c)
                    ),
                );
            }
            seen.push(k);
        }
    }
}

fn ignition_section(c: &mut Check<'_>, config: Node<'_>) {
    let base = format!("{BASE}/ignition");
    let required = |c: &mut Check<'_>, res: Node<'_>, pointer: String, what: &str| {
        if str_at(res, "source").is_none_or(str::is_empty) {
            c.fail(
                pointer.clone(),
                format!("{} {what}: source is required", prefix(c)),
            );
        }
        source_rule(c, res, &pointer, what);
    };
    let merge_key = if c.spec == Spec::V2 {
        "append"
    } else {
        "merge"
    };
    for (i, r) in items(config.path(&["ignition", "config", merge_key]))
        .iter()
        .enumerate()
    {
        if c.spec == Spec::V2 {
            source_rule(
                c,
                r,
                &format!("{base}/config/{merge_key}/{i}"),
                "ignition.config",
            );
        } else {
            required(
                c,
                r,
                format!("{base}/config/{merge_key}/{i}"),
                "ignition.config.merge",
            );
        }
    }
    if let Some(r) = config.path(&["ignition", "config", "replace"]) {
        source_rule(
            c,
            r,
            &format!("{base}/config/replace"),
            "ignition.config.replace",
        );
    }
    for (i, r) in items(config.path(&["ignition", "security", "tls", "certificateAuthorities"]))
        .iter()
        .enumerate()
    {
        let pointer = format!("{base}/security/tls/certificateAuthorities/{i}");
        if c.spec == Spec::V2 {
            source_rule(c, r, &pointer, "certificate authority");
        } else {
            required(c, r, pointer, "certificate authority");
        }
    }
    if c.spec != Spec::V2 {
        for key in ["httpProxy", "httpsProxy"] {
            let Some(p) = config
                .path(&["ignition", "proxy", key])
                .and_then(Node::as_str)
            else {
                continue;
            };
            let l = p.to_ascii_lowercase();
            if !(l.starts_with("http://") || l.starts_with("https://")) {
                c.fail(
                    format!("{base}/proxy/{key}"),
                    format!(
                        "{} ignition.proxy.{key}: proxies must be http(s)",
                        prefix(c)
                    ),
                );
            }
        }
    }
}

fn v2(c: &mut Check<'_>, config: Node<'_>) {
    let nodes = storage_nodes(config, &["files", "directories", "links"]);
    for e in &nodes {
        path_rule(c, e);
        let pointer = e.pointer();
        let what = e.what();
        if str_at(e.node, "filesystem").is_none_or(str::is_empty) {
            c.fail(
                pointer.clone(),
                format!(
                    "{} {what} has no `filesystem` (Ignition 2.x: no filesystem specified; write `filesystem: root`)",
                    prefix(c)
                ),
            );
        }
        owner_rule(c, e.node, &pointer, &what);
        if e.kind == "files" {
            mode_rule(c, e.node, &pointer, &what);
            if bool_at(e.node, "append") == Some(true) && bool_at(e.node, "overwrite") == Some(true)
            {
                c.fail(
                    format!("{pointer}/append"),
                    format!(
                        "{} {what}: append and overwrite cannot both be true",
                        prefix(c)
                    ),
                );
            }
            if let Some(res) = e.node.get("contents") {
                source_rule(c, res, &format!("{pointer}/contents"), &what);
            }
        } else if e.kind == "directories" {
            mode_rule(c, e.node, &pointer, &what);
        }
    }
    units_rule(c, config, "systemd", true);
    units_rule(c, config, "networkd", true);
    ignition_section(c, config);
    for (i, u) in items(config.path(&["passwd", "users"])).iter().enumerate() {
        let name = str_at(u, "name").unwrap_or_default();
        let pointer = format!("{BASE}/passwd/users/{i}");
        if u.get("create").is_some_and(|n| !n.is_null()) {
            for key in [
                "gecos",
                "groups",
                "homeDir",
                "noCreateHome",
                "noLogInit",
                "noUserGroup",
                "primaryGroup",
                "shell",
                "system",
                "uid",
            ] {
                if u.get(key).is_some_and(|n| !n.is_null()) {
                    c.fail(
                        format!("{pointer}/{key}"),
                        format!(
                            "{} user `{name}`: `{key}` cannot be combined with the deprecated `create`",
                            prefix(c)
                        ),
                    );
                }
            }
        }
        // ParseAndConvertConfig folds 2.x users into one and refuses any but core.
        if name != "core" {
            c.fail(
                format!("{pointer}/name"),
                format!("{} passwd.users[{i}]: unexpected user with name `{name}`; only the core user is supported (the MCO refuses to convert this 2.x config)", prefix(c)),
            );
        }
    }
    // The 2.2 → 3.0 translation (`Check2_3`): only the implied root filesystem exists.
    for (i, fs) in items(config.path(&["storage", "filesystems"]))
        .iter()
        .enumerate()
    {
        let name = str_at(fs, "name").unwrap_or_default();
        if name != "root" {
            c.fail(
                format!("{BASE}/storage/filesystems/{i}"),
                format!("{} filesystem `{name}` cannot be translated to spec 3 (the MCO maps only `root`)", prefix(c)),
            );
        }
    }
    for (i, _) in items(config.path(&["networkd", "units"]))
        .iter()
        .enumerate()
    {
        c.fail(
            format!("{BASE}/networkd/units/{i}"),
            format!(
                "{} networkd units cannot be translated to spec 3 (the MCO refuses this config)",
                prefix(c)
            ),
        );
    }
    // Files (and units) listed twice are folded, the last one winning; anything else that
    // claims a path twice, or goes through a link, is refused by the translation.
    let mut folded: Vec<NodeEntry<'_>> = Vec::new();
    for e in nodes {
        if e.kind == "files" {
            if let Some(pos) = folded
                .iter()
                .position(|f| f.kind == "files" && f.path == e.path)
            {
                folded.remove(pos);
            }
        }
        folded.push(e);
    }
    node_conflicts(c, &folded, &|p| clean(&format!("/{p}")));
}

#[cfg(test)]
mod tests;
