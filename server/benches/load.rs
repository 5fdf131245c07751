//! `make bench`, part 3 (issue 13, "Figures to reach"): the release server under load on loopback,
//! beside a Node peer that renders the same pages from the same server bundle
//! (`frontend/scripts/node-render-server.mjs`). Prints figures; nothing fails when they are bad,
//! only when the setup itself does not work.
//! 1. Pages rendered per request (`/admin/login`, `/confirmation?ref=…`), identity and brotli, with
//!    `wrk -t2 -c64 --latency`: req/s, p50 and p99 of ours and of Node's (one process, and one per
//!    core with node:cluster), and ours as a percentage of Node's. Node renders the props the
//!    Rust server put in its own page, read from the page's `<script id="page-data">`. The server
//!    runs behind a "proxy" and each request names another client in `X-Forwarded-For`, so that
//!    the per-client limit on confirmation look-ups is not what is measured.
//! 2. The cached `/pricing` (brotli) alone, then while a second wrk loads the per-request pages.
//! 3. A login flood: wrong passwords for the one staff account from 100 addresses
//!    (`X-Forwarded-For`, the server runs with `LAUNDRY_BEHIND_PROXY=true`), 1,000 in about 30 s,
//!    sent a few hundred at a time: the server's peak memory, the answers by status, and whether
//!    the real staff member signs in meanwhile, from another address, and how long it takes.
//!    Then how far the server's memory falls back once the flood is over.
//! 4. Floods from more addresses than a per-client limit remembers (issue 28): one stored order
//!    sent again with its `Idempotency-Key` from 120,000 addresses (IPv6 /64s), then order look-ups
//!    from 120,000 more; after each, a new customer from a new address orders (201) and looks
//!    their order up (200).
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod common;

use common::{Server, free_port, ms, percentile, quick, runs_part, scaled, server_binary};
use laundry::domain::PaymentMethod;
use laundry::views::requests::OrderBody;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const STAFF_EMAIL: &str = "staff@example.com";
const STAFF_PASSWORD: &str = "Browser-Test-Pass-2026";
/// Brotli quality of the Node peer's per-request pages: the one the Rust server compresses its
/// per-request pages with (`server/src/compressed.rs`), so that both pay the same for compression.
const NODE_BROTLI_QUALITY: u32 = 5;

fn main() {
    let started = Instant::now();
    if !runs("wrk", "--version") {
        println!("wrk is not installed (Debian: apt-get install wrk); skipped");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    assert!(root.join("frontend/dist/server/server.js").exists(), "build the frontend first (make frontend)");
    let seconds = if quick() { 2 } else { 10 };
    // The load generator shares the machine's cores with the servers; other work on it shows here.
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "load average before the bench (1, 5, 15 min): {}",
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
    );
    // `BENCH_PARTS=3,4` runs only those parts (all by default).
    if runs_part("1") || runs_part("2") {
        per_request_pages(&root, seconds);
    }
    if runs_part("3") {
        login_flood(&root);
    }
    if runs_part("4") {
        address_floods(&root);
    }
    println!("\n(load bench: {:.0} s in all)", started.elapsed().as_secs_f64());
}

