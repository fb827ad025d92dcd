//! nodecast: before a change to OpenShift cluster manifests is merged, say which NodePools and
//! MachineConfigPools it replaces, updates, reboots or leaves alone, when, and what is invalid.
//!
//! The pipeline runs one way: [`source`] → [`parse`] → [`inventory`] → [`diff`] → [`forecast`] →
//! [`rules`] → [`report`]. [`check::run`] drives it.

pub mod catalog;
pub mod check;
pub mod classify;
pub mod code;
pub mod color;
pub mod config;
pub mod diagnostic;
pub mod diff;
pub mod fingerprint;
pub mod forecast;
pub mod inventory;
mod keyed_hash;
pub mod kustomize;
pub mod parse;
pub mod placeholder;
pub mod redact;
pub mod report;
pub mod rules;
pub mod schedule;
pub mod scope;
pub mod server;
pub mod source;
pub mod text;
pub mod triage;
pub mod validate;

use std::fmt;

/// A failure that stops the run (exit code 2): what went wrong and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fatal {
    /// What went wrong.
    pub message: String,
    /// How to fix it.
    pub hint: String,
}

impl Fatal {
    /// A fatal error with its fix.
    pub fn new(message: impl Into<String>, hint: impl Into<String>) -> Self {
        Fatal {
            message: message.into(),
            hint: hint.into(),
        }
    }
}

impl fmt::Display for Fatal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\n  help: {}", self.message, self.hint)
    }
}

impl std::error::Error for Fatal {}
