//! RFC 2397 `data:` URLs as Ignition decodes them (plain, percent-encoded, `;base64`), plus gzip.

use std::borrow::Cow;
use std::io::Read;

use base64::Engine;

/// Largest decompressed payload accepted, so a gzip bomb is a finding, not an OOM.
pub const MAX_DECODED: u64 = 64 * 1024 * 1024;

/// Largest payload decoded on demand for a text (a registries.conf, a CRI-O drop-in, a content
/// diff): larger ones are treated as unreadable there.
pub const MAX_TEXT_DECODED: u64 = 4 * 1024 * 1024;

/// Why a data URL could not be decoded; the message becomes the diagnostic's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// What is wrong, or why it was not decoded.
    pub message: String,
    /// True when the payload was left undecoded because a budget was used up (it may be valid).
    pub skipped: bool,
}

impl DecodeError {
    fn invalid(message: impl Into<String>) -> Self {
        DecodeError {
            message: message.into(),
            skipped: false,
        }
    }
}

/// How many decoded bytes payloads may still take (a file's or a run's share), and whether one
/// was already left undecoded for lack of it. Once a payload does not fit, later ones are not
/// decoded either, so a file of many large payloads costs one budget of work, not one each.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Bytes left.
    pub left: u64,
    /// A payload did not fit.
    pub hit: bool,
    /// Says whose budget it is, for the message ("this file's …", "the run's …").
    pub whose: &'static str,
}

impl Budget {
    /// A budget of `bytes`.
    pub fn new(bytes: u64, whose: &'static str) -> Self {
        Budget {
            left: bytes,
            hit: false,
            whose,
        }
    }

    fn skipped(&self) -> DecodeError {
        DecodeError {
            message: format!(
                "not decoded: {} for decoded Ignition payloads is used up, so the contents of this Ignition file are not checked",
                self.whose
            ),
            skipped: true,
        }
    }
}

/// Decodes a data URL charging `budget` for the decoded bytes; a payload that does not fit is
/// reported as skipped (not as invalid) and ends decoding for this budget.
pub fn decode_within(
    source: &str,
    compression: Option<&str>,
    budget: &mut Budget,
) -> Result<Vec<u8>, DecodeError> {
    if budget.hit {
        return Err(budget.skipped());
    }
    let cap = budget.left.min(MAX_DECODED);
    match decode_capped(source, compression, cap) {
        Ok(bytes) => {
            budget.left -= bytes.len() as u64;
            Ok(bytes)
        }
        Err(Capped::Over) if cap < MAX_DECODED => {
            budget.hit = true;
            budget.left = 0;
            Err(budget.skipped())
        }
        Err(Capped::Over) => Err(DecodeError::invalid(format!(
            "the data expands to more than {} MiB",
            MAX_DECODED / 1024 / 1024
        ))),
        Err(Capped::Invalid(e)) => Err(e),
    }
}

/// Why [`decode_capped`] failed.
enum Capped {
    /// The decoded payload is larger than the cap.
    Over,
    /// The URL or its data is invalid.
    Invalid(DecodeError),
}

/// True when `source` is a data URL (other schemes are fetched by Ignition at boot, not decoded here).
pub fn is_data_url(source: &str) -> bool {
    // Bytes, not a `str` slice: the fifth byte may be inside a character ("日本語").
    source
        .as_bytes()
        .get(..5)
        .is_some_and(|p| p.eq_ignore_ascii_case(b"data:"))
}

/// Decodes a data URL and, when `compression` is `gzip`, decompresses it (at most
/// [`MAX_DECODED`] bytes).
pub fn decode(source: &str, compression: Option<&str>) -> Result<Vec<u8>, DecodeError> {
    decode_capped(source, compression, MAX_DECODED).map_err(|e| match e {
        Capped::Over => DecodeError::invalid(format!(
            "the data expands to more than {} MiB",
            MAX_DECODED / 1024 / 1024
        )),
        Capped::Invalid(e) => e,
    })
}

/// The decoded text of a data URL for reading its contents, or `None` when it is not UTF-8, not
/// decodable, or larger than [`MAX_TEXT_DECODED`].
pub fn decode_text(source: &str, compression: Option<&str>) -> Option<String> {
    let bytes = decode_capped(source, compression, MAX_TEXT_DECODED).ok()?;
    String::from_utf8(bytes).ok()
}

