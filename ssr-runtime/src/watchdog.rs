//! Stops a script from outside: a thread per engine that terminates the engine's execution when
//! the deadline of the current render (or load) passes.

use deno_core::v8::IsolateHandle;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

#[derive(Default)]
struct State {
    deadline: Option<Instant>,
    fired: bool,
    stop: bool,
}

type Shared = Arc<(Mutex<State>, Condvar)>;

/// Owned by the engine; dropping it stops and joins the thread.
pub(crate) struct Watchdog {
    shared: Shared,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    /// Watches the isolate behind `handle`. If the thread cannot be started, renders run without
    /// a time limit; that is logged, not fatal.
    pub fn start(handle: IsolateHandle) -> Self {
        let shared: Shared = Arc::default();
        let watched = Arc::clone(&shared);
        let thread = thread::Builder::new()
            .name("ssr-watchdog".to_owned())
            .stack_size(64 * 1024)
            .spawn(move || watch(&watched, &handle))
            .inspect_err(|error| tracing::error!(%error, "no watchdog: renders of this engine have no time limit"))
            .ok();
        Watchdog { shared, thread }
    }

    /// Starts the clock: if [`Watchdog::disarm`] is not called within `limit`, the engine's
    /// script is terminated.
    pub fn arm(&self, limit: Duration) {
        let mut state = lock(&self.shared);
        state.deadline = Some(Instant::now() + limit);
        state.fired = false;
        self.shared.1.notify_one();
    }

    /// Stops the clock. Returns whether the script was terminated since [`Watchdog::arm`]; if so,
    /// the engine may still be in its terminating state and must not run anything again.
    pub fn disarm(&self) -> bool {
        let mut state = lock(&self.shared);
        state.deadline = None;
        state.fired
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        lock(&self.shared).stop = true;
        self.shared.1.notify_one();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn lock(shared: &Shared) -> MutexGuard<'_, State> {
    shared.0.lock().unwrap_or_else(PoisonError::into_inner)
}

fn watch(shared: &Shared, handle: &IsolateHandle) {
    let (mutex, wake) = &**shared;
    let mut state = mutex.lock().unwrap_or_else(PoisonError::into_inner);
    loop {
        if state.stop {
            return;
        }
        state = match state.deadline {
            None => wake.wait(state).unwrap_or_else(PoisonError::into_inner),
            Some(at) => {
                let now = Instant::now();
                if now >= at {
                    // Under the lock: `disarm` cannot slip between this check and the flag.
                    handle.terminate_execution();
                    state.fired = true;
                    state.deadline = None;
                    continue;
                }
                wake.wait_timeout(state, at - now).unwrap_or_else(PoisonError::into_inner).0
            }
        };
    }
}
