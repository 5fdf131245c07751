//! What the dashboard's "Take a booking" panel receives: the form's choices (services, pickup
//! windows), the caller found by their phone number, and the booking as placed.

use super::orders::OrderView;
use super::pages::CatalogueProps;
use super::slots::PickupChoices;
use super::time;
use crate::domain::catalogue::Unit;
use crate::domain::{LineKind, OrderSource, OrderStatus};
use crate::models::order::{Order, OrderLine};
use crate::models::stop::Stop;
use serde::Serialize;
use std::collections::HashMap;
use ts_rs::TS;

/// `GET /api/admin/booking-form`: what the booking form offers, as the public form's props do.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BookingForm {
    /// The orderable services and the first-order discount.
    #[serde(flatten)]
    pub catalogue: CatalogueProps,
    /// The pickup windows that can be chosen now, with the places left.
    pub pickup: PickupChoices,
    /// Whether "Pay Now (M-PESA)" sends a prompt to the phone.
    pub prompts: bool,
}

/// `POST /api/admin/orders`: the order as the public API answers it, and what the panel says.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BookingPlaced {
    /// The order, as `POST /api/orders` answers it.
    #[serde(flatten)]
    pub order: OrderView,
    /// Phone or WhatsApp.
    pub source: OrderSource,
    /// The pickup window, `Wed 25 Nov, 19:00-20:00`.
    pub pickup: Option<String>,
    /// Whether the pickup was confirmed in the same step.
    pub pickup_confirmed: bool,
    /// True when the same booking was sent again with its key: nothing new was stored.
    pub replayed: bool,
}

impl BookingPlaced {
    /// The answer for `order` with its `lines` and `stops`.
    pub fn new(order: &Order, lines: &[OrderLine], stops: &[Stop], replayed: bool) -> Self {
        let pickup = stops.iter().find(|stop| stop.kind == crate::domain::StopKind::Pickup);
        BookingPlaced {
            order: OrderView::new(order, lines),
            source: order.source,
            pickup: pickup.map(|stop| stop.slot().label()),
            pickup_confirmed: pickup.is_some_and(|stop| stop.confirmed_at.is_some()),
            replayed,
        }
    }
}

/// `GET /api/admin/customers?phone=`: the caller, from their orders.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CustomerLookup {
    /// Whether this number has ordered before.
    pub found: bool,
    /// The number in its normal form, `+2547XXXXXXXX`.
    pub phone: String,
    /// The details of the last order, to fill the form with.
    pub customer: Option<CallerDetails>,
    /// The earlier orders, newest first (at most [`EARLIER_ORDERS`]).
    pub orders: Vec<EarlierOrder>,
}

/// How many earlier orders the look-up lists.
pub const EARLIER_ORDERS: i64 = 10;

/// The caller's details as their last order has them.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CallerDetails {
    /// Full name.
    pub customer_name: String,
    /// If given.
    pub email: Option<String>,
    /// Pickup location.
    pub location: String,
    /// Possibly empty.
    pub landmark: String,
    /// The map pin's latitude, degrees, if there was one.
    pub pin_lat: Option<f64>,
    /// The map pin's longitude.
    pub pin_lng: Option<f64>,
}

/// One earlier order of the caller.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EarlierOrder {
    /// The order ID.
    pub id: String,
    /// When it was placed.
    pub placed_at: String,
    /// Where it is.
    pub status: OrderStatus,
    /// KSh.
    pub total_amount: i32,
    /// `Wash & Fold 3 kg, Shirt × 2`.
    pub summary: String,
    /// How it came in.
    pub source: OrderSource,
}

impl CustomerLookup {
    /// The look-up of `phone` (normal form): `orders` newest first, with their lines by order key.
    pub fn new(phone: String, orders: &[Order], lines: &HashMap<String, Vec<OrderLine>>) -> Self {
        let customer = orders.first().map(|last| CallerDetails {
            customer_name: last.customer_name.clone(),
            email: last.email.clone(),
            location: last.location.clone(),
            landmark: last.landmark.clone(),
            pin_lat: last.pin_lat,
            pin_lng: last.pin_lng,
        });
        let orders = orders
            .iter()
            .map(|order| EarlierOrder {
                id: order.reference.clone(),
                placed_at: time(order.created_at),
                status: order.status,
                total_amount: order.total_amount,
                summary: summary(lines.get(&order.id).map_or(&[], Vec::as_slice)),
                source: order.source,
            })
            .collect();
        CustomerLookup { found: customer.is_some(), phone, customer, orders }
    }
}

/// What was ordered, in a few words: `Wash & Fold 3 kg, Shirt × 2, Next-day rush` (discounts
/// left out).
fn summary(lines: &[OrderLine]) -> String {
    let words: Vec<String> = lines
        .iter()
        .filter_map(|line| match (line.kind, line.unit) {
            (LineKind::Discount, _) => None,
            (LineKind::Surcharge, _) => Some(line.label.clone()),
            (_, Unit::Kg) => Some(format!("{} {} kg", line.label, line.quantity)),
            (_, Unit::Piece) => Some(format!("{} × {}", line.label, line.quantity)),
        })
        .collect();
    words.join(", ")
}