/// Parts 1 and 2, on one server with a fresh SQLite database and one order in it.
fn per_request_pages(root: &Path, seconds: u64) {
    let data = tempfile::tempdir().unwrap();
    // Behind a proxy, as in production: wrk gives each request another client address (see
    // `rotating_script`), so that the per-client limits (confirmation look-ups) count each
    // address a few times rather than the whole load as one client.
    let (_server, port) = start_server(root, data.path(), &[("LAUNDRY_BEHIND_PROXY", "true")]);
    let reference = place_order(port);
    let confirmation = format!("/confirmation?ref={reference}");
    let pages_file = data.path().join("node-pages.json");
    let pages = json!({
        "/admin/login": page_as_served(port, "/admin/login"),
        "/confirmation": page_as_served(port, &confirmation),
    });
    std::fs::write(&pages_file, pages.to_string()).unwrap();

    println!(
        "\n## Pages rendered per request: ours and a Node peer (wrk -t2 -c64 -d{seconds}s --timeout 10s --latency)"
    );
    println!("Node renders the props our server put in its own page (its <script id=\"page-data\">), with the same");
    println!(
        "server bundle, into the same document shell; brotli quality {NODE_BROTLI_QUALITY}, per request. It reads no database."
    );
    println!("Each request comes from another X-Forwarded-For address (16,384 per wrk thread), for both servers.");
    let cores = std::thread::available_parallelism().map_or(2, usize::from);
    let node_one = start_node(root, &pages_file, 1);
    let node_cluster = start_node(root, &pages_file, cores);
    let mut peers: Vec<(String, u16)> = vec![("ours (Rust)".to_owned(), port)];
    if let Some((_, node_port)) = &node_one {
        peers.push(("Node ×1".to_owned(), *node_port));
    }
    if let Some((_, node_port)) = &node_cluster {
        peers.push((format!("Node ×{cores} (cluster)"), *node_port));
    }

    let targets = [("/admin/login", "/admin/login"), ("/confirmation?ref=…", confirmation.as_str())];
    println!("\nDocument sizes (KB, identity / brotli):");
    for (label, path) in targets {
        let sizes: Vec<String> = peers
            .iter()
            .take(2)
            .map(|(name, peer)| {
                let plain =
                    http(*peer, "GET", path, &[("Accept-Encoding", "identity")], b"").map_or(0, |a| a.body.len());
                let brotli = http(*peer, "GET", path, &[("Accept-Encoding", "br")], b"").map_or(0, |a| a.body.len());
                format!("{name} {:.1} / {:.1}", kb(plain), kb(brotli))
            })
            .collect();
        println!("  {label:<20} {}", sizes.join("   "));
    }

    println!(
        "\n{:<20} {:<9} {:<18} {:>9} {:>8} {:>8} {:>8} {:>7}",
        "page", "coding", "server", "req/s", "p50 ms", "p99 ms", "non-2xx", "errors"
    );
    for (index, (label, path)) in targets.into_iter().enumerate() {
        let script = rotating_script(data.path(), &format!("page-{index}"), &[path]);
        for (coding, accept) in [("identity", "identity"), ("brotli", "br")] {
            let results: Vec<(String, WrkResult)> = peers
                .iter()
                .map(|(name, peer)| {
                    let url = format!("http://127.0.0.1:{peer}/");
                    (name.clone(), wrk(&mut wrk_command(2, 64, seconds, &url, accept, Some(&script))))
                })
                .collect();
            for (name, result) in &results {
                println!("{label:<20} {coding:<9} {name:<18} {}", result.columns());
            }
            let ours = results[0].1.rps;
            let shares: Vec<String> = results[1..]
                .iter()
                .map(|(name, node)| format!("{:.0}% of {name}", 100.0 * ours / node.rps.max(f64::MIN_POSITIVE)))
                .collect();
            if !shares.is_empty() {
                println!("{:<20} {:<9} ours in req/s: {}", "", "", shares.join("; "));
            }
        }
    }
    drop(node_one);
    drop(node_cluster);

    // Part 2: does rendering per request slow the cached page? The same connections (32) for
    // /pricing in both runs; the second wrk alternates /admin/login and the confirmation.
    println!("\n## Cached /pricing (brotli) alone, then beside per-request pages (wrk -t1 -c32 each, {seconds} s)");
    let script = rotating_script(data.path(), "both-pages", &["/admin/login", &confirmation]);
    let pricing = format!("http://127.0.0.1:{port}/pricing");
    let alone = wrk(&mut wrk_command(1, 32, seconds, &pricing, "br", None));
    let other = wrk_command(1, 32, seconds, &format!("http://127.0.0.1:{port}/"), "br", Some(&script))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let loaded = wrk(&mut wrk_command(1, 32, seconds, &pricing, "br", None));
    let other = parse_wrk(&String::from_utf8_lossy(&other.wait_with_output().unwrap().stdout));
    println!("{:<44} {:>9} {:>8} {:>8} {:>8} {:>7}", "", "req/s", "p50 ms", "p99 ms", "non-2xx", "errors");
    println!("{:<44} {}", "/pricing alone", alone.columns());
    println!("{:<44} {}", "/pricing, loaded", loaded.columns());
    println!("{:<44} {}", "  meanwhile /admin/login + /confirmation", other.columns());
    println!(
        "/pricing loaded / unloaded: {:.0}% (target: at least 50%)",
        100.0 * loaded.rps / alone.rps.max(f64::MIN_POSITIVE)
    );
}

