//! `make bench`: prints figures that nothing checks, except in the soak (section 4), which is there
//! to fail the bench when the renderer misbehaves or leaks. `BENCH_PARTS=1,4` runs only those
//! sections.
//! 1. Render time of each page (median and p95), including the staff dashboard's first page with a
//!    full page of orders and messages: in a render process (deno_core, the frames over its pipes
//!    included), beside Node (V8) rendering the same server bundle with the same props
//!    (`frontend/scripts/node-render-times.mjs`, the same warm-up and timed renders), and the ratio
//!    of the two. Without Node, the embedded figures alone. Then what the pipes cost: the
//!    dashboard's props in and its page out with no rendering in between.
//! 2. Cold start of one render process (start it and load the server bundle).
//! 3. Against the release server: the first-visit transfer of each public page (brotli), then
//!    requests per second and p50/p99 latency for the cached /pricing under load on loopback, with
//!    wrk against the release binary.
//! 4. A soak, last so that when it fails the figures above are still printed: 50,000 renders of
//!    every page, from 4 threads over 2 render processes, with one render that never ends and one
//!    that allocates without bound in every 1,000 (the server bundle plus a wrapper that adds those
//!    two pages), and a render process killed with SIGKILL every 5,000. Fails unless every render is
//!    answered (counted: ok, timed out, out of memory, crashed), the endless and greedy ones end in
//!    `TimedOut` and `OutOfMemory`, the renderer's counters agree, and, in the full run, the memory
//!    (this process's RSS plus the `Pss` of its render processes) grows by at most 20% from the end
//!    of the soak's first tenth to the end. Memory is printed after the warm-up, at every tenth and
//!    at the end; so is the longest wait of a render right after a kill (the spare's hand-over).
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod common;

use common::{Server, ms, percentile, quick, runs_part, scaled, server_binary};
use laundry::config::Settings;
use laundry::frontend::Frontend;
use laundry::rendering::PageJson;
use laundry::routes::PublicPage;
use laundry::views::pages::ErrorProps;
use laundry::views::samples;
use ssr_runtime::{RenderError, Renderer, RendererConfig};
use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Untimed renders of each page before its timed ones, in the embedded engine and in Node alike.
const WARMUP_RENDERS: usize = 20;

fn main() {
    let renders = scaled(500, 20);
    let cold_starts = scaled(10, 2);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let frontend = Frontend::load(&root.join("frontend/dist")).expect("build the frontend first (make frontend)");
    let settings = Settings::from_lookup(|_| None).unwrap();
    println!("machine: {} cores, {}", std::thread::available_parallelism().map_or(0, usize::from), cpu_model());
    println!("server bundle: {} KB", frontend.server_bundle().len() / 1024);

    // The props the server renders: public pages as the cache has them, the others from the
    // view structs filled with samples.
    let now = settings.clock.now();
    let mut pages: Vec<PageJson> = PublicPage::ALL.iter().map(|page| page.page(&settings, now)).collect();
    pages.push(PageJson::new(&settings.business, &settings.clock, "", &ErrorProps { status: 404 }));
    pages.push(PageJson::new(&settings.business, &settings.clock, "/admin/login", &samples::login()));
    pages.push(PageJson::new(&settings.business, &settings.clock, "/admin", &samples::dashboard()));
    let pages: Vec<(&str, serde_json::Value)> =
        pages.iter().map(|page| (page.page().name(), page.props().clone())).collect();
    let soak_pages: Vec<(&str, String)> = pages.iter().map(|(label, props)| (*label, props.to_string())).collect();
    if runs_part("1") {
        render_times(&root, frontend.server_bundle(), &pages, renders);
    }
    if runs_part("2") {
        cold_start(frontend.server_bundle(), cold_starts);
    }
    if runs_part("3") {
        println!("\n## Against the release server");
        load_test(&root);
    }
    if runs_part("4") {
        soak(frontend.server_bundle(), &soak_pages);
    }
}

