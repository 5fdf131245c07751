//! M-PESA as Daraja speaks it: the states of a prompt sent to a customer's phone (STK push), what
//! its result codes mean, and the forms Daraja wants (numbers without the plus, Nairobi
//! timestamps, the request password).

use super::text_enum::text_enum;
use crate::clock::NAIROBI;
use base64::Engine as _;
use time::macros::format_description;
use time::{OffsetDateTime, PrimitiveDateTime};

text_enum! {
    /// Where a prompt to pay is.
    pub enum PromptState {
        /// Written, not yet sent to Daraja.
        Queued = "queued",
        /// An instance is sending it (under a lease).
        Sending = "sending",
        /// Daraja accepted it; the customer's phone shows the prompt. Its callback, or a status
        /// query, ends it.
        Waiting = "waiting",
        /// The customer paid.
        Paid = "paid",
        /// Not paid: the request was refused, or the payment failed (funds, PIN, no answer).
        Failed = "failed",
        /// The customer cancelled it on the phone.
        Cancelled = "cancelled",
    }
}

impl PromptState {
    /// Whether nothing more will happen to it.
    pub fn is_final(self) -> bool {
        matches!(self, PromptState::Paid | PromptState::Failed | PromptState::Cancelled)
    }
}

text_enum! {
    /// How a payment reached us.
    pub enum ReceiptSource {
        /// The callback (or status query) of a prompt we sent.
        Prompt = "prompt",
        /// A till confirmation: paid by hand to the till (C2B).
        Till = "till",
    }
}

text_enum! {
    /// Why a received payment waits for staff instead of marking its order paid.
    pub enum ReceiptProblem {
        /// The amount was not the order's bill (before the ledger: money now always counts).
        Amount = "amount",
        /// The order was paid already (before the ledger: over-payment is now credit).
        AlreadyPaid = "already-paid",
        /// Its receipt number is not an M-PESA code, or is recorded for another order already.
        Code = "code",
    }
}

/// How many prompts to pay one phone number may be sent, whoever asks (the order placed, the bill
/// set at pickup, the customer's "send it again", staff, the valet): a site that sends a prompt to
/// any number typed into its form must not become a way to flood a stranger's phone. Counted over
/// the last hour and the last 24 hours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PromptLimits {
    /// `LAUNDRY_PROMPTS_PER_PHONE_PER_HOUR`, default 3.
    pub per_hour: u32,
    /// `LAUNDRY_PROMPTS_PER_PHONE_PER_DAY`, default 6 (at least `per_hour`).
    pub per_day: u32,
}

impl Default for PromptLimits {
    fn default() -> Self {
        PromptLimits { per_hour: 3, per_day: 6 }
    }
}

impl PromptLimits {
    /// When a phone that was sent the prompts written at `sent` (any order) may be sent another,
    /// at `now`: `None` when it may now, else the moment the oldest prompt that counts leaves its
    /// hour or its day.
    pub fn next_allowed(&self, sent: &[PrimitiveDateTime], now: PrimitiveDateTime) -> Option<PrimitiveDateTime> {
        let mut sorted: Vec<PrimitiveDateTime> = sent.to_vec();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        let over = |limit: u32, span: time::Duration| {
            let within: Vec<&PrimitiveDateTime> = sorted.iter().filter(|at| **at > now - span).collect();
            // Newest first: the one whose leaving makes room is the limit-th newest.
            (within.len() >= limit as usize).then(|| *within[limit as usize - 1] + span)
        };
        let hour = over(self.per_hour, time::Duration::hours(1));
        let day = over(self.per_day, time::Duration::days(1));
        hour.into_iter().chain(day).max()
    }
}

/// What a Daraja `ResultCode` (of a callback or a status query) makes of a prompt, with the words
/// the customer and staff read.
pub fn prompt_result(code: i64) -> (PromptState, &'static str) {
    match code {
        0 => (PromptState::Paid, "Paid."),
        1032 => (PromptState::Cancelled, "Cancelled on the phone."),
        1 => (PromptState::Failed, "Not enough money in the M-PESA account."),
        2001 => (PromptState::Failed, "The M-PESA PIN was wrong."),
        1037 => (PromptState::Failed, "The phone did not answer in time (off, or out of network)."),
        1019 => (PromptState::Failed, "The prompt expired before it was answered."),
        1001 => (PromptState::Failed, "Another M-PESA payment was in progress on that phone."),
        1025 | 9999 => (PromptState::Failed, "M-PESA could not send the prompt to the phone."),
        _ => (PromptState::Failed, "M-PESA did not take the payment."),
    }
}

