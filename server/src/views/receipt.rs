//! The receipt of an order, `/t/{token}/receipt`: the shop's details (from the shared props), the
//! order's lines and total, how and when it was paid. Printable on A4 and on 80 mm thermal paper.

use super::orders::OrderLineView;
use super::payment::CustomerPayment;
use super::time;
use crate::domain::{EntryKind, OrderStatus, PhoneNumber};
use crate::models::ledger::Entry;
use crate::models::order::{Order, OrderLine, StatusChange};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The paper the receipt is laid out for when printed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub enum Paper {
    /// A4 (or whatever the printer has): the default.
    #[default]
    #[serde(rename = "a4")]
    A4,
    /// An 80 mm thermal roll: `@page { size: 80mm 297mm; margin: 0 }`, the length made the
    /// receipt's own just before printing once the page has hydrated.
    #[serde(rename = "80mm")]
    Thermal80,
}

/// The receipt page's own props.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ReceiptProps {
    /// The order ID.
    pub id: String,
    /// The first name only, as on the order's page.
    pub customer: String,
    /// Masked: `+254 7** *** 678`.
    pub phone: String,
    /// Where the order is.
    pub status: OrderStatus,
    /// When it was placed, RFC 3339.
    pub placed_at: String,
    /// When it was delivered, RFC 3339 (the latest delivery in its history).
    pub delivered_at: Option<String>,
    /// When it was cancelled, RFC 3339, if it is: the receipt says so.
    pub cancelled_at: Option<String>,
    /// The bill's lines, the main (kg) line first.
    pub lines: Vec<OrderLineView>,
    /// KSh: the sum of the lines.
    pub total: i32,
    /// Money off the bill after it was made (a staff discount, a claim's money off), each with its
    /// reason, oldest first; a correction of one is a line of its own.
    pub money_off: Vec<MoneyOffView>,
    /// KSh: the bill after the money off (the ledger's charges), when there was any.
    #[ts(type = "number | null")]
    pub bill_after_money_off: Option<i64>,
    /// How and when it was paid, or what is due.
    pub payment: CustomerPayment,
    /// The paper chosen with `?paper=80mm`.
    pub paper: Paper,
    /// The order's page, `/t/{token}`, to go back to.
    pub order_path: String,
    /// The last day a free re-clean may be asked for (`Mon 30 Nov`), while it may be: the screen
    /// links to the order page's form.
    pub reclean_until: Option<String>,
}

/// Money taken off a bill, as the receipt lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct MoneyOffView {
    /// Why: the reason staff gave ("Claim: damaged item", "Late delivery"), or "Correction" of one.
    pub what: String,
    /// KSh off (a correction, which puts it back, is negative).
    pub amount: i32,
    /// When, RFC 3339.
    pub at: String,
}

impl MoneyOffView {
    /// The money off of the ledger's `entries`, oldest first.
    pub fn of(entries: &[Entry]) -> Vec<MoneyOffView> {
        entries
            .iter()
            .filter(|entry| entry.kind == EntryKind::Discount)
            .map(|entry| MoneyOffView {
                what: match entry.corrects {
                    Some(_) => format!("Correction: {}", entry.note),
                    None => entry.note.clone(),
                },
                amount: -entry.amount,
                at: time(entry.recorded_at),
            })
            .collect()
    }
}

impl ReceiptProps {
    /// The receipt of `order` with its `lines`, status `history`, ledger `entries` and `payment`,
    /// for `paper`.
    pub fn new(
        order: &Order,
        (lines, history, entries): (&[OrderLine], &[StatusChange], &[Entry]),
        payment: CustomerPayment,
        paper: Paper,
        token: &str,
    ) -> Self {
        let delivered = history.iter().rev().find(|change| change.status == OrderStatus::Delivered);
        let cancelled = history.iter().rev().find(|change| change.status == OrderStatus::Cancelled);
        let money_off = MoneyOffView::of(entries);
        // The bill after money off: the ledger's charges (none left once cancelled).
        let charged = Entry::sum(entries).charged;
        ReceiptProps {
            id: order.reference.clone(),
            customer: order.customer_name.split_whitespace().next().unwrap_or_default().to_owned(),
            phone: PhoneNumber::masked(&order.phone),
            status: order.status,
            placed_at: time(order.created_at),
            delivered_at: delivered
                .filter(|_| order.status == OrderStatus::Delivered)
                .map(|change| time(change.changed_at)),
            cancelled_at: cancelled
                .filter(|_| order.status == OrderStatus::Cancelled)
                .map(|change| time(change.changed_at)),
            lines: lines.iter().map(OrderLineView::from).collect(),
            total: order.total_amount,
            bill_after_money_off: (!money_off.is_empty() && order.status != OrderStatus::Cancelled).then_some(charged),
            money_off,
            payment,
            paper,
            order_path: format!("/t/{token}"),
            reclean_until: None,
        }
    }
}
