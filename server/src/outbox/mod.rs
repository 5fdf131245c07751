//! What the outbox's channels share: the [`Sender`] a provider implements (`mail` for e-mail,
//! `sms` for texts), the [`Envelope`] it is given, what its answer means ([`Outcome`]), the HTTP
//! client of the providers' APIs and the [`RetryPolicy`]. It knows no model: the rows are written
//! by `models::outbox`, in the same transaction as the change they are about, and sent by the
//! outbox worker (`jobs::outbox_worker`, one per channel in each server instance), which claims
//! due rows of its channel (on PostgreSQL with `FOR UPDATE SKIP LOCKED` and a lease, so several
//! instances never send one row twice), paces itself across all instances, hands each row to the
//! channel's [`Sender`] as an [`Envelope`], and records the outcome: sent, retried later, failed,
//! blocked (an account problem staff must see), or skipped (a text to a number that opted out).

mod retry;

pub use retry::RetryPolicy;

use crate::clock::Clock;
use crate::domain::{Channel, MessageKind};
use serde_json::Value;
use std::future::Future;
use std::time::Duration;
use time::OffsetDateTime;

/// What a provider's answer means for the row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Accepted; the provider's id of the message, if it gave one.
    Sent(Option<String>),
    /// 429: too many requests; try again no sooner than this (from `Retry-After`, if it said).
    TooMany(Option<Duration>),
    /// 5xx, a timeout or no connection: try again later with backoff.
    Transient(String),
    /// Refused as it is (400, an invalid number): it will never be sent as it is.
    Rejected(String),
    /// A problem with the account (keys, plan, balance, settings) that staff must fix.
    Blocked(String),
    /// Cannot be sent with this configuration or content; the reason is shown as it is.
    Unsendable(String),
}

/// One message as a provider sends it, read from its outbox row by the worker: what it is, to whom,
/// and what it says; nothing of the row's queue.
#[derive(Debug, Clone, PartialEq)]
pub struct Envelope {
    /// What it is: it picks an e-mail's template and says whether it goes to staff.
    pub kind: MessageKind,
    /// The customer's e-mail address, or the phone number (E.164) of a text; `None` for the staff
    /// e-mails, which go to the address the mail settings name.
    pub to: Option<String>,
    /// What it says.
    pub body: Body,
}

/// What a message says.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// A text, exactly as it is sent.
    Text(String),
    /// An e-mail: its template's parameters, a JSON object.
    Template(Value),
}

/// A provider the outbox sends one channel's messages through.
pub trait Sender: Send + Sync + 'static {
    /// The rows it sends.
    const CHANNEL: Channel;
    /// The provider's name in logs and errors ("the mail API").
    const API: &'static str;
    /// The shortest time between two requests, across all instances.
    const PACE: Duration;

    /// The variables still missing before anything can be sent; empty when configured.
    fn missing(&self) -> Vec<&'static str>;

    /// Where it sends, for the start-up log.
    fn base_url(&self) -> &str;

    /// One request for `message`, waiting at most `timeout`.
    fn send(
        &self,
        http: &reqwest::Client,
        message: &Envelope,
        timeout: Duration,
    ) -> impl Future<Output = Outcome> + Send;
}

/// The HTTP client of the providers' APIs: TLS by rustls with the `ring` provider (built from the
/// crates alone, no system OpenSSL), the system's root certificates, no redirects (a redirect
/// would send the keys somewhere else).
pub fn http_client() -> reqwest::Client {
    // Installing twice is harmless; the first provider stays.
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .user_agent(concat!("laundry/", env!("CARGO_PKG_VERSION")))
        .connect_timeout(Duration::from_secs(10))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap_or_else(|error| {
            tracing::error!(%error, "the HTTP client could not be built with its settings; using the defaults");
            reqwest::Client::new()
        })
}

/// A provider's answer, read: its status, its `Retry-After`, and the start of its body.
#[derive(Debug)]
pub struct Answer {
    /// The HTTP status.
    pub status: reqwest::StatusCode,
    /// How long it asked to wait (429), if it said.
    pub retry_after: Option<Duration>,
    /// At most the first `keep` characters of the body.
    pub body: String,
}

impl Answer {
    /// `503 Service Unavailable: <body>`, or the status alone when the body is empty.
    pub fn said(&self) -> String {
        let body = self.body.trim();
        if body.is_empty() { self.status.to_string() } else { format!("{}: {body}", self.status) }
    }
}

/// Sends `request` to `api` ("the mail API") within `timeout` and reads its answer, keeping `keep`
/// characters of the body. No answer in time, or no connection, is the [`Outcome::Transient`] the
/// row gets.
pub async fn exchange(
    request: reqwest::RequestBuilder,
    timeout: Duration,
    api: &str,
    keep: usize,
) -> Result<Answer, Outcome> {
    let response = match request.timeout(timeout).send().await {
        Ok(response) => response,
        Err(error) if error.is_timeout() => {
            return Err(Outcome::Transient(format!("no answer within {} s", timeout.as_secs_f32())));
        }
        Err(error) => return Err(Outcome::Transient(format!("cannot reach {api}: {}", with_causes(&error)))),
    };
    let status = response.status();
    let retry_after = response
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|value| parse_retry_after(value, Clock::system().now()));
    let body = response.text().await.unwrap_or_default().chars().take(keep).collect();
    Ok(Answer { status, retry_after, body })
}

/// reqwest's error and its chain of causes, for the row's `last_error`.
pub fn with_causes(error: &reqwest::Error) -> String {
    let mut message = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        message.push_str(": ");
        message.push_str(&cause.to_string());
        source = cause.source();
    }
    message
}

/// The longest `Retry-After` taken as said; a longer one is nonsense and would overflow dates.
const LONGEST_RETRY_AFTER: Duration = Duration::from_secs(30 * 24 * 3600);

/// `Retry-After` as seconds or as an HTTP date (RFC 9110), the wait from `now`; a date in the past
/// is no wait. The date is the API's clock, so `now` is the system's: the wait is slept, and
/// measured on the database's clock (see [`crate::db::database_clock`]), not the settings' one a
/// test may have moved.
pub fn parse_retry_after(value: &str, now: OffsetDateTime) -> Option<Duration> {
    let value = value.trim();
    let wait = match value.parse::<u64>() {
        Ok(seconds) => Duration::from_secs(seconds),
        Err(_) => {
            let until = OffsetDateTime::from(httpdate::parse_http_date(value).ok()?);
            Duration::try_from(until - now).unwrap_or_default()
        }
    };
    Some(wait.min(LONGEST_RETRY_AFTER))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_is_read_in_seconds_and_as_a_date() {
        let now = time::macros::datetime!(2026-10-21 07:28:00 UTC);
        assert_eq!(parse_retry_after(" 7 ", now), Some(Duration::from_secs(7)));
        assert_eq!(parse_retry_after("172800", now), Some(Duration::from_secs(172_800)), "two days stay two days");
        assert_eq!(parse_retry_after("Wed, 21 Oct 2026 07:30:30 GMT", now), Some(Duration::from_secs(150)));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2026 07:00:00 GMT", now), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("soon", now), None);
    }
}
