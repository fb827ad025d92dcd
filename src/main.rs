//! The `nodecast` command line. All logic lives in the library; this file only maps flags.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use nodecast::color::{self, ColorChoice};
use nodecast::diagnostic::Severity;
use nodecast::report::{self, human};
use nodecast::source::CompareRequest;
use nodecast::{check, rules, Fatal};

/// Forecast which NodePools and MachineConfigPools a manifest change rolls, and lint the manifests.
#[derive(Parser)]
#[command(name = "nodecast", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compare two revisions of a manifest repository: forecast node impact and report findings.
    Check(Box<CheckArgs>),
    /// List every rule with its code, default severity and summary.
    Rules,
    /// Print the documentation page of a rule.
    Explain {
        /// A rule code, e.g. Y002.
        code: String,
    },
    /// Per bundled CRD schema, how many of its CEL validation rules nodecast evaluates.
    SchemaCoverage {
        /// List the rules that are not evaluated, with the reason.
        #[arg(long, short)]
        verbose: bool,
    },
}

#[derive(clap::Args)]
struct CheckArgs {
    /// The repository or any folder inside it (only manifests below it are read); with
    /// --base-dir, the head directory.
    #[arg(default_value = ".")]
    path: PathBuf,
    /// Base revision; a branch name means its merge-base with the head (like `git diff main...HEAD`).
    #[arg(long, value_name = "REV", conflicts_with_all = ["base_dir", "no_base"])]
    base: Option<String>,
    /// Head revision (default: the working tree).
    #[arg(long, value_name = "REV", conflicts_with_all = ["staged", "base_dir"])]
    head: Option<String>,
    /// Check the staged changes (head = the index), for pre-commit hooks.
    #[arg(long, conflicts_with = "base_dir")]
    staged: bool,
    /// Compare two plain directories: DIR is the base, PATH the head.
    #[arg(long, value_name = "DIR", conflicts_with = "no_base")]
    base_dir: Option<PathBuf>,
    /// Lint the head alone; compare with nothing.
    #[arg(long)]
    no_base: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Fail (exit 1) on findings at or above this severity.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    fail_on: FailOn,
    /// Always exit 0 when the check ran, whatever it found.
    #[arg(long)]
    exit_zero: bool,
    /// The current time for time-dependent decisions (RFC 3339), for reproducible runs.
    #[arg(long, value_name = "RFC3339")]
    now: Option<String>,
    /// Colour: auto follows FORCE_COLOR, NO_COLOR, CLICOLOR and the terminal.
    #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
    color: ColorArg,
    /// Files larger than this many bytes are skipped (with a finding).
    #[arg(long, value_name = "BYTES", default_value_t = 10 * 1024 * 1024)]
    max_file_size: u64,
    /// Show more detail (rollout fingerprints) in human output.
    #[arg(long, short)]
    verbose: bool,
    /// Node count of a pool the repository does not say (repeatable): `worker=6`, `clusters/prod/infra=3`.
    #[arg(long, value_name = "POOL=N")]
    assume_nodes: Vec<String>,
    /// A folder glob that holds one standalone cluster (repeatable); by default a cluster is the
    /// nearest folder holding a MachineConfigPool or ClusterVersion.
    #[arg(long, value_name = "GLOB")]
    cluster_root: Vec<String>,
    /// More schemas to validate with: a folder of CRD YAML files, or of JSON Schemas laid out as
    /// group/Kind/version/featureset.json.
    #[arg(long, value_name = "DIR")]
    schemas: Option<PathBuf>,
    /// Validate with this feature set's CRD variants (Default, TechPreviewNoUpgrade, …) instead of
    /// the one the FeatureGate / HostedCluster declares.
    #[arg(long, value_name = "SET")]
    feature_set: Option<String>,
    /// Severity of unknown fields (V102): warning (the API server drops them), or error (your
    /// cluster applies with strict field validation, which rejects them).
    #[arg(long, value_enum, default_value_t = UnknownFields::Warning)]
    unknown_fields: UnknownFields,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum UnknownFields {
    Warning,
    Error,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Human,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum FailOn {
    Error,
    Warning,
    Info,
}

#[derive(Clone, Copy, ValueEnum)]
enum ColorArg {
    Auto,
    Always,
    Never,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check(args) => run_check(*args),
        Command::Rules => {
            let mut out = String::new();
            for r in rules::ALL {
                out.push_str(&format!(
                    "{:<5} {:<8} {:<28} {}\n",
                    r.code, r.severity, r.name, r.summary
                ));
            }
            print(&out).map(|_| ExitCode::SUCCESS)
        }
        Command::SchemaCoverage { verbose } => print(&nodecast::validate::coverage::render(
            &nodecast::validate::coverage::bundled(),
            verbose,
        ))
        .map(|_| ExitCode::SUCCESS),
        Command::Explain { code } => match rules::page(&code) {
            Some(page) => print(page).map(|_| ExitCode::SUCCESS),
            None => Err(Fatal::new(
                format!("no rule has the code `{code}`"),
                "`nodecast rules` lists every code",
            )),
        },
    };
    match result {
        Ok(code) => code,
        Err(fatal) => {
            eprintln!("error: {}\n  help: {}", fatal.message, fatal.hint);
            ExitCode::from(2)
        }
    }
}

fn engine_field(pointer: &str) -> String {
    let f = nodecast::validate::engine::field_path(pointer);
    if f.is_empty() {
        "(root)".into()
    } else {
        f
    }
}

fn print(s: &str) -> Result<(), Fatal> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(s.as_bytes()).and_then(|_| stdout.flush()) {
        Ok(()) => Ok(()),
        // A closed pipe (`| head`) is not an error of ours.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Fatal::new(
            format!("cannot write the report: {e}"),
            "check the output destination",
        )),
    }
}

