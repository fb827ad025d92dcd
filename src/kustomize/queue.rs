//! Runs jobs one per thread and hands their results over in job order: renders take from a tenth
//! to several seconds each, and a batch that waited for its slowest render left a core idle (a
//! tenth of a first check of a fleet of overlays).

use std::sync::{Condvar, Mutex, MutexGuard};

/// What the threads share: the next job to start, how many results were taken, whether to stop,
/// and the results not taken yet.
struct State<T> {
    next: usize,
    taken: usize,
    stop: bool,
    done: Vec<Option<std::thread::Result<T>>>,
}

/// Runs `work(i)` for each job `i` below `jobs` on `threads` threads, starting jobs in order and
/// calling `take(i, result)` in order on the calling thread. When `take` returns false no later
/// job starts and `take` is not called again. A job starts only while fewer than `threads`
/// finished results wait to be taken, so at most `threads` are held at once; which results
/// `take` sees never depends on thread timing. A panic in `work` is raised again here.
pub fn in_order<T: Send>(
    jobs: usize,
    threads: usize,
    work: impl Fn(usize) -> T + Sync,
    mut take: impl FnMut(usize, T) -> bool,
) {
    let threads = threads.clamp(1, jobs.max(1));
    let state = Mutex::new(State {
        next: 0,
        taken: 0,
        stop: false,
        done: (0..jobs).map(|_| None).collect(),
    });
    let changed = Condvar::new();
    let lock = || state.lock().unwrap_or_else(|e| e.into_inner());
    let wait = |guard| wait_on(&changed, guard);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = {
                    let mut s = lock();
                    loop {
                        if s.stop || s.next >= jobs {
                            return;
                        }
                        if s.next < s.taken + threads {
                            break;
                        }
                        s = wait(s);
                    }
                    s.next += 1;
                    s.next - 1
                };
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(i)));
                lock().done[i] = Some(result);
                changed.notify_all();
            });
        }
        for i in 0..jobs {
            let result = {
                let mut s = lock();
                // Job `i` has started or can start: every earlier one was taken.
                let result = loop {
                    if let Some(r) = s.done[i].take() {
                        break r;
                    }
                    s = wait(s);
                };
                s.taken = i + 1;
                result
            };
            changed.notify_all();
            let more = match result {
                Ok(value) => take(i, value),
                Err(panic) => {
                    lock().stop = true;
                    changed.notify_all();
                    std::panic::resume_unwind(panic);
                }
            };
            if !more {
                break;
            }
        }
        lock().stop = true;
        changed.notify_all();
    });
}

/// Waits for a change (a poisoned lock is still the state: every writer leaves it whole).
fn wait_on<'a, T>(changed: &Condvar, guard: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
    changed.wait(guard).unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[test]
    fn results_are_taken_in_job_order_whatever_finishes_first() {
        let mut seen = Vec::new();
        // Early jobs are the slowest: later ones finish first.
        in_order(
            12,
            3,
            |i| {
                std::thread::sleep(Duration::from_millis(((12 - i) * 3) as u64));
                i * 10
            },
            |i, v| {
                seen.push((i, v));
                true
            },
        );
        assert_eq!(seen, (0..12).map(|i| (i, i * 10)).collect::<Vec<_>>());
    }

    #[test]
    fn no_job_starts_after_take_says_stop_and_at_most_one_per_thread_waits() {
        let started = AtomicUsize::new(0);
        let waiting_max = AtomicUsize::new(0);
        let finished = AtomicUsize::new(0);
        let taken = AtomicUsize::new(0);
        let mut calls = Vec::new();
        in_order(
            100,
            2,
            |i| {
                started.fetch_add(1, Ordering::SeqCst);
                let done = finished.fetch_add(1, Ordering::SeqCst) + 1;
                waiting_max.fetch_max(done - taken.load(Ordering::SeqCst), Ordering::SeqCst);
                i
            },
            |i, _| {
                taken.fetch_add(1, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(2));
                calls.push(i);
                i < 9
            },
        );
        assert_eq!(calls, (0..10).collect::<Vec<_>>());
        // Jobs 10 and 11 may have started while job 9 was taken; none after.
        let started = started.load(Ordering::SeqCst);
        assert!((10..=12).contains(&started), "{started} jobs started");
        assert!(waiting_max.load(Ordering::SeqCst) <= 3);
    }

    #[test]
    fn no_jobs_and_one_thread_for_many_jobs() {
        let mut calls = 0;
        in_order(
            0,
            4,
            |i| i,
            |_, _| {
                calls += 1;
                true
            },
        );
        assert_eq!(calls, 0);
        let mut seen = Vec::new();
        in_order(
            5,
            1,
            |i| i + 1,
            |_, v| {
                seen.push(v);
                true
            },
        );
        assert_eq!(seen, vec![1, 2, 3, 4, 5]);
    }

    #[test]
    fn a_panic_in_a_job_is_raised_to_the_caller() {
        let caught = std::panic::catch_unwind(|| {
            in_order(
                8,
                2,
                |i| {
                    assert_ne!(i, 3, "job three fails");
                    i
                },
                |_, _| true,
            );
        });
        assert!(caught.is_err());
    }
}
