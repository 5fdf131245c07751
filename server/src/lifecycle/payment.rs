//! Payments recorded on orders, and the customer told: staff record one by hand
//! ([`record_payment`]); M-PESA reports one, by the till's confirmation ([`record_receipt`]) or a
//! prompt's callback or status query ([`resolve_prompt`]); staff match a payment M-PESA reported
//! to an order ([`match_to_order`]). An order that becomes paid texts its customer "payment
//! received", once per order. The rows are the models': the order's payment
//! (`Order::record_payment_within`), the payments M-PESA reported (`MpesaReceipt`), the prompts
//! (`MpesaPrompt`).

use crate::db::{DbConnection, write_transaction};
use crate::domain::{
    MessageKind, MpesaCode, OrderReference, PaidVia, PaymentStatus, PromptState, ReceiptProblem, ReceiptSource,
    is_known_result, prompt_result,
};
use crate::models::mpesa::{
    CODE_ELSEWHERE_WORDS, MatchRefusal, Money, MpesaPrompt, MpesaReceipt, PaidDetails, PromptEnd, ReceivedPayment,
    Recorded, Resolved, UNPROVEN_WORDS,
};
use crate::models::order::{Order, Payment, PaymentRecorded};
use crate::notify::{NotifyCustomer, once_per};
use diesel::QueryResult;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use time::PrimitiveDateTime;

/// Records a payment (or its absence), apart from the work status, in its own transaction. An
/// M-PESA code pays for one order only: a code already recorded for another order is refused (a
/// typo, or one payment message shown for two orders). An order that becomes paid texts the
/// customer as `notify` says; one paid already (a correction of how) does not text again.
pub fn record_payment(
    connection: &mut DbConnection,
    id: &str,
    payment: &Payment,
    by: &str,
    notify: &NotifyCustomer,
    now: PrimitiveDateTime,
) -> QueryResult<PaymentRecorded> {
    let attempt = |connection: &mut DbConnection| {
        write_transaction(connection, |connection| record_payment_within(connection, id, payment, by, notify, now))
    };
    match attempt(connection) {
        // Another order took the code between the check and the write; the check now sees it.
        Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => attempt(connection),
        outcome => outcome,
    }
}

/// [`record_payment`] inside the caller's transaction. A code taken by another order at the
/// same moment fails with a unique violation: the caller retries its transaction, whose check
/// then sees it.
pub fn record_payment_within(
    connection: &mut DbConnection,
    id: &str,
    payment: &Payment,
    by: &str,
    notify: &NotifyCustomer,
    now: PrimitiveDateTime,
) -> QueryResult<PaymentRecorded> {
    // Two staff recording one payment at once: the second waits, then sees it paid.
    Order::lock(connection, id)?;
    let paid_before = Order::find(connection, id)?.is_some_and(|order| order.payment_status == PaymentStatus::Paid);
    let recorded = Order::record_payment_within(connection, id, payment, by, now)?;
    if let PaymentRecorded::Recorded(order) = &recorded
        && !paid_before
        && order.payment_status == PaymentStatus::Paid
    {
        let kind = MessageKind::SmsPaymentReceived;
        let code = order.mpesa_code.clone();
        let amount = order.total_amount;
        // Once per order: a payment corrected (paid, unpaid, paid again) is not texted twice.
        notify.text(
            connection,
            kind,
            order,
            Some(once_per(kind, &order.id)),
            |texts| texts.payment_received(order, amount, code.as_deref()),
            now,
        )?;
    }
    Ok(recorded)
}

/// Records a payment M-PESA reported (a till payment), in its own transaction; see
/// [`record_receipt_within`].
pub fn record_receipt(
    connection: &mut DbConnection,
    payment: &ReceivedPayment,
    notify: &NotifyCustomer,
    now: PrimitiveDateTime,
) -> QueryResult<Recorded> {
    write_transaction(connection, |connection| record_receipt_within(connection, payment, None, notify, now))
}

