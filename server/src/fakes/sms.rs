//! Africa's Talking's SMS API: `POST /version1/messaging` (a form: `username`, `to`, `message`,
//! `from`; the `apiKey` header), answered 201 with one recipient per text.

use super::{AT_API_KEY, AT_USERNAME, Book};
use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::json;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use time::OffsetDateTime;

/// One request the fake received.
#[derive(Debug, Clone)]
pub struct Received {
    /// When it arrived (for the tests' intervals).
    pub at: Instant,
    /// When it arrived, on the calendar (for `/dev/texts`).
    pub arrived: OffsetDateTime,
    /// Header names in lower case.
    pub headers: HashMap<String, String>,
    /// The form's fields.
    pub form: HashMap<String, String>,
    /// The messageId the fake answered with, if it answered 101.
    pub message_id: Option<String>,
}

impl Received {
    /// A field of the form; empty if it was not sent.
    pub fn field(&self, name: &str) -> &str {
        self.form.get(name).map(String::as_str).unwrap_or_default()
    }
}

/// How the fake answers one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtReply {
    /// 201 with one recipient of this statusCode (101 = sent).
    Recipient(u16),
    /// This HTTP status with a plain body.
    Status(u16),
    /// 201 with 101, after this long (longer than the worker waits: a time-out).
    Hang(Duration),
    /// 429 with `Retry-After` in seconds.
    TooMany(u64),
}

#[derive(Default)]
struct State {
    book: Book<Received, AtReply>,
    next_id: AtomicU64,
}

/// The fake Africa's Talking. Clones share what it received and its script.
#[derive(Clone, Default)]
pub struct FakeAt {
    /// Where it serves alone (`start`); empty where a server serves it.
    pub url: String,
    state: Arc<State>,
}

/// Africa's Talking's word for a recipient's statusCode.
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
    fake: web::Data<FakeAt>,
    request: HttpRequest,
    form: web::Form<HashMap<String, String>>,
) -> HttpResponse {
    let form = form.into_inner();
    let field = |name: &str| form.get(name).cloned().unwrap_or_default();
    if request.headers().get("apiKey").and_then(|v| v.to_str().ok()) != Some(AT_API_KEY) {
        return HttpResponse::Unauthorized().body("The supplied authentication is invalid");
    }
    if field("username") != AT_USERNAME || field("to").is_empty() || field("message").is_empty() {
        return HttpResponse::BadRequest().body("Request is missing required form field 'to' or 'message'");
    }
    let reply = fake.state.book.next_answer().unwrap_or(AtReply::Recipient(101));
    let code = match reply {
        AtReply::Recipient(code) => code,
        AtReply::Hang(_) => 101,
        AtReply::Status(_) | AtReply::TooMany(_) => 0,
    };
    let message_id = (code == 101).then(|| format!("ATXid_{}", fake.state.next_id.fetch_add(1, Ordering::SeqCst) + 1));
    let to = field("to");
    // Recorded as it arrives, so that `at` and the order are the requests'.
    fake.state.book.record(Received {
        at: Instant::now(),
        arrived: OffsetDateTime::now_utc(),
        headers: super::headers_of(&request),
        form,
        message_id: message_id.clone(),
    });
    match reply {
        AtReply::Status(status) => {
            return HttpResponse::build(
                actix_web::http::StatusCode::from_u16(status)
                    .unwrap_or(actix_web::http::StatusCode::INTERNAL_SERVER_ERROR),
            )
            .body(format!("fake error {status}"));
        }
        AtReply::TooMany(seconds) => {
            return HttpResponse::TooManyRequests()
                .insert_header(("Retry-After", seconds.to_string()))
                .body("Too many requests");
        }
        AtReply::Hang(delay) => tokio::time::sleep(delay).await,
        AtReply::Recipient(_) => {}
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

impl FakeAt {
    /// Serves it alone on a free port of 127.0.0.1 (its API at the root).
    pub async fn start() -> FakeAt {
        let fake = FakeAt::default();
        let routes = fake.clone();
        let url = super::serve_alone(move |config| routes.routes(config)).await;
        FakeAt { url, ..fake }
    }

    /// Its API, at the scope it is given.
    pub fn routes(&self, config: &mut web::ServiceConfig) {
        config
            .app_data(web::Data::new(self.clone()))
            .app_data(web::FormConfig::default().limit(64 * 1024))
            .route("/version1/messaging", web::post().to(messaging));
    }

    /// The next answers, in order; after them 101.
    pub fn script(&self, replies: &[AtReply]) {
        self.state.book.script(replies.iter().copied());
    }

    /// Every request received so far (that passed its credentials), oldest first.
    pub fn received(&self) -> Vec<Received> {
        self.state.book.received()
    }

    /// The texts received for `phone` (E.164), in order.
    pub fn texts_to(&self, phone: &str) -> Vec<String> {
        self.received().into_iter().filter(|r| r.field("to") == phone).map(|r| r.field("message").to_owned()).collect()
    }

    /// Waits until `count` requests arrived.
    ///
    /// # Panics
    /// After `within` without them.
    pub async fn wait_for(&self, count: usize, within: Duration) -> Vec<Received> {
        super::wait_for("texts", count, within, || self.received()).await
    }
}
