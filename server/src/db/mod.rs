//! The database: SQLite (one file, the default) or PostgreSQL, chosen by `DATABASE_URL`, through one
//! diesel code base. Migrations for each backend are embedded and run at start; connections come
//! from an r2d2 pool; blocking work runs off the async threads ([`Database::run`]).

pub mod backup;
mod connection;
pub mod schema;
mod text_column;
mod timing;

pub use timing::time_queries;

use diesel::ConnectionError;
use diesel::connection::{SimpleConnection, TransactionManager};
use diesel::prelude::*;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use r2d2::{CustomizeConnection, ManageConnection, Pool, PooledConnection};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations/sqlite");
const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations/postgres");

pub use connection::{DbConnection, MultiBackend as DbBackend};

/// The key of the PostgreSQL advisory lock held while migrating ("laundry migrations" as ASCII,
/// folded into 63 bits): one instance migrates at a time.
const MIGRATION_LOCK: i64 = 0x6c61_756e_6472_794d;

/// A connection borrowed from the pool.
pub type PooledDb = PooledConnection<Manager>;

/// Opens connections of the one backend `DATABASE_URL` named (diesel's own manager would try
/// each backend of the enum in turn).
#[derive(Debug)]
pub struct Manager {
    backend: Backend,
    url: String,
}

impl ManageConnection for Manager {
    type Connection = DbConnection;
    type Error = ConnectionError;

    fn connect(&self) -> Result<DbConnection, ConnectionError> {
        match self.backend {
            Backend::Sqlite => diesel::SqliteConnection::establish(&self.url).map(DbConnection::Sqlite),
            Backend::Postgres => diesel::PgConnection::establish(&self.url).map(DbConnection::Postgres),
        }
    }

    fn is_valid(&self, connection: &mut DbConnection) -> Result<(), ConnectionError> {
        connection.batch_execute("SELECT 1").map_err(ConnectionError::CouldntSetupConfiguration)
    }

    /// A connection that was in use by a panicking thread, or whose transaction was left open or
    /// failed to roll back, is thrown away rather than handed out again: a later "commit" on it
    /// would only release a savepoint inside a transaction that never commits.
    fn has_broken(&self, connection: &mut DbConnection) -> bool {
        std::thread::panicking()
            || <<DbConnection as Connection>::TransactionManager as TransactionManager<DbConnection>>::is_broken_transaction_manager(
                connection,
            )
    }
}

/// Why the database could not be opened: says which database and why.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// `DATABASE_URL` names no backend we have.
    #[error("DATABASE_URL must start with sqlite:// or postgres:// (got {0:?})")]
    UnknownScheme(String),
    /// The folder of the SQLite file could not be created.
    #[error("cannot create the folder {folder} for the SQLite database: {source}")]
    Folder {
        /// The folder.
        folder: String,
        /// The cause.
        source: std::io::Error,
    },
    /// No connection could be made.
    #[error("cannot connect to the database at {url}: {reason}")]
    Connect {
        /// The URL, password removed.
        url: String,
        /// The cause.
        reason: String,
    },
    /// The migrations failed.
    #[error("cannot migrate the database at {url}: {message}")]
    Migrate {
        /// The URL, password removed.
        url: String,
        /// The migration error.
        message: String,
    },
}

/// Whether every migration this binary embeds is applied to the database of `connection` (none
/// pending), or why that could not be read.
pub fn schema_is_current(connection: &mut DbConnection) -> Result<bool, String> {
    let pending = match connection {
        DbConnection::Sqlite(sqlite) => sqlite.has_pending_migration(SQLITE_MIGRATIONS),
        DbConnection::Postgres(pg) => pg.has_pending_migration(POSTGRES_MIGRATIONS),
    };
    pending.map(|pending| !pending).map_err(|error| error.to_string())
}

/// The pool's connections at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PoolUse {
    /// Connections open now.
    pub connections: u32,
    /// Of them, those not lent out.
    pub idle: u32,
    /// The most the pool opens.
    pub max: u32,
}

