//! `spawn_app()` and request helpers shared by the integration tests.

use actix_web::web;
use laundry::clock::{Clock, NAIROBI};
use laundry::config::Settings;
use laundry::startup::Application;
use laundry::state::AppState;
use std::path::{Path, PathBuf};

/// A running server and a client for it. Its database lives as long as it does.
pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub state: web::Data<AppState>,
    /// The clock the server goes by (shared with its siblings): unless the test gave one, running
    /// from the start of today in Nairobi, so that no 5:30pm text is written unasked. The test
    /// moves it with `clock.set(…)`; `now()` and `today()` read it.
    pub clock: Clock,
    /// Where this server keeps garment photos (a folder of its own, removed with the app).
    pub photos: tempfile::TempDir,
    _database: TestDatabase,
}

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
    fn url(&self) -> String {
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
fn new_database(backend: Backend) -> Option<TestDatabase> {
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

impl TestApp {
    /// GET `path`, asking for no compression so bodies read as text.
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(format!("{}{path}", self.address)).send().await.unwrap()
    }

    /// GET `path` with extra headers.
    pub async fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> reqwest::Response {
        let mut request = self.client.get(format!("{}{path}", self.address));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.send().await.unwrap()
    }

    /// POST `body` as JSON to `path`, with optional extra headers.
    pub async fn post_json(&self, path: &str, body: &serde_json::Value, headers: &[(&str, &str)]) -> reqwest::Response {
        let mut request = self.client.post(format!("{}{path}", self.address)).json(body);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.send().await.unwrap()
    }

    /// POST a urlencoded form to `path`, as a browser without JavaScript does.
    pub async fn post_form(&self, path: &str, fields: &[(&str, &str)]) -> reqwest::Response {
        let body = serde_urlencoded::to_string(fields).unwrap();
        self.client
            .post(format!("{}{path}", self.address))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
            .await
            .unwrap()
    }

    /// Looks an order up by its order ID as the tracking page does (`POST /api/tracking`).
    pub async fn track(&self, order_id: &str) -> reqwest::Response {
        self.post_json("/api/tracking", &serde_json::json!({ "by": "order", "q": order_id }), &[]).await
    }

    /// The URL of the app's database.
    pub fn database_url(&self) -> String {
        self._database.url()
    }

    /// Runs a query on the app's database.
    pub fn with_db<T>(&self, query: impl FnOnce(&mut laundry::db::DbConnection) -> T) -> T {
        let mut connection = self.state.db().connection().unwrap();
        query(&mut connection)
    }

    /// Renders this server asked for so far (done or failed).
    pub fn renders(&self) -> u64 {
        self.state.pages().renders_asked()
    }

    /// Now by the app's clock, as the server stamps rows (UTC).
    pub fn now(&self) -> time::PrimitiveDateTime {
        self.clock.utc()
    }

    /// Now by the database's clock, which the outbox workers go by (their leases, pace and
    /// retries): not the app's clock, which tests move.
    pub fn database_now(&self) -> time::PrimitiveDateTime {
        self.with_db(|c| laundry::db::database_clock(c).unwrap())
    }

    /// Today in Nairobi by the app's clock.
    pub fn today(&self) -> time::Date {
        laundry::domain::schedule::nairobi_day(self.clock.now())
    }
}

/// The frontend built by `make build` (frontend/dist).
pub fn built_frontend() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../frontend/dist");
    assert!(dir.join("manifest.json").exists(), "build the frontend first: make build (looked in {})", dir.display());
    dir
}

/// Starts the real server on a free port with the built frontend and a fresh SQLite database.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(&built_frontend(), 1000).await
}

/// Starts the real server on `backend`; `None` when PostgreSQL is not configured for tests.
pub async fn spawn_app_on(backend: Backend) -> Option<TestApp> {
    let database = new_database(backend)?;
    Some(start(&built_frontend(), 1000, database, &[], None).await)
}

/// Retries fast enough for a test: 200 ms doubling to 1 s, three attempts, blocked 60 s.
pub fn quick_retries() -> laundry::outbox::RetryPolicy {
    laundry::outbox::RetryPolicy {
        base: std::time::Duration::from_millis(200),
        cap: std::time::Duration::from_secs(1),
        max_attempts: 3,
        blocked: std::time::Duration::from_secs(60),
        poll: std::time::Duration::from_millis(100),
        request_timeout: std::time::Duration::from_secs(2),
    }
}

