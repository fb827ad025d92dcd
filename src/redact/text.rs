//! Masking a file's text for code frames, and the line heuristic that finds private values in
//! documents that did not parse (templated, broken YAML), where no tree says where they are.

use super::PLACEHOLDER;

/// Masks byte ranges: in each line of a range the value is replaced by [`PLACEHOLDER`] (or `*`
/// when shorter) padded with spaces; leading indentation and line breaks are kept, so every
/// offset, line and column of the file stays where it was.
pub fn mask(text: &str, mut ranges: Vec<(usize, usize)>) -> String {
    if ranges.is_empty() {
        return text.to_string();
    }
    let len = text.len();
    for r in &mut ranges {
        r.0 = r.0.min(len);
        r.1 = r.1.min(len);
        while !text.is_char_boundary(r.0) {
            r.0 -= 1;
        }
        while !text.is_char_boundary(r.1) {
            r.1 += 1;
        }
    }
    ranges.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (s, e) in ranges {
        match merged.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    let mut bytes = text.as_bytes().to_vec();
    let placeholder = PLACEHOLDER.as_bytes();
    for (s, e) in merged {
        let mut i = s;
        let mut first = true;
        while i < e {
            let end = bytes[i..e]
                .iter()
                .position(|b| matches!(b, b'\n' | b'\r'))
                .map_or(e, |p| i + p);
            let lead = bytes[i..end]
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t'))
                .count();
            let body = &mut bytes[i + lead..end];
            if !body.is_empty() {
                let fits = body.len() >= placeholder.len();
                for (j, b) in body.iter_mut().enumerate() {
                    *b = match (first, fits) {
                        (true, true) => placeholder.get(j).copied().unwrap_or(b' '),
                        (true, false) => b'*',
                        (false, _) => b' ',
                    };
                }
                first = false;
            }
            i = end;
            while i < e && matches!(bytes[i], b'\n' | b'\r') {
                i += 1;
            }
        }
    }
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Keys whose value is private wherever they are written.
const PRIVATE_KEYS: [&str; 3] = ["passwordHash", ".dockerconfigjson", ".dockercfg"];

/// Byte ranges of values that look private in the raw text: in a document whose `kind` is
/// `Secret`, everything under `data`/`stringData`; anywhere, the value of `passwordHash` and of
/// registry credential keys. Keys stay visible.
pub fn heuristic(text: &str) -> Vec<(usize, usize)> {
    if !text.contains("Secret") && !PRIVATE_KEYS.iter().any(|k| text.contains(k)) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        lines.push((offset, line.trim_end_matches(['\n', '\r'])));
        offset += line.len();
    }
    let docs = lines.split(|(_, l)| l.starts_with("---"));
    for doc in docs {
        let secret = doc.iter().any(|(_, l)| {
            crate::text::yaml_key(l.trim_start()).is_some_and(|(k, v)| {
                k == "kind" && v.trim().trim_matches(['"', '\'', ',']).trim() == "Secret"
            })
        });
        // Indentation of the key whose nested lines are private.
        let mut block: Option<usize> = None;
        for &(start, line) in doc {
            let content = line.trim_start();
            let indent = line.len() - content.len();
            if let Some(b) = block {
                if content.is_empty() || content.starts_with('#') {
                    continue;
                }
                if indent > b {
                    let from = match crate::text::yaml_key(content) {
                        Some((_, v)) if !v.trim().is_empty() => line.len() - v.len(),
                        Some(_) => continue,
                        None => indent,
                    };
                    out.push((start + from, start + line.len()));
                    continue;
                }
                block = None;
            }
            let Some((key, value)) = crate::text::yaml_key(content) else {
                continue;
            };
            let opens =
                (secret && (key == "data" || key == "stringData")) || PRIVATE_KEYS.contains(&key);
            if !opens {
                continue;
            }
            let v = value.trim();
            if !v.is_empty() && !v.starts_with('#') {
                out.push((start + line.len() - value.len(), start + line.len()));
            }
            block = Some(indent);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masking_keeps_offsets_and_keys() {
        let text = "kind: Secret\nstringData:\n  password: hunter2-alpha\n  key: |\n    line one\n    line two\n";
        let ranges = heuristic(text);
        let masked = mask(text, ranges);
        assert_eq!(masked.len(), text.len());
        assert_eq!(
            masked,
            "kind: Secret\nstringData:\n  password: <redacted>   \n  key: *\n    ********\n    ********\n"
        );
    }

    #[test]
    fn password_hashes_anywhere_and_json_keys() {
        let text = "{\n  \"passwordHash\": \"$6$abcdefghijkl\",\n  \"name\": \"core\"\n}\n";
        let masked = mask(text, heuristic(text));
        assert!(!masked.contains("abcdefghijkl"), "{masked}");
        assert!(masked.contains("\"passwordHash\":"), "{masked}");
        assert!(masked.contains("\"name\": \"core\""), "{masked}");
    }

    #[test]
    fn other_documents_and_kinds_are_left_alone() {
        let text =
            "kind: ConfigMap\ndata:\n  a: visible\n---\nkind: Secret\ndata:\n  b: aGlkZGVu\n";
        let masked = mask(text, heuristic(text));
        assert!(masked.contains("a: visible"));
        assert!(!masked.contains("aGlkZGVu"));
    }
}
