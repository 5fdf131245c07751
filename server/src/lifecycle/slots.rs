//! Staff confirming pickup slots (the home page promises a slot confirmed within 30 minutes of
//! booking): the pickups awaiting confirmation, the windows a pickup can be moved to, and
//! confirming or moving one; and staff moving a delivery, or booking a missed pickup or delivery
//! again. A confirmation records who and when, and the customer's e-mail and text about it go into
//! the outbox in the same transaction. Moves go through the lifecycle ([`super::change`]).

use super::{Context, LifeError, change};
use crate::db::{DbConnection, write_transaction};
use crate::domain::lifecycle::{Event, Refusal};
use crate::domain::schedule::{Schedule, Slot, SlotRefusal};
use crate::domain::{MessageKind, OrderReference, OrderStatus, StopKind, StopState};
use crate::models::order::Order;
use crate::models::outbox::OutboxMessage;
use crate::models::stop::{BookError, Stop};
use crate::notify::{NotifyCustomer, email};
use diesel::prelude::*;
use time::{Date, OffsetDateTime};

/// The promise: a slot booked online is confirmed within this many minutes.
pub const CONFIRM_WITHIN_MINUTES: i64 = 30;

/// The most pickups the dashboard lists as awaiting confirmation at once.
pub const AWAITING_LIMIT: i64 = 100;

/// What staff do with an order's pickup slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlotAction {
    /// Confirm the slot the customer booked.
    Confirm,
    /// Move the pickup to this day's window starting at this minute, confirmed at once (a missed
    /// pickup is booked again this way).
    Move((Date, u16)),
    /// Move the delivery to this day's window starting at this minute (a missed delivery is
    /// booked again this way); the customer is texted the new window.
    MoveDelivery((Date, u16)),
}

/// The order and its stops after the change.
#[derive(Debug, Clone)]
pub struct SlotChanged {
    /// The order.
    pub order: Order,
    /// Its pickup, confirmed.
    pub pickup: Stop,
    /// Its delivery.
    pub delivery: Option<Stop>,
    /// Whether anything changed (confirming a confirmed slot again changes nothing and sends
    /// nothing).
    pub changed: bool,
}

