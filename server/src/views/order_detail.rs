//! An order's detail on the dashboard: its record, status history, ledger entries, and the answer
//! of a change to it.

use super::order_links::RecleanedIn;
use super::orders::AdminOrder;
use super::outbox::OutboxMessageView;
use super::payments::{MpesaPayment, PromptView};
use super::time;
use crate::domain::{EntryKind, Method, OrderStatus};
use crate::models::ledger::Entry;
use crate::models::mpesa::{MpesaPrompt, MpesaReceipt};
use crate::models::order::StatusChange;
use crate::models::order_detail::OrderRecord;
use crate::models::order_list::MoneyFacts;
use crate::models::stats::Stats;
use serde::Serialize;
use ts_rs::TS;

/// The answer to a change of an order (status or payment).
#[derive(Debug, Clone, Serialize, TS)]
pub struct OrderChanged {
    /// The order as it now is.
    pub order: AdminOrder,
    /// The stat cards after the change.
    pub stats: Stats,
}

/// One change of an order's status as staff see it: what, when, and who.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(rename = "StatusChange")]
pub struct StatusChangeView {
    /// The new status.
    pub status: OrderStatus,
    /// When, RFC 3339.
    pub at: String,
    /// The staff member's e-mail; null for the change that placed the order.
    pub by: Option<String>,
}

impl From<&StatusChange> for StatusChangeView {
    fn from(change: &StatusChange) -> Self {
        StatusChangeView { status: change.status, at: time(change.changed_at), by: change.changed_by.clone() }
    }
}

/// One entry of an order's ledger, as staff read it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LedgerEntryView {
    /// The entry's number (a correction names it).
    #[ts(type = "number")]
    pub id: i64,
    /// Charge, adjustment, discount, payment or refund.
    pub kind: EntryKind,
    /// How money came or went.
    pub method: Option<Method>,
    /// What staff read: the line, "M-PESA prompt", "Cash", "Store credit".
    pub what: String,
    /// KSh, as entered (a discount and a correction are negative).
    pub amount: i32,
    /// The M-PESA code, or a refund's reference.
    pub reference: Option<String>,
    /// Why (a discount's reason, a correction's).
    pub note: String,
    /// Who entered it: a staff member's or valet's e-mail, "M-PESA", or none (the customer, the
    /// site).
    pub by: Option<String>,
    /// When, RFC 3339.
    pub at: String,
    /// The entry this one corrects.
    #[ts(type = "number | null")]
    pub corrects: Option<i64>,
    /// Whether staff may correct it (a payment, refund or discount not corrected yet).
    pub correctable: bool,
}

impl LedgerEntryView {
    /// The view of `entry`; `corrected` when a later entry corrects it.
    pub fn new(entry: &Entry, corrected: bool) -> Self {
        let what = match (entry.kind, entry.method) {
            (_, Some(method)) if entry.corrects.is_some() => format!("Correction: {}", method.label()),
            (EntryKind::Refund, Some(method)) => format!("Refund: {}", method.label()),
            (_, Some(method)) => method.label().to_owned(),
            (EntryKind::Discount, None) if entry.corrects.is_some() => "Correction: discount".to_owned(),
            (EntryKind::Discount, None) => "Discount".to_owned(),
            (_, None) => entry.note.clone(),
        };
        let correctable = matches!(entry.kind, EntryKind::Payment | EntryKind::Refund | EntryKind::Discount)
            && entry.corrects.is_none()
            && !corrected;
        LedgerEntryView {
            id: entry.id,
            kind: entry.kind,
            method: entry.method,
            what,
            amount: entry.amount,
            reference: entry.reference.clone(),
            note: entry.note.clone(),
            by: entry.recorded_by.clone(),
            at: time(entry.recorded_at),
            corrects: entry.corrects,
            correctable,
        }
    }
}

/// `GET /api/admin/orders/{orderId}`: one order with everything the customer gave, its lines,
/// its status and payment, and what happened to it: the status history and the e-mails and texts
/// about it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OrderDetail {
    /// The order as the table shows it (with its payment).
    #[serde(flatten)]
    pub order: AdminOrder,
    /// Its ledger: every charge, payment and refund, oldest first.
    pub ledger: Vec<LedgerEntryView>,
    /// Every status change, oldest first; the first is the order being placed.
    pub history: Vec<StatusChangeView>,
    /// The e-mails and texts written about the order (to staff and to the customer), oldest first.
    pub messages: Vec<OutboxMessageView>,
    /// The M-PESA prompts sent to the customer's phone, newest first.
    pub prompts: Vec<PromptView>,
    /// The M-PESA payments matched to the order, oldest first.
    pub payments: Vec<MpesaPayment>,
    /// The staff member who took the order on the phone or WhatsApp (the author of its first
    /// history entry); null when the customer placed it.
    pub taken_by: Option<String>,
    /// A re-clean: what the customer said was wrong (the order it cleans again is `recleanOf`).
    pub reclean_problem: Option<String>,
    /// The re-cleans asked of this order, oldest first.
    pub recleans: Vec<RecleanedIn>,
}

impl OrderDetail {
    /// The order of `record` with its M-PESA: its `prompts` (newest first) and the `payments`
    /// matched to it.
    pub fn new(record: &OrderRecord, prompts: &[MpesaPrompt], payments: &[MpesaReceipt]) -> Self {
        let balance = Entry::sum(&record.entries);
        let facts = MoneyFacts {
            balance,
            prompt: prompts.first().cloned(),
            to_check: payments.iter().filter(|p| p.problem.is_some() && p.checked_at.is_none()).count() as i64,
        };
        let original = record.links.of.as_ref().map(|(reference, _)| reference.clone());
        let order =
            AdminOrder::new(&record.order, &record.lines, &record.stops, Some(&facts)).with_reclean_of(original);
        let references = std::iter::once((record.order.id.clone(), record.order.reference.clone())).collect();
        OrderDetail {
            prompts: prompts.iter().map(PromptView::from).collect(),
            payments: payments.iter().map(|payment| MpesaPayment::new(payment, &references)).collect(),
            ledger: record
                .entries
                .iter()
                .map(|entry| LedgerEntryView::new(entry, record.entries.iter().any(|e| e.corrects == Some(entry.id))))
                .collect(),
            history: record.history.iter().map(StatusChangeView::from).collect(),
            taken_by: record.history.first().and_then(|placed| placed.changed_by.clone()),
            reclean_problem: record.links.of.as_ref().map(|(_, problem)| problem.clone()),
            recleans: record.links.recleans.iter().map(RecleanedIn::new).collect(),
            messages: record
                .messages
                .iter()
                .map(|message| OutboxMessageView::new(message, Some(&record.order.reference)))
                .collect(),
            order,
        }
    }
}
