//! Which `{{ … }}` in a YAML file a renderer executes before the YAML is read (Helm, a Go
//! template): those make the file a template, not a manifest (Y005, Y010). Every other `{{` is
//! data the cluster sees as written — a Prometheus alert's `{{ $labels.pod }}`, an External
//! Secrets template, a commented-out line, a task runner's `{{.cluster}}` — and reporting it cried
//! wolf on real repositories.

use nodecast_yaml::{Node, NodeKind, Parsed, ProblemKind, ScalarStyle};

/// Byte offsets of the template actions a renderer would execute, in order.
///
/// A file whose YAML does not parse keeps every `{{` (what they do cannot be told). In a file
/// that parses, an action is data when it is:
/// - inside a quoted or block string value;
/// - in a file that no Go template engine renders: one action names a variable (`$labels`) the
///   file never declares, which `text/template` refuses to parse (Helm could not render it), or
///   is ACM's (`{{hub … hub}}`, `fromSecret`, …), which the policy framework fills in;
/// - in a file that holds no API object: every document is a mapping with neither `apiVersion`
///   nor `kind` (a task runner's file, a tool's configuration read by a generator);
/// - inside an External Secrets template (`spec.target.template`), which the operator renders;
/// - in a comment, when its output cannot leave the comment: no whitespace trimming (`{{-`,
///   `-}}`), no function that writes lines (`indent`, `nindent`, `toYaml`, `include`, `tpl`,
///   `template`).
pub fn actions(text: &str, parsed: &Parsed) -> Vec<usize> {
    let all = text.match_indices("{{").map(|(i, _)| i);
    if parsed
        .problems
        .iter()
        .any(|p| p.kind == ProblemKind::Syntax)
    {
        return all.collect();
    }
    if text.find("{{").is_none() || not_a_go_template(text) || holds_no_object(text, parsed) {
        return Vec::new();
    }
    let mut protected: Vec<(usize, usize)> = Vec::new();
    for doc in &parsed.documents {
        let root = doc.root();
        collect_string_spans(root, &mut protected);
        if let Some(t) = external_secret_template(root) {
            protected.push(t.offsets());
        }
    }
    all.filter(|&i| !protected.iter().any(|&(s, e)| s <= i && i < e))
        .filter(|&i| !in_a_comment(text, i) || leaves_its_comment(text, i))
        .collect()
}

/// Functions only ACM's template engine defines (Helm and Go's own define none of them).
const ACM_FUNCTIONS: [&str; 11] = [
    "fromSecret",
    "fromConfigMap",
    "fromClusterClaim",
    "copySecretData",
    "copyConfigMapData",
    "protect",
    "base64dec",
    "base64enc",
    "autoindent",
    "getNodesWithExactRoles",
    "hasNodesWithExactRoles",
];

/// Whether some action cannot be parsed by the Go template engine a renderer runs before the
/// apply: it names a `$variable` the file never declares (Go's `text/template` refuses the whole
/// file: these are Prometheus, Alertmanager and Loki rules, filled in when an alert fires), or
/// it is ACM's (`{{hub … hub}}`, a function only ACM defines: the policy framework fills it in on
/// the hub or the managed cluster). Either way no renderer executes any action of the file.
fn not_a_go_template(text: &str) -> bool {
    text.match_indices("{{").any(|(i, _)| {
        let body = &text[i + 2..];
        let end = body.find("}}").unwrap_or(body.len());
        let body = &body[..end];
        let (vars, words) = names(body);
        body.starts_with("hub ")
            || body.starts_with("hub\t")
            || words.iter().any(|w| ACM_FUNCTIONS.contains(w))
            || vars.iter().any(|name| !declared(text, name))
    })
}

/// The `$name` variables and the bare words an action's body uses outside its string literals
/// (`$` alone and `$.x` are the root context, always defined; `.x` fields are not words).
fn names(body: &str) -> (Vec<&str>, Vec<&str>) {
    let bytes = body.as_bytes();
    let mut names = Vec::new();
    let mut words = Vec::new();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(q) if b == b'\\' && q == b'"' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'`' || b == b'\'' => quote = Some(b),
            None if b == b'$' => {
                let rest = &body[i + 1..];
                let len = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                if len > 0 {
                    names.push(&rest[..len]);
                    i += len;
                }
            }
            None if b.is_ascii_alphabetic() && (i == 0 || !is_word_byte(bytes[i - 1])) => {
                let rest = &body[i..];
                let len = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                words.push(&rest[..len]);
                i += len - 1;
            }
            None => {}
        }
        i += 1;
    }
    (names, words)
}

