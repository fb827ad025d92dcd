//! `/etc/containers/registries.conf`: the model the MCO generates from mirror sets and the
//! `Image` config, and the daemon's rule for when a change is safe without a drain.

use std::collections::BTreeMap;

/// One `[[registry.mirror]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mirror {
    /// `location`.
    pub location: String,
    /// `pull-from-mirror` (`digest-only`, `tag-only`, `all` or empty).
    pub pull_from_mirror: String,
    /// `insecure`.
    pub insecure: bool,
}

/// One `[[registry]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Registry {
    /// `prefix`.
    pub prefix: String,
    /// `location`.
    pub location: String,
    /// `blocked`.
    pub blocked: bool,
    /// `insecure`.
    pub insecure: bool,
    /// `mirror-by-digest-only`.
    pub mirror_by_digest_only: bool,
    /// Mirrors in order.
    pub mirrors: Vec<Mirror>,
}

impl Registry {
    /// The key the daemon compares registries by.
    pub fn key(&self) -> &str {
        if self.prefix.is_empty() {
            &self.location
        } else {
            &self.prefix
        }
    }
}

/// A registries.conf (v2).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RegistriesConf {
    /// `unqualified-search-registries`.
    pub search: Vec<String>,
    /// `[[registry]]` tables.
    pub registries: Vec<Registry>,
}

/// The default search list of the MCO template.
pub fn template() -> RegistriesConf {
    RegistriesConf {
        search: vec!["registry.access.redhat.com".into(), "docker.io".into()],
        registries: Vec::new(),
    }
}

fn s(t: &toml::Table, k: &str) -> String {
    t.get(k)
        .and_then(toml::Value::as_str)
        .unwrap_or_default()
        .to_string()
}

fn b(t: &toml::Table, k: &str) -> bool {
    t.get(k).and_then(toml::Value::as_bool).unwrap_or(false)
}

/// Parses registries.conf text; `None` when it is not valid TOML (treated as unsafe).
pub fn parse(text: &str) -> Option<RegistriesConf> {
    let table: toml::Table = text.parse().ok()?;
    let search = table
        .get("unqualified-search-registries")
        .and_then(toml::Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let registries = table
        .get("registry")
        .and_then(toml::Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(toml::Value::as_table)
                .map(|r| Registry {
                    prefix: s(r, "prefix"),
                    location: s(r, "location"),
                    blocked: b(r, "blocked"),
                    insecure: b(r, "insecure"),
                    mirror_by_digest_only: b(r, "mirror-by-digest-only"),
                    mirrors: r
                        .get("mirror")
                        .and_then(toml::Value::as_array)
                        .map(|m| {
                            m.iter()
                                .filter_map(toml::Value::as_table)
                                .map(|m| Mirror {
                                    location: s(m, "location"),
                                    pull_from_mirror: s(m, "pull-from-mirror"),
                                    insecure: b(m, "insecure"),
                                })
                                .collect()
                        })
                        .unwrap_or_default(),
                })
                .collect()
        })
        .unwrap_or_default();
    Some(RegistriesConf { search, registries })
}

fn quote(v: &str) -> String {
    toml::Value::String(v.to_string()).to_string()
}

impl RegistriesConf {
    /// Renders TOML the way the controller writes it.
    pub fn to_toml(&self) -> String {
        let mut out = format!(
            "unqualified-search-registries = [{}]\nshort-name-mode = \"\"\n",
            self.search
                .iter()
                .map(|x| quote(x))
                .collect::<Vec<_>>()
                .join(", ")
        );
        for r in &self.registries {
            out.push_str("\n[[registry]]\n");
            out.push_str(&format!("  prefix = {}\n", quote(&r.prefix)));
            out.push_str(&format!("  location = {}\n", quote(&r.location)));
            for (k, v) in [
                ("blocked", r.blocked),
                ("insecure", r.insecure),
                ("mirror-by-digest-only", r.mirror_by_digest_only),
            ] {
                if v {
                    out.push_str(&format!("  {k} = true\n"));
                }
            }
            for m in &r.mirrors {
                out.push_str("\n  [[registry.mirror]]\n");
                out.push_str(&format!("    location = {}\n", quote(&m.location)));
                if !m.pull_from_mirror.is_empty() {
                    out.push_str(&format!(
                        "    pull-from-mirror = {}\n",
                        quote(&m.pull_from_mirror)
                    ));
                }
                if m.insecure {
                    out.push_str("    insecure = true\n");
                }
            }
        }
        out
    }

