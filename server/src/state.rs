//! The one state every handler shares.

use crate::clock::Clock;
use crate::config::Settings;
use crate::db::Database;
use crate::metrics::Metrics;
use crate::mpesa::client::Daraja;
use crate::notify::NotifyCustomer;
use crate::notify::texts::Texts;
use crate::outbox::http_client;
use crate::password::PasswordChecks;
use crate::rate_limit::RateLimiter;
use crate::rendering::Pages;
use std::sync::Arc;
use std::time::Duration;
use time::PrimitiveDateTime;
use tokio::sync::Notify;

/// Shared by all workers behind `web::Data`.
#[derive(Debug)]
pub struct AppState {
    settings: Settings,
    pages: Pages,
    database: Database,
    tracking_limit: RateLimiter,
    confirmation_limit: RateLimiter,
    submission_limit: RateLimiter,
    mail_wake: Arc<Notify>,
    sms_wake: Arc<Notify>,
    prompt_wake: Arc<Notify>,
    daraja: Arc<Daraja>,
    texts: Texts,
    password_checks: PasswordChecks,
    metrics: Arc<Metrics>,
    photos: crate::photos::Photos,
}

impl AppState {
    /// State from loaded settings, the page renderer, the database and the metrics they count into.
    pub fn new(settings: Settings, pages: Pages, database: Database, metrics: Arc<Metrics>) -> Self {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let clients = settings.limit_clients;
        let submission_limit = RateLimiter::new(settings.submissions_per_hour, Duration::from_secs(3600), clients);
        let tracking_limit = RateLimiter::tracking(settings.tracking_per_10_minutes, clients);
        Self {
            submission_limit,
            texts: Texts::new(&settings),
            daraja: Arc::new(Daraja::new(settings.mpesa.clone(), http_client(), settings.clock.clone())),
            prompt_wake: Arc::new(Notify::new()),
            photos: crate::photos::Photos::in_folder(settings.photos_dir.clone(), settings.upload_idle),
            settings,
            pages,
            database,
            tracking_limit,
            confirmation_limit: RateLimiter::confirmations(clients),
            mail_wake: Arc::new(Notify::new()),
            sms_wake: Arc::new(Notify::new()),
            password_checks: PasswordChecks::start(cores),
            metrics,
        }
    }

    /// What the server counts for `/metrics`.
    pub fn metrics(&self) -> &Arc<Metrics> {
        &self.metrics
    }

    /// Password checks (argon2id, memory-hard): one thread per core with its memory reused, so
    /// that a burst of sign-ins queues instead of taking the machine's memory.
    pub fn password_checks(&self) -> &PasswordChecks {
        &self.password_checks
    }

    /// Garment photos: where they are kept and the gate that prepares them.
    pub fn photos(&self) -> &crate::photos::Photos {
        &self.photos
    }

    /// The database pool.
    pub fn db(&self) -> &Database {
        &self.database
    }

    /// The per-client limit on order look-ups.
    pub fn tracking_limit(&self) -> &RateLimiter {
        &self.tracking_limit
    }

    /// The per-client limit on looking orders up by `/confirmation?ref=`.
    pub fn confirmation_limit(&self) -> &RateLimiter {
        &self.confirmation_limit
    }

    /// The per-client limit on orders and contact messages stored (`LAUNDRY_SUBMISSIONS_PER_HOUR`).
    pub fn submission_limit(&self) -> &RateLimiter {
        &self.submission_limit
    }

    /// What this instance's e-mail worker waits on between rounds.
    pub fn mail_wake(&self) -> &Arc<Notify> {
        &self.mail_wake
    }

    /// What this instance's SMS worker waits on between rounds.
    pub fn sms_wake(&self) -> &Arc<Notify> {
        &self.sms_wake
    }

    /// Wakes this instance's outbox workers: call it after storing messages to send (each worker
    /// looks for its own channel's rows; one with nothing due goes back to waiting).
    pub fn wake_outbox(&self) {
        self.mail_wake.notify_one();
        self.sms_wake.notify_one();
    }

    /// What this instance's M-PESA prompt worker waits on.
    pub fn prompt_wake(&self) -> &Arc<Notify> {
        &self.prompt_wake
    }

    /// Wakes this instance's prompt worker: call it after writing an M-PESA prompt.
    pub fn wake_prompts(&self) {
        self.prompt_wake.notify_one();
    }

    /// Daraja (M-PESA), with its token cache.
    pub fn daraja(&self) -> &Arc<Daraja> {
        &self.daraja
    }

    /// Whether "Pay Now (M-PESA)" sends a prompt to the customer's phone.
    pub fn sends_prompts(&self) -> bool {
        self.settings.mpesa.sends_prompts()
    }

    /// The words of the texts, with this site's name and address.
    pub fn texts(&self) -> &Texts {
        &self.texts
    }

    /// How a change tells the customer: by text, and by e-mail when the status template is
    /// configured.
    pub fn notify_customer(&self) -> NotifyCustomer {
        NotifyCustomer::customer(&self.texts, self.settings.mail.status_template.is_some())
            .with_prompts(self.sends_prompts())
            .with_prompt_limits(self.settings.mpesa.prompt_limits)
    }

    /// The clock the server goes by (`settings.clock`): the system's, or the one a test set.
    pub fn clock(&self) -> &Clock {
        &self.settings.clock
    }

    /// Now by [`clock`](AppState::clock), as stored in `TIMESTAMP` columns (UTC).
    pub fn now(&self) -> PrimitiveDateTime {
        self.settings.clock.utc()
    }

    /// The configuration the server started with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Page rendering and its cache.
    pub fn pages(&self) -> &Pages {
        &self.pages
    }
}
