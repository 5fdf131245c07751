//! The owner's reports (issue 34), read from the ledger, the orders and the stops by SQL
//! aggregates on both backends: what a period's days took in by method and gave back, how many
//! orders and kilos they booked and which pieces, who still owes for a delivered order (by how long
//! ago it was delivered), how fast orders came back and whether the valets kept their windows, who
//! the customers were, the re-cleans, and each day's cash-up. A Nairobi day is the UTC time three
//! hours on (Nairobi keeps no summer time). These are the counts; `kept` keeps past days' counts
//! in `report_days` and adds a period's days up.

use crate::db::DbConnection;
use crate::db::schema::{order_balances, orders, report_sharing, stops};
use crate::domain::schedule::{day_bounds, parse_day};
use crate::domain::{EntryKind, Method, OrderStatus, RECLEAN_ITEM, ReportSection, StopKind, StopState, TextEnum};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Date as SqlDate, Nullable, Text, Timestamp};
use time::{Date, PrimitiveDateTime};

mod kept;

pub use kept::{PeriodFigures, period_figures, period_figures_recounted};

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

/// A DATE column as `YYYY-MM-DD` text, on each backend.
fn day_text(connection: &DbConnection, column: &str) -> String {
    match connection {
        DbConnection::Sqlite(_) => column.to_owned(),
        DbConnection::Postgres(_) => format!("to_char({column}, 'YYYY-MM-DD')"),
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

/// One day's stops of one kind: done, and missed.
#[derive(Debug, Clone, PartialEq, Eq, QueryableByName)]
struct DayStopsRow {
    #[diesel(sql_type = Text)]
    day: String,
    #[diesel(sql_type = Text)]
    kind: String,
    #[diesel(sql_type = BigInt)]
    stops: i64,
    #[diesel(sql_type = BigInt)]
    kept: i64,
}

/// What the valets did on one day, for one kind of stop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayStops {
    /// The day the stops were booked for.
    pub day: Date,
    /// Pickups or deliveries.
    pub kind: StopKind,
    /// Done.
    pub done: i64,
    /// Done by the end of their window (on its day).
    pub kept: i64,
    /// Missed (each miss counts, also of a stop done later in another window).
    pub missed: i64,
}

/// The stops booked for the days `first` to `last`: those done, those done by their window's end,
/// and the misses (`stop_misses`, written by a trigger as each happens), by day and kind.
pub fn stops_by_day(connection: &mut DbConnection, first: Date, last: Date) -> QueryResult<Vec<DayStops>> {
    let (a, b) = markers(connection);
    let day = day_text(connection, "day");
    let kept = match connection {
        // In whole seconds: julianday's fractions of a day are not exact.
        DbConnection::Sqlite(_) => "ROUND((julianday(done_at) - julianday(day)) * 86400) <= (window_end - 180) * 60",
        DbConnection::Postgres(_) => "done_at <= day + make_interval(mins => window_end - 180)",
    };
    let done = format!(
        "SELECT {day} AS day, kind, CAST(COUNT(*) AS BIGINT) AS stops, \
         CAST(SUM(CASE WHEN {kept} THEN 1 ELSE 0 END) AS BIGINT) AS kept \
         FROM stops WHERE state = 'done' AND day >= {a} AND day <= {b} GROUP BY day, kind"
    );
    let missed = format!(
        "SELECT {day} AS day, kind, CAST(COUNT(*) AS BIGINT) AS stops, CAST(0 AS BIGINT) AS kept \
         FROM stop_misses WHERE day >= {a} AND day <= {b} GROUP BY day, kind"
    );
    let done: Vec<DayStopsRow> =
        diesel::sql_query(done).bind::<SqlDate, _>(first).bind::<SqlDate, _>(last).load(connection)?;
    let missed: Vec<DayStopsRow> =
        diesel::sql_query(missed).bind::<SqlDate, _>(first).bind::<SqlDate, _>(last).load(connection)?;
    let mut days: Vec<DayStops> = Vec::new();
    for (row, is_miss) in done.into_iter().map(|row| (row, false)).chain(missed.into_iter().map(|row| (row, true))) {
        let (Some(day), Some(kind)) = (parse_day(&row.day), StopKind::parse(&row.kind)) else { continue };
        let index = match days.iter().position(|d| d.day == day && d.kind == kind) {
            Some(index) => index,
            None => {
                days.push(DayStops { day, kind, done: 0, kept: 0, missed: 0 });
                days.len() - 1
            }
        };
        if is_miss {
            days[index].missed += row.stops;
        } else {
            days[index].done += row.stops;
            days[index].kept += row.kept;
        }
    }
    days.sort_by_key(|d| (d.day, d.kind == StopKind::Delivery));
    Ok(days)
}

#[derive(Debug, Clone, PartialEq, Eq, QueryableByName)]
struct TurnaroundRow {
    #[diesel(sql_type = Text)]
    day: String,
    #[diesel(sql_type = BigInt)]
    hours: i64,
    #[diesel(sql_type = BigInt)]
    orders: i64,
}

/// How many orders delivered on one day came back after how many whole hours (from the pickup
/// done to the delivery done).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayTurnaround {
    /// The day of the delivery.
    pub day: Date,
    /// Whole hours from pickup to delivery.
    pub hours: i64,
    /// Orders.
    pub orders: i64,
}

