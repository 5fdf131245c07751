//! The tests' databases: a fresh one per app, a copy of a migrated template made once per run.

use std::path::{Path, PathBuf};

/// Which backend a test runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A fresh database for one test: a SQLite file in a temporary folder, or a new PostgreSQL
/// database on the server `TEST_DATABASE_URL` names, dropped at the end.
pub enum TestDatabase {
    Sqlite(tempfile::TempDir),
    Postgres {
        admin_url: String,
        name: String,
    },
    /// Another app's database (that app drops it).
    Shared(String),
}

impl TestDatabase {
    pub(super) fn url(&self) -> String {
        match self {
            TestDatabase::Sqlite(dir) => format!("sqlite://{}/laundry.db", dir.path().display()),
            TestDatabase::Postgres { admin_url, name } => with_database(admin_url, name),
            TestDatabase::Shared(url) => url.clone(),
        }
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        if let TestDatabase::Postgres { admin_url, name } = self {
            use diesel::{Connection, RunQueryDsl};
            if let Ok(mut admin) = diesel::PgConnection::establish(admin_url) {
                let _ = diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut admin);
            }
        }
    }
}

/// `url` with its database name replaced by `name`.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = url.split_once('?').map_or((url, None), |(b, q)| (b, Some(q)));
    let server = base.rsplit_once('/').map_or(base, |(server, _)| server);
    match query {
        Some(query) => format!("{server}/{name}?{query}"),
        None => format!("{server}/{name}"),
    }
}

/// The PostgreSQL server for tests, from `TEST_DATABASE_URL`. Unset: the PostgreSQL variants of
/// the tests are skipped (CI sets it). Set but unreachable: the test fails.
pub fn postgres_url() -> Option<String> {
    std::env::var("TEST_DATABASE_URL").ok().filter(|url| !url.trim().is_empty())
}

/// A fresh, migrated database: a copy of the migrated template of this version of the
/// migrations (made once, then a copy costs milliseconds, not a run of every migration).
pub(super) fn new_database(backend: Backend) -> Option<TestDatabase> {
    match backend {
        Backend::Sqlite => {
            let dir = tempfile::tempdir().unwrap();
            std::fs::copy(sqlite_template(), dir.path().join("laundry.db")).unwrap();
            Some(TestDatabase::Sqlite(dir))
        }
        Backend::Postgres => {
            let admin_url = postgres_url()?;
            let template = postgres_template(&admin_url);
            Some(create_postgres(admin_url, &format!("TEMPLATE {template}")))
        }
    }
}

/// A new PostgreSQL database on the server at `admin_url`, created with `options`.
fn create_postgres(admin_url: String, options: &str) -> TestDatabase {
    use diesel::{Connection, RunQueryDsl};
    let mut admin = diesel::PgConnection::establish(&admin_url)
        .unwrap_or_else(|e| panic!("TEST_DATABASE_URL is set but PostgreSQL is unreachable: {e}"));
    let name = format!("laundry_test_{}", uuid::Uuid::new_v4().simple());
    diesel::sql_query(format!("CREATE DATABASE {name} {options}")).execute(&mut admin).unwrap();
    TestDatabase::Postgres { admin_url, name }
}

/// A fingerprint of the migrations of `folder` (`sqlite` or `postgres`): the templates of another
/// version of them are not used.
fn migrations_fingerprint(folder: &str) -> String {
    use std::hash::{Hash, Hasher};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations").join(folder);
    let mut files: Vec<PathBuf> = walk(&dir);
    files.sort();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for file in files {
        file.strip_prefix(&dir).unwrap().hash(&mut hasher);
        std::fs::read(&file).unwrap().hash(&mut hasher);
    }
    format!("{:016x}", hasher.finish())
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .flat_map(|path| if path.is_dir() { walk(&path) } else { vec![path] })
        .collect()
}

