//! An order's money from the dashboard, each change an entry added to its ledger: a payment taken
//! by hand (cash, or an M-PESA code), a refund, a discount with its reason, what is owed back kept
//! as store credit, and a mistake corrected. And the ledger's views across orders: the takings of
//! any day by method, a day's cash-up by who holds the cash (with the handovers staff record), the
//! balances still due and the credit held. An order is named in the path by its order ID.

use super::query::{no_such_order, order_id};
use super::{json_body, load_failed, private_json, today};
use crate::auth::CurrentStaff;
use crate::db::{DbConnection, DbError, write_transaction};
use crate::domain::{FieldErrors, Loose, Method, MpesaCode, OrderReference, shillings};
use crate::error::ApiError;
use crate::lifecycle;
use crate::lifecycle::money::{MAX_AMOUNT, MoneyRefusal};
use crate::lifecycle::payment::StaffPayment;
use crate::models::ledger::{Handover, NewHandover};
use crate::models::order::Order;
use crate::models::order_list::ListedOrder;
use crate::models::stats::Stats;
use crate::routes::placing::key_header;
use crate::state::AppState;
use crate::views::money::CashUp;
use crate::views::order_detail::OrderChanged;
use crate::views::orders::AdminOrder;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use time::Date;

use super::read::money::{load_balances, load_cash_up};

/// `{"method": "cash"|"mpesa", "amount": 500, "mpesaCode": "QJK3L5X9TZ", "takenBy": "otieno@…"}`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PaymentInput {
    method: Option<String>,
    amount: Option<Loose>,
    mpesa_code: Option<String>,
    taken_by: Option<String>,
}

/// `{"amount": 300, "method": "mpesa-reversal"|"cash"|"credit", "reference": "…", "note": "…"}`.
#[derive(Debug, Deserialize)]
struct RefundInput {
    amount: Option<Loose>,
    method: Option<String>,
    reference: Option<String>,
    note: Option<String>,
}

/// `{"amount": 200, "reason": "…"}`.
#[derive(Debug, Deserialize)]
struct DiscountInput {
    amount: Option<Loose>,
    reason: Option<String>,
}

/// `{"reason": "…"}`.
#[derive(Debug, Deserialize)]
struct CorrectionInput {
    reason: Option<String>,
}

/// `{"holder": "valet@…", "day": "2026-11-25", "amount": 4500, "note": "…"}`.
#[derive(Debug, Deserialize)]
struct HandoverInput {
    holder: Option<String>,
    day: Option<String>,
    amount: Option<Loose>,
    note: Option<String>,
}

/// `?day=2026-11-25`
#[derive(Debug, Deserialize)]
pub struct DayQuery {
    day: Option<String>,
}

/// A whole number of shillings from 1 to [`MAX_AMOUNT`], or a message for `field`.
fn amount(value: Option<&Loose>, required: bool, fields: &mut FieldErrors, field: &'static str) -> Option<i32> {
    let message = format!("Enter an amount in whole shillings, from 1 to {MAX_AMOUNT}.");
    match value.map(Loose::whole_number) {
        None | Some(Ok(None)) if !required => None,
        Some(Ok(Some(amount))) if (1..=i64::from(MAX_AMOUNT)).contains(&amount) => i32::try_from(amount).ok(),
        _ => {
            fields.add(field, message);
            None
        }
    }
}

fn refused(refusal: MoneyRefusal) -> ApiError {
    match refusal {
        MoneyRefusal::NotFound => ApiError::NotFound(refusal.to_string()),
        MoneyRefusal::CodeUsed(reference) => {
            let mut fields = FieldErrors::default();
            fields.add(
                "mpesaCode",
                format!("This M-PESA code is already recorded for order {reference}. Check the code in the customer's M-PESA message."),
            );
            ApiError::invalid(fields)
        }
        MoneyRefusal::Reason => one("reason", refusal.to_string()),
        MoneyRefusal::Amount(_) | MoneyRefusal::MoreThanOwed(_) => one("amount", refusal.to_string()),
        MoneyRefusal::Method(_) => one("method", refusal.to_string()),
        MoneyRefusal::NothingToPay
        | MoneyRefusal::NotCorrectable(_)
        | MoneyRefusal::CreditSpent(_)
        | MoneyRefusal::GivenBack(_) => ApiError::Conflict(refusal.to_string()),
    }
}

fn one(field: &'static str, message: String) -> ApiError {
    let mut fields = FieldErrors::default();
    fields.add(field, message);
    ApiError::invalid(fields)
}