/// A byte that continues a name or a field (`.x`, `$x`, `a_b`).
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'$'
}

/// Whether the file declares `$name` (`$name :=`, or `range $name, $v :=`).
fn declared(text: &str, name: &str) -> bool {
    let var = format!("${name}");
    text.match_indices(&var).any(|(i, _)| {
        let after = &text[i + var.len()..];
        if after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            return false;
        }
        let after = after.trim_start_matches([' ', '\t']);
        after.starts_with(":=") || after.starts_with(',')
    })
}

/// Whether every document is a mapping written as a block, with neither `apiVersion` nor `kind`:
/// the file configures a tool; it is not an API object, templated or not. (A document that is
/// an action itself — a flow mapping at its start — might render to anything.)
fn holds_no_object(text: &str, parsed: &Parsed) -> bool {
    let mut mappings = 0;
    for doc in &parsed.documents {
        let root = doc.root();
        match root.kind() {
            NodeKind::Map(_) => {
                let (start, _) = root.offsets();
                if text[start..].starts_with('{') {
                    return false;
                }
                if root.get("apiVersion").is_some() || root.get("kind").is_some() {
                    return false;
                }
                mappings += 1;
            }
            NodeKind::Scalar { .. } if root.is_null() => {}
            _ => return false,
        }
    }
    mappings > 0
}

