//! An order's life, written once: the order's status and the states of its two stops (pickup and
//! delivery), every event that may change them (staff, the valet, the customer, a payment), and
//! for each event the new state and what it causes — or a refusal that says why.
//!
//! Pure: [`apply`] takes the state and an event and returns a [`Transition`]; `lifecycle/` reads the
//! state from the database, applies the transition in one transaction and writes its effects (texts,
//! e-mails, prompts). [`consistent`] is the rule every state reachable from a placed order keeps,
//! checked by a property test over random sequences of events.
//!
//! The table (status → what its stops may be):
//!
//! | status | pickup | delivery |
//! |---|---|---|
//! | pending | planned, on the way, missed | planned, or withdrawn (cancelled) while the pickup is missed |
//! | picked up, in progress, ready | done | planned, on the way, missed |
//! | delivered | done | done |
//! | cancelled | done or cancelled | done or cancelled; a return (planned, on the way, missed) once picked up |
//!
//! A delivery is never under way or done before its pickup is done. A cancelled order costs
//! nothing: the ledger takes its charges back, so money received is owed back (`lifecycle::money`).

use super::schedule::Slot;
use super::{OrderStatus, StopKind, StopState};
use time::Date;

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

/// Now, as the lifecycle needs it: Nairobi's day and minute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Moment {
    /// The day in Nairobi.
    pub day: Date,
    /// Minutes after Nairobi's midnight.
    pub minute: u16,
}

impl Moment {
    /// Whether `slot`'s window has not ended yet: a visit there can still happen.
    pub fn before_end_of(self, slot: Slot) -> bool {
        (self.day, self.minute) < (slot.day, slot.window.end)
    }
}

/// Something that happens to an order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// Staff set a status from the dashboard (not cancelled: that is [`Event::StaffCancel`]; not
    /// from cancelled: that is [`Event::StaffUndoCancel`]).
    StaffSet(OrderStatus),
    /// Staff cancel the order (after confirming, with a reason); `tell`: the customer is texted.
    StaffCancel {
        /// Text the customer.
        tell: bool,
        /// Laundry already collected goes back as it is: its delivery becomes a return stop in
        /// this window; `None`: the customer collects it at the shop (or nothing was collected).
        return_to: Option<Slot>,
    },
    /// Staff take back a cancellation, to `to` (the status before it, or another).
    StaffUndoCancel {
        /// The status the order goes back to.
        to: OrderStatus,
        /// Text the customer.
        tell: bool,
        /// Whether the pickup's window still has room for it (else it asks for a new window).
        pickup_room: bool,
    },
    /// Staff move a stop to another window (capacity is checked by the caller); moving the pickup
    /// moves the delivery to `delivery` too (the turnaround kept).
    StaffMove {
        /// Which stop.
        kind: StopKind,
        /// Where to.
        to: Slot,
        /// With a pickup: where its delivery goes.
        delivery: Option<Slot>,
        /// Text the customer.
        tell: bool,
    },
    /// The customer moves their pickup (before its cut-off, or after it was missed), and the
    /// delivery with it.
    CustomerMovePickup {
        /// Where to.
        to: Slot,
        /// Where its delivery goes.
        delivery: Slot,
    },
    /// The customer picks a new window for a delivery that was missed.
    CustomerMoveDelivery {
        /// Where to.
        to: Slot,
    },
    /// The customer cancels from the order's page (before the pickup's cut-off).
    CustomerCancel,
    /// The valet pressed "On my way".
    SetOff(StopKind),
    /// The valet collected the laundry.
    PickedUp,
    /// The valet handed it back.
    Delivered,
    /// The valet found nobody home, or the laundry not ready.
    Missed(StopKind),
    /// The clock: this stop's window ended with nothing recorded (not done, not missed). It is
    /// late: missed, with a missed stop's effects (a late pickup withdraws its delivery), and the
    /// customer is told we did not come.
    WindowPassed(StopKind),
    /// Money arrived for the order (a prompt, the till, a code typed, cash).
    Paid(i32),
}

