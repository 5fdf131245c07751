//! What a period's days took in by method and gave back, and the charges by kind.

use super::{bounds, markers, nairobi_day};
use crate::db::DbConnection;
use crate::domain::schedule::parse_day;
use crate::domain::{EntryKind, Method, TextEnum};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Nullable, Text, Timestamp};
use time::Date;

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
