//! Stops: an order's pickup and its delivery, each in a day's window, and where they stand in a
//! valet's run. A window's capacity is the number of pickups in it that are not cancelled; booking
//! counts and inserts under a lock on that window, so that bookings arriving together never pass
//! it, on either backend.

use crate::db::schema::{orders, stops};
use crate::db::{DbConnection, lock_until_commit};
use crate::domain::schedule::{RunPosition, Schedule, Slot, SlotRefusal, Window};
use crate::domain::{OrderStatus, StopKind, StopState, WindowAvailability};
use diesel::prelude::*;
use std::collections::HashMap;
use time::{Date, OffsetDateTime, PrimitiveDateTime};

/// A stored stop.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = stops)]
pub struct Stop {
    /// UUID v4.
    pub id: String,
    /// The order's key.
    pub order_id: String,
    /// Pickup or delivery.
    pub kind: StopKind,
    /// The day, Nairobi.
    pub day: Date,
    /// Minutes after Nairobi's midnight.
    pub window_start: i32,
    /// Minutes after Nairobi's midnight.
    pub window_end: i32,
    /// How far it has got.
    pub state: StopState,
    /// The valet whose run it is in, if staff gave it to one.
    pub valet_id: Option<String>,
    /// Its place in that run, from 1.
    pub run_position: Option<i32>,
    /// When staff confirmed the slot (pickups), UTC.
    pub confirmed_at: Option<PrimitiveDateTime>,
    /// Who confirmed it.
    pub confirmed_by: Option<String>,
    /// When the valet set off for it, UTC.
    pub on_the_way_at: Option<PrimitiveDateTime>,
    /// When it was done, UTC.
    pub done_at: Option<PrimitiveDateTime>,
    /// UTC.
    pub created_at: PrimitiveDateTime,
    /// Missed: why, in the valet's (or staff's) words.
    pub missed_reason: Option<String>,
    /// When it was marked missed, UTC.
    pub missed_at: Option<PrimitiveDateTime>,
    /// Who marked it.
    pub missed_by: Option<String>,
}