/// A text the customer gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notice {
    /// Collected, with the bill.
    PickedUp,
    /// Ready, with the delivery window.
    Ready,
    /// Handed back.
    Delivered,
    /// The valet is on the way to this stop.
    OnTheWay(StopKind),
    /// The valet missed them at this stop: choose a new window.
    Missed(StopKind),
    /// Nobody came in this stop's window: sorry, and a new window (the customer's choice for a
    /// pickup; staff's to come, or the customer's, for a delivery).
    Late(StopKind),
    /// Staff cancelled the order.
    Cancelled,
    /// Staff took the cancellation back.
    Reinstated,
    /// Staff moved this stop.
    Moved(StopKind),
    /// The laundry of a cancelled order was handed back as it was.
    Returned,
}

/// What a transition causes besides the new state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Text the customer.
    Text(Notice),
    /// The customer's status e-mail (when they gave an address and it is configured).
    StatusEmail,
    /// Ask the customer's phone for the bill (a "Pay Now" order just picked up).
    BillPrompt,
    /// Prompts to pay still waiting are withdrawn (the order was cancelled).
    WithdrawPrompts,
}

/// The new state and what it causes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transition {
    /// The state after the event.
    pub after: Life,
    /// What to write besides it, in order.
    pub effects: Vec<Effect>,
}

/// Why an event cannot happen to the order as it is; nothing changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The order is cancelled.
    #[error("This order was cancelled.")]
    Cancelled,
    /// The order is not cancelled (an undo of nothing).
    #[error("This order is not cancelled.")]
    NotCancelled,
    /// Cancelling goes through its own confirmation.
    #[error("Cancel the order with Cancel order, which asks for a reason.")]
    CancelByStatus,
    /// A delivered order is not cancelled: its money goes back as a refund.
    #[error("This order was delivered, so it cannot be cancelled.")]
    Delivered,
    /// The order has no such stop (an order from before slots).
    #[error("This order has no {0} booked.")]
    NoStop(&'static str),
    /// The delivery before the pickup.
    #[error("This order has not been picked up yet.")]
    NotPickedUp,
    /// The clock's lateness before the stop's window ended.
    #[error("This stop's window has not ended yet.")]
    WindowNotOver,
    /// The pickup after it was done.
    #[error("The laundry has been picked up already.")]
    AlreadyPickedUp,
    /// The delivery after it was done.
    #[error("This order has been delivered already.")]
    AlreadyDelivered,
    /// The stop was marked missed: staff or the customer book it again first.
    #[error("This stop was missed. Book a new window for it first.")]
    StopMissed,
    /// The delivery would come before the pickup.
    #[error("The delivery must come after the pickup (its window).")]
    DeliveryBeforePickup,
    /// The stop is already in that window.
    #[error("It is already booked in that window. Please choose another one.")]
    SameWindow,
    /// The pickup was missed: its delivery waits for a new pickup window.
    #[error("The pickup was missed: book a new pickup window first.")]
    PickupMissed,
    /// The customer may move a delivery only after it was missed.
    #[error("Your delivery is booked. Please call or WhatsApp us to change it.")]
    DeliveryBooked,
    /// A paid order is cancelled by staff, who send the money back.
    #[error(
        "Money was paid for this order, so it cannot be cancelled online. Please call or WhatsApp us: we will cancel it and send your money back."
    )]
    Paid,
}

/// The label a refusal uses for a stop.
fn stop_name(kind: StopKind) -> &'static str {
    match kind {
        StopKind::Pickup => "pickup",
        StopKind::Delivery => "delivery",
    }
}

impl Life {
    fn stop(&self, kind: StopKind) -> Option<StopLife> {
        match kind {
            StopKind::Pickup => self.pickup,
            StopKind::Delivery => self.delivery,
        }
    }

    fn stop_mut(&mut self, kind: StopKind) -> &mut Option<StopLife> {
        match kind {
            StopKind::Pickup => &mut self.pickup,
            StopKind::Delivery => &mut self.delivery,
        }
    }

    fn set_state(&mut self, kind: StopKind, state: StopState) {
        if let Some(stop) = self.stop_mut(kind) {
            stop.state = state;
        }
    }