/// Section 1: each page's render time here and in Node, then the pipes' cost.
fn render_times(root: &Path, bundle: &str, pages: &[(&str, serde_json::Value)], renders: usize) {
    println!(
        "\n## Render time in a render process beside Node ({renders} renders after {WARMUP_RENDERS} warm-up renders each)"
    );
    // Node first, while no engine is busy, so the two sides never share the CPU.
    let node = node_render_times(root, pages, renders);
    let renderer = Renderer::start(bundle, bench_config(1)).unwrap();
    for (label, props) in pages {
        let page = *label;
        let props = props.to_string();
        for _ in 0..WARMUP_RENDERS {
            renderer.render_blocking(page, &props).unwrap();
        }
        let mut times = Vec::with_capacity(renders);
        let mut html_bytes = 0;
        for _ in 0..renders {
            let started = Instant::now();
            html_bytes = renderer.render_blocking(page, &props).unwrap().html.len();
            times.push(started.elapsed());
        }
        let (median, p95) = (ms(percentile(&mut times, 50.0)), ms(percentile(&mut times, 95.0)));
        let beside = match node.as_ref().map(|node| node[page]) {
            Some((node_median, node_p95)) => format!(
                " | node median {node_median:>6.2} ms p95 {node_p95:>6.2} ms | ×{:>5.1}",
                median / node_median.max(f64::MIN_POSITIVE)
            ),
            None => String::new(),
        };
        println!(
            "{label:<12} embedded median {median:>6.2} ms p95 {p95:>6.2} ms{beside} | {} KB of HTML",
            html_bytes / 1024
        );
    }
    drop(renderer);
    let dashboard = pages.iter().find(|(label, _)| *label == "admin").map(|(_, props)| props.to_string());
    pipe_overhead(bundle, &dashboard.expect("the dashboard is among the pages"), renders);
}

/// Section 2: how long a render process takes to start and load the bundle.
fn cold_start(bundle: &str, cold_starts: usize) {
    println!("\n## Cold start of one render process ({cold_starts} starts)");
    let mut starts: Vec<Duration> = (0..cold_starts)
        .map(|_| {
            let started = Instant::now();
            let renderer = Renderer::start(bundle, bench_config(1)).unwrap();
            let elapsed = started.elapsed();
            drop(renderer);
            elapsed
        })
        .collect();
    println!(
        "start the process + load the bundle: median {:.1} ms, max {:.1} ms",
        ms(percentile(&mut starts, 50.0)),
        ms(percentile(&mut starts, 100.0))
    );
}

/// Node's (median, p95) in ms of each page, from `frontend/scripts/node-render-times.mjs` run on
/// the same bundle and props with the same numbers of renders; none when Node is not installed.
fn node_render_times(
    root: &Path,
    pages: &[(&str, serde_json::Value)],
    renders: usize,
) -> Option<HashMap<String, (f64, f64)>> {
    let folder = tempfile::tempdir().unwrap();
    let pages_file = folder.path().join("pages.json");
    let list: Vec<serde_json::Value> = pages
        .iter()
        .map(|(label, props)| serde_json::json!({ "label": label, "page": label, "props": props }))
        .collect();
    std::fs::write(&pages_file, serde_json::to_vec(&list).unwrap()).unwrap();
    let run = Command::new("node")
        .current_dir(root.join("frontend"))
        .arg("scripts/node-render-times.mjs")
        .arg("--pages")
        .arg(&pages_file)
        .args(["--renders", &renders.to_string(), "--warmup", &WARMUP_RENDERS.to_string()])
        .arg("--dist")
        .arg(root.join("frontend/dist"))
        .stderr(Stdio::inherit())
        .output();
    let output = match run {
        Ok(output) => output,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            println!("node is not installed: the embedded engine's figures are shown alone");
            return None;
        }
        Err(error) => panic!("could not run node: {error}"),
    };
    // Node is there but the script failed: a broken comparison must not pass for a missing Node.
    assert!(output.status.success(), "node-render-times.mjs failed ({})", output.status);
    let times: HashMap<String, serde_json::Value> =
        serde_json::from_slice(&output.stdout).expect("node-render-times.mjs did not print its JSON line");
    let figures = times
        .into_iter()
        .map(|(label, time)| {
            let field = |name: &str| time[name].as_f64().unwrap_or_else(|| panic!("no {name} for {label} from Node"));
            let figures = (field("medianMs"), field("p95Ms"));
            (label, figures)
        })
        .collect::<HashMap<_, _>>();
    for (label, _) in pages {
        assert!(figures.contains_key(*label), "node-render-times.mjs gave no figures for {label}");
    }
    Some(figures)
}

