//! The dashboard's figures: the stat cards, the day's takings by how they were paid, and the
//! re-cleans asked for per month (the satisfaction guarantee's count).

use crate::db::DbConnection;
use crate::db::schema::{
    contact_messages, ledger_entries, ledger_totals, mpesa_receipts, order_totals, orders, sms_incoming,
};
use crate::domain::ledger::Takings;
use crate::domain::schedule::day_bounds;
use crate::domain::{EntryKind, InboxStatus, MessageStatus, Method, OrderStatus};
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
    /// Spec section 2's "Total Revenue", as the ledger bills it: the net bill of every order not
    /// cancelled, after discounts (its charges, adjustments and discounts), KSh.
    pub total_revenue: i64,
    /// Money received for orders, ever: what moved in less what moved back (store credit is not
    /// money).
    pub paid_revenue: i64,
    /// The totals of cancelled orders, left out of the revenue: shown beside it.
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
    /// Counts everything now; the takings are those of `today` (Nairobi). Nothing here reads more
    /// rows as history grows: the figures over all time come from the totals the database keeps
    /// as orders and entries change ([`HistoryTotals`]), the others from indexes on what waits.
    pub fn load(connection: &mut DbConnection, today: Date) -> QueryResult<Stats> {
        let totals = HistoryTotals::load(connection)?;
        Ok(Stats {
            total_revenue: totals.billed,
            paid_revenue: totals.takings.total,
            cancelled_revenue: totals.cancelled_amount,
            total_orders: totals.orders,
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

/// The figures over all history, from the totals that triggers keep (migration
/// `2026-12-01-000001_dashboard_totals`): one row for the orders, one per payment or refund method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryTotals {
    /// Orders ever placed.
    pub orders: i64,
    /// The sum of their totals, KSh.
    pub orders_amount: i64,
    /// The sum of the totals of cancelled orders, KSh.
    pub cancelled_amount: i64,
    /// The ledger's charges, adjustments and discounts ever: the net bill of the orders not
    /// cancelled, KSh.
    pub billed: i64,
    /// Every payment less every refund, by method (as [`Entry::takings_ever`] counts them).
    pub takings: Takings,
}

impl HistoryTotals {
    /// Reads the kept totals: two small tables, whatever the size of the history.
    pub fn load(connection: &mut DbConnection) -> QueryResult<HistoryTotals> {
        let (orders, orders_amount, cancelled_amount, billed) = order_totals::table
            .select((order_totals::orders, order_totals::amount, order_totals::cancelled_amount, order_totals::billed))
            .first::<(i64, i64, i64, i64)>(connection)?;
        let sums: Vec<(EntryKind, Method, i64)> = ledger_totals::table
            .select((ledger_totals::kind, ledger_totals::method, ledger_totals::amount))
            .load(connection)?;
        let takings = Takings::of(sums);
        Ok(HistoryTotals { orders, orders_amount, cancelled_amount, billed, takings })
    }

    /// The same figures counted from every order and entry: what the kept totals must equal.
    pub fn recount(connection: &mut DbConnection) -> QueryResult<HistoryTotals> {
        let orders_amount: Option<i64> = orders::table.select(sum(orders::total_amount)).first(connection)?;
        let cancelled_amount: Option<i64> = orders::table
            .filter(orders::status.eq(OrderStatus::Cancelled))
            .select(sum(orders::total_amount))
            .first(connection)?;
        let billed: Option<i64> = ledger_entries::table
            .filter(ledger_entries::kind.eq_any([EntryKind::Charge, EntryKind::Adjustment, EntryKind::Discount]))
            .select(sum(ledger_entries::amount))
            .first(connection)?;
        Ok(HistoryTotals {
            orders: orders::table.count().get_result(connection)?,
            billed: billed.unwrap_or(0),
            orders_amount: orders_amount.unwrap_or(0),
            cancelled_amount: cancelled_amount.unwrap_or(0),
            takings: Entry::takings_ever(connection)?,
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
