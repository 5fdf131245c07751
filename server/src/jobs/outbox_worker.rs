//! The outbox worker: one task per channel and server instance that sends that channel's rows,
//! each handed to the channel's [`Sender`] as an [`Envelope`] (see `outbox` for the whole story).

use crate::clock::Clock;
use crate::db::{Database, DbConnection, DbError, database_clock};
use crate::domain::Channel;
use crate::models::outbox::{DayBudget, Finish, OutboxMessage, OutboxSummary, Pace};
use crate::outbox::{Body, Envelope, Outcome, RetryPolicy, Sender, http_client};
use diesel::QueryResult;
use std::sync::Arc;
use std::time::Duration;
use time::PrimitiveDateTime;
use tokio::sync::Notify;

/// How long a claimed row stays with its worker. Longer than a request may take
/// ([`RetryPolicy::request_timeout`]) plus a wait for the pace; after it, another worker may take it.
pub const LEASE: Duration = Duration::from_secs(120);

/// Sends one channel's rows of the outbox of one database.
pub struct OutboxWorker<S: Sender> {
    database: Database,
    sender: S,
    policy: RetryPolicy,
    owner: String,
    http: reqwest::Client,
    wake: Arc<Notify>,
    /// The daily budget of the channel, if it has one.
    budget: Option<u32>,
    /// The settings' clock: the Nairobi day the budget counts, and whether a text about a moment
    /// is too late (its `send_before` is written by this clock too).
    clock: Clock,
    /// Whether the worker goes by `clock` when it is ahead of the database's (the demo, whose
    /// clock `/dev` moves on: rows stamped by it would otherwise wait for the real time).
    ahead_with_clock: bool,
}

impl<S: Sender> OutboxWorker<S> {
    /// A worker; `wake` is notified when this instance writes new rows.
    pub fn new(database: Database, sender: S, policy: RetryPolicy, wake: Arc<Notify>) -> Self {
        let owner = format!("{}-{}-{}", S::CHANNEL, std::process::id(), uuid::Uuid::new_v4().simple());
        let clock = Clock::system();
        Self {
            database,
            sender,
            policy,
            owner,
            http: http_client(),
            wake,
            budget: None,
            clock,
            ahead_with_clock: false,
        }
    }

    /// The same worker, sending at most `budget` messages in a Nairobi day of `clock` (the day the
    /// scheduled jobs go by); beyond it, messages wait for the next day.
    pub fn with_daily_budget(self, budget: u32, clock: Clock) -> Self {
        Self { budget: Some(budget), clock, ..self }
    }

    /// The same worker on the settings' `clock` (the system's unless told).
    pub fn with_clock(self, clock: Clock) -> Self {
        Self { clock, ..self }
    }

    /// The same worker, going by its clock where that is ahead of the database's: the demo's, one
    /// instance whose clock is moved on (never several instances sharing an outbox).
    pub fn ahead_with_clock(self, ahead: bool) -> Self {
        Self { ahead_with_clock: ahead, ..self }
    }