/// Records a payment once (by its receipt number: a second report of it changes nothing) and
/// matches it: to `order_id` when it is a prompt's; otherwise to the order whose order ID it
/// names (`BillRefNumber`), or to the one unpaid order of its phone number with that bill. A
/// matched payment pays its order when the amount is the bill and the order is unpaid, and is
/// flagged for staff otherwise; an unmatched one waits in the staff's list. A prompt's report
/// of a payment the till reported first, unmatched, matches it to the prompt's order.
///
/// The order is locked before the receipt is written (the order every payment takes its locks
/// in), so a prompt's callback and the till's confirmation of one payment, arriving together,
/// wait for each other rather than deadlock.
fn record_receipt_within(
    connection: &mut DbConnection,
    payment: &ReceivedPayment,
    order_id: Option<&str>,
    notify: &NotifyCustomer,
    now: PrimitiveDateTime,
) -> QueryResult<Recorded> {
    let found = match order_id {
        Some(id) => Some((id.to_owned(), "prompt")),
        None if MpesaReceipt::find(connection, &payment.receipt)?.is_some() => {
            return Ok(Recorded::AlreadyRecorded);
        }
        None => MpesaReceipt::find_order(connection, payment, now)?,
    };
    if let Some((id, _)) = &found {
        Order::lock(connection, id)?;
    }
    if !MpesaReceipt::insert(connection, payment, now)? {
        if let Some(id) = order_id
            && MpesaReceipt::claim(connection, &payment.receipt, id, "prompt", now)?
        {
            return apply(connection, &payment.receipt, id, "prompt", notify, now);
        }
        return Ok(Recorded::AlreadyRecorded);
    }
    match found {
        Some((id, how)) => apply(connection, &payment.receipt, &id, how, notify, now),
        None => Ok(Recorded::Unmatched),
    }
}

/// Matches the stored payment `receipt` to the order `id` and pays it, or flags why not.
fn apply(
    connection: &mut DbConnection,
    receipt: &str,
    id: &str,
    how: &str,
    notify: &NotifyCustomer,
    now: PrimitiveDateTime,
) -> QueryResult<Recorded> {
    Order::lock(connection, id)?;
    let Some(order) = Order::find(connection, id)? else { return Ok(Recorded::Unmatched) };
    let amount = MpesaReceipt::find(connection, receipt)?.ok_or(DieselError::NotFound)?.amount;
    let code = MpesaCode::parse(receipt).ok();
    let paid_without_code = order.payment_status == PaymentStatus::Paid
        && order.paid_via == Some(PaidVia::Mpesa)
        && order.mpesa_code.is_none();
    let problem = match &code {
        None => Some(ReceiptProblem::Code),
        Some(_) if order.mpesa_code.as_deref() == Some(receipt) => None,
        Some(_) if order.payment_status == PaymentStatus::Paid && !paid_without_code => {
            Some(ReceiptProblem::AlreadyPaid)
        }
        Some(_) if amount != order.total_amount => Some(ReceiptProblem::Amount),
        Some(code) => {
            let payment = Payment::Mpesa(code.clone());
            match record_payment_within(connection, id, &payment, "M-PESA", notify, now)? {
                PaymentRecorded::Recorded(_) => None,
                PaymentRecorded::CodeUsedBy(_) => Some(ReceiptProblem::Code),
                PaymentRecorded::NoSuchOrder => return Ok(Recorded::Unmatched),
            }
        }
    };
    MpesaReceipt::set_match(connection, receipt, id, how, problem, now)?;
    Ok(match problem {
        None => Recorded::Paid(order.reference),
        Some(problem) => Recorded::Flagged(order.reference, problem),
    })
}