/// Errors of a query run through [`Database::run`].
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// No connection was free in time.
    #[error("no database connection is available: {0}")]
    Pool(#[from] r2d2::Error),
    /// As many queries as the pool has connections were running, and none finished in time.
    #[error("the database is busy: no query could start within {0:?}")]
    Busy(Duration),
    /// The query failed.
    #[error(transparent)]
    Query(#[from] diesel::result::Error),
    /// The blocking task panicked or was cancelled.
    #[error("the database task failed: {0}")]
    Task(String),
}

/// Sets each new SQLite connection up: a busy timeout, foreign keys on, and `synchronous = FULL`
/// so that an order answered 201 survives a power cut too (WAL's NORMAL may lose the last commits).
/// (WAL is set once at open: it is a property of the file, and switching to it needs the file to
/// itself.)
#[derive(Debug)]
struct SqlitePragmas;

impl CustomizeConnection<DbConnection, ConnectionError> for SqlitePragmas {
    fn on_acquire(&self, connection: &mut DbConnection) -> Result<(), ConnectionError> {
        if let DbConnection::Sqlite(sqlite) = connection {
            sqlite
                .batch_execute(&format!(
                    "PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}; PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL;"
                ))
                .map_err(ConnectionError::CouldntSetupConfiguration)?;
        }
        Ok(())
    }
}

/// How long a SQLite statement waits for another connection's write to end (`busy_timeout`), and
/// a write transaction for its turn ([`write_transaction`]).
const BUSY_TIMEOUT_MS: u64 = 10_000;

/// The pool, shared by all workers.
#[derive(Clone)]
pub struct Database {
    pool: Pool<Manager>,
    backend: Backend,
    /// One permit per connection: a query waits for one as a task before it takes a blocking
    /// thread, so a flood of requests queues in memory a task costs (a few hundred bytes), not
    /// in threads blocked on the pool (each with its stack and, under glibc, its own malloc arena,
    /// which the process keeps after the flood).
    running: Arc<Semaphore>,
}

/// How long a query waits for a connection, as a task and then in the pool, before the request
/// is answered 503.
const WAIT_FOR_CONNECTION: Duration = Duration::from_secs(5);

/// Which database a [`Database`] talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// SQLite.
    Sqlite,
    /// PostgreSQL.
    Postgres,
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Database").field("backend", &self.backend).finish_non_exhaustive()
    }
}

