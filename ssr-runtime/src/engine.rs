//! One deno_core runtime with the server bundle loaded, inside a render process (see
//! [`crate::child`]). The same code runs on both of deno_core's backends (`quickjs`, the default,
//! or `v8`): only out-of-memory handling differs, see [`Engine::load`].
//!
//! Nothing here stops a render that runs too long: the server kills the whole process at its
//! deadline (`terminate_execution` and a reused runtime is the path that once crashed the
//! process, and a dropped runtime leaks on QuickJS; a process gives everything back).

use crate::RenderedPage;
use crate::frame::Failure;
use deno_core::{JsRuntime, RuntimeOptions, op2, v8};
use std::sync::Once;

/// The engine's own stack limit, in KiB (V8's `--stack-size`, which the QuickJS backend reads
/// too). It sits well inside the render thread's stack (`child::RENDER_THREAD_STACK_BYTES`).
const ENGINE_STACK_KIB: usize = 4096;

/// An engine with the bundle evaluated and `ssrRender` in hand.
pub(crate) struct Engine {
    // Field order matters: the function handle goes before the runtime it lives in.
    render: v8::Global<v8::Function>,
    runtime: JsRuntime,
}

/// Why a load or a render failed, as the child reports it.
pub(crate) struct EngineError {
    pub failure: Failure,
    pub message: String,
}

impl EngineError {
    fn new(failure: Failure, message: impl Into<String>) -> Self {
        Self { failure, message: message.into() }
    }
}

// The host's console: `console.*` of the bundle ends up in the server's log.
#[op2(fast)]
fn op_ssr_log(#[smi] level: u8, #[string] message: &str) {
    crate::child::log(level, message);
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
    /// Creates an engine with a heap limit and loads the bundle into it.
    ///
    /// Memory: on QuickJS, reaching the heap limit terminates the script (the backend then grants
    /// itself room to unwind), so no near-heap-limit callback is installed there. V8 would abort
    /// the process at its limit, so on V8 a callback terminates the script and grants the
    /// headroom V8 needs to unwind. Either way a terminated script means the heap limit, the one
    /// cause of a termination inside the process; the process is recycled after it.
    pub fn load(bundle: &str, heap_limit_bytes: usize) -> Result<Self, EngineError> {
        static FLAGS: Once = Once::new();
        FLAGS.call_once(|| {
            // The first element stands for the program name, as on a command line.
            let rejected = deno_core::v8_set_flags(vec![String::new(), format!("--stack-size={ENGINE_STACK_KIB}")]);
            if rejected.len() > 1 {
                crate::child::log(1, &format!("the JavaScript engine did not take these flags: {rejected:?}"));
            }
        });
        let load_error = |message: String| EngineError::new(Failure::BundleLoad, message);
        let mut runtime = JsRuntime::try_new(RuntimeOptions {
            extensions: vec![ssr_host::init()],
            create_params: Some(v8::CreateParams::default().heap_limits(0, heap_limit_bytes)),
            ..RuntimeOptions::default()
        })
        .map_err(|e| load_error(e.to_string()))?;
        #[cfg(feature = "v8")]
        {
            let isolate = runtime.v8_isolate().thread_safe_handle();
            runtime.add_near_heap_limit_callback(move |current, _initial| {
                isolate.terminate_execution();
                current + current / 2
            });
        }
        runtime.execute_script("ssr-host.js", PRELUDE).map_err(|e| load_error(e.to_string()))?;
        let loaded =
            runtime.execute_script("server-bundle.js", bundle.to_owned()).map_err(|e| e.to_string()).and_then(|_| {
                runtime.v8_isolate().perform_microtask_checkpoint();
                render_function(&mut runtime)
            });
        if runtime.v8_isolate().is_execution_terminating() {
            return Err(load_error(format!(
                "loading ran out of the engine's memory limit of {heap_limit_bytes} bytes"
            )));
        }
        let render = loaded.map_err(load_error)?;
        Ok(Engine { render, runtime })
    }

    /// Renders one page. After [`Failure::OutOfMemory`] the engine holds a half-finished render:
    /// the process answers, then ends.
    pub fn render(&mut self, page: &str, props_json: &str) -> Result<RenderedPage, EngineError> {
        let result = call_render(&mut self.runtime, &self.render, page, props_json);
        // Also true when the limit was reached in a promise job after `ssrRender` returned.
        if self.runtime.v8_isolate().is_execution_terminating() {
            return Err(EngineError::new(Failure::OutOfMemory, "the render reached the engine's heap limit"));
        }
        match result {
            Ok(json) => {
                serde_json::from_str(&json).map_err(|e| EngineError::new(Failure::InvalidOutput, e.to_string()))
            }
            Err(message) => Err(EngineError::new(Failure::Threw, message)),
        }
    }
}

/// Calls `ssrRender(page, propsJson)` and runs the promise jobs it queued (module-level `await`,
/// resolved lazy imports). An error is the exception's message and stack.
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
    runtime.v8_isolate().perform_microtask_checkpoint();
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
