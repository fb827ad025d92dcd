//! Ignition's checks of a resource `source` and `verification.hash` (`validateURL`,
//! `Verification.Validate` of each spec version), including the strict data URL grammar of
//! `vincent-petithory/dataurl` that Ignition decodes inline contents with.

use base64::Engine;

/// Which URL schemes and hash functions a spec version accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spec {
    /// 2.2 (and 2.0/2.1, which the MCO translates to 2.2).
    V2,
    /// 3.`minor`.0.
    V3(u8),
}

/// Why Ignition rejects a resource source (an empty source is fine: the file is empty).
pub fn source_error(spec: Spec, s: &str) -> Option<String> {
    if s.is_empty() {
        return None;
    }
    let scheme = match go_url_scheme(s) {
        Ok(scheme) => scheme,
        Err(e) => return Some(format!("unable to parse url ({e})")),
    };
    match (spec, scheme.as_str()) {
        (_, "http" | "https" | "tftp") => None,
        (Spec::V2, "oem") => None,
        (Spec::V3(m), "gs") if m >= 2 => None,
        (_, "s3") => s3_version_error(s),
        (Spec::V3(m), "arn") if m >= 4 => arn_error(s),
        (_, "data") => data_url_error(s).map(|e| format!("invalid data URL: {e}")),
        _ => Some(format!(
            "invalid url scheme `{scheme}` (accepted: {})",
            schemes(spec)
        )),
    }
}

fn schemes(spec: Spec) -> &'static str {
    match spec {
        Spec::V2 => "http, https, tftp, s3, oem, data",
        Spec::V3(m) if m >= 4 => "http, https, tftp, gs, s3, arn, data",
        Spec::V3(m) if m >= 2 => "http, https, tftp, gs, s3, data",
        Spec::V3(_) => "http, https, tftp, s3, data",
    }
}

/// The scheme as Go's `url.Parse` finds it (lower-cased), or its error.
fn go_url_scheme(s: &str) -> Result<String, &'static str> {
    if s.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return Err("invalid control character in URL");
    }
    // The scheme ends at the first character no scheme holds (`#`, where the fragment starts,
    // among them): the rest of the URL, megabytes of a data URL, is not read here.
    for (i, c) in s.char_indices() {
        match c {
            'a'..='z' | 'A'..='Z' => {}
            '0'..='9' | '+' | '-' | '.' if i > 0 => {}
            ':' if i == 0 => return Err("missing protocol scheme"),
            ':' => return Ok(s[..i].to_ascii_lowercase()),
            _ => break,
        }
    }
    // No scheme: a relative reference; a colon in its first segment is an error.
    let before_fragment = s.split('#').next().unwrap_or(s);
    let first = before_fragment.split('/').next().unwrap_or("");
    if first.contains(':') {
        return Err("first path segment in URL cannot contain colon");
    }
    Ok(String::new())
}

fn query_value<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    let query = s.split('#').next()?.split_once('?')?.1;
    query.split(['&', ';']).find_map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        (k == key).then_some(v)
    })
}

fn s3_version_error(s: &str) -> Option<String> {
    match query_value(s, "versionId") {
        Some("") => Some("invalid S3 object VersionId (empty `versionId`)".into()),
        _ => None,
    }
}

/// `arn.IsARN` / `arn.Parse` for an S3 object: `arn:partition:s3:region:account:bucket/key`.
fn arn_error(s: &str) -> Option<String> {
    let full = s.split(['?', '#']).next().unwrap_or(s);
    let sections: Vec<&str> = full.splitn(6, ':').collect();
    if sections.len() < 6 || sections[0] != "arn" {
        return Some("invalid S3 ARN format".into());
    }
    if sections[2] != "s3" {
        return Some("invalid S3 ARN format (the service is not s3)".into());
    }
    let parts = full.split('/').count();
    let needed = if sections[5].starts_with("accesspoint/") {
        3
    } else {
        2
    };
    if parts < needed {
        return Some("invalid S3 ARN format (no object key)".into());
    }
    s3_version_error(s)
}