/// The mail configuration of the tests, pointing at `api` (a mock); `status` adds the status template.
pub fn mail_env(api: &str, status: bool) -> Vec<(&'static str, String)> {
    let mut env = vec![
        ("EMAILJS_BASE_URL", api.to_owned()),
        ("EMAILJS_SERVICE_ID", "service_test".to_owned()),
        ("EMAILJS_PUBLIC_KEY", "public_test".to_owned()),
        ("EMAILJS_PRIVATE_KEY", "private_test_secret".to_owned()),
        ("EMAILJS_ORDER_TEMPLATE_ID", "template_order".to_owned()),
        ("EMAILJS_CONTACT_TEMPLATE_ID", "template_contact".to_owned()),
        ("ADMIN_NOTIFY_EMAIL", "staff-inbox@example.com".to_owned()),
    ];
    if status {
        env.push(("EMAILJS_STATUS_TEMPLATE_ID", "template_status".to_owned()));
    }
    env
}

/// The secret of the SMS callbacks in the tests: `/hooks/sms/incoming/{SMS_HOOK_SECRET}`.
pub const SMS_HOOK_SECRET: &str = "test-hook-secret-0123456789abcdef";

/// The SMS configuration of the tests, pointing at `api` (a mock Africa's Talking), with the
/// short code 22384, the letter P and [`SMS_HOOK_SECRET`].
pub fn sms_env(api: &str) -> Vec<(&'static str, String)> {
    vec![
        ("AT_BASE_URL", api.to_owned()),
        ("AT_USERNAME", "laundry_test".to_owned()),
        ("AT_API_KEY", "atsk_test_secret".to_owned()),
        ("AT_SENDER_ID", "USAFI".to_owned()),
        ("AT_SHORTCODE", "22384".to_owned()),
        ("LAUNDRY_SMS_HOOK_SECRET", SMS_HOOK_SECRET.to_owned()),
    ]
}

/// The secret of the M-PESA callbacks in the tests: `/hooks/payments/prompt/{MPESA_HOOK_SECRET}`.
pub const MPESA_HOOK_SECRET: &str = "test-payments-secret-0123456789abcdef";

/// The environment that points M-PESA at a mock Daraja at `api` (short code 174379, till 3552248).
pub fn mpesa_env(api: &str) -> Vec<(&'static str, String)> {
    vec![
        ("MPESA_BASE_URL", api.to_owned()),
        ("MPESA_CONSUMER_KEY", crate::mpesa_mock::CONSUMER_KEY.to_owned()),
        ("MPESA_CONSUMER_SECRET", crate::mpesa_mock::CONSUMER_SECRET.to_owned()),
        ("MPESA_SHORTCODE", "174379".to_owned()),
        ("MPESA_TILL", "3552248".to_owned()),
        ("MPESA_PASSKEY", "test-passkey-bfb279f9aa9bdbcf".to_owned()),
        ("MPESA_CALLBACK_BASE_URL", "https://laundry.example.com".to_owned()),
        ("MPESA_CALLBACK_SECRET", MPESA_HOOK_SECRET.to_owned()),
    ]
}

