//! The render process: the server's own executable, started by the server with [`CHILD_ARG`] and
//! the server's process ID. It holds one engine and answers frames (see [`crate::frame`]) until
//! its stdin closes.
//!
//! At start it makes sure it cannot outlive the server (`PR_SET_PDEATHSIG`, then a check that its
//! parent is still the server that started it), moves its own stdout aside for frames and points
//! file descriptor 1 at stderr, so that nothing the engine or a library prints can break a frame.

use crate::engine::Engine;
use crate::frame::{self, Failure, Kind};
use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsFd;
use std::process::exit;
use std::sync::{Mutex, OnceLock, PoisonError};

/// The first argument that makes the executable a render process; the server's process ID
/// follows it.
pub const CHILD_ARG: &str = "__ssr-render-process";

/// Stack of the render thread: the engine's own stack limit sits well inside it.
const RENDER_THREAD_STACK_BYTES: usize = 8 * 1024 * 1024;

/// Exit statuses, for the server's log.
const EXIT_FINISHED: i32 = 0;
const EXIT_BROKEN_PIPE: i32 = 70;
const EXIT_ORPHANED: i32 = 71;
const EXIT_BUNDLE: i32 = 72;
const EXIT_OUT_OF_MEMORY: i32 = 73;

/// Where frames go: the process's original stdout.
static FRAMES: OnceLock<Mutex<File>> = OnceLock::new();

/// Runs this process as a render process when it was started as one, and then never returns.
/// Call it first thing in `main` of the executable the renderer starts (see
/// [`crate::RendererConfig::program`]); in any other process it returns at once.
pub fn run_if_render_process() {
    let mut args = std::env::args_os().skip(1);
    if args.next().as_deref() != Some(OsStr::new(CHILD_ARG)) {
        return;
    }
    let parent = args.next().and_then(|pid| pid.to_str()?.parse::<i32>().ok());
    exit(run(parent));
}

fn run(parent: Option<i32>) -> i32 {
    // Killed when the server dies, however it dies. The signal is tied to the thread that
    // started this process; the renderer starts children only from threads that live as long as
    // it does. A server that died before this line is caught by the check that follows.
    let _ = rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::KILL));
    let parent_now = rustix::process::getppid().map(|pid| pid.as_raw_nonzero().get());
    if parent.is_none() || parent_now != parent {
        eprintln!("{CHILD_ARG}: not started by the server it names; exiting");
        return EXIT_ORPHANED;
    }
    let frames = match rustix::io::dup(io::stdout().as_fd()).and_then(|frames| {
        rustix::stdio::dup2_stdout(io::stderr().as_fd())?;
        Ok(frames)
    }) {
        Ok(frames) => File::from(frames),
        Err(error) => {
            eprintln!("{CHILD_ARG}: cannot set up its output: {error}");
            return EXIT_BROKEN_PIPE;
        }
    };
    let _ = FRAMES.set(Mutex::new(frames));
    let Ok((Kind::Start, start)) = frame::read(&mut io::stdin().lock()) else { return EXIT_BROKEN_PIPE };
    let Some((heap_limit, rest)) = start.split_first_chunk::<8>() else { return EXIT_BROKEN_PIPE };
    let heap_limit = u64::from_le_bytes(*heap_limit) as usize;
    if rest.first() == Some(&1) {
        // nice 19 on this thread before any other starts: Linux keeps a nice value per thread,
        // and threads inherit it. Pages served from memory go first on a busy machine.
        let _ = rustix::process::setpriority_process(None, 19);
    }
    let thread = std::thread::Builder::new()
        .name("ssr-render".to_owned())
        .stack_size(RENDER_THREAD_STACK_BYTES)
        // The process ends from inside the thread: the engine is never dropped (its memory goes
        // with the process), and `join` only returns if the thread could not run at all.
        .spawn(move || exit(serve(&mut io::stdin().lock(), heap_limit)));
    match thread.map(std::thread::JoinHandle::join) {
        Ok(_) => EXIT_BROKEN_PIPE,
        Err(error) => {
            eprintln!("{CHILD_ARG}: cannot start the render thread: {error}");
            EXIT_BROKEN_PIPE
        }
    }
}

/// The frames of one process's life after its settings: the bundle, then renders until stdin ends.
fn serve(input: &mut impl io::Read, heap_limit: usize) -> i32 {
    let Ok((Kind::Bundle, bundle)) = frame::read(input) else { return EXIT_BROKEN_PIPE };
    let bundle = String::from_utf8_lossy(&bundle);
    let mut engine = match Engine::load(&bundle, heap_limit) {
        Ok(engine) => engine,
        Err(error) => {
            let _ = send(Kind::Failed, &[&frame::failure_payload(error.failure, &error.message)]);
            return EXIT_BUNDLE;
        }
    };
    drop(bundle);
    if send(Kind::Ready, &[]).is_err() {
        return EXIT_BROKEN_PIPE;
    }
    loop {
        let payload = match frame::read(input) {
            Ok((Kind::Render, payload)) => payload,
            Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => return EXIT_FINISHED,
            _ => return EXIT_BROKEN_PIPE,
        };
        let mut rest = payload.as_slice();
        let Some(page) = frame::take_str(&mut rest) else { return EXIT_BROKEN_PIPE };
        let props = String::from_utf8_lossy(rest);
        let sent = match engine.render(&page, &props) {
            Ok(rendered) => send(Kind::Page, &[&frame::page_payload(&rendered)]),
            Err(error) => {
                let sent = send(Kind::Failed, &[&frame::failure_payload(error.failure, &error.message)]);
                if error.failure == Failure::OutOfMemory {
                    return EXIT_OUT_OF_MEMORY;
                }
                sent
            }
        };
        if sent.is_err() {
            return EXIT_BROKEN_PIPE;
        }
    }
}

fn send(kind: Kind, parts: &[&[u8]]) -> io::Result<()> {
    let frames = FRAMES.get().ok_or_else(|| io::Error::other("no frame output"))?;
    let mut out = frames.lock().unwrap_or_else(PoisonError::into_inner);
    frame::write(&mut *out, kind, parts)
}

/// Sends a line for the server's log (0 info, 1 warn, 2 error). Outside a render process (no frame
/// output), it goes to stderr.
pub(crate) fn log(level: u8, message: &str) {
    if send(Kind::Log, &[&[level], message.as_bytes()]).is_err() {
        let _ = writeln!(io::stderr(), "{message}");
    }
}
