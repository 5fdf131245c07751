//! The providers' APIs as the demo serves them: the shapes of `../shared/PROVIDERS.md` (and of the
//! tests' mocks), checked as the real ones check them (the API key, the Basic credentials, the
//! Bearer token), answering as the real ones answer a success.
//!
//! - Africa's Talking: `POST /dev/at/version1/messaging` (form, `apiKey` header) → 201 with each
//!   recipient's status 101.
//! - The mail API: `POST /dev/mail/api/v1.0/email/send` (JSON, `accessToken`) → 200 `OK`.
//! - Daraja: the token (`GET /dev/daraja/oauth/v1/generate`), the prompt, its status query (500
//!   "being processed" until the prompt ends on `/dev/mpesa`) and the till's URL registration.

use super::{AT_API_KEY, AT_USERNAME, DARAJA_KEY, DARAJA_SECRET, Landed, MAIL_KEY, Prompt, StandIns};
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use base64::Engine as _;
use serde_json::{Value, json};
use std::collections::HashMap;
use time::OffsetDateTime;

/// The one token the Daraja stand-in issues (it never expires within a demo).
const DARAJA_TOKEN: &str = "demo-daraja-token";

/// `POST /dev/at/version1/messaging`: one text to one number, as the SMS worker sends it.
pub async fn at_messaging(
    stand_ins: web::Data<StandIns>,
    request: HttpRequest,
    form: web::Form<HashMap<String, String>>,
) -> HttpResponse {
    let key = request.headers().get("apiKey").and_then(|v| v.to_str().ok()).unwrap_or_default();
    if key != AT_API_KEY {
        return HttpResponse::Unauthorized().body("The supplied authentication is invalid");
    }
    let field = |name: &str| form.get(name).map(String::as_str).unwrap_or_default();
    if field("username") != AT_USERNAME || field("to").is_empty() || field("message").is_empty() {
        return HttpResponse::BadRequest().body("Request is missing required form field 'to' or 'message'");
    }
    let id = format!("ATXid_demo{}", uuid::Uuid::new_v4().simple());
    stand_ins.land(Landed {
        at: OffsetDateTime::now_utc(),
        channel: "Text",
        to: field("to").to_owned(),
        subject: String::new(),
        body: field("message").to_owned(),
    });
    HttpResponse::Created().json(json!({
        "SMSMessageData": {
            "Message": "Sent to 1/1 Total Cost: KES 0.8000",
            "Recipients": [{
                "statusCode": 101, "number": field("to"), "status": "Success", "cost": "KES 0.8000", "messageId": id,
            }],
        }
    }))
}

/// `POST /dev/mail/api/v1.0/email/send`: one e-mail from a template and its parameters.
pub async fn mail_send(stand_ins: web::Data<StandIns>, body: web::Json<Value>) -> HttpResponse {
    if body["accessToken"].as_str() != Some(MAIL_KEY) {
        return HttpResponse::Forbidden().body("The Private Key is invalid");
    }
    let Some(params) = body["template_params"].as_object() else {
        return HttpResponse::BadRequest().body("The template params are missing");
    };
    let text = |value: &Value| value.as_str().map_or_else(|| value.to_string(), str::to_owned);
    let to =
        params.get("to_email").map(text).filter(|to| !to.is_empty()).unwrap_or_else(|| super::SHOP_EMAIL.to_owned());
    let body_text =
        params.iter().map(|(name, value)| format!("{name}: {}", text(value))).collect::<Vec<_>>().join("\n");
    stand_ins.land(Landed {
        at: OffsetDateTime::now_utc(),
        channel: "E-mail",
        to,
        subject: body["template_id"].as_str().unwrap_or_default().to_owned(),
        body: body_text,
    });
    HttpResponse::Ok().body("OK")
}

fn daraja_error(status: actix_web::http::StatusCode, code: &str, message: &str) -> HttpResponse {
    HttpResponse::build(status).json(json!({"requestId": "demo", "errorCode": code, "errorMessage": message}))
}

fn bearer_ok(request: &HttpRequest) -> bool {
    let given = request.headers().get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).unwrap_or_default();
    given.strip_prefix("Bearer ") == Some(DARAJA_TOKEN)
}

/// `GET /dev/daraja/oauth/v1/generate?grant_type=client_credentials` with the consumer key and
/// secret as HTTP Basic.
pub async fn daraja_token(request: HttpRequest) -> HttpResponse {
    let expected =
        format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(format!("{DARAJA_KEY}:{DARAJA_SECRET}")));
    let given = request.headers().get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).unwrap_or_default();
    if request.query_string() != "grant_type=client_credentials" {
        return daraja_error(actix_web::http::StatusCode::BAD_REQUEST, "400.008.02", "Invalid grant type passed");
    }
    if given != expected {
        return daraja_error(actix_web::http::StatusCode::BAD_REQUEST, "400.008.01", "Invalid Authentication passed");
    }
    HttpResponse::Ok().json(json!({"access_token": DARAJA_TOKEN, "expires_in": "3599"}))
}

