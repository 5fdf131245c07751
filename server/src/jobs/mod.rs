//! Work in the background. Scheduled jobs: one [`Scheduler`] task per server instance wakes every
//! `job_poll` (30 s) and lets each [`Job`] do what is due by the [`Clock`] of the settings. A job
//! that must happen once for all instances claims its run in the database under a lease
//! (`models::job_run`), so that several instances on one PostgreSQL, and restarts, never do it
//! twice. The jobs: the 5:30pm texts ([`eta_texts`]), late stops ([`late_stops`]: a window that
//! passed with nothing recorded), the status queries of M-PESA prompts
//! ([`payment_queries`]) and, once a day, the retention of old messages ([`retention`]) and the
//! backup of a SQLite database ([`backups`]).
//!
//! The workers, woken as soon as this instance writes work for them: the outbox's, one per channel
//! ([`outbox_worker`]), and the M-PESA prompts' ([`prompt_worker`]). They live here rather than
//! beside their providers' clients, so that `outbox`, `mail`, `sms` and `mpesa` know no model.
//!
//! Adding a job: a type implementing [`Job`] in a module of its own, listed in [`Scheduler::new`].

pub mod backups;
pub mod eta_texts;
pub mod late_stops;
pub mod outbox_worker;
pub mod payment_queries;
pub mod prompt_worker;
pub mod retention;

use crate::clock::Clock;
use crate::db::Database;
use crate::domain::schedule::Schedule;
use crate::mpesa::client::Daraja;
use crate::notify::NotifyCustomer;
use crate::notify::texts::Texts;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

/// How long a claimed run stays with its instance; after that another one takes it over (the
/// holder crashed). Well beyond what a run's work takes.
pub const LEASE: Duration = Duration::from_secs(300);

/// What the jobs may use of the server (not its whole state: no pages, no HTTP).
#[derive(Debug, Clone)]
pub struct JobContext {
    /// The database pool.
    pub database: Database,
    /// The time the jobs go by.
    pub clock: Clock,
    /// The words of the texts.
    pub texts: Texts,
    /// Pickup windows and minutes per stop.
    pub schedule: Schedule,
    /// This instance's name in the runs' `lease_owner`.
    pub owner: String,
    /// What this instance's outbox workers (e-mail, SMS) wait on.
    pub outbox_wakes: Vec<Arc<Notify>>,
    /// Daraja, for the status queries of M-PESA prompts; `None` in tests of other jobs.
    pub daraja: Option<Arc<Daraja>>,
    /// How a payment found by a query tells the customer.
    pub notify: NotifyCustomer,
    /// Months the outbox keeps a message (`None`: every message, forever).
    pub keep_messages_months: Option<u32>,
    /// Whether the late stops' job runs (tests run its look themselves).
    pub marks_late_stops: bool,
    /// Where each job's runs are counted (`/metrics`).
    pub metrics: Arc<crate::metrics::Metrics>,
    /// The daily backup, on SQLite with a folder configured.
    pub backups: Option<backups::BackupPlan>,
}

impl JobContext {
    /// Wakes this instance's outbox workers: call it after writing messages.
    pub fn wake_outbox(&self) {
        for wake in &self.outbox_wakes {
            wake.notify_one();
        }
    }
}

/// A job's look for work: an error is logged by the scheduler, and the job looks again next time.
pub type Looking<'a> = Pin<Box<dyn Future<Output = anyhow::Result<()>> + Send + 'a>>;

/// Work the scheduler runs when it is due.
pub trait Job: Send + Sync + 'static {
    /// Its name in logs and in `job_runs.job`.
    fn name(&self) -> &'static str;

    /// Does what is due at `context.clock`'s now, if anything; called every `job_poll` by each
    /// instance, so it must be cheap when nothing is due and safe when instances call it at once.
    fn run_due<'a>(&'a self, context: &'a JobContext) -> Looking<'a>;
}

/// The jobs of one server instance.
pub struct Scheduler {
    context: Arc<JobContext>,
    jobs: Vec<Arc<dyn Job>>,
    poll: Duration,
}

impl Scheduler {
    /// Every job, looking for work every `poll`.
    pub fn new(context: JobContext, poll: Duration) -> Self {
        let retention = retention::Retention::new(context.keep_messages_months);
        let mut jobs: Vec<Arc<dyn Job>> = vec![
            Arc::new(eta_texts::EtaTexts::default()),
            Arc::new(payment_queries::PaymentQueries),
            Arc::new(retention),
        ];
        if context.marks_late_stops {
            jobs.push(Arc::new(late_stops::LateStops));
        }
        if let Some(plan) = context.backups.clone() {
            jobs.push(Arc::new(backups::Backups::new(plan)));
        }
        Self { context: Arc::new(context), jobs, poll }
    }

    /// Runs until the task is dropped: each job's look, then a pause of `poll`.
    pub async fn run(self) {
        let names: Vec<&str> = self.jobs.iter().map(|job| job.name()).collect();
        tracing::info!(jobs = %names.join(", "), poll_ms = self.poll.as_millis(), clock = ?self.context.clock, "scheduled jobs started");
        loop {
            self.run_each_once().await;
            tokio::time::sleep(self.poll).await;
        }
    }

    /// Each job looks for due work once. Each look runs in a task of its own, so that a panic
    /// ends that look, not the scheduling.
    pub async fn run_each_once(&self) {
        for job in &self.jobs {
            let (job, context) = (Arc::clone(job), Arc::clone(&self.context));
            let name = job.name();
            let metrics = Arc::clone(&self.context.metrics);
            let outcome = match actix_web::rt::spawn(async move { job.run_due(&context).await }).await {
                Ok(Ok(())) => "ok",
                Ok(Err(error)) => {
                    tracing::error!(job = name, error = format!("{error:#}"), "a scheduled job failed; it tries again");
                    "failed"
                }
                Err(panic) => {
                    tracing::error!(job = name, error = %panic, "a scheduled job panicked; it tries again");
                    "panicked"
                }
            };
            metrics.job_run(name, outcome);
        }
    }
}
