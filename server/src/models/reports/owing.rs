//! Who still owes for a delivered order, by how long ago it was delivered.

use crate::db::DbConnection;
use crate::db::schema::{order_balances, orders, stops};
use crate::domain::{OrderStatus, StopKind, StopState};
use diesel::prelude::*;
use time::{Date, PrimitiveDateTime};

/// How long ago a delivered order that still owes was delivered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Age {
    /// 0 to 7 days.
    Week,
    /// 8 to 30 days.
    Month,
    /// 31 days or more.
    Older,
}

impl Age {
    /// Every bucket, youngest first.
    pub const ALL: [Age; 3] = [Age::Week, Age::Month, Age::Older];

    /// The bucket of an order delivered `days` days ago.
    pub fn of(days: i64) -> Age {
        match days {
            ..=7 => Age::Week,
            8..=30 => Age::Month,
            _ => Age::Older,
        }
    }

    /// What the owner reads.
    pub fn label(self) -> &'static str {
        match self {
            Age::Week => "0-7 days",
            Age::Month => "8-30 days",
            Age::Older => "31+ days",
        }
    }
}

/// A delivered order that still owes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owing {
    /// Its order ID.
    pub reference: String,
    /// The customer's name.
    pub name: String,
    /// What it owes, KSh.
    pub due: i64,
    /// The Nairobi day it was delivered.
    pub delivered: Date,
    /// Days since then, at `today`.
    pub days: i64,
}

/// The delivered orders that still owe, most overdue first, at `today` (Nairobi). The orders that
/// owe are read first, from the kept balances by their index on what is due (a few, however long
/// the history); then those of them delivered, by their ids; then their deliveries, by the
/// (order, kind) index. Three small reads: a join, or a filter on the status, let the planner start
/// from every delivered order or every stop done there ever was (250 to 600 ms at 100,000
/// orders).
pub fn owing_after_delivery(connection: &mut DbConnection, today: Date) -> QueryResult<Vec<Owing>> {
    let due: Vec<(String, i64)> = order_balances::table
        .filter(order_balances::due.gt(0))
        .select((order_balances::order_id, order_balances::due))
        .load(connection)?;
    let mut owing = Vec::new();
    for chunk in due.chunks(500) {
        let ids: Vec<&str> = chunk.iter().map(|(id, _)| id.as_str()).collect();
        // The status and the stop's state are judged here, not in SQL: an index on either would
        // lead SQLite's planner (which keeps no statistics here) to every delivered order, or
        // every stop done, instead of these few by their ids.
        let delivered: Vec<(String, String, String)> = orders::table
            .filter(orders::id.eq_any(&ids))
            .select((orders::id, orders::reference, orders::customer_name, orders::status))
            .load::<(String, String, String, OrderStatus)>(connection)?
            .into_iter()
            .filter(|(.., status)| *status == OrderStatus::Delivered)
            .map(|(id, reference, name, _)| (id, reference, name))
            .collect();
        let delivered_ids: Vec<&str> = delivered.iter().map(|(id, _, _)| id.as_str()).collect();
        let deliveries: Vec<(String, StopState, Option<PrimitiveDateTime>)> = stops::table
            .filter(stops::order_id.eq_any(&delivered_ids))
            .filter(stops::kind.eq(StopKind::Delivery))
            .select((stops::order_id, stops::state, stops::done_at))
            .load(connection)?;
        for (id, reference, name) in delivered {
            let done = deliveries.iter().find(|(order, state, _)| *order == id && *state == StopState::Done);
            let (Some((_, _, Some(done_at))), Some((_, due))) = (done, chunk.iter().find(|(order, _)| *order == id))
            else {
                continue;
            };
            let delivered = (*done_at + time::Duration::hours(3)).date();
            owing.push(Owing { reference, name, due: *due, delivered, days: (today - delivered).whole_days() });
        }
    }
    owing.sort_by(|a, b| b.days.cmp(&a.days).then_with(|| a.reference.cmp(&b.reference)));
    Ok(owing)
}
