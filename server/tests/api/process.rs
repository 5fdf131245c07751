//! The server binary as a process: how it stops.

use crate::helpers::built_frontend;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The release or debug `laundry` binary cargo built with these tests, on port 0, with a fresh
/// SQLite database and `home` as its `$HOME`. Its log (stderr) is collected in the background.
struct ServerProcess {
    child: Child,
    port: u16,
    log: Arc<Mutex<String>>,
}

impl ServerProcess {
    fn start(data: &Path, home: &Path, extra_env: &[(&str, &Path)]) -> Self {
        let mut command = Command::new(env!("CARGO_BIN_EXE_laundry"));
        command
            .arg("serve")
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", home)
            .env("TMPDIR", home)
            .env("LAUNDRY_ADDR", "127.0.0.1:0")
            .env("LAUNDRY_WORKERS", "2")
            .env("LAUNDRY_FRONTEND_DIR", built_frontend())
            .env("DATABASE_URL", format!("sqlite://{}/laundry.db", data.display()))
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (name, value) in extra_env {
            command.env(name, value);
        }
        let mut child = command.spawn().unwrap();
        let log = Arc::new(Mutex::new(String::new()));
        let (port_tx, port_rx) = std::sync::mpsc::channel();
        let stderr = child.stderr.take().unwrap();
        let collected = Arc::clone(&log);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(port) = line.split(" port=").nth(1).and_then(|rest| rest.split_whitespace().next()) {
                    let _ = port_tx.send(port.parse::<u16>().unwrap());
                }
                collected.lock().unwrap().push_str(&(line + "\n"));
            }
        });
        let port = port_rx
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("the server did not start:\n{}", log.lock().unwrap()));
        Self { child, port, log }
    }

    /// Sends SIGTERM, as a service manager or `docker stop` does.
    fn terminate(&self) {
        let status = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status().unwrap();
        assert!(status.success());
    }

    fn wait(&mut self, limit: Duration) -> ExitStatus {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not stop within {limit:?}:\n{}", self.log());
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 GET: the status code of a whole answer; `Some(0)` for an answer cut short (its
/// body shorter than its Content-Length, or no status line after some bytes came); `None` if the
/// connection was refused or closed before any byte.
fn get_status(port: u16, path: &str) -> Option<u16> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    write!(stream, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").ok()?;
    let mut response = Vec::new();
    let read = stream.read_to_end(&mut response);
    if response.is_empty() {
        return None;
    }
    let text = String::from_utf8_lossy(&response);
    let Some((head, body)) = text.split_once("\r\n\r\n") else { return Some(0) };
    let length = head
        .lines()
        .find_map(|line| line.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_owned()))
        .and_then(|value| value.parse::<usize>().ok());
    if read.is_err() || length.is_some_and(|length| body.len() < length) {
        return Some(0);
    }
    head.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn sigterm_under_load_stops_the_server_cleanly_with_every_answer_whole() {
    let data = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let mut server = ServerProcess::start(data.path(), home.path(), &[]);
    let port = server.port;
    let stop = Arc::new(AtomicBool::new(false));
    let answered = Arc::new(AtomicUsize::new(0));
    let failures = Arc::new(Mutex::new(Vec::new()));
    // Pages rendered per request (the login page has a fresh token each time) and a cached one,
    // from more clients than there are engines, so renders queue.
    let clients: Vec<_> = (0..6)
        .map(|n| {
            let (stop, answered, failures) = (Arc::clone(&stop), Arc::clone(&answered), Arc::clone(&failures));
            std::thread::spawn(move || {
                let path = if n % 3 == 2 { "/pricing" } else { "/admin/login" };
                while !stop.load(Ordering::Relaxed) {
                    match get_status(port, path) {
                        Some(200) => {
                            answered.fetch_add(1, Ordering::Relaxed);
                        }
                        Some(status) => failures.lock().unwrap().push(status),
                        // Refused once the server stops listening.
                        None => std::thread::sleep(Duration::from_millis(5)),
                    }
                }
            })
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(30);
    while answered.load(Ordering::Relaxed) < 50 {
        assert!(Instant::now() < deadline, "the server answered too few requests:\n{}", server.log());
        std::thread::sleep(Duration::from_millis(10));
    }

    server.terminate();
    let status = server.wait(Duration::from_secs(30));
    stop.store(true, Ordering::Relaxed);
    for client in clients {
        client.join().unwrap();
    }

    let log = server.log();
    assert_eq!(status.code(), Some(0), "exit status {status:?} (a signal means a crash):\n{log}");
    assert!(failures.lock().unwrap().is_empty(), "answers other than 200: {:?}\n{log}", failures.lock().unwrap());
    assert!(!log.contains("panicked"), "{log}");
    assert!(log.contains("stopped"), "the server logs its clean stop:\n{log}");
}

/// The render processes the server started: its children, from /proc.
fn children_of(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return Vec::new() };
    tasks
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("children")).ok())
        .flat_map(|children| children.split_whitespace().filter_map(|id| id.parse().ok()).collect::<Vec<u32>>())
        .collect()
}

/// Whether `pid` is a live process (not gone, not a zombie).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|stat| stat.rsplit_once(')').is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z')))
}

