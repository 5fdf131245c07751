//! The pool: one OS thread per engine, all taking jobs from one queue.

use crate::engine::{Engine, Limits};
use crate::{RenderError, RenderedPage};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::Duration;
use thread_priority::ThreadPriority;
use tokio::sync::oneshot;

/// How many engines to keep warm and the limits they run under.
#[derive(Debug, Clone)]
pub struct RendererConfig {
    /// Number of engines, each on its own thread. Size it to the server's workers.
    pub engines: usize,
    /// Longest a single render may run before it is interrupted.
    pub render_timeout: Duration,
    /// Longest loading the bundle into a new engine may take.
    pub load_timeout: Duration,
    /// Heap limit of each engine.
    pub memory_limit_bytes: usize,
    /// Run the engine threads at the lowest CPU priority (nice 19 on Linux): when the machine is
    /// busy, the threads that answer from memory (cached pages, assets, the API) go first, and
    /// renders take the time that is left. Off by default.
    pub low_priority: bool,
}

impl Default for RendererConfig {
    fn default() -> Self {
        Self {
            engines: thread::available_parallelism().map_or(2, usize::from),
            render_timeout: Duration::from_millis(500),
            load_timeout: Duration::from_secs(10),
            memory_limit_bytes: 128 * 1024 * 1024,
            low_priority: false,
        }
    }
}

/// Counters of the pool's work since it started.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RendererStats {
    /// Renders that returned a page.
    pub rendered: u64,
    /// Renders that returned an error.
    pub failed: u64,
    /// Engines rebuilt after a render poisoned them.
    pub engines_rebuilt: u64,
}

#[derive(Default)]
struct Counters {
    rendered: AtomicU64,
    failed: AtomicU64,
    engines_rebuilt: AtomicU64,
}

struct Job {
    page: String,
    props_json: String,
    reply: oneshot::Sender<Result<RenderedPage, RenderError>>,
}

/// A pool of warm engines with the server bundle loaded. Cheap to share behind an `Arc`.
/// [`Renderer::shutdown`], or dropping the last handle, lets the engines finish the renders
/// already asked for, then drops every engine on its own thread and joins the threads.
pub struct Renderer {
    jobs: Mutex<Option<Sender<Job>>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
    counters: Arc<Counters>,
}

/// Stack for an engine thread: QuickJS's own stack limit sits well inside it.
const ENGINE_THREAD_STACK_BYTES: usize = 8 * 1024 * 1024;
const ENGINE_MAX_STACK_BYTES: usize = 4 * 1024 * 1024;

impl Renderer {
    /// Starts `config.engines` engines and loads `bundle` into each. Returns when all are warm, or
    /// with the first engine's error if the bundle cannot be loaded.
    pub fn start(bundle: impl Into<String>, config: RendererConfig) -> Result<Self, RenderError> {
        let bundle: Arc<str> = Arc::from(bundle.into());
        let limits = Limits {
            render_timeout: config.render_timeout,
            load_timeout: config.load_timeout,
            memory_limit_bytes: config.memory_limit_bytes,
            max_stack_bytes: ENGINE_MAX_STACK_BYTES,
        };
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        let counters = Arc::new(Counters::default());
        let (ready_tx, ready_rx) = mpsc::channel::<Result<(), RenderError>>();
        let low_priority = config.low_priority;
        let mut threads = Vec::with_capacity(config.engines.max(1));

        for index in 0..config.engines.max(1) {
            let bundle = Arc::clone(&bundle);
            let queue = Arc::clone(&queue);
            let counters = Arc::clone(&counters);
            let ready = ready_tx.clone();
            let thread = thread::Builder::new()
                .name(format!("ssr-engine-{index}"))
                .stack_size(ENGINE_THREAD_STACK_BYTES)
                .spawn(move || {
                    if low_priority
                        && let Err(error) = thread_priority::set_current_thread_priority(ThreadPriority::Min)
                    {
                        tracing::warn!(?error, "the engine thread keeps its normal priority");
                    }
                    run_engine(&bundle, limits, &queue, &counters, &ready)
                })
                .map_err(|_| RenderError::Unavailable)?;
            threads.push(thread);
        }
        drop(ready_tx);
        let renderer = Self { jobs: Mutex::new(Some(jobs)), threads: Mutex::new(threads), counters };
        // On an error, dropping `renderer` stops and joins the engines that did start.
        for ready in ready_rx.iter().take(config.engines.max(1)) {
            ready?;
        }
        Ok(renderer)
    }

