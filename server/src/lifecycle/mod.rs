//! An order's life, applied: every change of an order's status or of its stops goes through
//! [`change`], which locks the order, reads its state, asks [`crate::domain::lifecycle::apply`] what
//! the event does (or why it cannot happen), and writes the new state and its effects (texts,
//! e-mails, prompts) in the caller's transaction. Handlers call the functions of this module and
//! of its files; models stay one table each with its queries.
//!
//! - [`by_text`]: a text to the shop's number answered, the pickup letter booking a pickup.
//! - [`late`]: the clock marks late a stop whose window ended with nothing recorded.
//! - [`garments`]: items, photos and bags taken in, racks and their audit, the count at delivery,
//!   claims.
//! - [`payment`]: payments recorded on orders (by staff, by M-PESA), the customer told.
//! - [`place`]: an order placed (on the site, by staff, by text, as a re-clean).
//! - [`reclean`]: the customer asks for a free re-clean of a delivered order.
//! - [`slots`]: staff confirm a pickup's slot, move a pickup or a delivery (a missed one too).
//! - [`status`]: staff set a status, cancel with a reason, take a cancellation back.
//! - [`valet`]: the valet's "on my way", "picked up", "delivered" and "not home / not ready".
//! - [`visit`]: the customer's own changes from the order's page.
//! - [`waiting`]: the orders that wait for someone (missed stops, pickups past their window,
//!   ready orders not delivered).

pub mod by_text;
pub mod garments;
pub mod late;
pub mod money;
pub mod payment;
pub mod place;
pub mod reclean;
pub mod slots;
pub mod status;
pub mod valet;
pub mod visit;
pub mod waiting;

use crate::db::DbConnection;
use crate::db::schema::{order_status_history, orders, stops as stop_rows};
use crate::domain::lifecycle::{self as life, Effect, Event, Life, Moment, Notice, Refusal, StopLife};
use crate::domain::schedule::{Schedule, SlotRefusal, eta, nairobi_day, nairobi_minute};
use crate::domain::{Balance, MessageKind, OrderStatus, PaymentMethod, StopKind, StopState};
use crate::models::ledger::Entry;
use crate::models::mpesa::MpesaPrompt;
use crate::models::order::Order;
use crate::models::outbox::OutboxMessage;
use crate::models::stop::{BookError, Stop};
use crate::notify::texts::Texts;
use crate::notify::{NotifyCustomer, email, once_per};
use diesel::prelude::*;
use time::PrimitiveDateTime;

/// How long a valet's "on my way" text may still go out after it is written.
const ON_MY_WAY_HOURS: i64 = 3;

/// Who makes a change, when, and whom it tells.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// Recorded as who made the change (a staff e-mail, or "customer").
    pub by: &'a str,
    /// Whom the change tells, and how.
    pub notify: &'a NotifyCustomer,
    /// The windows a stop can be moved to.
    pub schedule: &'a Schedule,
    /// Now, UTC.
    pub now: PrimitiveDateTime,
}

/// An order as it stands, with its stops and its money.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderNow {
    /// The order.
    pub order: Order,
    /// Its ledger's sums.
    pub balance: Balance,
    /// Its pickup, if it has one.
    pub pickup: Option<Stop>,
    /// Its delivery, if it has one.
    pub delivery: Option<Stop>,
}

impl OrderNow {
    /// The order with this key and its stops, its row locked to the end of the transaction
    /// (PostgreSQL; SQLite writes one transaction at a time).
    pub fn load(connection: &mut DbConnection, order_id: &str) -> QueryResult<Option<OrderNow>> {
        Order::lock(connection, order_id)?;
        let Some(order) = Order::find(connection, order_id)? else { return Ok(None) };
        let mut stops = Stop::for_order(connection, order_id)?;
        let delivery = stops.iter().position(|stop| stop.kind == StopKind::Delivery).map(|at| stops.remove(at));
        let pickup = stops.into_iter().find(|stop| stop.kind == StopKind::Pickup);
        let balance = Entry::balance(connection, order_id)?;
        Ok(Some(OrderNow { order, balance, pickup, delivery }))
    }