// The character classes are tested on bytes: each holds only ASCII, so a byte over 0x7f (part of
// a multibyte character) is outside every class, as the character is. A payload is megabytes at
// most and every MachineConfig's sources are read, so each class is a table, looked up once per
// byte.

/// Printable ASCII (a space to `~`) less `excluded`, as a table by byte.
const fn printable_except(excluded: &[u8]) -> [bool; 256] {
    let mut class = [false; 256];
    let mut b = 0x20;
    while b < 0x7f {
        class[b] = true;
        b += 1;
    }
    let mut i = 0;
    while i < excluded.len() {
        class[excluded[i] as usize] = false;
        i += 1;
    }
    class
}

/// Go's `mime` token characters (RFC 2045: no controls, spaces or tspecials).
const TOKEN: [bool; 256] = printable_except(b" ()<>@,;:\\\"/[]?=");

/// The characters a URL holds unescaped, as `dataurl`'s decoder accepts them.
const URL_CHAR: [bool; 256] = printable_except(b" <>#\"{}|\\^[]`");

fn is_token(c: u8) -> bool {
    TOKEN[usize::from(c)]
}

fn is_url_char(c: u8) -> bool {
    URL_CHAR[usize::from(c)]
}

fn is_base64_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=' | b'\n')
}

/// `dataurl.DecodeString`: the lexer's and decoder's first error.
pub fn data_url_error(s: &str) -> Option<String> {
    let Some(rest) = s.strip_prefix("data:") else {
        return Some("missing data prefix (`data:`, lower case)".into());
    };
    // The header is ASCII where it is valid (a byte over 0x7f is an invalid character wherever
    // it stands), so it is read byte by byte: a payload of megabytes is not copied into `char`s.
    let chars = rest.as_bytes();
    let mut i = 0;
    let mut base64 = false;
    let err = |m: &str| Some(m.to_string());
    // Media type (optional), then parameters, then `,`.
    match chars.first() {
        None => return err("missing comma before data"),
        Some(b';') | Some(b',') => {}
        Some(&c) if is_token(c) => {
            let start = i;
            let x_token = (c == b'x' || c == b'X') && chars.get(1) == Some(&b'-');
            loop {
                match chars.get(i) {
                    Some(b'/') => break,
                    None => return err("missing media type slash"),
                    Some(&c) if is_token(c) => i += 1,
                    Some(_) => return err("invalid character for media type"),
                }
            }
            let media = &rest[start..i];
            let known = [
                "text",
                "image",
                "audio",
                "video",
                "application",
                "message",
                "multipart",
            ]
            .iter()
            .any(|p| media.starts_with(p));
            if !x_token && !known {
                return err("invalid media type");
            }
            i += 1;
            loop {
                match chars.get(i) {
                    Some(b';') | Some(b',') => break,
                    None => return err("incomplete media type"),
                    Some(&c) if is_token(c) => i += 1,
                    Some(_) => return err("invalid character for media subtype"),
                }
            }
        }
        Some(_) => return err("invalid character after data prefix"),
    }
    while chars.get(i) == Some(&b';') {
        i += 1;
        match chars.get(i) {
            None | Some(b'=') | Some(b',') => return err("unterminated parameter sequence"),
            Some(&c) if is_token(c) => {}
            Some(_) => return err("invalid character for parameter attribute"),
        }
        let start = i;
        loop {
            match chars.get(i) {
                Some(b'=') => break,
                Some(b',') => {
                    let attr = &rest[start..i];
                    if attr != "base64" {
                        return Some(format!("expected base64, got {attr}"));
                    }
                    base64 = true;
                    break;
                }
                None => return err("unterminated parameter sequence"),
                Some(&c) if is_token(c) => i += 1,
                Some(_) => return err("invalid character for parameter attribute"),
            }
        }
        if base64 {
            break;
        }
        i += 1; // `=`
        match chars.get(i) {
            Some(b'"') => {
                i += 1;
                let start = i;
                loop {
                    match chars.get(i) {
                        None => return err("unclosed quoted string"),
                        Some(b'\\') => match chars.get(i + 1) {
                            None => return err("unexpected eof"),
                            Some(c) if c.is_ascii() => i += 2,
                            Some(_) => return err("invalid escaped character"),
                        },
                        Some(b'"') => break,
                        Some(c) if c.is_ascii() => i += 1,
                        Some(_) => return err("invalid character for parameter value"),
                    }
                }
                let quoted = &rest[start..i];
                if let Some(e) = go_unquote_error(quoted) {
                    return Some(e);
                }
                i += 1;
                match chars.get(i) {
                    Some(b';') | Some(b',') => {}
                    None => return err("missing comma before data"),
                    Some(_) => return err("expected semicolon or comma"),
                }
            }
            None => return err("missing comma before data"),
            Some(&c) if is_token(c) => {
                let start = i;
                loop {
                    match chars.get(i) {
                        Some(b';') | Some(b',') => break,
                        None => return err("missing comma before data"),
                        Some(&c) if is_token(c) => i += 1,
                        Some(_) => return err("invalid character for parameter value"),
                    }
                }
                let value = &rest[start..i];
                if let Err(e) = unescape(value) {
                    return Some(e);
                }
            }
            Some(_) => return err("invalid character for parameter value"),
        }
    }
    match chars.get(i) {
        Some(b',') => i += 1,
        None => return err("missing comma before data"),
        Some(_) => return err("expected semicolon or comma"),
    }
    let data = &rest[i..];
    if base64 {
        if !data.bytes().all(is_base64_char) {
            return err("invalid data character");
        }
        let cleaned: std::borrow::Cow<'_, [u8]> = if data.contains('\n') {
            data.bytes()
                .filter(|c| *c != b'\n')
                .collect::<Vec<u8>>()
                .into()
        } else {
            data.as_bytes().into()
        };
        if let Err(e) = crate::parse::data_url::go_std_base64().decode(&cleaned) {
            return Some(format!("illegal base64 data ({e})"));
        }
    } else {
        if !data.bytes().all(is_url_char) {
            return err("invalid data character");
        }
        if let Err(e) = unescape(data) {
            return Some(e);
        }
    }
    None
}

