//! How a prompt ends: its callback or a status query says paid, cancelled or failed, once; money
//! it reports is recorded as a payment of its order.

use super::prompt::MpesaPrompt;
use super::receipt::{MpesaReceipt, ReceivedPayment, Recorded};
use crate::db::schema::mpesa_prompts;
use crate::db::{DbConnection, write_transaction};
use crate::domain::{PaymentStatus, PromptState, ReceiptSource, is_known_result, prompt_result};
use crate::models::order::{NotifyCustomer, Order, Payment};
use diesel::prelude::*;
use time::PrimitiveDateTime;

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
    /// once: a repeated or late answer changes nothing, except that money reported (`paid`, from
    /// a callback) is always recorded, even for a prompt a query had called failed. A payment is
    /// recorded against the prompt's order: paid when the amount is its bill, flagged for staff
    /// otherwise. A status query's success carries no receipt: the order is paid without its code,
    /// and the callback (or the till's confirmation) that brings it later records it. The order is
    /// locked first, so a callback and a status query of one prompt, or two copies of a callback,
    /// arriving together are handled one after the other.
    #[allow(clippy::too_many_arguments)]
    pub fn resolve(
        connection: &mut DbConnection,
        checkout_request_id: &str,
        code: i64,
        desc: &str,
        paid: Option<&PaidDetails>,
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
            if !receipt_late && (prompt.state == PromptState::Paid || (prompt.state.is_final() && !money_now)) {
                return Ok(Resolved::AlreadyEnded);
            }
            let detail = match desc.trim() {
                desc if !desc.is_empty() && !is_known_result(code) => format!("{words} ({desc})"),
                _ => words.to_owned(),
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
            let recorded = match (state, paid) {
                (PromptState::Paid, Some(paid)) => {
                    Some(MpesaReceipt::record_within(connection, &received(paid), Some(&prompt.order_id), notify, now)?)
                }
                (PromptState::Paid, None) => {
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
            Ok(Resolved::Ended(state, recorded))
        })
    }
}
