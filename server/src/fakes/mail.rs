//! The EmailJS-compatible mail API: `POST /api/v1.0/email/send` (JSON: `service_id`,
//! `template_id`, `user_id`, `accessToken`, `template_params`), answered 200 `OK`.

use super::{Book, lock};
use actix_web::{HttpResponse, web};
use serde_json::Value;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use time::OffsetDateTime;

/// One request the fake received.
#[derive(Debug, Clone)]
pub struct Received {
    /// When it arrived (for the tests' intervals).
    pub at: Instant,
    /// When it arrived, on the calendar (for `/dev/texts`).
    pub arrived: OffsetDateTime,
    /// The JSON sent.
    pub body: Value,
}

impl Received {
    /// Who the e-mail is to (`template_params.to_email`), if it names anyone.
    pub fn to(&self) -> Option<&str> {
        self.body["template_params"]["to_email"].as_str().filter(|to| !to.is_empty())
    }
}

/// How the fake answers one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MailReply {
    /// The HTTP status (200 = sent).
    pub status: u16,
    /// `Retry-After`, in seconds.
    pub retry_after: Option<u64>,
    /// How long before it answers.
    pub delay: Duration,
}

impl MailReply {
    /// This status at once.
    pub fn status(status: u16) -> Self {
        Self { status, retry_after: None, delay: Duration::ZERO }
    }

    /// 429 with `Retry-After`.
    pub fn too_many(retry_after: u64) -> Self {
        Self { status: 429, retry_after: Some(retry_after), delay: Duration::ZERO }
    }

    /// 200, after `delay` (longer than the worker waits: a time-out).
    pub fn hang(delay: Duration) -> Self {
        Self { status: 200, retry_after: None, delay }
    }
}

#[derive(Default)]
struct State {
    book: Book<Received, MailReply>,
    always: Mutex<Option<MailReply>>,
}

/// The fake mail API. Clones share what it received and its script.
#[derive(Clone, Default)]
pub struct FakeMail {
    /// Where it serves alone (`start`); empty where a server serves it.
    pub url: String,
    state: Arc<State>,
}

async fn send(fake: web::Data<FakeMail>, body: web::Json<Value>) -> HttpResponse {
    let body = body.into_inner();
    if body["accessToken"].as_str() != Some(super::MAIL_KEY) {
        return HttpResponse::Forbidden().body("The Private Key is invalid");
    }
    if !body["template_params"].is_object() {
        return HttpResponse::BadRequest().body("The template params are missing");
    }
    fake.state.book.record(Received { at: Instant::now(), arrived: OffsetDateTime::now_utc(), body });
    let reply = fake.state.book.next_answer().or(*lock(&fake.state.always)).unwrap_or(MailReply::status(200));
    if !reply.delay.is_zero() {
        tokio::time::sleep(reply.delay).await;
    }
    let status = actix_web::http::StatusCode::from_u16(reply.status)
        .unwrap_or(actix_web::http::StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = HttpResponse::build(status);
    if let Some(seconds) = reply.retry_after {
        response.insert_header(("Retry-After", seconds.to_string()));
    }
    response.body(if reply.status == 200 { "OK".to_owned() } else { format!("fake error {}", reply.status) })
}

impl FakeMail {
    /// Serves it alone on a free port of 127.0.0.1 (its API at the root).
    pub async fn start() -> FakeMail {
        let fake = FakeMail::default();
        let routes = fake.clone();
        let url = super::serve_alone(move |config| routes.routes(config)).await;
        FakeMail { url, ..fake }
    }

    /// Its API, at the scope it is given.
    pub fn routes(&self, config: &mut web::ServiceConfig) {
        config
            .app_data(web::Data::new(self.clone()))
            .app_data(web::JsonConfig::default().limit(256 * 1024))
            .route("/api/v1.0/email/send", web::post().to(send));
    }

    /// The next answers, in order; after them the standing answer.
    pub fn script(&self, replies: &[MailReply]) {
        self.state.book.script(replies.iter().copied());
    }

    /// The answer once the script is used up (200 unless set).
    pub fn answer_always(&self, reply: MailReply) {
        *lock(&self.state.always) = Some(reply);
    }

    /// Every request received so far (that passed its key), oldest first.
    pub fn received(&self) -> Vec<Received> {
        self.state.book.received()
    }

    /// Waits until `count` requests arrived.
    ///
    /// # Panics
    /// After `within` without them.
    pub async fn wait_for(&self, count: usize, within: Duration) -> Vec<Received> {
        super::wait_for("e-mails", count, within, || self.received()).await
    }
}