/// A wrk script that asks for `paths` in turn and gives each request another client address in
/// `X-Forwarded-For` (16,384 addresses per wrk thread, 10.(100 + thread).x.y), so that a
/// per-client limit sees each address a few times, as it would see many customers.
fn rotating_script(folder: &Path, name: &str, paths: &[&str]) -> std::path::PathBuf {
    let quoted: Vec<String> = paths.iter().map(|path| format!("{path:?}")).collect();
    let script = format!(
        r#"local paths = {{ {} }}
local threads = 0
function setup(thread)
  thread:set("prefix", "10." .. (100 + threads) .. ".")
  threads = threads + 1
end
function init(args)
  counter = 0
end
function request()
  counter = counter + 1
  local client = counter % 16384
  wrk.headers["X-Forwarded-For"] = prefix .. math.floor(client / 256) .. "." .. (client % 256)
  return wrk.format("GET", paths[counter % #paths + 1])
end
"#,
        quoted.join(", ")
    );
    let file = folder.join(format!("{name}.lua"));
    std::fs::write(&file, script).unwrap();
    file
}

/// Part 3.
fn login_flood(root: &Path) {
    let guesses = scaled(1_000, 100);
    let clients = 100;
    // Full: waves of 200 (two per address) every 6 s, 1,000 guesses in about 30 s. Quick: a tenth.
    let (wave, interval) = if quick() { (50, Duration::from_millis(500)) } else { (200, Duration::from_secs(6)) };
    println!(
        "\n## Login flood: {guesses} wrong passwords for {STAFF_EMAIL} from {clients} addresses, {wave} at a time every {:.1} s",
        interval.as_secs_f64()
    );
    let data = tempfile::tempdir().unwrap();
    common::create_staff(&sqlite_url(data.path()), STAFF_EMAIL, "staff", STAFF_PASSWORD);
    let (server, port) = start_server(root, data.path(), &[("LAUNDRY_BEHIND_PROXY", "true")]);
    let pid = server.0.id();
    let before = memory(pid).unwrap_or_default();
    let sampler = MemorySampler::start(pid);

    let flood_started = Instant::now();
    let staff_at = interval + interval / 10;
    let staff = std::thread::spawn(move || {
        std::thread::sleep(staff_at);
        let started = flood_started.elapsed();
        (started, sign_in(port, "10.99.0.1", STAFF_PASSWORD))
    });
    let mut handles = Vec::with_capacity(guesses);
    for n in 0..guesses {
        if n > 0 && n % wave == 0 {
            let due = flood_started + interval * u32::try_from(n / wave).unwrap();
            std::thread::sleep(due.saturating_duration_since(Instant::now()));
        }
        let address = format!("10.0.{}.{}", (n % clients) / 250, (n % clients) % 250 + 1);
        let password = format!("Wrong-Guess-{n:04}");
        handles.push(
            std::thread::Builder::new()
                .stack_size(256 * 1024)
                .spawn(move || sign_in(port, &address, &password))
                .unwrap(),
        );
    }
    let attempts: Vec<SignIn> = handles.into_iter().map(|handle| handle.join().unwrap()).collect();
    let flood_time = flood_started.elapsed();
    let (staff_started, staff) = staff.join().unwrap();
    let (peak_rss, samples) = sampler.stop();
    let after = memory(pid).unwrap_or_default();
    // Idle threads of the blocking pools end after 10 s; what they held is given back then.
    std::thread::sleep(Duration::from_secs(if quick() { 2 } else { 15 }));
    let settled = memory(pid).unwrap_or_default();
    drop(server);

    let mut statuses: BTreeMap<String, usize> = BTreeMap::new();
    for attempt in &attempts {
        *statuses.entry(attempt.outcome()).or_default() += 1;
    }
    let mut times: Vec<Duration> = attempts.iter().map(|attempt| attempt.took).collect();
    println!(
        "{} guesses answered in {:.1} s; each (GET the form + POST it): p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms",
        attempts.len(),
        flood_time.as_secs_f64(),
        ms(percentile(&mut times, 50.0)),
        ms(percentile(&mut times, 99.0)),
        ms(percentile(&mut times, 100.0)),
    );
    println!(
        "answers to the wrong passwords: {}",
        statuses.iter().map(|(status, n)| format!("{status} × {n}")).collect::<Vec<_>>().join(", ")
    );
    println!(
        "server memory: VmRSS {:.0} MB before, peak {:.0} MB sampled every 100 ms ({samples} samples), VmHWM {:.0} MB (target: at most 120 MB)",
        mb(before.0),
        mb(peak_rss.max(after.0)),
        mb(after.1),
    );
    println!(
        "after the flood: VmRSS {:.0} MB at its end, {:.0} MB {} s later ({:+.0} MB against before; target: within 20 MB)",
        mb(after.0),
        mb(settled.0),
        if quick() { 2 } else { 15 },
        mb(settled.0) - mb(before.0),
    );
    println!(
        "the real staff member, from another address, {:.1} s into the flood: {} in {:.0} ms ({})",
        staff_started.as_secs_f64(),
        staff.outcome(),
        ms(staff.took),
        if staff.signed_in() { "signed in" } else { "NOT signed in" },
    );
}

/// Part 4.
fn address_floods(root: &Path) {
    let addresses = scaled(120_000, 12_000);
    println!(
        "\n## Floods from {addresses} addresses each (LAUNDRY_BEHIND_PROXY=true; each per-client limit remembers {} clients)",
        if quick() { 10_000 } else { 100_000 }
    );
    let data = tempfile::tempdir().unwrap();
    let clients = if quick() { "10000" } else { "100000" };
    let (server, port) =
        start_server(root, data.path(), &[("LAUNDRY_BEHIND_PROXY", "true"), ("LAUNDRY_LIMIT_CLIENTS", clients)]);
    let pid = server.0.id();
    let before = memory(pid).unwrap_or_default();
    let reference = place_order(port);
    let order = bench_order("Bench Customer", "0712345678");
    let body = order.to_string();

    let headers = [("Content-Type", "application/json"), ("Idempotency-Key", "load-bench-order")];
    let replays = flood(port, "POST", "/api/orders", &headers, body.as_bytes(), addresses, 201);
    println!("the stored order sent again with its key from {} addresses: {}", replays.addresses, replays.summary());
    new_customer(port, "after the replay flood", 1);

    // As the tracking page looks an order up: a POST of JSON.
    let look_up = json!({ "by": "order", "q": reference }).to_string();
    let json_headers = [("Content-Type", "application/json")];
    let look_ups = flood(port, "POST", "/api/tracking", &json_headers, look_up.as_bytes(), addresses, 200);
    println!("order look-ups from {} new addresses: {}", look_ups.addresses, look_ups.summary());
    new_customer(port, "after the look-up flood", 2);
    let after = memory(pid).unwrap_or_default();
    println!(
        "server memory: VmRSS {:.0} MB before, {:.0} MB after both floods (VmHWM {:.0} MB)",
        mb(before.0),
        mb(after.0),
        mb(after.1)
    );
    drop(server);
}

/// A new customer from an address the floods never used: places an order and looks it up.
fn new_customer(port: u16, when: &str, n: u32) {
    let order = bench_order("New Customer", &format!("072255510{n}"));
    let address = format!("197.232.61.{n}");
    let headers = [("Content-Type", "application/json"), ("X-Forwarded-For", address.as_str())];
    let placed = http(port, "POST", "/api/orders", &headers, order.to_string().as_bytes()).unwrap();
    let body: Value = serde_json::from_slice(&placed.body).unwrap_or_default();
    let reference = body["id"].as_str().unwrap_or_default();
    let look_up = json!({ "by": "order", "q": reference }).to_string();
    let headers = [("Content-Type", "application/json"), ("X-Forwarded-For", address.as_str())];
    let looked = http(port, "POST", "/api/tracking", &headers, look_up.as_bytes()).unwrap();
    println!(
        "a new customer {when}: order {} ({}), look-up {} ({})",
        placed.status,
        if placed.status == 201 { "placed" } else { "REFUSED" },
        looked.status,
        if looked.status == 200 { "found" } else { "REFUSED" },
    );
}

/// An order as the order form sends it.
fn bench_order(name: &str, phone: &str) -> Value {
    let order = OrderBody {
        customer_name: name.to_owned(),
        phone: phone.to_owned(),
        email: Some("bench@example.com".to_owned()),
        location: "Kilimani, Nairobi".to_owned(),
        landmark: None,
        service_type: "wash-fold".to_owned(),
        quantity: "4".to_owned(),
        payment_method: PaymentMethod::PayNow,
        special_instructions: String::new(),
        pickup: None,
        rush: false,
        pin_lat: None,
        pin_lng: None,
        pieces: Default::default(),
    };
    serde_json::to_value(order).unwrap()
}

/// What one flood did.
struct Flood {
    addresses: usize,
    seconds: f64,
    expected: usize,
    status: u16,
    others: usize,
}

impl Flood {
    fn summary(&self) -> String {
        format!(
            "{} × {} and {} other answers in {:.1} s ({:.0} req/s)",
            self.expected,
            self.status,
            self.others,
            self.seconds,
            self.addresses as f64 / self.seconds.max(f64::MIN_POSITIVE)
        )
    }
}

/// Sends `method path` (with `headers` and `body`) once from each of `addresses` IPv6 /64s
/// (`2001:db8:<thread>:<n>::1` in `X-Forwarded-For`), on [`FLOOD_CONNECTIONS`] kept-alive
/// connections, and counts the answers that are `status`.
fn flood(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
    addresses: usize,
    status: u16,
) -> Flood {
    let started = Instant::now();
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept-Encoding: identity\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    let (head, body) = (Arc::new(head), Arc::new(body.to_vec()));
    let share = addresses / FLOOD_CONNECTIONS;
    let handles: Vec<_> = (0..FLOOD_CONNECTIONS)
        .map(|connection| {
            let (head, body) = (head.clone(), body.clone());
            std::thread::spawn(move || {
                let (mut expected, mut others) = (0, 0);
                let mut stream: Option<BufReader<TcpStream>> = None;
                for n in 0..share {
                    let request = format!("{head}X-Forwarded-For: 2001:db8:{connection:x}:{n:x}::1\r\n\r\n");
                    let answer = keep_alive(&mut stream, port, request.as_bytes(), &body);
                    if answer == Some(status) { expected += 1 } else { others += 1 }
                }
                (expected, others)
            })
        })
        .collect();
    let (expected, others) =
        handles.into_iter().map(|handle| handle.join().unwrap()).fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    Flood { addresses: expected + others, seconds: started.elapsed().as_secs_f64(), expected, status, others }
}

/// Connections of a flood.
const FLOOD_CONNECTIONS: usize = 16;

/// One request on a kept-alive connection (opened again when it was closed); the answer's status.
fn keep_alive(stream: &mut Option<BufReader<TcpStream>>, port: u16, head: &[u8], body: &[u8]) -> Option<u16> {
    for _ in 0..2 {
        if stream.is_none() {
            *stream = TcpStream::connect(("127.0.0.1", port)).ok().map(BufReader::new);
        }
        let reader = stream.as_mut()?;
        // One write: a body sent after its head waits for the head's acknowledgement (Nagle's
        // algorithm against delayed ACKs), some 40 ms a request.
        let sent = reader.get_mut().write_all(&[head, body].concat());
        let answer = sent.ok().and_then(|()| read_answer(reader));
        if answer.is_some() {
            return answer;
        }
        *stream = None;
    }
    None
}

/// Reads one answer with a `Content-Length` body; its status.
fn read_answer(reader: &mut BufReader<TcpStream>) -> Option<u16> {
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let status = line.split_whitespace().nth(1)?.parse().ok()?;
    let mut length = 0;
    loop {
        line.clear();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok()?;
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(status)
}

/// One sign-in: GET the form (its CSRF cookie and hidden field), then POST it.
struct SignIn {
    /// The form's status when it was not served, or the POST's answer.
    status: u16,
    location: Option<String>,
    form_missing: bool,
    error: Option<String>,
    took: Duration,
}

impl SignIn {
    fn outcome(&self) -> String {
        match (&self.error, self.form_missing) {
            (Some(error), _) => format!("failed ({error})"),
            (None, true) => format!("form not served ({})", self.status),
            (None, false) => match self.status {
                303 => format!("303 to {}", self.location.as_deref().unwrap_or("?")),
                status => status.to_string(),
            },
        }
    }

    fn signed_in(&self) -> bool {
        self.error.is_none() && !self.form_missing && self.status == 303 && self.location.as_deref() == Some("/admin")
    }
}

fn sign_in(port: u16, address: &str, password: &str) -> SignIn {
    let started = Instant::now();
    let failed = |error: String| SignIn {
        status: 0,
        location: None,
        form_missing: false,
        error: Some(error),
        took: started.elapsed(),
    };
    let form = match http(port, "GET", "/admin/login", &[("X-Forwarded-For", address)], b"") {
        Ok(form) => form,
        Err(error) => return failed(error.to_string()),
    };
    let body = String::from_utf8_lossy(&form.body);
    let csrf = between(&body, r#"name="csrf" value=""#, "\"");
    let cookie = form.cookie("laundry_login_csrf");
    let (Some(csrf), Some(cookie), 200) = (csrf, cookie, form.status) else {
        return SignIn {
            status: form.status,
            location: None,
            form_missing: true,
            error: None,
            took: started.elapsed(),
        };
    };
    let fields = serde_urlencoded::to_string([
        ("email", STAFF_EMAIL),
        ("password", password),
        ("csrf", csrf),
        ("next", "/admin"),
    ])
    .unwrap();
    let cookie = format!("laundry_login_csrf={cookie}");
    let headers = [
        ("X-Forwarded-For", address),
        ("Content-Type", "application/x-www-form-urlencoded"),
        ("Cookie", cookie.as_str()),
    ];
    match http(port, "POST", "/admin/login", &headers, fields.as_bytes()) {
        Ok(answer) => SignIn {
            status: answer.status,
            location: answer.header("location").map(str::to_owned),
            form_missing: false,
            error: None,
            took: started.elapsed(),
        },
        Err(error) => failed(error.to_string()),
    }
}

/// Samples VmRSS of a process every 100 ms on a thread of its own.
struct MemorySampler {
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<(u64, usize)>,
}

impl MemorySampler {
    fn start(pid: u32) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let (mut peak, mut samples) = (0, 0);
            while !flag.load(Ordering::Relaxed) {
                if let Some((rss, _)) = memory(pid) {
                    peak = peak.max(rss);
                    samples += 1;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            (peak, samples)
        });
        Self { stop, thread }
    }

    /// The peak VmRSS seen (kB) and the number of samples.
    fn stop(self) -> (u64, usize) {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().unwrap()
    }
}

/// VmRSS and VmHWM of a process, in kB.
fn memory(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status.lines().find_map(|line| line.strip_prefix(name)?.trim().strip_suffix("kB")?.trim().parse::<u64>().ok())
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// The release server on a free port, with its database in `data`; its log goes to
/// `data/server.log`. Returns once /healthz answers.
fn start_server(root: &Path, data: &Path, env: &[(&str, &str)]) -> (Server, u16) {
    let port = free_port();
    let log_path = data.join("server.log");
    let mut command = Command::new(server_binary());
    command
        .arg("serve")
        .env("LAUNDRY_ADDR", format!("127.0.0.1:{port}"))
        .env("LAUNDRY_FRONTEND_DIR", root.join("frontend/dist"))
        .env("DATABASE_URL", sqlite_url(data))
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log_path).unwrap());
    for (name, value) in env {
        command.env(name, value);
    }
    let server = Server(command.spawn().unwrap());
    let deadline = Instant::now() + Duration::from_secs(30);
    while !http(port, "GET", "/healthz", &[], b"").is_ok_and(|answer| answer.status == 200) {
        if Instant::now() > deadline {
            panic!("the server did not start; its log:\n{}", std::fs::read_to_string(&log_path).unwrap_or_default());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    (server, port)
}

/// The Node peer with `workers` processes, once it says it is ready; none if Node is missing or
/// the peer does not start (the comparison is then left out).
fn start_node(root: &Path, pages: &Path, workers: usize) -> Option<(Server, u16)> {
    let port = free_port();
    let spawned = Command::new("node")
        .arg(root.join("frontend/scripts/node-render-server.mjs"))
        .arg("--pages")
        .arg(pages)
        .args(["--port", &port.to_string()])
        .args(["--brotli-quality", &NODE_BROTLI_QUALITY.to_string()])
        .args(["--workers", &workers.to_string()])
        .arg("--dist")
        .arg(root.join("frontend/dist"))
        .stdout(Stdio::piped())
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(error) => {
            println!("the Node peer could not start ({error}); left out");
            return None;
        }
    };
    let stdout = child.stdout.take().unwrap();
    let node = Server(child);
    let (ready, wait) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if line.starts_with("ready on") {
                let _ = ready.send(line);
            }
        }
    });
    match wait.recv_timeout(Duration::from_secs(30)) {
        Ok(line) => {
            println!("Node peer {line}");
            Some((node, port))
        }
        Err(_) => {
            println!("the Node peer ({workers} processes) did not start; left out");
            None
        }
    }
}

