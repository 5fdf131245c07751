//! The schema is created on an empty database at start, and starting again changes nothing.

use crate::on_both_backends;
use laundry::models::contact_message::ContactMessage;
use laundry::models::order::Order;

on_both_backends! {
    async fn an_empty_database_is_migrated_at_start(app: TestApp) {
        assert_eq!(app.with_db(|c| Order::count(c).unwrap()), 0);
        assert_eq!(app.with_db(|c| ContactMessage::count(c).unwrap()), 0);
    }
}

#[test]
fn migrating_twice_keeps_what_is_stored() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/nested/folder/laundry.db", dir.path().display());
    let first = laundry::db::Database::open(&url, 2).unwrap();
    drop(first);

    let second = laundry::db::Database::open(&url, 2).unwrap();

    let mut connection = second.connection().unwrap();
    assert_eq!(Order::count(&mut connection).unwrap(), 0);
}

#[test]
fn an_unreachable_postgres_stops_the_start_with_a_message_naming_it() {
    let error = laundry::db::Database::open("postgres://nobody:secret@127.0.0.1:1/laundry", 1).unwrap_err().to_string();

    assert!(error.contains("cannot connect to the database at postgres://nobody:***@127.0.0.1:1/laundry"), "{error}");
    assert!(!error.contains("secret"));
}
