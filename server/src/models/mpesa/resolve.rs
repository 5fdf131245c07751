//! How a prompt ends: its callback or a status query says paid, cancelled or failed, once; what
//! such an answer says of money, and the words the customer reads when it proves nothing. Ending
//! a prompt and recording the money it reports as a payment of its order is
//! `lifecycle::payment`'s.

use super::prompt::MpesaPrompt;
use super::receipt::Recorded;
use crate::db::DbConnection;
use crate::db::schema::mpesa_prompts;
use crate::domain::PromptState;
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
    /// The prompt M-PESA knows by `checkout_request_id`.
    pub fn find_by_checkout(
        connection: &mut DbConnection,
        checkout_request_id: &str,
    ) -> QueryResult<Option<MpesaPrompt>> {
        mpesa_prompts::table
            .filter(mpesa_prompts::checkout_request_id.eq(checkout_request_id))
            .select(MpesaPrompt::as_select())
            .first(connection)
            .optional()
    }

    /// Ends the prompt `id` as its callback or status query says: its state and the words the
    /// customer reads, M-PESA's result code, the receipt number a callback gave, and the answer
    /// as it came; no query is due after.
    pub fn end(
        connection: &mut DbConnection,
        id: &str,
        end: &PromptEnd<'_>,
        now: PrimitiveDateTime,
    ) -> QueryResult<()> {
        diesel::update(mpesa_prompts::table.find(id))
            .set((
                mpesa_prompts::state.eq(end.state),
                mpesa_prompts::result_code.eq(end.result_code),
                mpesa_prompts::detail.eq(end.detail),
                mpesa_prompts::receipt.eq(end.receipt),
                mpesa_prompts::resolved_at.eq(now),
                mpesa_prompts::next_query_at.eq(None::<PrimitiveDateTime>),
                mpesa_prompts::lease_until.eq(None::<PrimitiveDateTime>),
                mpesa_prompts::raw_callback.eq(end.raw),
            ))
            .execute(connection)?;
        Ok(())
    }
}

/// How a prompt ended ([`MpesaPrompt::end`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PromptEnd<'a> {
    /// Paid, cancelled or failed.
    pub state: PromptState,
    /// M-PESA's `ResultCode`.
    pub result_code: Option<i32>,
    /// The words the customer reads.
    pub detail: &'a str,
    /// The M-PESA receipt number, when a callback gave one.
    pub receipt: Option<&'a str>,
    /// The callback or query answer as it came.
    pub raw: &'a str,
}