/// Places one order through the API and returns its reference.
fn place_order(port: u16) -> String {
    let order = bench_order("Bench Customer", "0712345678");
    let headers = [("Content-Type", "application/json"), ("Idempotency-Key", "load-bench-order")];
    let answer = http(port, "POST", "/api/orders", &headers, order.to_string().as_bytes()).unwrap();
    let body: Value = serde_json::from_slice(&answer.body).unwrap_or_default();
    match body["id"].as_str() {
        Some(reference) if answer.status == 201 => reference.to_owned(),
        _ => panic!("placing an order answered {}: {}", answer.status, String::from_utf8_lossy(&answer.body)),
    }
}

/// What our server put in the page at `path`: the page's name and props (from its
/// `<script id="page-data">`), its structured data and its inlined CSS, for the Node peer to
/// render the same page into the same document.
fn page_as_served(port: u16, path: &str) -> Value {
    let answer = http(port, "GET", path, &[], b"").unwrap();
    let html = String::from_utf8_lossy(&answer.body);
    let data = between(&html, r#"<script id="page-data" type="application/json">"#, "</script>")
        .unwrap_or_else(|| panic!("{path} ({}) has no page data", answer.status));
    let data: Value = serde_json::from_str(data).unwrap();
    let structured = between(&html, r#"<script type="application/ld+json">"#, "</script>").unwrap_or("{}");
    let css = between(&html, "<style>", "</style>").unwrap_or("");
    json!({ "page": data["page"], "props": data["props"], "structuredData": structured, "css": css })
}

/// One answer read off the socket.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The value a `Set-Cookie` gives the cookie `name`.
    fn cookie(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case("set-cookie"))
            .find_map(|(_, v)| v.split(';').next()?.trim().strip_prefix(name)?.strip_prefix('='))
    }
}