/// Appended to the server bundle for the soak: two pages the real bundle does not have, one that
/// never ends and one that allocates until the engine's heap limit stops it; every other page goes
/// to the bundle's own `ssrRender`.
///
/// The greedy page fills the heap with arrays of numbers, as a runaway component would, under the
/// soak's 64 MB heap limit and a time limit long enough that it reaches the heap limit first even
/// on a busy machine.
const SOAK_PAGES: &str = r#"
;(() => {
  const render = globalThis.ssrRender;
  globalThis.ssrRender = (page, propsJson) => {
    if (page === "soak-endless") for (;;) {}
    if (page === "soak-greedy") {
      const keep = [];
      for (;;) keep.push(new Array(100000).fill(1));
    }
    return render(page, propsJson);
  };
})();
"#;

/// Threads that share the soak's renderer: more than its processes, so both always have work.
const SOAK_THREADS: usize = 4;

/// What the `index`th render of the soak is: in every 1,000, one that never ends and one that
/// runs out of memory; in every 5,000, a render process killed with SIGKILL first; else the pages
/// in turn.
#[derive(Clone, Copy)]
enum SoakRender {
    Endless,
    Greedy,
    Kill,
    Page(usize),
}

impl SoakRender {
    fn at(index: usize, pages: usize) -> Self {
        match (index % 5_000, index % 1_000) {
            (4_500, _) => Self::Kill,
            (_, 250) => Self::Endless,
            (_, 750) => Self::Greedy,
            _ => Self::Page(index % pages),
        }
    }
}

/// How the soak's renders ended.
#[derive(Default)]
struct Tally {
    ok: AtomicUsize,
    timed_out: AtomicUsize,
    out_of_memory: AtomicUsize,
    crashed: AtomicUsize,
    /// The longest render right after a kill, in microseconds.
    after_kill_us: AtomicUsize,
}