/// The orders delivered on the days `first` to `last` whose pickup was done too, counted by day
/// and by whole hours from pickup to delivery (a histogram, from which the median and the 90th
/// percentile are read to the hour).
pub fn turnaround_by_day(connection: &mut DbConnection, first: Date, last: Date) -> QueryResult<Vec<DayTurnaround>> {
    let (a, b) = markers(connection);
    let day = day_text(connection, "d.day");
    let hours = match connection {
        DbConnection::Sqlite(_) => {
            "CAST(ROUND((julianday(d.done_at) - julianday(p.done_at)) * 86400) AS INTEGER) / 3600"
        }
        DbConnection::Postgres(_) => "CAST(FLOOR(EXTRACT(EPOCH FROM (d.done_at - p.done_at)) / 3600) AS BIGINT)",
    };
    let sql = format!(
        "SELECT {day} AS day, CAST({hours} AS BIGINT) AS hours, CAST(COUNT(*) AS BIGINT) AS orders \
         FROM stops d INNER JOIN stops p ON p.order_id = d.order_id AND p.kind = 'pickup' \
         WHERE d.state = 'done' AND d.kind = 'delivery' AND d.day >= {a} AND d.day <= {b} \
         AND p.state = 'done' AND p.done_at IS NOT NULL AND d.done_at IS NOT NULL AND d.done_at >= p.done_at \
         GROUP BY 1, 2 ORDER BY 1, 2"
    );
    let rows: Vec<TurnaroundRow> =
        diesel::sql_query(sql).bind::<SqlDate, _>(first).bind::<SqlDate, _>(last).load(connection)?;
    Ok(rows
        .into_iter()
        .filter_map(|row| Some(DayTurnaround { day: parse_day(&row.day)?, hours: row.hours, orders: row.orders }))
        .collect())
}

/// Pieces of one catalogue item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemPieces {
    /// The catalogue id.
    pub item: String,
    /// Its label.
    pub label: String,
    /// Pieces.
    pub pieces: i64,
}

/// The customers of one week (Monday to Sunday, Nairobi): a customer is a phone number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeekCustomers {
    /// Its Monday.
    pub week: Date,
    /// Customers who placed an order (not cancelled) that week, in the period.
    pub customers: i64,
    /// Of them, those whose first order (not cancelled) ever it was.
    pub new: i64,
}

