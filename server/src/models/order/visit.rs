//! The customer's side of an order's visit, for its own page (`/t/{token}`): its stops with their
//! place in a valet's run on the day, and the windows its pickup could move to. The customer's
//! own changes (move, cancel) are `lifecycle::visit`'s.

use super::Order;
use crate::db::DbConnection;
use crate::domain::schedule::{RunPosition, Schedule, Slot};
use crate::models::stop::Stop;
use diesel::prelude::*;
use time::{Date, PrimitiveDateTime};

/// One of the order's stops and, on its day, its place in the valet's run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VisitStop {
    /// The stop.
    pub stop: Stop,
    /// Where it stands in its valet's run: only on its day, while it is in a run and not done.
    pub run: Option<RunPosition>,
}

impl Order {
    /// The order's stops, its pickup first. A stop of `today` (Nairobi) that is in a valet's run and
    /// not done comes with its place in the run, for the ETA.
    pub fn visit(connection: &mut DbConnection, order_id: &str, today: Date) -> QueryResult<Vec<VisitStop>> {
        Stop::for_order(connection, order_id)?
            .into_iter()
            .map(|stop| {
                let run = if stop.day == today && stop.state.is_open() { stop.run_position(connection)? } else { None };
                Ok(VisitStop { stop, run })
            })
            .collect()
    }

    /// The windows `current` (the order's pickup) could move to at `now`, with the places left in
    /// each: open days of the booking horizon, before their cut-off, not full. `current` itself is
    /// left out; its place does not count in any other window.
    pub fn pickup_choices(
        connection: &mut DbConnection,
        schedule: &Schedule,
        current: Option<Slot>,
        now: PrimitiveDateTime,
    ) -> QueryResult<Vec<(Slot, u32)>> {
        let windows = Stop::bookable_windows(connection, schedule, now.assume_utc())?;
        Ok(windows
            .into_iter()
            .filter(|window| window.remaining > 0 && Some(window.slot) != current)
            .map(|window| (window.slot, window.remaining))
            .collect())
    }
}
