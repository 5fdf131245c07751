//! Pickup slots awaiting staff confirmation, as the dashboard's "Awaiting confirmation" panel
//! shows them, the windows a pickup can be moved to, and the answer to a confirmation or a move.

use super::time;
use crate::domain::StopKind;
use crate::domain::schedule::Slot;
use crate::lifecycle::slots::CONFIRM_WITHIN_MINUTES;
use crate::lifecycle::waiting::{Waiting, WaitingOrder};
use crate::models::order::Order;
use crate::models::stop::Stop;
use serde::Serialize;
use ts_rs::TS;

/// One order whose pickup slot nobody has confirmed yet.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AwaitingPickup {
    /// The order ID (8 characters).
    pub order_id: String,
    /// The customer's name.
    pub name: String,
    /// `+2547XXXXXXXX`.
    pub phone: String,
    /// The slot as a form sends it: `2026-11-25T19:00`.
    pub pickup: String,
    /// `Wed 25 Nov, 19:00-20:00`.
    pub pickup_label: String,
    /// When the slot was booked, RFC 3339.
    pub booked_at: String,
    /// Whole minutes since then, by the server's clock.
    pub minutes_waiting: i64,
    /// Past the promise: waiting more than 30 minutes.
    pub overdue: bool,
}

impl AwaitingPickup {
    /// `stop` of `order`, as it stands at `now`.
    pub fn new(stop: &Stop, order: &Order, now: time::PrimitiveDateTime) -> Self {
        let waited = now - stop.created_at;
        let slot = stop.slot();
        AwaitingPickup {
            order_id: order.reference.clone(),
            name: order.customer_name.clone(),
            phone: order.phone.clone(),
            pickup: slot.value(),
            pickup_label: slot.label(),
            booked_at: time(stop.created_at),
            minutes_waiting: waited.whole_minutes().max(0),
            overdue: waited > time::Duration::minutes(CONFIRM_WITHIN_MINUTES),
        }
    }
}

/// A window a pickup can be moved to.
#[derive(Debug, Clone, Serialize, TS)]
pub struct SlotOption {
    /// `2026-11-25T19:00`.
    pub value: String,
    /// `Wed 25 Nov, 19:00-20:00`.
    pub label: String,
    /// Pickups it can still take.
    pub remaining: u32,
}

impl SlotOption {
    /// `slot`, with `remaining` places.
    pub fn new(slot: Slot, remaining: u32) -> Self {
        SlotOption { value: slot.value(), label: slot.label(), remaining }
    }
}

/// Why an order waits for staff.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum WaitingKind {
    /// The valet missed the pickup (not home, not ready): book it again.
    MissedPickup,
    /// The valet missed the delivery: book it again.
    MissedDelivery,
    /// The pickup's window has passed and nobody recorded it.
    PickupOverdue,
    /// Ready for longer than the shop allows, not delivered.
    ReadyTooLong,
    /// Not found on its rack at an audit.
    MissingFromRack,
}

/// An order that waits for staff, at the top of the dashboard.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WaitingItem {
    /// The order ID.
    pub order_id: String,
    /// The customer's name.
    pub name: String,
    /// `+2547XXXXXXXX`.
    pub phone: String,
    /// Why it waits.
    pub kind: WaitingKind,
    /// What staff read: "Pickup missed, Wed 25 Nov, 19:00-20:00: Not home".
    pub what: String,
    /// The stop's slot as a form sends it (for "Book again"), for a stop that waits.
    pub slot: Option<String>,
}