/// Whether [`prompt_result`] has words of its own for `code` (for others, Daraja's `ResultDesc`
/// is shown beside them).
pub fn is_known_result(code: i64) -> bool {
    matches!(code, 0 | 1 | 1001 | 1019 | 1025 | 1032 | 1037 | 2001 | 9999)
}

/// A stored number (`+2547…`) as Daraja wants it: `2547…`, no plus.
pub fn daraja_phone(e164: &str) -> String {
    e164.trim_start_matches('+').to_owned()
}

/// Daraja's `Timestamp` for `at`: `YYYYMMDDHHmmss` in Nairobi time.
pub fn daraja_timestamp(at: OffsetDateTime) -> String {
    let format = format_description!("[year][month][day][hour][minute][second]");
    at.to_offset(NAIROBI).format(&format).unwrap_or_default()
}

/// Reads a Daraja time (`TransactionDate` 20221117155745, `TransTime`; Nairobi time) as UTC.
pub fn parse_daraja_time(text: &str) -> Option<PrimitiveDateTime> {
    let format = format_description!("[year][month][day][hour][minute][second]");
    let local = PrimitiveDateTime::parse(text.trim(), &format).ok()?;
    let utc = local.assume_offset(NAIROBI).to_offset(time::UtcOffset::UTC);
    Some(PrimitiveDateTime::new(utc.date(), utc.time()))
}

/// The request's `Password`: base64 of short code, passkey and timestamp, joined.
pub fn stk_password(shortcode: &str, passkey: &str, timestamp: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(format!("{shortcode}{passkey}{timestamp}"))
}

/// A till confirmation's `MSISDN` as a stored number, when it is one: M-PESA masks (`2547***123`)
/// or hashes it for some accounts, and then it matches nobody.
pub fn till_phone(msisdn: &str) -> Option<String> {
    let digits = msisdn.trim();
    let plain = digits.len() == 12 && digits.starts_with("254") && digits.bytes().all(|b| b.is_ascii_digit());
    plain.then(|| format!("+{digits}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn a_phone_may_be_prompted_again_when_the_oldest_prompt_that_counts_leaves_its_hour_or_day() {
        let limits = PromptLimits { per_hour: 2, per_day: 3 };
        let now = datetime!(2026-11-24 12:00:00);
        let at = |minutes: i64| now - time::Duration::minutes(minutes);
        assert_eq!(limits.next_allowed(&[], now), None);
        assert_eq!(limits.next_allowed(&[at(10)], now), None);
        assert_eq!(limits.next_allowed(&[at(10), at(50)], now), Some(at(50) + time::Duration::hours(1)));
        assert_eq!(limits.next_allowed(&[at(70), at(50)], now), None);
        assert_eq!(limits.next_allowed(&[at(5), at(70), at(300)], now), Some(at(300) + time::Duration::days(1)));
        // Both: the later of the two.
        assert_eq!(limits.next_allowed(&[at(5), at(6), at(300)], now), Some(at(300) + time::Duration::days(1)));
    }

    #[test]
    fn the_timestamp_is_nairobi_time_and_the_password_joins_code_key_and_time() {
        let at = datetime!(2026-11-24 21:05:09 UTC);
        assert_eq!(daraja_timestamp(at), "20261125000509");
        // base64("174379" + "passkey" + "20261125000509")
        assert_eq!(stk_password("174379", "passkey", "20261125000509"), "MTc0Mzc5cGFzc2tleTIwMjYxMTI1MDAwNTA5");
        assert_eq!(parse_daraja_time("20261125000509"), Some(datetime!(2026-11-24 21:05:09)));
        assert_eq!(parse_daraja_time("2026-11-25"), None);
    }

    #[test]
    fn numbers_lose_their_plus_and_masked_ones_match_nobody() {
        assert_eq!(daraja_phone("+254712345678"), "254712345678");
        assert_eq!(till_phone("254712345678").as_deref(), Some("+254712345678"));
        assert_eq!(till_phone("2547 ***** 678"), None);
        assert_eq!(till_phone("0f4a1c9e2b7d"), None);
    }

    #[test]
    fn result_codes_tell_paid_cancelled_and_failed_apart() {
        assert_eq!(prompt_result(0).0, PromptState::Paid);
        assert_eq!(prompt_result(1032).0, PromptState::Cancelled);
        for code in [1, 1001, 1019, 1025, 1037, 2001, 9999, 17] {
            assert_eq!(prompt_result(code).0, PromptState::Failed, "{code}");
        }
        assert!(PromptState::Paid.is_final() && !PromptState::Waiting.is_final());
    }
}
