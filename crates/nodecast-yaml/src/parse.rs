//! Event stream → located tree.
use crate::{Options, Parsed};

/// Parses a YAML (or JSON) stream into located documents; never panics, whatever the input.
pub fn parse(src: &str, opts: &Options) -> Parsed {
    let _ = (src, opts);
    todo!("helper")
}