/// One HTTP/1.1 request on a new connection (`Connection: close`), written and read by hand: the
/// flood runs hundreds at once on plain threads.
fn http(port: u16, method: &str, target: &str, headers: &[(&str, &str)], body: &[u8]) -> std::io::Result<Answer> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(120)))?;
    stream.set_write_timeout(Some(Duration::from_secs(120)))?;
    let mut request = format!(
        "{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes())?;
    stream.write_all(body)?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw)?;
    let invalid = || std::io::Error::new(std::io::ErrorKind::InvalidData, "not an HTTP answer");
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n").ok_or_else(invalid)?;
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status =
        lines.next().and_then(|line| line.split(' ').nth(1)).and_then(|s| s.parse().ok()).ok_or_else(invalid)?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_owned(), value.trim().to_owned()))
        .collect();
    let mut answer = Answer { status, headers, body: raw[end + 4..].to_vec() };
    if answer.header("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        answer.body = dechunk(&answer.body);
    }
    Ok(answer)
}

fn dechunk(mut chunked: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    while let Some(line_end) = chunked.windows(2).position(|w| w == b"\r\n") {
        let size_text = String::from_utf8_lossy(&chunked[..line_end]);
        let Ok(size) = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16) else { break };
        let start = line_end + 2;
        if size == 0 || start + size > chunked.len() {
            break;
        }
        body.extend_from_slice(&chunked[start..start + size]);
        chunked = &chunked[(start + size + 2).min(chunked.len())..];
    }
    body
}