    fn pickup_done(&self) -> bool {
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
    fn reopen(&mut self, kind: StopKind, now: Moment) {
        if let Some(stop) = self.stop_mut(kind) {
            stop.state = if now.before_end_of(stop.slot) { StopState::Planned } else { StopState::Missed };
        }
    }

    /// The delivery after the status or the pickup changed: withdrawn while the pickup is missed
    /// (or the order cancelled); planned while the order is pending (nothing can have happened to
    /// it yet); otherwise reopened if it had been withdrawn or done.
    fn settle_delivery(&mut self, now: Moment) {
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

/// What `event` does to an order in state `life` at `now`.
pub fn apply(life: &Life, event: Event, now: Moment) -> Result<Transition, Refusal> {
    let mut after = *life;
    let mut effects = Vec::new();
    match event {
        Event::StaffSet(to) => {
            if to == life.status {
                return Ok(Transition { after, effects });
            }
            if to == OrderStatus::Cancelled {
                return Err(Refusal::CancelByStatus);
            }
            if life.status == OrderStatus::Cancelled {
                return Err(Refusal::Cancelled);
            }
            after.status = to;
            match to {
                OrderStatus::Pending => {
                    if life.pickup.is_some_and(|stop| stop.state == StopState::Done) {
                        after.reopen(StopKind::Pickup, now);
                    }
                    after.settle_delivery(now);
                }
                OrderStatus::PickedUp | OrderStatus::InProgress | OrderStatus::Ready => {
                    after.set_state(StopKind::Pickup, StopState::Done);
                    if after.delivery.is_some_and(|stop| stop.state == StopState::Done) {
                        after.reopen(StopKind::Delivery, now);
                    }
                    after.settle_delivery(now);
                }
                OrderStatus::Delivered => {
                    after.set_state(StopKind::Pickup, StopState::Done);
                    after.set_state(StopKind::Delivery, StopState::Done);
                }
                OrderStatus::Cancelled => unreachable!("refused above"),
            }
            effects.push(Effect::StatusEmail);
            match to {
                OrderStatus::PickedUp => effects.extend([Effect::Text(Notice::PickedUp), Effect::BillPrompt]),
                OrderStatus::Ready => effects.push(Effect::Text(Notice::Ready)),
                OrderStatus::Delivered => effects.push(Effect::Text(Notice::Delivered)),
                _ => {}
            }
        }
        Event::StaffCancel { tell, return_to } => {
            match life.status {
                OrderStatus::Cancelled => return Err(Refusal::Cancelled),
                OrderStatus::Delivered => return Err(Refusal::Delivered),
                _ => {}
            }
            cancel(&mut after);
            // Laundry collected and not yet back: its delivery goes on as a return stop.
            let collected = life.status != OrderStatus::Pending && life.pickup_done();
            if let (true, Some(to), Some(_)) = (collected, return_to, life.delivery) {
                move_stop(&mut after, StopKind::Delivery, to);
            }
            effects.push(Effect::WithdrawPrompts);
            if tell {
                effects.extend([Effect::StatusEmail, Effect::Text(Notice::Cancelled)]);
            }
        }
        Event::StaffUndoCancel { to, tell, pickup_room } => {
            if life.status != OrderStatus::Cancelled {
                return Err(Refusal::NotCancelled);
            }
            if to == OrderStatus::Cancelled {
                return Err(Refusal::Cancelled);
            }
            after.status = to;
            // The stops the cancellation withdrew come back where the status needs them.
            match to {
                OrderStatus::Pending => {
                    if after.pickup.is_some_and(|stop| matches!(stop.state, StopState::Cancelled | StopState::Done)) {
                        after.reopen(StopKind::Pickup, now);
                        if !pickup_room {
                            after.set_state(StopKind::Pickup, StopState::Missed);
                        }
                    }
                    after.settle_delivery(now);
                }
                OrderStatus::Delivered => {
                    after.set_state(StopKind::Pickup, StopState::Done);
                    after.set_state(StopKind::Delivery, StopState::Done);
                }
                _ => {
                    after.set_state(StopKind::Pickup, StopState::Done);
                    after.settle_delivery(now);
                }
            }
            effects.push(Effect::StatusEmail);
            if tell {
                effects.push(Effect::Text(Notice::Reinstated));
            }
        }
        Event::StaffMove { kind, to, delivery, tell } => {
            if !(kind == StopKind::Delivery && life.returning()) {
                refuse_if_closed(life)?;
            }
            let stop = life.stop(kind).ok_or(Refusal::NoStop(stop_name(kind)))?;
            if stop.state == StopState::Done {
                return Err(match kind {
                    StopKind::Pickup => Refusal::AlreadyPickedUp,
                    StopKind::Delivery => Refusal::AlreadyDelivered,
                });
            }
            if stop.slot == to && stop.state != StopState::Missed {
                return Err(Refusal::SameWindow);
            }
            match kind {
                StopKind::Pickup => {
                    move_stop(&mut after, StopKind::Pickup, to);
                    if let Some(delivery) = delivery {
                        move_stop(&mut after, StopKind::Delivery, delivery);
                    }
                    after.settle_delivery(now);
                }
                StopKind::Delivery => {
                    if life.pickup.is_some_and(|stop| stop.state == StopState::Missed) {
                        return Err(Refusal::PickupMissed);
                    }
                    if let Some(pickup) = life.pickup.filter(|stop| stop.state != StopState::Done)
                        && to <= pickup.slot
                    {
                        return Err(Refusal::DeliveryBeforePickup);
                    }
                    move_stop(&mut after, StopKind::Delivery, to);
                }
            }
            if tell {
                effects.push(Effect::Text(Notice::Moved(kind)));
            }
        }
        Event::CustomerMovePickup { to, delivery } => {
            refuse_if_closed(life)?;
            if life.status != OrderStatus::Pending {
                return Err(Refusal::AlreadyPickedUp);
            }
            let pickup = life.pickup.ok_or(Refusal::NoStop("pickup"))?;
            match pickup.state {
                StopState::Done => return Err(Refusal::AlreadyPickedUp),
                StopState::Cancelled => return Err(Refusal::NoStop("pickup")),
                _ if pickup.slot == to => return Err(Refusal::SameWindow),
                _ => {}
            }
            move_stop(&mut after, StopKind::Pickup, to);
            if life.delivery.is_some() {
                move_stop(&mut after, StopKind::Delivery, delivery);
            }
            after.settle_delivery(now);
        }
        Event::CustomerMoveDelivery { to } => {
            refuse_if_closed(life)?;
            let delivery = life.delivery.ok_or(Refusal::NoStop("delivery"))?;
            match delivery.state {
                StopState::Done => return Err(Refusal::AlreadyDelivered),
                StopState::Missed if life.pickup_done() => move_stop(&mut after, StopKind::Delivery, to),
                _ => return Err(Refusal::DeliveryBooked),
            }
        }
        Event::CustomerCancel => {
            refuse_if_closed(life)?;
            if life.status != OrderStatus::Pending || life.pickup.is_some_and(|stop| stop.state == StopState::Done) {
                return Err(Refusal::AlreadyPickedUp);
            }
            if life.paid > 0 {
                return Err(Refusal::Paid);
            }
            cancel(&mut after);
            effects.extend([Effect::WithdrawPrompts, Effect::StatusEmail]);
        }
        Event::SetOff(kind) => {
            refuse_if_cancelled_but_a_return(life, kind)?;
            let stop = life.stop(kind).ok_or(Refusal::NoStop(stop_name(kind)))?;
            if kind == StopKind::Delivery && (life.status == OrderStatus::Pending || !life.pickup_done()) {
                return Err(Refusal::NotPickedUp);
            }
            match stop.state {
                StopState::Planned => {
                    after.set_state(kind, StopState::OnTheWay);
                    effects.push(Effect::Text(Notice::OnTheWay(kind)));
                }
                StopState::OnTheWay | StopState::Done => {}
                StopState::Missed => return Err(Refusal::StopMissed),
                StopState::Cancelled => return Err(Refusal::Cancelled),
            }
        }
        Event::PickedUp => {
            refuse_if_cancelled(life)?;
            if let Some(pickup) = life.pickup
                && pickup.state == StopState::Cancelled
            {
                return Err(Refusal::Cancelled);
            }
            match life.status {
                OrderStatus::Pending => {
                    after.status = OrderStatus::PickedUp;
                    after.set_state(StopKind::Pickup, StopState::Done);
                    after.settle_delivery(now);
                    effects.extend([Effect::StatusEmail, Effect::Text(Notice::PickedUp), Effect::BillPrompt]);
                }
                _ => return Err(Refusal::AlreadyPickedUp),
            }
        }
        Event::Delivered if life.returning() => {
            // Handed back as it was: the order stays cancelled.
            after.set_state(StopKind::Delivery, StopState::Done);
            effects.push(Effect::Text(Notice::Returned));
        }
        Event::Delivered => {
            refuse_if_cancelled(life)?;
            if life.status == OrderStatus::Pending || !life.pickup_done() {
                return Err(Refusal::NotPickedUp);
            }
            match life.delivery.map(|stop| stop.state) {
                Some(StopState::Done) | None if life.status == OrderStatus::Delivered => {}
                Some(StopState::Cancelled) => return Err(Refusal::Cancelled),
                _ => {
                    after.status = OrderStatus::Delivered;
                    after.set_state(StopKind::Delivery, StopState::Done);
                    effects.extend([Effect::StatusEmail, Effect::Text(Notice::Delivered)]);
                }
            }
        }
        Event::Missed(kind) => {
            refuse_if_cancelled_but_a_return(life, kind)?;
            mark_missed(life, &mut after, &mut effects, kind, now, Notice::Missed(kind))?;
        }
        Event::WindowPassed(kind) => {
            if !(kind == StopKind::Delivery && life.returning()) {
                refuse_if_closed(life)?;
            }
            mark_missed(life, &mut after, &mut effects, kind, now, Notice::Late(kind))?;
        }
        Event::Paid(amount) => {
            after.paid = life.paid.saturating_add(amount.max(0));
        }
    }
    Ok(Transition { after, effects })
}

/// The valet's miss or the clock's lateness of the `kind` stop: missed (a pickup's delivery
/// withdrawn) and `notice` texted, once; the clock's only after the window ended.
fn mark_missed(
    life: &Life,
    after: &mut Life,
    effects: &mut Vec<Effect>,
    kind: StopKind,
    now: Moment,
    notice: Notice,
) -> Result<(), Refusal> {
    let stop = life.stop(kind).ok_or(Refusal::NoStop(stop_name(kind)))?;
    if kind == StopKind::Delivery && (life.status == OrderStatus::Pending || !life.pickup_done()) {
        return Err(Refusal::NotPickedUp);
    }
    match stop.state {
        StopState::Planned | StopState::OnTheWay
            if matches!(notice, Notice::Late(_)) && now.before_end_of(stop.slot) =>
        {
            Err(Refusal::WindowNotOver)
        }
        StopState::Planned | StopState::OnTheWay => {
            after.set_state(kind, StopState::Missed);
            after.settle_delivery(now);
            effects.push(Effect::Text(notice));
            Ok(())
        }
        StopState::Missed => Ok(()),
        StopState::Done => Err(match kind {
            StopKind::Pickup => Refusal::AlreadyPickedUp,
            StopKind::Delivery => Refusal::AlreadyDelivered,
        }),
        StopState::Cancelled => Err(Refusal::Cancelled),
    }
}

/// Cancels: every stop not done is withdrawn (the ledger owes money received back).
fn cancel(life: &mut Life) {
    life.status = OrderStatus::Cancelled;
    for kind in [StopKind::Pickup, StopKind::Delivery] {
        if life.stop(kind).is_some_and(|stop| stop.state != StopState::Done) {
            life.set_state(kind, StopState::Cancelled);
        }
    }
}

/// A stop booked again in `to`: planned.
fn move_stop(life: &mut Life, kind: StopKind, to: Slot) {
    if let Some(stop) = life.stop_mut(kind) {
        *stop = StopLife { state: StopState::Planned, slot: to };
    }
}

/// As [`refuse_if_cancelled`], but the return stop of a cancelled order goes on.
fn refuse_if_cancelled_but_a_return(life: &Life, kind: StopKind) -> Result<(), Refusal> {
    if kind == StopKind::Delivery && life.returning() { Ok(()) } else { refuse_if_cancelled(life) }
}

fn refuse_if_cancelled(life: &Life) -> Result<(), Refusal> {
    if life.status == OrderStatus::Cancelled { Err(Refusal::Cancelled) } else { Ok(()) }
}

/// Nothing is moved for an order that is cancelled or delivered.
fn refuse_if_closed(life: &Life) -> Result<(), Refusal> {
    match life.status {
        OrderStatus::Cancelled => Err(Refusal::Cancelled),
        OrderStatus::Delivered => Err(Refusal::AlreadyDelivered),
        _ => Ok(()),
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

#[cfg(test)]
mod tests;
