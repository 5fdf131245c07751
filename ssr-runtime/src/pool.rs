//! The renderer: one supervising thread per render process, all taking jobs from one queue, and a
//! spare process started ahead by its own thread.
//!
//! A slot (a supervising thread) starts its first process itself and keeps it until the process
//! is cut off (killed at the deadline, stopped at its heap limit), dies, grows above the memory
//! bound or has done its share of renders; it then answers the render in hand, takes the spare and
//! ends the old process. The spare's thread starts the next spare at once, or after a back-off
//! when processes have been dying; after [`GIVE_UP_AFTER`] starts in a row that failed it stops
//! and says so in the log, and renders are answered with [`RenderError::Unavailable`].
//!
//! Every process is started by a thread that lives as long as the renderer: a process's
//! parent-death signal fires when the *thread* that started it ends.

use crate::process::{Recipe, RenderProcess, StartError};
use crate::{RenderError, RenderedPage};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::Duration;
use tokio::sync::oneshot;

/// Starts in a row that failed before the spare's thread stops starting processes.
const GIVE_UP_AFTER: u32 = 5;
/// The first back-off after a process died; it doubles with each death in a row, up to
/// [`LONGEST_BACK_OFF`].
const FIRST_BACK_OFF: Duration = Duration::from_millis(100);
const LONGEST_BACK_OFF: Duration = Duration::from_secs(5);

/// How many render processes to keep warm and the limits they run under.
#[derive(Debug, Clone)]
pub struct RendererConfig {
    /// Render processes taking renders at once (a spare waits beside them). Size it to the
    /// server's workers.
    pub engines: usize,
    /// Longest a single render may run; at this deadline the process is killed.
    pub render_timeout: Duration,
    /// Longest starting a process and loading the bundle into it may take.
    pub load_timeout: Duration,
    /// Heap limit of each process's engine.
    pub memory_limit_bytes: usize,
    /// A process whose resident memory is above this after a render is replaced.
    pub recycle_above_bytes: u64,
    /// A process is replaced after about this many renders (give or take a tenth, so that
    /// processes started together are not replaced together).
    pub recycle_after_renders: u64,
    /// Run the processes at the lowest CPU priority (nice 19): when the machine is busy, the
    /// threads that answer from memory (cached pages, assets, the API) go first, and renders take
    /// the time that is left. Off by default.
    pub low_priority: bool,
    /// The executable to start as a render process: one whose `main` calls
    /// [`crate::run_if_render_process`] first. `None`: this process's own executable.
    pub program: Option<PathBuf>,
    /// Where the QuickJS engine keeps the bundle's compiled bytecode; `None`: no cache, nothing
    /// written.
    pub bytecode_cache: Option<PathBuf>,
}

impl Default for RendererConfig {
    fn default() -> Self {
        Self {
            engines: thread::available_parallelism().map_or(2, usize::from),
            render_timeout: Duration::from_millis(500),
            load_timeout: Duration::from_secs(10),
            memory_limit_bytes: 128 * 1024 * 1024,
            recycle_above_bytes: 256 * 1024 * 1024,
            recycle_after_renders: 10_000,
            low_priority: false,
            program: None,
            bytecode_cache: None,
        }
    }
}

/// Counters of the renderer's work since it started.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RendererStats {
    /// Renders that returned a page.
    pub rendered: u64,
    /// Renders that returned an error.
    pub failed: u64,
    /// Processes replaced because a render was cut off (time or memory limit) or the process died.
    pub engines_rebuilt: u64,
    /// Of those, processes that died on their own during a render.
    pub crashed: u64,
    /// Processes replaced because of their memory or their number of renders.
    pub recycled: u64,
}

#[derive(Default)]
struct Counters {
    rendered: AtomicU64,
    failed: AtomicU64,
    engines_rebuilt: AtomicU64,
    crashed: AtomicU64,
    recycled: AtomicU64,
}

struct Job {
    page: String,
    props_json: String,
    reply: oneshot::Sender<Result<RenderedPage, RenderError>>,
}

/// Renders pages in render processes with the server bundle loaded. Cheap to share behind an
/// `Arc`. [`Renderer::shutdown`], or dropping the last handle, lets the processes finish the
/// renders already asked for, then ends every process and joins the threads.
pub struct Renderer {
    jobs: Mutex<Option<Sender<Job>>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
    shared: Arc<Shared>,
}

