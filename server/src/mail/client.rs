//! One request to the EmailJS-compatible API, and what its answer means for the outbox row.

use super::MailSettings;
use crate::outbox::{Outcome, exchange};
use reqwest::StatusCode;
use secrecy::ExposeSecret;
use serde_json::{Value, json};
use std::time::Duration;

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
    let answer = match exchange(http.post(&url).json(&body), timeout, "the mail API", 300).await {
        Ok(answer) => answer,
        Err(outcome) => return outcome,
    };
    match answer.status {
        // 200 answers "OK": the API gives no id of the e-mail.
        s if s.is_success() => Outcome::Sent(None),
        StatusCode::TOO_MANY_REQUESTS => Outcome::TooMany(answer.retry_after),
        StatusCode::UNAUTHORIZED
        | StatusCode::FORBIDDEN
        | StatusCode::PRECONDITION_FAILED
        | StatusCode::UNAVAILABLE_FOR_LEGAL_REASONS => Outcome::Blocked(answer.said()),
        StatusCode::NOT_FOUND | StatusCode::METHOD_NOT_ALLOWED => {
            Outcome::Blocked(format!("{} (is EMAILJS_BASE_URL the mail API?)", answer.said()))
        }
        s if s.is_server_error() || s == StatusCode::REQUEST_TIMEOUT => Outcome::Transient(answer.said()),
        _ => Outcome::Rejected(answer.said()),
    }
}
