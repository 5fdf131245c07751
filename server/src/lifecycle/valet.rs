//! What the valet records at each stop of the run: on the way, picked up (the weighing, which
//! re-prices the bill), delivered (the payment), and not home / not ready (the stop missed). Each
//! change is one transaction that first locks the order and the stop and reads them again, so the
//! same form sent twice changes nothing the second time; a valet may change only the stops of
//! their own run. The order's status and stops change through [`super::change`].

use super::money::{self, MoneyRefusal};
use super::payment::{StaffPayment, record_payment_within};
use super::{Context, LifeError, change, prompt_for_bill};
use crate::db::schema::{orders, stops};
use crate::db::{DbConnection, write_transaction};
use crate::domain::lifecycle::{Event, Refusal};
use crate::domain::schedule::nairobi_day;
use crate::domain::{Balance, Collected, FieldErrors, OrderStatus, StopKind, StopState, Weighing, shillings};
use crate::models::garments::handling::Handling;
use crate::models::ledger::Entry;
use crate::models::order::Order;
use crate::models::order::bill::BillError;
use crate::models::stop::Stop;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use time::PrimitiveDateTime;

/// The longest reason a valet gives for a missed stop.
pub const MAX_MISSED_REASON: usize = 120;

/// Who records a change, and whose stops they may change.
#[derive(Debug, Clone, Copy)]
pub struct Actor<'a> {
    /// Recorded as who made the change.
    pub email: &'a str,
    /// A valet's own id: only the stops of this valet's run. `None`: staff standing in, any stop.
    pub only_run_of: Option<&'a str>,
}

/// What a change came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Recorded.
    Changed,
    /// Delivered, but the count at the door was short of what was taken in: a claim is open.
    DeliveredShort {
        /// Items and bags counted at the door.
        counted: (i32, i32),
        /// Items tagged and bags taken in.
        expected: (i32, i32),
    },
    /// Already so (the same form sent again): nothing was written.
    Unchanged,
}

