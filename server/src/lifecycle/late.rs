//! The clock as an actor of the order's life: a stop whose window ended with nothing recorded (not
//! done, not missed) is late, [`Event::WindowPassed`]. A late pickup is missed and withdraws its
//! delivery (no delivery for laundry never collected), and the customer is texted "sorry, we did
//! not come" with the order's link to choose a new time; a late delivery is missed and waits for
//! a new window (staff's "Book again", or the customer's choice), the customer told one is coming.
//! Both are then in "Needs attention" as missed stops ([`super::waiting`]).
//!
//! Run by the scheduled job `jobs::late_stops` on the app's clock. Safe on several instances at
//! once: each stop is changed under its order's lock, a stop already missed is left as it is
//! (no second text), and the text's key (the stop and its day) is held once by the outbox.

use super::{Context, LifeError, change, moment};
use crate::db::schema::{orders, stops};
use crate::db::{DbConnection, write_transaction};
use crate::domain::lifecycle::{Event, Refusal};
use crate::domain::schedule::Schedule;
use crate::domain::{OrderStatus, StopKind, StopState};
use crate::notify::NotifyCustomer;
use diesel::prelude::*;
use time::PrimitiveDateTime;

/// Recorded as who marked a stop late.
pub const BY: &str = "clock";
/// The missed stop's reason, as staff read it.
pub const REASON: &str = "Late: the window passed with nothing recorded";
/// The most stops one look marks late (the next look takes the rest).
const BATCH: i64 = 200;

/// Marks late every stop whose window ended before `now` (UTC) with nothing recorded: pickups of
/// pending orders, deliveries of orders collected and not delivered, and returns. Each in a transaction of its
/// own. Returns how many were marked now (a stop another instance marked first is not counted).
pub fn mark_late_stops(
    connection: &mut DbConnection,
    schedule: &Schedule,
    notify: &NotifyCustomer,
    now: PrimitiveDateTime,
) -> Result<usize, LifeError> {
    let at = moment(now);
    let due: Vec<(String, StopKind)> = stops::table
        .inner_join(orders::table)
        .filter(stops::state.eq_any([StopState::Planned, StopState::OnTheWay]))
        .filter(stops::day.lt(at.day).or(stops::day.eq(at.day).and(stops::window_end.le(i32::from(at.minute)))))
        .filter((stops::kind.eq(StopKind::Pickup).and(orders::status.eq(OrderStatus::Pending))).or(
            // A cancelled order's delivery still open is a return of its laundry.
            stops::kind.eq(StopKind::Delivery).and(orders::status.eq_any([
                OrderStatus::PickedUp,
                OrderStatus::InProgress,
                OrderStatus::Ready,
                OrderStatus::Cancelled,
            ])),
        ))
        .order((stops::day.asc(), stops::window_end.asc()))
        .limit(BATCH)
        .select((stops::order_id, stops::kind))
        .load(connection)?;
    let context = Context { by: BY, notify, schedule, now };
    let mut marked = 0;
    for (order_id, kind) in due {
        let changed = write_transaction(connection, |connection| {
            match change(connection, &order_id, Event::WindowPassed(kind), Some(REASON), &context) {
                Ok(changed) => Ok(changed.changed),
                // Changed meanwhile (done, moved, cancelled): nothing to do.
                Err(LifeError::NotFound) => Ok(false),
                Err(LifeError::Refused(
                    Refusal::WindowNotOver
                    | Refusal::AlreadyPickedUp
                    | Refusal::AlreadyDelivered
                    | Refusal::Cancelled
                    | Refusal::NotPickedUp,
                )) => Ok(false),
                Err(error) => Err(error),
            }
        })?;
        marked += usize::from(changed);
    }
    Ok(marked)
}
