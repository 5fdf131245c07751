//! A valet's run: the day's stops with their orders, in run order (what the valet records at each
//! one is `lifecycle::valet`).

use crate::db::DbConnection;
use crate::db::schema::{orders, stops};
use crate::domain::schedule::RunPosition;
use crate::domain::{Balance, OrderStatus, StopKind, StopState};
use crate::models::ledger::Entry;
use crate::models::order::{Order, OrderLine};
use crate::models::stop::Stop;
use diesel::prelude::*;
use time::Date;

/// A stop of the run with everything the valet page shows of it.
#[derive(Debug, Clone)]
pub struct RunStop {
    /// The stop.
    pub stop: Stop,
    /// Its order.
    pub order: Order,
    /// The order's lines (its bill).
    pub lines: Vec<OrderLine>,
    /// Bags of the newest weighing, once weighed.
    pub bags: Option<i32>,
    /// Bags as counted at intake in the shop, when counted there.
    pub intake_bags: Option<i32>,
    /// Items the valet counted at the door when picking up.
    pub door_items: Option<i32>,
    /// Items taken in with a tag (none recorded: 0).
    pub items: i64,
    /// Its ledger's sums.
    pub balance: Balance,
    /// Where it stands in its valet's run, while it is still to be done (for the ETA).
    pub position: Option<RunPosition>,
}

impl RunStop {
    /// The stops of `day` that are not cancelled, with their orders: of one valet's run in run
    /// order, or (`valet` none) everyone's, by window and then run. A delivery of an order not
    /// picked up yet is not there: there is nothing to deliver (the pickup waits on the dashboard).
    /// `window` (its first minute) keeps only the stops of that window, and `part` (how many to
    /// skip, how many to keep) only those of the list.
    pub fn of_day(
        connection: &mut DbConnection,
        day: Date,
        valet: Option<&str>,
        window: Option<i32>,
        part: Option<(usize, usize)>,
    ) -> QueryResult<Vec<RunStop>> {
        let mut query = stops::table
            .inner_join(orders::table)
            .filter(stops::day.eq(day))
            .filter(stops::state.ne(StopState::Cancelled))
            .filter(stops::kind.eq(StopKind::Pickup).or(orders::status.ne(OrderStatus::Pending)))
            .select((Stop::as_select(), Order::as_select()))
            .into_boxed();
        if let Some(valet) = valet {
            query = query.filter(stops::valet_id.eq(valet.to_owned()));
        }
        if let Some(start) = window {
            query = query.filter(stops::window_start.eq(start));
        }
        let mut found: Vec<(Stop, Order)> = query.load(connection)?;
        found.sort_by(|(a, _), (b, _)| {
            // Unplaced stops after the placed ones, whatever the backend does with NULLs.
            let run = |stop: &Stop| (stop.run_position.is_none(), stop.run_position, stop.window_start);
            let window = |stop: &Stop| (stop.window_start, stop.valet_id.is_none(), stop.valet_id.clone());
            let kind = |stop: &Stop| (stop.kind != StopKind::Pickup, stop.id.clone());
            match valet {
                Some(_) => (run(a), kind(a)).cmp(&(run(b), kind(b))),
                None => (window(a), run(a), kind(a)).cmp(&(window(b), run(b), kind(b))),
            }
        });
        if let Some((skip, take)) = part {
            found = found.into_iter().skip(skip).take(take).collect();
        }
        let orders: Vec<Order> = found.iter().map(|(_, order)| order.clone()).collect();
        let mut lines = Order::lines_of(connection, &orders)?;
        let ids: Vec<&str> = orders.iter().map(|order| order.id.as_str()).collect();
        let bags = Order::bags_of(connection, &ids)?;
        let (intake_bags, door_items) = crate::models::garments::handling::Handling::counts_of(connection, &ids)?;
        let owned: Vec<String> = ids.iter().map(|id| (*id).to_owned()).collect();
        let items = crate::models::garments::Garment::counts(connection, &owned)?;
        let balances = Entry::balances(connection, &ids)?;
        let mut run = Vec::with_capacity(found.len());
        for (stop, order) in found {
            let position = if stop.state.is_open() { stop.run_position(connection)? } else { None };
            run.push(RunStop {
                lines: lines.remove(&order.id).unwrap_or_default(),
                bags: bags.get(&order.id).copied(),
                intake_bags: intake_bags.get(&order.id).copied(),
                door_items: door_items.get(&order.id).copied(),
                items: items.get(&order.id).copied().unwrap_or(0),
                balance: balances.get(&order.id).copied().unwrap_or_default(),
                stop,
                order,
                position,
            });
        }
        Ok(run)
    }

    /// The windows of `day` that hold stops [`RunStop::of_day`] lists for everyone, in order:
    /// `(start, end, stops)`. A few columns of the day's stops, not their orders' rows.
    pub fn windows_of_day(connection: &mut DbConnection, day: Date) -> QueryResult<Vec<(i32, i32, usize)>> {
        let counted: Vec<(i32, i32, i64)> = stops::table
            .inner_join(orders::table)
            .filter(stops::day.eq(day))
            .filter(stops::state.ne(StopState::Cancelled))
            .filter(stops::kind.eq(StopKind::Pickup).or(orders::status.ne(OrderStatus::Pending)))
            .group_by((stops::window_start, stops::window_end))
            .select((stops::window_start, stops::window_end, diesel::dsl::count_star()))
            .order((stops::window_start.asc(), stops::window_end.asc()))
            .load(connection)?;
        Ok(counted.into_iter().map(|(start, end, stops)| (start, end, stops as usize)).collect())
    }
}
