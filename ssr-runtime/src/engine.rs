//! One embedded deno_core runtime with the server bundle loaded. A runtime is not `Send`: it is
//! created, used and dropped on the one pool thread that owns it, and always dropped before that
//! thread ends (a runtime left for thread-exit destructors aborts the process).
//!
//! The same code runs on both of deno_core's backends (`quickjs`, the default, or `v8`): only
//! out-of-memory handling differs, see [`Engine::load`].

use crate::watchdog::Watchdog;
use crate::{RenderError, RenderedPage};
use deno_core::{JsRuntime, RuntimeOptions, op2, v8};
use std::sync::Once;
use std::time::Duration;

/// The limits every engine of a pool runs under.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub render_timeout: Duration,
    pub load_timeout: Duration,
    pub memory_limit_bytes: usize,
}

/// The engine's own stack limit, in KiB (V8's `--stack-size`, which the QuickJS backend reads
/// too). It sits well inside the engine thread's stack (`pool::ENGINE_THREAD_STACK_BYTES`).
const ENGINE_STACK_KIB: usize = 4096;

/// An engine with the bundle evaluated and `ssrRender` in hand.
pub(crate) struct Engine {
    // Field order matters: the function handle goes before the runtime it lives in, and the
    // watchdog (which holds a handle to the isolate) after it has stopped being used.
    render: v8::Global<v8::Function>,
    runtime: JsRuntime,
    watchdog: Watchdog,
    limits: Limits,
}

// The host's console: `console.*` of the bundle ends up in the server's log.
#[op2(fast)]
fn op_ssr_log(#[smi] level: u8, #[string] message: &str) {
    match level {
        2 => tracing::error!(target: "ssr_runtime::console", "{message}"),
        1 => tracing::warn!(target: "ssr_runtime::console", "{message}"),
        _ => tracing::info!(target: "ssr_runtime::console", "{message}"),
    }
}

deno_core::extension!(ssr_host, ops = [op_ssr_log]);

/// Installs `console` on top of the op, then hides deno_core's `Deno` object: a page has no use
/// for it, and a bundle must not come to depend on it.
const PRELUDE: &str = r#"(() => {
    const log = Deno.core.ops.op_ssr_log;
    delete globalThis.Deno;
    const text = (args) => args.map((a) => {
        if (typeof a === "string") return a;
        if (a instanceof Error) return a.stack ? `${a.message}\n${a.stack}` : String(a.message);
        try { return JSON.stringify(a); } catch { return String(a); }
    }).join(" ");
    globalThis.console = {
        log: (...a) => log(0, text(a)),
        info: (...a) => log(0, text(a)),
        debug: (...a) => log(0, text(a)),
        warn: (...a) => log(1, text(a)),
        error: (...a) => log(2, text(a)),
    };
})();"#;

impl Engine {
    /// Creates an engine and loads the bundle into it, within the load time limit.
    ///
    /// Memory: the heap limit goes to the engine at creation. On QuickJS, reaching it terminates
    /// the script (the backend then grants itself room to unwind), so no near-heap-limit callback
    /// is installed there: the backend's callback raises the limit first, which only makes the
    /// stop later. V8 would abort the whole process at its limit, so on V8 a callback terminates
    /// the script and grants the headroom V8 needs to unwind. Either way the only causes of a
    /// termination are the watchdog and the heap limit, which is how a render tells them apart.
    pub fn load(bundle: &str, limits: Limits) -> Result<Self, RenderError> {
        static FLAGS: Once = Once::new();
        FLAGS.call_once(|| {
            // The first element stands for the program name, as on a command line.
            let rejected = deno_core::v8_set_flags(vec![String::new(), format!("--stack-size={ENGINE_STACK_KIB}")]);
            if rejected.len() > 1 {
                tracing::warn!(?rejected, "the JavaScript engine did not take these flags");
            }
        });
        let load_error = |message: String| RenderError::BundleLoad { message };
        let mut runtime = JsRuntime::try_new(RuntimeOptions {
            extensions: vec![ssr_host::init()],
            create_params: Some(v8::CreateParams::default().heap_limits(0, limits.memory_limit_bytes)),
            ..RuntimeOptions::default()
        })
        .map_err(|e| load_error(e.to_string()))?;
        let watchdog = Watchdog::start(runtime.v8_isolate().thread_safe_handle());
        #[cfg(feature = "v8")]
        stop_at_heap_limit(&mut runtime);

        runtime.execute_script("ssr-host.js", PRELUDE).map_err(|e| load_error(e.to_string()))?;
        let render = evaluate_bundle(&mut runtime, &watchdog, bundle, limits)?;
        Ok(Engine { render, runtime, watchdog, limits })
    }

    /// Makes an engine whose render was cut off (see [`RenderError::poisons_engine`]) fit for the
    /// next one, keeping its runtime: the termination is lifted, a full garbage collection frees
    /// what the cut-off render held, and the bundle is evaluated afresh, so that the next render
    /// runs on a new instance of the bundle (React and every module's state) rather than on the
    /// half-finished one. An error means the engine must be dropped.
    ///
    /// Why not a new runtime: on the QuickJS backend every runtime dropped leaves about 1 MB behind
    /// (BENCHMARKS.md, the soak), so rebuilding from scratch after each cut-off render grows the
    /// process without bound, while this keeps it flat. After an out-of-memory stop the backend's
    /// heap limit stays at the configured limit plus the 16 MB it grants itself to unwind; on V8 it
    /// is set back to the configured limit.
    pub fn reload(&mut self, bundle: &str) -> Result<(), RenderError> {
        let isolate = self.runtime.v8_isolate();
        isolate.cancel_terminate_execution();
        isolate.low_memory_notification();
        #[cfg(feature = "v8")]
        {
            // Back to the configured limit, which the callback raised to let V8 unwind.
            self.runtime.remove_near_heap_limit_callback(self.limits.memory_limit_bytes);
            stop_at_heap_limit(&mut self.runtime);
        }
        self.render = evaluate_bundle(&mut self.runtime, &self.watchdog, bundle, self.limits)?;
        Ok(())
    }

