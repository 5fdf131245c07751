//! Each holder's cash-up of each day: what they collected and handed over.

use super::{bounds, day_text, markers, nairobi_day};
use crate::db::DbConnection;
use crate::domain::schedule::parse_day;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Date as SqlDate, Text, Timestamp};
use time::Date;

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
