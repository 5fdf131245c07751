//! What the benches share: the release server as a child process, percentiles, an order as the
//! form sends it, and a scratch PostgreSQL database.
#![allow(dead_code)]

use std::process::Child;
use std::time::Duration;

/// Kills the server when the bench ends, however it ends.
pub struct Server(pub Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The `p`th percentile (0 to 100) of `times`, nearest rank.
pub fn percentile(times: &mut [Duration], p: f64) -> Duration {
    times.sort_unstable();
    let index = ((p / 100.0) * (times.len() - 1) as f64).round() as usize;
    times[index]
}

/// `BENCH_QUICK=1` (`make bench-quick`, run by CI): a tenth of the work, enough to show that the
/// bench still runs and that its checks hold; its figures are not for BENCHMARKS.md.
pub fn quick() -> bool {
    std::env::var("BENCH_QUICK").is_ok_and(|value| value == "1")
}

/// `full`, or a tenth of it (at least `floor`) in a quick run.
pub fn scaled(full: usize, floor: usize) -> usize {
    if quick() { (full / 10).max(floor) } else { full }
}

/// Whether `BENCH_PARTS` (a comma-separated list, like `1,4`; all parts when unset) names `part`.
pub fn runs_part(part: &str) -> bool {
    std::env::var("BENCH_PARTS").map_or(true, |parts| parts.split(',').any(|p| p.trim() == part))
}

/// The server binary cargo built for this bench (the release profile).
pub fn server_binary() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_BIN_EXE_laundry"))
}

/// Milliseconds, for printing.
pub fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// The `n`th order, as the order form sends it: the four services by the kg, 1 to 20 kg, both ways
/// to pay, every other one with an e-mail.
pub fn order_body(n: usize) -> laundry::views::requests::OrderBody {
    use laundry::domain::PaymentMethod;
    use laundry::views::requests::OrderBody;
    let services = ["wash-fold", "dry-cleaning", "ironing", "bedding"];
    OrderBody {
        customer_name: format!("Bench Customer {n}"),
        phone: format!("07{:08}", n % 100_000_000),
        email: n.is_multiple_of(2).then(|| format!("bench{n}@example.com")),
        location: "Kilimani, Nairobi".to_owned(),
        landmark: None,
        service_type: services[n % services.len()].to_owned(),
        quantity: (1 + n % 20).to_string(),
        payment_method: if n.is_multiple_of(3) { PaymentMethod::PayNow } else { PaymentMethod::PayDelivery },
        special_instructions: String::new(),
        pickup: None,
        rush: false,
        pin_lat: None,
        pin_lng: None,
        pieces: Default::default(),
    }
}