/// Staff match an unmatched payment to the order with the order ID `reference`: paid when the
/// amount is its bill, flagged otherwise. Two staff matching one payment at once: the first
/// wins, the second is told which order has it.
pub fn match_to_order(
    connection: &mut DbConnection,
    receipt: &str,
    reference: &str,
    staff: &str,
    notify: &NotifyCustomer,
    now: PrimitiveDateTime,
) -> QueryResult<Result<Recorded, MatchRefusal>> {
    let Some(reference) = OrderReference::parse(reference) else { return Ok(Err(MatchRefusal::NoSuchOrder)) };
    let receipt = receipt.trim().to_ascii_uppercase();
    write_transaction(connection, |connection| {
        let Some(order_id) = Order::find_by_reference(connection, &reference)?.map(|order| order.id) else {
            return Ok(Err(MatchRefusal::NoSuchOrder));
        };
        Order::lock(connection, &order_id)?;
        if MpesaReceipt::find(connection, &receipt)?.is_none() {
            return Ok(Err(MatchRefusal::NoSuchPayment));
        }
        if !MpesaReceipt::claim(connection, &receipt, &order_id, staff, now)? {
            let matched = MpesaReceipt::matched_reference(connection, &receipt)?;
            return Ok(Err(MatchRefusal::AlreadyMatched(matched.unwrap_or_default())));
        }
        Ok(Ok(apply(connection, &receipt, &order_id, staff, notify, now)?))
    })
}