/// A customer and what they paid in a period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spender {
    /// Their phone number, as stored.
    pub phone: String,
    /// The name on their newest order.
    pub name: String,
    /// Orders they placed in the period (not cancelled).
    pub orders: i64,
    /// Paid less given back in the period, KSh.
    pub spend: i64,
}

/// One customer's orders on one day: `(day, phone, orders placed and not cancelled, whether one of
/// them was the first such order the number ever placed)`.
type CustomerDay = (Date, String, i64, bool);

/// The customers of each of the days `first` to `last`: who placed orders (not cancelled), how
/// many, and whether one was their first (no earlier order of that number that was not
/// cancelled).
fn customers_by_day(connection: &mut DbConnection, first: Date, last: Date) -> QueryResult<Vec<CustomerDay>> {
    let (from, until) = bounds(first, last);
    let (a, b) = markers(connection);
    let day = nairobi_day(connection, "o.created_at");
    let sql = format!(
        "SELECT {day} AS day, o.phone AS phone, CAST(COUNT(*) AS BIGINT) AS orders, \
         CAST(MAX(CASE WHEN NOT EXISTS (SELECT 1 FROM orders p WHERE p.phone = o.phone \
           AND p.created_at < o.created_at AND p.status <> 'cancelled') THEN 1 ELSE 0 END) AS BIGINT) AS first \
         FROM orders o WHERE o.created_at >= {a} AND o.created_at < {b} AND o.status <> 'cancelled' GROUP BY 1, 2"
    );
    #[derive(QueryableByName)]
    struct Row {
        #[diesel(sql_type = Text)]
        day: String,
        #[diesel(sql_type = Text)]
        phone: String,
        #[diesel(sql_type = BigInt)]
        orders: i64,
        #[diesel(sql_type = BigInt)]
        first: i64,
    }
    let rows: Vec<Row> =
        diesel::sql_query(sql).bind::<Timestamp, _>(from).bind::<Timestamp, _>(until).load(connection)?;
    Ok(rows.into_iter().filter_map(|row| Some((parse_day(&row.day)?, row.phone, row.orders, row.first == 1))).collect())
}

/// What each customer paid (less what was given back) on each of the days `first` to `last`:
/// `(day, phone, KSh)`.
fn spend_by_day(connection: &mut DbConnection, first: Date, last: Date) -> QueryResult<Vec<(Date, String, i64)>> {
    let (from, until) = bounds(first, last);
    let (a, b) = markers(connection);
    let day = nairobi_day(connection, "e.recorded_at");
    let sql = format!(
        "SELECT {day} AS day, o.phone AS phone, \
         CAST(SUM(CASE WHEN e.kind = 'payment' THEN e.amount ELSE -e.amount END) AS BIGINT) AS spend \
         FROM ledger_entries e INNER JOIN orders o ON o.id = e.order_id \
         WHERE e.kind IN ('payment', 'refund') AND e.recorded_at >= {a} AND e.recorded_at < {b} GROUP BY 1, 2"
    );
    #[derive(QueryableByName)]
    struct Row {
        #[diesel(sql_type = Text)]
        day: String,
        #[diesel(sql_type = Text)]
        phone: String,
        #[diesel(sql_type = BigInt)]
        spend: i64,
    }
    let rows: Vec<Row> =
        diesel::sql_query(sql).bind::<Timestamp, _>(from).bind::<Timestamp, _>(until).load(connection)?;
    Ok(rows.into_iter().filter_map(|row| Some((parse_day(&row.day)?, row.phone, row.spend))).collect())
}

#[derive(Debug, Clone, PartialEq, Eq, QueryableByName)]
struct DayCountRow {
    #[diesel(sql_type = Text)]
    day: String,
    #[diesel(sql_type = BigInt)]
    count: i64,
}

