//! One request to the EmailJS-compatible API, and what its answer means for the outbox row.

use super::MailSettings;
use crate::outbox::{Outcome, parse_retry_after, with_causes};
use reqwest::StatusCode;
use reqwest::header::RETRY_AFTER;
use secrecy::ExposeSecret;
use serde_json::{Value, json};
use std::time::{Duration, SystemTime};

/// The `lib_version` the API is told.
pub const LIB_VERSION: &str = "4.4.1";

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
        // 200 answers "OK": the API gives no id of the e-mail.
        s if s.is_success() => Outcome::Sent(None),
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