/// What the slots and the spare's thread share.
struct Shared {
    recipe: Recipe,
    bundle: Vec<u8>,
    counters: Counters,
    spare: Mutex<Spare>,
    spare_changed: Condvar,
    /// Processes that died in a row (at start or mid-render), for the back-off.
    deaths_in_a_row: AtomicU32,
    /// The IDs of the live processes, the spare's included.
    process_ids: Mutex<Vec<u32>>,
}

#[derive(Default)]
struct Spare {
    process: Option<RenderProcess>,
    /// The spare's thread has stopped: shutdown, or processes keep failing to start.
    stopped: bool,
    /// The renderer is shutting down.
    shutting_down: bool,
}

impl Renderer {
    /// Starts `config.engines` render processes and loads `bundle` into each, then a spare in the
    /// background. Returns when the first ones are ready, or with the first error (a bundle that
    /// does not load is [`RenderError::BundleLoad`]).
    pub fn start(bundle: impl Into<String>, config: RendererConfig) -> Result<Self, RenderError> {
        let (program, name) = match config.program.clone() {
            Some(program) => (program.clone(), program.into_os_string()),
            // The running executable itself, even if its file has been replaced since it started,
            // under the name the server was started with (what `ps` shows).
            None => {
                (PathBuf::from("/proc/self/exe"), std::env::args_os().next().unwrap_or_else(|| "/proc/self/exe".into()))
            }
        };
        let recipe = Recipe {
            program,
            name,
            heap_limit_bytes: config.memory_limit_bytes,
            low_priority: config.low_priority,
            load_timeout: config.load_timeout,
            render_timeout: config.render_timeout,
            bytecode_cache: config.bytecode_cache.clone(),
            recycle_above_bytes: config.recycle_above_bytes,
            recycle_after_renders: config.recycle_after_renders,
        };
        let shared = Arc::new(Shared {
            recipe,
            bundle: bundle.into().into_bytes(),
            counters: Counters::default(),
            spare: Mutex::new(Spare::default()),
            spare_changed: Condvar::new(),
            deaths_in_a_row: AtomicU32::new(0),
            process_ids: Mutex::new(Vec::new()),
        });
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        let (ready_tx, ready_rx) = mpsc::channel::<Result<(), RenderError>>();
        let engines = config.engines.max(1);
        let mut threads = Vec::with_capacity(engines + 1);
        for index in 0..engines {
            let shared = Arc::clone(&shared);
            let queue = Arc::clone(&queue);
            let ready = ready_tx.clone();
            let thread = thread::Builder::new()
                .name(format!("ssr-slot-{index}"))
                .spawn(move || run_slot(&shared, &queue, &ready))
                .map_err(|_| RenderError::Unavailable)?;
            threads.push(thread);
        }
        drop(ready_tx);
        let renderer = Self { jobs: Mutex::new(Some(jobs)), threads: Mutex::new(threads), shared };
        // On an error, dropping `renderer` stops and joins the slots that did start.
        for ready in ready_rx.iter().take(engines) {
            ready?;
        }
        let spare_shared = Arc::clone(&renderer.shared);
        let spare_thread = thread::Builder::new()
            .name("ssr-spare".to_owned())
            .spawn(move || run_spare(&spare_shared))
            .map_err(|_| RenderError::Unavailable)?;
        lock(&renderer.threads).push(spare_thread);
        Ok(renderer)
    }

    /// Stops taking renders; returns once the renders already queued are answered and every
    /// process has ended. Renders asked for afterwards get [`RenderError::Unavailable`].
    pub fn shutdown(&self) {
        drop(lock(&self.jobs).take());
        {
            let mut spare = lock(&self.shared.spare);
            spare.shutting_down = true;
            self.shared.spare_changed.notify_all();
        }
        let threads = std::mem::take(&mut *lock(&self.threads));
        for thread in threads {
            if thread.join().is_err() {
                tracing::error!("a rendering thread panicked");
            }
        }
    }