impl Database {
    /// Opens `url` (`sqlite://path` or `postgres://…`), creating a SQLite file and its folder if
    /// missing, and runs the pending migrations. Blocking: call it before the server starts.
    pub fn open(url: &str, max_connections: u32) -> Result<Self, OpenError> {
        let shown = redact(url);
        let (backend, connect_url) = if let Some(path) = url.strip_prefix("sqlite://") {
            if let Some(folder) = Path::new(path).parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(folder)
                    .map_err(|source| OpenError::Folder { folder: folder.display().to_string(), source })?;
            }
            // WAL before the pool opens its connections all at once: changing the journal mode
            // needs the file to itself, and would otherwise fail with "database is locked".
            diesel::SqliteConnection::establish(path)
                .and_then(|mut c| {
                    c.batch_execute("PRAGMA busy_timeout = 10000; PRAGMA journal_mode = WAL;")
                        .map_err(ConnectionError::CouldntSetupConfiguration)
                })
                .map_err(|e| OpenError::Connect { url: shown.clone(), reason: e.to_string() })?;
            (Backend::Sqlite, path.to_owned())
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            (Backend::Postgres, url.to_owned())
        } else {
            return Err(OpenError::UnknownScheme(shown));
        };
        let mut builder = Pool::builder()
            .max_size(max_connections)
            .connection_timeout(Duration::from_secs(5))
            // A PostgreSQL server restarts, and its old connections are dead: checked before use.
            // A SQLite file cannot go away under an open connection.
            .test_on_check_out(backend == Backend::Postgres);
        if backend == Backend::Sqlite {
            builder = builder.connection_customizer(Box::new(SqlitePragmas));
        }
        let manager = Manager { backend, url: connect_url };
        let pool =
            builder.build(manager).map_err(|e| OpenError::Connect { url: shown.clone(), reason: e.to_string() })?;
        let running = Arc::new(Semaphore::new(max_connections as usize));
        let database = Self { pool, backend, running };
        database.migrate().map_err(|message| OpenError::Migrate { url: shown, message })?;
        Ok(database)
    }

    /// Which backend this is.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Runs the pending migrations. Two instances starting together on one PostgreSQL database
    /// would both find the schema missing and both create it, and one would fail: a session lock
    /// on a fixed key, on the connection that migrates, makes the second wait for the first and
    /// then find nothing to do. (A SQLite file belongs to one instance; its migrations run in
    /// write transactions.)
    fn migrate(&self) -> Result<(), String> {
        let mut connection = self.pool.get().map_err(|e| e.to_string())?;
        let result = match &mut *connection {
            DbConnection::Sqlite(sqlite) => sqlite.run_pending_migrations(SQLITE_MIGRATIONS).map(|_| ()),
            DbConnection::Postgres(pg) => {
                diesel::sql_query("SELECT pg_advisory_lock($1)")
                    .bind::<diesel::sql_types::BigInt, _>(MIGRATION_LOCK)
                    .execute(pg)
                    .map_err(|e| format!("cannot take the migration lock: {e}"))?;
                let migrated = pg.run_pending_migrations(POSTGRES_MIGRATIONS).map(|_| ());
                // Released whatever the outcome: the connection goes back to the pool.
                let released = diesel::sql_query("SELECT pg_advisory_unlock($1)")
                    .bind::<diesel::sql_types::BigInt, _>(MIGRATION_LOCK)
                    .execute(pg);
                if let Err(error) = released {
                    tracing::warn!(%error, "releasing the migration lock failed");
                }
                migrated
            }
        };
        result.map_err(|e| e.to_string())
    }

    /// Runs `work` with a pooled connection on the blocking thread pool, at most as many at once
    /// as the pool has connections; the others wait their turn as tasks (up to 5 s, then
    /// [`DbError::Busy`]).
    pub async fn run<T, E, F>(&self, work: F) -> Result<T, E>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
    {
        let permit = match tokio::time::timeout(WAIT_FOR_CONNECTION, self.running.clone().acquire_owned()).await {
            Ok(Ok(permit)) => permit,
            // The semaphore is never closed; a timeout is a pool busy for 5 s.
            Ok(Err(_)) | Err(_) => return Err(E::from(DbError::Busy(WAIT_FOR_CONNECTION))),
        };
        let pool = self.pool.clone();
        let joined = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let mut connection = pool.get().map_err(|e| E::from(DbError::Pool(e)))?;
            work(&mut connection)
        })
        .await;
        joined.unwrap_or_else(|error| Err(E::from(DbError::Task(error.to_string()))))
    }

    /// The pool's connections now (the metrics).
    pub fn pool_use(&self) -> PoolUse {
        let state = self.pool.state();
        PoolUse { connections: state.connections, idle: state.idle_connections, max: self.pool.max_size() }
    }

    /// A pooled connection for blocking code (start-up checks, tests, benchmarks).
    pub fn connection(&self) -> Result<PooledDb, DbError> {
        Ok(self.pool.get()?)
    }
}

/// Now by the database's clock, in UTC with microseconds. Several instances on one PostgreSQL
/// agree on it even when their own clocks drift apart, which the outbox workers' shared pace,
/// leases and retries rely on. A SQLite database belongs to one machine, whose system clock it is.
/// It is not the settings' [`Clock`](crate::clock::Clock) a test sets: those waits are slept in
/// real time, and a test cannot move PostgreSQL's clock either (see docs/time.md).
pub fn database_clock(connection: &mut DbConnection) -> QueryResult<time::PrimitiveDateTime> {
    match connection {
        DbConnection::Postgres(pg) => {
            diesel::select(diesel::dsl::sql::<diesel::sql_types::Timestamp>("clock_timestamp() AT TIME ZONE 'UTC'"))
                .get_result(pg)
        }
        DbConnection::Sqlite(_) => Ok(crate::clock::Clock::system().utc()),
    }
}

