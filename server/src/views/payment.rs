//! What the customer reads of an order's payment: on the order's page, on the confirmation after
//! placing it, in `GET /t/{token}/payment` (which the pages poll while a prompt is on the phone), and
//! on the receipt.

use super::time;
use crate::domain::{EntryKind, Method, OrderStatus, PaymentMethod, PromptState, Settlement};
use crate::models::ledger::Entry;
use crate::models::mpesa::MpesaPrompt;
use crate::models::order::Order;
use serde::Serialize;
use time::{Duration, PrimitiveDateTime};
use ts_rs::TS;

/// How long after a prompt reached the phone without an answer the page says "checking with
/// M-PESA": when the status query is first made.
pub const CHECKING_AFTER: Duration = crate::models::mpesa::FIRST_QUERY_AFTER;

/// Where the newest prompt to pay is, as the customer reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum PromptShown {
    /// Written or being sent: the phone shows it in a moment.
    Sending,
    /// On the phone, waiting for the PIN.
    Waiting,
    /// No answer [`CHECKING_AFTER`] after it was sent: we are asking M-PESA. Never "failed",
    /// since the money may have moved.
    Checking,
    /// Paid.
    Paid,
    /// Not paid (the words say why).
    Failed,
    /// Cancelled on the phone.
    Cancelled,
}

impl PromptShown {
    /// The state of `prompt` at `now`.
    pub fn of(prompt: &MpesaPrompt, now: PrimitiveDateTime) -> Self {
        match prompt.state {
            PromptState::Queued | PromptState::Sending => PromptShown::Sending,
            PromptState::Waiting => match prompt.sent_at {
                Some(sent) if now >= sent + CHECKING_AFTER => PromptShown::Checking,
                _ => PromptShown::Waiting,
            },
            PromptState::Paid => PromptShown::Paid,
            PromptState::Failed => PromptShown::Failed,
            PromptState::Cancelled => PromptShown::Cancelled,
        }
    }

    /// Whether something is still to happen to it (the pages poll meanwhile).
    pub fn pending(self) -> bool {
        matches!(self, PromptShown::Sending | PromptShown::Waiting | PromptShown::Checking)
    }
}

/// How long after a prompt the pages keep asking about it.
const POLL_FOR: time::Duration = time::Duration::minutes(35);

/// The newest prompt sent to the customer's phone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct PromptView {
    /// Where it is.
    pub state: PromptShown,
    /// KSh asked.
    pub amount: i32,
    /// Why it was not paid, in words for the customer (failed, cancelled).
    pub detail: Option<String>,
    /// The M-PESA code, once paid.
    pub receipt: Option<String>,
}

/// Money received or given back, as the customer reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct PaidView {
    /// A payment or a refund (a correction has the opposite amount).
    pub kind: EntryKind,
    /// How.
    pub method: Method,
    /// What the customer reads: "M-PESA prompt", "Cash", "Store credit".
    pub label: String,
    /// KSh.
    pub amount: i32,
    /// The M-PESA code, when known.
    pub code: Option<String>,
    /// When, RFC 3339.
    pub at: String,
}

impl PaidView {
    /// The view of a payment or refund entry; none for charges.
    pub fn of(entry: &Entry) -> Option<PaidView> {
        let method = entry.method?;
        Some(PaidView {
            kind: entry.kind,
            method,
            label: method.label().to_owned(),
            amount: entry.amount,
            code: entry.reference.clone().filter(|_| entry.kind == EntryKind::Payment),
            at: time(entry.recorded_at),
        })
    }
}

/// The order's payment as the customer sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CustomerPayment {
    /// How the customer chose to pay.
    pub method: PaymentMethod,
    /// Whether the site sends M-PESA prompts (Daraja configured); otherwise the till instructions.
    pub prompts: bool,
    /// KSh still to pay (the bill less what was paid), 0 when nothing.
    #[ts(type = "number")]
    pub due: i64,
    /// Where the order's money stands, from its ledger.
    pub settlement: Settlement,
    /// What the customer reads: "Paid KSh 1,200 · KSh 300 to pay", "Nothing to pay".
    pub words: String,
    /// KSh we owe the customer back (paid more than the bill, or cancelled after paying).
    #[ts(type = "number")]
    pub owed_back: i64,
    /// Whether the page offers "Keep it as credit for my next order".
    pub can_keep_credit: bool,
    /// The newest payment, once something was paid.
    pub paid: Option<PaidView>,
    /// Every payment and refund, oldest first.
    pub payments: Vec<PaidView>,
    /// The newest prompt, when prompts are on and one was written.
    pub prompt: Option<PromptView>,
    /// Whether the page offers "Send the M-PESA prompt again" (prompts on, something to pay, not
    /// cancelled; Pay Now, or picked up, or part paid).
    pub can_ask: bool,
    /// Whether the page should ask again in a few seconds: a prompt is being sent, on the phone,
    /// or being checked.
    pub poll: bool,
    /// No prompt is coming: the newest was held because the phone number had as many as the
    /// limits per phone allow. The pages give the till's steps (till, amount, reference) instead
    /// of "check your phone".
    pub pay_at_till: bool,
}

