//! Scalar resolution as Kubernetes does it.
//!
//! sigs.k8s.io/yaml decodes with go-yaml v2, whose `resolve` function implements YAML 1.1 rules for
//! plain scalars. This module mirrors that function (see go-yaml v2 `resolve.go`), and reports the
//! places where a YAML 1.2 reader would see something else.

use crate::{Ambiguity, Scalar, ScalarStyle};

/// The tag handle saphyr gives `!!` (unless a `%TAG` directive overrides it).
const CORE: &str = "tag:yaml.org,2002:";

/// Resolves a scalar's value from its text, style and (resolved) tag, and tells whether the
/// reading is one where YAML 1.1 and YAML 1.2 disagree.
pub(crate) fn resolve(
    text: &str,
    style: ScalarStyle,
    tag: Option<(&str, &str)>,
) -> (Scalar, Option<Ambiguity>) {
    match tag {
        None if style == ScalarStyle::Plain => resolve_plain(text),
        None => (Scalar::Str, None),
        Some((handle, suffix)) if handle == CORE => (resolve_tagged(text, suffix), None),
        // Custom and non-specific (`!`) tags: go-yaml keeps the text.
        Some(_) => (Scalar::Str, None),
    }
}

/// An explicit core-schema tag: the text is read as that type when it can be, else kept as text.
fn resolve_tagged(text: &str, suffix: &str) -> Scalar {
    let (plain, _) = resolve_plain(text);
    match (suffix, plain) {
        ("null", Scalar::Null) => Scalar::Null,
        ("bool", Scalar::Bool(b)) => Scalar::Bool(b),
        ("int", Scalar::Int(i)) => Scalar::Int(i),
        ("float", Scalar::Float(f)) => Scalar::Float(f),
        ("float", Scalar::Int(i)) => Scalar::Float(i as f64),
        _ => Scalar::Str,
    }
}

/// Resolves an untagged plain scalar the way go-yaml v2 does.
pub(crate) fn resolve_plain(s: &str) -> (Scalar, Option<Ambiguity>) {
    let fixed = match s {
        "" | "~" | "null" | "Null" | "NULL" => Some((Scalar::Null, None)),
        "true" | "True" | "TRUE" => Some((Scalar::Bool(true), None)),
        "false" | "False" | "FALSE" => Some((Scalar::Bool(false), None)),
        "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => {
            Some((Scalar::Bool(true), Some(Ambiguity::Boolean)))
        }
        "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => {
            Some((Scalar::Bool(false), Some(Ambiguity::Boolean)))
        }
        ".nan" | ".NaN" | ".NAN" => Some((Scalar::Float(f64::NAN), None)),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            Some((Scalar::Float(f64::INFINITY), None))
        }
        "-.inf" | "-.Inf" | "-.INF" => Some((Scalar::Float(f64::NEG_INFINITY), None)),
        _ => None,
    };
    if let Some(r) = fixed {
        return r;
    }
    match s.as_bytes().first() {
        Some(b'.') => {
            // go-yaml: strconv.ParseFloat on the text as is.
            if is_dot_float(s) {
                if let Some(f) = finite_float(s) {
                    return (Scalar::Float(f), None);
                }
            }
            (Scalar::Str, None)
        }
        Some(b'+' | b'-' | b'0'..=b'9') => resolve_number(s),
        _ => (Scalar::Str, None),
    }
}

/// Numbers: go-yaml tries ParseInt(base 0), then ParseUint, then its float pattern, with `_` removed.
fn resolve_number(s: &str) -> (Scalar, Option<Ambiguity>) {
    let plain: String = s.chars().filter(|&c| c != '_').collect();
    if let Some(Parsed {
        value,
        legacy_octal,
    }) = go_parse_int(&plain)
    {
        // `07` reads the same in both versions; only flag octal literals whose value differs.
        let ambiguity = (legacy_octal && value.unsigned_abs() >= 8).then_some(Ambiguity::Octal);
        return (Scalar::Int(value), ambiguity);
    }
    // Between i64::MAX and u64::MAX go-yaml yields a uint64; we only hold i64, so keep it as the
    // (approximate) number it is rather than pretending it is text.
    if let Some(u) = go_parse_uint(&plain) {
        return (Scalar::Float(u as f64), None);
    }
    if is_yaml_style_float(&plain) {
        if let Some(f) = finite_float(&plain) {
            return (Scalar::Float(f), None);
        }
    }
    let ambiguity = is_sexagesimal(s).then_some(Ambiguity::Sexagesimal);
    (Scalar::Str, ambiguity)
}

