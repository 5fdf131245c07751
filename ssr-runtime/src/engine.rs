//! One embedded QuickJS engine with the server bundle loaded. An engine is not `Send`: it is
//! created, used and dropped on the one pool thread that owns it.

use crate::{RenderError, RenderedPage};
use rquickjs::{CatchResultExt, CaughtError, Context, Ctx, Function, Runtime};
use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// The limits every engine of a pool runs under.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub render_timeout: Duration,
    pub load_timeout: Duration,
    pub memory_limit_bytes: usize,
    pub max_stack_bytes: usize,
}

/// An engine with the bundle evaluated and `ssrRender` defined.
pub(crate) struct Engine {
    // Field order matters: the context must be dropped before its runtime.
    context: Context,
    _runtime: Runtime,
    deadline: Rc<Cell<Option<Instant>>>,
    limits: Limits,
}

impl Engine {
    /// Creates an engine and loads the bundle into it, within the load time limit.
    pub fn load(bundle: &str, limits: Limits) -> Result<Self, RenderError> {
        let load_error = |message: String| RenderError::BundleLoad { message };
        let runtime = Runtime::new().map_err(|e| load_error(e.to_string()))?;
        runtime.set_memory_limit(limits.memory_limit_bytes);
        runtime.set_max_stack_size(limits.max_stack_bytes);
        let deadline = Rc::new(Cell::new(None::<Instant>));
        let handler_deadline = Rc::clone(&deadline);
        runtime.set_interrupt_handler(Some(Box::new(move || {
            handler_deadline.get().is_some_and(|at| Instant::now() >= at)
        })));
        let context = Context::full(&runtime).map_err(|e| load_error(e.to_string()))?;
        let engine = Engine { context, _runtime: runtime, deadline, limits };

        engine.deadline.set(Some(Instant::now() + limits.load_timeout));
        let loaded = engine.context.with(|ctx| -> Result<(), String> {
            install_console(&ctx).map_err(|e| e.to_string())?;
            ctx.eval::<(), _>(bundle).catch(&ctx).map_err(|e| describe(&e))?;
            drain_jobs(&ctx);
            let render: rquickjs::Value = ctx.globals().get("ssrRender").map_err(|e| e.to_string())?;
            if render.is_function() {
                Ok(())
            } else {
                Err("the bundle did not define globalThis.ssrRender as a function".to_owned())
            }
        });
        let timed_out = engine.deadline_passed();
        engine.deadline.set(None);
        match loaded {
            Ok(()) => Ok(engine),
            Err(_) if timed_out => {
                Err(load_error(format!("loading took longer than {} ms", limits.load_timeout.as_millis())))
            }
            Err(message) => Err(load_error(message)),
        }
    }

    /// Renders one page. After an error for which [`RenderError::poisons_engine`] holds, the engine
    /// must be dropped: its heap may hold a half-finished render.
    pub fn render(&self, page: &str, props_json: &str) -> Result<RenderedPage, RenderError> {
        self.deadline.set(Some(Instant::now() + self.limits.render_timeout));
        let result = self.context.with(|ctx| -> Result<String, Failure> {
            let render: Function = ctx.globals().get("ssrRender").catch(&ctx).map_err(Failure::from)?;
            let output: String = render.call((page, props_json)).catch(&ctx).map_err(Failure::from)?;
            drain_jobs(&ctx);
            Ok(output)
        });
        let timed_out = self.deadline_passed();
        self.deadline.set(None);
        match result {
            Ok(json) => serde_json::from_str(&json).map_err(|e| RenderError::InvalidOutput { message: e.to_string() }),
            Err(_) if timed_out => Err(RenderError::TimedOut { limit: self.limits.render_timeout }),
            Err(failure) if failure.out_of_memory => {
                Err(RenderError::OutOfMemory { limit_bytes: self.limits.memory_limit_bytes })
            }
            Err(failure) => Err(RenderError::Threw { message: failure.message }),
        }
    }

    fn deadline_passed(&self) -> bool {
        self.deadline.get().is_some_and(|at| Instant::now() >= at)
    }
}

/// A caught JavaScript failure, taken out of the engine's lifetime.
struct Failure {
    message: String,
    out_of_memory: bool,
}

impl From<CaughtError<'_>> for Failure {
    fn from(error: CaughtError<'_>) -> Self {
        let message = describe(&error);
        let out_of_memory =
            matches!(error, CaughtError::Error(rquickjs::Error::Allocation)) || message.contains("out of memory");
        Failure { message, out_of_memory }
    }
}

impl RenderError {
    /// Whether the engine that produced this error may hold a half-finished render and has to be
    /// rebuilt before its next job.
    pub(crate) fn poisons_engine(&self) -> bool {
        matches!(self, RenderError::TimedOut { .. } | RenderError::OutOfMemory { .. })
    }
}

/// Runs the promise jobs the script queued (module-level `await`, resolved lazy imports). A job
/// that throws is dropped by the engine; a bundle reports such failures through `ssrRender`.
fn drain_jobs(ctx: &Ctx<'_>) {
    while ctx.execute_pending_job() {}
}

fn describe(error: &CaughtError<'_>) -> String {
    match error {
        CaughtError::Exception(exception) => {
            let message = exception.message().unwrap_or_default();
            match exception.stack() {
                Some(stack) if !stack.is_empty() => format!("{message}\n{stack}"),
                _ => message,
            }
        }
        CaughtError::Value(value) => value
            .as_string()
            .and_then(|s| s.to_string().ok())
            .unwrap_or_else(|| format!("a thrown {}", value.type_name())),
        CaughtError::Error(error) => error.to_string(),
    }
}

/// Gives the bundle a `console` that writes to the server's log.
fn install_console(ctx: &Ctx<'_>) -> rquickjs::Result<()> {
    let log = Function::new(ctx.clone(), |level: String, message: String| match level.as_str() {
        "error" => tracing::error!(target: "ssr_runtime::console", "{message}"),
        "warn" => tracing::warn!(target: "ssr_runtime::console", "{message}"),
        _ => tracing::info!(target: "ssr_runtime::console", "{message}"),
    })?;
    ctx.globals().set("__hostLog", log)?;
    ctx.eval::<(), _>(
        r#"(() => {
            const log = globalThis.__hostLog;
            delete globalThis.__hostLog;
            const text = (args) => args.map((a) => {
                if (typeof a === "string") return a;
                if (a instanceof Error) return a.stack ? `${a.message}\n${a.stack}` : String(a.message);
                try { return JSON.stringify(a); } catch { return String(a); }
            }).join(" ");
            globalThis.console = {
                log: (...a) => log("info", text(a)),
                info: (...a) => log("info", text(a)),
                debug: (...a) => log("info", text(a)),
                warn: (...a) => log("warn", text(a)),
                error: (...a) => log("error", text(a)),
            };
        })();"#,
    )
}
