//! One request to Africa's Talking's SMS API, and what its answer means for the outbox row.
//!
//! `POST {AT_BASE_URL}/version1/messaging` with the headers `apiKey` and `Accept:
//! application/json` and the form fields `username`, `to`, `message` (and `from` with a sender ID).
//! The answer lists each recipient with a `statusCode`: 101 (Sent; also 100 Processed and 102
//! Queued) means accepted, and its `messageId` is what the delivery reports name. The HTTP status
//! can be 201 while the recipient failed, so the recipient's code decides.

use super::SmsSettings;
use crate::outbox::{Outcome, exchange};
use reqwest::StatusCode;
use reqwest::header::ACCEPT;
use secrecy::ExposeSecret;
use serde::Deserialize;
use std::time::Duration;

/// The answer's body.
#[derive(Debug, Deserialize)]
struct Answer {
    #[serde(rename = "SMSMessageData")]
    data: MessageData,
}

#[derive(Debug, Deserialize)]
struct MessageData {
    #[serde(rename = "Message", default)]
    message: String,
    #[serde(rename = "Recipients", default)]
    recipients: Vec<Recipient>,
}

#[derive(Debug, Deserialize)]
struct Recipient {
    #[serde(rename = "statusCode")]
    status_code: u16,
    #[serde(default)]
    status: String,
    #[serde(rename = "messageId", default)]
    message_id: Option<String>,
}

/// The form fields of one text.
pub fn form<'a>(settings: &'a SmsSettings, to: &'a str, text: &'a str) -> Vec<(&'static str, &'a str)> {
    let mut fields =
        vec![("username", settings.username.as_deref().unwrap_or_default()), ("to", to), ("message", text)];
    if let Some(from) = settings.sender_id.as_deref() {
        fields.push(("from", from));
    }
    fields
}

/// Sends one text to `to` (E.164). Never puts the API key in a message.
pub async fn send(http: &reqwest::Client, settings: &SmsSettings, to: &str, text: &str, timeout: Duration) -> Outcome {
    let url = format!("{}/version1/messaging", settings.base_url);
    let key = settings.api_key.as_ref().map(|key| key.expose_secret()).unwrap_or_default();
    let request = http.post(&url).header("apiKey", key).header(ACCEPT, "application/json");
    let answer = match exchange(request.form(&form(settings, to, text)), timeout, "the SMS API", 500).await {
        Ok(answer) => answer,
        Err(outcome) => return outcome,
    };
    match answer.status {
        s if s.is_success() => recipient_outcome(&answer.body),
        StatusCode::TOO_MANY_REQUESTS => Outcome::TooMany(answer.retry_after),
        StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN | StatusCode::PAYMENT_REQUIRED => {
            Outcome::Blocked(answer.said())
        }
        StatusCode::NOT_FOUND | StatusCode::METHOD_NOT_ALLOWED => {
            Outcome::Blocked(format!("{} (is AT_BASE_URL the SMS API?)", answer.said()))
        }
        s if s.is_server_error() || s == StatusCode::REQUEST_TIMEOUT => Outcome::Transient(answer.said()),
        _ => Outcome::Rejected(answer.said()),
    }
}

/// What a successful HTTP answer says of the one recipient.
fn recipient_outcome(body: &str) -> Outcome {
    let answer: Answer = match serde_json::from_str(body) {
        Ok(answer) => answer,
        // A proxy's page or a half answer: the text may or may not have gone. Trying again could
        // send it twice, not trying could lose it; a customer's text is worth the rare duplicate.
        Err(_) => return Outcome::Transient(format!("an answer that is not the SMS API's: {}", body.trim())),
    };
    let Some(recipient) = answer.data.recipients.first() else {
        // No recipient: the request itself was refused. A sender ID the account may not use, or
        // no credit, is the account's problem; anything else ("Invalid phone number") this text's.
        let message = answer.data.message;
        let account = ["SenderId", "Balance", "Blacklist"].iter().any(|word| message.contains(word));
        return if account { Outcome::Blocked(message) } else { Outcome::Rejected(message) };
    };
    let said = format!("{} {}", recipient.status_code, recipient.status);
    match recipient.status_code {
        100..=102 => Outcome::Sent(recipient.message_id.clone().filter(|id| !id.is_empty() && id != "None")),
        // RiskHold, InvalidSenderId, InsufficientBalance: the account, for staff to fix.
        401 | 402 | 405 => Outcome::Blocked(said),
        // CouldNotRoute and the gateway's own errors pass.
        407 | 500..=502 => Outcome::Transient(said),
        // InvalidPhoneNumber, UnsupportedNumberType, UserInBlacklist, DoNotDisturbRejection, …
        _ => Outcome::Rejected(said),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(code: u16, status: &str) -> String {
        format!(
            r#"{{"SMSMessageData":{{"Message":"Sent to 1/1 Total Cost: KES 0.8000","Recipients":[{{"statusCode":{code},"number":"+254712345678","status":"{status}","cost":"KES 0.8000","messageId":"ATXid_1"}}]}}}}"#
        )
    }

    #[test]
    fn each_recipient_code_means_what_the_api_documents() {
        assert_eq!(recipient_outcome(&answer(101, "Success")), Outcome::Sent(Some("ATXid_1".to_owned())));
        assert_eq!(
            recipient_outcome(&answer(405, "InsufficientBalance")),
            Outcome::Blocked("405 InsufficientBalance".to_owned())
        );
        assert_eq!(
            recipient_outcome(&answer(403, "InvalidPhoneNumber")),
            Outcome::Rejected("403 InvalidPhoneNumber".to_owned())
        );
        assert_eq!(
            recipient_outcome(&answer(500, "InternalServerError")),
            Outcome::Transient("500 InternalServerError".to_owned())
        );
        assert_eq!(
            recipient_outcome(r#"{"SMSMessageData":{"Message":"InvalidSenderId","Recipients":[]}}"#),
            Outcome::Blocked("InvalidSenderId".to_owned())
        );
        assert!(matches!(recipient_outcome("<html>bad gateway</html>"), Outcome::Transient(_)));
    }
}