/// Runs `change` on the order with order ID `reference` in one transaction, then answers the
/// order as the table shows it and the stat cards (today's takings change with it).
async fn change_money(
    state: &AppState,
    reference: OrderReference,
    what: &'static str,
    change: impl FnOnce(&mut DbConnection, &str) -> diesel::QueryResult<Result<(), MoneyRefusal>> + Send + 'static,
) -> Result<HttpResponse, ApiError> {
    let day = today(state);
    let outcome = state
        .db()
        .run(move |connection| {
            let Some(found) = Order::find_by_reference(connection, &reference)? else { return Ok(None) };
            let done = write_transaction(connection, |connection| change(connection, &found.id))?;
            if let Err(refusal) = done {
                return Ok(Some(Err(refusal)));
            }
            let order = Order::find(connection, &found.id)?.unwrap_or(found);
            let shown = AdminOrder::listed(&ListedOrder::of(connection, order)?);
            let stats = Stats::load(connection, day)?;
            Ok::<_, DbError>(Some(Ok(OrderChanged { order: shown, stats })))
        })
        .await
        .map_err(|source| ApiError::Storage { message: what, source })?;
    let changed = outcome.ok_or_else(no_such_order)?.map_err(refused)?;
    state.wake_outbox();
    Ok(private_json(&changed))
}

/// POST /api/admin/orders/{orderId}/payment: a payment taken by hand, entered under the staff
/// member (cash they hold counts in their cash-up), or, for cash with `takenBy`, under the staff
/// member or valet who took it (the entry says who typed it). The amount defaults to what the
/// order owes; an M-PESA code that M-PESA reported already is matched with its own amount.
pub async fn record_payment(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    id: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let input: PaymentInput =
        json_body(&body, r#"a JSON object like {"method": "mpesa", "mpesaCode": "QJK3L5X9TZ", "amount": 1500}"#)?;
    let reference = order_id(&id)?;
    let mut fields = FieldErrors::default();
    let amount = amount(input.amount.as_ref(), false, &mut fields, "amount");
    let payment = match input.method.as_deref().map(str::trim) {
        Some("cash") => Some(StaffPayment::Cash(amount)),
        Some("mpesa") => match MpesaCode::parse(input.mpesa_code.as_deref().unwrap_or_default()) {
            Ok(code) => Some(StaffPayment::Mpesa(code, amount)),
            Err(message) => {
                fields.add("mpesaCode", message);
                None
            }
        },
        _ => {
            fields.add("method", "Choose how it was paid: mpesa or cash.");
            None
        }
    };
    let taken_by = input.taken_by.as_deref().map(str::trim).filter(|taker| !taker.is_empty());
    let taken_by = match (taken_by, &payment) {
        (None, _) => None,
        (Some(taker), Some(StaffPayment::Cash(_))) => Some(taker.to_lowercase()),
        (Some(_), _) => {
            fields.add("takenBy", "Only cash is taken by someone: leave takenBy out for an M-PESA code.");
            None
        }
    };
    let Some(payment) = payment.filter(|_| fields.is_empty()) else { return Err(ApiError::invalid(fields)) };
    let taker = match taken_by {
        None => None,
        Some(taker) => Some(active_account(&state, taker).await?),
    };
    let (by, now, notify) = (staff.email.clone(), state.now(), state.notify_customer());
    tracing::info!(order = %reference.as_str(), staff = %staff.email, taken_by = taker.as_deref(), "payment recorded");
    change_money(&state, reference, "The payment could not be saved. Please try again.", move |connection, id| {
        let recorded = match (&payment, taker) {
            (StaffPayment::Cash(amount), Some(taker)) => {
                lifecycle::payment::record_cash_taken_by(connection, id, *amount, (&taker, &by), &notify, now)?
            }
            _ => lifecycle::payment::record_payment_within(connection, id, &payment, &by, true, &notify, now)?,
        };
        Ok(recorded.map(|_| ()))
    })
    .await
}

/// The e-mail of the account `email` names if it may hold cash (not disabled); a 422 naming
/// `takenBy` otherwise.
async fn active_account(state: &AppState, email: String) -> Result<String, ApiError> {
    let asked = email.clone();
    let found = state
        .db()
        .run(move |connection| crate::models::staff::Staff::find_by_email(connection, &asked).map_err(DbError::from))
        .await
        .map_err(|source| ApiError::Storage { message: "The payment could not be saved. Please try again.", source })?;
    match found {
        Some(account) if account.disabled_at.is_none() => Ok(account.email),
        _ => Err(one(
            "takenBy",
            format!("There is no active account {email}: cash is entered under the staff member or valet who took it."),
        )),
    }
}

/// POST /api/admin/orders/{orderId}/refund: money given back (an M-PESA reversal done by hand
/// from the till's app, cash, or kept as store credit), at most what the order owes back.
pub async fn record_refund(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    id: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let input: RefundInput = json_body(
        &body,
        r#"a JSON object like {"amount": 300, "method": "mpesa-reversal", "reference": "QJK3L5X9TZ"}"#,
    )?;
    let reference = order_id(&id)?;
    let mut fields = FieldErrors::default();
    let amount = amount(input.amount.as_ref(), true, &mut fields, "amount");
    let method = match input.method.as_deref().map(str::trim).and_then(Method::parse).filter(|m| m.refunds()) {
        Some(method) => Some(method),
        None => {
            fields.add("method", "Choose how it goes back: mpesa-reversal, cash or credit.");
            None
        }
    };
    let text = |value: Option<String>, field: &'static str, fields: &mut FieldErrors| match crate::domain::optional_text(
        value.as_deref(),
        field,
        200,
        false,
    ) {
        Ok(text) => text.unwrap_or_default(),
        Err(message) => {
            fields.add(field, message);
            String::new()
        }
    };
    let code = text(input.reference, "reference", &mut fields);
    let note = text(input.note, "note", &mut fields);
    let (Some(amount), Some(method)) = (amount, method) else { return Err(ApiError::invalid(fields)) };
    if !fields.is_empty() {
        return Err(ApiError::invalid(fields));
    }
    let (by, now, notify) = (staff.email.clone(), state.now(), state.notify_customer());
    change_money(&state, reference, "The refund could not be saved. Please try again.", move |connection, id| {
        let code = Some(code.as_str()).filter(|code| !code.is_empty());
        if let Err(refused) = lifecycle::money::refund(connection, id, method, amount, code, &note, &by, now)? {
            return Ok(Err(refused));
        }
        let told = lifecycle::money::Told::Refunded(i64::from(amount), method);
        lifecycle::money::tell(connection, id, told, &notify, now)?;
        Ok(Ok(()))
    })
    .await
}

