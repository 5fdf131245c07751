//! The ledger's sums as the database computes them (the balances every page reads, the orders
//! owing and owed back, the takings of any period) equal the domain's sums of the same entries,
//! for any sequence of charges, payments, refunds and corrections, on both backends; and what the
//! dashboard and the customer's page show of an order's money is that balance; and the owner's
//! books (issue 49) count the money that moved by method, with the store credit kept and used apart
//! (kept less used is what the customer holds).

use diesel::connection::SimpleConnection;
use laundry::db::Database;
use laundry::domain::schedule::day_bounds;
use laundry::domain::{Balance, EntryKind, Method, Takings, TextEnum};
use laundry::models::ledger::{Entry, NewEntry};
use laundry::models::order::Order;
use laundry::models::order_list::MoneyFacts;
use laundry::models::reports::period_figures;
use laundry::views::orders::AdminOrder;
use laundry::views::payment::CustomerPayment;
use laundry::views::reports::{Figures, Period, Reader, Reports};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::collections::HashMap;
use time::macros::{date, datetime};
use time::{Duration, PrimitiveDateTime};

const ORDERS: [&str; 3] = ["order-a", "order-b", "order-c"];
const START: PrimitiveDateTime = datetime!(2026-11-20 00:00);

/// One entry to add: which order, what, how, how much, and how many minutes after [`START`].
type Planned = (usize, EntryKind, Method, i32, i64);

fn planned() -> impl Strategy<Value = Planned> {
    (
        0..ORDERS.len(),
        prop::sample::select(EntryKind::ALL),
        prop::sample::select(Method::ALL),
        -2_000_i32..20_000,
        0_i64..(3 * 24 * 60),
    )
}