/// The re-cleans asked for on each of the days `first` to `last`: `(day, re-cleans)`.
pub fn recleans_by_day(connection: &mut DbConnection, first: Date, last: Date) -> QueryResult<Vec<(Date, i64)>> {
    let (from, until) = bounds(first, last);
    let (a, b) = markers(connection);
    let day = nairobi_day(connection, "requested_at");
    let sql = format!(
        "SELECT {day} AS day, CAST(COUNT(*) AS BIGINT) AS count FROM recleans \
         WHERE requested_at >= {a} AND requested_at < {b} GROUP BY 1 ORDER BY 1"
    );
    let rows: Vec<DayCountRow> =
        diesel::sql_query(sql).bind::<Timestamp, _>(from).bind::<Timestamp, _>(until).load(connection)?;
    Ok(rows.into_iter().filter_map(|row| Some((parse_day(&row.day)?, row.count))).collect())
}

#[derive(Debug, Clone, PartialEq, Eq, QueryableByName)]
struct HolderRow {
    #[diesel(sql_type = Text)]
    day: String,
    #[diesel(sql_type = Text)]
    holder: String,
    #[diesel(sql_type = BigInt)]
    amount: i64,
}

/// One holder's cash on one day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayCash {
    /// The day.
    pub day: Date,
    /// Who took it (their sign-in), or "the site".
    pub holder: String,
    /// Cash taken less cash given back, KSh.
    pub collected: i64,
    /// Handed in for that day, KSh.
    pub handed_in: i64,
}

/// The cash-up of each of the days `first` to `last`: by day and holder, the cash taken (less given
/// back) and what was handed in for the day; oldest first.
pub fn cash_by_day(connection: &mut DbConnection, first: Date, last: Date) -> QueryResult<Vec<DayCash>> {
    let (from, until) = bounds(first, last);
    let (a, b) = markers(connection);
    let day = nairobi_day(connection, "recorded_at");
    let taken = format!(
        "SELECT {day} AS day, COALESCE(recorded_by, 'the site') AS holder, \
         CAST(SUM(CASE WHEN kind = 'payment' THEN amount ELSE -amount END) AS BIGINT) AS amount \
         FROM ledger_entries WHERE method = 'cash' AND kind IN ('payment', 'refund') \
         AND recorded_at >= {a} AND recorded_at < {b} GROUP BY 1, 2"
    );
    let handed_day = day_text(connection, "day");
    let handed = format!(
        "SELECT {handed_day} AS day, holder, CAST(SUM(amount) AS BIGINT) AS amount FROM cash_handovers \
         WHERE day >= {a} AND day <= {b} GROUP BY day, holder"
    );
    let taken: Vec<HolderRow> =
        diesel::sql_query(taken).bind::<Timestamp, _>(from).bind::<Timestamp, _>(until).load(connection)?;
    let handed: Vec<HolderRow> =
        diesel::sql_query(handed).bind::<SqlDate, _>(first).bind::<SqlDate, _>(last).load(connection)?;
    let mut days: Vec<DayCash> = Vec::new();
    for (row, is_handover) in taken.into_iter().map(|row| (row, false)).chain(handed.into_iter().map(|row| (row, true)))
    {
        let Some(day) = parse_day(&row.day) else { continue };
        let index = match days.iter().position(|d| d.day == day && d.holder == row.holder) {
            Some(index) => index,
            None => {
                days.push(DayCash { day, holder: row.holder.clone(), collected: 0, handed_in: 0 });
                days.len() - 1
            }
        };
        if is_handover {
            days[index].handed_in += row.amount;
        } else {
            days[index].collected += row.amount;
        }
    }
    days.sort_by(|a, b| a.day.cmp(&b.day).then_with(|| a.holder.cmp(&b.holder)));
    Ok(days)
}

/// The sections of the Reports tab the owner lets staff see, in the tab's order.
pub fn shared_sections(connection: &mut DbConnection) -> QueryResult<Vec<ReportSection>> {
    let shared: Vec<String> = report_sharing::table.select(report_sharing::section).load(connection)?;
    Ok(ReportSection::ALL.into_iter().filter(|section| shared.iter().any(|s| s == section.as_str())).collect())
}

