//! The schema is created on an empty database at start, and starting again changes nothing.

use crate::helpers::TestApp;
use crate::on_both_backends;
use laundry::models::contact_message::ContactMessage;
use laundry::models::order::Order;

on_both_backends! {
    async fn an_empty_database_is_migrated_at_start(app: TestApp) {
        assert_eq!(app.with_db(|c| Order::count(c).unwrap()), 0);
        assert_eq!(app.with_db(|c| ContactMessage::count(c).unwrap()), 0);
    }
}

/// PostgreSQL's clock, read in a session set to Nairobi time (SQLite's clock is this machine's).
#[actix_web::test]
async fn the_database_clock_reads_utc_whatever_the_sessions_time_zone() {
    if crate::helpers::postgres_skipped() {
        return;
    }
    use diesel::connection::SimpleConnection;
    let app = TestApp::builder().on(crate::helpers::Backend::Postgres).start().await;
    let (clock, local) = app.with_db(|c| {
        // A server configured for Nairobi must not shift the mail worker's times by 3 hours.
        c.batch_execute("SET TIME ZONE 'Africa/Nairobi'").unwrap();
        let read = (laundry::db::database_clock(c).unwrap(), laundry::clock::Clock::system().utc());
        c.batch_execute("RESET TIME ZONE").unwrap();
        read
    });

    assert!((local - clock).abs() < time::Duration::seconds(5), "database {clock}, this machine {local}");
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

#[test]
fn a_connection_that_panicked_inside_a_transaction_is_not_handed_out_again() {
    use diesel::connection::SimpleConnection;
    use diesel::prelude::*;
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/laundry.db", dir.path().display());
    let database = laundry::db::Database::open(&url, 1).unwrap();
    let shared = database.clone();
    let panicked = std::thread::spawn(move || {
        let mut connection = shared.connection().unwrap();
        let _ = connection.transaction::<(), diesel::result::Error, _>(|_| panic!("a bug inside a transaction"));
    })
    .join();
    assert!(panicked.is_err());

    // The pool's one connection now: a write on it must commit for real, not inside the transaction
    // the panic left open.
    database.connection().unwrap().batch_execute("CREATE TABLE probe (x INTEGER)").unwrap();

    let mut other = diesel::SqliteConnection::establish(&format!("{}/laundry.db", dir.path().display())).unwrap();
    let seen: i64 = diesel::select(diesel::dsl::sql::<diesel::sql_types::BigInt>(
        "(SELECT count(*) FROM sqlite_master WHERE name = 'probe')",
    ))
    .get_result(&mut other)
    .unwrap();
    assert_eq!(seen, 1, "the write was committed");
}