    /// The registry entry for a location, created when missing.
    pub fn entry(&mut self, location: &str) -> &mut Registry {
        let pos = match self.registries.iter().position(|r| r.key() == location) {
            Some(p) => p,
            None => {
                self.registries.push(Registry {
                    location: location.to_string(),
                    ..Registry::default()
                });
                self.registries.len() - 1
            }
        };
        &mut self.registries[pos]
    }

    /// Adds mirrors of a source (IDMS/ICSP: `digest-only`, ITMS: `tag-only`).
    pub fn add_mirrors(
        &mut self,
        source: &str,
        mirrors: &[String],
        pull: &str,
        never_source: bool,
    ) {
        let r = self.entry(source);
        for m in mirrors {
            if !r.mirrors.iter().any(|x| &x.location == m) {
                r.mirrors.push(Mirror {
                    location: m.clone(),
                    pull_from_mirror: pull.to_string(),
                    insecure: false,
                });
            }
        }
        r.blocked |= never_source;
    }
}

/// Why a registries.conf change needs a drain (`None` = safe, crio reload only).
pub fn unsafe_reason(old: &RegistriesConf, new: &RegistriesConf) -> Option<String> {
    if new.search.len() < old.search.len() || new.search[..old.search.len()] != old.search[..] {
        return Some("unqualified-search-registries removed or reordered".into());
    }
    let old_by: BTreeMap<&str, &Registry> = old.registries.iter().map(|r| (r.key(), r)).collect();
    let new_by: BTreeMap<&str, &Registry> = new.registries.iter().map(|r| (r.key(), r)).collect();
    for (k, o) in &old_by {
        let Some(n) = new_by.get(k) else {
            return Some(format!("registry `{k}` removed"));
        };
        if o.prefix != n.prefix || o.location != n.location {
            return Some(format!("registry `{k}` prefix or location changed"));
        }
        if o.blocked != n.blocked {
            return Some(format!("registry `{k}` blocked changed"));
        }
        if o.insecure != n.insecure {
            return Some(format!("registry `{k}` insecure changed"));
        }
        for om in &o.mirrors {
            match n.mirrors.iter().find(|m| m.location == om.location) {
                None => return Some(format!("mirror `{}` of `{k}` removed", om.location)),
                Some(nm)
                    if nm.pull_from_mirror != om.pull_from_mirror
                        && nm.pull_from_mirror != "digest-only" =>
                {
                    return Some(format!(
                        "mirror `{}` of `{k}` pull-from-mirror changed to `{}`",
                        om.location, nm.pull_from_mirror
                    ))
                }
                Some(_) => {}
            }
        }
        for nm in &n.mirrors {
            if !o.mirrors.iter().any(|m| m.location == nm.location)
                && nm.pull_from_mirror != "digest-only"
                && !n.mirror_by_digest_only
            {
                return Some(format!(
                    "mirror `{}` added to `{k}` without digest-only",
                    nm.location
                ));
            }
        }
    }
    for (k, n) in &new_by {
        if old_by.contains_key(k) {
            continue;
        }
        if n.mirrors.is_empty() && !n.mirror_by_digest_only {
            return Some(format!(
                "registry `{k}` added without mirrors and without mirror-by-digest-only"
            ));
        }
        if let Some(m) = n
            .mirrors
            .iter()
            .find(|m| m.pull_from_mirror != "digest-only")
        {
            return Some(format!(
                "registry `{k}` added with mirror `{}` that is not digest-only",
                m.location
            ));
        }
    }
    None
}

