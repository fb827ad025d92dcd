//! Embedded payload decoding: Ignition data URLs (plain, percent-encoded, base64, gzip) through
//! nodecast's decoder with and without budgets, and through the strict grammar the MCO's
//! validation applies. Input: one mode byte, then the URL text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nodecast::forecast::mco::ignition::url::{data_url_error, hash_error, source_error, Spec};
use nodecast::parse::data_url::{self, Budget};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let url = String::from_utf8_lossy(rest);
    let compression = match mode % 4 {
        0 => None,
        1 => Some("gzip"),
        2 => Some(""),
        _ => Some("xz"),
    };
    let full = data_url::decode(&url, compression);
    if let Ok(bytes) = &full {
        assert!(bytes.len() as u64 <= data_url::MAX_DECODED);
    }
    // A budget smaller than the payload: skipped, never invalid, never over the budget.
    let cap = u64::from(mode) * 64;
    let mut budget = Budget::new(cap, "fuzz");
    match data_url::decode_within(&url, compression, &mut budget) {
        Ok(bytes) => {
            assert!(bytes.len() as u64 <= cap);
            assert_eq!(Some(&bytes), full.as_ref().ok());
        }
        // Skipped: it decodes to more than the budget, or it is invalid past the budget (the
        // decoder stopped before the corruption: "not decoded", not "valid").
        Err(e) if e.skipped => assert!(!full.as_ref().is_ok_and(|b| b.len() as u64 <= cap)),
        Err(e) => assert_eq!(Some(&e), full.as_ref().err()),
    }
    if let Some(text) = data_url::decode_text(&url, compression) {
        assert!(text.len() as u64 <= data_url::MAX_TEXT_DECODED);
    }
    let _ = data_url_error(&url);
    for spec in [Spec::V2, Spec::V3(0), Spec::V3(4)] {
        let _ = source_error(spec, &url);
        let _ = hash_error(spec, &url);
    }
});