    /// Stops taking renders; returns once the renders already queued are answered and every
    /// engine is dropped. Renders asked for afterwards get [`RenderError::Unavailable`].
    pub fn shutdown(&self) {
        drop(self.jobs.lock().unwrap_or_else(PoisonError::into_inner).take());
        let threads = std::mem::take(&mut *self.threads.lock().unwrap_or_else(PoisonError::into_inner));
        for thread in threads {
            if thread.join().is_err() {
                tracing::error!("a rendering engine's thread panicked");
            }
        }
    }

    /// Renders `page` with `props_json` on the next free engine.
    pub async fn render(&self, page: &str, props_json: &str) -> Result<RenderedPage, RenderError> {
        self.submit(page, props_json)?.await.unwrap_or(Err(RenderError::Unavailable))
    }

    /// Like [`Renderer::render`], blocking the calling thread. Do not call it on an async runtime.
    pub fn render_blocking(&self, page: &str, props_json: &str) -> Result<RenderedPage, RenderError> {
        self.submit(page, props_json)?.blocking_recv().unwrap_or(Err(RenderError::Unavailable))
    }

    /// The pool's counters so far.
    pub fn stats(&self) -> RendererStats {
        RendererStats {
            rendered: self.counters.rendered.load(Ordering::Relaxed),
            failed: self.counters.failed.load(Ordering::Relaxed),
            engines_rebuilt: self.counters.engines_rebuilt.load(Ordering::Relaxed),
        }
    }

    fn submit(
        &self,
        page: &str,
        props_json: &str,
    ) -> Result<oneshot::Receiver<Result<RenderedPage, RenderError>>, RenderError> {
        let (reply, answer) = oneshot::channel();
        let job = Job { page: page.to_owned(), props_json: props_json.to_owned(), reply };
        let jobs = self.jobs.lock().unwrap_or_else(PoisonError::into_inner);
        jobs.as_ref().ok_or(RenderError::Unavailable)?.send(job).map_err(|_| RenderError::Unavailable)?;
        Ok(answer)
    }
}

impl Drop for Renderer {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn run_engine(
    bundle: &str,
    limits: Limits,
    queue: &Mutex<Receiver<Job>>,
    counters: &Counters,
    ready: &mpsc::Sender<Result<(), RenderError>>,
) {
    // A panic while loading is answered like any failure to load: `start` waits for every engine.
    let loaded = catch_unwind(AssertUnwindSafe(|| Engine::load(bundle, limits))).unwrap_or_else(|_| {
        Err(RenderError::BundleLoad { message: "the engine panicked while loading the bundle".to_owned() })
    });
    let mut engine = match loaded {
        Ok(engine) => {
            let _ = ready.send(Ok(()));
            Some(engine)
        }
        Err(error) => {
            let _ = ready.send(Err(error));
            return;
        }
    };
    loop {
        // The lock is held only while waiting for a job, never during a render.
        let job = match queue.lock() {
            Ok(receiver) => receiver.recv(),
            Err(_) => return,
        };
        let Ok(job) = job else { return };
        if engine.is_none() {
            // The last rebuild failed; try again, counted as another rebuild.
            counters.engines_rebuilt.fetch_add(1, Ordering::Relaxed);
            engine = load_again(bundle, limits);
        }
        let Some(current) = engine.as_ref() else {
            let _ = job.reply.send(Err(RenderError::Unavailable));
            continue;
        };
        let result = catch_unwind(AssertUnwindSafe(|| current.render(&job.page, &job.props_json)))
            .unwrap_or_else(|_| Err(RenderError::Threw { message: "the engine panicked while rendering".to_owned() }));
        match &result {
            Ok(_) => counters.rendered.fetch_add(1, Ordering::Relaxed),
            Err(_) => counters.failed.fetch_add(1, Ordering::Relaxed),
        };
        let poisoned = result.as_ref().is_err_and(RenderError::poisons_engine);
        if poisoned {
            // Counted before the answer, so that whoever gets it sees the rebuild in the stats.
            counters.engines_rebuilt.fetch_add(1, Ordering::Relaxed);
        }
        let _ = job.reply.send(result);
        if poisoned {
            // Rebuilt now, after answering, so that the next job does not wait for it. The old
            // engine goes first: two at once would need twice the memory.
            drop(engine.take());
            engine = load_again(bundle, limits);
        }
    }
    // `engine` is dropped here, on its own thread, before the thread ends.
}

fn load_again(bundle: &str, limits: Limits) -> Option<Engine> {
    match Engine::load(bundle, limits) {
        Ok(engine) => Some(engine),
        Err(error) => {
            tracing::error!(%error, "could not rebuild a rendering engine");
            None
        }
    }
}