impl CustomerPayment {
    /// The payment of `order`, whose ledger is `entries` and newest prompt `latest`, at `now` (the
    /// clock the prompts' times were written by), on a site that sends prompts or not.
    pub fn new(
        order: &Order,
        entries: &[Entry],
        latest: Option<&MpesaPrompt>,
        prompts: bool,
        now: PrimitiveDateTime,
    ) -> Self {
        let balance = Entry::sum(entries);
        let payments: Vec<PaidView> = entries.iter().filter_map(PaidView::of).collect();
        let paid = payments.iter().rev().find(|view| view.kind == EntryKind::Payment && view.amount > 0).cloned();
        let prompt = latest.filter(|_| prompts).map(|prompt| PromptView {
            state: PromptShown::of(prompt, now),
            amount: prompt.amount,
            detail: prompt.detail.clone().filter(|_| !matches!(prompt.state, PromptState::Paid)),
            receipt: prompt.receipt.clone(),
        });
        let open = balance.to_pay() > 0 && order.status != OrderStatus::Cancelled;
        let held = prompts && latest.is_some_and(|prompt| prompt.held_until.is_some());
        let may_prompt = order.payment_method == PaymentMethod::PayNow
            || order.status != OrderStatus::Pending
            || balance.received() > 0;
        CustomerPayment {
            method: order.payment_method,
            prompts,
            due: balance.to_pay(),
            settlement: balance.settlement(),
            words: balance.customer_words(),
            owed_back: balance.owed_back(),
            can_keep_credit: balance.owed_back() > 0,
            // Not for ever: the status queries end about half an hour after a prompt.
            poll: open
                && prompt.as_ref().is_some_and(|prompt| prompt.state.pending())
                && latest.is_some_and(|prompt| now < prompt.created_at + POLL_FOR),
            can_ask: prompts && open && may_prompt,
            pay_at_till: held && open && order.payment_method == PaymentMethod::PayNow,
            paid,
            payments,
            prompt,
        }
    }

    /// The same without the prompt and the M-PESA code: what anyone who knows only the order ID
    /// (the confirmation looked up by it) may read.
    pub fn without_details(self) -> Self {
        let paid = self.paid.map(|paid| PaidView { code: None, ..paid });
        let payments = self.payments.into_iter().map(|view| PaidView { code: None, ..view }).collect();
        CustomerPayment { paid, payments, prompt: None, poll: false, can_ask: false, can_keep_credit: false, ..self }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const SENT: PrimitiveDateTime = datetime!(2026-11-24 16:00:00);

    fn prompt(state: PromptState) -> MpesaPrompt {
        MpesaPrompt {
            id: "p".to_owned(),
            order_id: "o".to_owned(),
            phone: "+254712345678".to_owned(),
            amount: 600,
            state,
            asked_by: "order".to_owned(),
            created_at: SENT,
            lease_until: None,
            sent_at: (state != PromptState::Queued).then_some(SENT),
            checkout_request_id: None,
            merchant_request_id: None,
            result_code: None,
            detail: None,
            receipt: None,
            resolved_at: None,
            queries: 0,
            next_query_at: None,
            raw_callback: None,
            held_until: None,
        }
    }

    #[test]
    fn a_prompt_waits_then_is_being_checked_never_failed_after_ninety_seconds() {
        let waiting = prompt(PromptState::Waiting);
        assert_eq!(PromptShown::of(&waiting, SENT + Duration::seconds(89)), PromptShown::Waiting);
        assert_eq!(PromptShown::of(&waiting, SENT + Duration::seconds(90)), PromptShown::Checking);
        assert_eq!(PromptShown::of(&prompt(PromptState::Queued), SENT), PromptShown::Sending);
        assert_eq!(PromptShown::of(&prompt(PromptState::Cancelled), SENT), PromptShown::Cancelled);
        assert!(PromptShown::Checking.pending() && !PromptShown::Failed.pending());
    }
}
