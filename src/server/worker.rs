//! Checks run off the message loop, one at a time, on a thread of their own: the loop keeps
//! answering (hover, code actions, more edits) while the engine works, and a result carries the
//! document versions it was computed from, so the loop can tell a stale one.

use std::collections::BTreeMap;
use std::sync::mpsc::{self, Sender};
use std::time::{Duration, Instant};

use super::Event;
use crate::check::{Options, Outcome};

/// One check to run.
pub struct Job {
    /// The loop's edit counter when the job was made.
    pub generation: u64,
    /// The loop's settings counter when the job was made.
    pub epoch: u64,
    /// What to check (the head with the open buffers laid over it).
    pub options: Options,
    /// Each open document's version in the overlay (by URI).
    pub versions: BTreeMap<String, i32>,
}

/// A finished check.
pub struct Done {
    /// The job's edit counter.
    pub generation: u64,
    /// The job's settings counter.
    pub epoch: u64,
    /// The versions the outcome was computed from.
    pub versions: BTreeMap<String, i32>,
    /// The outcome, or why there is none (a fatal error, a panic of the engine).
    pub result: Result<Outcome, String>,
    /// How long the check took.
    pub elapsed: Duration,
}

/// Starts the worker; jobs sent to the returned channel come back as [`Event::Done`].
pub fn start(events: Sender<Event>) -> Sender<Job> {
    let (tx, rx) = mpsc::channel::<Job>();
    let spawned = std::thread::Builder::new()
        .name("nodecast-check".into())
        .spawn(move || {
            // What one check keeps for the next (parses, the base's findings).
            let mut reuse = crate::check::Reuse::keeping();
            for job in rx {
                let started = Instant::now();
                let options = job.options;
                // A bug in a stage must not take the editor's server down with it: the panic is
                // printed (stderr is the editor's log) and reported as an error.
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    crate::check::run_reusing(&options, &mut reuse)
                }));
                if result.is_err() {
                    // A check that panicked may have left anything behind: start afresh.
                    reuse = crate::check::Reuse::keeping();
                }
                let result = match result {
                    Ok(Ok(outcome)) => Ok(outcome),
                    Ok(Err(fatal)) => Err(format!("{}; {}", fatal.message, fatal.hint)),
                    Err(_) => Err("internal error: the check panicked (see the server log); please report this".into()),
                };
                let done = Done {
                    generation: job.generation,
                    epoch: job.epoch,
                    versions: job.versions,
                    result,
                    elapsed: started.elapsed(),
                };
                if events.send(Event::Done(Box::new(done))).is_err() {
                    return;
                }
            }
        });
    if let Err(e) = spawned {
        eprintln!("nodecast server: cannot start the check thread: {e}");
    }
    tx
}
