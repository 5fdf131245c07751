//! The prompt worker: one task per server instance that sends the prompts written to
//! `mpesa_prompts` (by this instance or another) to Daraja, as soon as it is woken, and looks for
//! forgotten ones every few seconds.

use super::client::{Daraja, DarajaError, PromptRequest};
use crate::clock::{Clock, stored};
use crate::db::{Database, DbError};
use crate::models::mpesa::MpesaPrompt;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

/// How long a claimed prompt stays with its instance: well beyond a request's time-out.
const LEASE: time::Duration = time::Duration::minutes(2);
/// The longest wait for Daraja's answer to a prompt.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);
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

    /// Sends until the task is dropped. Unconfigured, no prompt is written, and it says so once.
    pub async fn run(self) {
        let missing = self.daraja.settings().missing();
        if !missing.is_empty() {
            tracing::warn!(
                missing = %missing.join(", "),
                "M-PESA prompts are off: set {} to send 'Pay Now (M-PESA)' customers a prompt on their phone; until then they read the till number and staff record payments",
                missing.join(", "),
            );
            return;
        }
        tracing::info!(api = %self.daraja.settings().base_url, till = %self.daraja.settings().till, "sending M-PESA prompts");
        loop {
            match self.send_due().await {
                Ok(0) => {
                    let _ = tokio::time::timeout(POLL, self.wake.notified()).await;
                }
                Ok(_) => {}
                Err(error) => {
                    tracing::error!(%error, "M-PESA prompts could not be claimed; trying again");
                    tokio::time::sleep(POLL).await;
                }
            }
        }
    }

    /// Claims and sends the prompts due now; returns how many it sent.
    pub async fn send_due(&self) -> Result<usize, DbError> {
        let now = stored(self.clock.now());
        let claimed =
            self.database.run(move |c| MpesaPrompt::claim_due(c, LEASE, 10, now).map_err(DbError::from)).await?;
        let count = claimed.len();
        for (prompt, reference) in claimed {
            let request = PromptRequest { phone: &prompt.phone, amount: prompt.amount, reference: &reference };
            let outcome = self.daraja.stk_push(&request, self.clock.now(), REQUEST_TIMEOUT).await;
            let now = stored(self.clock.now());
            let id = prompt.id.clone();
            let stored = match outcome {
                Ok(accepted) => {
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
            "M-PESA did not answer. If no prompt came to your phone, send it again, or pay to the till."
        }
        DarajaError::Refused(_) => "M-PESA refused the prompt. Please pay to the till, or send it again later.",
        DarajaError::Credentials(_) | DarajaError::Unconfigured(_) => {
            "Prompts cannot be sent just now. Please pay to the till."
        }
    }
}
