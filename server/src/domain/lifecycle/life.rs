//! An order's life as the machine reads it: its status, its two stops, and the rules that hold
//! between them in every state.

use super::Moment;
use crate::domain::schedule::Slot;
use crate::domain::{OrderStatus, StopKind, StopState};

/// One stop as the lifecycle sees it: how far it has got, and when it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StopLife {
    /// How far it has got.
    pub state: StopState,
    /// Its day and window.
    pub slot: Slot,
}

/// An order's state: its status, its stops (orders from before slots have none), the money
/// received for it and the money it owes back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Life {
    /// Where the order is.
    pub status: OrderStatus,
    /// Its pickup, if it has one.
    pub pickup: Option<StopLife>,
    /// Its delivery, if it has one.
    pub delivery: Option<StopLife>,
    /// KSh received for it (payments less refunds).
    pub paid: i32,
}

/// The label a refusal uses for a stop.
pub(super) fn stop_name(kind: StopKind) -> &'static str {
    match kind {
        StopKind::Pickup => "pickup",
        StopKind::Delivery => "delivery",
    }
}

impl Life {
    pub(super) fn stop(&self, kind: StopKind) -> Option<StopLife> {
        match kind {
            StopKind::Pickup => self.pickup,
            StopKind::Delivery => self.delivery,
        }
    }

    pub(super) fn stop_mut(&mut self, kind: StopKind) -> &mut Option<StopLife> {
        match kind {
            StopKind::Pickup => &mut self.pickup,
            StopKind::Delivery => &mut self.delivery,
        }
    }

    pub(super) fn set_state(&mut self, kind: StopKind, state: StopState) {
        if let Some(stop) = self.stop_mut(kind) {
            stop.state = state;
        }
    }

    pub(super) fn pickup_done(&self) -> bool {
        self.pickup.is_none_or(|stop| stop.state == StopState::Done)
    }

    /// A cancelled order whose collected laundry still goes back on a return stop (its delivery,
    /// planned, on the way or missed).
    pub fn returning(&self) -> bool {
        self.status == OrderStatus::Cancelled
            && self.pickup.is_some_and(|stop| stop.state == StopState::Done)
            && self
                .delivery
                .is_some_and(|stop| matches!(stop.state, StopState::Planned | StopState::OnTheWay | StopState::Missed))
    }

    /// A stop that should happen again: planned while its window is still ahead, missed (staff or
    /// the customer choose a new one) once it has passed.
    pub(super) fn reopen(&mut self, kind: StopKind, now: Moment) {
        if let Some(stop) = self.stop_mut(kind) {
            stop.state = if now.before_end_of(stop.slot) { StopState::Planned } else { StopState::Missed };
        }
    }

    /// The delivery after the status or the pickup changed: withdrawn while the pickup is missed
    /// (or the order cancelled); planned while the order is pending (nothing can have happened to
    /// it yet); otherwise reopened if it had been withdrawn or done.
    pub(super) fn settle_delivery(&mut self, now: Moment) {
        let Some(delivery) = self.delivery else { return };
        let pickup_missed = self.pickup.is_some_and(|stop| stop.state == StopState::Missed);
        match self.status {
            OrderStatus::Delivered => {}
            _ if delivery.state == StopState::Done && self.status == OrderStatus::Cancelled => {}
            _ if self.returning() => {}
            OrderStatus::Cancelled => self.set_state(StopKind::Delivery, StopState::Cancelled),
            _ if pickup_missed => self.set_state(StopKind::Delivery, StopState::Cancelled),
            OrderStatus::Pending => self.set_state(StopKind::Delivery, StopState::Planned),
            _ => {
                if matches!(delivery.state, StopState::Cancelled | StopState::Done) {
                    self.reopen(StopKind::Delivery, now);
                }
            }
        }
    }
}

/// Whether `life` keeps the lifecycle's rules (the table at the top of this file): `Err` names the
/// first one it breaks.
pub fn consistent(life: &Life) -> Result<(), &'static str> {
    let pickup = life.pickup.map(|stop| stop.state);
    let delivery = life.delivery.map(|stop| stop.state);
    let is = |stop: Option<StopState>, states: &[StopState]| stop.is_none_or(|state| states.contains(&state));
    use StopState::{Cancelled, Done, Missed, OnTheWay, Planned};
    if !is(delivery, &[Planned, Missed, Cancelled]) && !is(pickup, &[Done]) {
        return Err("a delivery under way or done before its pickup");
    }
    if pickup == Some(Missed) && !is(delivery, &[Cancelled]) {
        return Err("a delivery booked after a missed pickup");
    }
    let rule = match life.status {
        OrderStatus::Pending => is(pickup, &[Planned, OnTheWay, Missed]) && is(delivery, &[Planned, Cancelled]),
        OrderStatus::PickedUp | OrderStatus::InProgress | OrderStatus::Ready => {
            is(pickup, &[Done]) && is(delivery, &[Planned, OnTheWay, Missed])
        }
        OrderStatus::Delivered => is(pickup, &[Done]) && is(delivery, &[Done]),
        // A return stop: collected laundry going back as it is.
        OrderStatus::Cancelled => {
            is(pickup, &[Done, Cancelled])
                && (is(delivery, &[Done, Cancelled])
                    || (is(pickup, &[Done]) && is(delivery, &[Planned, OnTheWay, Missed])))
        }
    };
    if !rule {
        return Err("a status its stops contradict");
    }
    Ok(())
}