    /// Renders `page` with `props_json` in the next free process.
    pub async fn render(&self, page: &str, props_json: &str) -> Result<RenderedPage, RenderError> {
        self.submit(page, props_json)?.await.unwrap_or(Err(RenderError::Unavailable))
    }

    /// Like [`Renderer::render`], blocking the calling thread. Do not call it on an async runtime.
    pub fn render_blocking(&self, page: &str, props_json: &str) -> Result<RenderedPage, RenderError> {
        self.submit(page, props_json)?.blocking_recv().unwrap_or(Err(RenderError::Unavailable))
    }

    /// The renderer's counters so far.
    pub fn stats(&self) -> RendererStats {
        let counters = &self.shared.counters;
        RendererStats {
            rendered: counters.rendered.load(Ordering::Relaxed),
            failed: counters.failed.load(Ordering::Relaxed),
            engines_rebuilt: counters.engines_rebuilt.load(Ordering::Relaxed),
            crashed: counters.crashed.load(Ordering::Relaxed),
            recycled: counters.recycled.load(Ordering::Relaxed),
        }
    }

    /// The operating-system IDs of the render processes alive now, the spare's included (for
    /// their memory figures).
    pub fn process_ids(&self) -> Vec<u32> {
        lock(&self.shared.process_ids).clone()
    }

    fn submit(
        &self,
        page: &str,
        props_json: &str,
    ) -> Result<oneshot::Receiver<Result<RenderedPage, RenderError>>, RenderError> {
        let (reply, answer) = oneshot::channel();
        let job = Job { page: page.to_owned(), props_json: props_json.to_owned(), reply };
        let jobs = lock(&self.jobs);
        jobs.as_ref().ok_or(RenderError::Unavailable)?.send(job).map_err(|_| RenderError::Unavailable)?;
        Ok(answer)
    }
}

impl Drop for Renderer {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Shared {
    fn start_process(&self) -> Result<RenderProcess, StartError> {
        let started = RenderProcess::start(&self.recipe, &self.bundle);
        match &started {
            Ok(process) => lock(&self.process_ids).push(process.id()),
            Err(StartError::Process(_)) => {
                self.deaths_in_a_row.fetch_add(1, Ordering::Relaxed);
            }
            Err(StartError::Bundle(_)) => {}
        }
        started
    }

    fn end_process(&self, process: RenderProcess) {
        let id = process.id();
        drop(process);
        lock(&self.process_ids).retain(|&live| live != id);
    }

    /// Takes the spare out, if there is one, and wakes the spare's thread to start the next.
    fn take_from(&self, spare: &mut Spare) -> Option<RenderProcess> {
        let process = spare.process.take();
        if process.is_some() {
            self.spare_changed.notify_all();
        }
        process
    }

    /// The spare if it is ready now.
    fn ready_spare(&self) -> Option<RenderProcess> {
        self.take_from(&mut lock(&self.spare))
    }

