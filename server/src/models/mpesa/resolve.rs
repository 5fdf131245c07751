//! How a prompt ends: its callback or a status query says paid, cancelled or failed, once; money
//! it reports is recorded as a payment of its order.

use super::prompt::MpesaPrompt;
use super::receipt::{MpesaReceipt, ReceivedPayment, Recorded};
use crate::db::schema::mpesa_prompts;
use crate::db::{DbConnection, write_transaction};
use crate::domain::{PaymentStatus, PromptState, ReceiptProblem, ReceiptSource, is_known_result, prompt_result};
use crate::models::order::{Order, Payment};
use crate::notify::NotifyCustomer;
use diesel::prelude::*;
use time::PrimitiveDateTime;

/// What the customer reads of a prompt whose success callback came without its receipt number
/// or amount: no proof of payment, so the order is not paid by it and staff check it.
pub const UNPROVEN_WORDS: &str = "M-PESA said this prompt was paid but did not give the M-PESA code, so the order is not marked paid yet: we are checking it. If M-PESA took your money, do not pay again.";
/// What the customer reads of a prompt whose success callback named an M-PESA code recorded
/// for another order (or no M-PESA code at all): the order is not paid by it and staff check it.
pub const CODE_ELSEWHERE_WORDS: &str = "M-PESA's message about this prompt does not match our records, so the order is not marked paid yet: we are checking it. If M-PESA took your money, do not pay again.";

/// What an answer about a prompt says of money.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Money {
    /// Nothing: a failure, or a status query's result (which never carries a receipt).
    NotSaid,
    /// A success callback's `CallbackMetadata`.
    Paid(PaidDetails),
    /// A success callback (`ResultCode` 0) without `CallbackMetadata`, or without a receipt
    /// number or an amount in it: no proof of a payment.
    Unproven,
}

/// The details of a payment from a success callback (`CallbackMetadata`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaidDetails {
    /// `MpesaReceiptNumber`.
    pub receipt: String,
    /// `Amount`, whole shillings.
    pub amount: i32,
    /// `PhoneNumber`, as given (2547…).
    pub phone: Option<String>,
    /// `TransactionDate`, UTC.
    pub paid_at: Option<PrimitiveDateTime>,
}

/// What a callback or a status query did to a prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolved {
    /// The prompt ended now, in this state (a payment was recorded as the receipt says).
    Ended(PromptState, Option<Recorded>),
    /// It had ended already: nothing changed (a repeated callback).
    AlreadyEnded,
    /// No prompt has that CheckoutRequestID; a payment it carried was recorded (and matched as a
    /// till payment would be).
    Unknown(Option<Recorded>),
}

impl MpesaPrompt {
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
    pub fn resolve(
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
            let order_id: Option<String> = mpesa_prompts::table
                .filter(mpesa_prompts::checkout_request_id.eq(checkout_request_id))
                .select(mpesa_prompts::order_id)
                .first(connection)
                .optional()?;
            // The order first, then the prompt: the order of locks every payment takes.
            if let Some(order_id) = order_id.as_deref() {
                Order::lock(connection, order_id)?;
            }
            let prompt: Option<MpesaPrompt> = mpesa_prompts::table
                .filter(mpesa_prompts::checkout_request_id.eq(checkout_request_id))
                .select(MpesaPrompt::as_select())
                .first(connection)
                .optional()?;
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
                    Some(paid) => Some(MpesaReceipt::record_within(connection, &received(paid), None, notify, now)?),
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
            if known
                || (!receipt_late && (prompt.state == PromptState::Paid || (prompt.state.is_final() && !money_now)))
            {
                return Ok(Resolved::AlreadyEnded);
            }
            let recorded = match (state, money) {
                (PromptState::Paid, Money::Paid(paid)) => {
                    let recorded =
                        MpesaReceipt::record_within(connection, &received(paid), Some(&prompt.order_id), notify, now)?;
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
                    Some(MpesaReceipt::record_within(connection, &unproven, Some(&prompt.order_id), notify, now)?)
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
                        Order::record_payment_within(
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
            diesel::update(mpesa_prompts::table.find(&prompt.id))
                .set((
                    mpesa_prompts::state.eq(state),
                    mpesa_prompts::result_code.eq(i32::try_from(code).ok()),
                    mpesa_prompts::detail.eq(&detail),
                    mpesa_prompts::receipt.eq(paid.map(|paid| paid.receipt.as_str())),
                    mpesa_prompts::resolved_at.eq(now),
                    mpesa_prompts::next_query_at.eq(None::<PrimitiveDateTime>),
                    mpesa_prompts::lease_until.eq(None::<PrimitiveDateTime>),
                    mpesa_prompts::raw_callback.eq(raw),
                ))
                .execute(connection)?;
            if state == PromptState::Failed && code == 0 {
                tracing::warn!(prompt = %prompt.id, outcome = ?recorded, "an M-PESA success callback proved no payment of its order; flagged for staff");
            }
            Ok(Resolved::Ended(state, recorded))
        })
    }
}

/// The name a success callback without a receipt number is stored under among the payments to
/// check: letters and digits (as the staff's paths take them), never an M-PESA code.
fn unproven_receipt(prompt_id: &str) -> String {
    let digits: String = prompt_id.chars().filter(char::is_ascii_alphanumeric).collect();
    format!("NOCODE{}", digits.to_ascii_uppercase())
}
