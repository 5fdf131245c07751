//! Upgrades that cannot lose data, on both backends. A database at the schema of the release of
//! 2026-11-30 (the migrations before [`NEXT`]), holding rows of every kind that release wrote
//! (`tests/fixtures/release-2026-11-30.sql`: every table has some), is migrated by this binary
//! as a start would: every row of every table is still there with the same values, the totals
//! the later migrations keep by trigger equal a full recount, and a server started on it answers
//! every order's page. A migration that fails stops the start, says which one and why, and
//! leaves the database as that migration found it.
//!
//! When a release ships, its rows can be added as a fixture of their own beside this one.

use crate::helpers::{TestApp, migrate_before};
use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::sql_types::Text;
use laundry::db::{Database, DbConnection};
use laundry::domain::{Channel, TextEnum};
use laundry::models::outbox::OutboxMessage;
use laundry::models::stats::HistoryTotals;
use std::collections::BTreeMap;

/// The first migration after the release: the fixture's rows are written before it runs.
const NEXT: &str = "20261201000001";

/// The release's rows.
const ROWS: &str = include_str!("../fixtures/release-2026-11-30.sql");

/// The orders of the fixture: order ID and link token.
const ORDERS: [(&str, &str); 4] = [
    ("K7M2Q9XA", "tokenpending0000000000000000000"),
    ("P3R8T2VW", "tokendelivered00000000000000000"),
    ("C9D4F6GH", "tokencancelled00000000000000000"),
    ("R2S3T4U5", "tokenreclean0000000000000000000"),
];

#[derive(QueryableByName)]
struct Named {
    #[diesel(sql_type = Text)]
    name: String,
}

/// Every table but diesel's own, by name.
fn tables(connection: &mut DbConnection) -> Vec<String> {
    let query = match connection {
        DbConnection::Sqlite(_) => {
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
             AND name <> '__diesel_schema_migrations' ORDER BY name"
        }
        DbConnection::Postgres(_) => {
            "SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = 'public' \
             AND table_type = 'BASE TABLE' AND table_name <> '__diesel_schema_migrations' ORDER BY table_name"
        }
    };
    diesel::sql_query(query).load::<Named>(connection).unwrap().into_iter().map(|n| n.name).collect()
}

/// The columns of `table`, in order.
fn columns(connection: &mut DbConnection, table: &str) -> Vec<String> {
    let query = match connection {
        DbConnection::Sqlite(_) => format!("SELECT name FROM pragma_table_info('{table}') ORDER BY cid"),
        DbConnection::Postgres(_) => format!(
            "SELECT column_name::text AS name FROM information_schema.columns WHERE table_schema = 'public' \
             AND table_name = '{table}' ORDER BY ordinal_position"
        ),
    };
    diesel::sql_query(query).load::<Named>(connection).unwrap().into_iter().map(|n| n.name).collect()
}

/// Each row of `table` as one text of `columns`' values (NULL apart from 'NULL'), sorted.
fn rows(connection: &mut DbConnection, table: &str, columns: &[String]) -> Vec<String> {
    let quoted: Vec<String> = match connection {
        DbConnection::Sqlite(_) => columns.iter().map(|c| format!("quote(\"{c}\")")).collect(),
        DbConnection::Postgres(_) => columns.iter().map(|c| format!("quote_nullable(\"{c}\"::text)")).collect(),
    };
    let query = format!("SELECT {} AS name FROM \"{table}\"", quoted.join(" || '|' || "));
    let mut rows: Vec<String> =
        diesel::sql_query(query).load::<Named>(connection).unwrap().into_iter().map(|n| n.name).collect();
    rows.sort();
    rows
}

/// Every table's columns and rows.
type Snapshot = BTreeMap<String, (Vec<String>, Vec<String>)>;

fn snapshot(connection: &mut DbConnection) -> Snapshot {
    tables(connection)
        .into_iter()
        .map(|table| {
            let columns = columns(connection, &table);
            let rows = rows(connection, &table, &columns);
            (table, (columns, rows))
        })
        .collect()
}

/// What `before` held is all still in `connection`: each table, its columns, its rows.
fn assert_every_row_survives(before: &Snapshot, connection: &mut DbConnection) {
    let now = tables(connection);
    for (table, (columns, rows_before)) in before {
        assert!(now.contains(table), "the table {table} is gone after the upgrade");
        let kept = self::columns(connection, table);
        let lost: Vec<_> = columns.iter().filter(|c| !kept.contains(c)).collect();
        assert!(lost.is_empty(), "{table} lost the columns {lost:?}");
        assert_eq!(&rows(connection, table, columns), rows_before, "the rows of {table}");
    }
}

