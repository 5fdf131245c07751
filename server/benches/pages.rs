//! `make bench`: prints figures, asserts nothing.
//! 1. Render time of each page in the embedded engine (median and p95), including the staff
//!    dashboard's first page with a full page of orders and messages.
//! 2. Cold start of one engine (create it and load the server bundle).
//! 3. Requests per second and p50/p99 latency for the cached /pricing under load on loopback, with
//!    wrk against the release binary.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod common;

use common::{Server, ms, percentile, quick, scaled, server_binary};
use laundry::config::Settings;
use laundry::frontend::Frontend;
use laundry::rendering::page_props;
use laundry::routes::{STATIC_PAGES, own_props};
use ssr_runtime::{Renderer, RendererConfig};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let renders = scaled(500, 20);
    let cold_starts = scaled(10, 2);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let frontend = Frontend::load(&root.join("frontend/dist")).expect("build the frontend first (make frontend)");
    let settings = Settings::from_lookup(|_| None).unwrap();
    println!("machine: {} cores, {}", std::thread::available_parallelism().map_or(0, usize::from), cpu_model());
    println!("server bundle: {} KB", frontend.server_bundle().len() / 1024);

    println!("\n## Render time in the embedded engine ({renders} renders after 20 warm-up renders)");
    let renderer =
        Renderer::start(frontend.server_bundle(), RendererConfig { engines: 1, ..Default::default() }).unwrap();
    let mut pages: Vec<(&str, serde_json::Value)> = STATIC_PAGES
        .iter()
        .map(|(page, path)| (page.name(), page_props(&settings.business, path, &own_props(&settings, *page))))
        .collect();
    pages.push(("error", page_props(&settings.business, "", &serde_json::json!({ "status": 404 }))));
    pages.push(("login", page_props(&settings.business, "/admin/login", &login_props())));
    pages.push(("admin", page_props(&settings.business, "/admin", &dashboard_props())));
    for (label, props) in &pages {
        let page = *label;
        let props = props.to_string();
        for _ in 0..20 {
            renderer.render_blocking(page, &props).unwrap();
        }
        let mut times = Vec::with_capacity(renders);
        let mut html_bytes = 0;
        for _ in 0..renders {
            let started = Instant::now();
            html_bytes = renderer.render_blocking(page, &props).unwrap().html.len();
            times.push(started.elapsed());
        }
        let (median, p95) = (percentile(&mut times, 50.0), percentile(&mut times, 95.0));
        println!(
            "{label:<12} median {:>7.2} ms   p95 {:>7.2} ms   ({} KB of HTML)",
            ms(median),
            ms(p95),
            html_bytes / 1024
        );
    }

    println!("\n## Cold start of one engine ({cold_starts} starts)");
    let mut starts: Vec<Duration> = (0..cold_starts)
        .map(|_| {
            let started = Instant::now();
            let renderer =
                Renderer::start(frontend.server_bundle(), RendererConfig { engines: 1, ..Default::default() }).unwrap();
            let elapsed = started.elapsed();
            drop(renderer);
            elapsed
        })
        .collect();
    println!(
        "create + load bundle: median {:.1} ms, max {:.1} ms",
        ms(percentile(&mut starts, 50.0)),
        ms(percentile(&mut starts, 100.0))
    );

    println!("\n## Against the release server");
    load_test(&root);
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

fn login_props() -> serde_json::Value {
    serde_json::json!({ "csrf": "0".repeat(64), "next": "/admin", "email": "", "error": null, "notice": null, "status": 200 })
}

/// The dashboard's first page as staff see it on a busy day: a full page of orders (20) and of
/// messages.
fn dashboard_props() -> serde_json::Value {
    let size = laundry::routes::admin::PAGE_SIZE;
    let orders: Vec<serde_json::Value> = (0..size)
        .map(|n| {
            let status = ["pending", "picked-up", "in-progress", "ready", "delivered"][n as usize % 5];
            serde_json::json!({
                "id": format!("K7MX{n:04}"),
                "customerName": format!("Customer Number {n}"), "phone": "+254712345678", "email": "c@example.com",
                "location": "Kilimani, Argwings Kodhek Rd", "serviceType": "dry-cleaning", "serviceLabel": "Dry Cleaning",
                "quantity": 3, "paymentMethod": "pay-now", "specialInstructions": "", "pricePerKg": 500,
                "totalAmount": 2200, "status": status,
                "lines": [
                    { "kind": "kg", "item": "dry-cleaning", "label": "Dry Cleaning", "quantity": 3, "unit": "kg", "unitPrice": 500, "amount": 1500 },
                    { "kind": "piece", "item": "graduation-gown", "label": "Graduation Gown", "quantity": 1, "unit": "piece", "unitPrice": 700, "amount": 700 },
                ],
                "createdAt": "2026-11-22T08:30:00.123456Z", "updatedAt": "2026-11-22T08:30:00.123456Z",
                "paymentStatus": if n % 2 == 0 { "paid" } else { "unpaid" }, "paidVia": if n % 2 == 0 { serde_json::json!("mpesa") } else { serde_json::Value::Null },
                "mpesaCode": if n % 2 == 0 { serde_json::json!("QJK3L5X9TZ") } else { serde_json::Value::Null }, "paidAt": null,
            })
        })
        .collect();
    let messages: Vec<serde_json::Value> = (0..size)
        .map(|n| {
            serde_json::json!({
                "id": format!("m-{n}"), "name": "Njeri Kamau", "email": "njeri@example.com", "phone": null,
                "subject": "Duvet cleaning", "message": "Do you clean king-size duvets?\nThanks", "status": "new",
                "createdAt": "2026-11-22T08:30:00.123456Z", "handledAt": null, "handledBy": null,
            })
        })
        .collect();
    serde_json::json!({
        "staff": { "email": "wanjiku@example.com" }, "csrf": "0".repeat(64), "tab": "orders",
        "stats": { "totalRevenue": 1_250_000, "paidRevenue": 900_000, "cancelledRevenue": 12_000, "totalOrders": 812, "pendingOrders": 37, "messages": 120, "newMessages": 4 },
        "orders": { "items": orders, "total": 812, "page": 1, "pageSize": size, "filter": { "status": null, "q": "" }, "now": "2026-11-22T09:30:00.000000Z" },
        "messages": { "items": messages, "total": 120, "page": 1, "pageSize": size, "filter": { "status": null } },
        "statuses": ["pending", "picked-up", "in-progress", "ready", "delivered", "cancelled"],
        "mail": {
            "configured": true, "missing": [], "waiting": 2, "failed": 1, "blocked": 0, "sent": 1_620,
            "lastError": "500 Internal Server Error", "lastErrorAt": "2026-11-22T08:31:00.000000Z",
            "problems": [{
                "id": "e-1", "kind": "order-customer", "label": "Order confirmation to the customer",
                "to": "c@example.com", "orderId": "K7MX0001", "status": "failed",
                "attempts": 12, "lastError": "gave up after 12 attempts; last: 500 Internal Server Error",
                "lastAttemptAt": "2026-11-22T08:31:00.000000Z", "nextAttemptAt": "2026-11-22T08:31:00.000000Z",
                "createdAt": "2026-11-22T02:00:00.000000Z",
            }],
        },
    })
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
