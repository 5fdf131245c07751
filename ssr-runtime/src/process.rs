//! The server's side of one render process: start it, hand it renders under a deadline, read its
//! memory, end it.

use crate::child::CHILD_ARG;
use crate::frame::{self, Failure, Kind};
use crate::{RenderError, RenderedPage};
use rustix::event::{PollFd, PollFlags, Timespec};
use std::collections::hash_map::RandomState;
use std::ffi::OsString;
use std::hash::{BuildHasher, Hasher};
use std::io;
use std::os::fd::AsFd;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// The size asked for each of a render process's pipes: 1 MB, Linux's default ceiling for
/// `F_SETPIPE_SZ` (`/proc/sys/fs/pipe-max-size`).
const PIPE_BYTES: usize = 1024 * 1024;

/// How render processes are started: the same for every process of a renderer.
#[derive(Debug, Clone)]
pub(crate) struct Recipe {
    pub program: PathBuf,
    /// The process's `argv[0]`: the name it is listed under.
    pub name: OsString,
    pub heap_limit_bytes: usize,
    pub low_priority: bool,
    pub load_timeout: Duration,
    pub render_timeout: Duration,
    pub bytecode_cache: Option<PathBuf>,
    /// A process whose resident memory is above this after a render is replaced.
    pub recycle_above_bytes: u64,
    /// A process is replaced after about this many renders.
    pub recycle_after_renders: u64,
}

/// A render process with the bundle loaded, waiting for renders.
pub(crate) struct RenderProcess {
    child: Child,
    input: ChildStdin,
    output: ChildStdout,
    renders: u64,
    /// Renders after which it is replaced: the recipe's, give or take a tenth, so that processes
    /// started together are not replaced together.
    share: u64,
}

/// How a render ended, for the process that did it.
pub(crate) struct Outcome {
    pub result: Result<RenderedPage, RenderError>,
    /// Whether the process may take another render: false after it was cut off (killed at the
    /// deadline, or stopped at its heap limit) or died.
    pub fit: bool,
}

/// Why a process did not get ready.
#[derive(Debug)]
pub(crate) enum StartError {
    /// The bundle does not load: no process will ever load it.
    Bundle(String),
    /// The process could not be started, died, or took longer than the load time limit.
    Process(String),
}

