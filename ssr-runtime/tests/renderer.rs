//! The renderer against small hand-written bundles that follow the bundle contract, in render
//! processes of this crate's `render-process` binary.
#![allow(clippy::unwrap_used, missing_docs)]

use ssr_runtime::{RenderError, Renderer, RendererConfig};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A bundle with a few "pages": one that echoes its props, one that throws, one that never ends,
/// one that allocates without bound.
const BUNDLE: &str = r#"
globalThis.ssrRender = function (page, propsJson) {
    const props = JSON.parse(propsJson);
    if (page === "greeting") {
        return JSON.stringify({
            html: "<p>Hello, " + props.name + "</p>",
            title: "Greeting",
            description: "A greeting",
            status: 200,
        });
    }
    if (page === "throws") throw new Error("component exploded");
    if (page === "endless") { for (;;) {} }
    if (page === "greedy") { const keep = []; for (;;) keep.push(new Array(100000).fill(1)); }
    if (page === "not-json") return "<p>no</p>";
    throw new Error("unknown page " + page);
};
"#;

fn config() -> RendererConfig {
    RendererConfig {
        engines: 2,
        render_timeout: Duration::from_millis(200),
        load_timeout: Duration::from_secs(5),
        memory_limit_bytes: 32 * 1024 * 1024,
        program: Some(program()),
        ..RendererConfig::default()
    }
}

fn program() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_render-process"))
}

fn renderer() -> Renderer {
    Renderer::start(BUNDLE, config()).unwrap()
}