    /// Runs `work` with the database's clock: every time the worker stores or compares is the
    /// database's, so the instances sharing the outbox and the pace agree even if their own
    /// clocks do not.
    async fn at_database_time<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut DbConnection, PrimitiveDateTime) -> QueryResult<T> + Send + 'static,
    ) -> Result<T, DbError> {
        let ahead = self.ahead_with_clock.then(|| self.clock.utc());
        self.database
            .run(move |c| {
                let now = database_clock(c)?.max(ahead.unwrap_or(PrimitiveDateTime::MIN));
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
        let missing = self.sender.missing();
        if !missing.is_empty() {
            let channel = S::CHANNEL;
            let waiting = self.database.run(move |c| OutboxMessage::summary(c, channel).map_err(DbError::from)).await;
            let waiting = waiting.map(|s: OutboxSummary| s.waiting).unwrap_or_default();
            tracing::warn!(
                channel = %S::CHANNEL,
                missing = %missing.join(", "),
                waiting,
                "{} is not configured: set {}; until then its messages wait in the outbox ({waiting} now) and are sent once the server starts with them",
                S::API,
                listed(&missing),
            );
            return;
        }
        tracing::info!(channel = %S::CHANNEL, api = %self.sender.base_url(), "sending the outbox");
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
                    tracing::error!(channel = %S::CHANNEL, %error, "the outbox worker could not reach the database");
                    tokio::time::sleep(worker.policy.poll).await;
                }
                Err(panic) => {
                    tracing::error!(channel = %S::CHANNEL, error = %panic, "the outbox worker panicked; it goes on after a pause");
                    tokio::time::sleep(worker.policy.poll).await;
                }
            }
        }
    }

    /// Sends every row due now, one after the other at the shared pace, and answers how many it
    /// claimed; unconfigured, none. What `run` does in a round, for a caller that drives the
    /// worker itself (the tests) rather than waiting for the running one.
    pub async fn send_all_due(&self) -> Result<usize, DbError> {
        if !self.sender.missing().is_empty() {
            return Ok(0);
        }
        let mut sent = 0;
        while self.send_next().await? {
            sent += 1;
        }
        Ok(sent)
    }

    /// Claims one due row and sends it, at the shared pace. False when nothing was due.
    pub async fn send_next(&self) -> Result<bool, DbError> {
        let owner = self.owner.clone();
        let lease = span(LEASE);
        let budget = self.budget.map(|budget| DayBudget::of(budget, self.clock.now()));
        let claimed = self
            .at_database_time(move |c, now| OutboxMessage::claim(c, S::CHANNEL, &owner, now, lease, budget))
            .await?;
        let Some(message) = claimed else { return Ok(false) };
        let pace = span(S::PACE);
        // How long until this worker's slot, measured on the database's clock.
        let wait = self.at_database_time(move |c, now| Ok(Pace::reserve(c, S::CHANNEL, now, pace)? - now)).await?;
        if wait > lease / 2 {
            // The API asked every instance to hold back (429), or many queue for slots: give the
            // row back untried rather than outwait its lease, and come back when the slot is due.
            let (id, owner) = (message.id.clone(), self.owner.clone());
            self.database.run(move |c| OutboxMessage::release(c, &id, &owner).map_err(DbError::from)).await?;
            tokio::time::sleep(wait.unsigned_abs()).await;
            return Ok(true);
        }
        if wait.is_positive() {
            tokio::time::sleep(wait.unsigned_abs()).await;
        }
        // The lease may have run out meanwhile (a paused process, a slow database) and another
        // worker may hold the row now: send only while it is still ours, for a full lease more.
        let (id, owner) = (message.id.clone(), self.owner.clone());
        let ours = self.at_database_time(move |c, now| OutboxMessage::renew(c, &id, &owner, now, lease)).await?;
        if !ours {
            tracing::warn!(message_id = %message.id, "the lease ran out before the message was sent; left to its new holder");
            return Ok(true);
        }
        // Checked last, right before the request: a text whose number opted out, or whose kind staff
        // switched off, since it was written (also during the wait for the pace), or that is too late.
        // "Too late" is judged by the settings' clock, which wrote the row's `send_before`.
        let (row, owner, now) = (message.clone(), self.owner.clone(), self.clock.utc());
        let skipped =
            self.database.run(move |c| OutboxMessage::skip_if_unwanted(c, &row, &owner, now).map_err(DbError::from));
        if skipped.await? {
            tracing::info!(message_id = %message.id, kind = %message.kind, "not sent: no longer wanted");
            return Ok(true);
        }

        let finish = self.attempt(&message).await;
        // Recorded at once, before anything else (even the log): until the outcome is stored, a
        // crash leaves the row leased, and once the lease runs out it is sent again.
        let stored = self.store_outcome(&message, finish.clone()).await;
        match &finish {
            Finish::Sent(_) => tracing::info!(message_id = %message.id, kind = %message.kind, "message sent"),
            Finish::Retry { after, error, blocked } => {
                tracing::warn!(message_id = %message.id, kind = %message.kind, %error, %after, blocked, "message not sent; will retry")
            }
            Finish::Failed(error) => {
                tracing::error!(message_id = %message.id, kind = %message.kind, %error, "message given up")
            }
        }
        stored
    }

    /// Stores how the attempt ended. The database may fail for a moment right after a send; the
    /// outcome is tried again for a while (still inside the lease), since a row left leased is
    /// sent again once the lease runs out.
    async fn store_outcome(&self, message: &OutboxMessage, finish: Finish) -> Result<bool, DbError> {
        let mut pause = Duration::from_secs(1);
        loop {
            let (id, owner, outcome) = (message.id.clone(), self.owner.clone(), finish.clone());
            let stored =
                self.at_database_time(move |c, now| OutboxMessage::finish(c, &id, &owner, &outcome, now)).await;
            match stored {
                Ok(true) => return Ok(true),
                Ok(false) => {
                    tracing::warn!(message_id = %message.id, "the lease ran out before the outcome was stored");
                    return Ok(true);
                }
                Err(error) if pause < LEASE / 4 => {
                    tracing::warn!(message_id = %message.id, %error, "the outcome could not be stored yet; trying again");
                    tokio::time::sleep(pause).await;
                    pause *= 2;
                }
                Err(error) => return Err(error),
            }
        }
    }

    /// One request for `message`, and what it means for the row.
    async fn attempt(&self, message: &OutboxMessage) -> Finish {
        let envelope = match envelope(message) {
            Ok(envelope) => envelope,
            Err(error) => return Finish::Failed(error),
        };
        match self.sender.send(&self.http, &envelope, self.policy.request_timeout).await {
            Outcome::Sent(provider_id) => Finish::Sent(provider_id),
            Outcome::Unsendable(error) => Finish::Failed(error),
            Outcome::Rejected(error) => Finish::Failed(format!("refused by {}: {error}", S::API)),
            Outcome::Blocked(error) => Finish::Retry {
                after: span(self.policy.blocked),
                error: format!("the {} account is blocked: {error}", S::CHANNEL),
                blocked: true,
            },
            Outcome::TooMany(retry_after) => {
                let wait = span(retry_after.unwrap_or_else(|| self.policy.backoff(message.attempts)));
                let held = self.at_database_time(move |c, now| Pace::hold_until(c, S::CHANNEL, now + wait)).await;
                if let Err(error) = held {
                    tracing::error!(channel = %S::CHANNEL, %error, "could not hold the pace back");
                }
                self.retry_or_give_up(message, wait, "too many requests (429)".to_owned())
            }
            Outcome::Transient(error) => {
                self.retry_or_give_up(message, span(self.policy.backoff(message.attempts)), error)
            }
        }
    }

    fn retry_or_give_up(&self, message: &OutboxMessage, after: time::Duration, error: String) -> Finish {
        if message.attempts >= self.policy.max_attempts {
            Finish::Failed(format!("gave up after {} attempts; last: {error}", message.attempts))
        } else {
            Finish::Retry { after, error, blocked: false }
        }
    }
}

