//! M-PESA as staff see it: the prompts sent to a customer's phone, the payments M-PESA reported,
//! the list of payments to check (unmatched, or flagged) and the answers of matching one to an
//! order or marking it checked.

use super::time;
use crate::domain::{PromptState, ReceiptProblem, ReceiptSource};
use crate::models::mpesa::{MpesaPrompt, MpesaReceipt};
use crate::models::stats::Stats;
use serde::Serialize;
use std::collections::HashMap;
use ts_rs::TS;

/// One prompt to pay sent to the customer's phone, and what became of it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "MpesaPromptView")]
pub struct PromptView {
    /// Queued, sending, waiting, paid, failed or cancelled.
    pub state: PromptState,
    /// Why it failed, in words (M-PESA's reason, or why it could not be sent).
    pub detail: Option<String>,
    /// KSh asked.
    pub amount: i32,
    /// `+2547…`.
    pub phone: String,
    /// 'customer', 'order' (placed), 'bill' (set at pickup), or the staff member's e-mail.
    pub asked_by: String,
    /// When it was written.
    pub created_at: String,
    /// When it ended.
    pub resolved_at: Option<String>,
    /// The M-PESA code, when paid.
    pub receipt: Option<String>,
}

impl From<&MpesaPrompt> for PromptView {
    fn from(prompt: &MpesaPrompt) -> Self {
        PromptView {
            state: prompt.state,
            detail: prompt.detail.clone(),
            amount: prompt.amount,
            phone: prompt.phone.clone(),
            asked_by: prompt.asked_by.clone(),
            created_at: time(prompt.created_at),
            resolved_at: prompt.resolved_at.map(time),
            receipt: prompt.receipt.clone(),
        }
    }
}

/// One payment M-PESA reported, as staff see it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MpesaPayment {
    /// The M-PESA code (receipt number); it names the payment in the API's paths.
    pub receipt: String,
    /// A prompt's callback, or a payment to the till.
    pub source: ReceiptSource,
    /// KSh.
    pub amount: i32,
    /// The payer's number as M-PESA gave it (a till's is often masked: `2547 ***** 678`).
    pub phone: Option<String>,
    /// A till payer's first name.
    pub payer_name: Option<String>,
    /// The account number the payer typed at the till, if any.
    pub bill_ref: Option<String>,
    /// When M-PESA says it was paid.
    pub paid_at: Option<String>,
    /// When it reached us.
    pub received_at: String,
    /// The order ID of the order it is matched to; null: nobody could tell which order it pays.
    pub order_id: Option<String>,
    /// How it was matched: 'prompt', 'order-id', 'phone-and-amount', or a staff member's e-mail.
    pub matched_by: Option<String>,
    /// Why it did not pay its order.
    pub problem: Option<ReceiptProblem>,
    /// The problem in words.
    pub problem_text: Option<String>,
    /// Who checked the problem.
    pub checked_by: Option<String>,
    /// When.
    pub checked_at: Option<String>,
}

impl MpesaPayment {
    /// `receipt`, naming its order by the order ID (`references`: internal id → order ID).
    pub fn new(receipt: &MpesaReceipt, references: &HashMap<String, String>) -> Self {
        MpesaPayment {
            receipt: receipt.receipt.clone(),
            source: receipt.source,
            amount: receipt.amount,
            phone: receipt.phone.clone(),
            payer_name: receipt.payer_name.clone(),
            bill_ref: receipt.bill_ref.clone(),
            paid_at: receipt.paid_at.map(time),
            received_at: time(receipt.received_at),
            order_id: receipt.order_id.as_ref().and_then(|id| references.get(id).cloned()),
            matched_by: receipt.matched_by.clone(),
            problem: receipt.problem,
            problem_text: receipt.problem.map(|problem| problem_text(problem).to_owned()),
            checked_by: receipt.checked_by.clone(),
            checked_at: receipt.checked_at.map(time),
        }
    }
}

/// What staff read about a flagged payment.
pub fn problem_text(problem: ReceiptProblem) -> &'static str {
    match problem {
        ReceiptProblem::Amount => "The amount is not the order's bill: the order is not marked paid.",
        ReceiptProblem::AlreadyPaid => "The order was paid already: this is a second payment.",
        ReceiptProblem::Code => "The code is not an M-PESA code, or pays another order already.",
    }
}

/// `GET /api/admin/payments?q=`: the M-PESA payments staff must look at, newest first: those no
/// order was found for, and those flagged and not yet checked.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PaymentsToCheck {
    /// The payments (matching the search).
    pub items: Vec<MpesaPayment>,
    /// The search: a phone number (or its last digits), an M-PESA code (or part of it), or an
    /// amount; empty for all.
    pub q: String,
    /// Payments to check in all, whatever the search.
    pub total: i64,
}

/// The answer to matching a payment to an order, or marking it checked.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PaymentChanged {
    /// The payment as it now is.
    pub payment: MpesaPayment,
    /// Whether it paid its order.
    pub paid: bool,
    /// What happened, in words.
    pub message: String,
    /// The stat cards (and the day's takings) after it.
    pub stats: Stats,
}