/// Why a change was refused; nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// No stop has that id.
    #[error("This stop could not be found. It may have been moved.")]
    NoSuchStop,
    /// The stop is in another valet's run (or in none).
    #[error("This stop is not in your run.")]
    NotYourStop,
    /// The order was cancelled.
    #[error("This order was cancelled.")]
    Cancelled,
    /// The action does not fit the stop (a pickup's form on a delivery, a delivery before the
    /// pickup): the message says why.
    #[error("{0}")]
    Refused(&'static str),
    /// The order's life does not allow it (a delivery before the pickup, a missed stop).
    #[error(transparent)]
    Lifecycle(Refusal),
    /// A window could not take the stop.
    #[error("{0}")]
    Slot(String),
    /// A prompt to pay was refused by the limits on prompts per phone: the message says when
    /// another may be sent.
    #[error("{0}")]
    PromptsHeld(String),
    /// A field of the form does not fit the order: a message per field.
    #[error("the form does not fit the order")]
    Invalid(FieldErrors),
    /// The M-PESA code is already recorded for the order with this reference.
    #[error("the M-PESA code is recorded for order {0}")]
    CodeUsedBy(String),
    /// The database failed.
    #[error(transparent)]
    Database(#[from] DieselError),
}

impl From<LifeError> for RunError {
    fn from(error: LifeError) -> Self {
        match error {
            LifeError::NotFound => RunError::NoSuchStop,
            LifeError::Refused(Refusal::Cancelled) => RunError::Cancelled,
            LifeError::Refused(refusal) => RunError::Lifecycle(refusal),
            LifeError::Slot(refusal) => RunError::Slot(refusal.to_string()),
            LifeError::Database(error) => RunError::Database(error),
        }
    }
}

impl From<BillError> for RunError {
    fn from(error: BillError) -> Self {
        match error {
            BillError::Invalid(fields) => RunError::Invalid(fields),
            BillError::Database(error) => RunError::Database(error),
        }
    }
}

/// "On my way": the valet set off for this stop, which moves the ETA of the stops after it. The
/// customer is texted as `context.notify` says: the valet is on the way (a pickup) or the order is
/// out for delivery, with the stop's ETA as its order page now shows it. Unchanged, and nobody
/// texted, when they already had set off (or the stop is done). Refused for a delivery of laundry
/// not picked up, and for a missed stop.
pub fn set_off(
    connection: &mut DbConnection,
    id: &str,
    actor: Actor<'_>,
    context: &Context<'_>,
) -> Result<Outcome, RunError> {
    write_transaction(connection, |connection| {
        let (stop, _) = locked(connection, id, actor, context.now)?;
        let changed = change(connection, &stop.order_id, Event::SetOff(stop.kind), None, context)?;
        Ok(if changed.changed { Outcome::Changed } else { Outcome::Unchanged })
    })
}

/// "Not home / not ready": the valet could not pick up or deliver at this stop; `reason` is kept
/// with it. The stop is missed, the customer texted the link to choose a new window, and staff
/// see it at the top of the dashboard. A missed pickup withdraws the delivery until a new pickup
/// window is chosen. The same form again changes nothing.
pub fn miss(
    connection: &mut DbConnection,
    id: &str,
    actor: Actor<'_>,
    reason: &str,
    context: &Context<'_>,
) -> Result<Outcome, RunError> {
    write_transaction(connection, |connection| {
        let (stop, _) = locked(connection, id, actor, context.now)?;
        let changed = change(connection, &stop.order_id, Event::Missed(stop.kind), Some(reason), context)?;
        Ok(if changed.changed { Outcome::Changed } else { Outcome::Unchanged })
    })
}

/// "Picked up": the bill priced again from `weighing` and kept with its history, the stop done
/// and the order picked up (the customer told as `context.notify` says, with the bill as it now
/// stands). Once done, the same weighing again changes nothing, and another one corrects the bill
/// while the order is still picked up. The ledger charges the new bill's difference: what was
/// paid for the estimate counts, and a prompt asks for the rest only.
pub fn pick_up(
    connection: &mut DbConnection,
    id: &str,
    actor: Actor<'_>,
    (weighing, door_items): (&Weighing, Option<i32>),
    context: &Context<'_>,
) -> Result<Outcome, RunError> {
    let (notify, now) = (context.notify, context.now);
    write_transaction(connection, |connection| {
        let (stop, order) = locked(connection, id, actor, now)?;
        if stop.kind != StopKind::Pickup {
            return Err(RunError::Refused("This is a delivery: record it with Delivered."));
        }
        let priced = order.price_weighing(connection, weighing)?;
        let already_done = stop.state == StopState::Done;
        // The quick count at the door, kept for the intake in the shop to check its tags against.
        let recounted = match door_items {
            Some(items) if Handling::of_order(connection, &order.id)?.door_items != Some(items) => {
                Handling::set_door_items(connection, &order.id, items)?;
                true
            }
            _ => false,
        };
        if already_done && priced.unchanged {
            return Ok(if recounted { Outcome::Changed } else { Outcome::Unchanged });
        }
        if !already_done && order.status != OrderStatus::Pending {
            return Err(RunError::Refused(
                "This order is already past pickup on the dashboard. Ask staff to change the bill.",
            ));
        }
        if already_done && order.status != OrderStatus::PickedUp {
            return Err(RunError::Refused(
                "This pickup was recorded and the order has moved on. Ask staff to change the bill.",
            ));
        }
        let billed = order.record_weighing(connection, &priced, actor.email, now)?;
        money::rebill(connection, &order.id, order.total_amount, billed.total_amount, actor.email, now)?;
        if !already_done {
            change(connection, &order.id, Event::PickedUp, None, context)?;
        } else {
            // A corrected bill: the phone asks for the new amount (the first weighing's prompt
            // goes with "picked up").
            prompt_for_bill(connection, &billed, notify, now)?;
        }
        Ok(Outcome::Changed)
    })
}

/// "Delivered": the payment entered as `collected` says (cash under the valet's name, for their
/// cash-up: at most what is owed, and less is a part payment that stays owed; an M-PESA code is
/// entered once), the stop done and the order delivered (the customer told when
/// `context.notify` says: one text, delivered, which names the payment just taken). Once done, the
/// same form again changes nothing.
pub fn deliver(
    connection: &mut DbConnection,
    id: &str,
    actor: Actor<'_>,
    (collected, count): (&Collected, Option<(i32, i32)>),
    context: &Context<'_>,
) -> Result<Outcome, RunError> {
    let now = context.now;
    let attempt = |connection: &mut DbConnection| {
        write_transaction(connection, |connection| {
            let (stop, order) = locked(connection, id, actor, now)?;
            if stop.kind != StopKind::Delivery {
                return Err(RunError::Refused("This is a pickup: record it with Picked up."));
            }
            if stop.state == StopState::Done {
                return Ok(Outcome::Unchanged);
            }
            if order.status == OrderStatus::Pending {
                return Err(RunError::Lifecycle(Refusal::NotPickedUp));
            }
            // Items taken in with tags are counted at the door; a short count opens a claim.
            let tagged = crate::models::garments::Garment::of_order(connection, &order.id)?.len();
            let mut short = None;
            match count {
                Some(count) => {
                    let claim = super::garments::count_at_delivery(connection, &order.id, count, actor.email, now)?;
                    short = claim.map(|(_, expected)| Outcome::DeliveredShort { counted: count, expected });
                }
                None if tagged > 0 => {
                    let message = format!("Count the {tagged} items and the bags before handing them over.");
                    return Err(RunError::Invalid(one_field("countItems", message)));
                }
                None => {}
            }
            let balance = Entry::balance(connection, &order.id)?;
            if let Some(payment) = payment_to_record(connection, &order, &balance, collected)? {
                // The delivered text names the payment: one text, not two at the door.
                let recorded =
                    record_payment_within(connection, &order.id, &payment, actor.email, false, context.notify, now)?;
                match recorded {
                    Ok(_) => {}
                    Err(MoneyRefusal::CodeUsed(reference)) => return Err(RunError::CodeUsedBy(reference)),
                    Err(refused) => return Err(RunError::Invalid(one_field("paid", refused.to_string()))),
                }
            }
            change(connection, &order.id, Event::Delivered, None, context)?;
            Ok(short.unwrap_or(Outcome::Changed))
        })
    };
    match attempt(connection) {
        // Another order took the code between the check and the write; the check now sees it.
        Err(RunError::Database(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _))) => {
            attempt(connection)
        }
        outcome => outcome,
    }
}

