//! The dashboard's figures.

use crate::db::DbConnection;
use crate::db::schema::{contact_messages, orders};
use crate::domain::{MessageStatus, OrderStatus, PaymentStatus};
use diesel::dsl::sum;
use diesel::prelude::*;
use serde::Serialize;
use ts_rs::TS;

/// The four stat cards, and what is behind them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
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
}

impl Stats {
    /// Counts everything now.
    pub fn load(connection: &mut DbConnection) -> QueryResult<Stats> {
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
        })
    }
}
