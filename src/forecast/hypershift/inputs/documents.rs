//! The documents of a NodePool's `spec.config` and `spec.tuningConfig` ConfigMaps, normalised,
//! and the ones the controller refuses (`defaultAndValidateConfigManifest` in HyperShift `hypershift-operator/controllers/nodepool/config.go`).

use nodecast_yaml::{Node, ProblemKind};

use super::{normalise, str_at, ConfigDoc, ConfigRef, InvalidDoc, Side};
use crate::forecast::hypershift::locate::doc_label;
use crate::inventory::ReferenceKind;

impl Side<'_> {
    fn tuning_enabled(&self) -> bool {
        let disabled = self
            .hc
            .and_then(|h| h.root().path(&["spec", "capabilities", "disabled"]))
            .and_then(Node::as_seq)
            .unwrap_or_default();
        !disabled.iter().any(|n| n.as_str() == Some("NodeTuning"))
    }

    pub(super) fn collect_docs(&mut self, np_index: Option<usize>) {
        let tuning_enabled = self.tuning_enabled();
        let mut profiles = 0;
        let inv = self.inv;
        for r in np_index.map(|i| inv.references_from(i)).unwrap_or_default() {
            let key = match r.kind {
                ReferenceKind::NodePoolConfig => "config",
                ReferenceKind::NodePoolTuning => "tuning",
                ReferenceKind::NodePoolCluster => continue,
            };
            self.refs.push(ConfigRef {
                name: r.target.name.to_string(),
                key,
                span: r.span,
                resolved: r.resolved.is_some(),
            });
            let Some(cm) = r.resolved.map(|i| &self.inv.objects[i]) else {
                continue;
            };
            if key == "tuning" && !tuning_enabled {
                continue;
            }
            let payload = cm.root().path(&["data", key]);
            let Some(emb) = cm.parsed().embedded.iter().find(|e| e.key == key) else {
                if key == "tuning" {
                    self.invalid.push(InvalidDoc {
                        path: cm.path.to_string(),
                        span: payload.map(|p| p.span()).unwrap_or(cm.root().span()),
                        message: format!(
                            "ConfigMap `{}` has no Tuned or PerformanceProfile under `data.tuning`",
                            cm.id.name
                        ),
                        cm: cm.id.clone(),
                    });
                }
                continue;
            };
            if emb.problems.iter().any(|p| p.kind == ProblemKind::Syntax) {
                self.unreadable_config = true;
            }
            // The payload's own text of each document, for the kinds hashed byte for byte.
            let payload_text = payload.and_then(Node::as_str).unwrap_or_default();
            if key == "tuning" && emb.docs.len() != 1 {
                self.invalid.push(InvalidDoc {
                    path: cm.path.to_string(),
                    span: payload.map(|p| p.span()).unwrap_or(cm.root().span()),
                    message: format!(
                        "ConfigMap `{}` holds {} documents under `data.tuning`; the controller accepts exactly one Tuned or PerformanceProfile",
                        cm.id.name,
                        emb.docs.len()
                    ),
                    cm: cm.id.clone(),
                });
                continue;
            }
            for (i, d) in emb.docs.iter().enumerate() {
                let droot = d.doc.root();
                let api = droot.get("apiVersion").and_then(Node::as_str).unwrap_or("");
                let kind = droot.get("kind").and_then(Node::as_str).unwrap_or("");
                let at = droot.get("kind").map(|k| k.span()).unwrap_or(droot.span());
                let invalid = |message: String| InvalidDoc {
                    path: cm.path.to_string(),
                    span: at,
                    message,
                    cm: cm.id.clone(),
                };
                let label = doc_label(droot, i);
                if key == "config" {
                    let Some(ck) = normalise::config_kind(api, kind) else {
                        let what = if kind.is_empty() {
                            "a document without `kind`".to_string()
                        } else {
                            format!("`{kind}` ({api})")
                        };
                        self.invalid.push(invalid(format!(
                            "ConfigMap `{}` holds {what}, which NodePool `spec.config` does not accept",
                            cm.id.name
                        )));
                        continue;
                    };
                    if kind == "ContainerRuntimeConfig"
                        && str_at(droot, &["spec", "containerRuntimeConfig", "defaultRuntime"])
                            == Some("runc")
                    {
                        self.uses_runc = true;
                    }
                    let raw = if ck == normalise::ConfigKind::Raw {
                        emb.within
                            .get(i)
                            .and_then(|&(a, b)| payload_text.get(a as usize..b as usize))
                            .unwrap_or_default()
                    } else {
                        ""
                    };
                    self.docs.push(ConfigDoc {
                        value: normalise::config_document(ck, droot, raw),
                        cm: cm.id.clone(),
                        key,
                        label,
                        possible: false,
                        overwritten: normalise::overwritten_fields(ck),
                        path: cm.path.to_string(),
                        span: droot.span(),
                    });
                } else {
                    let group = crate::inventory::kinds::group_of(api);
                    let possible = match (group, kind) {
                        ("tuned.openshift.io", "Tuned") => !boot_time_tuned(droot),
                        ("performance.openshift.io", "PerformanceProfile") => {
                            profiles += 1;
                            if profiles > 1 {
                                self.invalid.push(invalid(
                                    "a second PerformanceProfile for the same NodePool; the controller accepts at most one".into(),
                                ));
                                continue;
                            }
                            false
                        }
                        _ => {
                            self.invalid.push(invalid(format!(
                                "ConfigMap `{}` holds `{kind}` under `data.tuning`; only Tuned and PerformanceProfile are accepted",
                                cm.id.name
                            )));
                            continue;
                        }
                    };
                    self.docs.push(ConfigDoc {
                        value: normalise::canonical(&droot.to_json()),
                        cm: cm.id.clone(),
                        key,
                        label,
                        possible,
                        overwritten: &[],
                        path: cm.path.to_string(),
                        span: droot.span(),
                    });
                }
            }
        }
    }
}

/// A Tuned whose profiles set boot-time parameters (a `[bootloader]` section or kernel command
/// line), so NTO renders a MachineConfig.
fn boot_time_tuned(tuned: Node<'_>) -> bool {
    tuned
        .path(&["spec", "profile"])
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter_map(|p| p.get("data").and_then(Node::as_str))
        .any(|data| {
            data.lines().any(|l| {
                let l = l.trim();
                l.eq_ignore_ascii_case("[bootloader]") || l.starts_with("cmdline")
            })
        })
}
