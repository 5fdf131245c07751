//! M-PESA's callbacks, behind the secret in their paths (Daraja signs nothing):
//!
//! - `POST /hooks/payments/prompt/{secret}`: a prompt's result (`Body.stkCallback`). Ends the
//!   prompt once, by its `CheckoutRequestID`; a payment it reports is recorded once, by its
//!   receipt number, and pays the order only when the amount is the bill.
//! - `POST /hooks/payments/till/confirmation/{secret}`: a payment made by hand to the till (C2B).
//!   Matched to an order by the order ID in its account reference, or by phone number and amount;
//!   otherwise it waits in the staff's list.
//! - `POST /hooks/payments/till/validation/{secret}`: accepts every payment (the till takes money
//!   for orders staff have not entered yet).
//!
//! Each is answered `{"ResultCode": 0, "ResultDesc": "Accepted"}` once stored; the raw JSON is
//! kept with what it recorded.

use super::check_secret;
use crate::clock::stored;
use crate::db::DbError;
use crate::domain::{ReceiptSource, parse_daraja_time};
use crate::error::ApiError;
use crate::lifecycle;
use crate::models::mpesa::{Money, PaidDetails, ReceivedPayment, Resolved};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::{Value, json};

/// The longest id or receipt number taken (Daraja's CheckoutRequestIDs are about 30 characters,
/// receipts 10).
const MAX_ID: usize = 100;

/// What Daraja expects back.
fn accepted() -> HttpResponse {
    HttpResponse::Ok().json(json!({"ResultCode": 0, "ResultDesc": "Accepted"}))
}

fn bad(message: &str) -> ApiError {
    ApiError::BadRequest(message.to_owned())
}

/// A JSON body; the secret is checked before it is read.
fn json_body(body: &[u8]) -> Result<Value, ApiError> {
    serde_json::from_slice(body).map_err(|_| bad("The body must be JSON (an M-PESA callback)."))
}

/// A text field (or a number sent for it), trimmed, without control characters.
fn text(value: Option<&Value>) -> Option<String> {
    let text = match value? {
        Value::String(text) => text.trim().to_owned(),
        Value::Number(number) => number.to_string(),
        _ => return None,
    };
    Some(text.chars().filter(|c| !c.is_control()).collect::<String>()).filter(|text| !text.is_empty())
}

/// An identifier: letters, digits and `_-.`, at most [`MAX_ID`].
fn identifier(value: Option<&Value>) -> Option<String> {
    text(value).filter(|id| {
        id.len() <= MAX_ID && id.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
    })
}

/// Whole shillings from `1.0`, `"10.00"` or `10`; none for fractions, zero or less.
fn shillings(value: Option<&Value>) -> Option<i32> {
    let amount = match value? {
        Value::Number(number) => number.as_f64()?,
        Value::String(text) => text.trim().parse::<f64>().ok()?,
        _ => return None,
    };
    let whole = amount.round();
    ((amount - whole).abs() < 0.005 && (1.0..=10_000_000.0).contains(&whole)).then_some(whole as i32)
}

/// A prompt's callback, read.
struct PromptCallback {
    checkout_request_id: String,
    code: i64,
    desc: String,
    money: Money,
}

fn prompt_callback(body: &Value) -> Result<PromptCallback, ApiError> {
    let callback = body
        .pointer("/Body/stkCallback")
        .ok_or_else(|| bad("Body.stkCallback is missing: this is not an M-PESA prompt's callback."))?;
    let checkout_request_id = identifier(callback.get("CheckoutRequestID"))
        .ok_or_else(|| bad("Body.stkCallback.CheckoutRequestID must be the prompt's id."))?;
    let code = match callback.get("ResultCode") {
        Some(Value::Number(number)) => number.as_i64(),
        Some(Value::String(text)) => text.trim().parse().ok(),
        _ => None,
    }
    .ok_or_else(|| bad("Body.stkCallback.ResultCode must be a number."))?;
    let desc: String = text(callback.get("ResultDesc")).unwrap_or_default().chars().take(200).collect();
    let item = |name: &str| {
        callback.pointer("/CallbackMetadata/Item").and_then(Value::as_array).and_then(|items| {
            items
                .iter()
                .find(|item| item.get("Name").and_then(Value::as_str) == Some(name))
                .and_then(|i| i.get("Value"))
        })
    };
    // A success must say what was paid: without the receipt number or the amount it proves no
    // payment, and is stored for staff to check rather than refused (Daraja would not send it again).
    let present = |name: &str| item(name).is_some_and(|value| !value.is_null());
    let money = if code != 0 {
        Money::NotSaid
    } else if present("MpesaReceiptNumber") && present("Amount") {
        let receipt = identifier(item("MpesaReceiptNumber"))
            .ok_or_else(|| bad("CallbackMetadata MpesaReceiptNumber must be letters and digits."))?;
        let amount = shillings(item("Amount"))
            .ok_or_else(|| bad("CallbackMetadata Amount must be whole shillings, at least 1."))?;
        Money::Paid(PaidDetails {
            receipt: receipt.to_ascii_uppercase(),
            amount,
            phone: text(item("PhoneNumber")).map(|phone| phone.chars().take(40).collect()),
            paid_at: text(item("TransactionDate")).as_deref().and_then(parse_daraja_time),
        })
    } else {
        Money::Unproven
    };
    Ok(PromptCallback { checkout_request_id, code, desc, money })
}

