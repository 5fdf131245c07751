//! The customer's own changes from the order's page (`/t/{token}`): move the pickup, choose a new
//! window for a pickup or a delivery the valet missed, and cancel. Moving and cancelling are allowed
//! while the order is pending, its pickup not done, and the pickup's cut-off not passed
//! ([`change_refusal`]); a missed pickup can be moved at any time. Each runs in one transaction
//! through [`super::change`], with the order's row locked on PostgreSQL.

use super::{Context, LifeError, change};
use crate::db::schema::orders;
use crate::db::{DbConnection, write_transaction};
use crate::domain::lifecycle::{Event, Refusal};
use crate::domain::schedule::{Schedule, Slot, SlotRefusal};
use crate::domain::{OrderStatus, StopKind, StopState};
use crate::models::ledger::Entry;
use crate::models::order::Order;
use crate::models::stop::Stop;
use crate::notify::NotifyCustomer;
use diesel::prelude::*;
use time::{Date, OffsetDateTime, PrimitiveDateTime};

/// Who the status history names when the customer cancels from the order's page.
pub const CANCELLED_BY_CUSTOMER: &str = "customer";

/// Why the customer can no longer change the order's visit online; each says so in words the
/// customer can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChangeRefusal {
    /// The order is cancelled.
    #[error("This order is cancelled, so there is nothing left to change.")]
    Cancelled,
    /// The laundry was picked up (or the order is further along).
    #[error("Your laundry has been picked up, so the pickup can no longer be changed online.")]
    PickedUp,
    /// No pickup stop is booked (an order from before slots, or one taken back from cancelled).
    #[error("This order has no pickup window booked online. Please call or WhatsApp us to change it.")]
    NoPickup,
    /// The pickup's cut-off has passed; the number is the cut-off in minutes.
    #[error("{}", past_cutoff(*.0))]
    PastCutoff(u16),
    /// The order is paid: cancelling means sending money back, which staff do.
    #[error(
        "Money was paid for this order, so it cannot be cancelled online. Please call or WhatsApp us: we will cancel it and send your money back."
    )]
    Paid,
    /// The window asked for is the one already booked.
    #[error("Your pickup is already booked in that window. Please choose another one.")]
    SameWindow,
    /// The window asked for cannot be booked (full, past its cut-off, closed, …).
    #[error(transparent)]
    Slot(#[from] SlotRefusal),
    /// The order's life does not allow it (a delivery not missed, …).
    #[error(transparent)]
    Life(Refusal),
}

fn past_cutoff(minutes: u16) -> String {
    let when = match minutes {
        0 => "when the pickup window starts".to_owned(),
        minutes => format!("{minutes} minutes before the pickup window starts"),
    };
    format!(
        "Changes and cancellations close {when}, so this order can no longer be changed online. Please call or WhatsApp us."
    )
}

