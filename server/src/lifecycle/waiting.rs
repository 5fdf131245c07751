//! The orders that wait for someone, oldest first, for the top of the dashboard: stops the valet
//! missed (not home, not ready) that have no new window yet, pickups whose window has passed and
//! that were neither done nor missed, orders ready for longer than the shop allows without being
//! delivered, and orders a rack audit did not find on their rack.

use crate::db::DbConnection;
use crate::db::schema::{order_handling, order_status_history, orders, stops};
use crate::domain::lifecycle::Moment;
use crate::domain::schedule::Slot;
use crate::domain::{OrderStatus, StopKind, StopState};
use crate::models::order::Order;
use crate::models::stop::Stop;
use diesel::prelude::*;
use time::PrimitiveDateTime;

/// The most of each kind the dashboard lists.
pub const LIMIT: i64 = 50;

/// Why an order is waiting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Waiting {
    /// The valet marked this stop missed; it needs a new window.
    Missed(Stop),
    /// This pickup's window has passed and nobody recorded it.
    PickupOverdue(Stop),
    /// Ready since then, not delivered.
    ReadyTooLong(PrimitiveDateTime),
    /// Not on its rack (this one, if it had one) at an audit since then.
    MissingFromRack(Option<String>, PrimitiveDateTime),
}

/// An order that waits, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct WaitingOrder {
    /// The order.
    pub order: Order,
    /// Why it waits.
    pub why: Waiting,
}

impl WaitingOrder {
    /// Since when it waits, for the oldest first.
    pub fn since(&self) -> Moment {
        match &self.why {
            Waiting::Missed(stop) | Waiting::PickupOverdue(stop) => {
                Moment { day: stop.day, minute: stop.slot().window.end }
            }
            Waiting::ReadyTooLong(at) | Waiting::MissingFromRack(_, at) => super::moment(*at),
        }
    }

    /// The stop's slot, for a missed or overdue stop.
    pub fn slot(&self) -> Option<Slot> {
        match &self.why {
            Waiting::Missed(stop) | Waiting::PickupOverdue(stop) => Some(stop.slot()),
            Waiting::ReadyTooLong(_) | Waiting::MissingFromRack(..) => None,
        }
    }
}

/// The orders waiting at `now` (UTC), oldest first: missed stops, open pickups whose window ended,
/// and orders ready for more than `ready_days` days.
pub fn waiting(
    connection: &mut DbConnection,
    now: PrimitiveDateTime,
    ready_days: u16,
) -> QueryResult<Vec<WaitingOrder>> {
    let Moment { day: today, minute } = super::moment(now);
    let ready_before = now - time::Duration::days(i64::from(ready_days));
    let missed: Vec<(Stop, Order)> = stops::table
        .inner_join(orders::table)
        .filter(stops::state.eq(StopState::Missed))
        .filter(orders::status.ne(OrderStatus::Cancelled))
        .order((stops::day.asc(), stops::window_start.asc()))
        .limit(LIMIT)
        .select((Stop::as_select(), Order::as_select()))
        .load(connection)?;
    let overdue: Vec<(Stop, Order)> = stops::table
        .inner_join(orders::table)
        .filter(stops::kind.eq(StopKind::Pickup))
        .filter(stops::state.eq_any([StopState::Planned, StopState::OnTheWay]))
        .filter(stops::day.lt(today).or(stops::day.eq(today).and(stops::window_end.le(i32::from(minute)))))
        .filter(orders::status.eq(OrderStatus::Pending))
        .order((stops::day.asc(), stops::window_start.asc()))
        .limit(LIMIT)
        .select((Stop::as_select(), Order::as_select()))
        .load(connection)?;
    // Ready orders, with when they became ready (the newest "ready" of their history).
    let ready: Vec<(Order, Option<PrimitiveDateTime>)> = orders::table
        .inner_join(order_status_history::table)
        .filter(orders::status.eq(OrderStatus::Ready))
        .filter(order_status_history::status.eq(OrderStatus::Ready))
        .group_by(orders::id)
        .having(diesel::dsl::max(order_status_history::changed_at).lt(ready_before))
        .select((Order::as_select(), diesel::dsl::max(order_status_history::changed_at)))
        .limit(LIMIT)
        .load(connection)?;
    // Orders a rack audit did not find, not yet delivered (found again, they are hung again):
    // the few marked, through their index, then those orders by their keys.
    let marked: Vec<(String, Option<String>, Option<PrimitiveDateTime>)> = order_handling::table
        .filter(order_handling::missing_since.is_not_null())
        .order(order_handling::missing_since.asc())
        .limit(LIMIT)
        .select((order_handling::order_id, order_handling::rack, order_handling::missing_since))
        .load(connection)?;
    let keys: Vec<&str> = marked.iter().map(|(key, _, _)| key.as_str()).collect();
    let open: Vec<Order> = match keys.is_empty() {
        true => Vec::new(),
        false => orders::table
            .filter(orders::id.eq_any(&keys))
            .filter(orders::status.ne_all([OrderStatus::Delivered, OrderStatus::Cancelled]))
            .select(Order::as_select())
            .load(connection)?,
    };
    let lost = marked.iter().filter_map(|(key, rack, at)| {
        let order = open.iter().find(|order| &order.id == key)?.clone();
        Some(WaitingOrder { order, why: Waiting::MissingFromRack(rack.clone(), (*at)?) })
    });
    let mut found: Vec<WaitingOrder> = missed
        .into_iter()
        .map(|(stop, order)| WaitingOrder { order, why: Waiting::Missed(stop) })
        .chain(overdue.into_iter().map(|(stop, order)| WaitingOrder { order, why: Waiting::PickupOverdue(stop) }))
        .chain(
            ready.into_iter().filter_map(|(order, at)| Some(WaitingOrder { order, why: Waiting::ReadyTooLong(at?) })),
        )
        .chain(lost)
        .collect();
    found.sort_by_key(WaitingOrder::since);
    Ok(found)
}