/// What wrk printed.
#[derive(Debug, Default)]
struct WrkResult {
    rps: f64,
    p50_ms: Option<f64>,
    p99_ms: Option<f64>,
    non_2xx: u64,
    /// wrk's "Socket errors" line, if it printed one.
    socket_errors: Option<String>,
}

impl WrkResult {
    fn columns(&self) -> String {
        let time = |t: Option<f64>| t.map_or("?".to_owned(), |t| format!("{t:.2}"));
        format!(
            "{:>9.0} {:>8} {:>8} {:>8} {:>7}",
            self.rps,
            time(self.p50_ms),
            time(self.p99_ms),
            self.non_2xx,
            self.socket_errors.as_deref().map_or("none", |_| "yes"),
        ) + &self.socket_errors.as_deref().map(|e| format!("  ({e})")).unwrap_or_default()
    }
}

fn wrk_command(
    threads: u32,
    connections: u32,
    seconds: u64,
    url: &str,
    accept: &str,
    script: Option<&Path>,
) -> Command {
    let mut command = Command::new("wrk");
    command.args([
        format!("-t{threads}"),
        format!("-c{connections}"),
        format!("-d{seconds}s"),
        // Slow answers are counted in the latencies, not dropped as timeouts after wrk's 2 s.
        "--timeout".to_owned(),
        "10s".to_owned(),
        "--latency".to_owned(),
        "-H".to_owned(),
        format!("Accept-Encoding: {accept}"),
    ]);
    if let Some(script) = script {
        command.arg("-s").arg(script);
    }
    command.arg(url);
    command
}

