//! A mock of Africa's Talking's SMS API on loopback (`POST /version1/messaging`, a form, the
//! `apiKey` header): records every request with its headers and fields, and answers from a script
//! (then a recipient with statusCode 101 and a fresh messageId): a recipient's code, an HTTP error,
//! 429 with `Retry-After`, or an answer slower than the worker waits.

use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use serde_json::json;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One request the mock received.
#[derive(Debug, Clone)]
pub struct Received {
    /// When it arrived.
    pub at: Instant,
    /// Header names in lower case.
    pub headers: HashMap<String, String>,
    /// The form fields.
    pub form: HashMap<String, String>,
    /// The messageId the mock answered with, if it answered 101.
    pub message_id: Option<String>,
}

impl Received {
    pub fn field(&self, name: &str) -> &str {
        self.form.get(name).map(String::as_str).unwrap_or_default()
    }
}

/// How the mock answers one request.
#[derive(Debug, Clone, Copy)]
pub enum AtReply {
    /// HTTP 201 with one recipient of this statusCode (101 = sent).
    Recipient(u16),
    /// This HTTP status with a plain body.
    Status(u16),
    /// 201 with 101, after this long (longer than the worker's request timeout: a time-out).
    Hang(Duration),
    /// 429 with `Retry-After` in seconds.
    TooMany(u64),
}

#[derive(Default)]
struct MockState {
    received: Mutex<Vec<Received>>,
    script: Mutex<VecDeque<AtReply>>,
    next_id: AtomicU64,
}

/// The running mock.
pub struct MockAt {
    pub url: String,
    state: Arc<MockState>,
}

fn status_word(code: u16) -> &'static str {
    match code {
        100 => "Processed",
        101 => "Success",
        102 => "Queued",
        401 => "RiskHold",
        402 => "InvalidSenderId",
        403 => "InvalidPhoneNumber",
        405 => "InsufficientBalance",
        406 => "UserInBlacklist",
        407 => "CouldNotRoute",
        _ => "InternalServerError",
    }
}

async fn messaging(
    state: web::Data<Arc<MockState>>,
    request: HttpRequest,
    form: web::Form<HashMap<String, String>>,
) -> HttpResponse {
    let headers = request
        .headers()
        .iter()
        .map(|(name, value)| (name.as_str().to_ascii_lowercase(), value.to_str().unwrap_or_default().to_owned()))
        .collect();
    let reply = state.script.lock().unwrap().pop_front().unwrap_or(AtReply::Recipient(101));
    let code = match reply {
        AtReply::Recipient(code) => code,
        AtReply::Hang(_) => 101,
        AtReply::Status(_) | AtReply::TooMany(_) => 0,
    };
    let message_id = (code == 101).then(|| format!("ATXid_{}", state.next_id.fetch_add(1, Ordering::SeqCst) + 1));
    let form = form.into_inner();
    let to = form.get("to").cloned().unwrap_or_default();
    // Recorded as it arrives, so that `at` and the order are those of the requests.
    state.received.lock().unwrap().push(Received { at: Instant::now(), headers, form, message_id: message_id.clone() });
    if let AtReply::Hang(delay) = reply {
        tokio::time::sleep(delay).await;
    }
    match reply {
        AtReply::Status(status) => {
            return HttpResponse::build(actix_web::http::StatusCode::from_u16(status).unwrap())
                .body(format!("mock error {status}"));
        }
        AtReply::TooMany(seconds) => {
            return HttpResponse::TooManyRequests()
                .insert_header(("Retry-After", seconds.to_string()))
                .body("Too many requests");
        }
        AtReply::Recipient(_) | AtReply::Hang(_) => {}
    }
    HttpResponse::Created().json(json!({
        "SMSMessageData": {
            "Message": "Sent to 1/1 Total Cost: KES 0.8000",
            "Recipients": [{
                "statusCode": code,
                "number": to,
                "status": status_word(code),
                "cost": if code == 101 { "KES 0.8000" } else { "0" },
                "messageId": message_id.unwrap_or_else(|| "None".to_owned()),
            }],
        }
    }))
}

impl MockAt {
    /// Starts the mock on a free port.
    pub async fn start() -> MockAt {
        let state = Arc::new(MockState::default());
        let shared = web::Data::new(state.clone());
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let server = HttpServer::new(move || {
            App::new().app_data(shared.clone()).route("/version1/messaging", web::post().to(messaging))
        })
        .workers(1)
        .listen(listener)
        .unwrap()
        .run();
        actix_web::rt::spawn(server);
        MockAt { url: format!("http://127.0.0.1:{port}"), state }
    }

    /// The next answers, in order; after them 101.
    pub fn script(&self, replies: &[AtReply]) {
        self.state.script.lock().unwrap().extend(replies.iter().copied());
    }

    /// Everything received so far.
    pub fn received(&self) -> Vec<Received> {
        self.state.received.lock().unwrap().clone()
    }

    /// The texts received for `phone` (E.164), in order.
    pub fn texts_to(&self, phone: &str) -> Vec<String> {
        self.received().into_iter().filter(|r| r.field("to") == phone).map(|r| r.field("message").to_owned()).collect()
    }

    /// Waits until `count` requests arrived (fails after `within`).
    pub async fn wait_for(&self, count: usize, within: Duration) -> Vec<Received> {
        let deadline = Instant::now() + within;
        loop {
            let received = self.received();
            if received.len() >= count {
                return received;
            }
            assert!(Instant::now() < deadline, "the mock got {} texts, expected {count}", received.len());
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}
