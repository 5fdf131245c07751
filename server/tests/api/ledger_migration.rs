//! The ledger's migration, on both backends: a database with orders of every kind from before the
//! ledger (unpaid, paid in cash, by a prompt, to the till, by a code typed in, by a status query
//! without its code, weighed heavier, cancelled after payment, cancelled unpaid, a free re-clean)
//! is migrated, and each order's entries reproduce its money exactly as it stood.

use diesel::connection::SimpleConnection;
use diesel::migration::MigrationSource;
use diesel::prelude::*;
use diesel_migrations::{FileBasedMigrations, MigrationHarness};
use laundry::db::{Database, DbConnection};
use laundry::domain::{Balance, EntryKind, Method, Settlement};
use laundry::models::ledger::Entry;

/// The first migration of the ledger: everything before it is the schema it starts from.
const LEDGER: &str = "20261130000001";

/// Runs the migrations of `folder` that come before the ledger's.
fn migrate_to_before_the_ledger<B, C>(connection: &mut C, folder: &str)
where
    B: diesel::backend::Backend,
    C: MigrationHarness<B>,
    FileBasedMigrations: MigrationSource<B>,
{
    let applied = crate::helpers::migrate_before(connection, folder, LEDGER);
    assert!(applied > 10, "the migrations before the ledger");
}

/// One order row as the schema before the ledger held it.
fn order(id: &str, total: i32, estimate: i32, status: &str, paid: Option<(&str, Option<&str>)>) -> String {
    let (payment, via, code, at, by) = match paid {
        Some((via, code)) => (
            "'paid'",
            format!("'{via}'"),
            code.map_or("NULL".to_owned(), |code| format!("'{code}'")),
            "'2026-11-20 09:00:00'",
            "'njeri@example.com'",
        ),
        None => ("'unpaid'", "NULL".to_owned(), "NULL".to_owned(), "NULL", "NULL"),
    };
    let refund = if status == "cancelled" && paid.is_some() { total } else { 0 };
    format!(
        "INSERT INTO orders (id, reference, customer_name, phone, location, service_type, service_label, quantity, \
         payment_method, price_per_kg, total_amount, status, created_at, updated_at, payment_status, paid_via, \
         mpesa_code, paid_at, payment_recorded_by, estimate_amount, cancel_reason, refund_due) VALUES \
         ('{id}', 'REF{id}', 'Amina Wanjiru', '+254712345678', 'Kilimani', 'wash-fold', 'Wash & Fold', 3, \
         'pay-now', 150, {total}, '{status}', '2026-11-20 08:00:00', '2026-11-21 10:00:00', {payment}, {via}, \
         {code}, {at}, {by}, {estimate}, {reason}, {refund});",
        reason = if status == "cancelled" { "'Duplicate'" } else { "NULL" },
    )
}

/// The rows of orders of every kind, with their prompts, till payments and bills.
fn history() -> String {
    [
        order("AAAAAAA1", 450, 450, "pending", None),
        order("AAAAAAA2", 600, 600, "delivered", Some(("cash", None))),
        order("AAAAAAA3", 450, 450, "ready", Some(("mpesa", Some("QKH94M1Z11")))),
        order("AAAAAAA4", 700, 700, "delivered", Some(("mpesa", Some("RKTQDM7W6S")))),
        order("AAAAAAA5", 500, 500, "picked-up", Some(("mpesa", Some("QJK3L5X9TZ")))),
        order("AAAAAAA6", 450, 450, "pending", Some(("mpesa", None))),
        order("AAAAAAA7", 750, 450, "picked-up", None),
        order("AAAAAAA8", 450, 450, "cancelled", Some(("mpesa", Some("QKH94M1Z13")))),
        order("AAAAAAA9", 450, 450, "cancelled", None),
        order("AAAAAAB1", 0, 0, "pending", None),
        "INSERT INTO mpesa_prompts (id, order_id, phone, amount, state, asked_by, created_at, receipt) VALUES \
         ('p3', 'AAAAAAA3', '+254712345678', 450, 'paid', 'order', '2026-11-20 08:00:00', 'QKH94M1Z11'), \
         ('p6', 'AAAAAAA6', '+254712345678', 450, 'paid', 'order', '2026-11-20 08:00:00', NULL);"
            .to_owned(),
        "INSERT INTO mpesa_receipts (receipt, source, amount, received_at, order_id, matched_by, raw) VALUES \
         ('RKTQDM7W6S', 'till', 700, '2026-11-20 09:00:00', 'AAAAAAA4', 'order-id', '{}');"
            .to_owned(),
        "INSERT INTO order_bills (order_id, total_amount, lines, bags, recorded_at, recorded_by) VALUES \
         ('AAAAAAA7', 450, '[]', NULL, '2026-11-20 08:00:00', NULL), \
         ('AAAAAAA7', 750, '[]', 1, '2026-11-21 09:30:00', 'otieno@example.com');"
            .to_owned(),
    ]
    .join("\n")
}