fn run(database: &Database, cases: u32) {
    crate::helpers::bare_orders(&mut database.connection().unwrap(), &ORDERS, "+254712345678", "pay-now");
    let mut runner = TestRunner::new(Config { cases, ..Config::default() });
    let strategy = (prop::collection::vec(planned(), 0..30), 0_i64..(3 * 24 * 60), 1_i64..(2 * 24 * 60));
    runner
        .run(&strategy, |(entries, from, length)| {
            let mut connection = database.connection().unwrap();
            connection.batch_execute("DELETE FROM ledger_entries").unwrap();
            for (order, kind, method, amount, minute) in &entries {
                let method = matches!(kind, EntryKind::Payment | EntryKind::Refund).then_some(*method);
                let entry = NewEntry { method, ..NewEntry::charge(*kind, *amount, "", None) };
                Entry::add(&mut connection, ORDERS[*order], &entry, START + Duration::minutes(*minute)).unwrap();
            }
            let mut expected: HashMap<&str, Balance> = HashMap::new();
            for (order, kind, _, amount, _) in &entries {
                expected.entry(ORDERS[*order]).or_default().add(*kind, i64::from(*amount));
            }
            for id in ORDERS {
                let want = expected.get(id).copied().unwrap_or_default();
                let balance = Entry::balance(&mut connection, id).unwrap();
                prop_assert_eq!(balance, want, "{}", id);
                // What the dashboard and the customer's page show of it.
                let order = Order::find(&mut connection, id).unwrap().unwrap();
                let facts = MoneyFacts::of_order(&mut connection, id).unwrap();
                let shown = AdminOrder::new(&order, &[], &[], Some(&facts));
                prop_assert_eq!((shown.to_pay, shown.owed_back), (want.to_pay(), want.owed_back()));
                prop_assert_eq!(&shown.money_words, &want.staff_words());
                let entries = Entry::of_order(&mut connection, id).unwrap();
                let customer = CustomerPayment::new(&order, &entries, None, false, START);
                prop_assert_eq!((customer.due, &customer.words), (want.to_pay(), &want.customer_words()));
            }
            let balances = Entry::balances(&mut connection, &ORDERS).unwrap();
            let by_id: HashMap<String, Balance> = expected.iter().map(|(id, b)| ((*id).to_owned(), *b)).collect();
            prop_assert_eq!(&balances, &by_id);
            let mut owing: Vec<(String, i64)> = Entry::unsettled(&mut connection, true, 10).unwrap();
            owing.sort();
            let mut due: Vec<(String, i64)> =
                expected.iter().filter(|(_, b)| b.due() > 0).map(|(id, b)| ((*id).to_owned(), b.due())).collect();
            due.sort();
            prop_assert_eq!(owing, due);
            // The takings of any period: the payments less the refunds entered in it.
            let (from, until) = (START + Duration::minutes(from), START + Duration::minutes(from + length));
            let within = entries.iter().filter(|(_, kind, _, _, minute)| {
                let at = START + Duration::minutes(*minute);
                matches!(kind, EntryKind::Payment | EntryKind::Refund) && at >= from && at < until
            });
            let expected = Takings::of(within.map(|(_, kind, method, amount, _)| (*kind, *method, i64::from(*amount))));
            prop_assert_eq!(Entry::takings(&mut connection, from, until).unwrap(), expected);
            // The owner's books of the days that hold every entry: received, given back and net
            // are the money entries' sums by method, and the store credit kept less used is what
            // the phone number holds (the report's owed at the end).
            let (first, last) = (date!(2026 - 11 - 20), date!(2026 - 11 - 23));
            let days = period_figures(&mut connection, first, last, date!(2026 - 11 - 25), START).unwrap();
            let figures = Figures {
                money: Some(days.money),
                credit_ever: Entry::credit_before(&mut connection, day_bounds(last).1).unwrap(),
                ..Figures::default()
            };
            let period = Period::ask(Some("custom"), Some("2026-11-20"), Some("2026-11-23"), date!(2026 - 11 - 25));
            let money = Reports::new(period, &figures, &Reader::Owner(Vec::new())).money.unwrap();
            let all = entries.iter().map(|(_, kind, method, amount, _)| (*kind, *method, i64::from(*amount)));
            let by_method = |wanted: EntryKind, method: Method| -> i64 {
                all.clone().filter(|(kind, m, _)| *kind == wanted && *m == method).map(|(_, _, amount)| amount).sum()
            };
            for sum in &money.total.received {
                prop_assert!(sum.method.is_money());
                prop_assert_eq!(sum.amount, by_method(EntryKind::Payment, sum.method), "received by {:?}", sum.method);
            }
            for sum in &money.total.refunded {
                prop_assert!(sum.method.is_money());
                prop_assert_eq!(sum.amount, by_method(EntryKind::Refund, sum.method), "given back by {:?}", sum.method);
            }
            let moved: i64 = Method::ALL
                .iter()
                .filter(|method| method.is_money())
                .map(|&method| by_method(EntryKind::Payment, method) - by_method(EntryKind::Refund, method))
                .sum();
            prop_assert_eq!(money.total.total, moved, "net is what moved");
            let received: i64 = money.total.received.iter().map(|sum| sum.amount).sum();
            let refunded: i64 = money.total.refunded.iter().map(|sum| sum.amount).sum();
            prop_assert_eq!(received - refunded, moved);
            let credit = money.total.credit;
            prop_assert_eq!(
                (credit.kept, credit.used),
                (by_method(EntryKind::Refund, Method::Credit), by_method(EntryKind::Payment, Method::Credit))
            );
            let held = Entry::credit_of(&mut connection, "+254712345678").unwrap();
            prop_assert_eq!(credit.kept - credit.used, held, "credit kept less used is what is owed");
            prop_assert_eq!(money.credit_owed, held);
            Ok(())
        })
        .unwrap();
}

#[test]
fn sqlite_sums_the_ledger_as_the_domain_does() {
    let dir = tempfile::tempdir().unwrap();
    let database = Database::open(&format!("sqlite://{}/laundry.db", dir.path().display()), 1).unwrap();
    run(&database, 64);
}

#[test]
fn postgresql_sums_the_ledger_as_the_domain_does() {
    let Some((_database, url)) = crate::helpers::empty_postgres() else {
        eprintln!("TEST_DATABASE_URL is not set: the PostgreSQL run of this test is skipped");
        return;
    };
    let database = Database::open(&url, 1).unwrap();
    run(&database, 24);
}
