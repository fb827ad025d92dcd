//! Times parsing of the given files (a profiling aid).
use std::time::Instant;

use nodecast_yaml::{parse, parse_embedded, Options};

fn main() {
    for path in std::env::args().skip(1) {
        let src = std::fs::read_to_string(&path).expect("read");
        let t = Instant::now();
        let parsed = parse(&src, &Options::default());
        let mut embedded = 0;
        for d in &parsed.documents {
            if let Some(c) = d.root().path(&["data", "config"]) {
                embedded += parse_embedded(&src, c, &Options::default()).documents.len();
            }
        }
        println!(
            "{path}: {} bytes, {} docs, {} problems, {embedded} embedded, {:?}",
            src.len(),
            parsed.documents.len(),
            parsed.problems.len(),
            t.elapsed()
        );
    }
}
