//! Requests to Daraja: the OAuth token (cached, renewed before it expires), the prompt (STK push),
//! its status query, and the till's URL registration.
//!
//! Daraja's errors come as `{"requestId", "errorCode", "errorMessage"}` with a 4xx or 5xx status.
//! A status query for a prompt still on the phone is answered 500 with `errorCode` `500.001.1001`
//! and "The transaction is being processed": not an error, a "not yet". The same code comes with
//! other messages ("Merchant does not exist", "Unable to lock subscriber…"), which are errors, so
//! the message decides.
//!
//! The token's lifetime is counted on the settings' [`Clock`] (the system's in production), so a
//! test can let it run out without waiting.

use super::{MpesaSettings, PROMPT_CALLBACK_PATH, TILL_CONFIRMATION_PATH, TILL_VALIDATION_PATH};
use crate::clock::Clock;
use crate::domain::{daraja_phone, daraja_timestamp, stk_password};
use crate::outbox::{Answer, Outcome, exchange};
use reqwest::StatusCode;
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use serde_json::{Value, json};
use std::time::Duration;
use time::OffsetDateTime;
use tokio::sync::Mutex;

/// The API's name in messages.
const API: &str = "Daraja (M-PESA)";
/// How much of an answer is kept for a message.
const KEEP: usize = 500;
/// A token is renewed this long before Daraja says it expires (or at half its life, if shorter).
const RENEW_BEFORE: Duration = Duration::from_secs(60);
/// `TransactionDesc`: Daraja takes at most 13 characters.
const TRANSACTION_DESC: &str = "Laundry order";

/// Why a request to Daraja did not do what it asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DarajaError {
    /// Not configured: these variables are missing.
    #[error("M-PESA is not configured: {} missing", .0.join(", "))]
    Unconfigured(Vec<&'static str>),
    /// No answer in time, no connection, a 5xx or 429: it may work later. For a prompt, it may
    /// also have reached the phone.
    #[error("{0}")]
    Unavailable(String),
    /// The consumer key and secret were refused: staff must fix the configuration.
    #[error("Daraja refused the consumer key and secret: {0}")]
    Credentials(String),
    /// The request was refused as it is (its `errorMessage`, or `ResponseDescription`).
    #[error("{0}")]
    Refused(String),
}

/// A prompt Daraja accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepted {
    /// What the callback and the status query name it by.
    pub checkout_request_id: String,
    /// Daraja's other id of it.
    pub merchant_request_id: String,
}

/// What a status query says of a prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QueryAnswer {
    /// Ended: its `ResultCode` and `ResultDesc`.
    Ended(i64, String),
    /// Still on the phone ("The transaction is being processed").
    Processing,
}

/// One prompt to send.
#[derive(Debug, Clone)]
pub struct PromptRequest<'a> {
    /// E.164, `+2547…`.
    pub phone: &'a str,
    /// Whole shillings, at least 1.
    pub amount: i32,
    /// The order ID the customer sees on the prompt (`AccountReference`, at most 12 characters).
    pub reference: &'a str,
}

struct Token {
    value: SecretString,
    renew_at: OffsetDateTime,
}

/// Daraja, with its token cached for every request of this instance.
pub struct Daraja {
    settings: MpesaSettings,
    http: reqwest::Client,
    clock: Clock,
    token: Mutex<Option<Token>>,
}

impl std::fmt::Debug for Daraja {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Daraja").field("settings", &self.settings).finish_non_exhaustive()
    }
}