/// `strconv.Unquote` of a quoted parameter value: only Go escape sequences are allowed.
fn go_unquote_error(inner: &str) -> Option<String> {
    let b = inner.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            let ok = match b.get(i + 1) {
                Some(b'a' | b'b' | b'f' | b'n' | b'r' | b't' | b'v' | b'\\' | b'"') => {
                    i += 2;
                    true
                }
                Some(b'x') => {
                    let ok = b
                        .get(i + 2..i + 4)
                        .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit));
                    i += 4;
                    ok
                }
                Some(b'0'..=b'7') => {
                    let ok = b
                        .get(i + 1..i + 4)
                        .is_some_and(|o| o.iter().all(|c| (b'0'..=b'7').contains(c)));
                    i += 4;
                    ok
                }
                Some(b'u') | Some(b'U') => {
                    let n = if b[i + 1] == b'u' { 4 } else { 8 };
                    let ok = b
                        .get(i + 2..i + 2 + n)
                        .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit));
                    i += 2 + n;
                    ok
                }
                _ => false,
            };
            if !ok {
                return Some("invalid syntax in a quoted parameter value".into());
            }
        } else {
            i += 1;
        }
    }
    None
}

/// The RFC 2396 unescaping of `dataurl.Unescape`.
fn unescape(s: &str) -> Result<(), String> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] >= 0x80 {
            return Err("rfc2396: non-ASCII char detected".into());
        }
        if b[i] == b'%' {
            match (b.get(i + 1), b.get(i + 2)) {
                (None, _) | (Some(_), None) => {
                    return Err("rfc2396: unexpected end of unescape sequence".into())
                }
                (Some(x), Some(y)) if x.is_ascii_hexdigit() && y.is_ascii_hexdigit() => i += 3,
                _ => return Err("rfc2396: invalid char in unescape sequence".into()),
            }
        } else {
            i += 1;
        }
    }
    Ok(())
}