/// `POST /hooks/payments/prompt/{secret}`.
pub async fn prompt_result(
    state: web::Data<AppState>,
    request: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    check_secret(&request, state.settings().mpesa.callback_secret.as_ref())?;
    let raw = json_body(&body)?;
    let callback = prompt_callback(&raw)?;
    let now = stored(state.settings().clock.now());
    let notify = state.notify_customer();
    let raw = raw.to_string();
    let resolved = state
        .db()
        .run(move |c| {
            let PromptCallback { checkout_request_id, code, desc, money } = callback;
            lifecycle::payment::resolve_prompt(c, &checkout_request_id, code, &desc, &money, &raw, &notify, now)
                .map_err(DbError::from)
        })
        .await?;
    match &resolved {
        Resolved::Unknown(recorded) => {
            tracing::warn!(outcome = ?recorded, "an M-PESA prompt callback for a CheckoutRequestID we do not know")
        }
        _ => tracing::info!(outcome = ?resolved, "M-PESA prompt callback"),
    }
    state.wake_outbox();
    Ok(accepted())
}

/// A till confirmation, read.
fn till_payment(body: &Value) -> Result<ReceivedPayment, ApiError> {
    let receipt = identifier(body.get("TransID"))
        .ok_or_else(|| bad("TransID must be the M-PESA receipt number: letters and digits."))?;
    let amount =
        shillings(body.get("TransAmount")).ok_or_else(|| bad("TransAmount must be whole shillings, at least 1."))?;
    let short = |name: &str, max: usize| text(body.get(name)).map(|value| value.chars().take(max).collect::<String>());
    let name = ["FirstName", "MiddleName", "LastName"]
        .iter()
        .filter_map(|field| short(field, 40))
        .collect::<Vec<_>>()
        .join(" ");
    Ok(ReceivedPayment {
        receipt: receipt.to_ascii_uppercase(),
        source: ReceiptSource::Till,
        amount,
        phone: short("MSISDN", 80),
        payer_name: Some(name).filter(|name| !name.is_empty()),
        bill_ref: short("BillRefNumber", 40),
        paid_at: short("TransTime", 20).as_deref().and_then(parse_daraja_time),
        raw: body.to_string(),
    })
}

/// `POST /hooks/payments/till/confirmation/{secret}`.
pub async fn till_confirmation(
    state: web::Data<AppState>,
    request: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    check_secret(&request, state.settings().mpesa.callback_secret.as_ref())?;
    let payment = till_payment(&json_body(&body)?)?;
    let now = stored(state.settings().clock.now());
    let notify = state.notify_customer();
    let recorded = state
        .db()
        .run(move |c| lifecycle::payment::record_receipt(c, &payment, &notify, now).map_err(DbError::from))
        .await?;
    tracing::info!(outcome = ?recorded, "M-PESA till confirmation");
    state.wake_outbox();
    Ok(accepted())
}

/// `POST /hooks/payments/till/validation/{secret}`: every payment is welcome.
pub async fn till_validation(state: web::Data<AppState>, request: HttpRequest) -> Result<HttpResponse, ApiError> {
    check_secret(&request, state.settings().mpesa.callback_secret.as_ref())?;
    Ok(accepted())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_whole_shillings() {
        assert_eq!(shillings(Some(&json!(1.0))), Some(1));
        assert_eq!(shillings(Some(&json!("1500.00"))), Some(1500));
        assert_eq!(shillings(Some(&json!(12.5))), None);
        assert_eq!(shillings(Some(&json!(0))), None);
        assert_eq!(shillings(Some(&json!("ten"))), None);
    }

    #[test]
    fn a_success_callback_gives_its_receipt_amount_phone_and_time() {
        let body = json!({"Body": {"stkCallback": {
            "MerchantRequestID": "29115-34620561-1", "CheckoutRequestID": "ws_CO_191220191020363925",
            "ResultCode": 0, "ResultDesc": "The service request is processed successfully.",
            "CallbackMetadata": {"Item": [
                {"Name": "Amount", "Value": 1.0}, {"Name": "MpesaReceiptNumber", "Value": "qkh94m1z11"},
                {"Name": "Balance"}, {"Name": "TransactionDate", "Value": 20191219102115_u64},
                {"Name": "PhoneNumber", "Value": 254708374149_u64}]}}}});
        let callback = prompt_callback(&body).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(callback.checkout_request_id, "ws_CO_191220191020363925");
        let Money::Paid(paid) = callback.money else { panic!("paid") };
        assert_eq!(paid.receipt, "QKH94M1Z11");
        assert_eq!(paid.amount, 1);
        assert_eq!(paid.phone.as_deref(), Some("254708374149"));
        assert_eq!(paid.paid_at, Some(time::macros::datetime!(2019-12-19 07:21:15)));
        let cancelled = json!({"Body": {"stkCallback": {"CheckoutRequestID": "ws_CO_1", "ResultCode": 1032,
            "ResultDesc": "Request cancelled by user"}}});
        assert!(prompt_callback(&cancelled).is_ok_and(|c| c.code == 1032 && c.money == Money::NotSaid));
        assert!(prompt_callback(&json!({"Body": {}})).is_err());
        let unproven = json!({"Body": {"stkCallback": {"CheckoutRequestID": "ws_CO_1", "ResultCode": 0,
            "ResultDesc": "The service request is processed successfully."}}});
        assert!(prompt_callback(&unproven).is_ok_and(|c| c.money == Money::Unproven));
        let no_amount = json!({"Body": {"stkCallback": {"CheckoutRequestID": "ws_CO_1", "ResultCode": 0,
            "CallbackMetadata": {"Item": [{"Name": "MpesaReceiptNumber", "Value": "QKH94M1Z11"}]}}}});
        assert!(prompt_callback(&no_amount).is_ok_and(|c| c.money == Money::Unproven));
    }
}
