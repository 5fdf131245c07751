//! One request to the EmailJS-compatible API, and what its answer means for the outbox row.

use super::MailSettings;
use reqwest::StatusCode;
use reqwest::header::RETRY_AFTER;
use secrecy::ExposeSecret;
use serde_json::{Value, json};
use std::time::{Duration, SystemTime};

/// The `lib_version` the API is told.
pub const LIB_VERSION: &str = "4.4.1";

/// What the API's answer means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// 200: sent.
    Sent,
    /// 429: too many requests; try again no sooner than this (from `Retry-After`, if it said).
    TooMany(Option<Duration>),
    /// 5xx, a timeout or no connection: try again later with backoff.
    Transient(String),
    /// 400 and other refusals of this e-mail itself: it will never be sent as it is.
    Rejected(String),
    /// 401, 403, 412, 451: a problem with the account (keys, plan, settings) that staff must fix;
    /// also 404 and 405, which mean `EMAILJS_BASE_URL` does not point at the mail API.
    Blocked(String),
}

/// The HTTP client for the mail API: TLS by rustls with the `ring` provider (built from the crates
/// alone, no system OpenSSL), the system's root certificates.
pub fn http_client() -> reqwest::Client {
    // Installing twice is harmless; the first provider stays.
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .user_agent(concat!("laundry/", env!("CARGO_PKG_VERSION")))
        .connect_timeout(Duration::from_secs(10))
        // A redirect would send the body, private key included, somewhere else.
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap_or_else(|error| {
            tracing::error!(%error, "the mail HTTP client could not be built with its settings; using the defaults");
            reqwest::Client::new()
        })
}

/// The JSON body of `POST /api/v1.0/email/send`.
pub fn request_body(settings: &MailSettings, template_id: &str, params: &Value) -> Value {
    json!({
        "lib_version": LIB_VERSION,
        "user_id": settings.public_key,
        "service_id": settings.service_id,
        "template_id": template_id,
        "template_params": params,
        "accessToken": settings.private_key.as_ref().map(ExposeSecret::expose_secret),
    })
}

/// Sends one e-mail. Never returns the private key in a message.
pub async fn send(
    http: &reqwest::Client,
    settings: &MailSettings,
    template_id: &str,
    params: &Value,
    timeout: Duration,
) -> Outcome {
    let url = format!("{}/api/v1.0/email/send", settings.base_url);
    let body = request_body(settings, template_id, params);
    let response = match http.post(&url).timeout(timeout).json(&body).send().await {
        Ok(response) => response,
        Err(error) if error.is_timeout() => {
            return Outcome::Transient(format!("no answer within {} s", timeout.as_secs_f32()));
        }
        Err(error) => return Outcome::Transient(format!("cannot reach the mail API: {}", with_causes(&error))),
    };
    let status = response.status();
    let retry_after = response
        .headers()
        .get(RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|value| parse_retry_after(value, SystemTime::now()));
    let text: String = response.text().await.unwrap_or_default().chars().take(300).collect();
    let said =
        |text: &str| if text.trim().is_empty() { status.to_string() } else { format!("{status}: {}", text.trim()) };
    match status {
        s if s.is_success() => Outcome::Sent,
        StatusCode::TOO_MANY_REQUESTS => Outcome::TooMany(retry_after),
        StatusCode::UNAUTHORIZED
        | StatusCode::FORBIDDEN
        | StatusCode::PRECONDITION_FAILED
        | StatusCode::UNAVAILABLE_FOR_LEGAL_REASONS => Outcome::Blocked(said(&text)),
        StatusCode::NOT_FOUND | StatusCode::METHOD_NOT_ALLOWED => {
            Outcome::Blocked(format!("{} (is EMAILJS_BASE_URL the mail API?)", said(&text)))
        }
        s if s.is_server_error() || s == StatusCode::REQUEST_TIMEOUT => Outcome::Transient(said(&text)),
        _ => Outcome::Rejected(said(&text)),
    }
}

/// The longest `Retry-After` taken as said; a longer one is nonsense and would overflow dates.
const LONGEST_RETRY_AFTER: Duration = Duration::from_secs(30 * 24 * 3600);

/// `Retry-After` as seconds or as an HTTP date (RFC 9110), the wait from `now`; a date in the past
/// is no wait.
fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    let wait = match value.parse::<u64>() {
        Ok(seconds) => Duration::from_secs(seconds),
        Err(_) => httpdate::parse_http_date(value).ok()?.duration_since(now).unwrap_or_default(),
    };
    Some(wait.min(LONGEST_RETRY_AFTER))
}

/// reqwest's error and its chain of causes (the URL holds no key: the keys travel in the body).
fn with_causes(error: &reqwest::Error) -> String {
    let mut message = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        message.push_str(": ");
        message.push_str(&cause.to_string());
        source = cause.source();
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_is_read_in_seconds_and_as_a_date() {
        let now = httpdate::parse_http_date("Wed, 21 Oct 2026 07:28:00 GMT").unwrap();
        assert_eq!(parse_retry_after(" 7 ", now), Some(Duration::from_secs(7)));
        assert_eq!(parse_retry_after("172800", now), Some(Duration::from_secs(172_800)), "two days stay two days");
        assert_eq!(parse_retry_after("Wed, 21 Oct 2026 07:30:30 GMT", now), Some(Duration::from_secs(150)));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2026 07:00:00 GMT", now), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("soon", now), None);
    }
}