/// The drain decision for a registries.conf change given both texts (missing or unparseable ⇒
/// unsafe).
pub fn drain_reason(old: Option<&str>, new: Option<&str>) -> Option<String> {
    let (Some(old), Some(new)) = (old, new) else {
        return Some(match (old, new) {
            (None, _) => "registries.conf added".into(),
            _ => "registries.conf removed".into(),
        });
    };
    match (parse(old), parse(new)) {
        (Some(o), Some(n)) => unsafe_reason(&o, &n),
        _ => Some("registries.conf is not valid TOML".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = r#"
unqualified-search-registries = ["registry.access.redhat.com", "docker.io"]

[[registry]]
  prefix = ""
  location = "example.com/repo"
  blocked = false
  [[registry.mirror]]
    location = "mirror.example.com/repo"
    pull-from-mirror = "digest-only"

[[registry]]
  location = "blocked.example.com"
  blocked = true
"#;

    fn drain(new: &str) -> bool {
        drain_reason(Some(BASE), Some(new)).is_some()
    }

    fn with(extra: &str) -> String {
        format!("{BASE}{extra}")
    }

    // MCO pkg/daemon/drain_test.go TestIsDrainRequired, no-drain cases.
    #[test]
    fn no_change_is_safe() {
        assert!(!drain(BASE));
    }

    #[test]
    fn new_registry_with_digest_only_mirror_is_safe_even_beside_a_blocked_one() {
        assert!(!drain(&with(
            "\n[[registry]]\n  location = \"new.example.com\"\n  [[registry.mirror]]\n    location = \"m.example.com\"\n    pull-from-mirror = \"digest-only\"\n"
        )));
    }

    #[test]
    fn second_digest_only_mirror_is_safe() {
        let new = BASE.replace(
            "    pull-from-mirror = \"digest-only\"\n",
            "    pull-from-mirror = \"digest-only\"\n  [[registry.mirror]]\n    location = \"m2.example.com/repo\"\n    pull-from-mirror = \"digest-only\"\n",
        );
        assert!(!drain(&new));
    }

    #[test]
    fn appended_search_registry_is_safe() {
        let new = BASE.replace("\"docker.io\"]", "\"docker.io\", \"quay.io\"]");
        assert!(!drain(&new));
    }

    #[test]
    fn mirror_added_to_mirror_by_digest_only_registry_is_safe() {
        let old = "[[registry]]\n  location = \"a.io\"\n  mirror-by-digest-only = true\n  [[registry.mirror]]\n    location = \"m1.io\"\n";
        let new = format!("{old}  [[registry.mirror]]\n    location = \"m2.io\"\n");
        assert!(drain_reason(Some(old), Some(&new)).is_none());
    }

    // Drain cases.
    #[test]
    fn new_registry_without_mirrors_drains() {
        assert!(drain(&with(
            "\n[[registry]]\n  location = \"new.example.com\"\n"
        )));
    }

    #[test]
    fn new_registry_without_mirrors_but_digest_only_is_safe() {
        assert!(!drain(&with(
            "\n[[registry]]\n  location = \"new.example.com\"\n  mirror-by-digest-only = true\n"
        )));
    }

    #[test]
    fn registry_removed_drains() {
        let new = BASE.replace(
            "[[registry]]\n  location = \"blocked.example.com\"\n  blocked = true\n",
            "",
        );
        assert!(drain(&new));
    }

    #[test]
    fn mirror_without_digest_only_drains() {
        let new = BASE.replace(
            "    pull-from-mirror = \"digest-only\"\n",
            "    pull-from-mirror = \"digest-only\"\n  [[registry.mirror]]\n    location = \"m2.example.com/repo\"\n",
        );
        assert!(drain(&new));
        let tag = BASE.replace(
            "    pull-from-mirror = \"digest-only\"\n",
            "    pull-from-mirror = \"digest-only\"\n  [[registry.mirror]]\n    location = \"m2.example.com/repo\"\n    pull-from-mirror = \"tag-only\"\n",
        );
        assert!(drain(&tag));
    }

    #[test]
    fn mirror_removed_or_digest_only_lost_drains() {
        let new = BASE.replace(
            "  [[registry.mirror]]\n    location = \"mirror.example.com/repo\"\n    pull-from-mirror = \"digest-only\"\n",
            "",
        );
        assert!(drain(&new));
        let lost = BASE.replace(
            "pull-from-mirror = \"digest-only\"",
            "pull-from-mirror = \"all\"",
        );
        assert!(drain(&lost));
    }

    #[test]
    fn search_registry_removed_or_reordered_drains() {
        assert!(drain(&BASE.replace(", \"docker.io\"", "")));
        assert!(drain(&BASE.replace(
            "[\"registry.access.redhat.com\", \"docker.io\"]",
            "[\"docker.io\", \"registry.access.redhat.com\"]"
        )));
    }

    #[test]
    fn prefix_or_blocked_changed_drains() {
        assert!(drain(
            &BASE.replace("prefix = \"\"", "prefix = \"example.com\"")
        ));
        assert!(drain(&BASE.replace("blocked = false", "blocked = true")));
    }

    #[test]
    fn removal_and_garbage_drain() {
        assert!(drain_reason(Some(BASE), None).is_some());
        assert!(drain_reason(Some(BASE), Some("[[registry")).is_some());
    }

    #[test]
    fn generated_toml_round_trips() {
        let mut c = template();
        c.add_mirrors("a.io/x", &["m.io/x".into()], "digest-only", true);
        c.entry("insecure.io").insecure = true;
        assert_eq!(parse(&c.to_toml()), Some(c));
    }
}