    /// The text that says it was cancelled, from its money and stops as they are now: what goes
    /// back to the customer, and laundry collected and not handed back coming back on its return
    /// stop, or waiting at the shop.
    pub fn cancelled_words(&self, texts: &Texts) -> String {
        let back = match (&self.pickup, &self.delivery) {
            (Some(pickup), Some(delivery)) if pickup.state == StopState::Done && delivery.state != StopState::Done => {
                Some(delivery.state.is_open().then(|| delivery.slot()))
            }
            _ => None,
        };
        texts.cancelled(&self.order, &self.balance, back)
    }

    /// Its stop of `kind`.
    pub fn stop(&self, kind: StopKind) -> Option<&Stop> {
        match kind {
            StopKind::Pickup => self.pickup.as_ref(),
            StopKind::Delivery => self.delivery.as_ref(),
        }
    }

    /// Its state, as the lifecycle sees it.
    pub fn life(&self) -> Life {
        let stop = |stop: &Option<Stop>| stop.as_ref().map(|stop| StopLife { state: stop.state, slot: stop.slot() });
        Life {
            status: self.order.status,
            pickup: stop(&self.pickup),
            delivery: stop(&self.delivery),
            paid: i32::try_from(self.balance.received().max(0)).unwrap_or(i32::MAX),
        }
    }
}

/// `now` (UTC, as stored) as the lifecycle reads it: Nairobi's day and minute.
pub fn moment(now: PrimitiveDateTime) -> Moment {
    let at = now.assume_utc();
    Moment { day: nairobi_day(at), minute: nairobi_minute(at) }
}

