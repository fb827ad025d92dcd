//! Where in a schema the walks after the structural check (the engine's defaulting and CEL walk)
//! have work: defaults to fill, CEL rules to run, list keys to compare. Most fields of a CRD have
//! none of these below them, and a document has thousands of nodes, each a schema lookup or two;
//! so each schema's map of where the work is is built once (held by its catalog entry) and the
//! walks skip every subtree it leaves out. Debug builds check every pruned walk against the full
//! one, in every suite.

use std::collections::HashMap;

use serde_json::Value;

/// One schema node: whether there is work at or below it, and which children lead to some.
#[derive(Debug, Default)]
pub struct Reach {
    /// A default at or below this node (defaulting has something to fill).
    defaults: bool,
    /// CEL rules or a `map`/`set` list type at or below this node (the rules walk has something
    /// to run or compare).
    rules: bool,
    /// Some declared property has a default of its own (defaulting inserts at this node).
    own_defaults: bool,
    /// Whether `properties` is an object: a walk then takes a declared property's schema before
    /// `additionalProperties`.
    declared: bool,
    /// The declared properties with work below them; at a node whose `additionalProperties` has
    /// work, every declared property (`None` for those with none), so that a declared name never
    /// falls back to `additionalProperties`.
    properties: HashMap<String, Option<Box<Reach>>>,
    /// `additionalProperties` (an object schema) with work below it.
    additional: Option<Box<Reach>>,
    /// `items` with work below it.
    items: Option<Box<Reach>>,
}

impl Reach {
    /// The map of a whole schema.
    pub fn of(schema: &Value) -> Reach {
        let props = schema.get("properties").and_then(Value::as_object);
        let keep = |r: Reach| (r.defaults || r.rules).then(|| Box::new(r));
        let additional = schema
            .get("additionalProperties")
            .filter(|a| a.is_object())
            .map(Reach::of)
            .and_then(keep);
        let items = schema.get("items").map(Reach::of).and_then(keep);
        let mut properties = HashMap::new();
        let mut own_defaults = false;
        let mut defaults = false;
        let mut rules = false;
        for (name, sub) in props.into_iter().flatten() {
            own_defaults |= sub.get("default").is_some();
            let child = keep(Reach::of(sub));
            defaults |= child.as_ref().is_some_and(|c| c.defaults);
            rules |= child.as_ref().is_some_and(|c| c.rules);
            if child.is_some() || additional.is_some() {
                properties.insert(name.clone(), child);
            }
        }
        let own_rules = schema
            .get("x-kubernetes-validations")
            .and_then(Value::as_array)
            .is_some_and(|r| !r.is_empty())
            || matches!(
                schema.get("x-kubernetes-list-type").and_then(Value::as_str),
                Some("map" | "set")
            );
        let below = |c: &Option<Box<Reach>>, f: fn(&Reach) -> bool| c.as_deref().is_some_and(f);
        Reach {
            defaults: own_defaults
                || defaults
                || below(&items, |c| c.defaults)
                // Defaulting takes `additionalProperties` only where no property is declared.
                || (props.is_none() && below(&additional, |c| c.defaults)),
            rules: own_rules
                || rules
                || below(&additional, |c| c.rules)
                || below(&items, |c| c.rules),
            own_defaults,
            declared: props.is_some(),
            properties,
            additional,
            items,
        }
    }

    /// Whether the rules walk has anything to do at or below this node.
    pub fn has_rules(&self) -> bool {
        self.rules
    }

    /// Whether defaulting has anything to do at or below this node.
    pub fn has_defaults(&self) -> bool {
        self.defaults
    }

    /// Whether a declared property of this node has a default of its own.
    pub fn has_own_defaults(&self) -> bool {
        self.own_defaults
    }

    /// The field `name`'s node as the rules walk chooses it (the declared property, else
    /// `additionalProperties`), when it has rules below it.
    pub fn field_for_rules(&self, name: &str) -> Option<&Reach> {
        let child = match self.properties.get(name) {
            Some(declared) if self.declared => declared.as_deref(),
            _ => self.additional.as_deref(),
        };
        child.filter(|c| c.rules)
    }

    /// The field `name`'s node as defaulting chooses it (the declared property where the schema
    /// declares any, else `additionalProperties`), when it has defaults below it.
    pub fn field_for_defaults(&self, name: &str) -> Option<&Reach> {
        let child = if self.declared {
            self.properties.get(name).and_then(Option::as_deref)
        } else {
            self.additional.as_deref()
        };
        child.filter(|c| c.defaults)
    }

    /// `additionalProperties`' node, when it has work of the kind `rules` names (rules, else
    /// defaults).
    pub fn additional(&self, rules: bool) -> Option<&Reach> {
        self.additional
            .as_deref()
            .filter(|c| if rules { c.rules } else { c.defaults })
    }

    /// The items' node, when it has work of the kind `rules` names (rules, else defaults).
    pub fn items(&self, rules: bool) -> Option<&Reach> {
        self.items
            .as_deref()
            .filter(|c| if rules { c.rules } else { c.defaults })
    }
}

#[cfg(test)]
mod tests {
    use super::Reach;
    use serde_json::json;

    #[test]
    fn only_the_paths_to_defaults_and_rules_are_kept() {
        let schema = json!({
            "type": "object",
            "properties": {
                "plain": {"type": "object", "properties": {"a": {"type": "string"}}},
                "mode": {"type": "string", "default": "Auto"},
                "ruled": {"type": "object", "properties": {
                    "deep": {"type": "string", "x-kubernetes-validations": [{"rule": "self != ''"}]}
                }},
                "set": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
                "atomic": {"type": "array", "x-kubernetes-list-type": "atomic", "items": {"type": "string"}},
                "empty": {"type": "string", "x-kubernetes-validations": []}
            }
        });
        let r = Reach::of(&schema);
        assert!(r.has_rules() && r.has_defaults() && r.has_own_defaults());
        assert!(r.field_for_rules("plain").is_none());
        assert!(r.field_for_rules("atomic").is_none());
        assert!(r.field_for_rules("empty").is_none());
        assert!(r.field_for_rules("mode").is_none());
        assert!(
            r.field_for_defaults("mode").is_none(),
            "its own default is the parent's"
        );
        let ruled = r
            .field_for_rules("ruled")
            .map(|c| c.field_for_rules("deep").is_some());
        assert_eq!(ruled, Some(true));
        assert!(r.field_for_rules("set").is_some());
        assert!(r.field_for_rules("undeclared").is_none());
    }

    #[test]
    fn a_declared_field_never_falls_back_to_additional_properties() {
        let schema = json!({
            "type": "object",
            "properties": {"plain": {"type": "string"}},
            "additionalProperties": {
                "type": "string", "default": "x", "x-kubernetes-validations": [{"rule": "true"}]
            }
        });
        let r = Reach::of(&schema);
        assert!(r.field_for_rules("plain").is_none());
        assert!(r.field_for_rules("other").is_some());
        // Defaulting reads `additionalProperties` only where no property is declared.
        assert!(!r.has_defaults());
        assert!(r.field_for_defaults("other").is_none());
        let open = Reach::of(&json!({"type": "object", "additionalProperties": {
            "type": "object", "properties": {"m": {"type": "string", "default": "y"}}
        }}));
        assert!(open.has_defaults() && open.field_for_defaults("any").is_some());
    }
}
