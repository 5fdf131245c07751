//! How many orders and kilos a period's days booked, and which pieces.

use super::{bounds, markers, nairobi_day};
use crate::db::DbConnection;
use crate::domain::RECLEAN_ITEM;
use crate::domain::schedule::parse_day;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text, Timestamp};
use time::Date;

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
