//! Issue 32: a staff search that many orders match is paged by walking the orders newest first,
//! one that few match by looking each up; either way a page holds exactly the orders the list would
//! show, in its order (newest first, ties by key). The count is every match up to the thousand
//! past the page's end, and says "more" beyond. Checked on both backends against the orders as the
//! test wrote them.

use diesel::connection::SimpleConnection;
use laundry::db::Database;
use laundry::models::order_list::{COUNTED_AT_MOST, ListedOrder, OrderFilter};

/// Writes `count` orders, one a minute (every seventh sharing its minute with the one before),
/// the n-th picked up in Kilimani when `kilimani(n)` (else in Westlands); returns the Kilimani
/// orders as the list shows them: newest first, ties by key (descending).
fn write_orders(database: &Database, count: usize, kilimani: impl Fn(usize) -> bool) -> Vec<String> {
    let mut connection = database.connection().unwrap();
    connection.batch_execute("DELETE FROM orders").unwrap();
    let mut found = Vec::new();
    let mut rows = Vec::new();
    for n in 0..count {
        let id = format!("order-{n:05}");
        let place = if kilimani(n) { "Kilimani" } else { "Westlands" };
        let minute = n - n / 7;
        let at = format!("2026-11-{:02} {:02}:{:02}:00", 1 + minute / 1440, minute / 60 % 24, minute % 60);
        rows.push(format!(
            "('{id}', 'R{n:07}', 'Amina', '+254712345678', '{place}', 'wash-fold', 'Wash & Fold', 3, 'pay-now', \
             150, 450, 'pending', '{at}', '{at}', 450)"
        ));
        if place == "Kilimani" {
            found.push((at, id));
        }
    }
    for batch in rows.chunks(200) {
        connection
            .batch_execute(&format!(
                "INSERT INTO orders (id, reference, customer_name, phone, location, service_type, service_label, \
                 quantity, payment_method, price_per_kg, total_amount, status, created_at, updated_at, \
                 estimate_amount) VALUES {}",
                batch.join(", ")
            ))
            .unwrap();
    }
    found.sort_by(|a, b| b.cmp(a));
    found.into_iter().map(|(_, id)| id).collect()
}

/// Page `page` of 20 of the search "kilimani": its orders, its count and whether more match.
fn search(database: &Database, page: i64) -> (Vec<String>, i64, bool) {
    let mut connection = database.connection().unwrap();
    let filter = OrderFilter { search: Some("kilimani".to_owned()), ..OrderFilter::default() };
    let listed = ListedOrder::page(&mut connection, &filter, page, 20).unwrap();
    (listed.items.into_iter().map(|order| order.order.id).collect(), listed.total, listed.more)
}

fn pages_hold_every_match_in_the_lists_order(database: &Database) {
    // Every order, half of them, 3 of 120: every page and the count exact.
    for (count, every) in [(120, 1), (120, 2), (120, 40)] {
        let expected = write_orders(database, count, |n| n % every == 0);
        let mut shown = Vec::new();
        for page in 1..=8 {
            let (items, total, more) = search(database, page);
            assert_eq!((total, more), (expected.len() as i64, false), "every match counted ({count}, 1 in {every})");
            shown.extend(items);
        }
        assert_eq!(shown, expected, "{count} orders, 1 in {every} in Kilimani");
    }

    // 1,200 matches: counted to 1,000 on the first 50 pages, then to 2,000: exactly.
    let expected = write_orders(database, 2_400, |n| n % 2 == 0);
    let at_most = COUNTED_AT_MOST;
    for page in [1, 2, 50, 51, 60] {
        let (items, total, more) = search(database, page);
        let start = (page as usize - 1) * 20;
        assert_eq!(items, expected[start..(start + 20).min(expected.len())], "page {page} of 1,200 matches");
        let counted = if page <= 50 { (at_most, true) } else { (1_200, false) };
        assert_eq!((total, more), counted, "page {page} of 1,200 matches is counted to the next thousand");
    }

    // 1,100 matches, all older than 3,000 orders that do not match: the walk gives up after four
    // times what the density promised, and the page is looked up, still in the list's order.
    let expected = write_orders(database, 4_100, |n| n < 1_100);
    let (items, total, more) = search(database, 1);
    assert_eq!(items, expected[..20], "matches bunched far back are found");
    assert_eq!((total, more), (at_most, true));
    let (items, _, _) = search(database, 55);
    assert_eq!(items, expected[1_080..], "the last page of matches bunched far back");
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