/// Ends the prompt `checkout_request_id` as its callback or status query says (`code`, `desc`),
/// once: a repeated or late answer changes nothing, except that money reported (`money`, from
/// a callback) is always recorded, even for a prompt a query had called failed. A payment is
/// recorded against the prompt's order: paid when the amount is its bill, flagged for staff
/// otherwise. A status query's success carries no receipt: the order is paid without its code,
/// and the callback (or the till's confirmation) that brings it later records it. The order is
/// locked first, so a callback and a status query of one prompt, or two copies of a callback,
/// arriving together are handled one after the other.
///
/// A success callback is not taken at its word when it proves nothing: without a receipt
/// number or an amount ([`Money::Unproven`]), or with a receipt number recorded for another
/// order, the order stays unpaid, the prompt ends "failed" with words saying it is being
/// checked (never "paid" on the customer's page), and a payment to check waits in the staff's
/// list.
#[allow(clippy::too_many_arguments)]
pub fn resolve_prompt(
    connection: &mut DbConnection,
    checkout_request_id: &str,
    code: i64,
    desc: &str,
    money: &Money,
    raw: &str,
    notify: &NotifyCustomer,
    now: PrimitiveDateTime,
) -> QueryResult<Resolved> {
    write_transaction(connection, |connection| {
        let order_id = MpesaPrompt::find_by_checkout(connection, checkout_request_id)?.map(|prompt| prompt.order_id);
        // The order first, then the prompt: the order of locks every payment takes.
        if let Some(order_id) = order_id.as_deref() {
            Order::lock(connection, order_id)?;
        }
        let prompt = MpesaPrompt::find_by_checkout(connection, checkout_request_id)?;
        let received = |paid: &PaidDetails| ReceivedPayment {
            receipt: paid.receipt.clone(),
            source: ReceiptSource::Prompt,
            amount: paid.amount,
            phone: paid.phone.clone(),
            payer_name: None,
            bill_ref: None,
            paid_at: paid.paid_at,
            raw: raw.to_owned(),
        };
        let paid = match money {
            Money::Paid(paid) => Some(paid),
            Money::NotSaid | Money::Unproven => None,
        };
        let Some(prompt) = prompt else {
            let recorded = match paid {
                Some(paid) => Some(record_receipt_within(connection, &received(paid), None, notify, now)?),
                None => None,
            };
            return Ok(Resolved::Unknown(recorded));
        };
        let (state, words) = prompt_result(code);
        let money_now = state == PromptState::Paid && paid.is_some();
        // A status query found it paid, without the receipt number; here it is.
        let receipt_late = prompt.state == PromptState::Paid && prompt.receipt.is_none() && money_now;
        // The same receipt again (a repeated callback, one flagged too) changes nothing more.
        let known = paid.is_some_and(|paid| prompt.receipt.as_deref() == Some(paid.receipt.as_str()));
        if known || (!receipt_late && (prompt.state == PromptState::Paid || (prompt.state.is_final() && !money_now))) {
            return Ok(Resolved::AlreadyEnded);
        }
        let recorded = match (state, money) {
            (PromptState::Paid, Money::Paid(paid)) => {
                let recorded = record_receipt_within(connection, &received(paid), Some(&prompt.order_id), notify, now)?;
                Some(match recorded {
                    // Known already: on this order (nothing to do) or on another one, which
                    // staff must look at.
                    Recorded::AlreadyRecorded => {
                        match MpesaReceipt::flag_if_elsewhere(connection, &paid.receipt, &prompt.order_id)? {
                            Some(reference) => Recorded::Flagged(reference, ReceiptProblem::Code),
                            None => Recorded::AlreadyRecorded,
                        }
                    }
                    other => other,
                })
            }
            (PromptState::Paid, Money::Unproven) => {
                // No receipt number to store it by: a payment to check under the prompt's own
                // name (not an M-PESA code, so it never pays an order), matched to its order.
                let unproven = ReceivedPayment {
                    receipt: unproven_receipt(&prompt.id),
                    source: ReceiptSource::Prompt,
                    amount: prompt.amount,
                    phone: None,
                    payer_name: None,
                    bill_ref: None,
                    paid_at: None,
                    raw: raw.to_owned(),
                };
                Some(record_receipt_within(connection, &unproven, Some(&prompt.order_id), notify, now)?)
            }
            (PromptState::Paid, Money::NotSaid) => {
                // A status query's "paid": the amount asked, if it is still the bill. Otherwise
                // the callback or the till's confirmation brings the receipt to flag.
                let order = Order::find(connection, &prompt.order_id)?;
                let bill = order.as_ref().map(|order| order.total_amount);
                if bill.is_some_and(|bill| bill != prompt.amount) {
                    tracing::warn!(prompt = %prompt.id, asked = prompt.amount, ?bill, "a prompt for another amount than the bill was paid; the order is left unpaid for staff");
                }
                if order.is_some_and(|order| {
                    order.payment_status != PaymentStatus::Paid && order.total_amount == prompt.amount
                }) {
                    record_payment_within(
                        connection,
                        &prompt.order_id,
                        &Payment::MpesaWithoutCode,
                        "M-PESA",
                        notify,
                        now,
                    )?;
                }
                None
            }
            _ => None,
        };
        // Not shown "paid" to the customer when nothing proves this order was paid by it.
        let (state, detail) = match (money, &recorded) {
            (Money::Unproven, _) if state == PromptState::Paid => (PromptState::Failed, UNPROVEN_WORDS.to_owned()),
            (_, Some(Recorded::Flagged(_, ReceiptProblem::Code))) => {
                (PromptState::Failed, CODE_ELSEWHERE_WORDS.to_owned())
            }
            _ => match desc.trim() {
                desc if !desc.is_empty() && !is_known_result(code) => (state, format!("{words} ({desc})")),
                _ => (state, words.to_owned()),
            },
        };
        let end = PromptEnd {
            state,
            result_code: i32::try_from(code).ok(),
            detail: &detail,
            receipt: paid.map(|paid| paid.receipt.as_str()),
            raw,
        };
        MpesaPrompt::end(connection, &prompt.id, &end, now)?;
        if state == PromptState::Failed && code == 0 {
            tracing::warn!(prompt = %prompt.id, outcome = ?recorded, "an M-PESA success callback proved no payment of its order; flagged for staff");
        }
        Ok(Resolved::Ended(state, recorded))
    })
}

/// The name a success callback without a receipt number is stored under among the payments to
/// check: letters and digits (as the staff's paths take them), never an M-PESA code.
fn unproven_receipt(prompt_id: &str) -> String {
    let digits: String = prompt_id.chars().filter(char::is_ascii_alphanumeric).collect();
    format!("NOCODE{}", digits.to_ascii_uppercase())
}
