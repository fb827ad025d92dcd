//! Kubernetes label selectors (`matchLabels` + `matchExpressions`), because pools pick
//! MachineConfigs and KubeletConfigs pick pools with them.

use std::collections::BTreeMap;

use nodecast_yaml::{Node, Span};

/// Labels of an object.
pub type Labels = BTreeMap<String, String>;

/// One `matchExpressions` requirement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requirement {
    /// Label key.
    pub key: String,
    /// `In`, `NotIn`, `Exists` or `DoesNotExist`.
    pub operator: Operator,
    /// Values (for `In` / `NotIn`).
    pub values: Vec<String>,
}

/// Selector operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operator {
    /// Label present with one of the values.
    In,
    /// Label absent, or present with none of the values.
    NotIn,
    /// Label present.
    Exists,
    /// Label absent.
    DoesNotExist,
}

/// A parsed label selector.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selector {
    /// `matchLabels`.
    pub labels: Labels,
    /// `matchExpressions`.
    pub expressions: Vec<Requirement>,
}

/// Why a selector is invalid (the API server would reject it), with where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectorError {
    /// What is wrong.
    pub message: String,
    /// Where.
    pub span: Span,
}

impl Selector {
    /// True for `{}`: selects everything.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty() && self.expressions.is_empty()
    }

    /// Full label-selector semantics: every matchLabels pair and every requirement hold.
    pub fn matches(&self, labels: &Labels) -> bool {
        self.labels.iter().all(|(k, v)| labels.get(k) == Some(v))
            && self.expressions.iter().all(|r| {
                let value = labels.get(&r.key);
                match r.operator {
                    Operator::In => value.is_some_and(|v| r.values.contains(v)),
                    Operator::NotIn => value.is_none_or(|v| !r.values.contains(v)),
                    Operator::Exists => value.is_some(),
                    Operator::DoesNotExist => value.is_none(),
                }
            })
    }
}

/// The string value of a scalar as a label (booleans and numbers are written as text).
fn scalar_text(node: Node<'_>) -> Option<String> {
    match node.kind() {
        nodecast_yaml::NodeKind::Scalar { text, value, .. } => match value {
            nodecast_yaml::Scalar::Null => Some(String::new()),
            _ => Some(text.to_string()),
        },
        _ => None,
    }
}

/// Reads the labels of an object's `metadata.labels`.
pub fn labels_of(root: Node<'_>) -> Labels {
    root.path(&["metadata", "labels"])
        .and_then(Node::as_map)
        .unwrap_or_default()
        .iter()
        .filter_map(|e| Some((e.key.key_text()?.to_string(), scalar_text(e.value)?)))
        .collect()
}

/// Parses a selector node; invalid parts are reported (the selector then matches nothing).
pub fn parse(node: Node<'_>) -> Result<Selector, SelectorError> {
    let err = |message: String, span: Span| SelectorError { message, span };
    if node.is_null() {
        return Ok(Selector::default());
    }
    if node.as_map().is_none() {
        return Err(err(
            format!(
                "a label selector must be a mapping, not a {}",
                node.type_name()
            ),
            node.span(),
        ));
    }
    let mut sel = Selector::default();
    if let Some(ml) = node.get("matchLabels") {
        if !ml.is_null() {
            let entries = ml.as_map().ok_or_else(|| {
                err(
                    "`matchLabels` must be a mapping of label to value".into(),
                    ml.span(),
                )
            })?;
            for e in entries {
                let key = e.key.key_text().unwrap_or_default().to_string();
                let value = scalar_text(e.value).ok_or_else(|| {
                    err(
                        format!("label `{key}` must have a string value"),
                        e.value.span(),
                    )
                })?;
                sel.labels.insert(key, value);
            }
        }
    }
    if let Some(me) = node.get("matchExpressions") {
        if !me.is_null() {
            let items = me
                .as_seq()
                .ok_or_else(|| err("`matchExpressions` must be a list".into(), me.span()))?;
            for item in items {
                sel.expressions.push(requirement(item)?);
            }
        }
    }
    Ok(sel)
}

fn requirement(item: Node<'_>) -> Result<Requirement, SelectorError> {
    let err = |message: String, span: Span| SelectorError { message, span };
    let key = item
        .get("key")
        .and_then(Node::as_str)
        .ok_or_else(|| {
            err(
                "a match expression needs a string `key`".into(),
                item.span(),
            )
        })?
        .to_string();
    let op_node = item.get("operator").ok_or_else(|| {
        err(
            format!("match expression on `{key}` has no `operator`"),
            item.span(),
        )
    })?;
    let operator = match op_node.as_str() {
        Some("In") => Operator::In,
        Some("NotIn") => Operator::NotIn,
        Some("Exists") => Operator::Exists,
        Some("DoesNotExist") => Operator::DoesNotExist,
        _ => {
            return Err(err(
                format!(
                    "operator `{}` is not one of In, NotIn, Exists, DoesNotExist",
                    op_node.key_text().unwrap_or("?")
                ),
                op_node.span(),
            ))
        }
    };
    let values: Vec<String> = item
        .get("values")
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter_map(scalar_text)
        .collect();
    match operator {
        Operator::In | Operator::NotIn if values.is_empty() => Err(err(
            format!("operator {operator:?} on `{key}` needs at least one value"),
            op_node.span(),
        )),
        Operator::Exists | Operator::DoesNotExist if !values.is_empty() => Err(err(
            format!("operator {operator:?} on `{key}` must not have values"),
            op_node.span(),
        )),
        _ => Ok(Requirement {
            key,
            operator,
            values,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sel(yaml: &str) -> Result<Selector, SelectorError> {
        let parsed = nodecast_yaml::parse(yaml, &nodecast_yaml::Options::default());
        parse(parsed.documents[0].root())
    }

    fn labels(pairs: &[(&str, &str)]) -> Labels {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn match_labels_and_expressions() {
        let s = sel("matchLabels: {a: x}\nmatchExpressions:\n- {key: role, operator: In, values: [worker, infra]}\n").unwrap();
        assert!(s.matches(&labels(&[("a", "x"), ("role", "infra")])));
        assert!(!s.matches(&labels(&[("a", "x"), ("role", "master")])));
        assert!(!s.matches(&labels(&[("role", "worker")])));
    }

    #[test]
    fn not_in_matches_absent_labels() {
        let s =
            sel("matchExpressions:\n- {key: role, operator: NotIn, values: [master]}\n").unwrap();
        assert!(s.matches(&labels(&[])));
        assert!(s.matches(&labels(&[("role", "worker")])));
        assert!(!s.matches(&labels(&[("role", "master")])));
    }

    #[test]
    fn exists_and_does_not_exist() {
        let s = sel(
            "matchExpressions:\n- {key: a, operator: Exists}\n- {key: b, operator: DoesNotExist}\n",
        )
        .unwrap();
        assert!(s.matches(&labels(&[("a", "")])));
        assert!(!s.matches(&labels(&[("a", ""), ("b", "1")])));
        assert!(!s.matches(&labels(&[])));
    }

    #[test]
    fn empty_selector_selects_everything_and_bad_ones_are_errors() {
        assert!(sel("{}").unwrap().is_empty());
        assert!(sel("matchExpressions:\n- {key: a, operator: Has}\n").is_err());
        assert!(sel("matchExpressions:\n- {key: a, operator: In}\n").is_err());
        assert!(sel("matchExpressions:\n- {key: a, operator: Exists, values: [x]}\n").is_err());
    }
}
