//! What /tracking and `GET /api/tracking` show of an order: no more personal data than the person
//! asking needs (the first name and a masked phone).

use super::time;
use crate::domain::{OrderStatus, PhoneNumber};
use crate::models::order::{Order, StatusChange};
use serde::Serialize;
use ts_rs::TS;

/// Standard turnaround (spec section 9: 3-4 days): the estimate counts 4 from pickup, or from the
/// order while it waits for pickup.
const TURNAROUND_DAYS: i64 = 4;

/// One change of the order's status.
#[derive(Debug, Clone, Serialize, TS)]
pub struct HistoryEntry {
    /// The new status.
    pub status: OrderStatus,
    /// When.
    pub at: String,
}

/// What a look-up shows of one order.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TrackedOrder {
    /// The order ID.
    pub reference: String,
    /// The first name only.
    pub customer: String,
    /// Masked: `+254 7** *** 678`.
    pub phone: String,
    /// The service's label.
    pub service: String,
    /// Kg.
    pub quantity: i32,
    /// KSh.
    pub total: i32,
    /// Where the order is.
    pub status: OrderStatus,
    /// When it was placed.
    pub placed_at: String,
    /// When it was first picked up.
    pub picked_up_at: Option<String>,
    /// When it should be done; none once delivered or cancelled.
    pub estimated_completion: Option<String>,
    /// When it was delivered.
    pub delivered_at: Option<String>,
    /// Every change, oldest first.
    pub history: Vec<HistoryEntry>,
}

impl TrackedOrder {
    /// `order` with its status `history`, oldest first.
    pub fn new(order: &Order, history: &[StatusChange]) -> Self {
        let first_time = |status: OrderStatus| history.iter().find(|c| c.status == status).map(|c| c.changed_at);
        let picked_up = first_time(OrderStatus::PickedUp);
        let delivered = first_time(OrderStatus::Delivered);
        let estimate = picked_up.unwrap_or(order.created_at) + time::Duration::days(TURNAROUND_DAYS);
        TrackedOrder {
            reference: order.reference.clone(),
            customer: order.customer_name.split_whitespace().next().unwrap_or_default().to_owned(),
            phone: PhoneNumber::masked(&order.phone),
            service: order.service_label.clone(),
            quantity: order.quantity,
            total: order.total_amount,
            status: order.status,
            placed_at: time(order.created_at),
            picked_up_at: picked_up.map(time),
            estimated_completion: (delivered.is_none() && order.status != OrderStatus::Cancelled)
                .then(|| time(estimate)),
            delivered_at: delivered.map(time),
            history: history.iter().map(|c| HistoryEntry { status: c.status, at: time(c.changed_at) }).collect(),
        }
    }
}

/// The answer of `GET /api/tracking`: the orders found.
#[derive(Debug, Clone, Serialize, TS)]
pub struct TrackingResult {
    /// Newest first.
    pub orders: Vec<TrackedOrder>,
}

/// Searched by order ID or by phone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum TrackBy {
    /// The 8-character order ID.
    Order,
    /// The phone number.
    Phone,
}

/// What the visitor searched for, echoed back.
#[derive(Debug, Clone, Serialize, TS)]
pub struct TrackingQueryEcho {
    /// Order ID or phone.
    pub by: TrackBy,
    /// What they typed (at most 40 characters).
    pub value: String,
}

/// What the tracking page shows under its form: orders, or why there are none.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(untagged)]
pub enum TrackingOutcome {
    /// Found.
    Found(TrackingResult),
    /// Refused or not found, with the status the page answers with.
    Refused {
        /// What the visitor reads.
        error: String,
        /// The HTTP status.
        status: u16,
    },
}

/// The tracking page's own props.
#[derive(Debug, Clone, Serialize, TS)]
pub struct TrackingProps {
    /// The search, if any.
    pub query: Option<TrackingQueryEcho>,
    /// Its outcome.
    pub result: Option<TrackingOutcome>,
}
