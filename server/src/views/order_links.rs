//! How staff see an order's place among others: the re-cleans asked of it (each opens its own
//! detail, as the orders list does).

use super::time;
use serde::Serialize;
use time::PrimitiveDateTime;
use ts_rs::TS;

/// A re-clean asked of the order staff have open.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RecleanedIn {
    /// The re-clean's order ID.
    pub order_id: String,
    /// When the customer asked for it, RFC 3339.
    pub requested_at: String,
    /// The labels of the lines it cleans again.
    pub items: Vec<String>,
}

impl RecleanedIn {
    /// The re-clean with order ID `order_id`, asked `at`, of the lines labelled `items`.
    pub fn new((order_id, at, items): &(String, PrimitiveDateTime, Vec<String>)) -> Self {
        RecleanedIn { order_id: order_id.clone(), requested_at: time(*at), items: items.clone() }
    }
}