/// A successful `strconv.ParseInt(s, 0, 64)`.
struct Parsed {
    value: i64,
    /// Read as octal because of a leading `0` (not `0o`).
    legacy_octal: bool,
}

/// Go's `strconv.ParseInt(s, 0, 64)` (underscores already removed).
fn go_parse_int(s: &str) -> Option<Parsed> {
    let (neg, rest) = match s.as_bytes().first()? {
        b'+' => (false, &s[1..]),
        b'-' => (true, &s[1..]),
        _ => (false, s),
    };
    let (radix, digits, legacy_octal) = split_radix(rest);
    let magnitude = parse_digits(digits, radix)?;
    let value = if neg {
        if magnitude == 1u64 << 63 {
            i64::MIN
        } else {
            -i64::try_from(magnitude).ok()?
        }
    } else {
        i64::try_from(magnitude).ok()?
    };
    Some(Parsed {
        value,
        legacy_octal,
    })
}

/// Go's `strconv.ParseUint(s, 0, 64)` (no sign allowed).
fn go_parse_uint(s: &str) -> Option<u64> {
    let (radix, digits, _) = split_radix(s);
    parse_digits(digits, radix)
}

/// Splits Go's base-0 prefix: `0x`, `0b`, `0o`, or a leading `0` (octal, the zero kept as a digit).
fn split_radix(s: &str) -> (u32, &str, bool) {
    let b = s.as_bytes();
    if b.len() >= 2 && b[0] == b'0' {
        match b[1] {
            b'x' | b'X' => return (16, &s[2..], false),
            b'b' | b'B' => return (2, &s[2..], false),
            b'o' | b'O' => return (8, &s[2..], false),
            _ => return (8, s, true),
        }
    }
    (10, s, false)
}

/// Digits only (no sign, no `_`), in `radix`, fitting u64.
fn parse_digits(digits: &str, radix: u32) -> Option<u64> {
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    u64::from_str_radix(digits, radix).ok()
}

/// go-yaml v2's `yamlStyleFloat`: `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn is_yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    exponent_then_end(b, i)
}

/// `\.[0-9]+([eE][-+]?[0-9]+)?` — what Go's ParseFloat accepts for text starting with a dot.
fn is_dot_float(s: &str) -> bool {
    let b = s.as_bytes();
    if b.first() != Some(&b'.') {
        return false;
    }
    let mut i = 1;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i > 1 && exponent_then_end(b, i)
}

/// An optional `[eE][-+]?[0-9]+` exponent at `i`, then the end of the text.
fn exponent_then_end(b: &[u8], mut i: usize) -> bool {
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    i == b.len()
}

