//! `repogen --size small|medium|large --seed N --out DIR`: writes the benchmark repository and
//! prints what it wrote as one JSON line.

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: repogen --size small|medium|large [--seed N] --out DIR";

fn main() -> ExitCode {
    let mut size = None;
    let mut seed = 1u64;
    let mut out: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next();
        match (arg.as_str(), value) {
            ("--size", Some(v)) => size = repogen::Size::parse(&v),
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
    match repogen::generate(size, seed, &out) {
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
