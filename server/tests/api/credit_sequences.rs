//! Issue 50: for any interleaving of over-payments, credit kept, orders using credit, corrections
//! and refunds, on both backends, the store credit a phone number holds never goes below zero and
//! the money given back never exceeds the money paid in. Each step runs as the dashboard runs it:
//! through the lifecycle's money functions, in a write transaction; a step the rules refuse changes
//! nothing.

use diesel::connection::SimpleConnection;
use laundry::db::{Database, DbConnection, write_transaction};
use laundry::domain::{EntryKind, Method};
use laundry::lifecycle::money::{self, Pay};
use laundry::models::ledger::{Entry, NewEntry};
use laundry::models::order::Order;
use laundry::notify::NotifyCustomer;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use time::PrimitiveDateTime;
use time::macros::datetime;

const PHONE: &str = "+254712345678";
const ORDERS: [&str; 3] = ["order-a", "order-b", "order-c"];
const NOW: PrimitiveDateTime = datetime!(2026-11-20 09:00);

/// One step staff or the site may take on an order.
#[derive(Debug, Clone)]
enum Step {
    /// Cash received, whatever the amount (more than the bill is owed back).
    Pay(usize, i32),
    /// What the order owes back kept as store credit.
    KeepCredit(usize),
    /// The order paid from the phone's credit, as far as it goes (as when it is placed).
    UseCredit(usize),
    /// Money given back, in cash or as credit.
    Refund(usize, bool, i32),
    /// The order's `n`th entry (modulo how many it has) corrected.
    Correct(usize, usize),
}

fn step() -> impl Strategy<Value = Step> {
    let order = 0..ORDERS.len();
    prop_oneof![
        (order.clone(), 1_i32..1_500).prop_map(|(o, amount)| Step::Pay(o, amount)),
        order.clone().prop_map(Step::KeepCredit),
        order.clone().prop_map(Step::UseCredit),
        (order.clone(), any::<bool>(), 1_i32..1_000).prop_map(|(o, cash, amount)| Step::Refund(o, cash, amount)),
        (order, 0_usize..8).prop_map(|(o, n)| Step::Correct(o, n)),
    ]
}

/// Takes `step`; refusals are part of the rules, errors are not.
fn take(connection: &mut DbConnection, step: &Step) {
    let nobody = NotifyCustomer::nobody();
    write_transaction(connection, |connection| -> diesel::QueryResult<()> {
        match *step {
            Step::Pay(order, amount) => {
                let pay = Pay {
                    method: Method::Cash,
                    amount,
                    code: None,
                    prompt_id: None,
                    by: "staff",
                    entered_by: None,
                    tell: false,
                };
                let _ = money::pay(connection, ORDERS[order], &pay, &nobody, NOW)?;
            }
            Step::KeepCredit(order) => {
                let _ = money::keep_as_credit(connection, ORDERS[order], "staff", NOW)?;
            }
            Step::UseCredit(order) => {
                let order = Order::find(connection, ORDERS[order])?.unwrap();
                money::use_credit(connection, &order, NOW)?;
            }
            Step::Refund(order, cash, amount) => {
                let method = if cash { Method::Cash } else { Method::Credit };
                let _ = money::refund(connection, ORDERS[order], method, amount, None, "", "staff", NOW)?;
            }
            Step::Correct(order, n) => {
                let entries = Entry::of_order(connection, ORDERS[order])?;
                let entry = &entries[n % entries.len()];
                let _ = money::correct(connection, ORDERS[order], entry.id, "A slip", "owner", NOW)?;
            }
        }
        Ok(())
    })
    .unwrap();
}

/// Money in and money given back over every order of the phone, KSh.
fn money_moved(connection: &mut DbConnection) -> (i64, i64) {
    let (mut paid_in, mut given_back) = (0, 0);
    for id in ORDERS {
        for entry in Entry::of_order(connection, id).unwrap() {
            if !entry.method.is_some_and(Method::is_money) {
                continue;
            }
            match entry.kind {
                EntryKind::Payment => paid_in += i64::from(entry.amount),
                EntryKind::Refund => given_back += i64::from(entry.amount),
                _ => {}
            }
        }
    }
    (paid_in, given_back)
}

fn run(database: &Database, cases: u32) {
    crate::helpers::bare_orders(&mut database.connection().unwrap(), &ORDERS, PHONE, "pay-delivery");
    let mut runner = TestRunner::new(Config { cases, ..Config::default() });
    runner
        .run(&prop::collection::vec(step(), 1..30), |steps| {
            let mut connection = database.connection().unwrap();
            connection.batch_execute("DELETE FROM ledger_entries").unwrap();
            for id in ORDERS {
                let bill = NewEntry::charge(EntryKind::Charge, 450, "Wash & Fold × 3", None);
                Entry::add(&mut connection, id, &bill, NOW).unwrap();
            }
            for (n, step) in steps.iter().enumerate() {
                take(&mut connection, step);
                let held = Entry::credit_of(&mut connection, PHONE).unwrap();
                prop_assert!(held >= 0, "credit held {} after step {} ({:?})", held, n, step);
                let (paid_in, given_back) = money_moved(&mut connection);
                prop_assert!(
                    given_back <= paid_in,
                    "KSh {} given back of {} paid in, after {:?}",
                    given_back,
                    paid_in,
                    step
                );
            }
            Ok(())
        })
        .unwrap();
}

/// `PROPTEST_CASES` when set (a longer hunt), else `default`.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|cases| cases.parse().ok()).unwrap_or(default)
}

#[test]
fn sqlite_credit_never_goes_below_zero_and_no_more_goes_back_than_came_in() {
    let dir = tempfile::tempdir().unwrap();
    let database = Database::open(&format!("sqlite://{}/laundry.db", dir.path().display()), 1).unwrap();
    run(&database, cases(96));
}

#[test]
fn postgresql_credit_never_goes_below_zero_and_no_more_goes_back_than_came_in() {
    let Some((_database, url)) = crate::helpers::empty_postgres() else {
        eprintln!("TEST_DATABASE_URL is not set: the PostgreSQL run of this test is skipped");
        return;
    };
    let database = Database::open(&url, 1).unwrap();
    run(&database, cases(32));
}