impl WaitingItem {
    /// `waiting` as staff see it at `now` (UTC).
    pub fn new(waiting: &WaitingOrder, now: time::PrimitiveDateTime) -> Self {
        let order = &waiting.order;
        let (kind, what) = match &waiting.why {
            Waiting::Missed(stop) if stop.missed_by.as_deref() == Some(crate::lifecycle::late::BY) => {
                let late = how_late(stop.slot(), now);
                match stop.kind {
                    StopKind::Pickup => (
                        WaitingKind::MissedPickup,
                        format!("Pickup late, {}: nobody came, {late} ago", stop.slot().label()),
                    ),
                    StopKind::Delivery => (
                        WaitingKind::MissedDelivery,
                        format!("Delivery late, {}: not delivered, {late} ago", stop.slot().label()),
                    ),
                }
            }
            Waiting::Missed(stop) => {
                let reason = stop.missed_reason.as_deref().map(|reason| format!(": {reason}")).unwrap_or_default();
                match stop.kind {
                    StopKind::Pickup => {
                        (WaitingKind::MissedPickup, format!("Pickup missed, {}{reason}", stop.slot().label()))
                    }
                    StopKind::Delivery => {
                        (WaitingKind::MissedDelivery, format!("Delivery missed, {}{reason}", stop.slot().label()))
                    }
                }
            }
            Waiting::PickupOverdue(stop) => (
                WaitingKind::PickupOverdue,
                format!("Pickup window passed, {}: not recorded as picked up or missed", stop.slot().label()),
            ),
            Waiting::ReadyTooLong(at) => {
                let (day, clock) = crate::clock::nairobi_date_time(*at);
                (WaitingKind::ReadyTooLong, format!("Ready since {day} {clock}, not delivered"))
            }
            Waiting::MissingFromRack(rack, at) => {
                let (day, clock) = crate::clock::nairobi_date_time(*at);
                let rack = rack.as_deref().map(|rack| format!("rack {rack}")).unwrap_or_else(|| "its rack".to_owned());
                (WaitingKind::MissingFromRack, format!("Not on {rack} at the audit of {day} {clock}: find it"))
            }
        };
        WaitingItem {
            order_id: order.reference.clone(),
            name: order.customer_name.clone(),
            phone: order.phone.clone(),
            kind,
            what,
            slot: waiting.slot().map(|slot| slot.value()),
        }
    }
}

/// How long ago `slot`'s window ended at `now` (UTC): "40 min", "5 h", "3 days".
fn how_late(slot: Slot, now: time::PrimitiveDateTime) -> String {
    let end = time::PrimitiveDateTime::new(slot.day, time::Time::MIDNIGHT)
        + time::Duration::minutes(i64::from(slot.window.end))
        - time::Duration::hours(3);
    let minutes = (now - end).whole_minutes().max(0);
    match minutes {
        ..60 => format!("{minutes} min"),
        60..2880 => format!("{} h", minutes / 60),
        _ => format!("{} days", minutes / 1440),
    }
}

/// `GET /api/admin/unconfirmed`: the pickups awaiting confirmation, oldest booking first, the
/// windows they can be moved to, and the orders that wait for staff (missed stops, pickups past
/// their window, ready orders not delivered), oldest first.
#[derive(Debug, Clone, Serialize, TS)]
pub struct AwaitingList {
    /// Oldest booking first.
    pub items: Vec<AwaitingPickup>,
    /// The orders that wait, oldest first.
    pub waiting: Vec<WaitingItem>,
    /// The bookable windows from now on, full ones with 0 remaining.
    pub slots: Vec<SlotOption>,
    /// The server's time when it answered, RFC 3339.
    pub now: String,
}

impl AwaitingList {
    /// The list of `awaiting` pickups, the `waiting` orders and `slots`, at `now`.
    pub fn new(
        awaiting: &[(Stop, Order)],
        waiting: &[WaitingOrder],
        slots: &[(Slot, u32)],
        now: time::PrimitiveDateTime,
    ) -> Self {
        AwaitingList {
            items: awaiting.iter().map(|(stop, order)| AwaitingPickup::new(stop, order, now)).collect(),
            waiting: waiting.iter().map(|waiting| WaitingItem::new(waiting, now)).collect(),
            slots: slots.iter().map(|(slot, remaining)| SlotOption::new(*slot, *remaining)).collect(),
            now: time(now),
        }
    }
}

/// The answer to `POST /api/admin/orders/{orderId}/slot`: the pickup as it now is, and the list
/// after the change.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SlotConfirmed {
    /// The order ID.
    pub order_id: String,
    /// The pickup's slot, `2026-11-25T19:00`.
    pub pickup: String,
    /// `Wed 25 Nov, 19:00-20:00`.
    pub pickup_label: String,
    /// The delivery's slot, `Sat 28 Nov, 19:00-20:00`, if it has one.
    pub delivery_label: Option<String>,
    /// Who confirmed it (a staff e-mail).
    pub confirmed_by: Option<String>,
    /// When, RFC 3339.
    pub confirmed_at: Option<String>,
    /// The pickups still awaiting confirmation.
    pub awaiting: AwaitingList,
}

impl SlotConfirmed {
    /// The answer for `order`'s `pickup` and `delivery`, with the list after it.
    pub fn new(order: &Order, pickup: &Stop, delivery: Option<&Stop>, awaiting: AwaitingList) -> Self {
        SlotConfirmed {
            order_id: order.reference.clone(),
            pickup: pickup.slot().value(),
            pickup_label: pickup.slot().label(),
            delivery_label: delivery.map(|stop| stop.slot().label()),
            confirmed_by: pickup.confirmed_by.clone(),
            confirmed_at: pickup.confirmed_at.map(time),
            awaiting,
        }
    }
}
