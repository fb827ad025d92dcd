//! Clean exits while Kustomize runs: on SIGINT, SIGTERM or SIGHUP every renderer's process group
//! is killed, each render removes its temporary folder as it unwinds, and the process then ends
//! with 128 + the signal number. Outside rendering the signal ends the process at once (nothing
//! to clean up), as it would without a handler.

use std::sync::Mutex;
use std::time::{Duration, Instant};

struct State {
    /// Renders holding a [`Slot`] (their temporary folder may exist).
    active: usize,
    /// Process groups of the renderers running now.
    groups: Vec<i32>,
    /// The signal received, once one was.
    interrupted: Option<i32>,
    installed: bool,
}

static STATE: Mutex<State> = Mutex::new(State {
    active: 0,
    groups: Vec::new(),
    interrupted: None,
    installed: false,
});

fn state() -> std::sync::MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Installs the handler (once per process), before the first renderer starts.
pub fn install() {
    let mut s = state();
    if s.installed {
        return;
    }
    s.installed = true;
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            on_signal(sig);
        }
    });
}

fn on_signal(sig: i32) -> ! {
    stop_renders(sig);
    std::process::exit(128 + sig)
}

/// Stops every renderer and waits (bounded) until each render has removed its temporary folder;
/// no render starts afterwards. For a process that ends while a check may still be rendering
/// (`nodecast server` when its client goes away), as a signal would.
pub fn stop_renders(sig: i32) {
    {
        let mut s = state();
        s.interrupted = Some(sig);
        for &g in &s.groups {
            kill_group(g);
        }
    }
    // Each render removes its folder when its renderer exits; wait for them (bounded).
    let deadline = Instant::now() + Duration::from_secs(10);
    while state().active > 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The signal that interrupted the run, if any.
pub fn interrupted() -> Option<i32> {
    state().interrupted
}

/// A render in progress; dropping it (after the temporary folder is gone) releases it.
pub struct Slot(());

impl Drop for Slot {
    fn drop(&mut self) {
        let mut s = state();
        s.active = s.active.saturating_sub(1);
    }
}

/// Starts a render, or `None` once the run is interrupted (no new folder, no new process).
pub fn begin() -> Option<Slot> {
    let mut s = state();
    if s.interrupted.is_some() {
        return None;
    }
    s.active += 1;
    Some(Slot(()))
}

/// Registers a renderer's process group; false (and the group killed) when the run was
/// interrupted while it started.
pub fn started(group: i32) -> bool {
    let mut s = state();
    if s.interrupted.is_some() {
        kill_group(group);
        return false;
    }
    s.groups.push(group);
    true
}

/// Forgets a renderer's process group once it has exited.
pub fn finished(group: i32) {
    state().groups.retain(|&g| g != group);
}

/// Kills a renderer and everything it started (`kubectl` → `kustomize` → `git`…).
pub fn kill_group(group: i32) {
    #[cfg(unix)]
    if group > 0 {
        // SAFETY: kill(2) with a negative pid signals that process group; no memory is shared.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = group;
}