#[derive(Deserialize)]
struct TokenAnswer {
    access_token: String,
    /// Seconds, as a string ("3599"); a number is taken too.
    expires_in: Value,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct PushAnswer {
    #[serde(rename = "MerchantRequestID", default)]
    merchant_request_id: String,
    #[serde(rename = "CheckoutRequestID", default)]
    checkout_request_id: String,
    #[serde(default)]
    response_code: Value,
    #[serde(default)]
    response_description: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct QueryBody {
    #[serde(default)]
    result_code: Value,
    #[serde(default)]
    result_desc: String,
}

#[derive(Deserialize)]
struct ErrorBody {
    #[serde(rename = "errorCode", default)]
    error_code: String,
    #[serde(rename = "errorMessage", default)]
    error_message: String,
}

/// Daraja's "not yet" to a status query: `500.001.1001` with "The transaction is being processed"
/// (that code also comes with errors, such as "Merchant does not exist").
fn is_processing(error: &ErrorBody) -> bool {
    error.error_code == "500.001.1001" && error.error_message.to_ascii_lowercase().contains("being processed")
}

/// A code Daraja sends as a string or as a number ("0", 0).
fn code_of(value: &Value) -> Option<i64> {
    match value {
        Value::Number(number) => number.as_i64(),
        Value::String(text) => text.trim().parse().ok(),
        _ => None,
    }
}

impl Daraja {
    /// A client for `settings`, sending with `http`; its token's lifetime goes by `clock`.
    pub fn new(settings: MpesaSettings, http: reqwest::Client, clock: Clock) -> Self {
        Self { settings, http, clock, token: Mutex::new(None) }
    }

    /// The configuration it sends with.
    pub fn settings(&self) -> &MpesaSettings {
        &self.settings
    }

    fn configured(&self) -> Result<(), DarajaError> {
        let missing = self.settings.missing();
        if missing.is_empty() { Ok(()) } else { Err(DarajaError::Unconfigured(missing)) }
    }

    /// The cached token, or a new one when it is due for renewal. Callers at once wait for one
    /// request.
    async fn token(&self, timeout: Duration) -> Result<SecretString, DarajaError> {
        let mut cached = self.token.lock().await;
        if let Some(token) = cached.as_ref().filter(|token| self.clock.now() < token.renew_at) {
            return Ok(token.value.clone());
        }
        let key = self.settings.consumer_key.as_deref().unwrap_or_default();
        let secret = self.settings.consumer_secret.as_ref().map(|s| s.expose_secret()).unwrap_or_default();
        let url = format!("{}/oauth/v1/generate?grant_type=client_credentials", self.settings.base_url);
        let request = self.http.get(url).basic_auth(key, Some(secret));
        let answer = exchange(request, timeout, API, KEEP).await.map_err(unavailable)?;
        if !answer.status.is_success() {
            return Err(match answer.status {
                s if s.is_server_error() || s == StatusCode::TOO_MANY_REQUESTS => {
                    DarajaError::Unavailable(answer.said())
                }
                _ => DarajaError::Credentials(answer.said()),
            });
        }
        let parsed: TokenAnswer = serde_json::from_str(&answer.body)
            .map_err(|_| DarajaError::Unavailable(format!("an answer that is not a token: {}", answer.body)))?;
        let lifetime =
            Duration::from_secs(code_of(&parsed.expires_in).and_then(|s| u64::try_from(s).ok()).unwrap_or(0));
        let renew_at = self.clock.now() + lifetime.saturating_sub(RENEW_BEFORE.min(lifetime / 2));
        let value = SecretString::from(parsed.access_token);
        *cached = Some(Token { value: value.clone(), renew_at });
        Ok(value)
    }

    /// POSTs `body` to `path` with the token; a token Daraja no longer takes (401) is renewed
    /// and the request made once more.
    async fn post(&self, path: &str, body: &Value, timeout: Duration) -> Result<Answer, DarajaError> {
        let url = format!("{}{path}", self.settings.base_url);
        for attempt in 0..2 {
            let token = self.token(timeout).await?;
            let request = self.http.post(&url).bearer_auth(token.expose_secret()).json(body);
            let answer = exchange(request, timeout, API, KEEP).await.map_err(unavailable)?;
            if answer.status == StatusCode::UNAUTHORIZED && attempt == 0 {
                // Forgotten only if no other request renewed it meanwhile.
                let mut cached = self.token.lock().await;
                if cached.as_ref().is_some_and(|held| held.value.expose_secret() == token.expose_secret()) {
                    *cached = None;
                }
                continue;
            }
            return Ok(answer);
        }
        Err(DarajaError::Credentials("the new token was refused too".to_owned()))
    }

    /// Sends a prompt to pay to `request.phone`. `now` gives the `Timestamp` (Nairobi time).
    pub async fn stk_push(
        &self,
        request: &PromptRequest<'_>,
        now: OffsetDateTime,
        timeout: Duration,
    ) -> Result<Accepted, DarajaError> {
        self.configured()?;
        let body = self.push_body(request, now);
        let answer = self.post("/mpesa/stkpush/v1/processrequest", &body, timeout).await?;
        if !answer.status.is_success() {
            return Err(refusal(&answer));
        }
        let parsed: PushAnswer = serde_json::from_str(&answer.body)
            .map_err(|_| DarajaError::Unavailable(format!("an answer that is not Daraja's: {}", answer.body)))?;
        match code_of(&parsed.response_code) {
            Some(0) if !parsed.checkout_request_id.is_empty() => Ok(Accepted {
                checkout_request_id: parsed.checkout_request_id,
                merchant_request_id: parsed.merchant_request_id,
            }),
            _ => Err(DarajaError::Refused(parsed.response_description)),
        }
    }

    /// The JSON of a prompt (M-Pesa Express for a till: `CustomerBuyGoodsOnline`, `PartyB` the
    /// till).
    pub fn push_body(&self, request: &PromptRequest<'_>, now: OffsetDateTime) -> Value {
        let shortcode = self.settings.shortcode.as_deref().unwrap_or_default();
        let timestamp = daraja_timestamp(now);
        let phone = daraja_phone(request.phone);
        let number = |text: &str| text.parse::<u64>().map_or_else(|_| json!(text), |n| json!(n));
        let reference: String = request.reference.chars().take(12).collect();
        json!({
            "BusinessShortCode": number(shortcode),
            "Password": self.password(&timestamp),
            "Timestamp": timestamp,
            "TransactionType": "CustomerBuyGoodsOnline",
            "Amount": request.amount,
            "PartyA": number(&phone),
            "PartyB": number(&self.settings.till),
            "PhoneNumber": number(&phone),
            "CallBackURL": self.settings.callback_url(PROMPT_CALLBACK_PATH).unwrap_or_default(),
            "AccountReference": reference,
            "TransactionDesc": TRANSACTION_DESC,
        })
    }

    fn password(&self, timestamp: &str) -> String {
        let shortcode = self.settings.shortcode.as_deref().unwrap_or_default();
        let passkey = self.settings.passkey.as_ref().map(|key| key.expose_secret()).unwrap_or_default();
        stk_password(shortcode, passkey, timestamp)
    }

    /// Asks what became of the prompt `checkout_request_id`.
    pub async fn stk_query(
        &self,
        checkout_request_id: &str,
        now: OffsetDateTime,
        timeout: Duration,
    ) -> Result<QueryAnswer, DarajaError> {
        self.configured()?;
        let shortcode = self.settings.shortcode.as_deref().unwrap_or_default();
        let timestamp = daraja_timestamp(now);
        let body = json!({
            "BusinessShortCode": shortcode.parse::<u64>().map_or_else(|_| json!(shortcode), |n| json!(n)),
            "Password": self.password(&timestamp),
            "Timestamp": timestamp,
            "CheckoutRequestID": checkout_request_id,
        });
        let answer = self.post("/mpesa/stkpushquery/v1/query", &body, timeout).await?;
        if let Ok(error) = serde_json::from_str::<ErrorBody>(&answer.body)
            && is_processing(&error)
        {
            return Ok(QueryAnswer::Processing);
        }
        if !answer.status.is_success() {
            return Err(refusal(&answer));
        }
        let parsed: QueryBody = serde_json::from_str(&answer.body)
            .map_err(|_| DarajaError::Unavailable(format!("an answer that is not Daraja's: {}", answer.body)))?;
        match code_of(&parsed.result_code) {
            Some(code) => Ok(QueryAnswer::Ended(code, parsed.result_desc)),
            None => Ok(QueryAnswer::Processing),
        }
    }

    /// Registers the till's confirmation and validation URLs (`ResponseType` `Completed`: when
    /// our validation cannot be reached, M-PESA completes the payment). `shortcode` is the number
    /// the confirmations are for. Needs the consumer key and secret and the callbacks' address and
    /// secret, not the passkey. Returns Daraja's answer as it came.
    pub async fn register_urls(&self, shortcode: &str, timeout: Duration) -> Result<Value, DarajaError> {
        let missing: Vec<&'static str> = self
            .settings
            .missing()
            .into_iter()
            .filter(|name| !matches!(*name, "MPESA_SHORTCODE" | "MPESA_PASSKEY"))
            .collect();
        if !missing.is_empty() {
            return Err(DarajaError::Unconfigured(missing));
        }
        let (Some(confirmation), Some(validation)) =
            (self.settings.callback_url(TILL_CONFIRMATION_PATH), self.settings.callback_url(TILL_VALIDATION_PATH))
        else {
            return Err(DarajaError::Unconfigured(vec!["MPESA_CALLBACK_BASE_URL", "MPESA_CALLBACK_SECRET"]));
        };
        let body = json!({
            "ShortCode": shortcode.parse::<u64>().map_or_else(|_| json!(shortcode), |n| json!(n)),
            "ResponseType": "Completed",
            "ConfirmationURL": confirmation,
            "ValidationURL": validation,
        });
        let path = format!("/mpesa/c2b/{}/registerurl", self.settings.c2b_version);
        let answer = self.post(&path, &body, timeout).await?;
        if !answer.status.is_success() {
            return Err(refusal(&answer));
        }
        let said: Value = serde_json::from_str(&answer.body)
            .map_err(|_| DarajaError::Unavailable(format!("an answer that is not Daraja's: {}", answer.body)))?;
        match said.get("ResponseCode").and_then(code_of) {
            Some(0) | None => Ok(said),
            Some(_) => Err(DarajaError::Refused(said.to_string())),
        }
    }
}

/// A time-out or no connection.
fn unavailable(outcome: Outcome) -> DarajaError {
    match outcome {
        Outcome::Transient(said) => DarajaError::Unavailable(said),
        other => DarajaError::Unavailable(format!("{other:?}")),
    }
}

/// A 4xx or 5xx answer: Daraja's `errorMessage` when it gave one.
fn refusal(answer: &Answer) -> DarajaError {
    let message = serde_json::from_str::<ErrorBody>(&answer.body)
        .ok()
        .filter(|error| !error.error_message.is_empty())
        .map_or_else(|| answer.said(), |error| format!("{} ({})", error.error_message, error.error_code));
    if answer.status.is_server_error() || answer.status == StatusCode::TOO_MANY_REQUESTS {
        DarajaError::Unavailable(message)
    } else {
        DarajaError::Refused(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_being_processed_is_a_not_yet() {
        let error =
            |code: &str, message: &str| ErrorBody { error_code: code.to_owned(), error_message: message.to_owned() };
        assert!(is_processing(&error("500.001.1001", "The transaction is being processed")));
        assert!(!is_processing(&error("500.001.1001", "Merchant does not exist")));
        assert!(!is_processing(&error("400.002.02", "The transaction is being processed")));
    }

    #[test]
    fn codes_come_as_strings_or_numbers() {
        assert_eq!(code_of(&json!("0")), Some(0));
        assert_eq!(code_of(&json!(1032)), Some(1032));
        assert_eq!(code_of(&json!(null)), None);
    }
}