/// Makes transactions that name the same `key` wait for each other, until the end of the caller's
/// transaction (a PostgreSQL advisory lock on the key's hash; taken again freely within one
/// transaction). Nothing on SQLite, whose write transactions run one at a time anyway.
pub fn lock_until_commit(connection: &mut DbConnection, key: &str) -> QueryResult<()> {
    if let DbConnection::Postgres(pg) = connection {
        diesel::sql_query("SELECT pg_advisory_xact_lock(hashtext($1))")
            .bind::<diesel::sql_types::Text, _>(key)
            .execute(pg)?;
    }
    Ok(())
}

/// Runs `work` in a transaction that holds the write lock from its start. On SQLite a deferred
/// transaction that reads and then writes can fail at once with SQLITE_BUSY when another writer got
/// in between, without waiting for the busy timeout; `BEGIN IMMEDIATE` waits instead.
pub fn write_transaction<T, E>(
    connection: &mut DbConnection,
    work: impl FnOnce(&mut DbConnection) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    match connection {
        DbConnection::Postgres(_) => connection.transaction(work),
        DbConnection::Sqlite(_) => {
            begin_immediate(connection)?;
            let mut guard = Rollback { connection, done: false };
            let result = work(guard.connection);
            if result.is_ok() {
                guard.connection.batch_execute("COMMIT")?;
                guard.done = true;
            }
            result
        }
    }
}

/// `BEGIN IMMEDIATE`: SQLite's write lock, tried again every few hundred microseconds (at most
/// 2 ms apart) while another connection holds it, for up to [`BUSY_TIMEOUT_MS`]. SQLite's own busy
/// handler sleeps longer at each try (1, 2, 5, 10 … 100 ms): with four orders placed at once, a
/// waiting transaction slept up to 0.7 s while the others took the lock in turn, and the file sat
/// idle whenever every waiter slept (the scale bench's slow-query warnings).
fn begin_immediate(connection: &mut DbConnection) -> QueryResult<()> {
    connection.batch_execute("PRAGMA busy_timeout = 0")?;
    let started = std::time::Instant::now();
    let mut pause = Duration::from_micros(100);
    let begun = loop {
        match connection.batch_execute("BEGIN IMMEDIATE") {
            Err(diesel::result::Error::DatabaseError(_, info))
                if info.message() == "database is locked"
                    && started.elapsed() < Duration::from_millis(BUSY_TIMEOUT_MS) =>
            {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(2));
            }
            other => break other,
        }
    };
    let waited = started.elapsed();
    if waited >= timing::SLOW {
        let micros = u64::try_from(waited.as_micros()).unwrap_or(u64::MAX);
        tracing::warn!(target: "laundry::db::slow", micros, "a write transaction waited for its turn");
    }
    let restored = connection.batch_execute(&format!("PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}"));
    match (begun, restored) {
        (Ok(()), Err(error)) => {
            let _ = connection.batch_execute("ROLLBACK");
            Err(error)
        }
        (begun, _) => begun,
    }
}

/// A new row's key: a UUID whose first bits are the time (version 7), so that the rows written
/// now sit together at the end of every index on the key, and on keys that point to it (an
/// order's lines, stops, ledger and messages). Random keys (version 4) put each insert on a page
/// of its own: at 100,000 orders a year, placing an order wrote a dozen more pages than at 1,000.
/// Not a secret: a key anyone could guess must not grant anything (photos and links use random
/// tokens of their own).
pub fn new_key() -> String {
    uuid::Uuid::now_v7().to_string()
}

/// Rolls back an open SQLite transaction unless it was committed (also when `work` panicked).
struct Rollback<'a> {
    connection: &'a mut DbConnection,
    done: bool,
}

impl Drop for Rollback<'_> {
    fn drop(&mut self) {
        if !self.done {
            let _ = self.connection.batch_execute("ROLLBACK");
        }
    }
}

