//! Server-side rendering of a JavaScript bundle in render processes the server supervises.
//!
//! The caller hands over the source of a *server bundle* once; every render process loads it at
//! start and keeps it loaded. A render is `(page, props JSON) → RenderedPage`. The engine is
//! deno_core, on QuickJS by default or on V8 with the `v8` feature; nothing in this API names it.
//!
//! # Processes
//!
//! Each engine runs in a process of its own: the server's own executable started again with an
//! argument only this crate uses ([`run_if_render_process`] must be the first call of its `main`),
//! with an empty environment, at nice 19 when asked, and killed if the server dies. Renders go to
//! it as frames over its stdin and stdout (see `frame.rs`). Why processes: an engine that leaks
//! when dropped, or may crash, cannot hurt the server from there, and giving a process back to the
//! operating system returns every byte it held.
//!
//! # The bundle contract
//!
//! The bundle is one classic script (no `import`). After it and the promise jobs it queued have run,
//! it must have defined `globalThis.ssrRender(page, propsJson)`, returning a JSON string
//! `{"html": "...", "title": "...", "description": "...", "status": 200}`. The host gives the bundle a
//! `console` whose `log`, `info`, `warn` and `error` go to the server's log; everything else a bundle
//! needs (timers, `TextEncoder`, …) is the bundle's own business.
//!
//! # Limits
//!
//! The server keeps them: each render has a deadline, at which the process is killed; each engine
//! has a heap limit, and a render that reaches it is answered, then its process ended; a process
//! above a memory bound, or after its share of renders, is replaced; a spare process is always
//! started ahead, so a replacement costs no render an engine's start. A bundle that does not parse,
//! a component that throws, a loop that never ends, a render that runs out of memory and a process
//! that dies all come back as a [`RenderError`].

mod child;
mod engine;
mod frame;
mod pool;
mod process;

pub use child::run_if_render_process;
pub use pool::{Renderer, RendererConfig, RendererStats};

use serde::Deserialize;
use std::time::Duration;

/// What a successful render gives the document shell.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct RenderedPage {
    /// The page markup, to be placed inside the root element.
    pub html: String,
    /// The document title.
    pub title: String,
    /// The meta description.
    pub description: String,
    /// The HTTP status the page asks for (404 for a not-found page, say).
    pub status: u16,
}

/// Why a render, or the start of the renderer, failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    /// The bundle did not parse, threw while loading, or did not define `ssrRender`.
    #[error("the server bundle could not be loaded: {message}")]
    BundleLoad {
        /// The engine's description of the failure.
        message: String,
    },
    /// The page's code threw (a component error, an unknown page, bad props).
    #[error("the page threw while rendering: {message}")]
    Threw {
        /// The exception's message, with its stack where the engine has one.
        message: String,
    },
    /// The render was stopped by the time limit.
    #[error("the render took longer than its limit of {} ms", limit.as_millis())]
    TimedOut {
        /// The time limit that was hit.
        limit: Duration,
    },
    /// The engine ran out of the memory it is allowed.
    #[error("the render ran out of the engine's memory limit of {limit_bytes} bytes")]
    OutOfMemory {
        /// The memory limit that was hit.
        limit_bytes: usize,
    },
    /// `ssrRender` returned something other than the JSON the contract asks for.
    #[error("the render returned an invalid result: {message}")]
    InvalidOutput {
        /// What was wrong with it.
        message: String,
    },
    /// The render process died during the render (the engine crashed or was killed by
    /// something other than the renderer); it has been replaced.
    #[error("the render process died during the render: {message}")]
    Crashed {
        /// How the process ended.
        message: String,
    },
    /// No process could take the job (the renderer is shutting down, or processes keep failing to
    /// start).
    #[error("no rendering engine is available")]
    Unavailable,
}
