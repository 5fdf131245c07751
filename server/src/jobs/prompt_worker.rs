//! The prompt worker: one task per server instance that sends the prompts written to
//! `mpesa_prompts` (by this instance or another) to Daraja, as soon as it is woken, and looks for
//! forgotten ones every few seconds. Each prompt is claimed by one instance before it is sent
//! ([`MpesaPrompt::claim_due`]), so several instances on one database never push it twice.

use crate::clock::{Clock, stored};
use crate::db::{Database, DbError};
use crate::models::mpesa::MpesaPrompt;
use crate::mpesa::client::{Daraja, DarajaError, PromptRequest};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

/// How long a claimed prompt stays with its instance: beyond the four requests sending it may
/// take (a token, the prompt, and both again after a 401), each up to the time-out.
fn lease(timeout: Duration) -> time::Duration {
    time::Duration::seconds(i64::try_from(timeout.as_secs()).unwrap_or(120) * 4 + 60)
}
/// How often it looks for prompts nobody woke it for.
const POLL: Duration = Duration::from_secs(5);

/// Sends the prompts of one database.
pub struct PromptWorker {
    database: Database,
    daraja: Arc<Daraja>,
    clock: Clock,
    wake: Arc<Notify>,
}

impl PromptWorker {
    /// A worker; `wake` is notified when this instance writes a prompt.
    pub fn new(database: Database, daraja: Arc<Daraja>, clock: Clock, wake: Arc<Notify>) -> Self {
        Self { database, daraja, clock, wake }
    }

    /// Sends until the task is dropped. It says once, at the start, whether prompts are sent
    /// (and what is missing when they are not); unconfigured, no prompt is written and it ends.
    pub async fn run(self) {
        let settings = self.daraja.settings();
        crate::mpesa::log_configuration(settings);
        if !settings.sends_prompts() {
            return;
        }
        let worker = Arc::new(self);
        loop {
            // Each round in a task of its own, so that a panic ends that round, not the sending.
            let round = Arc::clone(&worker);
            match actix_web::rt::spawn(async move { round.send_due().await }).await {
                Ok(Ok(0)) => {
                    let _ = tokio::time::timeout(POLL, worker.wake.notified()).await;
                }
                Ok(Ok(_)) => {}
                Ok(Err(error)) => {
                    tracing::error!(%error, "M-PESA prompts could not be claimed; trying again");
                    tokio::time::sleep(POLL).await;
                }
                Err(panic) => {
                    tracing::error!(error = %panic, "sending M-PESA prompts panicked; trying again");
                    tokio::time::sleep(POLL).await;
                }
            }
        }
    }

    /// Sends every prompt due now, as the running worker does in its rounds; unconfigured, none.
    pub async fn send_all_due(&self) -> Result<usize, DbError> {
        if !self.daraja.settings().sends_prompts() {
            return Ok(0);
        }
        let mut sent = 0;
        loop {
            match self.send_due().await? {
                0 => return Ok(sent),
                claimed => sent += claimed,
            }
        }
    }

    /// Claims and sends the prompts due now; returns how many it claimed.
    pub async fn send_due(&self) -> Result<usize, DbError> {
        let now = stored(self.clock.now());
        let timeout = self.daraja.settings().request_timeout;
        let lease = lease(timeout);
        let claimed =
            self.database.run(move |c| MpesaPrompt::claim_due(c, lease, 1, now).map_err(DbError::from)).await?;
        let count = claimed.len();
        for (prompt, reference) in claimed {
            let request = PromptRequest { phone: &prompt.phone, amount: prompt.amount, reference: &reference };
            let outcome = self.daraja.stk_push(&request, self.clock.now(), timeout).await;
            let now = stored(self.clock.now());
            let id = prompt.id.clone();
            let stored = match outcome {
                Ok(accepted) => {
                    tracing::info!(order = %reference, checkout = %accepted.checkout_request_id, "M-PESA prompt sent");
                    self.database
                        .run(move |c| {
                            let (checkout, merchant) = (accepted.checkout_request_id, accepted.merchant_request_id);
                            MpesaPrompt::mark_waiting(c, &id, &checkout, &merchant, now).map_err(DbError::from)
                        })
                        .await
                }
                Err(error) => {
                    let detail = customer_words(&error);
                    tracing::warn!(order = %reference, error = %error, "an M-PESA prompt was not sent");
                    self.database.run(move |c| MpesaPrompt::fail(c, &id, detail, now).map_err(DbError::from)).await
                }
            };
            if let Err(error) = stored {
                tracing::error!(%error, prompt = %prompt.id, "the outcome of an M-PESA prompt could not be stored");
            }
        }
        Ok(count)
    }
}

/// Why a prompt did not go, in words for the customer (the log has Daraja's).
fn customer_words(error: &DarajaError) -> &'static str {
    match error {
        DarajaError::Unavailable(_) => {
            "M-PESA did not answer in time. If a prompt came and you paid, we will see the payment; if none came, send it again in two minutes or pay to the till."
        }
        DarajaError::Refused(_) => "M-PESA refused the prompt. Please pay to the till, or send it again later.",
        DarajaError::Credentials(_) | DarajaError::Unconfigured(_) => {
            "Prompts cannot be sent just now. Please pay to the till."
        }
    }
}