/// Why a change did not happen; nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum LifeError {
    /// No such order (or stop).
    #[error("There is no such order.")]
    NotFound,
    /// The order's life does not allow it: the message says why.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// The window asked for cannot take it.
    #[error(transparent)]
    Slot(#[from] SlotRefusal),
    /// The database failed.
    #[error(transparent)]
    Database(#[from] diesel::result::Error),
}

impl From<BookError> for LifeError {
    fn from(error: BookError) -> Self {
        match error {
            BookError::Refused(refusal) => LifeError::Slot(refusal),
            BookError::Database(error) => LifeError::Database(error),
        }
    }
}

/// What a change did.
#[derive(Debug, Clone)]
pub struct Changed {
    /// The order as it stands now.
    pub after: OrderNow,
    /// Whether anything was written (the same change sent again writes nothing).
    pub changed: bool,
}

/// Applies `event` to the order `order_id` inside the caller's transaction: the order's row is
/// locked, the transition computed from its state as it is now, and the new state and the
/// transition's effects written. `reason` goes with a cancellation or a missed stop.
pub fn change(
    connection: &mut DbConnection,
    order_id: &str,
    event: Event,
    reason: Option<&str>,
    context: &Context<'_>,
) -> Result<Changed, LifeError> {
    change_with(connection, order_id, |_| event, reason, context)
}

/// [`change`] with the event chosen from the order as it stands once locked (a status choice is a
/// cancellation, an undo or a status set depending on the status it is now).
pub fn change_with(
    connection: &mut DbConnection,
    order_id: &str,
    event_of: impl FnOnce(&OrderNow) -> Event,
    reason: Option<&str>,
    context: &Context<'_>,
) -> Result<Changed, LifeError> {
    let before = OrderNow::load(connection, order_id)?.ok_or(LifeError::NotFound)?;
    let event = with_room(connection, &before, event_of(&before), context)?;
    let now = context.now;
    let transition = life::apply(&before.life(), event, moment(now))?;
    let after = transition.after;
    if after == before.life() && transition.effects.is_empty() {
        return Ok(Changed { after: before, changed: false });
    }
    let order = &before.order;
    if after.status != order.status {
        diesel::update(orders::table.find(order_id))
            .set((orders::status.eq(after.status), orders::updated_at.eq(now)))
            .execute(connection)?;
        diesel::insert_into(order_status_history::table)
            .values((
                order_status_history::order_id.eq(order_id),
                order_status_history::status.eq(after.status),
                order_status_history::changed_at.eq(now),
                order_status_history::changed_by.eq(context.by),
            ))
            .execute(connection)?;
    }
    let cancel_reason = match event {
        Event::StaffCancel { .. } => reason.map(str::to_owned),
        Event::StaffUndoCancel { .. } => None,
        _ => order.cancel_reason.clone(),
    };
    if cancel_reason != order.cancel_reason {
        diesel::update(orders::table.find(order_id))
            .set(orders::cancel_reason.eq(&cancel_reason))
            .execute(connection)?;
    }
    // A cancelled order costs nothing, so money received is owed back; taken back, it costs what
    // it did.
    money::follow_status(connection, order_id, order.status, after.status, reason, context.by, now)?;
    let staff_move = matches!(event, Event::StaffMove { .. });
    for (row, to) in [(&before.pickup, after.pickup), (&before.delivery, after.delivery)] {
        if let (Some(row), Some(to)) = (row, to) {
            write_stop(connection, row, to, staff_move, reason, context)?;
        }
    }
    let after = OrderNow::load(connection, order_id)?.ok_or(LifeError::NotFound)?;
    for effect in &transition.effects {
        write_effect(connection, &after, *effect, context)?;
    }
    Ok(Changed { after, changed: true })
}

/// The facts an event needs from the database that the pure lifecycle cannot read: whether a
/// cancelled pickup's window still has room for it when the cancellation is taken back.
fn with_room(
    connection: &mut DbConnection,
    order: &OrderNow,
    event: Event,
    context: &Context<'_>,
) -> Result<Event, LifeError> {
    let Event::StaffUndoCancel { to, tell, .. } = event else { return Ok(event) };
    let pickup_room = match &order.pickup {
        Some(pickup) if to == OrderStatus::Pending && pickup.state != StopState::Planned => {
            let slot = pickup.slot();
            match Stop::reserve_pickup(connection, context.schedule, slot, context.now.assume_utc(), &order.order.id) {
                Ok(_) => true,
                Err(BookError::Refused(_)) => false,
                Err(BookError::Database(error)) => return Err(error.into()),
            }
        }
        _ => true,
    };
    Ok(Event::StaffUndoCancel { to, tell, pickup_room })
}

/// Writes one stop's new state (and window, when it moved).
fn write_stop(
    connection: &mut DbConnection,
    row: &Stop,
    to: StopLife,
    staff_move: bool,
    reason: Option<&str>,
    context: &Context<'_>,
) -> Result<(), LifeError> {
    let now = context.now;
    let target = stop_rows::table.find(&row.id);
    if to.slot != row.slot() {
        let moment = now.assume_utc();
        match row.kind {
            StopKind::Pickup => {
                Stop::reserve_pickup(connection, context.schedule, to.slot, moment, &row.order_id)?;
            }
            StopKind::Delivery => {
                context.schedule.check(to.slot.day, to.slot.window.start, moment)?;
            }
        }
        let confirmed_by = (staff_move && row.kind == StopKind::Pickup).then_some(context.by);
        diesel::update(target)
            .set((
                stop_rows::day.eq(to.slot.day),
                stop_rows::window_start.eq(i32::from(to.slot.window.start)),
                stop_rows::window_end.eq(i32::from(to.slot.window.end)),
                stop_rows::state.eq(to.state),
                stop_rows::valet_id.eq(None::<String>),
                stop_rows::run_position.eq(None::<i32>),
                stop_rows::on_the_way_at.eq(None::<PrimitiveDateTime>),
                stop_rows::done_at.eq(None::<PrimitiveDateTime>),
                stop_rows::missed_reason.eq(None::<String>),
                stop_rows::missed_at.eq(None::<PrimitiveDateTime>),
                stop_rows::missed_by.eq(None::<String>),
                stop_rows::confirmed_at.eq(confirmed_by.map(|_| now)),
                stop_rows::confirmed_by.eq(confirmed_by),
            ))
            .execute(connection)?;
        return Ok(());
    }
    if to.state == row.state {
        return Ok(());
    }
    match to.state {
        StopState::Done => diesel::update(target)
            .set((stop_rows::state.eq(to.state), stop_rows::done_at.eq(now)))
            .execute(connection)?,
        StopState::OnTheWay => diesel::update(target)
            .set((stop_rows::state.eq(to.state), stop_rows::on_the_way_at.eq(now)))
            .execute(connection)?,
        StopState::Missed => diesel::update(target)
            .set((
                stop_rows::state.eq(to.state),
                stop_rows::missed_reason.eq(reason.or(row.missed_reason.as_deref())),
                stop_rows::missed_at.eq(now),
                stop_rows::missed_by.eq(context.by),
            ))
            .execute(connection)?,
        StopState::Planned => diesel::update(target)
            .set((
                stop_rows::state.eq(to.state),
                stop_rows::on_the_way_at.eq(None::<PrimitiveDateTime>),
                stop_rows::done_at.eq(None::<PrimitiveDateTime>),
                stop_rows::missed_reason.eq(None::<String>),
                stop_rows::missed_at.eq(None::<PrimitiveDateTime>),
                stop_rows::missed_by.eq(None::<String>),
            ))
            .execute(connection)?,
        StopState::Cancelled => diesel::update(target).set(stop_rows::state.eq(to.state)).execute(connection)?,
    };
    Ok(())
}

/// Writes one effect of a transition: a text, the status e-mail, a prompt to pay.
fn write_effect(
    connection: &mut DbConnection,
    order: &OrderNow,
    effect: Effect,
    context: &Context<'_>,
) -> Result<(), LifeError> {
    let (notify, now) = (context.notify, context.now);
    let changed = &order.order;
    match effect {
        Effect::StatusEmail => {
            if notify.email
                && let Some(email) = email::status(changed, changed.status, now)
            {
                OutboxMessage::enqueue(connection, &[email])?;
            }
        }
        Effect::BillPrompt => prompt_for_bill(connection, changed, notify, now)?,
        Effect::WithdrawPrompts => {}
        Effect::Text(notice) => text(connection, order, notice, context)?,
    }
    Ok(())
}

/// The bill is set at pickup: the phone of a "Pay Now" order asks for it (the picked-up text says
/// so), when `notify` sends prompts. Refused for a paid order or one at KSh 0, which the text then
/// does not promise.
pub(crate) fn prompt_for_bill(
    connection: &mut DbConnection,
    order: &Order,
    notify: &NotifyCustomer,
    now: PrimitiveDateTime,
) -> QueryResult<()> {
    if notify.mpesa_prompts && order.payment_method == PaymentMethod::PayNow {
        MpesaPrompt::ask_for_bill(connection, order, "bill", notify.prompt_limits, now)?;
    }
    Ok(())
}

/// The M-PESA code of the order's newest payment, if it has one.
fn newest_code(connection: &mut DbConnection, order_id: &str) -> QueryResult<Option<String>> {
    Ok(Entry::of_order(connection, order_id)?
        .into_iter()
        .rev()
        .find(|entry| entry.kind == crate::domain::EntryKind::Payment && entry.amount > 0)
        .and_then(|entry| entry.reference))
}

/// The customer's text about `notice`, as `context.notify` says. The steps of the happy path
/// (picked up, ready, delivered) are texted once per order however often staff set them back and
/// forth; "on my way" and "missed" once per stop and day.
fn text(connection: &mut DbConnection, now_order: &OrderNow, notice: Notice, context: &Context<'_>) -> QueryResult<()> {
    let (notify, now) = (context.notify, context.now);
    let order = &now_order.order;
    let per_visit =
        |kind: MessageKind, stop: Option<&Stop>| stop.map(|stop| once_per(kind, &format!("{}:{}", stop.id, stop.day)));
    match notice {
        Notice::PickedUp | Notice::Ready | Notice::Delivered => {
            let kind = match notice {
                Notice::PickedUp => MessageKind::SmsPickedUp,
                Notice::Ready => MessageKind::SmsReady,
                _ => MessageKind::SmsDelivered,
            };
            let delivery = now_order.delivery.as_ref().filter(|stop| stop.state.is_open()).map(Stop::slot);
            let balance = &now_order.balance;
            let code = match notice {
                Notice::Delivered => newest_code(connection, &order.id)?,
                _ => None,
            };
            let words = |texts: &crate::notify::texts::Texts| match notice {
                Notice::PickedUp => texts.picked_up(order, balance, None),
                Notice::Ready => texts.ready(order, delivery),
                _ => texts.delivered(order, balance, code.as_deref()),
            };
            let key = Some(once_per(kind, &order.id));
            // Picked up with a prompt for the bill on its way: the text waits a little, so that a
            // payment made at the door is said in it (`money::pay`) rather than in a second text.
            let prompt_coming = notice == Notice::PickedUp
                && notify.mpesa_prompts
                && order.payment_method == PaymentMethod::PayNow
                && balance.to_pay() > 0;
            if prompt_coming {
                notify.text_held(connection, kind, order, key, now + crate::notify::PROMPT_HOLD, words, now)?;
            } else {
                notify.text(connection, kind, order, key, words, now)?;
            }
        }
        Notice::OnTheWay(kind) => {
            let Some(stop) = now_order.stop(kind) else { return Ok(()) };
            let eta = stop.run_position(connection)?.map(|position| eta(position, context.schedule.minutes_per_stop));
            let message = match kind {
                StopKind::Pickup => MessageKind::SmsOnTheWay,
                StopKind::Delivery => MessageKind::SmsOutForDelivery,
            };
            // "On my way" is news for the next few hours, not after.
            let send_before = Some(now + time::Duration::hours(ON_MY_WAY_HOURS));
            notify.text_until(
                connection,
                message,
                order,
                per_visit(message, Some(stop)),
                send_before,
                |texts| match kind {
                    StopKind::Pickup => texts.on_the_way(order, eta),
                    StopKind::Delivery => texts.out_for_delivery(order, &now_order.balance, eta),
                },
                now,
            )?;
        }
        Notice::Missed(kind) | Notice::Late(kind) => {
            // One kind and one key for both: one text per stop and day whoever records it (the
            // clock on two instances, or the valet after it).
            let message = MessageKind::SmsMissed;
            let late = matches!(notice, Notice::Late(_));
            notify.text(
                connection,
                message,
                order,
                per_visit(message, now_order.stop(kind)),
                |texts| if late { texts.late(order, kind) } else { texts.missed(order, kind) },
                now,
            )?;
        }
        Notice::Cancelled => {
            notify.text(
                connection,
                MessageKind::SmsCancelled,
                order,
                None,
                |texts| now_order.cancelled_words(texts),
                now,
            )?;
        }
        Notice::Returned => {
            // Handed back in the place of a delivery: its kind (and its switch), once per order.
            let kind = MessageKind::SmsDelivered;
            let key = Some(once_per(kind, &order.id));
            notify.text(connection, kind, order, key, |texts| texts.returned(order, &now_order.balance), now)?;
        }
        Notice::Reinstated => {
            let next = [&now_order.pickup, &now_order.delivery]
                .into_iter()
                .flatten()
                .find(|stop| stop.state.is_open() || stop.state == StopState::Missed)
                .map(|stop| (stop.kind, stop.state.is_open().then(|| stop.slot())));
            notify.text(
                connection,
                MessageKind::SmsReinstated,
                order,
                None,
                |texts| texts.reinstated(order, next),
                now,
            )?;
        }
        Notice::Moved(kind) => {
            let Some(slot) = now_order.stop(kind).map(Stop::slot) else { return Ok(()) };
            notify.text(connection, MessageKind::SmsMoved, order, None, |texts| texts.moved(order, kind, slot), now)?;
        }
    }
    Ok(())
}
