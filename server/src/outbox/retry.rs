//! When an outbox worker tries again: the backoff after a failure and the waits of an idle or a
//! blocked worker. Configuration holds one; tests shorten it.

use rand::Rng;
use std::time::Duration;

/// When to try again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// The first wait after a passing failure (5xx, timeout, no connection, 429 without a time).
    pub base: Duration,
    /// The longest wait between two attempts.
    pub cap: Duration,
    /// Attempts before giving up (the row is then marked failed, for staff to send again).
    pub max_attempts: i32,
    /// The wait between attempts while the account is blocked (401, 403, 412).
    pub blocked: Duration,
    /// How often an idle worker looks for due rows (new rows of this instance wake it at once).
    pub poll: Duration,
    /// How long one request may take before it counts as a timeout (and is retried). Must stay
    /// well under the worker's lease.
    pub request_timeout: Duration,
}

impl Default for RetryPolicy {
    /// 30 s, doubling to at most an hour, twelve attempts (about half a day); blocked: every 30 min.
    fn default() -> Self {
        Self {
            base: Duration::from_secs(30),
            cap: Duration::from_secs(3600),
            max_attempts: 12,
            blocked: Duration::from_secs(1800),
            poll: Duration::from_secs(5),
            request_timeout: Duration::from_secs(15),
        }
    }
}

impl RetryPolicy {
    /// The wait after the `attempt`th attempt failed: doubling from `base`, at most `cap`, with
    /// "full jitter" between half and all of it so that instances do not retry in step.
    pub fn backoff(&self, attempt: i32) -> Duration {
        let doublings = attempt.saturating_sub(1).clamp(0, 30) as u32;
        let full = self.base.saturating_mul(2u32.saturating_pow(doublings)).min(self.cap);
        full.mul_f64(rand::rng().random_range(0.5..=1.0))
    }
}