impl Tally {
    fn count(&self, index: usize, page: &str, result: &Result<ssr_runtime::RenderedPage, RenderError>) {
        let counter = match (page, result) {
            (_, Err(RenderError::Crashed { .. })) => &self.crashed,
            ("soak-endless", Err(RenderError::TimedOut { .. })) => &self.timed_out,
            ("soak-greedy", Err(RenderError::OutOfMemory { .. })) => &self.out_of_memory,
            (page, Ok(_)) if !page.starts_with("soak-") => &self.ok,
            (page, other) => panic!("soak render {index}: {page} gave {}", outcome(other)),
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

/// Section 4: a long run with renders cut off and processes killed; panics when a render ends
/// otherwise than it may, or when the memory grows.
fn soak(bundle: &str, pages: &[(&str, String)]) {
    let total = scaled(50_000, 5_000);
    println!(
        "\n## Soak: {total} renders from {SOAK_THREADS} threads over 2 render processes, one endless and one greedy \
         in every 1,000, a process killed with SIGKILL in every 5,000"
    );
    let renderer = Renderer::start(format!("{bundle}\n{SOAK_PAGES}"), soak_config()).unwrap();

    // Every page on both processes and a few cut-off renders before the first reading, so that
    // the baseline holds warm processes and the allocator's settled state.
    render_from_threads(WARMUP_RENDERS * pages.len(), |index| {
        let (label, props) = &pages[index % pages.len()];
        if let Err(error) = renderer.render_blocking(label, props) {
            panic!("soak warm-up: {label} failed: {error}");
        }
    });
    render_from_threads(16, |index| {
        let page = if index % 2 == 0 { "soak-endless" } else { "soak-greedy" };
        let result = renderer.render_blocking(page, "{}");
        if !matches!(result, Err(RenderError::TimedOut { .. } | RenderError::OutOfMemory { .. })) {
            panic!("soak warm-up: {page} was not cut off by a limit");
        }
    });
    // The spare, replaced after the last cut-off, is ready again.
    std::thread::sleep(Duration::from_millis(500));
    let before = renderer.stats();
    let memory_start = memory_kib(&renderer);
    let tally = Tally::default();
    let started = Instant::now();
    let tenth = (total / 10).max(1);
    let memory_settled = AtomicUsize::new(0);
    render_from_threads(total, |index| {
        if index % tenth == 0 && index > 0 {
            let memory = memory_kib(&renderer);
            if index == tenth {
                memory_settled.store(memory.total() as usize, Ordering::Relaxed);
            }
            println!("after {index:>6} renders: {memory}");
        }
        let (page, props) = match SoakRender::at(index, pages.len()) {
            SoakRender::Endless => ("soak-endless", "{}"),
            SoakRender::Greedy => ("soak-greedy", "{}"),
            SoakRender::Page(page) => (pages[page].0, pages[page].1.as_str()),
            SoakRender::Kill => {
                kill_a_render_process(&renderer);
                // The renders right after: each process's next one runs in the spare at the latest.
                for next in 0..4 {
                    let (label, props) = &pages[(index + next) % pages.len()];
                    let render_started = Instant::now();
                    let result = renderer.render_blocking(label, props);
                    let waited = render_started.elapsed().as_micros() as usize;
                    tally.after_kill_us.fetch_max(waited, Ordering::Relaxed);
                    tally.count(index, label, &result);
                }
                return;
            }
        };
        tally.count(index, page, &renderer.render_blocking(page, props));
    });
    let elapsed = started.elapsed();
    let memory_end = memory_kib(&renderer);
    // A process is replaced after it answered its cut-off render: once the threads are joined,
    // the counters hold the last replacement too.
    renderer.shutdown();
    let stats = renderer.stats();

    let kills = (0..total).filter(|&index| matches!(SoakRender::at(index, pages.len()), SoakRender::Kill)).count();
    let renders = (total - kills) + 4 * kills;
    let counted =
        [&tally.ok, &tally.timed_out, &tally.out_of_memory, &tally.crashed].map(|c| c.load(Ordering::Relaxed));
    println!(
        "{renders} renders in {:.1} s: {:.0} renders/s; answered: ok {}, timed out {}, out of memory {}, crashed {} \
         ({kills} processes killed)",
        elapsed.as_secs_f64(),
        renders as f64 / elapsed.as_secs_f64(),
        counted[0],
        counted[1],
        counted[2],
        counted[3],
    );
    println!(
        "renderer.stats(): rendered {}, failed {}, engines_rebuilt {}, crashed {}, recycled {} (with the warm-up)",
        stats.rendered, stats.failed, stats.engines_rebuilt, stats.crashed, stats.recycled
    );
    println!(
        "longest render right after a kill: {:.1} ms (a process's start: section 2)",
        tally.after_kill_us.load(Ordering::Relaxed) as f64 / 1000.0
    );
    let settled = memory_settled.into_inner() as f64;
    let growth = 100.0 * (memory_end.total() as f64 - settled) / settled;
    println!(
        "memory after the warm-up: {memory_start}\nafter the first tenth {:.1} MB, at the end {memory_end}: \
         {growth:+.1}% from the first tenth",
        settled / 1024.0
    );
    assert_eq!(counted.iter().sum::<usize>(), renders, "every render is answered once");
    assert!(counted[3] <= kills, "no render crashed but those of a killed process");
    assert_eq!(
        (stats.rendered - before.rendered, stats.failed - before.failed),
        (counted[0] as u64, (counted[1] + counted[2] + counted[3]) as u64),
        "the renderer's counters agree with the answers"
    );
    assert!(
        stats.crashed - before.crashed == kills as u64,
        "each killed process is counted as crashed once ({} for {kills})",
        stats.crashed - before.crashed
    );
    // The bound is the full run's (50,000 renders); a quick run's percentage is noise, and CI
    // compares no figures of the benches (.ci/run).
    if quick() {
        println!("(the 20% bound on memory growth is checked by the full run)");
    } else {
        assert!(growth <= 20.0, "memory grew by {growth:.1}% after the soak's first tenth (20% at most)");
    }
}

/// Kills the render process that has lived longest (a working one, not the spare, which is always
/// the newest) with SIGKILL.
fn kill_a_render_process(renderer: &Renderer) {
    let Some(pid) = renderer.process_ids().first().copied() else { return };
    let status = Command::new("kill").args(["-KILL", &pid.to_string()]).status().unwrap();
    assert!(status.success(), "kill -KILL {pid}");
}

/// This process's RSS and its render processes' proportional share of memory.
struct Memory {
    rss_kib: u64,
    children_pss_kib: u64,
    children: usize,
}

impl Memory {
    fn total(&self) -> u64 {
        self.rss_kib + self.children_pss_kib
    }
}

impl std::fmt::Display for Memory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:.1} MB (server RSS {:.1} MB + {} render processes' Pss {:.1} MB)",
            self.total() as f64 / 1024.0,
            self.rss_kib as f64 / 1024.0,
            self.children,
            self.children_pss_kib as f64 / 1024.0
        )
    }
}