fn wrk(command: &mut Command) -> WrkResult {
    let output = command.output().unwrap();
    parse_wrk(&String::from_utf8_lossy(&output.stdout))
}

fn parse_wrk(text: &str) -> WrkResult {
    let line = |prefix: &str| text.lines().map(str::trim).find(|line| line.starts_with(prefix));
    let latency = |prefix: &str| line(prefix).and_then(|l| l.split_whitespace().nth(1)).and_then(parse_time_ms);
    WrkResult {
        rps: line("Requests/sec:")
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0.0),
        p50_ms: latency("50%"),
        p99_ms: latency("99%"),
        non_2xx: line("Non-2xx or 3xx responses:")
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0),
        socket_errors: line("Socket errors:").map(|l| l.trim_start_matches("Socket errors:").trim().to_owned()),
    }
}

/// wrk's times: `812.00us`, `1.23ms`, `2.01s`, `1.00m`.
fn parse_time_ms(text: &str) -> Option<f64> {
    let split = text.find(|c: char| c.is_ascii_alphabetic())?;
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().ok()?;
    let scale = match unit {
        "us" => 0.001,
        "ms" => 1.0,
        "s" => 1000.0,
        "m" => 60_000.0,
        "h" => 3_600_000.0,
        _ => return None,
    };
    Some(number * scale)
}

fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let rest = &text[text.find(start)? + start.len()..];
    Some(&rest[..rest.find(end)?])
}

fn runs(program: &str, arg: &str) -> bool {
    Command::new(program).arg(arg).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok()
}

fn sqlite_url(folder: &Path) -> String {
    format!("sqlite://{}/bench.db", folder.display())
}

fn kb(bytes: usize) -> f64 {
    bytes as f64 / 1024.0
}

fn mb(kilobytes: u64) -> f64 {
    kilobytes as f64 / 1024.0
}
