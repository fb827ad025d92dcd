//! RFC 2397 `data:` URLs as Ignition decodes them (plain, percent-encoded, `;base64`), plus gzip.

use std::borrow::Cow;
use std::io::Read;

use base64::Engine;

/// Largest decompressed payload accepted, so a gzip bomb is a finding, not an OOM.
pub const MAX_DECODED: u64 = 64 * 1024 * 1024;

/// Why a data URL could not be decoded; the message becomes the diagnostic's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError(pub String);

/// True when `source` is a data URL (other schemes are fetched by Ignition at boot, not decoded here).
pub fn is_data_url(source: &str) -> bool {
    source.len() >= 5 && source[..5].eq_ignore_ascii_case("data:")
}

/// Decodes a data URL and, when `compression` is `gzip`, decompresses it.
pub fn decode(source: &str, compression: Option<&str>) -> Result<Vec<u8>, DecodeError> {
    let rest = source
        .get(5..)
        .filter(|_| is_data_url(source))
        .ok_or_else(|| DecodeError("not a data URL (it must start with `data:`)".into()))?;
    let (meta, data) = rest.split_once(',').ok_or_else(|| {
        DecodeError("the data URL has no `,` between the media type and the data".into())
    })?;
    let is_base64 = meta
        .split(';')
        .skip(1)
        .any(|p| p.eq_ignore_ascii_case("base64"));
    let unescaped = percent_decode(data)?;
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
        base64::engine::general_purpose::STANDARD
            .decode(&cleaned)
            .map_err(|e| DecodeError(format!("the base64 data is invalid: {e}")))?
    } else {
        unescaped.into_owned()
    };
    match compression.map(str::trim) {
        None | Some("") => Ok(raw),
        Some("gzip") => gunzip(&raw),
        Some(other) => Err(DecodeError(format!(
            "compression `{other}` is not supported by Ignition (only `gzip`)"
        ))),
    }
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
            return Err(DecodeError(format!(
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

fn gunzip(raw: &[u8]) -> Result<Vec<u8>, DecodeError> {
    let mut out = Vec::new();
    let mut decoder = flate2::read::GzDecoder::new(raw).take(MAX_DECODED + 1);
    decoder.read_to_end(&mut out).map_err(|e| {
        DecodeError(format!(
            "`compression: gzip` is set but the data is not valid gzip: {e}"
        ))
    })?;
    if out.len() as u64 > MAX_DECODED {
        return Err(DecodeError(format!(
            "the gzip data expands to more than {} MiB",
            MAX_DECODED / 1024 / 1024
        )));
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
            .0
            .contains("base64"));
        assert!(
            decode("data:;base64,aGk", None).is_err(),
            "missing padding is rejected like Go's StdEncoding"
        );
        assert!(decode("data:hello", None).unwrap_err().0.contains("`,`"));
        assert!(decode("data:,50%", None)
            .unwrap_err()
            .0
            .contains("percent-escape at character 3"));
        assert!(decode("data:,hello", Some("gzip"))
            .unwrap_err()
            .0
            .contains("gzip"));
        assert!(decode("data:,x", Some("zstd"))
            .unwrap_err()
            .0
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
            .0
            .contains("more than 64 MiB"));
    }
}
