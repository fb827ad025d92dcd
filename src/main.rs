//! The `nodecast` command line. All logic lives in the library; this file only maps flags.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use nodecast::color::{self, ColorChoice};
use nodecast::diagnostic::Severity;
use nodecast::report::{self, human};
use nodecast::source::CompareRequest;
use nodecast::{catalog, check, Fatal};

/// The located trees are millions of small allocations; mimalloc makes them markedly cheaper.
/// What a check keeps to its end (file texts, node arrays, objects) is packed without its size
/// classes' rounding ([`nodecast_alloc`]).
#[global_allocator]
static GLOBAL: nodecast_alloc::Packing<mimalloc::MiMalloc> =
    nodecast_alloc::Packing(mimalloc::MiMalloc);

/// mimalloc's `purge_delay` option (its index in `mi_option_t`, the same in mimalloc 2 and 3).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// A check frees its parse temporaries, each stage's scratch and a revision's transient data
/// well within the second mimalloc waits before returning freed pages, so the peak held tens of
/// megabytes nothing used (28 MiB of 365 on the large fleet); 10 ms returns them for a few
/// hundredths of a second. `MIMALLOC_PURGE_DELAY` still decides when it is set.
fn return_freed_memory_promptly() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: `mi_option_set` stores an integer in mimalloc's option table (read atomically
        // where it is used); it takes no pointer and may be called at any time.
        unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 10) }
    }
}

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
    /// Record today's findings so that later checks with --baseline report only new ones.
    #[command(subcommand)]
    Baseline(BaselineCommand),
    /// Print, per change-management policy, the next windows and its findings.
    Schedule(ScheduleArgs),
    /// Per bundled CRD schema, how many of its CEL validation rules nodecast evaluates.
    SchemaCoverage {
        /// List the rules that are not evaluated, with the reason.
        #[arg(long, short)]
        verbose: bool,
    },
    /// Write a commented .nodecast.yaml (every key, with its default) to start from.
    Init {
        /// The folder to write it in (the repository root, usually).
        #[arg(default_value = ".")]
        path: PathBuf,
        /// Replace an existing configuration file.
        #[arg(long)]
        force: bool,
    },
    /// Run the language server (LSP over stdin/stdout) for editors: live findings and forecast.
    Server {
        /// Accepted for editors' clients that pass it; stdio is the only transport.
        #[arg(long)]
        stdio: bool,
    },
    /// Print the shell completion script (bash, zsh, fish, powershell, elvish).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), or write one page per command into DIR.
    Man {
        /// Write nodecast.1, nodecast-check.1, … into this folder instead.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
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

#[derive(Subcommand)]
enum BaselineCommand {
    /// Run the check and write its findings (by stable fingerprint) to FILE.
    Write {
        /// The baseline file to write (JSON).
        file: PathBuf,
        #[command(flatten)]
        check: Box<CheckArgs>,
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
    /// Output format (default: github when GITHUB_ACTIONS=true, else human).
    #[arg(long, value_enum, env = "NODECAST_FORMAT")]
    format: Option<Format>,
    /// Also write the SARIF report to FILE (for code scanning upload).
    #[arg(long, value_name = "FILE")]
    output_sarif: Option<PathBuf>,
    /// Also write the JSON report to FILE.
    #[arg(long, value_name = "FILE")]
    output_json: Option<PathBuf>,
    /// Also write the Markdown summary to FILE.
    #[arg(long, value_name = "FILE")]
    output_markdown: Option<PathBuf>,
    /// Also write a JUnit XML report to FILE (GitLab and Jenkins test reports).
    #[arg(long, value_name = "FILE")]
    output_junit: Option<PathBuf>,
    /// Also write a GitLab Code Quality report to FILE.
    #[arg(long, value_name = "FILE")]
    output_gitlab: Option<PathBuf>,
    /// Also write the self-contained HTML report (with the rollout timeline) to FILE.
    #[arg(long, value_name = "FILE")]
    output_html: Option<PathBuf>,
    /// Fail (exit 1) on findings the change introduces at or above this severity.
    /// [default: error, or `fail-on` of the configuration]
    #[arg(long, value_enum)]
    fail_on: Option<FailOn>,
    /// The configuration file (default: .nodecast.yaml from PATH up to the repository root).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Report only findings the baseline FILE does not hold (`nodecast baseline write FILE`).
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Fail unless every disruptive forecast entry is acknowledged (also `require-ack: true`).
    #[arg(long, conflicts_with = "no_require_ack")]
    require_ack: bool,
    /// Do not require acknowledgements in this run, whatever the configuration says (the
    /// pre-commit stage: the commit message that would carry them does not exist yet; the
    /// commit-msg hook checks them).
    #[arg(long)]
    no_require_ack: bool,
    /// Acknowledge a disruptive rollout (repeatable): `NodePool/clusters/workers`, or `all`.
    #[arg(long, value_name = "TARGET")]
    ack: Vec<String>,
    /// Read `Nodecast-Ack:` trailers from this commit message file too (the `commit-msg` hook
    /// passes the message of the commit being made).
    #[arg(long, value_name = "FILE")]
    message_file: Option<PathBuf>,
    /// Print only findings and the forecast of disruptive or unmodelled changes; nothing on a
    /// clean, harmless change (for hooks that show their output).
    #[arg(long, short)]
    quiet: bool,
    /// Always exit 0 when the check ran, whatever it found.
    #[arg(long)]
    exit_zero: bool,
    /// Also list findings the base revision already has (by default only what the change
    /// introduces is listed and decides the exit code; also `report: all`).
    #[arg(long)]
    all: bool,
    /// The current time for time-dependent decisions (RFC 3339), for reproducible runs.
    #[arg(long, value_name = "RFC3339")]
    now: Option<String>,
    /// Colour: auto follows FORCE_COLOR, NO_COLOR, CLICOLOR and the terminal.
    #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
    color: ColorArg,
    /// Files larger than this many bytes are skipped (with a finding).
    #[arg(long, value_name = "BYTES", default_value_t = 10 * 1024 * 1024)]
    max_file_size: u64,
    /// More detail: rollout fingerprints in human output, and (on stderr) the CEL rules nodecast could not evaluate.
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
    /// Skip schema and CEL validation (V101–V106), e.g. for scenario trees of partial manifests.
    #[arg(long)]
    no_schema: bool,
    /// CoreOS boot image metadata (a `coreos-bootimages` ConfigMap or a stream JSON document), to
    /// check that every NodePool's stream has a boot image for its platform, architecture and region.
    #[arg(long, value_name = "FILE")]
    stream_metadata: Option<PathBuf>,
    /// Lint Kustomize roots unrendered (by default they are rendered when kubectl or kustomize is on PATH).
    #[arg(long)]
    no_render: bool,
    /// The Kustomize to render with: `kubectl` (runs `kubectl kustomize`), `kustomize` (runs `kustomize build`), or a path.
    #[arg(long, value_name = "PROGRAM")]
    kustomize: Option<std::path::PathBuf>,
    /// Longest time one Kustomize render may take before it is stopped.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    render_timeout: u64,
    /// Run the renderer even for roots that only list plain files (their render is their input);
    /// for tests that compare the two.
    #[arg(long, hide = true)]
    render_every_root: bool,
    /// Where Kustomize renders, validation results and the records that scope later checks are
    /// kept between runs (default: `$XDG_CACHE_HOME/nodecast`, or the platform's cache folder);
    /// safe to delete at any time.
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
    /// Neither read nor write the cache: render every Kustomize root and evaluate the whole
    /// repository.
    #[arg(long)]
    no_cache: bool,
    /// Evaluate everything, with no shortcut: no cache, no model kept from another evaluation
    /// (the reference the shortcuts must equal).
    #[arg(long)]
    full: bool,
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
    Sarif,
    Github,
    Markdown,
    Junit,
    Gitlab,
    Html,
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
    return_freed_memory_promptly();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check(args) => run_check(*args),
        Command::Baseline(BaselineCommand::Write { file, check }) => write_baseline(&file, *check),
        Command::Rules => {
            let mut out = String::new();
            for r in catalog::all() {
                out.push_str(&format!(
                    "{:<5} {:<8} {:<28} {}\n",
                    r.code, r.severity, r.name, r.summary
                ));
            }
            print(&out).map(|_| ExitCode::SUCCESS)
        }
        Command::Schedule(args) => run_schedule(args),
        Command::SchemaCoverage { verbose } => print(&nodecast::validate::coverage::render(
            &nodecast::validate::coverage::bundled(),
            verbose,
        ))
        .map(|_| ExitCode::SUCCESS),
        Command::Init { path, force } => init(&path, force),
        Command::Server { stdio: _ } => Ok(if nodecast::server::serve() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        }),
        Command::Completions { shell } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut cmd, "nodecast", &mut out);
            print(&String::from_utf8_lossy(&out)).map(|_| ExitCode::SUCCESS)
        }
        Command::Man { dir } => man(dir.as_deref()),
        Command::Explain { code } => match catalog::page(&code) {
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

fn render(
    outcome: &check::Outcome,
    format: Format,
    color: ColorArg,
    quiet: bool,
) -> Result<String, Fatal> {
    let json = |v: serde_json::Value| {
        let mut s = serde_json::to_string_pretty(&v)
            .map_err(|e| Fatal::new(format!("internal error: {e}"), "please report this"))?;
        s.push('\n');
        Ok::<String, Fatal>(s)
    };
    Ok(match format {
        Format::Json => report::json::render(outcome)
            .map_err(|e| Fatal::new(format!("internal error: {e}"), "please report this"))?,
        Format::Sarif => json(report::sarif::report(outcome))?,
        Format::Github => report::github::render(outcome),
        Format::Markdown => report::markdown::render(outcome, report::markdown::PR_COMMENT_BUDGET),
        Format::Junit => report::junit::render(outcome),
        Format::Gitlab => json(report::gitlab::report(outcome))?,
        Format::Html => report::html::render(outcome),
        Format::Human => {
            let choice = match color {
                ColorArg::Auto => ColorChoice::Auto,
                ColorArg::Always => ColorChoice::Always,
                ColorArg::Never => ColorChoice::Never,
            };
            let color = color::decide(
                choice,
                |k| std::env::var(k).ok(),
                std::io::stdout().is_terminal(),
            );
            let env = |k: &str| std::env::var(k).ok();
            let terminal = std::io::stdout()
                .is_terminal()
                .then(|| terminal_size::terminal_size().map(|(w, _)| usize::from(w.0)))
                .flatten();
            human::render(
                outcome,
                human::Style {
                    color,
                    width: color::width(env, terminal),
                    quiet,
                    unicode: color::unicode(env),
                },
            )
        }
    })
}

/// In GitHub Actions: the Markdown step summary and the step outputs.
fn publish_to_actions(outcome: &check::Outcome) -> Result<(), Fatal> {
    if let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()) {
        let summary = report::markdown::render(outcome, report::markdown::STEP_SUMMARY_BUDGET);
        report::github::append(std::path::Path::new(&path), &summary)?;
    }
    if let Some(path) = std::env::var_os("GITHUB_OUTPUT").filter(|p| !p.is_empty()) {
        report::github::append(
            std::path::Path::new(&path),
            &report::github::outputs(outcome),
        )?;
    }
    Ok(())
}