/// Why a change did not happen.
#[derive(Debug, thiserror::Error)]
pub enum ChangeError {
    /// No order has that page.
    #[error("no order has this page")]
    NotFound,
    /// The change is not allowed; nothing was written.
    #[error(transparent)]
    Refused(#[from] ChangeRefusal),
    /// The database failed; nothing was written.
    #[error(transparent)]
    Database(#[from] diesel::result::Error),
}

impl From<LifeError> for ChangeError {
    fn from(error: LifeError) -> Self {
        match error {
            LifeError::NotFound => ChangeError::NotFound,
            LifeError::Refused(Refusal::Paid) => ChangeError::Refused(ChangeRefusal::Paid),
            LifeError::Refused(Refusal::Cancelled) => ChangeError::Refused(ChangeRefusal::Cancelled),
            LifeError::Refused(Refusal::AlreadyPickedUp) => ChangeError::Refused(ChangeRefusal::PickedUp),
            LifeError::Refused(refusal) => ChangeError::Refused(ChangeRefusal::Life(refusal)),
            LifeError::Slot(refusal) => ChangeError::Refused(ChangeRefusal::Slot(refusal)),
            LifeError::Database(error) => ChangeError::Database(error),
        }
    }
}

/// Whether the customer may still move or cancel `order`'s visit at `now`: `None` when they may,
/// otherwise why not. `pickup` is the order's pickup stop, if it has one.
pub fn change_refusal(
    order: &Order,
    pickup: Option<&Stop>,
    schedule: &Schedule,
    now: OffsetDateTime,
) -> Option<ChangeRefusal> {
    match order.status {
        OrderStatus::Pending => {}
        OrderStatus::Cancelled => return Some(ChangeRefusal::Cancelled),
        _ => return Some(ChangeRefusal::PickedUp),
    }
    let Some(pickup) = pickup else { return Some(ChangeRefusal::NoPickup) };
    match pickup.state {
        StopState::Done => Some(ChangeRefusal::PickedUp),
        StopState::Cancelled => Some(ChangeRefusal::NoPickup),
        // The valet missed it: the customer chooses a new window, whenever they read the text.
        StopState::Missed => None,
        StopState::Planned | StopState::OnTheWay => {
            (!schedule.before_cutoff(&pickup.slot(), now)).then_some(ChangeRefusal::PastCutoff(schedule.cutoff_minutes))
        }
    }
}

/// Who the order's history names for the customer's own changes.
fn customer_context<'a>(notify: &'a NotifyCustomer, schedule: &'a Schedule, now: PrimitiveDateTime) -> Context<'a> {
    Context { by: CANCELLED_BY_CUSTOMER, notify, schedule, now }
}

/// The customer moves the pickup of the order whose page is `/t/{token}` to `day`'s window
/// starting at `start` (its delivery follows, keeping the turnaround), in one transaction. The
/// confirmation is cleared: staff confirm the new slot again. Refused, with nothing written, when
/// [`change_refusal`] says no or the new window cannot take it. A missed pickup is booked again
/// the same way.
pub fn reschedule_by_customer(
    connection: &mut DbConnection,
    token: &str,
    schedule: &Schedule,
    (day, start): (Date, u16),
    now: PrimitiveDateTime,
) -> Result<Slot, ChangeError> {
    let moment = now.assume_utc();
    write_transaction(connection, |connection| {
        let (order, pickup) = changeable(connection, token, schedule, moment)?;
        if pickup.day == day && pickup.window_start == i32::from(start) {
            return Err(ChangeRefusal::SameWindow.into());
        }
        let (slot, _) = schedule.check(day, start, moment).map_err(ChangeRefusal::Slot)?;
        let event = Event::CustomerMovePickup { to: slot, delivery: schedule.delivery_for(slot, order.rush) };
        let nobody = NotifyCustomer::nobody();
        change(connection, &order.id, event, None, &customer_context(&nobody, schedule, now))?;
        Ok(slot)
    })
}

/// The customer chooses a new window for the delivery the valet missed, for the order whose page
/// is `/t/{token}`. Refused unless the delivery was missed.
pub fn reschedule_missed_delivery(
    connection: &mut DbConnection,
    token: &str,
    schedule: &Schedule,
    (day, start): (Date, u16),
    now: PrimitiveDateTime,
) -> Result<Slot, ChangeError> {
    let moment = now.assume_utc();
    write_transaction(connection, |connection| {
        let order = locked_by_token(connection, token)?;
        let (slot, _) = schedule.check(day, start, moment).map_err(ChangeRefusal::Slot)?;
        let nobody = NotifyCustomer::nobody();
        let event = Event::CustomerMoveDelivery { to: slot };
        change(connection, &order.id, event, None, &customer_context(&nobody, schedule, now))?;
        Ok(slot)
    })
}

/// The customer cancels the order whose page is `/t/{token}`: its status becomes cancelled
/// (recorded as by [`CANCELLED_BY_CUSTOMER`], the customer told as `notify` says) and its stops
/// are cancelled, so that the pickup's place in its window is free again, in one transaction.
/// Refused, with nothing written, when [`change_refusal`] says no or the order is paid.
pub fn cancel_by_customer(
    connection: &mut DbConnection,
    token: &str,
    schedule: &Schedule,
    notify: &NotifyCustomer,
    now: PrimitiveDateTime,
) -> Result<Order, ChangeError> {
    write_transaction(connection, |connection| {
        let (order, _) = changeable(connection, token, schedule, now.assume_utc())?;
        if Entry::balance(connection, &order.id)?.received() > 0 {
            return Err(ChangeRefusal::Paid.into());
        }
        let changed =
            change(connection, &order.id, Event::CustomerCancel, None, &customer_context(notify, schedule, now))?;
        Ok(changed.after.order)
    })
}

/// Inside a transaction: the order whose page is `token`, its row locked until the end of the
/// transaction (PostgreSQL; SQLite runs one write transaction at a time).
fn locked_by_token(connection: &mut DbConnection, token: &str) -> Result<Order, ChangeError> {
    if let DbConnection::Postgres(pg) = connection {
        diesel::sql_query("SELECT id FROM orders WHERE link_token = $1 FOR UPDATE")
            .bind::<diesel::sql_types::Text, _>(token)
            .execute(pg)?;
    }
    orders::table
        .filter(orders::link_token.eq(token))
        .select(Order::as_select())
        .first(connection)
        .optional()?
        .ok_or(ChangeError::NotFound)
}

/// [`locked_by_token`], and its pickup, when the customer may still change them.
fn changeable(
    connection: &mut DbConnection,
    token: &str,
    schedule: &Schedule,
    now: OffsetDateTime,
) -> Result<(Order, Stop), ChangeError> {
    let order = locked_by_token(connection, token)?;
    let pickup = Stop::of_order(connection, &order.id, StopKind::Pickup)?;
    if let Some(refusal) = change_refusal(&order, pickup.as_ref(), schedule, now) {
        return Err(refusal.into());
    }
    let pickup = pickup.ok_or(ChangeRefusal::NoPickup)?;
    Ok((order, pickup))
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::{date, datetime};

    fn order(status: OrderStatus) -> Order {
        let at = datetime!(2026-11-20 09:00);
        Order {
            id: "id".to_owned(),
            reference: "K7MX2QPD".to_owned(),
            customer_name: "Amina Wanjiru".to_owned(),
            phone: "+254712345678".to_owned(),
            email: None,
            location: "Kilimani".to_owned(),
            service_type: "wash-fold".to_owned(),
            service_label: "Wash & Fold".to_owned(),
            quantity: 5,
            payment_method: crate::domain::PaymentMethod::PayDelivery,
            special_instructions: String::new(),
            price_per_kg: 150,
            total_amount: 750,
            status,
            idempotency_key: None,
            request_fingerprint: None,
            created_at: at,
            updated_at: at,
            landmark: String::new(),
            pin_lat: None,
            pin_lng: None,
            rush: false,
            link_token: Some("abcdefghijklmnop".to_owned()),
            estimate_amount: 750,
            source: crate::domain::OrderSource::Web,
            cancel_reason: None,
        }
    }

    /// A pickup on Wed 25 Nov 2026, 19:00-20:00.
    fn pickup(state: StopState) -> Stop {
        Stop {
            id: "stop".to_owned(),
            order_id: "id".to_owned(),
            kind: StopKind::Pickup,
            day: date!(2026 - 11 - 25),
            window_start: 1140,
            window_end: 1200,
            state,
            valet_id: None,
            run_position: None,
            confirmed_at: None,
            confirmed_by: None,
            on_the_way_at: None,
            done_at: None,
            created_at: datetime!(2026-11-20 09:00),
            missed_reason: None,
            missed_at: None,
            missed_by: None,
        }
    }

    #[test]
    fn a_pending_order_can_be_changed_until_an_hour_before_its_pickup_window_in_nairobi() {
        let schedule = Schedule::default();
        // 17:59 and 18:00 in Nairobi are 14:59 and 15:00 UTC.
        let before = change_refusal(
            &order(OrderStatus::Pending),
            Some(&pickup(StopState::Planned)),
            &schedule,
            datetime!(2026-11-25 14:59 UTC),
        );
        let after = change_refusal(
            &order(OrderStatus::Pending),
            Some(&pickup(StopState::Planned)),
            &schedule,
            datetime!(2026-11-25 15:00 UTC),
        );

        assert_eq!(before, None);
        assert_eq!(after, Some(ChangeRefusal::PastCutoff(60)));
        assert_eq!(
            after.unwrap_or(ChangeRefusal::Cancelled).to_string(),
            "Changes and cancellations close 60 minutes before the pickup window starts, so this order can no longer be changed online. Please call or WhatsApp us."
        );
    }

    #[test]
    fn a_cancelled_or_picked_up_order_or_one_without_a_pickup_cannot_be_changed() {
        let schedule = Schedule::default();
        let early = datetime!(2026-11-21 09:00 UTC);
        let planned = pickup(StopState::Planned);

        assert_eq!(
            change_refusal(&order(OrderStatus::Cancelled), Some(&planned), &schedule, early),
            Some(ChangeRefusal::Cancelled)
        );
        assert_eq!(
            change_refusal(&order(OrderStatus::PickedUp), Some(&planned), &schedule, early),
            Some(ChangeRefusal::PickedUp)
        );
        assert_eq!(
            change_refusal(&order(OrderStatus::Pending), Some(&pickup(StopState::Done)), &schedule, early),
            Some(ChangeRefusal::PickedUp)
        );
        assert_eq!(change_refusal(&order(OrderStatus::Pending), None, &schedule, early), Some(ChangeRefusal::NoPickup));
    }
}