/// Why a booking did not happen.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The slot cannot be booked (past its cut-off, closed, full, …).
    #[error(transparent)]
    Refused(#[from] SlotRefusal),
    /// The database failed.
    #[error(transparent)]
    Database(#[from] diesel::result::Error),
}

impl Stop {
    /// The stop's day and window.
    pub fn slot(&self) -> Slot {
        let window = Window::stored(self.window_start, self.window_end);
        Slot { day: self.day, window }
    }

    /// The order's stops: its pickup, then its delivery.
    pub fn for_order(connection: &mut DbConnection, order_id: &str) -> QueryResult<Vec<Stop>> {
        stops::table
            .filter(stops::order_id.eq(order_id))
            .order(stops::kind.desc())
            .select(Stop::as_select())
            .load(connection)
    }

    /// The stops of the orders `ids` (internal ids), by order.
    pub fn of_orders(connection: &mut DbConnection, ids: &[&str]) -> QueryResult<HashMap<String, Vec<Stop>>> {
        let mut by_order: HashMap<String, Vec<Stop>> = HashMap::new();
        if ids.is_empty() {
            return Ok(by_order);
        }
        let found = stops::table.filter(stops::order_id.eq_any(ids)).select(Stop::as_select()).load(connection)?;
        for stop in found {
            by_order.entry(stop.order_id.clone()).or_default().push(stop);
        }
        Ok(by_order)
    }

    /// The order's stop of `kind`, if it has one.
    pub fn of_order(connection: &mut DbConnection, order_id: &str, kind: StopKind) -> QueryResult<Option<Stop>> {
        stops::table
            .filter(stops::order_id.eq(order_id))
            .filter(stops::kind.eq(kind))
            .select(Stop::as_select())
            .first(connection)
            .optional()
    }

    /// Pickups booked in each window of `day` (cancelled ones do not count): `(window start, count)`.
    pub fn pickups_booked(connection: &mut DbConnection, day: Date) -> QueryResult<Vec<(i32, i64)>> {
        stops::table
            .filter(stops::day.eq(day))
            .filter(stops::kind.eq(StopKind::Pickup))
            .filter(stops::state.ne(StopState::Cancelled))
            .group_by(stops::window_start)
            .select((stops::window_start, diesel::dsl::count_star()))
            .load(connection)
    }

    /// Pickups booked in each window of the days from `from` to `to` (both included; cancelled
    /// ones do not count), in one query: `(day, window start, count)`, windows with none left out.
    pub fn pickups_booked_between(
        connection: &mut DbConnection,
        from: Date,
        to: Date,
    ) -> QueryResult<Vec<(Date, i32, i64)>> {
        stops::table
            .filter(stops::day.between(from, to))
            .filter(stops::kind.eq(StopKind::Pickup))
            .filter(stops::state.ne(StopState::Cancelled))
            .group_by((stops::day, stops::window_start))
            .select((stops::day, stops::window_start, diesel::dsl::count_star()))
            .load(connection)
    }

    /// Every window of the booking horizon that is not past its cut-off, with the places it has
    /// left at `now` (0 when full), in order, counted in one query: what the order form offers,
    /// what a customer or staff can move a pickup to, and where an order without a choice goes.
    pub fn bookable_windows(
        connection: &mut DbConnection,
        schedule: &Schedule,
        now: OffsetDateTime,
    ) -> QueryResult<Vec<WindowAvailability>> {
        let days = schedule.bookable_days(now);
        let (Some(&first), Some(&last)) = (days.first(), days.last()) else {
            return Ok(Vec::new());
        };
        let booked = Stop::pickups_booked_between(connection, first, last)?;
        Ok(days
            .into_iter()
            .flat_map(|day| {
                schedule.availability(day, now, |start| {
                    booked
                        .iter()
                        .find(|(d, s, _)| *d == day && *s == i32::from(start))
                        .map_or(0, |(_, _, n)| u32::try_from(*n).unwrap_or(u32::MAX))
                })
            })
            .filter(|window| window.is_open() || window.is_full())
            .collect())
    }

    /// Books the order's pickup in `day`'s window starting at `start`, and its delivery after it,
    /// inside the caller's transaction. Refused (and nothing written) when the schedule says no or
    /// the window is full.
    pub fn book(
        connection: &mut DbConnection,
        order_id: &str,
        schedule: &Schedule,
        (day, start): (Date, u16),
        rush: bool,
        now: OffsetDateTime,
    ) -> Result<Slot, BookError> {
        let pickup = reserve(connection, schedule, day, start, now, None)?;
        let delivery = schedule.delivery_for(pickup, rush);
        let stored = crate::clock::stored(now);
        for (kind, slot) in [(StopKind::Pickup, pickup), (StopKind::Delivery, delivery)] {
            diesel::insert_into(stops::table)
                .values((
                    stops::id.eq(crate::db::new_key()),
                    stops::order_id.eq(order_id),
                    stops::kind.eq(kind),
                    stops::day.eq(slot.day),
                    stops::window_start.eq(i32::from(slot.window.start)),
                    stops::window_end.eq(i32::from(slot.window.end)),
                    stops::state.eq(StopState::Planned),
                    stops::created_at.eq(stored),
                ))
                .execute(connection)?;
        }
        Ok(pickup)
    }

    /// Books the order's pickup in the first window from `now` on that has room, and its delivery
    /// after it, inside the caller's transaction: what an order placed without choosing a window
    /// gets. The windows the schedule takes at `now` are tried in time order, each counted under
    /// its lock (see [`reserve`]) and passed over when full, so an order is refused only when every
    /// window of the horizon is full. Only the windows tried are counted: when the first has room,
    /// one window, not the whole horizon (whose stops grow with a shop's orders a day). The locks
    /// are taken in time order, so two bookings walking the windows never wait for each other in a
    /// circle.
    pub fn book_first_open(
        connection: &mut DbConnection,
        order_id: &str,
        schedule: &Schedule,
        rush: bool,
        now: OffsetDateTime,
    ) -> Result<Slot, BookError> {
        for day in schedule.bookable_days(now) {
            for plan in &schedule.windows {
                if schedule.check(day, plan.window.start, now).is_err() {
                    continue;
                }
                match Stop::book(connection, order_id, schedule, (day, plan.window.start), rush, now) {
                    Err(BookError::Refused(SlotRefusal::Full(_))) => continue,
                    other => return other,
                }
            }
        }
        Err(BookError::Refused(SlotRefusal::Full(format!("next {} days'", schedule.horizon_days))))
    }

    /// The first window from `now` on with room: what an order placed without choosing one gets.
    pub fn next_open(
        connection: &mut DbConnection,
        schedule: &Schedule,
        now: OffsetDateTime,
    ) -> Result<(Date, u16), BookError> {
        Stop::bookable_windows(connection, schedule, now)?
            .into_iter()
            .find(WindowAvailability::is_open)
            .map(|window| (window.slot.day, window.slot.window.start))
            .ok_or_else(|| BookError::Refused(SlotRefusal::Full(format!("next {} days'", schedule.horizon_days))))
    }

    /// Checks `slot` against the schedule and, under the window's lock, that it has room for the
    /// pickup of `order_id` (its own place, if it has one there, not counted): what moving a pickup
    /// or booking it again takes.
    pub fn reserve_pickup(
        connection: &mut DbConnection,
        schedule: &Schedule,
        slot: Slot,
        now: OffsetDateTime,
        order_id: &str,
    ) -> Result<Slot, BookError> {
        reserve(connection, schedule, slot.day, slot.window.start, now, Some(order_id))
    }

    /// Cancels the order's stops that are not done (the order was cancelled): its pickup's place
    /// in the window is free again.
    pub fn cancel_for_order(connection: &mut DbConnection, order_id: &str) -> QueryResult<usize> {
        diesel::update(stops::table.filter(stops::order_id.eq(order_id)).filter(stops::state.ne(StopState::Done)))
            .set(stops::state.eq(StopState::Cancelled))
            .execute(connection)
    }

    /// Records that `by` confirmed the order's pickup slot. False when it has no pickup stop.
    pub fn confirm(
        connection: &mut DbConnection,
        order_id: &str,
        by: &str,
        now: PrimitiveDateTime,
    ) -> QueryResult<bool> {
        let changed =
            diesel::update(stops::table.filter(stops::order_id.eq(order_id)).filter(stops::kind.eq(StopKind::Pickup)))
                .set((stops::confirmed_at.eq(now), stops::confirmed_by.eq(by)))
                .execute(connection)?;
        Ok(changed > 0)
    }

    /// Pickups not yet confirmed, of orders still pending, oldest booking first, with their order.
    pub fn unconfirmed(
        connection: &mut DbConnection,
        limit: i64,
    ) -> QueryResult<Vec<(Stop, crate::models::order::Order)>> {
        use crate::models::order::Order;
        stops::table
            .inner_join(orders::table)
            .filter(stops::kind.eq(StopKind::Pickup))
            .filter(stops::confirmed_at.is_null())
            .filter(stops::state.ne(StopState::Cancelled))
            .filter(orders::status.eq(OrderStatus::Pending))
            .order(orders::created_at.asc())
            .limit(limit)
            .select((Stop::as_select(), Order::as_select()))
            .load(connection)
    }

    /// The pickups still to be made on `day` whose window ends after `minute` (Nairobi): planned
    /// or on the way, of orders not cancelled, with their order, by window and then booking.
    pub fn open_pickups_ending_after(
        connection: &mut DbConnection,
        day: Date,
        minute: u16,
    ) -> QueryResult<Vec<(Stop, crate::models::order::Order)>> {
        use crate::models::order::Order;
        stops::table
            .inner_join(orders::table)
            .filter(stops::day.eq(day))
            .filter(stops::kind.eq(StopKind::Pickup))
            .filter(stops::state.eq_any([StopState::Planned, StopState::OnTheWay]))
            .filter(stops::window_end.gt(i32::from(minute)))
            .filter(orders::status.ne(OrderStatus::Cancelled))
            .order((stops::window_start.asc(), stops::created_at.asc(), stops::id.asc()))
            .select((Stop::as_select(), Order::as_select()))
            .load(connection)
    }

    /// Where this stop stands in its valet's run today: the open stops ahead of it, and when the
    /// valet last moved on (for [`crate::domain::schedule::eta`]). `None` when it is not in a run.
    pub fn run_position(&self, connection: &mut DbConnection) -> QueryResult<Option<RunPosition>> {
        let (Some(valet), Some(position)) = (&self.valet_id, self.run_position) else {
            return Ok(None);
        };
        let run: Vec<Stop> = stops::table
            .filter(stops::valet_id.eq(valet))
            .filter(stops::day.eq(self.day))
            .select(Stop::as_select())
            .load(connection)?;
        let mut before: Vec<&Stop> =
            run.iter().filter(|stop| stop.state.is_open() && stop.run_position.is_some_and(|p| p < position)).collect();
        before.sort_by_key(|stop| stop.run_position);
        let run_start = before.first().map_or(self.window_start, |stop| stop.window_start);
        let last_progress =
            run.iter().flat_map(|stop| [stop.on_the_way_at, stop.done_at]).flatten().max().map(|at| at.assume_utc());
        let minute = |start: i32| u16::try_from(start).unwrap_or(self.slot().window.start);
        Ok(Some(RunPosition {
            window: self.slot().window,
            run_start: minute(run_start.min(self.window_start)),
            stops_before: u16::try_from(before.len()).unwrap_or(u16::MAX),
            // The stop the valet is driving to is not waited for: they are on their way now.
            windows_before: before
                .iter()
                .map(|stop| if stop.state == StopState::OnTheWay { 0 } else { minute(stop.window_start) })
                .collect(),
            last_progress,
        }))
    }
}

/// Checks the slot against the schedule and, under a lock on the window, that it has room (not
/// counting `moving`'s own pickup, which is leaving its window). SQLite runs one write
/// transaction at a time; on PostgreSQL a transaction-scoped advisory lock on the window makes a
/// second booking wait for the first and then count it.
fn reserve(
    connection: &mut DbConnection,
    schedule: &Schedule,
    day: Date,
    start: u16,
    now: OffsetDateTime,
    moving: Option<&str>,
) -> Result<Slot, BookError> {
    let (slot, capacity) = schedule.check(day, start, now)?;
    lock_until_commit(connection, &format!("pickup window {day} {start}"))?;
    // Counted from `stops_day_window` alone, which holds the state; a move leaves its own stop out.
    let mut booked = stops::table
        .filter(stops::day.eq(day))
        .filter(stops::kind.eq(StopKind::Pickup))
        .filter(stops::window_start.eq(i32::from(start)))
        .filter(stops::state.ne(StopState::Cancelled))
        .into_boxed();
    if let Some(order_id) = moving {
        booked = booked.filter(stops::order_id.ne(order_id));
    }
    let taken: i64 = booked.count().get_result(connection)?;
    if taken >= i64::from(capacity) {
        return Err(SlotRefusal::Full(slot.label()).into());
    }
    Ok(slot)
}

/// One of an order's stops and, on its day, its place in the valet's run: the customer's side of
/// the order's visit, for its own page (`/t/{token}`). The customer's own changes (move, cancel)
/// are `lifecycle::visit`'s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VisitStop {
    /// The stop.
    pub stop: Stop,
    /// Where it stands in its valet's run: only on its day, while it is in a run and not done.
    pub run: Option<RunPosition>,
}

impl Stop {
    /// The stops of the order `order_id`, its pickup first. A stop of `today` (Nairobi) that is in
    /// a valet's run and not done comes with its place in the run, for the ETA.
    pub fn visit_of(connection: &mut DbConnection, order_id: &str, today: Date) -> QueryResult<Vec<VisitStop>> {
        Stop::for_order(connection, order_id)?
            .into_iter()
            .map(|stop| {
                let run = if stop.day == today && stop.state.is_open() { stop.run_position(connection)? } else { None };
                Ok(VisitStop { stop, run })
            })
            .collect()
    }

    /// The windows `current` (an order's pickup) could move to at `now`, with the places left in
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