#[test]
fn render_processes_hold_no_secret_of_the_server_and_die_with_it() {
    let data = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let mut server = ServerProcess::start(data.path(), home.path(), &[]);
    assert_eq!(get_status(server.port, "/admin/login"), Some(200));
    // Two working processes (LAUNDRY_WORKERS=2) and the spare, started in the background.
    let deadline = Instant::now() + Duration::from_secs(30);
    let children = loop {
        let children = children_of(server.child.id());
        if children.len() >= 3 {
            break children;
        }
        assert!(Instant::now() < deadline, "render processes: {children:?}\n{}", server.log());
        std::thread::sleep(Duration::from_millis(50));
    };
    for child in &children {
        let environ = std::fs::read(format!("/proc/{child}/environ")).unwrap();
        let environ = String::from_utf8_lossy(&environ);
        assert!(!environ.contains("DATABASE_URL") && !environ.contains("HOME="), "{environ}");
        let command = std::fs::read(format!("/proc/{child}/cmdline")).unwrap();
        assert!(String::from_utf8_lossy(&command).contains("__ssr-render-process"));
    }

    // SIGKILL: the server gets no chance to stop them; the kernel's parent-death signal does.
    server.child.kill().unwrap();
    server.child.wait().unwrap();

    let deadline = Instant::now() + Duration::from_secs(5);
    while children.iter().any(|&child| alive(child)) {
        assert!(Instant::now() < deadline, "render processes outlived the server: {children:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `laundry mpesa …` with `env` (and nothing else) against the mock Daraja; its exit code,
/// standard output and standard error. Run off the test's runtime, which serves the mock.
async fn laundry_mpesa(args: &[&str], env: Vec<(&'static str, String)>) -> (Option<i32>, String, String) {
    let home = tempfile::tempdir().unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_laundry"));
    command
        .arg("mpesa")
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home.path())
        .envs(env)
        .stdin(Stdio::null());
    let output = tokio::task::spawn_blocking(move || command.output().unwrap()).await.unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (output.status.code(), text(&output.stdout), text(&output.stderr))
}

#[actix_web::test]
async fn mpesa_register_urls_registers_the_till_callbacks_and_says_what_is_missing() {
    use crate::helpers::{MPESA_HOOK_SECRET, mpesa_env};
    let daraja = laundry::fakes::FakeDaraja::start().await;

    let (code, out, err) = laundry_mpesa(&["register-urls"], mpesa_env(&daraja.url)).await;
    assert_eq!(code, Some(0), "{out}\n{err}");
    let registered = daraja.requests_to("/mpesa/c2b/v1/registerurl");
    assert_eq!(registered.len(), 1);
    let body = &registered[0].body;
    assert_eq!(body["ShortCode"], serde_json::json!(174379));
    assert_eq!(body["ResponseType"], "Completed");
    let base = "https://laundry.example.com/hooks/payments/till";
    assert_eq!(body["ConfirmationURL"], format!("{base}/confirmation/{MPESA_HOOK_SECRET}"));
    assert_eq!(body["ValidationURL"], format!("{base}/validation/{MPESA_HOOK_SECRET}"));
    assert!(registered[0].headers["authorization"].starts_with("Bearer fake-token-"));
    assert!(
        out.contains(&format!("{base}/confirmation/***")) && out.contains(&format!("{base}/validation/***")),
        "{out}"
    );
    assert!(out.contains("\"ResponseDescription\":\"success\""), "{out}");
    assert!(!out.contains(MPESA_HOOK_SECRET) && !err.contains(MPESA_HOOK_SECRET), "{out}{err}");

    let (code, out, _) = laundry_mpesa(&["register-urls", "--shortcode", "600981"], mpesa_env(&daraja.url)).await;
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(daraja.requests_to("/mpesa/c2b/v1/registerurl")[1].body["ShortCode"], serde_json::json!(600981));

    let (code, _, err) = laundry_mpesa(&["register-urls", "--shortcode", "60 981"], mpesa_env(&daraja.url)).await;
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--shortcode"), "{err}");

    let partial: Vec<_> = mpesa_env(&daraja.url)
        .into_iter()
        .filter(|(name, _)| !matches!(*name, "MPESA_CONSUMER_KEY" | "MPESA_CALLBACK_SECRET" | "MPESA_SHORTCODE"))
        .collect();
    let (code, _, err) = laundry_mpesa(&["register-urls"], partial).await;
    assert_eq!(code, Some(2), "{err}");
    for name in ["MPESA_CONSUMER_KEY", "MPESA_CALLBACK_SECRET", "MPESA_SHORTCODE"] {
        assert!(err.contains(name), "{name}: {err}");
    }

    // Daraja out of reach.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let unreachable = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let (code, _, err) = laundry_mpesa(&["register-urls"], mpesa_env(&unreachable)).await;
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("Daraja did not register the URLs"), "{err}");
    assert_eq!(daraja.requests_to("/mpesa/c2b/v1/registerurl").len(), 2);

    let (code, _, err) = laundry_mpesa(&["register"], mpesa_env(&daraja.url)).await;
    assert_eq!(code, Some(2), "{err}");
}
