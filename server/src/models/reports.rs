//! The owner's reports (issue 34), read from the ledger and the orders by SQL aggregates on both
//! backends: what a period's days took in by method and gave back, how many orders and kilos they
//! booked, and who still owes for a delivered order, by how long ago it was delivered. A Nairobi
//! day is the UTC time three hours on (Nairobi keeps no summer time).

use crate::db::DbConnection;
use crate::db::schema::{order_balances, orders, stops};
use crate::domain::schedule::{day_bounds, parse_day};
use crate::domain::{EntryKind, Method, OrderStatus, StopKind, StopState, TextEnum};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Nullable, Text, Timestamp};
use time::{Date, PrimitiveDateTime};

/// One day's money of one kind and method.
#[derive(Debug, Clone, PartialEq, Eq, QueryableByName)]
struct DayMoneyRow {
    #[diesel(sql_type = Text)]
    day: String,
    #[diesel(sql_type = Text)]
    kind: String,
    #[diesel(sql_type = Nullable<Text>)]
    method: Option<String>,
    #[diesel(sql_type = BigInt)]
    amount: i64,
}

/// What one Nairobi day took in and gave back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayMoney {
    /// The day.
    pub day: Date,
    /// Received by each method that took something, in [`Method::ALL`]'s order (a correction
    /// entered on the day takes its amount off).
    pub received: Vec<(Method, i64)>,
    /// Given back by each method, in the same order.
    pub refunded: Vec<(Method, i64)>,
}

impl DayMoney {
    /// Received less given back.
    pub fn total(&self) -> i64 {
        self.received.iter().map(|(_, amount)| amount).sum::<i64>()
            - self.refunded.iter().map(|(_, amount)| amount).sum::<i64>()
    }
}

/// One day's orders booked.
#[derive(Debug, Clone, PartialEq, Eq, QueryableByName)]
struct DayOrdersRow {
    #[diesel(sql_type = Text)]
    day: String,
    #[diesel(sql_type = BigInt)]
    orders: i64,
    #[diesel(sql_type = BigInt)]
    kilos: i64,
    #[diesel(sql_type = BigInt)]
    amount: i64,
}

/// What one Nairobi day booked: orders placed that day (cancelled ones not counted), the kilos of
/// their by-the-kg lines as billed now, and their bills.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayOrders {
    /// The day.
    pub day: Date,
    /// Orders placed.
    pub orders: i64,
    /// Kilos billed.
    pub kilos: i64,
    /// KSh billed.
    pub amount: i64,
}

/// The expression of a stored UTC time's Nairobi day, `YYYY-MM-DD`, on each backend.
fn nairobi_day(connection: &DbConnection, column: &str) -> String {
    match connection {
        DbConnection::Sqlite(_) => format!("date({column}, '+3 hours')"),
        DbConnection::Postgres(_) => format!("to_char({column} + interval '3 hours', 'YYYY-MM-DD')"),
    }
}

/// The two bind markers of a query, on each backend.
fn markers(connection: &DbConnection) -> (&'static str, &'static str) {
    match connection {
        DbConnection::Sqlite(_) => ("?", "?"),
        DbConnection::Postgres(_) => ("$1", "$2"),
    }
}

/// The Nairobi days `first` to `last`, both in.
fn bounds(first: Date, last: Date) -> (PrimitiveDateTime, PrimitiveDateTime) {
    (day_bounds(first).0, day_bounds(last).1)
}

/// Each day from `first` to `last` (Nairobi) that took in or gave back money, oldest first: the
/// ledger's payments and refunds by day, kind and method, summed in the database (by the index on
/// the entries' time).
pub fn money_by_day(connection: &mut DbConnection, first: Date, last: Date) -> QueryResult<Vec<DayMoney>> {
    let (from, until) = bounds(first, last);
    let (a, b) = markers(connection);
    let day = nairobi_day(connection, "recorded_at");
    let sql = format!(
        "SELECT {day} AS day, kind, method, CAST(SUM(amount) AS BIGINT) AS amount FROM ledger_entries \
         WHERE kind IN ('payment', 'refund') AND recorded_at >= {a} AND recorded_at < {b} \
         GROUP BY {day}, kind, method ORDER BY 1"
    );
    let rows: Vec<DayMoneyRow> =
        diesel::sql_query(sql).bind::<Timestamp, _>(from).bind::<Timestamp, _>(until).load(connection)?;
    let mut days: Vec<DayMoney> = Vec::new();
    for row in rows {
        let (Some(day), Some(kind), Some(method)) =
            (parse_day(&row.day), EntryKind::parse(&row.kind), row.method.as_deref().and_then(Method::parse))
        else {
            continue;
        };
        if days.last().is_none_or(|last| last.day != day) {
            days.push(DayMoney { day, received: Vec::new(), refunded: Vec::new() });
        }
        let Some(current) = days.last_mut() else { continue };
        let list = if kind == EntryKind::Refund { &mut current.refunded } else { &mut current.received };
        list.push((method, row.amount));
    }
    for day in &mut days {
        let position = |method: &Method| Method::ALL.iter().position(|m| m == method);
        day.received.sort_by_key(|(method, _)| position(method));
        day.refunded.sort_by_key(|(method, _)| position(method));
    }
    Ok(days)
}

/// Each day from `first` to `last` (Nairobi) on which orders were placed, oldest first: how many
/// (not cancelled), their kilos billed and their bills, counted in the database.
pub fn orders_by_day(connection: &mut DbConnection, first: Date, last: Date) -> QueryResult<Vec<DayOrders>> {
    let (from, until) = bounds(first, last);
    let (a, b) = markers(connection);
    let day = nairobi_day(connection, "o.created_at");
    let sql = format!(
        "SELECT {day} AS day, CAST(COUNT(*) AS BIGINT) AS orders, \
         CAST(COALESCE(SUM((SELECT SUM(l.quantity) FROM order_lines l WHERE l.order_id = o.id AND l.unit = 'kg')), 0) AS BIGINT) AS kilos, \
         CAST(COALESCE(SUM(o.total_amount), 0) AS BIGINT) AS amount \
         FROM orders o WHERE o.created_at >= {a} AND o.created_at < {b} AND o.status <> 'cancelled' \
         GROUP BY {day} ORDER BY 1"
    );
    let rows: Vec<DayOrdersRow> =
        diesel::sql_query(sql).bind::<Timestamp, _>(from).bind::<Timestamp, _>(until).load(connection)?;
    Ok(rows
        .into_iter()
        .filter_map(|row| {
            Some(DayOrders { day: parse_day(&row.day)?, orders: row.orders, kilos: row.kilos, amount: row.amount })
        })
        .collect())
}

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
