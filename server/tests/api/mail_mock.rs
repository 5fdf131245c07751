//! A mock EmailJS-compatible API on loopback: records every request with its arrival time and
//! answers from a script (then 200).

use actix_web::{App, HttpResponse, HttpServer, web};
use serde_json::Value;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One request the mock received.
#[derive(Debug, Clone)]
pub struct Received {
    pub at: Instant,
    pub body: Value,
}

/// How the mock answers one request.
#[derive(Debug, Clone, Copy)]
pub struct Reply {
    pub status: u16,
    pub retry_after: Option<u64>,
    pub delay: Duration,
}

impl Reply {
    pub fn status(status: u16) -> Self {
        Self { status, retry_after: None, delay: Duration::ZERO }
    }

    pub fn too_many(retry_after: u64) -> Self {
        Self { status: 429, retry_after: Some(retry_after), delay: Duration::ZERO }
    }

    pub fn hang(delay: Duration) -> Self {
        Self { status: 200, retry_after: None, delay }
    }
}

#[derive(Default)]
struct MockState {
    received: Mutex<Vec<Received>>,
    script: Mutex<VecDeque<Reply>>,
    default: Mutex<Option<Reply>>,
}

/// The running mock.
pub struct MockMail {
    pub url: String,
    state: Arc<MockState>,
}

async fn send(state: web::Data<Arc<MockState>>, body: web::Json<Value>) -> HttpResponse {
    state.received.lock().unwrap().push(Received { at: Instant::now(), body: body.into_inner() });
    let reply =
        state.script.lock().unwrap().pop_front().or(*state.default.lock().unwrap()).unwrap_or(Reply::status(200));
    if !reply.delay.is_zero() {
        tokio::time::sleep(reply.delay).await;
    }
    let mut response = HttpResponse::build(actix_web::http::StatusCode::from_u16(reply.status).unwrap());
    if let Some(seconds) = reply.retry_after {
        response.insert_header(("Retry-After", seconds.to_string()));
    }
    response.body(if reply.status == 200 { "OK".to_owned() } else { format!("mock error {}", reply.status) })
}

impl MockMail {
    /// Starts the mock on a free port.
    pub async fn start() -> MockMail {
        let state = Arc::new(MockState::default());
        let shared = web::Data::new(state.clone());
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let server = HttpServer::new(move || {
            App::new().app_data(shared.clone()).route("/api/v1.0/email/send", web::post().to(send))
        })
        .workers(1)
        .listen(listener)
        .unwrap()
        .run();
        actix_web::rt::spawn(server);
        MockMail { url: format!("http://127.0.0.1:{port}"), state }
    }

    /// The next answers, in order; after them the default.
    pub fn script(&self, replies: &[Reply]) {
        self.state.script.lock().unwrap().extend(replies.iter().copied());
    }

    /// The answer once the script is used up (200 unless set).
    pub fn answer_always(&self, reply: Reply) {
        *self.state.default.lock().unwrap() = Some(reply);
    }

    /// Everything received so far.
    pub fn received(&self) -> Vec<Received> {
        self.state.received.lock().unwrap().clone()
    }

    /// Waits until `count` requests arrived (fails after `within`).
    pub async fn wait_for(&self, count: usize, within: Duration) -> Vec<Received> {
        let deadline = Instant::now() + within;
        loop {
            let received = self.received();
            if received.len() >= count {
                return received;
            }
            assert!(Instant::now() < deadline, "the mock got {} requests, expected {count}", received.len());
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}
