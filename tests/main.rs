//! Every integration test in one binary.
//!
//! One file per capability stays in `tests/`; they link into one test binary instead of one
//! each, because each binary carries all of nodecast: thirty-two of them took 2.4 GB of a 2.5 GB
//! test build and ran a CI machine out of space, and linked for most of the test build's time.
//! Run one file's tests with `cargo test --test integration <file>::`.

mod common;

mod action;
mod architecture;
mod bounds;
mod browser;
mod cli;
mod compare;
mod determinism;
mod fixtures;
mod formats;
mod generated_kustomize_repo;
mod generated_repo;
mod github_actions;
mod hcp;
mod introduced;
mod lsp;
mod mco;
mod never_panics;
mod packaging;
mod placement;
mod policy;
mod pre_commit;
mod real;
mod report_schema;
mod rrule_differential;
mod sarif;
mod scenario_fixtures;
mod schedule_scenarios;
mod schedule_validation;
mod schema_oracle;
mod schema_validation;
mod scoped;
mod secrets;
mod shapes;
mod stream_suites;
mod tooling;
mod unreadable;
