//! The dashboard's figures over all history come from totals the database keeps with triggers
//! (issue 32). For any history of orders placed, re-billed, cancelled and restored, deleted, and of
//! payments, refunds and corrections entered and taken out, the kept totals equal a full recount,
//! on both backends; so do the outbox report's counts for any history of messages queued, sent,
//! failed, reported undelivered and removed; and so do each order's kept balance, the kept count
//! of each status and the search's rows (one per order). For any history of stops booked, moved
//! and changing state, every change into "missed" is written down once in `stop_misses` (issue 34);
//! and the report figures kept by day (`report_days`, counted before the history) equal a recount
//! after it.

use diesel::connection::SimpleConnection;
use laundry::db::{Database, DbConnection};
use laundry::domain::{Channel, EntryKind, Method, OutboxStatus, TextEnum};
use laundry::models::ledger::{Entry, NewEntry};
use laundry::models::outbox::OutboxMessage;
use laundry::models::reports::{period_figures, period_figures_recounted};
use laundry::models::stats::HistoryTotals;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use time::macros::{date, datetime};

/// What happens next in a history. Orders are named by an index among those placed so far
/// (modulo their number; nothing happens to an order when there is none).
#[derive(Debug, Clone)]
enum Step {
    Place { total: i32, cancelled: bool, day: u8, second_phone: bool },
    Rebill { order: usize, total: i32 },
    Cancel { order: usize },
    Restore { order: usize },
    Delete { order: usize },
    Enter { order: usize, kind: EntryKind, method: Method, amount: i32 },
    TakeOut { entry: usize },
    Correct { entry: usize, amount: i32 },
    Queue { channel: Channel, status: OutboxStatus, undelivered: bool },
    MarkStatus { message: usize, status: OutboxStatus },
    MarkDelivery { message: usize, undelivered: bool },
    Remove { message: usize },
    Book { order: usize, delivery: bool, day: u8 },
    SetStop { stop: usize, state: &'static str },
    MoveStop { stop: usize, day: u8 },
    Line { order: usize, piece: bool, quantity: i32 },
    Handover { day: u8, amount: i32 },
}

fn step() -> impl Strategy<Value = Step> {
    let order = 0_usize..64;
    let states = prop::sample::select(vec!["planned", "on-the-way", "done", "missed", "cancelled"]);
    prop_oneof![
        2 => (order.clone(), any::<bool>(), 1_u8..28).prop_map(|(order, delivery, day)| Step::Book { order, delivery, day }),
        4 => (order.clone(), states).prop_map(|(stop, state)| Step::SetStop { stop, state }),
        1 => (order.clone(), 1_u8..28).prop_map(|(stop, day)| Step::MoveStop { stop, day }),
        2 => (order.clone(), any::<bool>(), 1_i32..20).prop_map(|(order, piece, quantity)| Step::Line { order, piece, quantity }),
        1 => (1_u8..28, 1_i32..5_000).prop_map(|(day, amount)| Step::Handover { day, amount }),
        3 => (0_i32..50_000, any::<bool>(), 1_u8..28, any::<bool>())
            .prop_map(|(total, cancelled, day, second_phone)| Step::Place { total, cancelled, day, second_phone }),
        2 => (order.clone(), 0_i32..50_000).prop_map(|(order, total)| Step::Rebill { order, total }),
        1 => order.clone().prop_map(|order| Step::Cancel { order }),
        1 => order.clone().prop_map(|order| Step::Restore { order }),
        1 => order.clone().prop_map(|order| Step::Delete { order }),
        4 => (order, prop::sample::select(EntryKind::ALL), prop::sample::select(Method::ALL), 1_i32..20_000)
            .prop_map(|(order, kind, method, amount)| Step::Enter { order, kind, method, amount }),
        1 => (0_usize..64).prop_map(|entry| Step::TakeOut { entry }),
        1 => (0_usize..64, -5_000_i32..5_000).prop_map(|(entry, amount)| Step::Correct { entry, amount }),
        3 => (prop::sample::select(Channel::ALL), prop::sample::select(OutboxStatus::ALL), any::<bool>())
            .prop_map(|(channel, status, undelivered)| Step::Queue { channel, status, undelivered }),
        2 => (0_usize..64, prop::sample::select(OutboxStatus::ALL))
            .prop_map(|(message, status)| Step::MarkStatus { message, status }),
        1 => (0_usize..64, any::<bool>()).prop_map(|(message, undelivered)| Step::MarkDelivery { message, undelivered }),
        1 => (0_usize..64).prop_map(|message| Step::Remove { message }),
    ]
}

fn ids(connection: &mut DbConnection, sql: &str) -> Vec<String> {
    #[derive(diesel::QueryableByName)]
    struct Id {
        #[diesel(sql_type = diesel::sql_types::Text)]
        id: String,
    }
    diesel::RunQueryDsl::load::<Id>(diesel::sql_query(sql), connection).unwrap().into_iter().map(|row| row.id).collect()
}

fn pick(list: &[String], index: usize) -> Option<&String> {
    (!list.is_empty()).then(|| &list[index % list.len()])
}

/// Applies `step`; `misses` counts, by order, the changes of its stops into "missed" so far.
fn apply(
    connection: &mut DbConnection,
    step: &Step,
    placed: &mut usize,
    misses: &mut std::collections::BTreeMap<String, usize>,
) {
    let orders = ids(connection, "SELECT id FROM orders ORDER BY id");
    let stops = ids(connection, "SELECT id FROM stops ORDER BY id");
    let entries = ids(connection, "SELECT CAST(id AS TEXT) AS id FROM ledger_entries ORDER BY id");
    let messages = ids(connection, "SELECT id FROM outbox ORDER BY id");
    let delivery = |undelivered: bool| if undelivered { "'failed'" } else { "'delivered'" };
    let sql = match step {
        // Two customers' orders over the month, in any order: whether one is a customer's first
        // depends on the others.
        Step::Place { total, cancelled, day, second_phone } => {
            *placed += 1;
            let id = format!("order-{placed:05}");
            let status = if *cancelled { "cancelled" } else { "pending" };
            let phone = if *second_phone { "+254722000111" } else { "+254712345678" };
            format!(
                "INSERT INTO orders (id, reference, customer_name, phone, location, service_type, service_label, \
                 quantity, payment_method, price_per_kg, total_amount, status, created_at, updated_at, \
                 estimate_amount) VALUES ('{id}', '{id}', 'Amina', '{phone}', 'Kilimani', 'wash-fold', \
                 'Wash & Fold', 3, 'pay-now', 150, {total}, '{status}', '2026-11-{day:02} 08:00:00', \
                 '2026-11-{day:02} 08:00:00', {total})"
            )
        }
        Step::Rebill { order, total } => match pick(&orders, *order) {
            Some(id) => format!("UPDATE orders SET total_amount = {total} WHERE id = '{id}'"),
            None => return,
        },
        Step::Cancel { order } => match pick(&orders, *order) {
            Some(id) => format!("UPDATE orders SET status = 'cancelled' WHERE id = '{id}'"),
            None => return,
        },
        Step::Restore { order } => match pick(&orders, *order) {
            Some(id) => format!("UPDATE orders SET status = 'picked-up' WHERE id = '{id}'"),
            None => return,
        },
        // Its entries go with it (ON DELETE CASCADE).
        Step::Delete { order } => match pick(&orders, *order) {
            Some(id) => {
                misses.remove(id);
                format!("DELETE FROM orders WHERE id = '{id}'")
            }
            None => return,
        },
        Step::Enter { order, kind, method, amount } => {
            let Some(id) = pick(&orders, *order) else { return };
            let method = matches!(kind, EntryKind::Payment | EntryKind::Refund).then_some(*method);
            let entry = NewEntry { method, ..NewEntry::charge(*kind, *amount, "", None) };
            Entry::add(connection, id, &entry, datetime!(2026-11-21 09:00)).unwrap();
            return;
        }
        Step::TakeOut { entry } => match pick(&entries, *entry) {
            Some(id) => format!("DELETE FROM ledger_entries WHERE id = {id}"),
            None => return,
        },
        // Entries are only ever added by the application; the totals follow an edit all the same.
        Step::Correct { entry, amount } => match pick(&entries, *entry) {
            Some(id) => format!("UPDATE ledger_entries SET amount = amount + {amount} WHERE id = {id}"),
            None => return,
        },
        Step::Queue { channel, status, undelivered } => {
            *placed += 1;
            let (kind, email, phone) = match channel {
                Channel::Email => ("order-admin", "'shop@example.com'", "NULL"),
                Channel::Sms => ("sms-reply", "NULL", "'+254712345678'"),
            };
            format!(
                "INSERT INTO outbox (id, channel, kind, to_email, to_phone, params, status, attempts, \
                 next_attempt_at, created_at, delivery) VALUES ('message-{placed:05}', '{channel}', '{kind}', \
                 {email}, {phone}, '{{}}', '{status}', 0, '2026-11-20 00:00:00', '2026-11-20 00:00:00', {})",
                delivery(*undelivered),
                channel = channel.as_str(),
                status = status.as_str(),
            )
        }
        Step::MarkStatus { message, status } => match pick(&messages, *message) {
            Some(id) => format!("UPDATE outbox SET status = '{}' WHERE id = '{id}'", status.as_str()),
            None => return,
        },
        Step::MarkDelivery { message, undelivered } => match pick(&messages, *message) {
            Some(id) => format!("UPDATE outbox SET delivery = {} WHERE id = '{id}'", delivery(*undelivered)),
            None => return,
        },
        Step::Remove { message } => match pick(&messages, *message) {
            Some(id) => format!("DELETE FROM outbox WHERE id = '{id}'"),
            None => return,
        },
        Step::Book { order, delivery, day } => {
            let Some(id) = pick(&orders, *order) else { return };
            let kind = if *delivery { "delivery" } else { "pickup" };
            format!(
                "INSERT INTO stops (id, order_id, kind, day, window_start, window_end, state, created_at) \
                 VALUES ('{id}-{kind}', '{id}', '{kind}', '2026-11-{day:02}', 600, 720, 'planned', \
                 '2026-11-20 00:00:00') ON CONFLICT DO NOTHING"
            )
        }
        Step::SetStop { stop, state } => {
            let Some(id) = pick(&stops, *stop) else { return };
            let now = ids(connection, &format!("SELECT state || ' ' || order_id AS id FROM stops WHERE id = '{id}'"));
            let (was, order) = now[0].split_once(' ').unwrap();
            if *state == "missed" && was != "missed" {
                *misses.entry(order.to_owned()).or_default() += 1;
            }
            // Pickups done before deliveries: a delivery done has a turnaround, on its own day.
            let done_at = match *state {
                "done" if id.ends_with("-pickup") => "'2026-11-10 12:00:00'",
                "done" => "'2026-11-22 12:00:00'",
                _ => "done_at",
            };
            format!(
                "UPDATE stops SET state = '{state}', missed_at = '2026-11-20 10:00:00', done_at = {done_at} \
                 WHERE id = '{id}'"
            )
        }
        Step::Line { order, piece, quantity } => {
            let Some(id) = pick(&orders, *order) else { return };
            let (kind, item, unit) = if *piece { ("piece", "shirt", "piece") } else { ("kg", "wash-fold", "kg") };
            format!(
                "INSERT INTO order_lines (order_id, position, kind, item, label, quantity, unit, unit_price, amount) \
                 SELECT '{id}', COALESCE(MAX(position) + 1, 0), '{kind}', '{item}', '{item}', {quantity}, '{unit}', \
                 100, {amount} FROM order_lines WHERE order_id = '{id}'",
                amount = quantity * 100
            )
        }
        Step::Handover { day, amount } => format!(
            "INSERT INTO cash_handovers (holder, day, amount, note, recorded_by, recorded_at) VALUES \
             ('valet@example.com', '2026-11-{day:02}', {amount}, '', 'owner@example.com', '2026-11-{day:02} 18:00:00')"
        ),
        // As staff move a stop: to another day, planned again.
        Step::MoveStop { stop, day } => match pick(&stops, *stop) {
            Some(id) => format!("UPDATE stops SET day = '2026-11-{day:02}', state = 'planned' WHERE id = '{id}'"),
            None => return,
        },
    };
    connection.batch_execute(&sql).unwrap();
}

fn run(database: &Database, cases: u32) {
    let mut runner = TestRunner::new(Config { cases, ..Config::default() });
    runner.run(&prop::collection::vec(step(), 0..60), |steps| check_history(database, &steps)).unwrap();
}

/// Applies `steps` to an empty database and checks every kept figure against a recount.
fn check_history(database: &Database, steps: &[Step]) -> Result<(), TestCaseError> {
    {
        {
            let mut connection = database.connection().unwrap();
            connection
                .batch_execute(
                    "DELETE FROM stop_misses; DELETE FROM stops; DELETE FROM ledger_entries; DELETE FROM outbox; \
                     DELETE FROM cash_handovers; DELETE FROM orders; DELETE FROM report_days;",
                )
                .unwrap();
            prop_assert_eq!(
                HistoryTotals::load(&mut connection).unwrap(),
                HistoryTotals::recount(&mut connection).unwrap()
            );
            // The reports' days are counted and kept first; the history must make them forget
            // what it changes.
            let (first, last, today) = (date!(2026 - 11 - 01), date!(2026 - 11 - 30), date!(2026 - 12 - 01));
            let now = datetime!(2026-12-01 09:00);
            period_figures(&mut connection, first, last, today, now).unwrap();
            let kept_days = ids(&mut connection, "SELECT CAST(COUNT(*) AS TEXT) AS id FROM report_days");
            prop_assert_eq!(kept_days, ["30".to_owned()], "every day of November is kept");
            let (mut placed, mut misses) = (0, std::collections::BTreeMap::new());
            for step in steps {
                apply(&mut connection, step, &mut placed, &mut misses);
                // Counted and kept again after each step: the next must forget what it changes.
                period_figures(&mut connection, first, last, today, now).unwrap();
            }
            let written = ids(
                &mut connection,
                "SELECT order_id || ' ' || CAST(COUNT(*) AS TEXT) AS id FROM stop_misses GROUP BY order_id ORDER BY order_id",
            );
            let expected: Vec<String> =
                misses.iter().filter(|(_, n)| **n > 0).map(|(order, n)| format!("{order} {n}")).collect();
            prop_assert_eq!(written, expected, "misses written after {:?}", steps);
            prop_assert_eq!(
                period_figures(&mut connection, first, last, today, now).unwrap(),
                period_figures_recounted(&mut connection, first, last).unwrap(),
                "the reports' kept days after {:?}",
                steps
            );
            let kept = HistoryTotals::load(&mut connection).unwrap();
            prop_assert_eq!(&kept, &HistoryTotals::recount(&mut connection).unwrap(), "after {:?}", steps);
            for channel in Channel::ALL {
                let kept = OutboxMessage::kept_counts(&mut connection, *channel).unwrap();
                let counted = OutboxMessage::recount(&mut connection, *channel).unwrap();
                prop_assert_eq!(kept, counted, "{:?} after {:?}", channel, steps);
            }
            // Each order's balance, the orders of each status, the search's rows.
            for owing in [true, false] {
                let mut kept = Entry::unsettled(&mut connection, owing, i64::MAX).unwrap();
                let mut counted = Entry::unsettled_recounted(&mut connection, owing).unwrap();
                kept.sort();
                counted.sort();
                prop_assert_eq!(kept, counted, "balances (owing: {}) after {:?}", owing, steps);
            }
            let kept = ids(
                &mut connection,
                "SELECT status || ' ' || CAST(orders AS TEXT) AS id FROM order_status_counts WHERE orders <> 0 \
                 ORDER BY status",
            );
            let counted = ids(
                &mut connection,
                "SELECT status || ' ' || CAST(COUNT(*) AS TEXT) AS id FROM orders GROUP BY status ORDER BY status",
            );
            prop_assert_eq!(kept, counted, "status counts after {:?}", steps);
            let searched = ids(&mut connection, "SELECT order_id AS id FROM order_search ORDER BY order_id");
            prop_assert_eq!(searched, ids(&mut connection, "SELECT id FROM orders ORDER BY id"), "after {:?}", steps);
            Ok(())
        }
    }
}

#[test]
fn a_pickup_done_after_its_delivery_makes_the_delivery_day_count_again() {
    let dir = tempfile::tempdir().unwrap();
    let database = Database::open(&format!("sqlite://{}/laundry.db", dir.path().display()), 1).unwrap();
    // The stops sort by key: the delivery (index 0) before the pickup (index 1).
    let steps = [
        Step::Place { total: 900, cancelled: false, day: 3, second_phone: false },
        Step::Book { order: 0, delivery: false, day: 5 },
        Step::Book { order: 0, delivery: true, day: 9 },
        Step::SetStop { stop: 0, state: "done" },
        Step::SetStop { stop: 1, state: "done" },
    ];
    check_history(&database, &steps).unwrap();
}

#[test]
fn cancelling_a_customers_first_order_makes_the_day_of_their_next_count_again() {
    let dir = tempfile::tempdir().unwrap();
    let database = Database::open(&format!("sqlite://{}/laundry.db", dir.path().display()), 1).unwrap();
    let steps = [
        Step::Place { total: 900, cancelled: false, day: 5, second_phone: false },
        Step::Place { total: 600, cancelled: false, day: 9, second_phone: false },
        // The first (order-00001) is cancelled: the order of the 9th is now the customer's first.
        Step::Cancel { order: 0 },
    ];
    check_history(&database, &steps).unwrap();
}

#[test]
fn sqlite_keeps_the_totals_equal_to_a_recount_after_any_history() {
    let dir = tempfile::tempdir().unwrap();
    let database = Database::open(&format!("sqlite://{}/laundry.db", dir.path().display()), 1).unwrap();
    run(&database, 64);
}

#[test]
fn postgresql_keeps_the_totals_equal_to_a_recount_after_any_history() {
    let Some((_database, url)) = crate::helpers::empty_postgres() else {
        eprintln!("TEST_DATABASE_URL is not set: the PostgreSQL run of this test is skipped");
        return;
    };
    let database = Database::open(&url, 1).unwrap();
    run(&database, 24);
}