    /// Renders one page. After an error for which [`RenderError::poisons_engine`] holds, the engine
    /// must be reloaded ([`Engine::reload`]) or dropped: its heap may hold a half-finished render.
    pub fn render(&mut self, page: &str, props_json: &str) -> Result<RenderedPage, RenderError> {
        self.watchdog.arm(self.limits.render_timeout);
        let result = call_render(&mut self.runtime, &self.render, page, props_json);
        let timed_out = self.watchdog.disarm();
        // Also true when the limit was reached in a promise job after `ssrRender` returned.
        let terminated = self.runtime.v8_isolate().is_execution_terminating();
        match result {
            _ if timed_out => Err(RenderError::TimedOut { limit: self.limits.render_timeout }),
            _ if terminated => Err(RenderError::OutOfMemory { limit_bytes: self.limits.memory_limit_bytes }),
            Ok(json) => serde_json::from_str(&json).map_err(|e| RenderError::InvalidOutput { message: e.to_string() }),
            Err(message) => Err(RenderError::Threw { message }),
        }
    }
}

impl RenderError {
    /// Whether the engine that produced this error may hold a half-finished render and has to be
    /// rebuilt before its next job.
    pub(crate) fn poisons_engine(&self) -> bool {
        matches!(self, RenderError::TimedOut { .. } | RenderError::OutOfMemory { .. })
    }
}

/// V8 only: at the heap limit, terminate the script and grant V8 the room to unwind (without the
/// callback V8 aborts the process).
#[cfg(feature = "v8")]
fn stop_at_heap_limit(runtime: &mut JsRuntime) {
    let isolate = runtime.v8_isolate().thread_safe_handle();
    runtime.add_near_heap_limit_callback(move |current, _initial| {
        isolate.terminate_execution();
        current + current / 2
    });
}

/// Evaluates the bundle, runs the promise jobs it queued and returns its `ssrRender`, all within
/// the load time limit.
fn evaluate_bundle(
    runtime: &mut JsRuntime,
    watchdog: &Watchdog,
    bundle: &str,
    limits: Limits,
) -> Result<v8::Global<v8::Function>, RenderError> {
    let load_error = |message: String| RenderError::BundleLoad { message };
    watchdog.arm(limits.load_timeout);
    let loaded =
        runtime.execute_script("server-bundle.js", bundle.to_owned()).map_err(|e| e.to_string()).and_then(|_| {
            run_microtasks(runtime);
            render_function(runtime)
        });
    if watchdog.disarm() {
        return Err(load_error(format!("loading took longer than {} ms", limits.load_timeout.as_millis())));
    }
    if runtime.v8_isolate().is_execution_terminating() {
        return Err(load_error(format!(
            "loading ran out of the engine's memory limit of {} bytes",
            limits.memory_limit_bytes
        )));
    }
    loaded.map_err(load_error)
}

/// Calls `ssrRender(page, propsJson)` and runs the promise jobs it queued. An error is the
/// exception's message and stack (a terminated script has none worth keeping).
fn call_render(
    runtime: &mut JsRuntime,
    render: &v8::Global<v8::Function>,
    page: &str,
    props_json: &str,
) -> Result<String, String> {
    let output = {
        deno_core::scope!(scope, runtime);
        v8::tc_scope!(let scope, scope);
        let function = v8::Local::new(scope, render);
        let receiver = v8::undefined(scope).into();
        let arguments = [page, props_json]
            .map(|text| v8::String::new(scope, text).map(Into::into).unwrap_or_else(|| v8::undefined(scope).into()));
        match function.call(scope, receiver, &arguments) {
            Some(value) => Ok(value.to_rust_string_lossy(scope)),
            None => Err(match scope.exception() {
                Some(exception) if !scope.has_terminated() => {
                    deno_core::error::JsError::from_v8_exception(scope, exception).to_string()
                }
                _ => "the render was stopped".to_owned(),
            }),
        }
    };
    run_microtasks(runtime);
    output
}

/// Looks up `globalThis.ssrRender` and checks that it is a function.
fn render_function(runtime: &mut JsRuntime) -> Result<v8::Global<v8::Function>, String> {
    deno_core::scope!(scope, runtime);
    let global = scope.get_current_context().global(scope);
    let key = v8::String::new(scope, "ssrRender").ok_or("could not create a string")?;
    let value = global.get(scope, key.into());
    match value.and_then(|value| v8::Local::<v8::Function>::try_from(value).ok()) {
        Some(function) => Ok(v8::Global::new(scope, function)),
        None => Err("the bundle did not define globalThis.ssrRender as a function".to_owned()),
    }
}

/// Runs the promise jobs the script queued (module-level `await`, resolved lazy imports). A job
/// that throws is dropped by the engine; a bundle reports such failures through `ssrRender`.
fn run_microtasks(runtime: &mut JsRuntime) {
    runtime.v8_isolate().perform_microtask_checkpoint();
}
