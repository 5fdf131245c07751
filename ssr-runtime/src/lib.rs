//! Server-side rendering of a JavaScript bundle in a pool of warm, embedded engines.
//!
//! The caller hands over the source of a *server bundle* once; every engine of the pool evaluates
//! it at start and keeps it loaded. A render is `(page, props JSON) → RenderedPage`. Nothing in this
//! API names the engine behind it (QuickJS today), so another backend can be added without touching
//! the server.
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
//! Each render has a time limit, enforced by the engine's interrupt handler, and each engine a memory
//! limit. A bundle that does not parse, a component that throws, a loop that never ends or a render
//! that runs out of memory all come back as a [`RenderError`]; an engine whose render was cut off is
//! rebuilt from the bundle before it takes the next job.

mod engine;
mod pool;

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
    /// No engine could take the job (the pool is shutting down, or an engine failed to rebuild).
    #[error("no rendering engine is available")]
    Unavailable,
}
