//! The connection enum over both backends. The derive generates items diesel documents itself.
#![allow(missing_docs)]

/// A connection to either backend: SQLite, the embedded default, or PostgreSQL, for several server
/// instances on one database.
#[derive(diesel::MultiConnection)]
pub enum DbConnection {
    Sqlite(diesel::SqliteConnection),
    Postgres(diesel::PgConnection),
}
