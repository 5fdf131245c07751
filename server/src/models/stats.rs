//! The dashboard's figures: the stat cards, the day's takings by how they were paid, and the
//! re-cleans asked for per month (the satisfaction guarantee's count).

use crate::db::DbConnection;
use crate::db::schema::{contact_messages, mpesa_receipts, orders, sms_incoming};
use crate::domain::ledger::Takings;
use crate::domain::schedule::day_bounds;
use crate::domain::{InboxStatus, MessageStatus, OrderStatus};
use crate::models::ledger::Entry;
use crate::models::reclean::Reclean;
use diesel::dsl::sum;
use diesel::prelude::*;
use serde::Serialize;
use time::Date;
use ts_rs::TS;

/// The four stat cards, what is behind them, and today's takings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "AdminStats")]
pub struct Stats {
    /// Spec section 2: the sum of all order totals, KSh.
    pub total_revenue: i64,
    /// Money received for orders, ever: payments less refunds (the ledger's).
    pub paid_revenue: i64,
    /// Of that, the totals of cancelled orders: shown beside it, so that nobody reads the
    /// spec's figure as money earned.
    pub cancelled_revenue: i64,
    /// All orders.
    pub total_orders: i64,
    /// Orders with status pending.
    pub pending_orders: i64,
    /// All contact messages.
    pub messages: i64,
    /// Messages not yet handled.
    pub new_messages: i64,
    /// Texts to the shop's number nobody opened yet (the inbox).
    pub unread_texts: i64,
    /// The money of the day (Nairobi) the figures were counted on.
    pub takings: DayTakings,
    /// The re-cleans asked for in each of the last [`RECLEAN_MONTHS`] months (Nairobi), oldest
    /// first, this month last; a month without any has 0.
    pub recleans_per_month: Vec<MonthCount>,
}

/// How many months of re-cleans the dashboard shows.
pub const RECLEAN_MONTHS: u32 = 6;

/// A count for one calendar month.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct MonthCount {
    /// `YYYY-MM`.
    pub month: String,
    /// How many.
    pub count: i64,
}

/// Some payments and their sum.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, TS)]
pub struct Tally {
    /// How many.
    pub count: i64,
    /// Their sum, KSh.
    pub amount: i64,
}

impl Tally {
    fn add(&mut self, amount: i64) {
        self.count += 1;
        self.amount += amount;
    }
}

/// One day's takings (Nairobi's calendar day), from the ledger: the money entered that day by
/// method, less refunds (each payment counted once, on the day it was entered), and apart from
/// them the M-PESA money that arrived that day for no order (it waits for staff).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "DayTakings")]
pub struct DayTakings {
    /// `YYYY-MM-DD`.
    pub day: String,
    /// Payments less refunds, by method.
    pub takings: Takings,
    /// M-PESA payments received that day that no order could be found for.
    pub unmatched: Tally,
}

impl Stats {
    /// Counts everything now; the takings are those of `today` (Nairobi).
    pub fn load(connection: &mut DbConnection, today: Date) -> QueryResult<Stats> {
        let total_revenue: Option<i64> = orders::table.select(sum(orders::total_amount)).first(connection)?;
        let paid_revenue = Entry::takings_ever(connection)?.total;
        let cancelled_revenue: Option<i64> = orders::table
            .filter(orders::status.eq(OrderStatus::Cancelled))
            .select(sum(orders::total_amount))
            .first(connection)?;
        Ok(Stats {
            total_revenue: total_revenue.unwrap_or(0),
            paid_revenue,
            cancelled_revenue: cancelled_revenue.unwrap_or(0),
            total_orders: orders::table.count().get_result(connection)?,
            pending_orders: orders::table
                .filter(orders::status.eq(OrderStatus::Pending))
                .count()
                .get_result(connection)?,
            messages: contact_messages::table.count().get_result(connection)?,
            new_messages: contact_messages::table
                .filter(contact_messages::status.eq(MessageStatus::New))
                .count()
                .get_result(connection)?,
            unread_texts: sms_incoming::table
                .filter(sms_incoming::status.eq(InboxStatus::New))
                .count()
                .get_result(connection)?,
            takings: DayTakings::of_day(connection, today)?,
            recleans_per_month: Reclean::per_month(connection, RECLEAN_MONTHS, today)?
                .into_iter()
                .map(|((year, month), count)| MonthCount { month: format!("{year:04}-{month:02}"), count })
                .collect(),
        })
    }
}

impl DayTakings {
    /// The takings of `day` (Nairobi).
    pub fn of_day(connection: &mut DbConnection, day: Date) -> QueryResult<DayTakings> {
        let (from, until) = day_bounds(day);
        let amounts: Vec<i32> = mpesa_receipts::table
            .filter(mpesa_receipts::received_at.ge(from).and(mpesa_receipts::received_at.lt(until)))
            .filter(mpesa_receipts::order_id.is_null())
            .select(mpesa_receipts::amount)
            .load(connection)?;
        let mut unmatched = Tally::default();
        for amount in amounts {
            unmatched.add(i64::from(amount));
        }
        Ok(DayTakings { day: day.to_string(), takings: Entry::takings(connection, from, until)?, unmatched })
    }
}