/// The migrated SQLite file the tests' databases are copies of: made by the first test that needs
/// it in this run, in the system's temporary folder, named by the migrations' fingerprint.
fn sqlite_template() -> &'static Path {
    static TEMPLATE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    TEMPLATE.get_or_init(|| {
        let name = format!("laundry-test-template-{}.db", migrations_fingerprint("sqlite"));
        let template = std::env::temp_dir().join(name);
        if !template.exists() {
            // Made aside and renamed into place: another test process never copies half a file.
            let building = tempfile::tempdir().unwrap();
            let file = building.path().join("laundry.db");
            // Closing the last connection folds the write-ahead log into the file.
            drop(laundry::db::Database::open(&format!("sqlite://{}", file.display()), 1).unwrap());
            std::fs::rename(&file, &template).unwrap();
        }
        template
    })
}

/// The migrated PostgreSQL database the tests' databases are made from (`CREATE DATABASE …
/// TEMPLATE`): made once per version of the migrations on the test server and kept there.
fn postgres_template(admin_url: &str) -> &'static str {
    static TEMPLATE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEMPLATE.get_or_init(|| {
        use diesel::{Connection, RunQueryDsl};
        let template = format!("laundry_template_{}", migrations_fingerprint("postgres"));
        let mut admin = diesel::PgConnection::establish(admin_url)
            .unwrap_or_else(|e| panic!("TEST_DATABASE_URL is set but PostgreSQL is unreachable: {e}"));
        if has_database(&mut admin, &template) {
            return template;
        }
        // Migrated under another name, then renamed: no test copies a template half made. (If
        // another test process renamed its own first, this one is dropped with `building`.)
        let building = create_postgres(admin_url.to_owned(), "");
        drop(laundry::db::Database::open(&building.url(), 1).unwrap());
        let TestDatabase::Postgres { name, .. } = &building else { unreachable!("made on PostgreSQL") };
        // The migrating connection's server process may take a moment to end after it closed.
        for _ in 0..100 {
            let renamed = diesel::sql_query(format!("ALTER DATABASE {name} RENAME TO {template}")).execute(&mut admin);
            if renamed.is_ok() || has_database(&mut admin, &template) {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(has_database(&mut admin, &template), "the template database {template} could not be made");
        template
    })
}

fn has_database(admin: &mut diesel::PgConnection, name: &str) -> bool {
    use diesel::RunQueryDsl;
    #[derive(diesel::QueryableByName)]
    struct Found {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        count: i64,
    }
    let found: Found = diesel::sql_query("SELECT count(*) AS count FROM pg_database WHERE datname = $1")
        .bind::<diesel::sql_types::Text, _>(name)
        .get_result(admin)
        .unwrap();
    found.count > 0
}

/// A new, empty PostgreSQL database (dropped with the value) and its URL; `None` when PostgreSQL
/// is not configured for tests.
pub fn empty_postgres() -> Option<(TestDatabase, String)> {
    let database = create_postgres(postgres_url()?, "");
    let url = database.url();
    Some((database, url))
}

/// Runs the migrations of `folder` (`sqlite` or `postgres`) whose versions come before `version`
/// (like `20261130000001`), as an older release would have: the schema a test fills with that
/// release's rows before this binary migrates it. Returns how many ran.
pub fn migrate_before<B, C>(connection: &mut C, folder: &str, version: &str) -> usize
where
    B: diesel::backend::Backend,
    C: diesel_migrations::MigrationHarness<B>,
    diesel_migrations::FileBasedMigrations: diesel::migration::MigrationSource<B>,
{
    use diesel::migration::MigrationSource;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations").join(folder);
    let source = diesel_migrations::FileBasedMigrations::from_path(dir).unwrap();
    let mut before: Vec<_> = source
        .migrations()
        .unwrap()
        .into_iter()
        .filter(|m| m.name().version().to_string().as_str() < version)
        .collect();
    before.sort_by_key(|m| m.name().version().to_string());
    connection.applied_migrations().unwrap(); // creates diesel's table of applied migrations
    for migration in &before {
        connection.run_migration(&**migration).unwrap();
    }
    before.len()
}
