//! The one way the tests start a server: `TestApp::builder()…start().await`.

use super::database::{TestDatabase, new_database, postgres_url};
use super::{Backend, quick_retries};
use actix_web::web;
use laundry::clock::{Clock, NAIROBI};
use laundry::config::Settings;
use laundry::outbox::RetryPolicy;
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
    /// The accounts a demo shop made (empty unless built with `.demo()`).
    pub demo_accounts: Vec<laundry::demo::seed::Account>,
    database: TestDatabase,
}

/// What a test may vary about the server it starts; everything else is the tests' default (see
/// `launch`). Made by [`TestApp::builder`].
#[must_use = "an app starts with .start().await"]
pub struct AppBuilder {
    database: Place,
    env: Vec<(&'static str, String)>,
    retries: Option<RetryPolicy>,
    clock: Option<Clock>,
    frontend: Option<PathBuf>,
    render_timeout_ms: u64,
    modes: Modes,
}

/// What the server does besides answering: the demo's shop, the scheduler's look for late stops.
#[derive(Debug, Clone, Copy, Default)]
struct Modes {
    demo: bool,
    marks_late_stops: bool,
}

/// Where the app's database comes from.
enum Place {
    /// A fresh, migrated one on this backend.
    Fresh(Backend),
    /// One made elsewhere (a restored backup, an older release's schema, a sibling's).
    At(String),
}

impl TestApp {
    /// A server on a fresh SQLite database, the built frontend, the shared renderer, the default
    /// retry policy and a running clock from the start of today in Nairobi; each method changes one
    /// of these.
    pub fn builder() -> AppBuilder {
        AppBuilder {
            database: Place::Fresh(Backend::Sqlite),
            env: Vec::new(),
            retries: None,
            clock: None,
            frontend: None,
            render_timeout_ms: SHARED_RENDER_TIMEOUT_MS,
            modes: Modes::default(),
        }
    }

    /// A second instance on this app's database (as behind a load balancer), on its clock.
    pub fn sibling(&self) -> AppBuilder {
        TestApp::builder().database_url(self.database.url()).clock(self.clock.clone())
    }
}

impl AppBuilder {
    /// A fresh database on `backend`. PostgreSQL needs `TEST_DATABASE_URL` (the backend macros
    /// skip a test without it).
    pub fn on(mut self, backend: Backend) -> Self {
        self.database = Place::Fresh(backend);
        self
    }

    /// The database at `url`, made elsewhere (a restored backup, an older release's schema).
    pub fn database_url(mut self, url: String) -> Self {
        self.database = Place::At(url);
        self
    }

    /// More environment, as the server reads it at start (a later value of a name wins).
    pub fn env(mut self, env: &[(&'static str, String)]) -> Self {
        self.env.extend_from_slice(env);
        self
    }

    /// One more environment variable.
    pub fn set(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.env.push((name, value.into()));
        self
    }

    /// The outbox's retry policy (`quick_retries()` for tests that watch retries).
    pub fn retries(mut self, retries: RetryPolicy) -> Self {
        self.retries = Some(retries);
        self
    }

    /// The clock the server and its scheduled jobs go by (the test moves it: `clock.set(…)`).
    pub fn clock(mut self, clock: Clock) -> Self {
        self.clock = Some(clock);
        self
    }

    /// Another frontend folder (a failing or slow bundle): the app gets a renderer of its own.
    pub fn frontend(mut self, dir: &Path) -> Self {
        self.frontend = Some(dir.to_owned());
        self
    }

    /// Another render time limit: the app gets a renderer of its own.
    pub fn render_timeout_ms(mut self, milliseconds: u64) -> Self {
        self.render_timeout_ms = milliseconds;
        self
    }

    /// Demo mode (`laundry serve --demo`): the demo's shop and its stand-in providers, quick
    /// retries unless the test gave a policy; the accounts are `TestApp::demo_accounts`.
    pub fn demo(mut self) -> Self {
        self.modes.demo = true;
        self.retries = self.retries.or(Some(quick_retries()));
        self
    }

    /// The scheduler looks for late stops as a production server's does (off otherwise: moving a
    /// test's clock past a window then changes nothing the test did not ask for).
    pub fn marking_late_stops(mut self) -> Self {
        self.modes.marks_late_stops = true;
        self
    }

    /// Starts the server and answers when it listens.
    pub async fn start(self) -> TestApp {
        let database = match self.database {
            Place::Fresh(Backend::Postgres) if postgres_url().is_none() => {
                panic!("this test asks for PostgreSQL: set TEST_DATABASE_URL (the backend macros skip it when unset)")
            }
            Place::Fresh(backend) => new_database(backend).expect("a test database"),
            Place::At(url) => TestDatabase::Shared(url),
        };
        let frontend = self.frontend.unwrap_or_else(built_frontend);
        let clock = self.clock.unwrap_or_else(quiet_clock);
        launch(&frontend, self.render_timeout_ms, database, &self.env, self.retries, clock, self.modes).await
    }
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
        self.database.url()
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

    /// Sends what the outbox holds due now, e-mail then texts, as the server's workers do in a
    /// round (beside them: a row is claimed by one or the other); how many were sent or tried.
    /// For a test that would otherwise wait for the running workers.
    pub async fn deliver_outbox(&self) -> usize {
        let mail = laundry::startup::mail_worker(&self.state).send_all_due().await.unwrap();
        mail + laundry::startup::sms_worker(&self.state).send_all_due().await.unwrap()
    }

    /// Sends the M-PESA prompts due now, as the prompt worker does in a round; how many.
    pub async fn send_prompts(&self) -> usize {
        laundry::startup::prompt_worker(&self.state).send_all_due().await.unwrap()
    }

    /// Each scheduled job looks for due work once (the 5:30pm texts, the payment queries, the
    /// retention, the backups), as the scheduler does every poll.
    pub async fn run_jobs(&self) {
        laundry::startup::scheduler(&self.state).run_each_once().await;
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

/// The render time limit of the engines the apps share, in milliseconds: five seconds, not the
/// server's one, because eight tests at once on two cores can slow a render past a second (a
/// render cut off sends the shell without the page, and a test reading the page then fails). The
/// tests of the time limit set their own (`.render_timeout_ms(50)`), with engines of their own.
const SHARED_RENDER_TIMEOUT_MS: u64 = 5000;

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

/// Starts the real server as the tests run it: on a free port of loopback, two workers, its own
/// photo folder, limits far above what one test's requests reach, the jobs polling every 50 ms,
/// the late stops' look off, pages rendered when asked.
async fn launch(
    frontend_dir: &Path,
    render_timeout_ms: u64,
    database: TestDatabase,
    env: &[(&'static str, String)],
    retries: Option<laundry::outbox::RetryPolicy>,
    clock: Clock,
    modes: Modes,
) -> TestApp {
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
        other => env.iter().rfind(|(name, _)| *name == other).map(|(_, value)| value.clone()).or_else(|| {
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
        marks_late_stops: modes.marks_late_stops,
        render_program: Some(env!("CARGO_BIN_EXE_laundry").into()),
        compress_pages_at_once: false,
        // Public pages are rendered when a test asks for one.
        warm_pages: false,
        demo: modes.demo,
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
    TestApp { address, client, state, clock, photos, demo_accounts: accounts, database }
}
