//! The receipt of an order, `/t/{token}/receipt`: the shop's details (from the shared props), the
//! order's lines and total, how and when it was paid. Printable on A4 and on 80 mm thermal paper.

use super::orders::OrderLineView;
use super::payment::CustomerPayment;
use super::time;
use crate::domain::{OrderStatus, PhoneNumber};
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
    /// The bill's lines, the main (kg) line first.
    pub lines: Vec<OrderLineView>,
    /// KSh: the sum of the lines.
    pub total: i32,
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

impl ReceiptProps {
    /// The receipt of `order` with its `lines`, status `history` and `payment`, for `paper`.
    pub fn new(
        order: &Order,
        lines: &[OrderLine],
        history: &[StatusChange],
        payment: CustomerPayment,
        paper: Paper,
        token: &str,
    ) -> Self {
        let delivered = history.iter().rev().find(|change| change.status == OrderStatus::Delivered);
        ReceiptProps {
            id: order.reference.clone(),
            customer: order.customer_name.split_whitespace().next().unwrap_or_default().to_owned(),
            phone: PhoneNumber::masked(&order.phone),
            status: order.status,
            placed_at: time(order.created_at),
            delivered_at: delivered
                .filter(|_| order.status == OrderStatus::Delivered)
                .map(|change| time(change.changed_at)),
            lines: lines.iter().map(OrderLineView::from).collect(),
            total: order.total_amount,
            payment,
            paper,
            order_path: format!("/t/{token}"),
            reclean_until: None,
        }
    }
}