/// Starts the real server on `backend` with extra environment and a retry policy.
pub async fn spawn_app_with_env(
    backend: Backend,
    env: &[(&'static str, String)],
    retries: laundry::outbox::RetryPolicy,
) -> Option<TestApp> {
    let database = new_database(backend)?;
    Some(start(&built_frontend(), 1000, database, env, Some(retries)).await)
}

/// Starts the real server on `backend` with extra environment, a retry policy and the clock its
/// scheduled jobs go by (the test moves it: `clock.set(…)`).
pub async fn spawn_app_at(
    backend: Backend,
    env: &[(&'static str, String)],
    retries: laundry::outbox::RetryPolicy,
    clock: Clock,
) -> Option<TestApp> {
    let database = new_database(backend)?;
    Some(start_at(&built_frontend(), 1000, database, env, Some(retries), clock).await)
}

/// The real server on the database at `url`, made elsewhere (a restored backup), with extra
/// environment.
pub async fn spawn_app_on_url(url: String, env: &[(&'static str, String)]) -> TestApp {
    start(&built_frontend(), 1000, TestDatabase::Shared(url), env, None).await
}

/// A second server instance on `app`'s database (as behind a load balancer), on `app`'s clock.
pub async fn spawn_sibling(
    app: &TestApp,
    env: &[(&'static str, String)],
    retries: laundry::outbox::RetryPolicy,
) -> TestApp {
    let database = TestDatabase::Shared(app._database.url());
    start_at(&built_frontend(), 1000, database, env, Some(retries), app.clock.clone()).await
}

/// The tests' default clock: from the start of today in Nairobi, running as time passes (so that
/// orders placed one after the other are stamped one after the other), far from any 5:30pm.
fn quiet_clock() -> Clock {
    let today = Clock::system().nairobi().date();
    Clock::running_from(today.midnight().assume_offset(NAIROBI))
}

/// A clock stopped at the start of today in Nairobi, for tests that compare times to the second:
/// everything the server stamps carries that moment until the test moves it.
pub fn stopped_clock() -> Clock {
    Clock::stopped_at(Clock::system().nairobi().date().midnight().assume_offset(NAIROBI))
}

/// Starts the real server with another frontend folder and render time limit.
pub async fn spawn_app_with(frontend_dir: &Path, render_timeout_ms: u64) -> TestApp {
    let database = new_database(Backend::Sqlite).unwrap();
    start(frontend_dir, render_timeout_ms, database, &[], None).await
}

async fn start(
    frontend_dir: &Path,
    render_timeout_ms: u64,
    database: TestDatabase,
    env: &[(&'static str, String)],
    retries: Option<laundry::outbox::RetryPolicy>,
) -> TestApp {
    start_at(frontend_dir, render_timeout_ms, database, env, retries, quiet_clock()).await
}

async fn start_at(
    frontend_dir: &Path,
    render_timeout_ms: u64,
    database: TestDatabase,
    env: &[(&'static str, String)],
    retries: Option<laundry::outbox::RetryPolicy>,
    clock: Clock,
) -> TestApp {
    launch(frontend_dir, render_timeout_ms, database, env, retries, clock, false).await.0
}

/// The render time limit of the engines the apps share, in milliseconds.
const SHARED_RENDER_TIMEOUT_MS: u64 = 1000;

/// The rendering engines every app of this test process shares, on the built frontend: started
/// once (two engines and a spare, some hundreds of milliseconds), not once per app, as the first
/// app's `settings` ask (the same for every app that shares them). Apps count their own renders
/// (`TestApp::renders`); the engines' counters are everyone's.
async fn shared_renderer(settings: &Settings) -> std::sync::Arc<ssr_runtime::Renderer> {
    static RENDERER: std::sync::OnceLock<std::sync::Arc<ssr_runtime::Renderer>> = std::sync::OnceLock::new();
    if let Some(renderer) = RENDERER.get() {
        return renderer.clone();
    }
    let config = laundry::startup::renderer_config(settings);
    let started = actix_web::rt::task::spawn_blocking(move || {
        RENDERER
            .get_or_init(|| {
                let frontend = laundry::frontend::Frontend::load(&built_frontend()).unwrap();
                std::sync::Arc::new(ssr_runtime::Renderer::start(frontend.server_bundle(), config).unwrap())
            })
            .clone()
    });
    started.await.unwrap()
}

/// Starts the real server in demo mode (`laundry serve --demo`) on a fresh SQLite database, with
/// quick retries; the accounts it made.
pub async fn spawn_demo() -> (TestApp, Vec<laundry::demo::seed::Account>) {
    let database = new_database(Backend::Sqlite).unwrap();
    launch(&built_frontend(), 1000, database, &[], Some(quick_retries()), quiet_clock(), true).await
}

async fn launch(
    frontend_dir: &Path,
    render_timeout_ms: u64,
    database: TestDatabase,
    env: &[(&'static str, String)],
    retries: Option<laundry::outbox::RetryPolicy>,
    clock: Clock,
    demo: bool,
) -> (TestApp, Vec<laundry::demo::seed::Account>) {
    // The built frontend with the usual time limit renders in the engines every app shares; the
    // tests of failing bundles and tight limits get engines of their own.
    let shares_renderer = frontend_dir == built_frontend() && render_timeout_ms == SHARED_RENDER_TIMEOUT_MS;
    let frontend = frontend_dir.display().to_string();
    let timeout = render_timeout_ms.to_string();
    let database_url = database.url();
    let photos = tempfile::tempdir().unwrap();
    let photos_dir = photos.path().display().to_string();
    let settings = Settings::from_lookup(|name| match name {
        "LAUNDRY_PHOTOS_DIR" if !env.iter().any(|(name, _)| *name == "LAUNDRY_PHOTOS_DIR") => Some(photos_dir.clone()),
        "LAUNDRY_ADDR" => Some("127.0.0.1:0".to_owned()),
        "LAUNDRY_FRONTEND_DIR" => Some(frontend.clone()),
        "LAUNDRY_WORKERS" => Some("2".to_owned()),
        "LAUNDRY_RENDER_TIMEOUT_MS" => Some(timeout.clone()),
        "DATABASE_URL" => Some(database_url.clone()),
        other => env.iter().find(|(name, _)| *name == other).map(|(_, value)| value.clone()).or_else(|| {
            // Every test's requests come from 127.0.0.1, and most tests' orders from a few phone
            // numbers; only the limits' own tests set them low.
            match other {
                "LAUNDRY_SUBMISSIONS_PER_HOUR" => Some("1000000".to_owned()),
                "LAUNDRY_PROMPTS_PER_PHONE_PER_HOUR" | "LAUNDRY_PROMPTS_PER_PHONE_PER_DAY" => Some("100".to_owned()),
                _ => None,
            }
        }),
    })
    .unwrap();
    let settings = laundry::config::Settings {
        outbox_retry: retries.unwrap_or_default(),
        clock: clock.clone(),
        job_poll: std::time::Duration::from_millis(50),
        // The late stops' look is run by the tests that test it (`late_stops.rs`).
        marks_late_stops: false,
        render_program: Some(env!("CARGO_BIN_EXE_laundry").into()),
        compress_pages_at_once: false,
        // Public pages are rendered when a test asks for one.
        warm_pages: false,
        demo,
        ..settings
    };
    let application = if shares_renderer {
        let renderer = shared_renderer(&settings).await;
        Application::build_sharing(settings, renderer).await.unwrap()
    } else {
        Application::build(settings).await.unwrap()
    };
    let accounts = application.demo_accounts().to_vec();
    let address = format!("http://127.0.0.1:{}", application.port());
    let state = application.state();
    actix_web::rt::spawn(application.run_until_stopped());
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    (TestApp { address, client, state, clock, photos, _database: database }, accounts)
}

/// Declares each test twice, on SQLite and on PostgreSQL (skipped when `TEST_DATABASE_URL` is unset).
#[macro_export]
macro_rules! on_both_backends {
    ($(async fn $name:ident($app:ident: TestApp) $body:block)*) => {
        mod sqlite {
            #[allow(unused_imports)]
            use super::*;
            $(
                #[actix_web::test]
                async fn $name() {
                    let $app = $crate::helpers::spawn_app_on($crate::helpers::Backend::Sqlite).await.unwrap();
                    $body
                }
            )*
        }
        mod postgres {
            #[allow(unused_imports)]
            use super::*;
            $(
                #[actix_web::test]
                async fn $name() {
                    let Some($app) = $crate::helpers::spawn_app_on($crate::helpers::Backend::Postgres).await else {
                        eprintln!("TEST_DATABASE_URL is not set: the PostgreSQL run of this test is skipped");
                        return;
                    };
                    $body
                }
            )*
        }
    };
}

/// Runs each named `async fn(Backend)` of the calling module on SQLite and on PostgreSQL (skipped,
/// saying so, when `TEST_DATABASE_URL` is unset): for tests that start their app themselves.
#[macro_export]
macro_rules! on_each_backend {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[actix_web::test]
                async fn $name() {
                    super::$name($crate::helpers::Backend::Sqlite).await
                }
            )*
        }
        mod postgres {
            $(
                #[actix_web::test]
                async fn $name() {
                    if $crate::helpers::postgres_url().is_none() {
                        eprintln!("TEST_DATABASE_URL is not set: the PostgreSQL run of this test is skipped");
                        return;
                    }
                    super::$name($crate::helpers::Backend::Postgres).await
                }
            )*
        }
    };
}

/// A signed-in staff member's cookie and CSRF token.
#[derive(Debug, Clone)]
pub struct SignedIn {
    /// `laundry_session=…`, for the Cookie header.
    pub cookie: String,
    /// The session's CSRF token.
    pub csrf: String,
}

/// The value of cookie `name` in the response's Set-Cookie headers.
pub fn set_cookie(response: &reqwest::Response, name: &str) -> Option<String> {
    response.headers().get_all("set-cookie").iter().filter_map(|value| value.to_str().ok()).find_map(|value| {
        value.strip_prefix(&format!("{name}=")).map(|rest| rest.split(';').next().unwrap_or("").to_owned())
    })
}

impl TestApp {
    /// Creates an owner's account directly in the database.
    pub fn create_staff(&self, email: &str, password: &str) {
        self.create_staff_as(email, password, laundry::domain::StaffRole::Owner);
    }

    /// Creates an account with `role` directly in the database.
    pub fn create_staff_as(&self, email: &str, password: &str, role: laundry::domain::StaffRole) {
        let hash = laundry::password::hash_password(password).unwrap();
        self.with_db(|c| laundry::models::staff::Staff::create(c, email, &hash, role, self.now()).unwrap());
    }

    /// Posts the login form as a browser does: first GET the form for its token cookie.
    pub async fn post_login(&self, email: &str, password: &str, extra_cookie: Option<&str>) -> reqwest::Response {
        self.post_login_with(email, password, extra_cookie, None).await
    }

    /// [`TestApp::post_login`] from the client address `forwarded_for` (as a proxy would say it;
    /// the app must run with `LAUNDRY_BEHIND_PROXY=true`).
    pub async fn post_login_from(&self, email: &str, password: &str, forwarded_for: &str) -> reqwest::Response {
        self.post_login_with(email, password, None, Some(forwarded_for)).await
    }

    async fn post_login_with(
        &self,
        email: &str,
        password: &str,
        extra_cookie: Option<&str>,
        forwarded_for: Option<&str>,
    ) -> reqwest::Response {
        let form = self.get("/admin/login").await;
        let token = set_cookie(&form, laundry::auth::LOGIN_CSRF_COOKIE).expect("the login form sets its token cookie");
        let mut cookie = format!("{}={token}", laundry::auth::LOGIN_CSRF_COOKIE);
        if let Some(extra) = extra_cookie {
            cookie = format!("{cookie}; {extra}");
        }
        let body = serde_urlencoded::to_string([("email", email), ("password", password), ("csrf", &token)]).unwrap();
        let mut request = self
            .client
            .post(format!("{}/admin/login", self.address))
            .header("content-type", "application/x-www-form-urlencoded")
            .header("cookie", cookie)
            .body(body);
        if let Some(address) = forwarded_for {
            request = request.header("x-forwarded-for", address);
        }
        request.send().await.unwrap()
    }

    /// Makes an account with `role` and signs it in. The CSRF token is read from the session's
    /// row: a valet's home is the valet page, whose props carry none.
    pub async fn sign_in_as(&self, email: &str, password: &str, role: laundry::domain::StaffRole) -> SignedIn {
        use diesel::prelude::*;
        use laundry::db::schema::staff_sessions;
        self.create_staff_as(email, password, role);
        let response = self.post_login(email, password, None).await;
        assert_eq!(response.status(), 303, "{role} signs in");
        let token = set_cookie(&response, laundry::auth::SESSION_COOKIE).expect("a session cookie");
        let csrf: String = self.with_db(|c| {
            staff_sessions::table
                .find(laundry::auth::token_hash(&token))
                .select(staff_sessions::csrf_token)
                .first(c)
                .unwrap()
        });
        SignedIn { cookie: format!("{}={token}", laundry::auth::SESSION_COOKIE), csrf }
    }

    /// Signs in (the account must exist) and reads the CSRF token from the dashboard's props.
    pub async fn sign_in(&self, email: &str, password: &str) -> SignedIn {
        let response = self.post_login(email, password, None).await;
        assert_eq!(response.status(), 303, "sign-in failed");
        let token = set_cookie(&response, laundry::auth::SESSION_COOKIE).expect("a session cookie");
        let cookie = format!("{}={token}", laundry::auth::SESSION_COOKIE);
        let page = self.get_with("/admin", &[("cookie", &cookie)]).await.text().await.unwrap();
        let csrf = page.split(r#""csrf":""#).nth(1).and_then(|rest| rest.split('"').next()).expect("csrf in the props");
        SignedIn { cookie, csrf: csrf.to_owned() }
    }

    /// A request with the session's cookie, and its CSRF header when `with_csrf`.
    pub fn staff_request(
        &self,
        method: reqwest::Method,
        path: &str,
        session: &SignedIn,
        with_csrf: bool,
    ) -> reqwest::RequestBuilder {
        let mut request =
            self.client.request(method, format!("{}{path}", self.address)).header("cookie", &session.cookie);
        if with_csrf {
            request = request.header(laundry::auth::CSRF_HEADER, &session.csrf);
        }
        request
    }
}

/// Posts a staff page's form as the page does (the session's cookie and its CSRF field), like the
/// valet's stop forms.
pub async fn valet_post(app: &TestApp, session: &SignedIn, path: &str, fields: &[(&str, &str)]) -> reqwest::Response {
    let mut form = vec![("csrf", session.csrf.as_str())];
    form.extend_from_slice(fields);
    app.client
        .post(format!("{}{path}", app.address))
        .header("cookie", &session.cookie)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(serde_urlencoded::to_string(&form).unwrap())
        .send()
        .await
        .unwrap()
}

/// Staff set `status` on the order with key `order_id`, as the dashboard's status change does
/// (a cancellation with a reason; the customer told when `notify` texts), with the default schedule.
pub fn set_status(
    connection: &mut laundry::db::DbConnection,
    order_id: &str,
    status: laundry::domain::OrderStatus,
    by: &str,
    notify: &laundry::notify::NotifyCustomer,
    now: time::PrimitiveDateTime,
) -> Result<laundry::lifecycle::Changed, laundry::lifecycle::LifeError> {
    let schedule = laundry::domain::schedule::Schedule::default();
    let context = laundry::lifecycle::Context { by, notify, schedule: &schedule, now };
    let reason = (status == laundry::domain::OrderStatus::Cancelled).then_some("Cancelled in a test");
    laundry::lifecycle::status::set_by_staff(connection, order_id, status, reason, notify.texts.is_some(), &context)
}

/// Orders `ids` (each its own key and order ID) of 3 kg wash & fold (KSh 450) from `phone`, paid
/// `payment_method`, written straight into the database without a ledger entry: for the property
/// tests that write the entries themselves.
pub fn bare_orders(connection: &mut laundry::db::DbConnection, ids: &[&str], phone: &str, payment_method: &str) {
    use diesel::connection::SimpleConnection;
    for id in ids {
        connection
            .batch_execute(&format!(
                "INSERT INTO orders (id, reference, customer_name, phone, location, service_type, service_label, \
                 quantity, payment_method, price_per_kg, total_amount, status, created_at, updated_at, \
                 estimate_amount) VALUES ('{id}', '{id}', 'Amina', '{phone}', 'Kilimani', 'wash-fold', \
                 'Wash & Fold', 3, '{payment_method}', 150, 450, 'pending', '2026-11-20 00:00:00', \
                 '2026-11-20 00:00:00', 450);"
            ))
            .unwrap();
    }
}

/// The ledger of the order with order ID `reference`: its sums and its entries, oldest first.
pub fn money(app: &TestApp, reference: &str) -> (laundry::domain::Balance, Vec<laundry::models::ledger::Entry>) {
    app.with_db(|c| {
        let reference = laundry::domain::OrderReference::parse(reference).unwrap();
        let order = laundry::models::order::Order::find_by_reference(c, &reference).unwrap().unwrap();
        let entries = laundry::models::ledger::Entry::of_order(c, &order.id).unwrap();
        (laundry::models::ledger::Entry::balance(c, &order.id).unwrap(), entries)
    })
}

/// Whether the order with order ID `reference` has nothing left to pay and received money (the
/// old "paid").
pub fn is_paid(app: &TestApp, reference: &str) -> bool {
    let (balance, _) = money(app, reference);
    balance.to_pay() == 0 && balance.received() > 0
}

/// The payments entered on the order with order ID `reference`, oldest first: how, KSh (a
/// correction negative) and the M-PESA code.
pub fn payments(app: &TestApp, reference: &str) -> Vec<(laundry::domain::Method, i32, Option<String>)> {
    let (_, entries) = money(app, reference);
    entries
        .into_iter()
        .filter(|entry| entry.kind == laundry::domain::EntryKind::Payment)
        .filter_map(|entry| Some((entry.method?, entry.amount, entry.reference)))
        .collect()
}