/// The fixture fills every table of the release: a table it forgot would be an upgrade untested.
fn assert_every_table_has_rows(before: &Snapshot) {
    let empty: Vec<_> = before.iter().filter(|(_, (_, rows))| rows.is_empty()).map(|(t, _)| t).collect();
    assert!(empty.is_empty(), "the fixture writes no rows into {empty:?}");
}

/// What the later migrations keep by trigger, counted from the rows they found.
fn assert_kept_totals_equal_a_recount(database: &Database) {
    let mut connection = database.connection().unwrap();
    assert_eq!(HistoryTotals::load(&mut connection).unwrap(), HistoryTotals::recount(&mut connection).unwrap());
    for &channel in Channel::ALL {
        assert_eq!(
            OutboxMessage::kept_counts(&mut connection, channel).unwrap(),
            OutboxMessage::recount(&mut connection, channel).unwrap(),
            "{channel:?}"
        );
    }
}

/// A server on the upgraded database answers each order's page, and is ready.
async fn assert_served(url: String) {
    let app = TestApp::builder().database_url(url).start().await;
    assert_eq!(app.get("/readyz").await.status(), 200);
    for (reference, token) in ORDERS {
        let page = app.get(&format!("/t/{token}")).await;
        assert_eq!(page.status(), 200, "{reference}");
        assert!(page.text().await.unwrap().contains(reference), "{reference}'s page names it");
    }
}

#[actix_web::test]
async fn a_sqlite_database_of_the_last_release_keeps_every_row() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("laundry.db");
    let mut old = diesel::SqliteConnection::establish(path.to_str().unwrap()).unwrap();
    assert!(migrate_before(&mut old, "sqlite", NEXT) > 15);
    let mut old = DbConnection::Sqlite(old);
    old.batch_execute(&format!("PRAGMA foreign_keys = ON; {ROWS}")).unwrap();
    let before = snapshot(&mut old);
    assert_every_table_has_rows(&before);
    drop(old);

    let url = format!("sqlite://{}", path.display());
    let database = Database::open(&url, 2).unwrap();

    assert_every_row_survives(&before, &mut database.connection().unwrap());
    assert_kept_totals_equal_a_recount(&database);
    drop(database);
    assert_served(url).await;
}

#[actix_web::test]
async fn a_postgresql_database_of_the_last_release_keeps_every_row() {
    let Some((_database, url)) = crate::helpers::empty_postgres() else { return };
    let mut old = diesel::PgConnection::establish(&url).unwrap();
    assert!(migrate_before(&mut old, "postgres", NEXT) > 15);
    let mut old = DbConnection::Postgres(old);
    old.batch_execute(ROWS).unwrap();
    let before = snapshot(&mut old);
    assert_every_table_has_rows(&before);
    drop(old);

    let database = Database::open(&url, 2).unwrap();

    assert_every_row_survives(&before, &mut database.connection().unwrap());
    assert_kept_totals_equal_a_recount(&database);
    drop(database);
    assert_served(url).await;
}

/// A migration that fails (here: a table it makes, made by hand before it) stops the start with a
/// message naming the database and the failure, and nothing of that migration stays: each runs in
/// a transaction, and a start after the cause is removed migrates as usual.
#[test]
fn a_failing_migration_stops_the_start_and_leaves_the_database_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("laundry.db");
    let mut old = diesel::SqliteConnection::establish(path.to_str().unwrap()).unwrap();
    migrate_before(&mut old, "sqlite", NEXT);
    // The first migration after the release makes order_totals, then ledger_totals.
    old.batch_execute("CREATE TABLE ledger_totals (made_by_hand INTEGER)").unwrap();
    drop(old);
    let url = format!("sqlite://{}", path.display());

    let error = Database::open(&url, 2).unwrap_err().to_string();

    assert!(error.starts_with(&format!("cannot migrate the database at {url}")), "{error}");
    assert!(error.contains("ledger_totals already exists"), "{error}");
    let mut connection = DbConnection::Sqlite(diesel::SqliteConnection::establish(path.to_str().unwrap()).unwrap());
    let names = tables(&mut connection);
    assert!(!names.contains(&"order_totals".to_owned()), "the failed migration's first table is not left: {names:?}");
    let applied =
        diesel::sql_query(format!("SELECT version AS name FROM __diesel_schema_migrations WHERE version >= '{NEXT}'"))
            .load::<Named>(&mut connection)
            .unwrap();
    assert!(applied.is_empty(), "no later migration is recorded as applied");

    connection.batch_execute("DROP TABLE ledger_totals").unwrap();
    drop(connection);
    Database::open(&url, 2).expect("migrates once the cause is gone");
}
