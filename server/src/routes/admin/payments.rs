//! M-PESA for staff: the payments to check (money no order was found for, and money flagged
//! because it did not pay its order), matching one to an order, marking a flagged one checked, and
//! sending a prompt to an unpaid order's phone.

use super::payment_search::PaymentSearch;
use super::query::{no_such_order, order_id};
use super::{clock_now, json_body, load_failed, private_json, today};
use crate::auth::CurrentStaff;
use crate::db::DbError;
use crate::domain::{FieldErrors, OrderReference};
use crate::error::ApiError;
use crate::lifecycle;
use crate::models::ledger::Entry;
use crate::models::mpesa::{AskRefusal, MatchRefusal, MpesaPrompt, MpesaReceipt, Recorded};
use crate::models::order::Order;
use crate::models::order_list::ListedOrder;
use crate::models::stats::Stats;
use crate::state::AppState;
use crate::views::order_detail::OrderChanged;
use crate::views::orders::AdminOrder;
use crate::views::payments::{MpesaPayment, PaymentChanged, problem_text};
use actix_web::{HttpResponse, web};
use serde::Deserialize;

use super::read::payments::load_to_check;

/// `?q=` of the payments to check.
#[derive(Debug, Default, Deserialize)]
pub struct PaymentsQuery {
    q: Option<String>,
}

/// GET /api/admin/payments?q=: the M-PESA payments to check, newest first, searched by phone
/// number, M-PESA code or amount.
pub async fn list_payments(
    state: web::Data<AppState>,
    _staff: CurrentStaff,
    query: web::Query<PaymentsQuery>,
) -> Result<HttpResponse, ApiError> {
    let search = PaymentSearch::parse(query.q.as_deref().unwrap_or_default()).map_err(ApiError::BadRequest)?;
    let list = state
        .db()
        .run(move |connection| load_to_check(connection, search.as_ref()).map_err(DbError::from))
        .await
        .map_err(load_failed)?;
    Ok(private_json(&list))
}

/// `{"orderId": "K7MX2QPD"}`
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct MatchInput {
    order_id: String,
}

/// The M-PESA code of `/api/admin/payments/{receipt}/…`: letters and digits; anything else names no
/// payment.
fn receipt_in_path(path: &str) -> Result<String, ApiError> {
    let receipt = path.trim().to_ascii_uppercase();
    let plain = (1..=40).contains(&receipt.len()) && receipt.bytes().all(|b| b.is_ascii_alphanumeric());
    plain.then_some(receipt).ok_or_else(no_such_payment)
}

fn no_such_payment() -> ApiError {
    ApiError::NotFound("There is no such payment.".to_owned())
}

/// A refusal about one field, as a 422 whose message is the reason.
fn refused(field: &'static str, message: String) -> ApiError {
    let mut fields = FieldErrors::default();
    fields.add(field, message.clone());
    ApiError::Invalid { message, fields }
}