    /// The spare, once there is one; `None` when the spare's thread has stopped and none is left.
    fn take_spare(&self) -> Option<RenderProcess> {
        let mut spare = lock(&self.spare);
        loop {
            if let Some(process) = self.take_from(&mut spare) {
                return Some(process);
            }
            if spare.stopped {
                return None;
            }
            spare = self.spare_changed.wait(spare).unwrap_or_else(PoisonError::into_inner);
        }
    }
}

fn run_slot(shared: &Shared, queue: &Mutex<Receiver<Job>>, ready: &Sender<Result<(), RenderError>>) {
    let mut process = match shared.start_process() {
        Ok(process) => {
            let _ = ready.send(Ok(()));
            Some(process)
        }
        Err(StartError::Bundle(message)) => {
            let _ = ready.send(Err(RenderError::BundleLoad { message }));
            return;
        }
        Err(StartError::Process(message)) => {
            tracing::error!(%message, "a render process did not start");
            let _ = ready.send(Err(RenderError::BundleLoad { message }));
            return;
        }
    };
    loop {
        // The lock is held only while waiting for a job, never during a render.
        let job = match queue.lock() {
            Ok(receiver) => receiver.recv(),
            Err(_) => break,
        };
        let Ok(job) = job else { break };
        ready_process(shared, &mut process);
        let Some(current) = process.as_mut() else {
            let _ = job.reply.send(Err(RenderError::Unavailable));
            continue;
        };
        let outcome = current.render(&shared.recipe, &job.page, &job.props_json);
        let counters = &shared.counters;
        match &outcome.result {
            Ok(_) => {
                counters.rendered.fetch_add(1, Ordering::Relaxed);
                shared.deaths_in_a_row.store(0, Ordering::Relaxed);
            }
            Err(error) => {
                counters.failed.fetch_add(1, Ordering::Relaxed);
                if let RenderError::Crashed { message } = error {
                    tracing::error!(%message, page = %job.page, "a render process died during a render");
                    counters.crashed.fetch_add(1, Ordering::Relaxed);
                    shared.deaths_in_a_row.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        let worn = outcome.fit && current.worn(&shared.recipe);
        // Counted before the answer, so that whoever gets it sees the replacement in the stats.
        if !outcome.fit {
            counters.engines_rebuilt.fetch_add(1, Ordering::Relaxed);
        } else if worn {
            counters.recycled.fetch_add(1, Ordering::Relaxed);
        }
        let _ = job.reply.send(outcome.result);
        if !outcome.fit || worn {
            // After answering: the spare takes over now if it is ready, else at the next job.
            if let Some(old) = process.take() {
                shared.end_process(old);
            }
            process = shared.ready_spare();
        }
    }
    if let Some(process) = process {
        shared.end_process(process);
    }
}

/// Makes sure `process` holds a live process, if one can be had: one that died between renders
/// (killed from outside) is replaced before it is given a render, by the spare.
fn ready_process(shared: &Shared, process: &mut Option<RenderProcess>) {
    loop {
        if let Some(dead) = process.take_if(|process| process.has_ended()) {
            tracing::error!(pid = dead.id(), "a render process died between renders");
            shared.counters.crashed.fetch_add(1, Ordering::Relaxed);
            shared.counters.engines_rebuilt.fetch_add(1, Ordering::Relaxed);
            shared.deaths_in_a_row.fetch_add(1, Ordering::Relaxed);
            shared.end_process(dead);
        }
        if process.is_some() {
            return;
        }
        *process = shared.take_spare();
        if process.is_none() {
            return;
        }
    }
}

/// The spare's thread: keeps one process ready for a slot to take, with a back-off after
/// processes died, until shutdown or [`GIVE_UP_AFTER`] failed starts in a row.
fn run_spare(shared: &Shared) {
    let mut failed_starts = 0;
    loop {
        {
            let mut spare = lock(&shared.spare);
            while spare.process.is_some() && !spare.shutting_down {
                spare = shared.spare_changed.wait(spare).unwrap_or_else(PoisonError::into_inner);
            }
            if spare.shutting_down {
                break;
            }
        }
        let deaths = shared.deaths_in_a_row.load(Ordering::Relaxed);
        if deaths > 0 {
            let back_off = FIRST_BACK_OFF.saturating_mul(1 << (deaths - 1).min(16)).min(LONGEST_BACK_OFF);
            let spare = lock(&shared.spare);
            let (spare, _) = shared
                .spare_changed
                .wait_timeout_while(spare, back_off, |spare| !spare.shutting_down)
                .unwrap_or_else(PoisonError::into_inner);
            if spare.shutting_down {
                break;
            }
        }
        match shared.start_process() {
            Ok(process) => {
                failed_starts = 0;
                let mut spare = lock(&shared.spare);
                spare.process = Some(process);
                shared.spare_changed.notify_all();
            }
            Err(error) => {
                failed_starts += 1;
                let message = match error {
                    StartError::Bundle(message) | StartError::Process(message) => message,
                };
                if failed_starts >= GIVE_UP_AFTER {
                    tracing::error!(
                        %message,
                        "render processes failed to start {GIVE_UP_AFTER} times in a row; no more are started: \
                         pages are sent for the browser to render until the server is restarted"
                    );
                    break;
                }
                tracing::warn!(%message, failed_starts, "a render process failed to start; trying again");
            }
        }
    }
    let mut spare = lock(&shared.spare);
    spare.stopped = true;
    let left = spare.process.take();
    shared.spare_changed.notify_all();
    drop(spare);
    if let Some(process) = left {
        shared.end_process(process);
    }
}