/// Each order's money after the migration, as it stood before it.
fn check(connection: &mut DbConnection) {
    let balance = |c: &mut DbConnection, id: &str| Entry::balance(c, id).unwrap();
    let payment = |c: &mut DbConnection, id: &str| {
        let entries = Entry::of_order(c, id).unwrap();
        let paid: Vec<_> = entries.into_iter().filter(|e| e.kind == EntryKind::Payment).collect();
        assert!(paid.len() <= 1, "{paid:#?}");
        paid.into_iter().next().map(|e| (e.method.unwrap(), e.reference, i64::from(e.amount), e.recorded_by))
    };
    let owes = |charged, paid| Balance { charged, paid, refunded: 0 };
    assert_eq!(balance(connection, "AAAAAAA1"), owes(450, 0));
    assert_eq!(balance(connection, "AAAAAAA1").settlement(), Settlement::Unpaid);
    let staff = Some("njeri@example.com".to_owned());
    for (id, total, method, code) in [
        ("AAAAAAA2", 600, Method::Cash, None),
        ("AAAAAAA3", 450, Method::Prompt, Some("QKH94M1Z11")),
        ("AAAAAAA4", 700, Method::Till, Some("RKTQDM7W6S")),
        ("AAAAAAA5", 500, Method::Code, Some("QJK3L5X9TZ")),
        ("AAAAAAA6", 450, Method::Prompt, None),
    ] {
        assert_eq!(balance(connection, id), owes(total, total), "{id}");
        assert_eq!(balance(connection, id).settlement(), Settlement::Paid, "{id}");
        assert_eq!(payment(connection, id), Some((method, code.map(str::to_owned), total, staff.clone())), "{id}");
    }
    let prompt_of = |c: &mut DbConnection, id: &str| {
        Entry::of_order(c, id).unwrap().into_iter().find(|e| e.kind == EntryKind::Payment).unwrap().prompt_id
    };
    assert_eq!(prompt_of(connection, "AAAAAAA6").as_deref(), Some("p6"), "the status query's prompt");
    // Weighed heavier, unpaid: the estimate and the bill's difference, by the valet who weighed.
    assert_eq!(balance(connection, "AAAAAAA7"), owes(750, 0));
    let weighed = Entry::of_order(connection, "AAAAAAA7").unwrap();
    assert_eq!(
        weighed.iter().map(|e| (e.kind, e.amount)).collect::<Vec<_>>(),
        [(EntryKind::Charge, 450), (EntryKind::Adjustment, 300)]
    );
    assert_eq!(weighed[1].recorded_by.as_deref(), Some("otieno@example.com"));
    // Cancelled after payment: the KSh 450 owed back, as refund_due said.
    let cancelled = balance(connection, "AAAAAAA8");
    assert_eq!((cancelled.charged, cancelled.owed_back()), (0, 450));
    assert!(Entry::of_order(connection, "AAAAAAA8").unwrap().iter().any(|e| e.note == "Cancelled: Duplicate"));
    assert_eq!(balance(connection, "AAAAAAA9"), owes(0, 0));
    assert_eq!(balance(connection, "AAAAAAB1").settlement(), Settlement::NothingToPay);
    // Takings over all time: each payment once.
    assert_eq!(Entry::takings_ever(connection).unwrap().total, 600 + 450 + 700 + 500 + 450 + 450);
    // The dashboard's totals (a later migration) start from the orders and entries already there.
    let totals = laundry::models::stats::HistoryTotals::load(connection).unwrap();
    assert_eq!(totals, laundry::models::stats::HistoryTotals::recount(connection).unwrap());
    assert_eq!(totals.takings.total, 600 + 450 + 700 + 500 + 450 + 450);
}

#[test]
fn every_order_keeps_its_money_when_sqlite_moves_to_the_ledger() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("laundry.db");
    let mut old = diesel::SqliteConnection::establish(path.to_str().unwrap()).unwrap();
    migrate_to_before_the_ledger(&mut old, "sqlite");
    old.batch_execute(&history()).unwrap();
    drop(old);

    let database = Database::open(&format!("sqlite://{}", path.display()), 1).unwrap();

    check(&mut database.connection().unwrap());
}

#[test]
fn every_order_keeps_its_money_when_postgresql_moves_to_the_ledger() {
    let Some((_database, url)) = crate::helpers::empty_postgres() else {
        eprintln!("TEST_DATABASE_URL is not set: the PostgreSQL run of this test is skipped");
        return;
    };
    let mut old = diesel::PgConnection::establish(&url).unwrap();
    migrate_to_before_the_ledger(&mut old, "postgres");
    old.batch_execute(&history()).unwrap();
    drop(old);

    let database = Database::open(&url, 1).unwrap();

    check(&mut database.connection().unwrap());
}
