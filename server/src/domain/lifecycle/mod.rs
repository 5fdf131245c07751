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

mod events;
mod life;

pub use events::{Effect, Event, Moment, Notice, Refusal, Transition};
use life::stop_name;
pub use life::{Life, StopLife, consistent};

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

#[cfg(test)]
mod tests;