fn run_check(args: CheckArgs) -> Result<ExitCode, Fatal> {
    let now = match &args.now {
        Some(s) => s.parse::<jiff::Timestamp>().map_err(|e| {
            Fatal::new(
                format!("--now `{s}` is not an RFC 3339 time: {e}"),
                "write it like 2026-11-21T02:00:00Z",
            )
        })?,
        None => jiff::Timestamp::now(),
    };
    let req = CompareRequest {
        path: args.path.clone(),
        base: args.base.clone(),
        head: args.head.clone(),
        staged: args.staged,
        base_dir: args.base_dir.clone(),
        no_base: args.no_base,
        max_file_size: args.max_file_size,
    };
    let mut options = check::Options::new(req, now);
    options.verbose = args.verbose;
    for spec in &args.assume_nodes {
        let (pool, n) = spec
            .split_once('=')
            .and_then(|(p, n)| Some((p.to_string(), n.parse::<u32>().ok()?)))
            .ok_or_else(|| {
                Fatal::new(
                    format!("--assume-nodes `{spec}` is not POOL=N"),
                    "write e.g. --assume-nodes worker=6",
                )
            })?;
        options.assume_nodes.insert(pool, n);
    }
    options.cluster_roots = args.cluster_root.clone();
    options.validation.schemas_dir = args.schemas.clone();
    options.validation.feature_set = args.feature_set.clone();
    options.validation.unknown_fields_are_errors = args.unknown_fields == UnknownFields::Error;
    let outcome = check::run(&options)?;
    if args.verbose && !outcome.unevaluated_rules.is_empty() {
        eprintln!(
            "note: {} CEL rule evaluation(s) skipped (nodecast cannot evaluate them):",
            outcome.unevaluated_rules.len()
        );
        for (id, s) in &outcome.unevaluated_rules {
            eprintln!(
                "  {id} {}: `{}`: {}",
                engine_field(&s.pointer),
                s.rule,
                s.reason
            );
        }
    }
    let rendered = match args.format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&report::json::report(&outcome))
                .map_err(|e| Fatal::new(format!("internal error: {e}"), "please report this"))?;
            s.push('\n');
            s
        }
        Format::Human => {
            let choice = match args.color {
                ColorArg::Auto => ColorChoice::Auto,
                ColorArg::Always => ColorChoice::Always,
                ColorArg::Never => ColorChoice::Never,
            };
            let color = color::decide(
                choice,
                |k| std::env::var(k).ok(),
                std::io::stdout().is_terminal(),
            );
            human::render(&outcome, human::Style { color, width: 100 })
        }
    };
    print(&rendered)?;
    let threshold = match args.fail_on {
        FailOn::Error => Severity::Error,
        FailOn::Warning => Severity::Warning,
        FailOn::Info => Severity::Info,
    };
    let failed = outcome.diagnostics.iter().any(|d| d.severity >= threshold);
    Ok(if failed && !args.exit_zero {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
