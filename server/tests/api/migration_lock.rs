//! Two instances starting together on an empty PostgreSQL database (issue 28): both come up, and
//! the schema is migrated once. (A SQLite file belongs to one instance.)

use diesel::prelude::*;
use std::sync::{Arc, Barrier};

#[test]
fn two_instances_starting_together_on_an_empty_postgres_both_come_up_and_migrate_once() {
    let Some((_database, url)) = crate::helpers::empty_postgres() else {
        eprintln!("TEST_DATABASE_URL is not set: the PostgreSQL run of this test is skipped");
        return;
    };
    let start = Arc::new(Barrier::new(2));
    let starting: Vec<_> = (0..2)
        .map(|_| {
            let (url, start) = (url.clone(), Arc::clone(&start));
            std::thread::spawn(move || {
                start.wait();
                laundry::db::Database::open(&url, 2).map(|_| ()).map_err(|error| error.to_string())
            })
        })
        .collect();

    let opened: Vec<Result<(), String>> = starting.into_iter().map(|thread| thread.join().unwrap()).collect();

    assert_eq!(opened, [Ok(()), Ok(())]);
    let migrations = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../migrations/postgres"))
        .unwrap()
        .filter(|entry| entry.as_ref().unwrap().path().is_dir())
        .count();
    let mut connection = diesel::PgConnection::establish(&url).unwrap();
    let applied: i64 = diesel::select(diesel::dsl::sql::<diesel::sql_types::BigInt>(
        "(SELECT count(*) FROM __diesel_schema_migrations)",
    ))
    .get_result(&mut connection)
    .unwrap();
    assert_eq!(applied, migrations as i64, "each migration recorded once");
    let orders: i64 = diesel::select(diesel::dsl::sql::<diesel::sql_types::BigInt>("(SELECT count(*) FROM orders)"))
        .get_result(&mut connection)
        .unwrap();
    assert_eq!(orders, 0);
}