/// Go's ParseFloat rejects values out of range (it returns ±Inf *and* an error).
fn finite_float(s: &str) -> Option<f64> {
    s.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// YAML 1.1 base-60 numbers: `[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+` (int) and
/// `[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*` (float).
fn is_sexagesimal(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let Some(&first) = b.get(i) else {
        return false;
    };
    if !first.is_ascii_digit() {
        return false;
    }
    while b.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b'_') {
        i += 1;
    }
    let mut groups = 0;
    while b.get(i) == Some(&b':') {
        i += 1;
        match (b.get(i), b.get(i + 1)) {
            (Some(b'0'..=b'5'), Some(b'0'..=b'9')) => i += 2,
            (Some(b'0'..=b'9'), _) => i += 1,
            _ => return false,
        }
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if i == b.len() {
        return first != b'0';
    }
    b[i] == b'.' && b[i + 1..].iter().all(|c| c.is_ascii_digit() || *c == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(s: &str) -> (Scalar, Option<Ambiguity>) {
        resolve_plain(s)
    }

    #[test]
    fn nulls_and_bools() {
        for s in ["", "~", "null", "Null", "NULL"] {
            assert_eq!(plain(s), (Scalar::Null, None), "{s}");
        }
        for s in ["true", "True", "TRUE"] {
            assert_eq!(plain(s), (Scalar::Bool(true), None), "{s}");
        }
        for s in ["false", "False", "FALSE"] {
            assert_eq!(plain(s), (Scalar::Bool(false), None), "{s}");
        }
        for s in ["y", "Y", "yes", "Yes", "YES", "on", "On", "ON"] {
            assert_eq!(
                plain(s),
                (Scalar::Bool(true), Some(Ambiguity::Boolean)),
                "{s}"
            );
        }
        for s in ["n", "N", "no", "No", "NO", "off", "Off", "OFF"] {
            assert_eq!(
                plain(s),
                (Scalar::Bool(false), Some(Ambiguity::Boolean)),
                "{s}"
            );
        }
        for s in ["yEs", "tRUE", "nULL", "ofF", "Nope"] {
            assert_eq!(plain(s), (Scalar::Str, None), "{s}");
        }
    }

    #[test]
    fn ints() {
        let cases: &[(&str, i64)] = &[
            ("0", 0),
            ("-0", 0),
            ("42", 42),
            ("+42", 42),
            ("-42", -42),
            ("1_000", 1000),
            ("0x1F", 31),
            ("0X1f", 31),
            ("-0x10", -16),
            ("0o17", 15),
            ("0b101", 5),
            ("0644", 420),
            ("-0644", -420),
            ("9223372036854775807", i64::MAX),
            ("-9223372036854775808", i64::MIN),
        ];
        for (s, v) in cases {
            assert_eq!(plain(s).0, Scalar::Int(*v), "{s}");
        }
        assert_eq!(plain("0644").1, Some(Ambiguity::Octal));
        assert_eq!(plain("0_644").1, Some(Ambiguity::Octal));
        assert_eq!(plain("-0644").1, Some(Ambiguity::Octal));
        for s in ["0", "07", "0x10", "0o10", "10", "00"] {
            assert_eq!(plain(s).1, None, "{s}");
        }
    }

    #[test]
    fn floats() {
        let cases: &[(&str, f64)] = &[
            ("1.5", 1.5),
            ("-1.5", -1.5),
            ("1e3", 1000.0),
            ("1.", 1.0),
            (".5", 0.5),
            ("+.5", 0.5),
            ("1_000.5", 1000.5),
            ("08", 8.0),
            ("6.02e+23", 6.02e23),
            ("18446744073709551615", 18446744073709551615.0),
            ("99999999999999999999999", 1e23),
        ];
        for (s, v) in cases {
            assert_eq!(plain(s), (Scalar::Float(*v), None), "{s}");
        }
        assert_eq!(plain(".inf").0, Scalar::Float(f64::INFINITY));
        assert_eq!(plain("-.Inf").0, Scalar::Float(f64::NEG_INFINITY));
        assert!(matches!(plain(".NaN").0, Scalar::Float(f) if f.is_nan()));
        for s in [
            "1e400",
            ".",
            "._5",
            "1.2.3",
            "1e",
            "inf",
            "nan",
            "0x",
            "+",
            "-",
            "0xFFFFFFFFFFFFFFFFFF",
        ] {
            assert_eq!(plain(s).0, Scalar::Str, "{s}");
        }
    }

    #[test]
    fn sexagesimal() {
        for s in ["1:30", "190:20:30", "-1:30.5", "+1:0", "0:30.5", "12:00"] {
            assert_eq!(plain(s), (Scalar::Str, Some(Ambiguity::Sexagesimal)), "{s}");
        }
        for s in [
            "0:30", "1:60", "1:", ":30", "1:30:", "1:30.5x", "a1:30", "1:300",
        ] {
            assert_eq!(plain(s), (Scalar::Str, None), "{s}");
        }
    }

    #[test]
    fn tags_and_styles() {
        let core = Some((CORE, "str"));
        assert_eq!(
            resolve("123", ScalarStyle::Plain, core),
            (Scalar::Str, None)
        );
        assert_eq!(
            resolve("123", ScalarStyle::DoubleQuoted, None),
            (Scalar::Str, None)
        );
        assert_eq!(
            resolve("yes", ScalarStyle::SingleQuoted, None),
            (Scalar::Str, None)
        );
        assert_eq!(
            resolve("123", ScalarStyle::DoubleQuoted, Some((CORE, "int"))),
            (Scalar::Int(123), None)
        );
        assert_eq!(
            resolve("3", ScalarStyle::Plain, Some((CORE, "float"))),
            (Scalar::Float(3.0), None)
        );
        assert_eq!(
            resolve("yes", ScalarStyle::Plain, Some((CORE, "bool"))),
            (Scalar::Bool(true), None)
        );
        assert_eq!(
            resolve("abc", ScalarStyle::Plain, Some((CORE, "int"))),
            (Scalar::Str, None)
        );
        assert_eq!(
            resolve("", ScalarStyle::Plain, Some((CORE, "null"))),
            (Scalar::Null, None)
        );
        assert_eq!(
            resolve("12", ScalarStyle::Plain, Some(("!", "custom"))),
            (Scalar::Str, None)
        );
    }
}