/// `INSERT … ON CONFLICT DO NOTHING` on either backend (diesel offers it on each backend's
/// connection, not on the enum over them): the rows written, 0 when a unique key was taken. A
/// plain insert would not do: on PostgreSQL a unique violation aborts the whole transaction.
macro_rules! insert_or_ignore {
    ($connection:expr, $table:expr, $values:expr) => {
        match $connection {
            $crate::db::DbConnection::Postgres(pg) => {
                diesel::insert_into($table).values($values).on_conflict_do_nothing().execute(pg)
            }
            $crate::db::DbConnection::Sqlite(sqlite) => {
                diesel::insert_into($table).values($values).on_conflict_do_nothing().execute(sqlite)
            }
        }
    };
}
pub(crate) use insert_or_ignore;

/// The URL without its password, for messages and logs.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            let credentials = &url[scheme_end + 3..at];
            match credentials.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme_end + 3], &url[at..]),
                None => url.to_owned(),
            }
        }
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_removed_from_urls_in_messages() {
        assert_eq!(redact("postgres://app:secret@db:5432/laundry"), "postgres://app:***@db:5432/laundry");
        assert_eq!(redact("postgres://db/laundry"), "postgres://db/laundry");
        assert_eq!(redact("sqlite://data/laundry.db"), "sqlite://data/laundry.db");
    }

    #[test]
    fn new_keys_sort_in_the_order_they_were_made() {
        let keys: Vec<String> = (0..2_000).map(|_| new_key()).collect();
        assert!(keys.windows(2).all(|pair| pair[0] < pair[1]), "keys made later sort after");
        assert!(keys.iter().all(|key| uuid::Uuid::parse_str(key).is_ok_and(|id| id.get_version_num() == 7)));
    }

    /// A write transaction waits its turn while another connection writes, and then writes.
    #[test]
    fn a_write_transaction_waits_for_another_and_then_writes() {
        let dir = tempfile::tempdir().unwrap();
        let database = Database::open(&format!("sqlite://{}/turns.db", dir.path().display()), 2).unwrap();
        let mut first = database.connection().unwrap();
        first.batch_execute("CREATE TABLE turns (who TEXT NOT NULL)").unwrap();
        let (started, go) = std::sync::mpsc::channel();
        let writer = {
            let database = database.clone();
            std::thread::spawn(move || {
                let mut second = database.connection().unwrap();
                go.recv().unwrap();
                write_transaction(&mut second, |c| c.batch_execute("INSERT INTO turns VALUES ('second')"))?;
                // The busy timeout is back for the statements outside write transactions.
                let timeout: Vec<Timeout> = diesel::sql_query("PRAGMA busy_timeout").load(&mut second)?;
                Ok::<_, diesel::result::Error>(timeout[0].timeout)
            })
        };
        write_transaction(&mut first, |c| {
            c.batch_execute("INSERT INTO turns VALUES ('first')")?;
            started.send(()).unwrap();
            // The second tries (and waits) while this one holds the lock.
            std::thread::sleep(Duration::from_millis(150));
            Ok::<_, diesel::result::Error>(())
        })
        .unwrap();
        assert_eq!(writer.join().unwrap().unwrap(), BUSY_TIMEOUT_MS as i64, "the waiting connection's timeout");
        let turns: Vec<String> = diesel::sql_query("SELECT who FROM turns")
            .load::<Turn>(&mut first)
            .unwrap()
            .into_iter()
            .map(|t| t.who)
            .collect();
        assert_eq!(turns, ["first", "second"]);
    }

    #[derive(QueryableByName)]
    struct Turn {
        #[diesel(sql_type = diesel::sql_types::Text)]
        who: String,
    }

    #[derive(QueryableByName)]
    struct Timeout {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        timeout: i64,
    }

    #[test]
    fn an_unknown_scheme_is_refused_with_the_url() {
        let error = Database::open("mysql://localhost/laundry", 1).unwrap_err().to_string();
        assert!(error.contains("sqlite:// or postgres://"), "{error}");
    }
}