/// The template of an External Secrets `ExternalSecret` or `ClusterExternalSecret`: the
/// operator renders it (its `{{ .KEY }}` are the secret's values), not a tool before the apply.
fn external_secret_template(root: Node<'_>) -> Option<Node<'_>> {
    let api = root.get("apiVersion")?.as_str()?;
    if !api.starts_with("external-secrets.io/") {
        return None;
    }
    let spec = root.get("spec")?;
    let spec = match root.get("kind")?.as_str()? {
        "ExternalSecret" => spec,
        "ClusterExternalSecret" => spec.get("externalSecretSpec")?,
        _ => return None,
    };
    spec.get("target")?.get("template")
}

/// Whether offset `at` is inside a YAML comment: a `#` at the start of its line or after a blank,
/// outside quotes, comes before it on its line (string values are protected before this).
fn in_a_comment(text: &str, at: usize) -> bool {
    let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    nodecast_yaml::comment_start(&text[line_start..at]).is_some()
}

/// Whether the action at `at` (in a comment) can write outside it: trimming whitespace joins
/// lines, and these functions write lines of their own. Such an action is executed by Helm even
/// in a commented-out line.
fn leaves_its_comment(text: &str, at: usize) -> bool {
    let line_end = text[at..].find('\n').map_or(text.len(), |n| at + n);
    let line = &text[at..line_end];
    let Some(close) = line.find("}}") else {
        return true;
    };
    let body = &line[2..close];
    if body.starts_with('-') || body.ends_with('-') {
        return true;
    }
    ["indent", "toYaml", "include", "tpl", "template", "toJson"]
        .iter()
        .any(|f| body.contains(f))
}

fn collect_string_spans(node: Node<'_>, out: &mut Vec<(usize, usize)>) {
    match node.kind() {
        NodeKind::Scalar { style, .. } => {
            if style != ScalarStyle::Plain {
                out.push(node.offsets());
            }
        }
        NodeKind::Seq(items) => items.iter().for_each(|n| collect_string_spans(n, out)),
        NodeKind::Map(entries) => entries.iter().for_each(|e| {
            collect_string_spans(e.key, out);
            collect_string_spans(e.value, out);
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<usize> {
        let parsed = nodecast_yaml::parse(text, &nodecast_yaml::Options::default());
        actions(text, &parsed)
    }

    #[test]
    fn a_helm_value_is_an_action_and_a_quoted_one_is_data() {
        let text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.name }}\ndata:\n  a: \"{{ .Values.a }}\"\n";
        assert_eq!(found(text), [text.find("{{").unwrap()]);
    }

    #[test]
    fn a_prometheus_variable_makes_the_file_data() {
        let text = "apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nmetadata:\n  name: r\nspec:\n  groups:\n  - name: g\n    rules:\n    - alert: A\n      annotations:\n        description: Pod {{ $labels.pod }} is slow ({{ printf \"%.0f\" $value }}s).\n";
        assert_eq!(found(text), Vec::<usize>::new());
    }

    #[test]
    fn a_declared_variable_or_the_root_context_is_still_helm() {
        let text = "{{- $name := .Values.name }}\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x-{{ $name }}\n  namespace: x-{{ $.Release.Namespace }}\n";
        // `{{- $name := …}}` on a line of its own does not parse as YAML: every action counts.
        assert_eq!(found(text).len(), 3);
        let text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x-{{ $.Release.Name }}\n";
        assert_eq!(found(text), [text.find("{{").unwrap()]);
        let text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x-{{ \"$labels\" }}\n";
        assert_eq!(found(text), [text.find("{{").unwrap()]);
    }

    #[test]
    fn an_acm_template_is_the_policy_frameworks_and_a_helm_function_is_not() {
        let policy = "apiVersion: operator.quay.redhat.com/v1\nkind: QuayIntegration\nmetadata:\n  name: q\nspec:\n  quayHostname: https://{{hub fromConfigMap \"\" \"quay\" \"host\" hub}}\n";
        assert_eq!(found(policy), Vec::<usize>::new());
        let policy = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  url: http://kafka:9092/{{ fromSecret \"ns\" \"s\" \"k\" | base64dec }}topic\n";
        assert_eq!(found(policy), Vec::<usize>::new());
        // `lookup` is Helm's too: the file may be a chart's.
        let helm = "apiVersion: console.openshift.io/v1\nkind: ConsoleLink\nmetadata:\n  name: c\nspec:\n  href: https://{{ (lookup \"v1\" \"Route\" \"ns\" \"r\").spec.host }}\n";
        assert_eq!(found(helm), [helm.find("{{").unwrap()]);
        // A field named like an ACM function is not a call of it.
        let helm =
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c-{{ .Values.fromSecret }}\n";
        assert_eq!(found(helm), [helm.find("{{").unwrap()]);
    }

    #[test]
    fn a_file_with_no_api_object_is_data() {
        let text = "---\nversion: \"3\"\ntasks:\n  sync:\n    cmd: kubectl --context {{.cluster}} get ns\n";
        assert_eq!(found(text), Vec::<usize>::new());
        // A document that is an action itself might render to anything.
        let text = "{{ .Values.everything }}\n";
        assert_eq!(found(text), [0]);
    }

    #[test]
    fn an_external_secrets_template_is_the_operators() {
        let text = "apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata:\n  name: s\nspec:\n  target:\n    template:\n      data:\n        URL: postgres://{{ .USER }}:{{ .PASS }}@db:5432/x\n  dataFrom:\n  - extract:\n      key: db\n";
        assert_eq!(found(text), Vec::<usize>::new());
        // Outside the template, the same text is a Helm value.
        let helm = text.replace(
            "  target:\n    template:\n      data:\n",
            "  other:\n    template:\n      data:\n",
        );
        assert_eq!(found(&helm).len(), 2);
    }

    #[test]
    fn a_commented_action_is_data_unless_it_can_leave_the_comment() {
        let text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a # was {{ .Values.name }}\ndata:\n  # b: \"{{ .Values.b }}\"\n  c: d\n";
        assert_eq!(found(text), Vec::<usize>::new());
        for action in [
            "{{- .Values.b }}",
            "{{ .Values.b -}}",
            "{{ toYaml .Values.b | nindent 2 }}",
        ] {
            let text = format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  # {action}\n  c: d\n");
            assert_eq!(found(&text), [text.find("{{").unwrap()], "{action}");
        }
        // A `#` inside a quoted value does not start a comment.
        let text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  c: x-{{ .Values.c }}\n  d: \"#\" \n";
        assert_eq!(found(text), [text.find("{{").unwrap()]);
    }
}
