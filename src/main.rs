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
    Check(CheckArgs),
    /// List every rule with its code, default severity and summary.
    Rules,
    /// Print the documentation page of a rule.
    Explain {
        /// A rule code, e.g. Y002.
        code: String,
    },
    /// Print, per change-management policy, the next windows and its findings.
    Schedule(ScheduleArgs),
}

#[derive(clap::Args)]
struct ScheduleArgs {
    /// The repository or folder to read.
    #[arg(default_value = ".")]
    path: PathBuf,
    /// Windows to list per policy.
    #[arg(long, short = 'n', default_value_t = 5)]
    count: usize,
    /// The current time (RFC 3339), for reproducible runs.
    #[arg(long, value_name = "RFC3339")]
    now: Option<String>,
    /// Minimum permitted hours in any 32-day span before a schedule is flagged.
    #[arg(long, value_name = "HOURS", default_value_t = 48)]
    min_permitted_hours: u32,
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
    /// Fail when a disruptive change would start outside its maintenance window.
    #[arg(long)]
    enforce_windows: bool,
    /// Minutes one node takes to roll, to judge whether a rollout fits its window.
    #[arg(long, value_name = "MINUTES", default_value_t = 10)]
    per_node_minutes: u32,
    /// Minimum permitted hours in any 32-day span before a schedule is flagged.
    #[arg(long, value_name = "HOURS", default_value_t = 48)]
    min_permitted_hours: u32,
    /// Lint Kustomize roots unrendered (by default they are rendered when kubectl or kustomize is on PATH).
    #[arg(long)]
    no_render: bool,
    /// The Kustomize to render with: `kubectl` (runs `kubectl kustomize`), `kustomize` (runs `kustomize build`), or a path.
    #[arg(long, value_name = "PROGRAM")]
    kustomize: Option<std::path::PathBuf>,
    /// Longest time one Kustomize render may take before it is stopped.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    render_timeout: u64,
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
        Command::Check(args) => run_check(args),
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
        Command::Schedule(args) => run_schedule(args),
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

fn parse_now(now: &Option<String>) -> Result<jiff::Timestamp, Fatal> {
    Ok(match now {
        Some(s) => s.parse::<jiff::Timestamp>().map_err(|e| {
            Fatal::new(
                format!("--now `{s}` is not an RFC 3339 time: {e}"),
                "write it like 2026-11-21T02:00:00Z",
            )
        })?,
        None => jiff::Timestamp::now(),
    })
}

fn run_schedule(args: ScheduleArgs) -> Result<ExitCode, Fatal> {
    let (text, errors) = nodecast::schedule::report::run(&nodecast::schedule::report::Request {
        path: args.path,
        now: parse_now(&args.now)?,
        count: args.count,
        min_permitted_hours: args.min_permitted_hours,
    })?;
    print(&text)?;
    Ok(if errors {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn run_check(args: CheckArgs) -> Result<ExitCode, Fatal> {
    let now = parse_now(&args.now)?;
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
    options.enforce_windows = args.enforce_windows;
    options.per_node_minutes = args.per_node_minutes;
    options.min_permitted_hours = args.min_permitted_hours;
    options.render = nodecast::render::Settings {
        enabled: !args.no_render,
        program: args.kustomize.clone(),
        timeout: std::time::Duration::from_secs(args.render_timeout.max(1)),
    };
    let outcome = check::run(&options)?;
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