fn memory_kib(renderer: &Renderer) -> Memory {
    let ids = renderer.process_ids();
    let children_pss_kib = ids.iter().filter_map(|pid| kib_field(&format!("/proc/{pid}/smaps_rollup"), "Pss:")).sum();
    Memory { rss_kib: rss_kib(), children_pss_kib, children: ids.len() }
}

/// A `Name:   123 kB` line of a /proc file, in KiB.
fn kib_field(path: &str, name: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines()
        .find_map(|line| line.strip_prefix(name))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Calls `render(index)` for every index below `count`, from [`SOAK_THREADS`] threads taking the
/// next index in turn. A panic in one of them fails the bench.
fn render_from_threads(count: usize, render: impl Fn(usize) + Sync) {
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..SOAK_THREADS {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= count {
                        break;
                    }
                    render(index);
                }
            });
        }
    });
}

/// A render's result for a failure message, without the page's HTML.
fn outcome(result: &Result<ssr_runtime::RenderedPage, RenderError>) -> String {
    match result {
        Ok(_) => "a page".to_owned(),
        Err(error) => format!("{error:?}"),
    }
}

/// This process's resident memory, in KiB (`VmRSS` of /proc/self/status).
fn rss_kib() -> u64 {
    kib_field("/proc/self/status", "VmRSS:").expect("the soak reads /proc/self/status (Linux)")
}

/// One render process per engine of the release server binary, with the defaults' limits.
fn bench_config(engines: usize) -> RendererConfig {
    RendererConfig { engines, program: Some(server_binary()), ..RendererConfig::default() }
}

/// The soak's render processes: two, with a 64 MB heap limit (the pages need a few MB) and a 1 s
/// time limit.
fn soak_config() -> RendererConfig {
    RendererConfig { render_timeout: Duration::from_secs(1), memory_limit_bytes: 64 * 1024 * 1024, ..bench_config(2) }
}

/// Appended to the server bundle to time the pipes: the page `pipe-echo` answers the JSON it was
/// given at its first render (the dashboard's page), without rendering.
const ECHO_PAGE: &str = r#"
;(() => {
  const render = globalThis.ssrRender;
  let kept = null;
  globalThis.ssrRender = (page, propsJson) => {
    if (page !== "pipe-echo") return render(page, propsJson);
    if (kept === null) kept = render("admin", propsJson);
    return kept;
  };
})();
"#;

/// Section 1's last line: the dashboard's props in and its page out through a render process,
/// with no rendering in between (the page is kept from the first render): what the frames, the
/// pipes and the result's JSON cost per render, beside the dashboard's whole render.
fn pipe_overhead(bundle: &str, dashboard_props: &str, renders: usize) {
    let renderer = Renderer::start(format!("{bundle}\n{ECHO_PAGE}"), bench_config(1)).unwrap();
    let mut times = Vec::with_capacity(renders);
    let mut html_bytes = 0;
    for round in 0..WARMUP_RENDERS + renders {
        let started = Instant::now();
        html_bytes = renderer.render_blocking("pipe-echo", dashboard_props).unwrap().html.len();
        if round >= WARMUP_RENDERS {
            times.push(started.elapsed());
        }
    }
    println!(
        "pipes: the dashboard's {} KB of props in and {} KB of HTML out, no rendering: median {:.3} ms p95 {:.3} ms",
        dashboard_props.len() / 1024,
        html_bytes / 1024,
        ms(percentile(&mut times, 50.0)),
        ms(percentile(&mut times, 95.0)),
    );
}