fn decode_capped(source: &str, compression: Option<&str>, cap: u64) -> Result<Vec<u8>, Capped> {
    let rest = source
        .get(5..)
        .filter(|_| is_data_url(source))
        .ok_or_else(|| {
            Capped::Invalid(DecodeError::invalid(
                "not a data URL (it must start with `data:`)",
            ))
        })?;
    let (meta, data) = rest.split_once(',').ok_or_else(|| {
        Capped::Invalid(DecodeError::invalid(
            "the data URL has no `,` between the media type and the data",
        ))
    })?;
    let is_base64 = meta
        .split(';')
        .skip(1)
        .any(|p| p.eq_ignore_ascii_case("base64"));
    let unescaped = percent_decode(data).map_err(Capped::Invalid)?;
    let raw = if is_base64 {
        let cleaned: Cow<[u8]> = if unescaped.iter().any(|b| matches!(b, b'\r' | b'\n')) {
            unescaped
                .iter()
                .copied()
                .filter(|b| !matches!(b, b'\r' | b'\n'))
                .collect()
        } else {
            unescaped
        };
        go_std_base64().decode(&cleaned).map_err(|e| {
            Capped::Invalid(DecodeError::invalid(format!(
                "the base64 data is invalid: {e}"
            )))
        })?
    } else {
        unescaped.into_owned()
    };
    match compression.map(str::trim) {
        None | Some("") if raw.len() as u64 > cap => Err(Capped::Over),
        None | Some("") => Ok(raw),
        Some("gzip") => gunzip(&raw, cap),
        Some(other) => Err(Capped::Invalid(DecodeError::invalid(format!(
            "compression `{other}` is not supported by Ignition (only `gzip`)"
        )))),
    }
}

/// Go's `base64.StdEncoding`, which Ignition decodes with: padding required, non-zero trailing
/// bits accepted (line breaks are removed before).
pub fn go_std_base64() -> base64::engine::GeneralPurpose {
    base64::engine::GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        base64::engine::GeneralPurposeConfig::new()
            .with_decode_allow_trailing_bits(true)
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::RequireCanonical),
    )
}

/// The data with percent-escapes decoded; borrowed when there are none (base64 payloads).
fn percent_decode(data: &str) -> Result<Cow<'_, [u8]>, DecodeError> {
    let bytes = data.as_bytes();
    if !bytes.contains(&b'%') {
        return Ok(Cow::Borrowed(bytes));
    }
    let mut i = 0;
    while let Some(pos) = bytes[i..].iter().position(|b| *b == b'%') {
        let at = i + pos;
        let hex = bytes.get(at + 1..at + 3);
        if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
            return Err(DecodeError::invalid(format!(
                "invalid percent-escape at character {} of the data (`%` must be followed by two hex digits; write `%25` for a literal `%`)",
                data[..at].chars().count() + 1
            )));
        }
        i = at + 3;
    }
    Ok(Cow::Owned(
        percent_encoding::percent_decode_str(data).collect(),
    ))
}