/// Why a slot was not confirmed or moved.
#[derive(Debug, thiserror::Error)]
pub enum SlotChangeError {
    /// No order has this order ID.
    #[error("There is no such order.")]
    NoSuchOrder,
    /// The order has no pickup to confirm (placed before slots existed).
    #[error("Order {0} has no pickup slot to confirm.")]
    NoPickup(String),
    /// The pickup was cancelled with the order.
    #[error("Order {0} was cancelled: its pickup cannot be confirmed or moved.")]
    Cancelled(String),
    /// The valet is on the way or has been: the pickup cannot be moved or confirmed any more.
    #[error("The pickup of order {0} is already under way or done: it cannot be moved or confirmed.")]
    UnderWay(String),
    /// The window cannot take it (the customer-facing reason).
    #[error(transparent)]
    Refused(#[from] SlotRefusal),
    /// The order's life does not allow it (a delivery already done, before its pickup, …).
    #[error(transparent)]
    Life(Refusal),
    /// The database failed.
    #[error(transparent)]
    Database(#[from] diesel::result::Error),
}

impl From<LifeError> for SlotChangeError {
    fn from(error: LifeError) -> Self {
        match error {
            LifeError::NotFound => SlotChangeError::NoSuchOrder,
            LifeError::Refused(refusal) => SlotChangeError::Life(refusal),
            LifeError::Slot(refusal) => SlotChangeError::Refused(refusal),
            LifeError::Database(error) => SlotChangeError::Database(error),
        }
    }
}

impl From<BookError> for SlotChangeError {
    fn from(error: BookError) -> Self {
        match error {
            BookError::Refused(refusal) => SlotChangeError::Refused(refusal),
            BookError::Database(error) => SlotChangeError::Database(error),
        }
    }
}

/// Confirms or moves the pickup of the order with this order ID, as `by` (a staff e-mail), in one
/// transaction with the customer's e-mail (when `notify` says so and they gave an address) and
/// text (as `notify` says). Moving checks the schedule and the window's room under the window's
/// lock; refused, nothing changes. Moving the delivery texts the customer its new window.
pub fn change_slot(
    connection: &mut DbConnection,
    reference: &OrderReference,
    action: SlotAction,
    schedule: &Schedule,
    by: &str,
    notify: &NotifyCustomer,
    now: OffsetDateTime,
) -> Result<SlotChanged, SlotChangeError> {
    let stored = crate::clock::stored(now);
    write_transaction(connection, |connection| {
        let order = Order::find_by_reference(connection, reference)?.ok_or(SlotChangeError::NoSuchOrder)?;
        // The order's row first, as every path that changes an order and its stops takes it; then
        // read it again, as it stands now.
        Order::lock(connection, &order.id)?;
        let order = Order::find(connection, &order.id)?.ok_or(SlotChangeError::NoSuchOrder)?;
        if order.status == OrderStatus::Cancelled {
            return Err(SlotChangeError::Cancelled(order.reference.clone()));
        }
        let context = Context { by, notify, schedule, now: stored };
        if let SlotAction::MoveDelivery((day, start)) = action {
            let (slot, _) = schedule.check(day, start, now)?;
            let event = Event::StaffMove { kind: StopKind::Delivery, to: slot, delivery: None, tell: true };
            let changed = change(connection, &order.id, event, None, &context)?;
            let after = changed.after;
            let pickup = after.pickup.ok_or_else(|| SlotChangeError::NoPickup(order.reference.clone()))?;
            return Ok(SlotChanged { order: after.order, pickup, delivery: after.delivery, changed: changed.changed });
        }
        if order.status != OrderStatus::Pending {
            return Err(SlotChangeError::UnderWay(order.reference.clone()));
        }
        let pickup = Stop::of_order(connection, &order.id, StopKind::Pickup)?
            .ok_or_else(|| SlotChangeError::NoPickup(order.reference.clone()))?;
        if pickup.state == StopState::Cancelled {
            return Err(SlotChangeError::Cancelled(order.reference.clone()));
        }
        // Moving a pickup to the window it is in is confirming it (unless it was missed there).
        let action = match action {
            SlotAction::Move((day, start))
                if (day, i32::from(start)) == (pickup.day, pickup.window_start)
                    && pickup.state != StopState::Missed =>
            {
                SlotAction::Confirm
            }
            other => other,
        };
        let (changed, moved) = match action {
            SlotAction::Confirm if pickup.state == StopState::Missed => {
                return Err(SlotChangeError::Life(Refusal::StopMissed));
            }
            SlotAction::Confirm if pickup.confirmed_at.is_some() => (false, false),
            SlotAction::Confirm => (Stop::confirm(connection, &order.id, by, stored)?, false),
            SlotAction::Move(_) if !matches!(pickup.state, StopState::Planned | StopState::Missed) => {
                return Err(SlotChangeError::UnderWay(order.reference.clone()));
            }
            SlotAction::Move((day, start)) => {
                // The customer hears of it from the slot's own e-mail and text below.
                let (slot, _) = schedule.check(day, start, now)?;
                let delivery = Some(schedule.delivery_for(slot, order.rush));
                let event = Event::StaffMove { kind: StopKind::Pickup, to: slot, delivery, tell: false };
                change(connection, &order.id, event, None, &context)?;
                (true, true)
            }
            // Answered above.
            SlotAction::MoveDelivery(_) => (false, false),
        };
        let pickup = Stop::of_order(connection, &order.id, StopKind::Pickup)?
            .ok_or_else(|| SlotChangeError::NoPickup(order.reference.clone()))?;
        let delivery = Stop::of_order(connection, &order.id, StopKind::Delivery)?;
        if changed && notify.email {
            let delivery_slot =
                delivery.as_ref().map_or_else(|| schedule.delivery_for(pickup.slot(), order.rush), Stop::slot);
            if let Some(email) = email::slot_confirmed(&order, pickup.slot(), delivery_slot, moved, stored) {
                OutboxMessage::enqueue(connection, &[email])?;
            }
        }
        if changed {
            let slot = pickup.slot();
            let kind = MessageKind::SmsSlotConfirmed;
            notify.text(connection, kind, &order, None, |texts| texts.slot_confirmed(&order, slot, moved), stored)?;
        }
        Ok(SlotChanged { order, pickup, delivery, changed })
    })
}

/// The pickups awaiting confirmation, oldest booking first, with their orders.
pub fn awaiting(connection: &mut DbConnection) -> QueryResult<Vec<(Stop, Order)>> {
    Stop::unconfirmed(connection, AWAITING_LIMIT)
}

/// Every window that can be booked from `now` (the schedule's days and cut-offs), with the room it
/// has left: what a pickup can be moved to. Full windows are listed with none left.
pub fn open_slots(
    connection: &mut DbConnection,
    schedule: &Schedule,
    now: OffsetDateTime,
) -> QueryResult<Vec<(Slot, u32)>> {
    let windows = Stop::bookable_windows(connection, schedule, now)?;
    Ok(windows.into_iter().map(|window| (window.slot, window.remaining)).collect())
}