/// Why Ignition rejects a `verification.hash` (`function-hexsum`).
pub fn hash_error(spec: Spec, hash: &str) -> Option<String> {
    let Some((function, sum)) = hash.split_once('-') else {
        return Some("malformed hash specifier (expected `sha512-<hex>`)".into());
    };
    let size = match (spec, function) {
        (_, "sha512") => 64,
        (Spec::V3(m), "sha256") if m >= 1 => 32,
        _ => {
            return Some(format!(
                "unrecognized hash function `{function}` ({})",
                if matches!(spec, Spec::V3(m) if m >= 1) {
                    "sha512 or sha256"
                } else {
                    "only sha512"
                }
            ))
        }
    };
    (sum.len() != size * 2).then(|| {
        format!(
            "incorrect size for hash sum ({} characters, {function} needs {})",
            sum.len(),
            size * 2
        )
    })
}

#[cfg(test)]
mod tests {
    /// The tables hold exactly the classes as Go states them: printable ASCII less the listed
    /// characters (the bytes of multibyte characters in none).
    #[test]
    fn byte_classes_are_the_listed_characters() {
        let class = |b: u8, excluded: &str| {
            b.is_ascii() && !b.is_ascii_control() && !excluded.contains(char::from(b))
        };
        for b in 0..=u8::MAX {
            assert_eq!(super::is_token(b), class(b, " ()<>@,;:\\\"/[]?="), "{b:#x}");
            assert_eq!(super::is_url_char(b), class(b, " <>#\"{}|\\^[]`"), "{b:#x}");
        }
    }

    use super::*;

    /// Go's `url.Parse` scheme: the fragment ends the search for it.
    #[test]
    fn the_scheme_is_what_go_reads() {
        for (url, scheme) in [
            ("HTTPS://x/y", Ok("https")),
            ("data:,a#b", Ok("data")),
            ("s3+x.y-z:/b", Ok("s3+x.y-z")),
            ("a#b:c", Ok("")),
            ("#:", Ok("")),
            ("dir/a:b", Ok("")),
            (":x", Err("missing protocol scheme")),
            (
                "1a:b",
                Err("first path segment in URL cannot contain colon"),
            ),
            (
                "a b:c",
                Err("first path segment in URL cannot contain colon"),
            ),
            ("data:,\u{7f}", Err("invalid control character in URL")),
        ] {
            let scheme: Result<&str, &str> = scheme;
            assert_eq!(
                go_url_scheme(url).as_deref().map_err(|e| *e),
                scheme,
                "{url}"
            );
        }
    }

