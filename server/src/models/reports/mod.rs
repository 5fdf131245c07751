//! The owner's reports (issue 34), read from the ledger, the orders and the stops by SQL
//! aggregates on both backends: what a period's days took in by method and gave back, how many
//! orders and kilos they booked and which pieces, who still owes for a delivered order (by how long
//! ago it was delivered), how fast orders came back and whether the valets kept their windows, who
//! the customers were, the re-cleans, and each day's cash-up. A Nairobi day is the UTC time three
//! hours on (Nairobi keeps no summer time). These are the counts; `kept` keeps past days' counts
//! in `report_days` and adds a period's days up.

use crate::db::DbConnection;
use crate::db::schema::report_sharing;
use crate::domain::ReportSection;
use crate::domain::schedule::day_bounds;
use diesel::prelude::*;
use time::{Date, PrimitiveDateTime};

mod cash;
mod customers;
pub mod exports;
mod kept;
mod money;
mod orders;
mod owing;
mod service;

pub use cash::{DayCash, cash_by_day};
pub use customers::{Spender, WeekCustomers};
use customers::{customers_by_day, spend_by_day};
pub use kept::{PeriodFigures, period_figures, period_figures_recounted};
pub use money::{DayMoney, charges_by_kind, money_by_day};
pub use orders::{DayOrders, ItemPieces, items_by_day, orders_by_day};
pub use owing::{Age, Owing, owing_after_delivery};
pub use service::{DayStops, DayTurnaround, recleans_by_day, stops_by_day, turnaround_by_day};

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