/// POST /api/admin/orders/{orderId}/discount: a discount with its reason, at most what the order
/// costs.
pub async fn give_discount(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    id: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let input: DiscountInput =
        json_body(&body, r#"a JSON object like {"amount": 200, "reason": "Stain not removed"}"#)?;
    let reference = order_id(&id)?;
    let mut fields = FieldErrors::default();
    let amount = amount(input.amount.as_ref(), true, &mut fields, "amount");
    let Some(amount) = amount else { return Err(ApiError::invalid(fields)) };
    let reason = input.reason.unwrap_or_default();
    let (by, now) = (staff.email.clone(), state.now());
    change_money(&state, reference, "The discount could not be saved. Please try again.", move |connection, id| {
        Ok(lifecycle::money::discount(connection, id, amount, &reason, &by, now)?.map(|_| ()))
    })
    .await
}

/// POST /api/admin/orders/{orderId}/credit: what the order owes back kept as store credit for the
/// customer's phone number (used by its next order).
pub async fn keep_credit(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let reference = order_id(&id)?;
    let (by, now) = (staff.email.clone(), state.now());
    change_money(&state, reference, "The credit could not be saved. Please try again.", move |connection, id| {
        Ok(lifecycle::money::keep_as_credit(connection, id, &by, now)?.map(|_| ()))
    })
    .await
}

/// POST /api/admin/orders/{orderId}/entries/{entryId}/correct `{"reason": …}`: a payment, refund
/// or discount entered by mistake, undone by an entry of the opposite amount.
pub async fn correct_entry(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    path: web::Path<(String, String)>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let input: CorrectionInput = json_body(&body, r#"a JSON object like {"reason": "Typed on the wrong order"}"#)?;
    let (id, entry) = path.into_inner();
    let reference = order_id(&id)?;
    let entry: i64 = entry.trim().parse().map_err(|_| ApiError::NotFound("There is no such entry.".to_owned()))?;
    let reason = input.reason.unwrap_or_default();
    let (by, now, notify) = (staff.email.clone(), state.now(), state.notify_customer());
    change_money(&state, reference, "The correction could not be saved. Please try again.", move |connection, id| {
        if let Err(refused) = lifecycle::money::correct(connection, id, entry, &reason, &by, now)? {
            return Ok(Err(refused));
        }
        lifecycle::money::tell(connection, id, lifecycle::money::Told::Corrected(entry), &notify, now)?;
        Ok(Ok(()))
    })
    .await
}

/// The day asked for (`YYYY-MM-DD`), or today in Nairobi.
fn day_of(state: &AppState, day: Option<&str>) -> Result<Date, ApiError> {
    match day.map(str::trim).filter(|day| !day.is_empty()) {
        None => Ok(today(state)),
        Some(day) => Date::parse(day, &time::format_description::well_known::Iso8601::DATE)
            .map_err(|_| ApiError::BadRequest(format!("'{day}' is not a day: use YYYY-MM-DD, like 2026-11-25."))),
    }
}

/// GET /api/admin/cash-up?day=: the day's takings by method, and its cash by who holds it: what
/// they collected (entered under their name), what they handed in, and what they still hold.
pub async fn show_cash_up(
    state: web::Data<AppState>,
    _staff: CurrentStaff,
    query: web::Query<DayQuery>,
) -> Result<HttpResponse, ApiError> {
    let day = day_of(&state, query.day.as_deref())?;
    let cash_up = state.db().run(move |connection| load_cash_up(connection, day)).await.map_err(load_failed)?;
    Ok(private_json(&cash_up))
}

/// POST /api/admin/cash-up: cash handed in at the shop for a day, counted by staff: at most what
/// its holder still holds of that day's cash (refused with the figure otherwise). The same
/// `Idempotency-Key` again is the same handover: answered with the cash-up, not recorded twice.
pub async fn record_handover(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    request: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let key = key_header(&request)?;
    let input: HandoverInput =
        json_body(&body, r#"a JSON object like {"holder": "valet@example.com", "day": "2026-11-25", "amount": 4500}"#)?;
    let mut fields = FieldErrors::default();
    let holder = input.holder.as_deref().map(str::trim).unwrap_or_default().to_lowercase();
    if holder.is_empty() || holder.len() > 254 {
        fields.add("holder", "Say whose cash it is (the valet's e-mail).");
    }
    let day = match day_of(&state, input.day.as_deref()) {
        Ok(day) => Some(day),
        Err(_) => {
            fields.add("day", "Give the day the cash was collected, like 2026-11-25.");
            None
        }
    };
    let handed = match input.amount.as_ref().map(Loose::whole_number) {
        Some(Ok(Some(amount))) if (0..=i64::from(MAX_AMOUNT)).contains(&amount) => i32::try_from(amount).ok(),
        _ => {
            fields.add("amount", format!("Enter the cash counted in whole shillings, from 0 to {MAX_AMOUNT}."));
            None
        }
    };
    let note = match crate::domain::optional_text(input.note.as_deref(), "note", 200, false) {
        Ok(note) => note.unwrap_or_default(),
        Err(message) => {
            fields.add("note", message);
            String::new()
        }
    };
    let (Some(day), Some(handed)) = (day, handed) else { return Err(ApiError::invalid(fields)) };
    if !fields.is_empty() {
        return Err(ApiError::invalid(fields));
    }
    let (by, now) = (staff.email.clone(), state.now());
    let outcome = state
        .db()
        .run(move |connection| {
            write_transaction(connection, |connection| {
                let handover =
                    NewHandover { holder: &holder, day, amount: handed, note: &note, by: &by, key: key.as_deref() };
                hand_in(connection, &handover, now)
            })
        })
        .await
        .map_err(|source| ApiError::Storage { message: "The cash could not be saved. Please try again.", source })?;
    Ok(private_json(&outcome?))
}

/// Records `handover` unless its key was used already (then the cash-up as it is, if the key was
/// for the same handover) or it is more than its holder still holds of the day's cash; under the
/// holder's lock for that day, so that handovers at the same moment cannot both take the same cash.
fn hand_in(
    connection: &mut DbConnection,
    handover: &NewHandover<'_>,
    now: time::PrimitiveDateTime,
) -> Result<Result<CashUp, ApiError>, DbError> {
    let NewHandover { holder, day, amount, key, .. } = *handover;
    crate::db::lock_until_commit(connection, &format!("cash of {holder} on {day}"))?;
    if let Some(key) = key
        && let Some(earlier) = Handover::with_key(connection, key)?
    {
        if (earlier.holder.as_str(), earlier.day, earlier.amount) != (holder, day, amount) {
            return Ok(Err(ApiError::Conflict(
                "This Idempotency-Key was already used for another handover.".to_owned(),
            )));
        }
        return Ok(Ok(load_cash_up(connection, day)?));
    }
    let before = load_cash_up(connection, day)?;
    let held = before.holders.iter().find(|h| h.holder == holder).map_or(0, |h| h.still_held);
    if i64::from(amount) > held {
        let message = if held > 0 {
            format!("{holder} holds KSh {} of this day's cash; a handover cannot be more.", shillings(held))
        } else {
            format!("{holder} holds none of this day's cash.")
        };
        return Ok(Err(one("amount", message)));
    }
    Handover::add(connection, handover, now)?;
    Ok(Ok(load_cash_up(connection, day)?))
}

/// GET /api/admin/balances: the orders that still owe money (oldest first), those that owe money
/// back (refunds due), and the store credit phone numbers hold.
pub async fn show_balances(state: web::Data<AppState>, staff: CurrentStaff) -> Result<HttpResponse, ApiError> {
    let role = staff.role;
    let balances = state.db().run(move |connection| load_balances(connection, role)).await.map_err(load_failed)?;
    Ok(private_json(&balances))
}