/// `POST /dev/daraja/mpesa/stkpush/v1/processrequest`: the prompt goes to "the phone" of
/// `/dev/mpesa`.
pub async fn daraja_push(stand_ins: web::Data<StandIns>, request: HttpRequest, body: web::Json<Value>) -> HttpResponse {
    if !bearer_ok(&request) {
        return daraja_error(actix_web::http::StatusCode::UNAUTHORIZED, "404.001.03", "Invalid Access Token");
    }
    let text = |name: &str| match &body[name] {
        Value::String(text) => text.clone(),
        Value::Number(number) => number.to_string(),
        _ => String::new(),
    };
    let amount = text("Amount").parse::<i64>().ok().filter(|amount| *amount >= 1);
    let (phone, callback_url) = (text("PhoneNumber"), text("CallBackURL"));
    let Some(amount) = amount.filter(|_| !phone.is_empty() && callback_url.starts_with("http")) else {
        return daraja_error(actix_web::http::StatusCode::BAD_REQUEST, "400.002.02", "Bad Request - Invalid Amount");
    };
    let stamp = OffsetDateTime::now_utc().unix_timestamp();
    let prompt = stand_ins.ask(|n| Prompt {
        checkout_request_id: format!("ws_CO_demo{stamp}{n:04}"),
        merchant_request_id: format!("29115-demo-{n}"),
        phone,
        amount,
        account_reference: text("AccountReference"),
        callback_url,
        asked_at: OffsetDateTime::now_utc(),
        end: None,
    });
    HttpResponse::Ok().json(json!({
        "MerchantRequestID": prompt.merchant_request_id,
        "CheckoutRequestID": prompt.checkout_request_id,
        "ResponseCode": "0",
        "ResponseDescription": "Success. Request accepted for processing",
        "CustomerMessage": "Success. Request accepted for processing",
    }))
}

/// `POST /dev/daraja/mpesa/stkpushquery/v1/query`: "being processed" while the prompt waits on
/// the phone, then how it ended.
pub async fn daraja_query(
    stand_ins: web::Data<StandIns>,
    request: HttpRequest,
    body: web::Json<Value>,
) -> HttpResponse {
    if !bearer_ok(&request) {
        return daraja_error(actix_web::http::StatusCode::UNAUTHORIZED, "404.001.03", "Invalid Access Token");
    }
    let checkout = body["CheckoutRequestID"].as_str().unwrap_or_default();
    let Some(prompt) = stand_ins.prompt(checkout) else {
        return daraja_error(
            actix_web::http::StatusCode::BAD_REQUEST,
            "400.002.02",
            "Bad Request - Invalid CheckoutRequestID",
        );
    };
    match prompt.end {
        None => daraja_error(
            actix_web::http::StatusCode::INTERNAL_SERVER_ERROR,
            "500.001.1001",
            "The transaction is being processed",
        ),
        Some(end) => {
            let (code, desc) = end.result();
            HttpResponse::Ok().json(json!({
                "ResponseCode": "0",
                "ResponseDescription": "The service request has been accepted successsfully",
                "MerchantRequestID": prompt.merchant_request_id,
                "CheckoutRequestID": prompt.checkout_request_id,
                "ResultCode": code.to_string(),
                "ResultDesc": desc,
            }))
        }
    }
}

/// `POST /dev/daraja/mpesa/c2b/{version}/registerurl`: accepted.
pub async fn daraja_register(request: HttpRequest) -> HttpResponse {
    if !bearer_ok(&request) {
        return daraja_error(actix_web::http::StatusCode::UNAUTHORIZED, "404.001.03", "Invalid Access Token");
    }
    HttpResponse::Ok()
        .json(json!({"OriginatorCoversationID": "demo", "ResponseCode": "0", "ResponseDescription": "success"}))
}

/// The callback Daraja sends when `prompt` ended as it did (`Body.stkCallback`).
pub fn callback_of(prompt: &Prompt) -> Value {
    let Some(end) = &prompt.end else { return Value::Null };
    let (code, desc) = end.result();
    let mut callback = json!({
        "MerchantRequestID": prompt.merchant_request_id,
        "CheckoutRequestID": prompt.checkout_request_id,
        "ResultCode": code,
        "ResultDesc": desc,
    });
    if let super::PromptEnd::Paid(receipt) = end {
        let now = OffsetDateTime::now_utc().to_offset(crate::clock::NAIROBI);
        let date = format!(
            "{:04}{:02}{:02}{:02}{:02}{:02}",
            now.year(),
            u8::from(now.month()),
            now.day(),
            now.hour(),
            now.minute(),
            now.second()
        );
        callback["CallbackMetadata"] = json!({"Item": [
            {"Name": "Amount", "Value": prompt.amount},
            {"Name": "MpesaReceiptNumber", "Value": receipt},
            {"Name": "Balance"},
            {"Name": "TransactionDate", "Value": date.parse::<u64>().unwrap_or_default()},
            {"Name": "PhoneNumber", "Value": prompt.phone.parse::<u64>().unwrap_or_default()},
        ]});
    }
    json!({"Body": {"stkCallback": callback}})
}
