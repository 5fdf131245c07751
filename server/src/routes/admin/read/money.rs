//! What the money tab reads: a day's cash-up and the balances not settled.

use crate::db::{DbConnection, DbError};
use crate::domain::StaffRole;
use crate::models::ledger::{Entry, Handover};
use crate::models::order::Order;
use crate::views::money::{Balances, CashUp};
use time::Date;

/// The cash-up of `day`: its takings, its cash entries by holder, and the handovers recorded.
pub fn load_cash_up(connection: &mut DbConnection, day: Date) -> Result<CashUp, DbError> {
    let takings = Entry::takings_of_day(connection, day)?;
    let cash = Entry::cash_of_day(connection, day)?;
    let corrected: Vec<i64> = cash.iter().filter_map(|(entry, _)| entry.corrects).collect();
    let taken_by = Entry::entered_by(connection, &corrected)?;
    let handovers = Handover::of_day(connection, day)?;
    Ok(CashUp::new(day, takings, &cash, &taken_by, &handovers))
}

/// The balances not settled: orders owing, refunds due, and the store credit held (naming the
/// customer for the owner; staff read masked numbers).
pub fn load_balances(connection: &mut DbConnection, role: StaffRole) -> Result<Balances, DbError> {
    let owing = Entry::owing_oldest(connection, Balances::LIMIT)?;
    let owed_back = Entry::unsettled(connection, false, Balances::LIMIT)?;
    let credit = Entry::credit_held(connection)?;
    let ids: Vec<&str> = owing.iter().chain(&owed_back).map(|(id, _)| id.as_str()).collect();
    let orders = Order::find_many(connection, &ids)?;
    let owing_in_all = Entry::owing(connection, None)?;
    let credit = (credit.as_slice(), role == StaffRole::Owner);
    Ok(Balances::new(&owing, owing_in_all, &owed_back, credit, &orders))
}
