//! The dashboard's figures: the stat cards, the day's takings by how they were paid, and the
//! re-cleans asked for per month (the satisfaction guarantee's count).

use crate::db::DbConnection;
use crate::db::schema::{contact_messages, mpesa_receipts, orders, sms_incoming};
use crate::domain::schedule::day_bounds;
use crate::domain::{InboxStatus, MessageStatus, OrderStatus, PaidVia, PaymentStatus, ReceiptSource};
use crate::models::reclean::Reclean;
use diesel::dsl::sum;
use diesel::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use time::Date;
use ts_rs::TS;

/// The four stat cards, what is behind them, and today's takings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "AdminStats")]
pub struct Stats {
    /// Spec section 2: the sum of all order totals, KSh.
    pub total_revenue: i64,
    /// Of that, what staff recorded as paid.
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
    pub takings: Takings,
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

/// One day's takings (Nairobi's calendar day): the orders paid that day, by how they were paid,
/// and apart from them the M-PESA money that arrived that day without paying an order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Takings {
    /// `YYYY-MM-DD`.
    pub day: String,
    /// Orders paid by a prompt on the customer's phone (its callback, or M-PESA's status query).
    pub mpesa_prompt: Tally,
    /// Orders paid to the till by hand: matched from M-PESA's confirmation, or recorded by staff or
    /// the valet with the code from the customer's message.
    pub mpesa_till: Tally,
    /// Orders paid in cash.
    pub cash: Tally,
    /// All three: the orders paid that day and their bills.
    pub total: Tally,
    /// M-PESA payments received that day that no order could be found for (they wait for staff).
    pub unmatched: Tally,
    /// M-PESA payments received that day for an order they did not pay (another amount than the
    /// bill, an order paid already): flagged for staff.
    pub flagged: Tally,
}

impl Stats {
    /// Counts everything now; the takings are those of `today` (Nairobi).
    pub fn load(connection: &mut DbConnection, today: Date) -> QueryResult<Stats> {
        let total_revenue: Option<i64> = orders::table.select(sum(orders::total_amount)).first(connection)?;
        let paid_revenue: Option<i64> = orders::table
            .filter(orders::payment_status.eq(PaymentStatus::Paid))
            .select(sum(orders::total_amount))
            .first(connection)?;
        let cancelled_revenue: Option<i64> = orders::table
            .filter(orders::status.eq(OrderStatus::Cancelled))
            .select(sum(orders::total_amount))
            .first(connection)?;
        Ok(Stats {
            total_revenue: total_revenue.unwrap_or(0),
            paid_revenue: paid_revenue.unwrap_or(0),
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
            takings: Takings::of_day(connection, today)?,
            recleans_per_month: Reclean::per_month(connection, RECLEAN_MONTHS, today)?
                .into_iter()
                .map(|((year, month), count)| MonthCount { month: format!("{year:04}-{month:02}"), count })
                .collect(),
        })
    }
}

impl Takings {
    /// The takings of `day` (Nairobi): the orders whose payment was recorded that day, still paid,
    /// and the M-PESA money received that day that paid no order.
    pub fn of_day(connection: &mut DbConnection, day: Date) -> QueryResult<Takings> {
        let (from, until) = day_bounds(day);
        let paid: Vec<(Option<PaidVia>, Option<String>, i32)> = orders::table
            .filter(orders::payment_status.eq(PaymentStatus::Paid))
            .filter(orders::paid_at.ge(from).and(orders::paid_at.lt(until)))
            .select((orders::paid_via, orders::mpesa_code, orders::total_amount))
            .load(connection)?;
        let codes: Vec<&str> = paid.iter().filter_map(|(_, code, _)| code.as_deref()).collect();
        let sources: HashMap<String, ReceiptSource> = mpesa_receipts::table
            .filter(mpesa_receipts::receipt.eq_any(&codes))
            .select((mpesa_receipts::receipt, mpesa_receipts::source))
            .load::<(String, ReceiptSource)>(connection)?
            .into_iter()
            .collect();
        let mut takings = Takings {
            day: day.to_string(),
            mpesa_prompt: Tally::default(),
            mpesa_till: Tally::default(),
            cash: Tally::default(),
            total: Tally::default(),
            unmatched: Tally::default(),
            flagged: Tally::default(),
        };
        for (via, code, amount) in &paid {
            let amount = i64::from(*amount);
            let tally = match (via, code) {
                (Some(PaidVia::Cash), _) => &mut takings.cash,
                // Paid as M-PESA's status query said: only a prompt is paid without its code.
                (_, None) => &mut takings.mpesa_prompt,
                (_, Some(code)) if sources.get(code) == Some(&ReceiptSource::Prompt) => &mut takings.mpesa_prompt,
                (_, Some(_)) => &mut takings.mpesa_till,
            };
            tally.add(amount);
            takings.total.add(amount);
        }
        let received: Vec<(Option<String>, bool, i32)> = mpesa_receipts::table
            .filter(mpesa_receipts::received_at.ge(from).and(mpesa_receipts::received_at.lt(until)))
            .filter(mpesa_receipts::order_id.is_null().or(mpesa_receipts::problem.is_not_null()))
            .select((mpesa_receipts::order_id, mpesa_receipts::problem.is_not_null(), mpesa_receipts::amount))
            .load(connection)?;
        for (order, flagged, amount) in received {
            match (order, flagged) {
                (None, _) => takings.unmatched.add(i64::from(amount)),
                (Some(_), true) => takings.flagged.add(i64::from(amount)),
                (Some(_), false) => {}
            }
        }
        Ok(takings)
    }
}