pub async fn wait_until_up(base: &str) {
    use std::time::Instant;
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(response) = reqwest::get(format!("{base}/healthz")).await
            && response.status().is_success()
        {
            return;
        }
        assert!(Instant::now() < deadline, "the server did not start on {base}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A PostgreSQL database made for this run and dropped after it.
pub struct ScratchPostgres {
    admin_url: String,
    name: String,
    /// Its URL.
    pub url: String,
}

impl ScratchPostgres {
    /// A new database on the server `admin_url` names.
    pub fn create(admin_url: &str) -> Self {
        use diesel::{Connection, RunQueryDsl};
        let mut admin = diesel::PgConnection::establish(admin_url)
            .unwrap_or_else(|e| panic!("TEST_DATABASE_URL is set but PostgreSQL is unreachable: {e}"));
        let name = format!("laundry_bench_{}", uuid::Uuid::new_v4().simple());
        diesel::sql_query(format!("CREATE DATABASE {name}")).execute(&mut admin).unwrap();
        let server = admin_url.split('?').next().unwrap_or(admin_url);
        let server = server.rsplit_once('/').map_or(server, |(server, _)| server);
        Self { admin_url: admin_url.to_owned(), url: format!("{server}/{name}"), name }
    }
}

impl Drop for ScratchPostgres {
    fn drop(&mut self) {
        use diesel::{Connection, RunQueryDsl};
        if let Ok(mut admin) = diesel::PgConnection::establish(&self.admin_url) {
            let _ =
                diesel::sql_query(format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name)).execute(&mut admin);
        }
    }
}

/// A port nobody listens on now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The release server on a free port with its database at `database_url`, its limits raised for a
/// load from one address (orders, look-ups) and room in every pickup window; its base URL.
pub fn serve_for_load(root: &std::path::Path, database_url: &str) -> (Server, String) {
    serve_with(root, database_url, &[])
}

/// [`serve_for_load`] with more variables set (`env`).
pub fn serve_with(root: &std::path::Path, database_url: &str, env: &[(&str, String)]) -> (Server, String) {
    use std::process::{Command, Stdio};
    let port = free_port();
    let server = Server(
        Command::new(server_binary())
            .arg("serve")
            .envs(env.iter().map(|(name, value)| (*name, value.as_str())))
            .env("LAUNDRY_ADDR", format!("127.0.0.1:{port}"))
            .env("LAUNDRY_FRONTEND_DIR", root.join("frontend/dist"))
            .env("DATABASE_URL", database_url)
            .env("RUST_LOG", "warn")
            // Every request of the load comes from 127.0.0.1.
            .env("LAUNDRY_SUBMISSIONS_PER_HOUR", "1000000")
            .env("LAUNDRY_TRACKING_PER_10_MINUTES", "1000")
            // Orders without a pickup take the next open window: room for every order of the run.
            .env("LAUNDRY_WINDOW_CAPACITY", "1000")
            .stdout(Stdio::null())
            .spawn()
            .unwrap(),
    );
    (server, format!("http://127.0.0.1:{port}"))
}

/// `laundry admin create` of `email` with `role` and `password`, on the database at `url`.
pub fn create_staff(url: &str, email: &str, role: &str, password: &str) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut create = Command::new(server_binary())
        .args(["admin", "create", "--email", email, "--role", role])
        .env("DATABASE_URL", url)
        .env("RUST_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    create.stdin.take().unwrap().write_all(format!("{password}\n").as_bytes()).unwrap();
    let created = create.wait_with_output().unwrap();
    assert!(created.status.success(), "laundry admin create failed: {}", String::from_utf8_lossy(&created.stderr));
}

/// Signs `(email, password)` in; the cookies to send.
pub async fn sign_in(client: &reqwest::Client, base: &str, (email, password): (&str, &str)) -> String {
    let form = client.get(format!("{base}/admin/login")).send().await.unwrap();
    let cookies = set_cookies(&form);
    let html = form.text().await.unwrap();
    let csrf = html.split(r#"name="csrf" value=""#).nth(1).and_then(|rest| rest.split('"').next()).unwrap();
    let answer = client
        .post(format!("{base}/admin/login"))
        .header("Cookie", cookies)
        .form(&[("email", email), ("password", password), ("csrf", csrf), ("next", "/admin")])
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status().as_u16(), 303, "signing in failed");
    set_cookies(&answer)
}

/// The `name=value` pairs of a response's `Set-Cookie` headers, as a `Cookie` header.
pub fn set_cookies(response: &reqwest::Response) -> String {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|value| value.to_str().ok()?.split(';').next().map(str::to_owned))
        .collect::<Vec<_>>()
        .join("; ")
}

/// VmRSS of a process, kB.
pub fn rss_kb(pid: u32) -> u64 {
    status_kb(pid, "VmRSS")
}

/// A line of `/proc/{pid}/status` in kB: `VmRSS`, or its parts `RssAnon` (the heap, stacks) and
/// `RssFile` (mapped files: the binary, shared libraries); 0 when the process is gone.
#[allow(dead_code)]
pub fn status_kb(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':')?.trim().strip_suffix("kB")?.trim().parse().ok())
        .unwrap_or(0)
}