/// Inflates at most `cap` bytes (Go's reader, like Ignition's, reads every gzip member).
fn gunzip(raw: &[u8], cap: u64) -> Result<Vec<u8>, Capped> {
    let mut out = Vec::new();
    let mut decoder = flate2::read::MultiGzDecoder::new(raw).take(cap + 1);
    decoder.read_to_end(&mut out).map_err(|e| {
        Capped::Invalid(DecodeError::invalid(format!(
            "`compression: gzip` is set but the data is not valid gzip: {e}"
        )))
    })?;
    if out.len() as u64 > cap {
        return Err(Capped::Over);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn plain_and_percent() {
        assert_eq!(decode("data:,hello", None).unwrap(), b"hello");
        assert_eq!(decode("data:,a%20b%0A", None).unwrap(), b"a b\n");
        assert_eq!(
            decode("data:text/plain;charset=utf-8,x%3Dy", None).unwrap(),
            b"x=y"
        );
        assert_eq!(decode("data:,", None).unwrap(), b"");
    }

    #[test]
    fn base64_forms() {
        assert_eq!(decode("data:;base64,aGVsbG8K", None).unwrap(), b"hello\n");
        assert_eq!(
            decode("data:text/plain;charset=utf-8;base64,aGk=", None).unwrap(),
            b"hi"
        );
        assert_eq!(decode("DATA:;BASE64,aGk=", None).unwrap(), b"hi");
    }

    #[test]
    fn gzip_roundtrip() {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(b"[crio.runtime]\ndefault_runtime = \"runc\"\n")
            .unwrap();
        let gz = enc.finish().unwrap();
        let url = format!(
            "data:;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(gz)
        );
        assert_eq!(
            decode(&url, Some("gzip")).unwrap(),
            b"[crio.runtime]\ndefault_runtime = \"runc\"\n"
        );
    }

    #[test]
    fn errors_say_what_is_wrong() {
        assert!(decode("data:;base64,!!!", None)
            .unwrap_err()
            .message
            .contains("base64"));
        assert!(
            decode("data:;base64,aGk", None).is_err(),
            "missing padding is rejected like Go's StdEncoding"
        );
        assert!(decode("data:hello", None)
            .unwrap_err()
            .message
            .contains("`,`"));
        assert!(decode("data:,50%", None)
            .unwrap_err()
            .message
            .contains("percent-escape at character 3"));
        assert!(decode("data:,hello", Some("gzip"))
            .unwrap_err()
            .message
            .contains("gzip"));
        assert!(decode("data:,x", Some("zstd"))
            .unwrap_err()
            .message
            .contains("zstd"));
        assert!(!is_data_url("https://example.com/x"));
    }

    #[test]
    fn gzip_bomb_is_bounded() {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let zeros = vec![0u8; 1024 * 1024];
        for _ in 0..65 {
            enc.write_all(&zeros).unwrap();
        }
        let gz = enc.finish().unwrap();
        let url = format!(
            "data:;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(gz)
        );
        assert!(decode(&url, Some("gzip"))
            .unwrap_err()
            .message
            .contains("more than 64 MiB"));
    }

    fn gzip_zeros(mib: usize) -> String {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        enc.write_all(&vec![0u8; mib * 1024 * 1024]).unwrap();
        format!(
            "data:;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(enc.finish().unwrap())
        )
    }

    #[test]
    fn a_budget_bounds_many_payloads_and_says_they_were_skipped() {
        let url = gzip_zeros(10);
        let mut budget = Budget::new(25 * 1024 * 1024, "this file's budget (25 MiB)");
        assert_eq!(
            decode_within(&url, Some("gzip"), &mut budget)
                .unwrap()
                .len(),
            10 << 20
        );
        assert_eq!(
            decode_within(&url, Some("gzip"), &mut budget)
                .unwrap()
                .len(),
            10 << 20
        );
        let third = decode_within(&url, Some("gzip"), &mut budget).unwrap_err();
        assert!(third.skipped);
        assert_eq!(
            third.message,
            "not decoded: this file's budget (25 MiB) for decoded Ignition payloads is used up, so the contents of this Ignition file are not checked"
        );
        // Once used up, even a small payload is not decoded (no work per later payload).
        let small = decode_within("data:,x", None, &mut budget).unwrap_err();
        assert!(small.skipped);
        // An invalid payload is invalid, not skipped.
        let mut fresh = Budget::new(1 << 20, "b");
        let bad = decode_within("data:,x", Some("gzip"), &mut fresh).unwrap_err();
        assert!(!bad.skipped && bad.message.contains("not valid gzip"));
    }

    #[test]
    fn a_character_across_the_fifth_byte_is_not_a_data_url() {
        // Found by the `check` fuzz target: slicing `[..5]` panicked on such values.
        assert!(!is_data_url("日本語"));
        assert!(!is_data_url("abcd€"));
        assert!(is_data_url("DATA:,x"));
        assert!(decode("日本語", None).is_err());
    }

    #[test]
    fn text_decoding_is_capped() {
        assert_eq!(decode_text("data:,a%20b", None).as_deref(), Some("a b"));
        assert_eq!(
            decode_text(&gzip_zeros(5), Some("gzip")),
            None,
            "over 4 MiB"
        );
    }

    #[test]
    fn multi_member_gzip_is_read_whole_like_go() {
        let mut one = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        one.write_all(b"a\n").unwrap();
        let mut data = one.finish().unwrap();
        let mut two = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        two.write_all(b"b\n").unwrap();
        data.extend(two.finish().unwrap());
        let url = format!(
            "data:;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(data)
        );
        assert_eq!(decode(&url, Some("gzip")).unwrap(), b"a\nb\n");
    }
}