/// POST /api/admin/payments/{receipt}/match `{"orderId": "K7MX2QPD"}`: staff pick the order an
/// unmatched payment pays. It is entered on the order's ledger whatever its amount, and the answer
/// says where the order's money stands (`paid`: nothing left to pay); one whose receipt is not an
/// M-PESA code, or is entered on another order, is matched but flagged, and the answer says why. A payment matched already, or an
/// order ID that names no order, is refused (422) and nothing changes.
pub async fn match_payment(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    receipt: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let receipt = receipt_in_path(&receipt)?;
    let input: MatchInput = json_body(&body, r#"a JSON object like {"orderId": "K7MX2QPD"}"#)?;
    let reference = OrderReference::parse(&input.order_id).ok_or_else(|| {
        refused("orderId", "An order ID is 8 letters and digits, as the table shows it after '#'.".to_owned())
    })?;
    let (by, notify, now, day) = (staff.email.clone(), state.notify_customer(), clock_now(&state), today(&state));
    let answer = state
        .db()
        .run(move |connection| {
            let matched =
                lifecycle::payment::match_to_order(connection, &receipt, reference.as_str(), &by, &notify, now)?;
            let stored = MpesaReceipt::find(connection, &receipt)?;
            let ids: Vec<&str> = stored.iter().filter_map(|found| found.order_id.as_deref()).collect();
            let references = Order::references(connection, &ids)?;
            let balance = match ids.first() {
                Some(id) => Some(Entry::balance(connection, id)?),
                None => None,
            };
            let payment = stored.map(|found| MpesaPayment::new(&found, &references));
            Ok::<_, DbError>((matched, payment, balance, Stats::load(connection, day)?))
        })
        .await
        .map_err(|source| ApiError::Storage {
            message: "The payment could not be matched. Please try again.",
            source,
        })?;
    let (matched, payment, balance, stats) = answer;
    let (paid, message) = match (matched, balance) {
        (Ok(Recorded::Paid(reference)), Some(balance)) => {
            let words = balance.staff_words();
            (balance.to_pay() == 0, format!("Matched to order {reference} and entered on its ledger: {words}."))
        }
        (Ok(Recorded::Flagged(reference, problem)), _) => {
            (false, format!("Matched to order {reference}, but not entered on its ledger. {}", problem_text(problem)))
        }
        (Ok(Recorded::AlreadyRecorded), _) => (false, "Nothing changed: this payment was recorded already.".to_owned()),
        (Ok(Recorded::Unmatched | Recorded::Paid(_)), _) | (Err(MatchRefusal::NoSuchOrder), _) => {
            return Err(refused("orderId", MatchRefusal::NoSuchOrder.message()));
        }
        (Err(MatchRefusal::NoSuchPayment), _) => return Err(no_such_payment()),
        (Err(refusal @ MatchRefusal::AlreadyMatched(_)), _) => return Err(refused("orderId", refusal.message())),
    };
    let payment = payment.ok_or_else(no_such_payment)?;
    tracing::info!(receipt = %payment.receipt, order_id = ?payment.order_id, paid, staff = %staff.email, "M-PESA payment matched by staff");
    state.wake_outbox();
    Ok(private_json(&PaymentChanged { payment, paid, message, stats }))
}

/// POST /api/admin/payments/{receipt}/checked: staff looked at a flagged payment (refunded it, or
/// recorded the order's payment another way); it leaves the list. An unmatched payment cannot be
/// checked: it is matched to its order instead.
pub async fn mark_payment_checked(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    receipt: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let receipt = receipt_in_path(&receipt)?;
    let (by, now, day) = (staff.email.clone(), clock_now(&state), today(&state));
    let answer = state
        .db()
        .run(move |connection| {
            let checked = MpesaReceipt::mark_checked(connection, &receipt, &by, now)?;
            let stored = MpesaReceipt::find(connection, &receipt)?;
            let ids: Vec<&str> = stored.iter().filter_map(|found| found.order_id.as_deref()).collect();
            let references = Order::references(connection, &ids)?;
            let payment = stored.map(|found| MpesaPayment::new(&found, &references));
            Ok::<_, DbError>((checked, payment, Stats::load(connection, day)?))
        })
        .await
        .map_err(|source| ApiError::Storage { message: "The payment could not be saved. Please try again.", source })?;
    let (checked, payment, stats) = answer;
    let payment = payment.ok_or_else(no_such_payment)?;
    if !checked {
        return Err(refused(
            "receipt",
            "This payment has no problem to check: match it to the order it pays.".to_owned(),
        ));
    }
    tracing::info!(receipt = %payment.receipt, staff = %staff.email, "flagged M-PESA payment checked");
    let message = "Marked checked.".to_owned();
    Ok(private_json(&PaymentChanged { payment, paid: false, message, stats }))
}

/// POST /api/admin/orders/{orderId}/prompt: sends the M-PESA prompt for the order's bill to the
/// customer's phone (when prompts are configured), unless the order is paid or cancelled, one was
/// sent less than a minute ago, or five in the last hour (422 with the reason).
pub async fn send_prompt(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let reference = order_id(&id)?;
    if !state.sends_prompts() {
        return Err(refused(
            "prompt",
            "M-PESA prompts are not configured: ask the customer to pay to the till, and record the payment."
                .to_owned(),
        ));
    }
    let (by, now, day) = (staff.email.clone(), clock_now(&state), today(&state));
    let limits = state.settings().mpesa.prompt_limits;
    let answer = state
        .db()
        .run(move |connection| {
            let Some(found) = Order::find_by_reference(connection, &reference)? else { return Ok(None) };
            // A paid order says so before any limit on prompts does (`ask_again` checks again, locked).
            let owed = Entry::balance(connection, &found.id)?.to_pay();
            let asked = if owed < 1 {
                Err(AskRefusal::Paid)
            } else {
                MpesaPrompt::ask_again(connection, &found.id, &by, limits, now)?
            };
            let order = Order::find(connection, &found.id)?.unwrap_or(found);
            let shown = AdminOrder::listed(&ListedOrder::of(connection, order)?);
            let stats = Stats::load(connection, day)?;
            Ok::<_, DbError>(Some((asked, shown, stats)))
        })
        .await
        .map_err(|source| ApiError::Storage { message: "The prompt could not be sent. Please try again.", source })?;
    let (asked, order, stats) = answer.ok_or_else(no_such_order)?;
    let prompt = asked.map_err(|refusal| match refusal {
        AskRefusal::NoSuchOrder => no_such_order(),
        AskRefusal::TooSoon => refused(
            "prompt",
            "A prompt went to the customer's phone less than a minute ago: ask them to check their phone.".to_owned(),
        ),
        AskRefusal::TooMany => refused(
            "prompt",
            "Five prompts went to this order in the last hour: ask the customer to pay to the till instead.".to_owned(),
        ),
        AskRefusal::PhoneLimit(again) => refused(
            "prompt",
            format!(
                "This phone number has had as many M-PESA prompts as we send (at most {} an hour and {} a day, for all its orders): {}. Ask the customer to pay to the till instead.",
                limits.per_hour,
                limits.per_day,
                AskRefusal::again_words(again)
            ),
        ),
        other => refused("prompt", other.message().to_owned()),
    })?;
    tracing::info!(order_id = %order.order.id, amount = prompt.amount, staff = %staff.email, "M-PESA prompt asked by staff");
    state.wake_prompts();
    Ok(private_json(&OrderChanged { order, stats }))
}