/// What the sender is given of `row`: a text's number and words, an e-mail's recipient and
/// template parameters. A row that cannot be read so fails as it is.
fn envelope(row: &OutboxMessage) -> Result<Envelope, String> {
    let (to, body) = match row.channel {
        Channel::Sms => match (&row.to_phone, row.sms_text()) {
            (Some(to), Some(text)) => (Some(to.clone()), Body::Text(text)),
            _ => return Err("an SMS row without a number or a text".to_owned()),
        },
        Channel::Email => match serde_json::from_str(&row.params) {
            Ok(params) => (row.to_email.clone(), Body::Template(params)),
            Err(error) => return Err(format!("unreadable template parameters: {error}")),
        },
    };
    Ok(Envelope { kind: row.kind, to, body })
}

/// Names as a sentence lists them: `A`, `A and B`, `A, B and C`.
fn listed(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [only] => (*only).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
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
    fn a_sender_gets_the_recipient_and_the_words_of_a_row_and_nothing_of_a_row_it_cannot_read() {
        use crate::domain::MessageKind;
        let now = time::macros::datetime!(2026-11-25 12:00);
        let text = OutboxMessage::sms(MessageKind::SmsReady, None, "+254712345678", "Ready.", None, now);
        assert_eq!(
            envelope(&text),
            Ok(Envelope {
                kind: MessageKind::SmsReady,
                to: Some("+254712345678".to_owned()),
                body: Body::Text("Ready.".to_owned())
            })
        );
        let params = serde_json::json!({ "order_id": "AB12CD34" });
        let email = OutboxMessage::new(MessageKind::OrderStatus, None, None, Some("a@example.com"), &params, now);
        assert_eq!(
            envelope(&email),
            Ok(Envelope {
                kind: MessageKind::OrderStatus,
                to: Some("a@example.com".to_owned()),
                body: Body::Template(params)
            })
        );
        let staff = OutboxMessage::new(MessageKind::Contact, None, None, None, &serde_json::json!({}), now);
        assert_eq!(envelope(&staff).map(|envelope| envelope.to), Ok(None), "the sender knows the staff address");
        let unreadable = OutboxMessage { params: "{".to_owned(), ..email };
        assert!(envelope(&unreadable).unwrap_err().starts_with("unreadable template parameters"));
        let numberless = OutboxMessage { to_phone: None, ..text };
        assert_eq!(envelope(&numberless), Err("an SMS row without a number or a text".to_owned()));
    }

    #[test]
    fn missing_variables_read_as_a_sentence() {
        assert_eq!(listed(&["AT_USERNAME"]), "AT_USERNAME");
        assert_eq!(listed(&["AT_USERNAME", "AT_API_KEY"]), "AT_USERNAME and AT_API_KEY");
        assert_eq!(listed(&["A", "B", "C"]), "A, B and C");
    }

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
