//! `nodecast schema-coverage`: per bundled schema, how many CEL rules nodecast evaluates.
//! A rule counts as evaluated when it parses and every function it calls is implemented (the
//! CEL standard library, the strings/lists extensions, and [`super::cel::k8s`]).

use super::catalog::{visit_rules, Catalog};
use super::cel;

/// Functions and macros the evaluator implements.
pub const SUPPORTED: &[&str] = &[
    // CEL standard library and macros
    "has",
    "all",
    "exists",
    "exists_one",
    "map",
    "filter",
    "size",
    "matches",
    "startsWith",
    "endsWith",
    "contains",
    "int",
    "uint",
    "double",
    "string",
    "bool",
    "bytes",
    "type",
    "dyn",
    "max",
    "min",
    // optionals
    "orValue",
    "hasValue",
    "value",
    "optional.of",
    "optional.none",
    "optional.ofNonZeroValue",
    "or",
    // strings and lists extensions
    "split",
    "lowerAscii",
    "upperAscii",
    "trim",
    "replace",
    "indexOf",
    "lastIndexOf",
    "join",
    "substring",
    "charAt",
    "reverse",
    "distinct",
    "flatten",
    "sort",
    // Kubernetes library (k8s.rs)
    "isIP",
    "ip",
    "isCIDR",
    "cidr",
    "family",
    "prefixLength",
    "isURL",
    "url",
    "getScheme",
    "getHost",
    "getQuery",
    "getEscapedPath",
    "find",
    "dns1123Subdomain",
    "dns1123Label",
    "dns1035Label",
    "validate",
    "duration",
    "getSeconds",
];

/// The function names a rule calls (receiver and global calls alike).
pub fn called_functions(rule: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = rule.as_bytes();
    let mut in_string: Option<u8> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if let Some(q) = in_string {
            if b == b'\\' {
                i += 2;
                continue;
            }
            if b == q {
                in_string = None;
            }
            i += 1;
            continue;
        }
        if b == b'\'' || b == b'"' {
            in_string = Some(b);
            i += 1;
            continue;
        }
        if b.is_ascii_alphabetic() || b == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let mut j = i;
            while j < bytes.len() && bytes[j] == b' ' {
                j += 1;
            }
            if bytes.get(j) == Some(&b'(') {
                out.push(rule[start..i].to_string());
            }
            continue;
        }
        i += 1;
    }
    out
}

/// Why a rule cannot be evaluated, or `None` when it can.
pub fn unevaluable_reason(rule: &str) -> Option<String> {
    if let Err(e) = cel::compile(rule) {
        return Some(e);
    }
    let missing: Vec<String> = called_functions(rule)
        .into_iter()
        .filter(|f| !SUPPORTED.contains(&f.as_str()))
        .collect();
    (!missing.is_empty()).then(|| format!("unsupported function(s): {}", missing.join(", ")))
}

/// One row of the coverage table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// `group/Kind/version/featureset`.
    pub schema: String,
    /// Rules in the schema.
    pub total: usize,
    /// Rules nodecast evaluates.
    pub evaluated: usize,
    /// (schema path, rule, reason) of the others.
    pub unevaluable: Vec<(String, String, String)>,
}

/// Coverage of every bundled schema.
pub fn bundled() -> Vec<Row> {
    Catalog::bundled()
        .entries()
        .iter()
        .map(|e| {
            let mut row = Row {
                schema: format!("{}/{}/{}/{}", e.group, e.kind, e.version, e.feature_set),
                total: 0,
                evaluated: 0,
                unevaluable: Vec::new(),
            };
            visit_rules(e.schema(), "", &mut |path, rule| {
                row.total += 1;
                match unevaluable_reason(rule) {
                    None => row.evaluated += 1,
                    Some(reason) => {
                        row.unevaluable
                            .push((path.to_string(), rule.to_string(), reason))
                    }
                }
            });
            row
        })
        .collect()
}

/// The table `nodecast schema-coverage` prints.
pub fn render(rows: &[Row], verbose: bool) -> String {
    let mut out = String::from(
        "schema                                                                rules  evaluated\n",
    );
    let (mut total, mut evaluated) = (0, 0);
    for row in rows {
        total += row.total;
        evaluated += row.evaluated;
        out.push_str(&format!(
            "{:<70} {:>5}  {:>9}\n",
            row.schema.trim_start_matches('/'),
            row.total,
            row.evaluated
        ));
        if verbose {
            for (path, rule, reason) in &row.unevaluable {
                out.push_str(&format!("    {path}: `{rule}`: {reason}\n"));
            }
        }
    }
    let pct = if total == 0 {
        100.0
    } else {
        evaluated as f64 * 100.0 / total as f64
    };
    out.push_str(&format!(
        "total                                                                  {total:>5}  {evaluated:>9} ({pct:.1}%)\n"
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn called_functions_skips_string_literals() {
        assert_eq!(
            called_functions("self.matches('a(b)') && isCIDR(self) && has (self.x)"),
            vec!["matches", "isCIDR", "has"]
        );
    }

    #[test]
    fn bundled_coverage_meets_the_target() {
        let rows = bundled();
        let total: usize = rows.iter().map(|r| r.total).sum();
        let evaluated: usize = rows.iter().map(|r| r.evaluated).sum();
        assert!(total > 500, "bundled schemas carry their rules ({total})");
        let unevaluable: Vec<_> = rows.iter().flat_map(|r| r.unevaluable.clone()).collect();
        assert!(
            evaluated * 100 >= total * 95,
            "{evaluated}/{total} evaluated; not: {unevaluable:#?}"
        );
    }
}
