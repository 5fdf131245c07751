//! The mail worker: one task per server instance that sends the outbox.

use super::client::{self, Outcome};
use super::{MailSettings, PACE, RetryPolicy};
use crate::db::{Database, DbConnection, DbError, database_clock};
use crate::models::outbox::{Finish, OutboxEmail, Pace};
use diesel::QueryResult;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;
use time::PrimitiveDateTime;
use tokio::sync::Notify;

/// How long a claimed row stays with its worker. Longer than a request may take
/// ([`RetryPolicy::request_timeout`]) plus a wait for the pace; after it, another worker may take it.
pub const LEASE: Duration = Duration::from_secs(120);

/// Sends the outbox of one database.
pub struct MailWorker {
    database: Database,
    settings: MailSettings,
    policy: RetryPolicy,
    owner: String,
    http: reqwest::Client,
    wake: Arc<Notify>,
}

impl MailWorker {
    /// A worker; `wake` is notified when this instance writes new rows.
    pub fn new(database: Database, settings: MailSettings, policy: RetryPolicy, wake: Arc<Notify>) -> Self {
        let owner = format!("{}-{}", std::process::id(), uuid::Uuid::new_v4().simple());
        let http = client::http_client();
        Self { database, settings, policy, owner, http, wake }
    }

    /// Runs `work` with the database's clock: every time the worker stores or compares is the
    /// database's, so the instances sharing the outbox and the pace agree even if their own
    /// clocks do not.
    async fn at_database_time<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut DbConnection, PrimitiveDateTime) -> QueryResult<T> + Send + 'static,
    ) -> Result<T, DbError> {
        self.database
            .run(move |c| {
                let now = database_clock(c)?;
                Ok::<_, DbError>(work(c, now)?)
            })
            .await
    }

    /// This worker's name in the `lease_owner` column.
    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// Sends until the task is dropped. Without configuration it only says so: rows wait, and are
    /// sent once the server starts configured.
    pub async fn run(self) {
        let missing = self.settings.missing();
        if !missing.is_empty() {
            let waiting = self.database.run(|c| OutboxEmail::summary(c).map_err(DbError::from)).await;
            tracing::warn!(
                missing = %missing.join(", "),
                waiting = waiting.map(|s| s.waiting).unwrap_or_default(),
                "e-mail is not configured: e-mails wait in the outbox and are sent once it is"
            );
            return;
        }
        tracing::info!(api = %self.settings.base_url, "sending e-mails from the outbox");
        let worker = Arc::new(self);
        loop {
            // Each round in a task of its own, so that a panic ends that round, not the sending.
            let round = Arc::clone(&worker);
            match actix_web::rt::spawn(async move { round.send_next().await }).await {
                Ok(Ok(true)) => {}
                Ok(Ok(false)) => {
                    let _ = tokio::time::timeout(worker.policy.poll, worker.wake.notified()).await;
                }
                Ok(Err(error)) => {
                    tracing::error!(%error, "the mail worker could not reach the database");
                    tokio::time::sleep(worker.policy.poll).await;
                }
                Err(panic) => {
                    tracing::error!(error = %panic, "the mail worker panicked; it goes on after a pause");
                    tokio::time::sleep(worker.policy.poll).await;
                }
            }
        }
    }

    /// Claims one due row and sends it, at the shared pace. False when nothing was due.
    pub async fn send_next(&self) -> Result<bool, DbError> {
        let owner = self.owner.clone();
        let lease = span(LEASE);
        let claimed = self.at_database_time(move |c, now| OutboxEmail::claim(c, &owner, now, lease)).await?;
        let Some(email) = claimed else { return Ok(false) };

        let pace = span(PACE);
        // How long until this worker's slot, measured on the database's clock.
        let wait = self.at_database_time(move |c, now| Ok(Pace::reserve(c, now, pace)? - now)).await?;
        if wait > lease / 2 {
            // The API asked every instance to hold back (429), or many queue for slots: give the
            // row back untried rather than outwait its lease, and come back when the slot is due.
            let (id, owner) = (email.id.clone(), self.owner.clone());
            self.database.run(move |c| OutboxEmail::release(c, &id, &owner).map_err(DbError::from)).await?;
            tokio::time::sleep(wait.unsigned_abs()).await;
            return Ok(true);
        }
        if wait.is_positive() {
            tokio::time::sleep(wait.unsigned_abs()).await;
        }
        // The lease may have run out meanwhile (a paused process, a slow database) and another
        // worker may hold the row now: send only while it is still ours, for a full lease more.
        let (id, owner) = (email.id.clone(), self.owner.clone());
        let ours = self.at_database_time(move |c, now| OutboxEmail::renew(c, &id, &owner, now, lease)).await?;
        if !ours {
            tracing::warn!(email_id = %email.id, "the lease ran out before the e-mail was sent; left to its new holder");
            return Ok(true);
        }

        let finish = self.attempt(&email).await;
        match &finish {
            Finish::Sent => tracing::info!(email_id = %email.id, kind = %email.kind, "e-mail sent"),
            Finish::Retry { after, error, blocked } => {
                tracing::warn!(email_id = %email.id, kind = %email.kind, %error, %after, blocked, "e-mail not sent; will retry")
            }
            Finish::Failed(error) => {
                tracing::error!(email_id = %email.id, kind = %email.kind, %error, "e-mail given up")
            }
        }
        self.store_outcome(&email, finish).await
    }

    /// Stores how the attempt ended. The database may fail for a moment right after a send; the
    /// outcome is tried again for a while (still inside the lease), since a row left leased is
    /// sent again once the lease runs out.
    async fn store_outcome(&self, email: &OutboxEmail, finish: Finish) -> Result<bool, DbError> {
        let mut pause = Duration::from_secs(1);
        loop {
            let (id, owner, outcome) = (email.id.clone(), self.owner.clone(), finish.clone());
            let stored = self.at_database_time(move |c, now| OutboxEmail::finish(c, &id, &owner, &outcome, now)).await;
            match stored {
                Ok(true) => return Ok(true),
                Ok(false) => {
                    tracing::warn!(email_id = %email.id, "the lease ran out before the outcome was stored");
                    return Ok(true);
                }
                Err(error) if pause < LEASE / 4 => {
                    tracing::warn!(email_id = %email.id, %error, "the outcome could not be stored yet; trying again");
                    tokio::time::sleep(pause).await;
                    pause *= 2;
                }
                Err(error) => return Err(error),
            }
        }
    }

    /// One request for `email`, and what it means for the row.
    async fn attempt(&self, email: &OutboxEmail) -> Finish {
        let kind = email.kind;
        let Some(template) = self.settings.template(kind) else {
            return Finish::Failed("EMAILJS_STATUS_TEMPLATE_ID is not set".to_owned());
        };
        let mut params: Value = match serde_json::from_str(&email.params) {
            Ok(params) => params,
            Err(error) => return Finish::Failed(format!("unreadable template parameters: {error}")),
        };
        let to = if kind.to_staff() { self.settings.admin_email.clone() } else { email.to_email.clone() };
        params["to_email"] = Value::from(to.unwrap_or_default());

        match client::send(&self.http, &self.settings, template, &params, self.policy.request_timeout).await {
            Outcome::Sent => Finish::Sent,
            Outcome::Rejected(error) => Finish::Failed(format!("refused by the mail API: {error}")),
            Outcome::Blocked(error) => Finish::Retry {
                after: span(self.policy.blocked),
                error: format!("the mail account is blocked: {error}"),
                blocked: true,
            },
            Outcome::TooMany(retry_after) => {
                let wait = span(retry_after.unwrap_or_else(|| self.policy.backoff(email.attempts)));
                let held = self.at_database_time(move |c, now| Pace::hold_until(c, now + wait)).await;
                if let Err(error) = held {
                    tracing::error!(%error, "could not hold the mail pace back");
                }
                self.retry_or_give_up(email, wait, "too many requests (429)".to_owned())
            }
            Outcome::Transient(error) => self.retry_or_give_up(email, span(self.policy.backoff(email.attempts)), error),
        }
    }

    fn retry_or_give_up(&self, email: &OutboxEmail, after: time::Duration, error: String) -> Finish {
        if email.attempts >= self.policy.max_attempts {
            Finish::Failed(format!("gave up after {} attempts; last: {error}", email.attempts))
        } else {
            Finish::Retry { after, error, blocked: false }
        }
    }
}

/// A wait as a span of the database's clock (an hour if it is beyond what a date can hold).
fn span(wait: Duration) -> time::Duration {
    time::Duration::try_from(wait).unwrap_or(time::Duration::HOUR)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_with_jitter_and_stops_at_the_cap() {
        let policy =
            RetryPolicy { base: Duration::from_secs(10), cap: Duration::from_secs(60), ..RetryPolicy::default() };
        for _ in 0..50 {
            let first = policy.backoff(1);
            assert!(first >= Duration::from_secs(5) && first <= Duration::from_secs(10), "{first:?}");
            let third = policy.backoff(3);
            assert!(third >= Duration::from_secs(20) && third <= Duration::from_secs(40), "{third:?}");
            assert!(policy.backoff(30) <= Duration::from_secs(60));
        }
    }
}