impl RenderProcess {
    /// Starts a process, loads the bundle into it and waits until it is ready, at most the load
    /// time limit. Its environment is empty but for the engine's own settings: it inherits no
    /// secret of the server's.
    pub fn start(recipe: &Recipe, bundle: &[u8]) -> Result<Self, StartError> {
        let mut command = Command::new(&recipe.program);
        command
            .arg0(&recipe.name)
            .arg(CHILD_ARG)
            .arg(std::process::id().to_string())
            .env_clear()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        match &recipe.bytecode_cache {
            // The QuickJS backend's bytecode cache: where the server says, or off (never under
            // a home directory it would otherwise pick).
            Some(dir) => command.env("V82JSC_BC_CACHE_DIR", dir),
            None => command.env("V82JSC_NO_BC_CACHE", "1"),
        };
        let program = recipe.program.display();
        let mut child =
            command.spawn().map_err(|error| StartError::Process(format!("cannot start {program}: {error}")))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(StartError::Process("the process has no pipes".to_owned()));
        };
        // Pipes big enough for a whole page (Linux's default is 64 KB): a render's props go in and
        // its page comes out in one write, without a wake-up per 64 KB. Best effort: a system that
        // caps pipes lower keeps its default.
        for pipe in [input.as_fd(), output.as_fd()] {
            let _ = rustix::pipe::fcntl_setpipe_size(pipe, PIPE_BYTES);
        }
        let share = with_jitter(recipe.recycle_after_renders.max(1));
        let mut process = RenderProcess { child, input, output, renders: 0, share };
        let deadline = Instant::now() + recipe.load_timeout;
        let mut settings = (recipe.heap_limit_bytes as u64).to_le_bytes().to_vec();
        settings.push(u8::from(recipe.low_priority));
        let sent = frame::write(&mut process.input, Kind::Start, &[&settings])
            .and_then(|()| frame::write(&mut process.input, Kind::Bundle, &[bundle]));
        let answer = match sent {
            Ok(()) => process.receive(deadline),
            Err(error) => Err(Received::Broken(error)),
        };
        match answer {
            Ok((Kind::Ready, _)) => Ok(process),
            // The process is ended as it is dropped.
            Ok((Kind::Failed, payload)) => match frame::read_failure(&payload) {
                (Some(Failure::BundleLoad), message) => Err(StartError::Bundle(message)),
                _ => Err(StartError::Process(process.died("sent a failure it may not send to the bundle"))),
            },
            Ok((kind, _)) => Err(StartError::Process(process.died(&format!("answered {kind:?} to the bundle")))),
            Err(Received::Deadline) => Err(StartError::Process(
                process.died(&format!("did not load the bundle within {} ms", recipe.load_timeout.as_millis())),
            )),
            Err(Received::Broken(error)) => Err(StartError::Process(process.died(&error.to_string()))),
        }
    }

    /// Renders one page, killing the process if it has not answered within the recipe's time limit.
    pub fn render(&mut self, recipe: &Recipe, page: &str, props_json: &str) -> Outcome {
        let (limit, heap_limit_bytes) = (recipe.render_timeout, recipe.heap_limit_bytes);
        let deadline = Instant::now() + limit;
        self.renders += 1;
        let mut head = Vec::with_capacity(4 + page.len());
        frame::put_str(&mut head, page);
        let answer = match frame::write(&mut self.input, Kind::Render, &[&head, props_json.as_bytes()]) {
            Ok(()) => self.receive(deadline),
            Err(error) => Err(Received::Broken(error)),
        };
        let crashed = |message: String| Outcome { result: Err(RenderError::Crashed { message }), fit: false };
        match answer {
            Ok((Kind::Page, payload)) => match frame::read_page(&payload) {
                Some(page) => Outcome { result: Ok(page), fit: true },
                None => crashed(self.died("sent a page frame that does not read")),
            },
            Ok((Kind::Failed, payload)) => {
                let (failure, message) = frame::read_failure(&payload);
                match failure {
                    Some(Failure::Threw) => Outcome { result: Err(RenderError::Threw { message }), fit: true },
                    Some(Failure::InvalidOutput) => {
                        Outcome { result: Err(RenderError::InvalidOutput { message }), fit: true }
                    }
                    Some(Failure::OutOfMemory) => {
                        Outcome { result: Err(RenderError::OutOfMemory { limit_bytes: heap_limit_bytes }), fit: false }
                    }
                    Some(Failure::BundleLoad) | None => crashed(self.died("sent a failure it may not send")),
                }
            }
            Ok((kind, _)) => crashed(self.died(&format!("answered {kind:?} to a render"))),
            Err(Received::Deadline) => {
                self.kill();
                Outcome { result: Err(RenderError::TimedOut { limit }), fit: false }
            }
            Err(Received::Broken(error)) => crashed(self.died(&error.to_string())),
        }
    }

    /// Whether the process has done its share of renders or grown above the recipe's memory
    /// bound (`/proc/<pid>/statm`), and is to be replaced.
    pub fn worn(&self, recipe: &Recipe) -> bool {
        self.renders >= self.share || self.resident_bytes().is_some_and(|bytes| bytes > recipe.recycle_above_bytes)
    }

    /// Whether the process has ended on its own since its last render (killed from outside, say).
    pub fn has_ended(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// The process's operating-system ID.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Resident memory of the process (`/proc/<pid>/statm`), when it can be read.
    fn resident_bytes(&self) -> Option<u64> {
        let statm = std::fs::read_to_string(format!("/proc/{}/statm", self.child.id())).ok()?;
        let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
        Some(pages * rustix::param::page_size() as u64)
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Kills and reaps a process that broke its side of the frames, and describes how it ended.
    fn died(&mut self, what: &str) -> String {
        let _ = self.child.kill();
        match self.child.wait() {
            Ok(status) => format!("render process {} {what} ({status})", self.child.id()),
            Err(_) => format!("render process {} {what}", self.child.id()),
        }
    }

    /// Reads frames until one that is not a log line, or the deadline. Log lines go to the log.
    fn receive(&mut self, deadline: Instant) -> Result<(Kind, Vec<u8>), Received> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Received::Deadline);
            }
            let wait = Timespec::try_from(left).map_err(|error| Received::Broken(io::Error::other(error)))?;
            let mut fds = [PollFd::new(&self.output, PollFlags::IN)];
            match rustix::event::poll(&mut fds, Some(&wait)) {
                Ok(0) => return Err(Received::Deadline),
                Ok(_) => {}
                Err(rustix::io::Errno::INTR) => continue,
                Err(error) => return Err(Received::Broken(error.into())),
            }
            // Readable or closed: a frame's header is there (a child writes whole frames), or the
            // end of the stream, which `read` reports.
            match frame::read(&mut self.output) {
                Ok((Kind::Log, payload)) => log_line(self.child.id(), &payload),
                Ok(frame) => return Ok(frame),
                Err(error) => return Err(Received::Broken(error)),
            }
        }
    }
}

/// Dropping a process ends it: killed, then reaped (its stdin closes with it).
impl Drop for RenderProcess {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.kill();
        }
    }
}

/// `renders`, give or take a tenth.
fn with_jitter(renders: u64) -> u64 {
    let tenth = renders / 10;
    if tenth == 0 {
        return renders;
    }
    let random = RandomState::new().build_hasher().finish();
    renders - tenth + random % (2 * tenth + 1)
}

enum Received {
    Deadline,
    Broken(io::Error),
}

fn log_line(pid: u32, payload: &[u8]) {
    let message = String::from_utf8_lossy(payload.get(1..).unwrap_or_default());
    match payload.first() {
        Some(2) => tracing::error!(target: "ssr_runtime::console", pid, "{message}"),
        Some(1) => tracing::warn!(target: "ssr_runtime::console", pid, "{message}"),
        _ => tracing::info!(target: "ssr_runtime::console", pid, "{message}"),
    }
}