/// The order whose M-PESA prompt `actor` may send at the door of this stop: a delivery (a valet
/// only at a stop of their own run today), of an order picked up, not cancelled and not paid.
/// Nothing is written; the caller asks for the prompt next
/// ([`crate::models::mpesa::MpesaPrompt::ask_again`], which checks the order again under its lock).
pub fn order_to_prompt(
    connection: &mut DbConnection,
    id: &str,
    actor: Actor<'_>,
    now: PrimitiveDateTime,
) -> Result<Order, RunError> {
    write_transaction(connection, |connection| {
        let (stop, order) = locked(connection, id, actor, now)?;
        if stop.kind != StopKind::Delivery {
            return Err(RunError::Refused("A prompt to pay is sent at the delivery."));
        }
        if order.status == OrderStatus::Pending {
            // Nothing to pay for yet: the shop does not have the laundry.
            return Err(RunError::Lifecycle(Refusal::NotPickedUp));
        }
        if Entry::balance(connection, &order.id)?.to_pay() < 1 {
            return Err(RunError::Refused("This order is paid already."));
        }
        Ok(order)
    })
}

/// The stop and its order, both locked for the rest of the transaction (PostgreSQL: the order's
/// row first, as every path that changes an order and its stops takes it, then the stop; a second
/// form for it waits, then reads what the first wrote; SQLite writes one transaction at a time),
/// once `actor` may change it: a valet only stops of their own run of today; neither cancelled.
fn locked(
    connection: &mut DbConnection,
    id: &str,
    actor: Actor<'_>,
    now: PrimitiveDateTime,
) -> Result<(Stop, Order), RunError> {
    let order_id: Option<String> = stops::table.find(id).select(stops::order_id).first(connection).optional()?;
    let Some(order_id) = order_id else {
        return Err(RunError::NoSuchStop);
    };
    Order::lock(connection, &order_id)?;
    let locked = diesel::update(stops::table.find(id)).set(stops::state.eq(stops::state)).execute(connection)?;
    if locked == 0 {
        return Err(RunError::NoSuchStop);
    }
    let (stop, order): (Stop, Order) = stops::table
        .inner_join(orders::table)
        .filter(stops::id.eq(id))
        .select((Stop::as_select(), Order::as_select()))
        .first(connection)?;
    if let Some(valet) = actor.only_run_of {
        if stop.valet_id.as_deref() != Some(valet) {
            return Err(RunError::NotYourStop);
        }
        if stop.day != nairobi_day(now.assume_utc()) {
            return Err(RunError::Refused("This stop is not on today's run."));
        }
    }
    // A cancelled order's delivery still open is the return of its laundry: it goes on.
    if stop.state == StopState::Cancelled || (order.status == OrderStatus::Cancelled && stop.kind == StopKind::Pickup) {
        return Err(RunError::Cancelled);
    }
    Ok((stop, order))
}