    #[test]
    fn data_urls_as_ignition_decodes_them() {
        for ok in [
            "data:,hello",
            "data:,a%20b%0A",
            "data:text/plain;charset=utf-8,x%3Dy",
            "data:;base64,aGVsbG8K",
            "data:text/plain;charset=utf-8;base64,aGk=",
            "data:,",
            "data:application/octet-stream;base64,aGk=",
            "data:x-foo/bar,x",
            "data:text/plain;a=\"q\\\"t\",x",
        ] {
            assert_eq!(data_url_error(ok), None, "{ok}");
        }
        for (bad, why) in [
            ("DATA:,x", "missing data prefix"),
            ("data:hello", "missing media type slash"),
            ("data:foo/bar,x", "invalid media type"),
            ("data:,a b", "invalid data character"),
            ("data:,50%", "unexpected end"),
            ("data:,%zz", "invalid char"),
            ("data:;base64,aGk", "illegal base64"),
            ("data:;BASE64,aGk=", "expected base64"),
            ("data:;base64,a Gk=", "invalid data character"),
            ("data:,é", "invalid data character"),
            ("data:;base64,aGé=", "invalid data character"),
            ("data:,a`b", "invalid data character"),
            ("data:te(t/plain,x", "invalid character for media type"),
        ] {
            let e = data_url_error(bad).unwrap_or_default();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    /// The header is read byte by byte: a character outside ASCII anywhere in it is the same
    /// error as before, and the data after the comma is judged whole.
    #[test]
    fn non_ascii_in_the_header_is_the_error_it_always_was() {
        for (url, error) in [
            ("data:té/plain,x", Some("invalid character for media type")),
            (
                "data:text/plaín,x",
                Some("invalid character for media subtype"),
            ),
            ("data:é", Some("invalid character after data prefix")),
            (
                "data:;chärset=x,y",
                Some("invalid character for parameter attribute"),
            ),
            (
                "data:;charset=é,y",
                Some("invalid character for parameter value"),
            ),
            (
                "data:;charset=\"é\",y",
                Some("invalid character for parameter value"),
            ),
            (
                "data:;charset=\"a\\é\",y",
                Some("invalid escaped character"),
            ),
            (
                "data:;charset=a%zz,y",
                Some("rfc2396: invalid char in unescape sequence"),
            ),
            ("data:;charset=\"a,b\",y%2C,z", None),
            ("data:;base64,aGVs\nbG8K", None),
            (
                "data:;base64,aGVs\nbG8",
                Some("illegal base64 data (Invalid padding)"),
            ),
        ] {
            assert_eq!(data_url_error(url).as_deref(), error, "{url}");
        }
    }

    #[test]
    fn schemes_per_spec() {
        assert_eq!(source_error(Spec::V3(4), "https://example.com/x"), None);
        assert_eq!(source_error(Spec::V3(2), "gs://b/x"), None);
        assert!(source_error(Spec::V3(1), "gs://b/x").is_some());
        assert_eq!(source_error(Spec::V2, "oem:///x"), None);
        assert!(source_error(Spec::V3(4), "oem:///x").is_some());
        assert!(source_error(Spec::V3(4), "ftp://x/y").is_some());
        assert!(source_error(Spec::V3(4), "s3://b/k?versionId=").is_some());
        assert_eq!(source_error(Spec::V3(4), "s3://b/k?versionId=1"), None);
        assert_eq!(
            source_error(Spec::V3(5), "arn:aws:s3:us-east-1:123:bucket/key"),
            None
        );
        assert!(source_error(Spec::V3(3), "arn:aws:s3:us-east-1:123:bucket/key").is_some());
        assert!(source_error(Spec::V3(5), "arn:aws:ec2:us-east-1:123:bucket/key").is_some());
        assert!(source_error(Spec::V3(5), "/etc/x").is_some(), "no scheme");
        assert!(source_error(Spec::V3(5), "a:b/c")
            .unwrap()
            .contains("invalid url scheme"));
        assert!(source_error(Spec::V3(5), ":x").unwrap().contains("missing"));
        assert_eq!(source_error(Spec::V3(5), ""), None);
    }

    #[test]
    fn hashes() {
        let sha512 = format!("sha512-{}", "a".repeat(128));
        assert_eq!(hash_error(Spec::V2, &sha512), None);
        assert!(hash_error(Spec::V2, &format!("sha256-{}", "a".repeat(64))).is_some());
        assert_eq!(
            hash_error(Spec::V3(4), &format!("sha256-{}", "a".repeat(64))),
            None
        );
        assert!(hash_error(Spec::V3(4), "sha512-abc")
            .unwrap()
            .contains("incorrect size"));
        assert!(hash_error(Spec::V3(4), "abc")
            .unwrap()
            .contains("malformed"));
        assert!(hash_error(Spec::V3(4), "md5-abc")
            .unwrap()
            .contains("unrecognized"));
    }
}