#[test]
fn a_page_renders_to_html_with_its_shell_fields() {
    let renderer = renderer();

    let page = renderer.render_blocking("greeting", r#"{"name":"Wanjiku"}"#).unwrap();

    assert_eq!(page.html, "<p>Hello, Wanjiku</p>");
    assert_eq!(page.title, "Greeting");
    assert_eq!(page.description, "A greeting");
    assert_eq!(page.status, 200);
    assert_eq!(renderer.stats().rendered, 1);
}

#[test]
fn a_component_that_throws_comes_back_as_an_error_with_its_message() {
    let renderer = renderer();

    let error = renderer.render_blocking("throws", "{}").unwrap_err();

    match error {
        RenderError::Threw { message } => assert!(message.contains("component exploded"), "{message}"),
        other => panic!("expected Threw, got {other:?}"),
    }
    // The engine is still good for the next page.
    assert!(renderer.render_blocking("greeting", r#"{"name":"A"}"#).is_ok());
}

#[test]
fn an_endless_loop_is_stopped_by_the_time_limit_and_the_engine_recovers() {
    let renderer = Renderer::start(BUNDLE, RendererConfig { engines: 1, ..config() }).unwrap();
    let started = Instant::now();

    let error = renderer.render_blocking("endless", "{}").unwrap_err();

    assert_eq!(error, RenderError::TimedOut { limit: Duration::from_millis(200) });
    assert!(started.elapsed() < Duration::from_secs(3), "took {:?}", started.elapsed());
    let next = renderer.render_blocking("greeting", r#"{"name":"B"}"#).unwrap();
    assert_eq!(next.html, "<p>Hello, B</p>");
    assert_eq!(renderer.stats().engines_rebuilt, 1);
}

#[test]
fn a_render_that_exhausts_memory_is_an_error_not_a_crash() {
    // Filling 32 MiB takes well under 200 ms on a quiet machine but not always on a busy one; the
    // time limit here is far away so that the memory limit is the one that ends the render.
    let generous = RendererConfig { engines: 1, render_timeout: Duration::from_secs(30), ..config() };
    let renderer = Renderer::start(BUNDLE, generous).unwrap();

    let error = renderer.render_blocking("greedy", "{}").unwrap_err();

    assert_eq!(error, RenderError::OutOfMemory { limit_bytes: 32 * 1024 * 1024 });
    assert!(renderer.render_blocking("greeting", r#"{"name":"C"}"#).is_ok());
}

#[test]
fn a_result_that_is_not_the_contract_json_is_an_invalid_output() {
    let renderer = renderer();

    let error = renderer.render_blocking("not-json", "{}").unwrap_err();

    assert!(matches!(error, RenderError::InvalidOutput { .. }), "{error:?}");
}

#[test]
fn a_bundle_that_does_not_parse_fails_to_start_with_a_load_error() {
    let result = Renderer::start("globalThis.ssrRender = function ( {", config());

    match result {
        Err(RenderError::BundleLoad { message }) => assert!(message.contains("server-bundle.js:1"), "{message}"),
        Err(other) => panic!("expected BundleLoad, got {other:?}"),
        Ok(_) => panic!("a broken bundle started"),
    }
}

#[test]
fn a_bundle_without_ssr_render_fails_to_start() {
    let result = Renderer::start("globalThis.somethingElse = 1;", config());

    match result {
        Err(RenderError::BundleLoad { message }) => assert!(message.contains("ssrRender"), "{message}"),
        Err(other) => panic!("expected BundleLoad, got {other:?}"),
        Ok(_) => panic!("a bundle without ssrRender started"),
    }
}

#[test]
fn a_bundle_that_loops_while_loading_is_stopped() {
    let config = RendererConfig { load_timeout: Duration::from_millis(200), ..config() };

    let result = Renderer::start("for (;;) {}", config);

    assert!(matches!(result, Err(RenderError::BundleLoad { .. })));
}

#[test]
fn renders_from_many_threads_at_once_all_come_back_right() {
    let renderer = Arc::new(renderer());

    let handles: Vec<_> = (0..8)
        .map(|thread| {
            let renderer = Arc::clone(&renderer);
            std::thread::spawn(move || {
                for i in 0..25 {
                    let name = format!("t{thread}-{i}");
                    let page = renderer.render_blocking("greeting", &format!(r#"{{"name":"{name}"}}"#)).unwrap();
                    assert_eq!(page.html, format!("<p>Hello, {name}</p>"));
                }
            })
        })
        .collect();
    for handle in handles {
        handle.join().unwrap();
    }

    assert_eq!(renderer.stats().rendered, 200);
}

#[test]
fn console_output_of_the_bundle_does_not_break_rendering() {
    let bundle = r#"
        console.log("loading", { a: 1 });
        console.error(new Error("just logged"));
        globalThis.ssrRender = () => JSON.stringify({ html: "", title: "", description: "", status: 204 });
    "#;
    let renderer = Renderer::start(bundle, config()).unwrap();

    assert_eq!(renderer.render_blocking("any", "{}").unwrap().status, 204);
}

#[tokio::test]
async fn render_can_be_awaited_on_an_async_runtime() {
    let renderer = renderer();

    let page = renderer.render("greeting", r#"{"name":"Async"}"#).await.unwrap();

    assert_eq!(page.html, "<p>Hello, Async</p>");
}

/// Field `index` (1-based, after the command) of /proc/<pid>/stat: 19 is the nice value.
fn stat_field(pid: u32, index: usize) -> Option<i64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command's closing parenthesis: state is the 3rd field.
    stat.rsplit_once(')')?.1.split_whitespace().nth(index - 3)?.parse().ok()
}

#[test]
fn processes_asked_to_run_at_low_priority_do_so_and_still_render() {
    let renderer = Renderer::start(BUNDLE, RendererConfig { low_priority: true, ..config() }).unwrap();

    let page = renderer.render_blocking("greeting", r#"{"name":"Wanjiru"}"#).unwrap();

    assert!(page.html.contains("Wanjiru"), "{}", page.html);
    let nice: Vec<_> = renderer.process_ids().into_iter().map(|pid| stat_field(pid, 19)).collect();
    assert!(nice.len() >= 2 && nice.iter().all(|n| *n == Some(19)), "every process runs at nice 19: {nice:?}");
}

#[test]
fn a_render_process_inherits_nothing_of_the_servers_environment() {
    let renderer = renderer();
    assert!(std::env::var_os("PATH").is_some(), "the test needs a variable to be inherited");

    let pid = renderer.process_ids()[0];
    let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap();

    let names: Vec<String> = environ
        .split(|&b| b == 0)
        .filter(|entry| !entry.is_empty())
        .map(|entry| String::from_utf8_lossy(entry).split('=').next().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(names, ["V82JSC_NO_BC_CACHE"], "only the engine's own setting");
}

#[tokio::test]
async fn shutdown_answers_the_renders_already_asked_for_then_refuses_new_ones() {
    let renderer = Arc::new(Renderer::start(BUNDLE, RendererConfig { engines: 1, ..config() }).unwrap());
    let waiting: Vec<_> = (0..5)
        .map(|n| {
            let renderer = Arc::clone(&renderer);
            tokio::spawn(async move { renderer.render("greeting", &format!(r#"{{"name":"{n}"}}"#)).await })
        })
        .collect();
    // On this one-threaded runtime the tasks spawned first run first: each has asked for its
    // render by the time this one is polled again.
    tokio::task::yield_now().await;

    renderer.shutdown();

    for (n, render) in waiting.into_iter().enumerate() {
        assert_eq!(render.await.unwrap().unwrap().html, format!("<p>Hello, {n}</p>"));
    }
    assert_eq!(renderer.render_blocking("greeting", r#"{"name":"late"}"#), Err(RenderError::Unavailable));
}

#[test]
fn a_process_cut_off_by_a_limit_is_replaced_by_a_fresh_one() {
    // `loads` counts evaluations of the bundle in this process; `renders` is the bundle's own
    // state. A new process starts both afresh.
    let bundle = r#"
        (() => {
            globalThis.loads = (globalThis.loads || 0) + 1;
            let renders = 0;
            globalThis.ssrRender = function (page) {
                renders += 1;
                if (page === "endless") { for (;;) {} }
                if (page === "greedy") { const keep = []; for (;;) keep.push(new Array(100000).fill(1)); }
                if (page === "greedy-buffers") { const keep = []; for (;;) keep.push(new Uint8Array(1 << 20)); }
                // A page that needs a fair share of the heap: 4 MB of strings, kept until it returns.
                const rows = [];
                for (let i = 0; i < 500; i++) rows.push("x".repeat(8000) + i);
                return JSON.stringify({ html: renders + "/" + globalThis.loads, title: "", description: String(rows.length), status: 200 });
            };
        })();
    "#;
    // A second to fill the heap, so that a busy machine does not turn "greedy" into a timeout.
    let limits = RendererConfig { engines: 1, render_timeout: Duration::from_secs(1), ..config() };
    let renderer = Renderer::start(bundle, limits).unwrap();
    assert_eq!(renderer.render_blocking("count", "{}").unwrap().html, "1/1");
    assert_eq!(renderer.render_blocking("count", "{}").unwrap().html, "2/1");

    let pages = ["endless", "greedy", "greedy-buffers"];
    for (round, page) in pages.into_iter().cycle().take(9).enumerate() {
        let error = renderer.render_blocking(page, "{}").unwrap_err();
        let stopped_as_expected = match page {
            "endless" => matches!(error, RenderError::TimedOut { .. }),
            _ => matches!(error, RenderError::OutOfMemory { .. }),
        };
        assert!(stopped_as_expected, "round {round}, {page}: {error:?}");
        assert_eq!(renderer.render_blocking("count", "{}").unwrap().html, "1/1", "round {round}");
    }
    assert_eq!(renderer.stats().engines_rebuilt, 9);
}

/// Sends SIGKILL to `pid`, as the kernel's out-of-memory killer or an operator would.
fn kill_9(pid: u32) {
    let status = std::process::Command::new("kill").args(["-KILL", &pid.to_string()]).status().unwrap();
    assert!(status.success());
}

#[test]
fn a_process_killed_during_a_render_answers_it_as_crashed_and_is_replaced() {
    let bundle = r#"
        globalThis.ssrRender = function (page) {
            if (page === "slow") { const until = Date.now() + 2000; while (Date.now() < until) {} }
            return JSON.stringify({ html: page, title: "", description: "", status: 200 });
        };
    "#;
    let renderer = Arc::new(
        Renderer::start(bundle, RendererConfig { engines: 1, render_timeout: Duration::from_secs(5), ..config() })
            .unwrap(),
    );
    let pid = renderer.process_ids()[0];
    let slow = {
        let renderer = Arc::clone(&renderer);
        std::thread::spawn(move || renderer.render_blocking("slow", "{}"))
    };
    std::thread::sleep(Duration::from_millis(300));

    kill_9(pid);

    match slow.join().unwrap() {
        Err(RenderError::Crashed { message }) => assert!(message.contains("signal: 9"), "{message}"),
        other => panic!("expected Crashed, got {other:?}"),
    }
    let started = Instant::now();
    assert_eq!(renderer.render_blocking("next", "{}").unwrap().html, "next");
    assert!(started.elapsed() < Duration::from_millis(500), "the spare took over: {:?}", started.elapsed());
    let stats = renderer.stats();
    assert_eq!((stats.crashed, stats.engines_rebuilt), (1, 1));
    assert!(!renderer.process_ids().contains(&pid));
}

#[test]
fn a_process_killed_between_renders_is_replaced_before_its_next_render() {
    let renderer = Renderer::start(BUNDLE, RendererConfig { engines: 1, ..config() }).unwrap();
    renderer.render_blocking("greeting", r#"{"name":"A"}"#).unwrap();
    let first = renderer.process_ids()[0];

    kill_9(first);
    std::thread::sleep(Duration::from_millis(100));

    assert_eq!(renderer.render_blocking("greeting", r#"{"name":"B"}"#).unwrap().html, "<p>Hello, B</p>");
    assert_eq!(renderer.stats().crashed, 1);
}

#[test]
fn a_process_is_recycled_after_its_share_of_renders_and_above_the_memory_bound() {
    let by_count =
        Renderer::start(BUNDLE, RendererConfig { engines: 1, recycle_after_renders: 3, ..config() }).unwrap();
    let first = by_count.process_ids();
    for n in 0..7 {
        assert!(by_count.render_blocking("greeting", &format!(r#"{{"name":"{n}"}}"#)).is_ok());
    }
    assert_eq!(by_count.stats().recycled, 2);
    assert!(!by_count.process_ids().contains(&first[0]));

    let by_memory = Renderer::start(BUNDLE, RendererConfig { engines: 1, recycle_above_bytes: 1, ..config() }).unwrap();
    for n in 0..3 {
        assert!(by_memory.render_blocking("greeting", &format!(r#"{{"name":"{n}"}}"#)).is_ok());
    }
    assert_eq!(by_memory.stats().recycled, 3);
    assert_eq!(by_memory.stats().failed, 0);
}

#[test]
fn processes_that_keep_failing_to_start_are_given_up_on_and_renders_are_unavailable() {
    // The renderer starts from a link to the real program; the link then points at one that
    // exits at once, and the running process is killed.
    let folder = tempfile::tempdir().unwrap();
    let link = folder.path().join("render-process");
    std::os::unix::fs::symlink(program(), &link).unwrap();
    let renderer =
        Renderer::start(BUNDLE, RendererConfig { engines: 1, program: Some(link.clone()), ..config() }).unwrap();
    // The spare is started in the background: wait for it, then kill it and the working process.
    let deadline = Instant::now() + Duration::from_secs(10);
    while renderer.process_ids().len() < 2 {
        assert!(Instant::now() < deadline, "no spare was started");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink("/bin/false", &link).unwrap();
    for pid in renderer.process_ids() {
        kill_9(pid);
    }
    std::thread::sleep(Duration::from_millis(100));

    // Back-offs of 0.1, 0.2, 0.4, 0.8 and 1.6 s at most before the fifth failed start.
    let started = Instant::now();
    assert_eq!(renderer.render_blocking("greeting", r#"{"name":"A"}"#), Err(RenderError::Unavailable));
    assert!(started.elapsed() < Duration::from_secs(8), "{:?}", started.elapsed());
    assert_eq!(renderer.render_blocking("greeting", r#"{"name":"B"}"#), Err(RenderError::Unavailable));
}