fn load_test(root: &Path) {
    if Command::new("wrk").arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_err() {
        println!("wrk is not installed (Debian: apt-get install wrk); skipped");
        return;
    }
    let binary = server_binary();
    let port = 18_087;
    let data = tempfile::tempdir().unwrap();
    let server = Server(
        Command::new(&binary)
            .arg("serve")
            .env("LAUNDRY_ADDR", format!("127.0.0.1:{port}"))
            .env("LAUNDRY_FRONTEND_DIR", root.join("frontend/dist"))
            .env("DATABASE_URL", format!("sqlite://{}/bench.db", data.path().display()))
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let url = format!("http://127.0.0.1:{port}/pricing");
    let deadline = Instant::now() + Duration::from_secs(30);
    while Command::new("wrk").args(["-t1", "-c1", "-d1s", &url]).output().map_or(true, |o| !o.status.success())
        || std::net::TcpStream::connect(("127.0.0.1", port)).is_err()
    {
        assert!(Instant::now() < deadline, "the server did not start");
        std::thread::sleep(Duration::from_millis(200));
    }
    page_weights(port);
    println!("\n## Cached /pricing under load (wrk, loopback)");
    let seconds = if quick() { 2 } else { 10 };
    let duration = format!("-d{seconds}s");
    for (label, encoding) in [("brotli", "br"), ("identity", "identity")] {
        let accept = format!("Accept-Encoding: {encoding}");
        let output =
            Command::new("wrk").args(["-t2", "-c64", &duration, "--latency", "-H", &accept, &url]).output().unwrap();
        let text = String::from_utf8_lossy(&output.stdout);
        let field = |prefix: &str| {
            text.lines().find(|l| l.trim_start().starts_with(prefix)).map_or("?".to_owned(), |l| l.trim().to_owned())
        };
        println!(
            "{label:<9} 64 connections, {seconds} s: {} | latency {} | {} | non-2xx: {}",
            field("Requests/sec"),
            field("50%"),
            field("99%"),
            text.lines().find(|l| l.contains("Non-2xx")).unwrap_or("none")
        );
    }
    drop(server);
}

/// What a first visit to each page transfers with brotli: the HTML (with its inlined CSS) and the
/// JavaScript modules it names.
fn page_weights(port: u16) {
    println!("\n## First-visit transfer per page (brotli; CSS is inlined in the HTML)");
    println!("{:<14} {:>9} {:>9} {:>9}", "page", "HTML+CSS", "JS", "total");
    let fetch = |path: &str| -> (usize, String) {
        let output = Command::new("curl")
            .args(["-s", "-H", "Accept-Encoding: br", "-D", "-", "-o", "/dev/stdout", "--compressed"])
            .arg(format!("http://127.0.0.1:{port}{path}"))
            .output()
            .expect("curl is needed for the page weights");
        let raw = Command::new("curl")
            .args(["-s", "-H", "Accept-Encoding: br", "-o", "/dev/null", "-w", "%{size_download}"])
            .arg(format!("http://127.0.0.1:{port}{path}"))
            .output()
            .unwrap();
        let size = String::from_utf8_lossy(&raw.stdout).trim().parse().unwrap_or(0);
        (size, String::from_utf8_lossy(&output.stdout).into_owned())
    };
    for path in ["/", "/pricing", "/order", "/tracking", "/contact", "/confirmation"] {
        let (html_bytes, html) = fetch(path);
        let modules: Vec<&str> = html
            .split(r#"<script type="module" src=""#)
            .skip(1)
            .chain(html.split(r#"<link rel="modulepreload" href=""#).skip(1))
            .filter_map(|rest| rest.split('"').next())
            .collect();
        let js_bytes: usize = modules.iter().map(|module| fetch(module).0).sum();
        println!(
            "{path:<14} {:>6.1} KB {:>6.1} KB {:>6.1} KB",
            kb(html_bytes),
            kb(js_bytes),
            kb(html_bytes + js_bytes)
        );
    }
}

fn kb(bytes: usize) -> f64 {
    bytes as f64 / 1024.0
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned())
}
