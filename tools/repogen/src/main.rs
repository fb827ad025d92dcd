//! `repogen --size [kustomize-]small|medium|large [--seed N] [--single-overlay] --out DIR`:
//! writes the benchmark repository and prints what it wrote as one JSON line.

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: repogen --size SIZE [--seed N] [--single-overlay] --out DIR
  SIZE: small | medium | large                      plain fleet (two commits: HEAD^, HEAD)
        kustomize-small | kustomize-medium | kustomize-large
                                                    overlays of shared bases and components;
                                                    main + branches pr/overlay-patch,
                                                    pr/shared-base, pr/component
  --single-overlay  (kustomize sizes) only the overlay pr/overlay-patch changes, with what it
                    needs, and that branch";

fn main() -> ExitCode {
    let mut size = None;
    let mut seed = 1u64;
    let mut out: Option<PathBuf> = None;
    let mut single = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--single-overlay" {
            single = true;
            continue;
        }
        let value = args.next();
        match (arg.as_str(), value) {
            ("--size", Some(v)) => size = repogen::parse_size(&v),
            ("--seed", Some(v)) => match v.parse() {
                Ok(n) => seed = n,
                Err(_) => {
                    eprintln!("--seed `{v}` is not a number\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
            ("--out", Some(v)) => out = Some(PathBuf::from(v)),
            _ => {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let (Some(size), Some(out)) = (size, out) else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let generated = match (size, single) {
        ((repogen::Shape::Plain, _), true) => {
            eprintln!("--single-overlay needs a kustomize-* size\n{USAGE}");
            return ExitCode::from(2);
        }
        ((repogen::Shape::Plain, size), false) => repogen::generate(size, seed, &out),
        ((repogen::Shape::Kustomize, size), single) => {
            let variant = if single {
                repogen::kustomize::Variant::SingleOverlay
            } else {
                repogen::kustomize::Variant::Fleet
            };
            repogen::generate_kustomize(size, seed, variant, &out)
        }
    };
    match generated {
        Ok(stats) => {
            println!("{}", stats.to_json());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("repogen: {e}");
            ExitCode::from(2)
        }
    }
}
