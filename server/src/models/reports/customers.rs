//! Who the customers of a period's days were: new or returning, and what each spent.

use super::{bounds, markers, nairobi_day};
use crate::db::DbConnection;
use crate::domain::schedule::parse_day;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text, Timestamp};
use time::Date;

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
pub(super) type CustomerDay = (Date, String, i64, bool);

/// The customers of each of the days `first` to `last`: who placed orders (not cancelled), how
/// many, and whether one was their first (no earlier order of that number that was not
/// cancelled).
pub(super) fn customers_by_day(
    connection: &mut DbConnection,
    first: Date,
    last: Date,
) -> QueryResult<Vec<CustomerDay>> {
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
pub(super) fn spend_by_day(
    connection: &mut DbConnection,
    first: Date,
    last: Date,
) -> QueryResult<Vec<(Date, String, i64)>> {
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