/// Lets staff see `sections` of the Reports tab, and no other (one transaction); `by` is the owner.
pub fn share_sections(
    connection: &mut DbConnection,
    sections: &[ReportSection],
    by: &str,
    now: PrimitiveDateTime,
) -> QueryResult<()> {
    connection.transaction(|connection| {
        diesel::delete(report_sharing::table).execute(connection)?;
        for section in sections {
            diesel::insert_into(report_sharing::table)
                .values((
                    report_sharing::section.eq(section.as_str()),
                    report_sharing::shared_by.eq(by),
                    report_sharing::shared_at.eq(now),
                ))
                .execute(connection)?;
        }
        Ok(())
    })
}

#[derive(Debug, Clone, PartialEq, Eq, QueryableByName)]
struct KindRow {
    #[diesel(sql_type = Text)]
    kind: String,
    #[diesel(sql_type = BigInt)]
    amount: i64,
}

/// What the ledger charged on the days `first` to `last`, by kind (charges, adjustments,
/// discounts): the bills as the ledger wrote them, a cancellation being a negative adjustment.
pub fn charges_by_kind(connection: &mut DbConnection, first: Date, last: Date) -> QueryResult<Vec<(EntryKind, i64)>> {
    let (from, until) = bounds(first, last);
    let (a, b) = markers(connection);
    let sql = format!(
        "SELECT kind, CAST(SUM(amount) AS BIGINT) AS amount FROM ledger_entries \
         WHERE kind IN ('charge', 'adjustment', 'discount') AND recorded_at >= {a} AND recorded_at < {b} GROUP BY kind"
    );
    let rows: Vec<KindRow> =
        diesel::sql_query(sql).bind::<Timestamp, _>(from).bind::<Timestamp, _>(until).load(connection)?;
    let mut kinds: Vec<(EntryKind, i64)> =
        rows.into_iter().filter_map(|row| Some((EntryKind::parse(&row.kind)?, row.amount))).collect();
    kinds.sort_by_key(|(kind, _)| {
        [EntryKind::Charge, EntryKind::Adjustment, EntryKind::Discount].iter().position(|k| k == kind)
    });
    Ok(kinds)
}

/// Pieces of each item on each of the days `first` to `last` (orders placed, not cancelled; the
/// garments of a re-clean count again, its own line is not a garment).
pub fn items_by_day(connection: &mut DbConnection, first: Date, last: Date) -> QueryResult<Vec<(Date, ItemPieces)>> {
    let (from, until) = bounds(first, last);
    let (a, b) = markers(connection);
    let day = nairobi_day(connection, "o.created_at");
    let sql = format!(
        "SELECT {day} AS day, l.item AS item, MIN(l.label) AS label, CAST(SUM(l.quantity) AS BIGINT) AS pieces \
         FROM orders o INNER JOIN order_lines l ON l.order_id = o.id \
         WHERE o.created_at >= {a} AND o.created_at < {b} AND o.status <> 'cancelled' \
         AND l.kind = 'piece' AND l.item <> '{RECLEAN_ITEM}' GROUP BY 1, 2"
    );
    #[derive(QueryableByName)]
    struct Row {
        #[diesel(sql_type = Text)]
        day: String,
        #[diesel(sql_type = Text)]
        item: String,
        #[diesel(sql_type = Text)]
        label: String,
        #[diesel(sql_type = BigInt)]
        pieces: i64,
    }
    let rows: Vec<Row> =
        diesel::sql_query(sql).bind::<Timestamp, _>(from).bind::<Timestamp, _>(until).load(connection)?;
    Ok(rows
        .into_iter()
        .filter_map(|row| {
            Some((parse_day(&row.day)?, ItemPieces { item: row.item, label: row.label, pieces: row.pieces }))
        })
        .collect())
}
