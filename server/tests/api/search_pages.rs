//! Issue 32: a staff search that many orders match is paged by walking the orders newest first (on
//! SQLite), one that few match by looking each up; either way a page holds exactly the orders the
//! list would show, in its order (newest first, ties by key), and the count is every match. Checked
//! on both backends against the orders as the test wrote them.

use diesel::connection::SimpleConnection;
use laundry::db::Database;
use laundry::models::order_list::{ListedOrder, OrderFilter};

/// Writes `count` orders of which every `every`-th is picked up in Kilimani (the others in
/// Westlands), one a minute, with some minutes shared by two orders.
fn write_orders(database: &Database, count: usize, every: usize) -> Vec<(String, String)> {
    let mut connection = database.connection().unwrap();
    let mut kilimani = Vec::new();
    for n in 0..count {
        let id = format!("order-{n:05}");
        let place = if n % every == 0 { "Kilimani" } else { "Westlands" };
        let minute = n - n / 7; // every seventh order shares its minute with the one before
        let at = format!("2026-11-20 {:02}:{:02}:00", 6 + minute / 60, minute % 60);
        connection
            .batch_execute(&format!(
                "INSERT INTO orders (id, reference, customer_name, phone, location, service_type, service_label, \
                 quantity, payment_method, price_per_kg, total_amount, status, created_at, updated_at, \
                 estimate_amount) VALUES ('{id}', 'R{n:07}', 'Amina', '+254712345678', '{place}', 'wash-fold', \
                 'Wash & Fold', 3, 'pay-now', 150, 450, 'pending', '{at}', '{at}', 450)"
            ))
            .unwrap();
        if place == "Kilimani" {
            kilimani.push((at, id));
        }
    }
    // Newest first, ties by key (descending), as the list shows them.
    kilimani.sort_by(|a, b| b.cmp(a));
    kilimani
}

fn pages_hold_every_match_in_the_lists_order(database: &Database) {
    for (count, every) in [(120, 1), (120, 2), (120, 40)] {
        let mut connection = database.connection().unwrap();
        connection.batch_execute("DELETE FROM orders").unwrap();
        drop(connection);
        let expected = write_orders(database, count, every);
        let mut connection = database.connection().unwrap();
        let filter = OrderFilter { search: Some("kilimani".to_owned()), ..OrderFilter::default() };
        let mut shown = Vec::new();
        for page in 1..=8 {
            let listed = ListedOrder::page(&mut connection, &filter, page, 20).unwrap();
            assert_eq!(listed.total, expected.len() as i64, "every match is counted ({count} orders, 1 in {every})");
            shown.extend(listed.items.into_iter().map(|order| order.order.id));
        }
        let expected: Vec<String> = expected.into_iter().map(|(_, id)| id).collect();
        assert_eq!(shown, expected, "{count} orders, 1 in {every} in Kilimani");
    }
}

#[test]
fn sqlite_pages_a_search_of_many_or_few_matches_as_the_list_would() {
    let dir = tempfile::tempdir().unwrap();
    let database = Database::open(&format!("sqlite://{}/laundry.db", dir.path().display()), 1).unwrap();
    pages_hold_every_match_in_the_lists_order(&database);
}

#[test]
fn postgresql_pages_a_search_of_many_or_few_matches_as_the_list_would() {
    let Some((_database, url)) = crate::helpers::empty_postgres() else {
        eprintln!("TEST_DATABASE_URL is not set: the PostgreSQL run of this test is skipped");
        return;
    };
    let database = Database::open(&url, 1).unwrap();
    pages_hold_every_match_in_the_lists_order(&database);
}
