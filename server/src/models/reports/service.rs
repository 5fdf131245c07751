//! How fast orders came back, whether the valets kept their windows, and the re-cleans, by day.

use super::{bounds, day_text, markers, nairobi_day};
use crate::db::DbConnection;
use crate::domain::StopKind;
use crate::domain::schedule::parse_day;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Date as SqlDate, Text, Timestamp};
use time::Date;

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