/// The payment a delivery enters: none when nothing is owed (and the valet says it was paid, or
/// gives the code it was paid with) or the order costs nothing; cash up to what is owed (less is a
/// part payment: the rest stays owed, listed for staff); an M-PESA code for what is owed.
fn payment_to_record(
    connection: &mut DbConnection,
    order: &Order,
    balance: &Balance,
    collected: &Collected,
) -> Result<Option<StaffPayment>, RunError> {
    let refuse = |field: &'static str, message: String| Err(RunError::Invalid(one_field(field, message)));
    let owed = balance.to_pay();
    match collected {
        // Nothing owed and the form agrees (or names the code it was paid with).
        Collected::AlreadyPaid | Collected::NothingToPay if owed < 1 => Ok(None),
        Collected::Cash(0) if owed < 1 => Ok(None),
        Collected::Mpesa(code) if owed < 1 => {
            let entered = Entry::payment_with_code(connection, code.as_str())?;
            if entered.is_some_and(|entry| entry.order_id == order.id) {
                Ok(None)
            } else {
                refuse("paid", "Nothing is owed on this order: choose Already paid.".to_owned())
            }
        }
        _ if owed < 1 => refuse("paid", "Nothing is owed on this order: choose Already paid.".to_owned()),
        Collected::NothingToPay | Collected::AlreadyPaid => {
            refuse("paid", format!("{}: collect it in cash or by M-PESA.", balance.valet_words()))
        }
        Collected::Cash(cash) if i64::from(*cash) > owed => refuse(
            "cash",
            format!("Collect KSh {} (what is owed); more would be the customer's credit.", shillings(owed)),
        ),
        Collected::Cash(0) => refuse("cash", format!("Collect KSh {} in cash, or choose M-PESA.", shillings(owed))),
        Collected::Cash(cash) => Ok(Some(StaffPayment::Cash(Some(*cash)))),
        Collected::Mpesa(code) => Ok(Some(StaffPayment::Mpesa(code.clone(), None))),
    }
}

fn one_field(field: &'static str, message: String) -> FieldErrors {
    let mut fields = FieldErrors::default();
    fields.add(field, message);
    fields
}