/// `nodecast init`: the commented configuration, never over an existing one unless asked.
fn init(dir: &std::path::Path, force: bool) -> Result<ExitCode, Fatal> {
    let file = dir.join(nodecast::config::FILE_NAMES[0]);
    let existing = nodecast::config::FILE_NAMES
        .iter()
        .map(|n| dir.join(n))
        .find(|p| p.exists());
    if let (Some(existing), false) = (existing, force) {
        return Err(Fatal::new(
            format!("{} already exists", existing.display()),
            "edit it, or pass --force to replace it with the commented default",
        ));
    }
    std::fs::write(&file, nodecast::config::TEMPLATE).map_err(|e| {
        Fatal::new(
            format!("cannot write {}: {e}", file.display()),
            "pass a writable folder",
        )
    })?;
    eprintln!("nodecast: wrote {}", file.display());
    Ok(ExitCode::SUCCESS)
}

/// `nodecast man`: the manual page of every command, from the same definitions as `--help`.
fn man(dir: Option<&std::path::Path>) -> Result<ExitCode, Fatal> {
    let cmd = <Cli as clap::CommandFactory>::command();
    let failed = |e: std::io::Error| {
        Fatal::new(
            format!("cannot write the manual page: {e}"),
            "pass a writable --dir",
        )
    };
    match dir {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(failed)?;
            clap_mangen::generate_to(cmd, dir).map_err(failed)?;
            Ok(ExitCode::SUCCESS)
        }
        None => {
            let mut out = Vec::new();
            clap_mangen::Man::new(cmd)
                .render(&mut out)
                .map_err(failed)?;
            print(&String::from_utf8_lossy(&out)).map(|_| ExitCode::SUCCESS)
        }
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

fn options(args: &CheckArgs) -> Result<(check::Options, Severity), Fatal> {
    let now = parse_now(&args.now)?;
    let req = CompareRequest {
        path: args.path.clone(),
        base: args.base.clone(),
        head: args.head.clone(),
        staged: args.staged,
        base_dir: args.base_dir.clone(),
        no_base: args.no_base,
        max_file_size: args.max_file_size,
        merge_base: false,
        overlay: Default::default(),
    };
    let mut req = req;
    let explicit =
        req.base.is_some() || req.head.is_some() || req.base_dir.is_some() || req.no_base;
    if !explicit {
        // pre-commit's ref range applies to hooks (even with --staged); a GitHub event does not
        // override --staged.
        match nodecast::source::ci::range(&|k| std::env::var(k).ok())? {
            Some(ci) if ci.head.is_some() || !req.staged => {
                req.staged = req.staged && ci.head.is_none();
                req.base = Some(ci.base);
                req.head = ci.head;
                req.merge_base = ci.merge_base;
            }
            _ => {}
        }
    }
    let mut options = check::Options::new(req, now);
    options.now_given = args.now.is_some();
    options.verbose = args.verbose;
    options.enforce_windows = args.enforce_windows;
    options.per_node_minutes = args.per_node_minutes;
    options.min_permitted_hours = args.min_permitted_hours;
    options.validation.schemas_dir = args.schemas.clone();
    options.validation.feature_set = args.feature_set.clone();
    options.validation.unknown_fields_are_errors = args.unknown_fields == UnknownFields::Error;
    options.validation.disabled = args.no_schema;
    options.kustomize = nodecast::kustomize::Settings {
        enabled: !args.no_render,
        program: args.kustomize.clone(),
        timeout: std::time::Duration::from_secs(args.render_timeout.max(1)),
        emulate_identity: !args.render_every_root,
        cache_dir: if args.no_cache || args.full {
            None
        } else {
            args.cache_dir
                .clone()
                .or_else(nodecast::kustomize::cache::default_dir)
        },
    };
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
    if let Some(file) = &args.stream_metadata {
        let text = std::fs::read_to_string(file).map_err(|e| {
            Fatal::new(
                format!("--stream-metadata {}: {e}", file.display()),
                "pass the coreos-bootimages ConfigMap of the release (YAML or JSON)",
            )
        })?;
        options.stream_metadata = Some(
            nodecast::forecast::boot_images::Metadata::parse(&text).ok_or_else(|| {
                Fatal::new(
                    format!("--stream-metadata {}: no CoreOS stream metadata in it", file.display()),
                    "pass the coreos-bootimages ConfigMap (data.stream / data.streams) or a stream document with `architectures`",
                )
            })?,
        );
    }
    let root = nodecast::config::root_of(&args.path);
    let config_file = match &args.config {
        Some(file) => Some(file.clone()),
        None => nodecast::config::discover(&args.path),
    };
    let config = match config_file {
        Some(file) => Some(nodecast::config::load(
            &file,
            &nodecast::config::relative_name(&file, &root),
            nodecast::catalog::all(),
        )?),
        None => None,
    };
    if let Some(file) = &args.baseline {
        let b = nodecast::triage::baseline::read(file)?;
        options.triage.baseline = Some((b, nodecast::config::relative_name(file, &root)));
    }
    options.triage.require_ack = args.require_ack;
    options.report_all = args.all;
    options.full = args.full;
    if let Some(config) = config {
        options.apply_config(config, &root)?;
    }
    if args.no_require_ack {
        options.triage.require_ack = false;
    }
    options.triage.acks = args.ack.clone();
    if let Some(file) = &args.message_file {
        let message = std::fs::read_to_string(file).map_err(|e| {
            Fatal::new(
                format!("cannot read the commit message {}: {e}", file.display()),
                "pass the file Git gives a commit-msg hook (pre-commit does this)",
            )
        })?;
        options
            .triage
            .acks
            .extend(nodecast::triage::ack::message_trailers(&message));
    }
    let threshold = match args.fail_on {
        Some(FailOn::Error) => Severity::Error,
        Some(FailOn::Warning) => Severity::Warning,
        Some(FailOn::Info) => Severity::Info,
        None => options.triage.config.fail_on.unwrap_or(Severity::Error),
    };
    Ok((options, threshold))
}

fn write_baseline(file: &std::path::Path, mut args: CheckArgs) -> Result<ExitCode, Fatal> {
    args.baseline = None;
    let (mut options, _) = options(&args)?;
    options.triage.baseline = None;
    // The baseline records every finding of the head, pre-existing or not.
    options.report_all = true;
    let outcome = check::run(&options)?;
    let baseline = nodecast::triage::baseline::of(&outcome.diagnostics, &outcome.files);
    let mut text = serde_json::to_string_pretty(&baseline)
        .map_err(|e| Fatal::new(format!("internal error: {e}"), "please report this"))?;
    text.push('\n');
    std::fs::write(file, text).map_err(|e| {
        Fatal::new(
            format!("cannot write {}: {e}", file.display()),
            "pass a writable path",
        )
    })?;
    eprintln!(
        "nodecast: wrote {} finding(s) to {}",
        baseline.findings.len(),
        file.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn run_check(args: CheckArgs) -> Result<ExitCode, Fatal> {
    let (options, threshold) = options(&args)?;
    let outcome = check::run(&options)?;
    let mut clock = check::Stopwatch::from_env();
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
    let format = args.format.unwrap_or_else(|| {
        if std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true") {
            Format::Github
        } else {
            Format::Human
        }
    });
    for (file, format) in [
        (&args.output_sarif, Format::Sarif),
        (&args.output_json, Format::Json),
        (&args.output_markdown, Format::Markdown),
        (&args.output_junit, Format::Junit),
        (&args.output_gitlab, Format::Gitlab),
        (&args.output_html, Format::Html),
    ] {
        if let Some(file) = file {
            let text = render(&outcome, format, args.color, args.quiet)?;
            std::fs::write(file, text).map_err(|e| {
                Fatal::new(
                    format!("cannot write {}: {e}", file.display()),
                    "pass a writable path",
                )
            })?;
        }
    }
    let rendered = render(&outcome, format, args.color, args.quiet)?;
    if let Format::Github = format {
        publish_to_actions(&outcome)?;
    }
    print(&rendered)?;
    clock.lap("report");
    // Only what the change introduces fails the run; pre-existing findings (listed with --all)
    // are counted, not failed on.
    let failed = outcome
        .diagnostics
        .iter()
        .any(|d| d.severity >= threshold && d.state.introduced());
    // The process ends here: freeing every parsed tree one by one would only cost time.
    std::mem::forget(outcome);
    Ok(if failed && !args.exit_zero {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
