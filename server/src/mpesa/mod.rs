//! M-PESA through Safaricom's Daraja API.
//!
//! "Pay Now (M-PESA)" sends a prompt to the customer's phone (M-Pesa Express, an STK push): the
//! order placed, the bill set at pickup, or "send it again" writes a `mpesa_prompts` row in its own
//! transaction (`models::mpesa`), and this instance's prompt worker (`jobs::prompt_worker`) sends it
//! through [`client`]. The prompt's callback (`/hooks/payments/prompt/{secret}`) or, when that goes
//! missing, a status query (`jobs::payment_queries`) ends it. Payments made by hand to the till arrive as confirmations
//! (`/hooks/payments/till/confirmation/{secret}`, registered by `laundry mpesa register-urls`) and
//! are matched to an order or left for staff. Every payment is a `mpesa_receipts` row, once.
//!
//! Unconfigured, customers read the till instructions and staff record payments by hand.

pub mod cli;
pub mod client;

use secrecy::SecretString;
use std::fmt;
use std::time::Duration;

/// The live API; the sandbox is `https://sandbox.safaricom.co.ke` (short code 174379 and its
/// published test passkey).
pub const LIVE_API: &str = "https://api.safaricom.co.ke";

/// How long a request to Daraja may take unless `MPESA_TIMEOUT_SECONDS` says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(20);

/// The M-PESA configuration (`MPESA_*`).
#[derive(Clone)]
pub struct MpesaSettings {
    /// `MPESA_BASE_URL`, default [`LIVE_API`], without a trailing slash.
    pub base_url: String,
    /// `MPESA_CONSUMER_KEY`: the Daraja app's key.
    pub consumer_key: Option<String>,
    /// `MPESA_CONSUMER_SECRET`. Never printed: see the `Debug` impl.
    pub consumer_secret: Option<SecretString>,
    /// `MPESA_SHORTCODE`: the business short code of the prompts (for a till, the store number).
    pub shortcode: Option<String>,
    /// `MPESA_TILL`: the till number customers pay to, the prompts' `PartyB` (default 3552248).
    pub till: String,
    /// `MPESA_PASSKEY`: the M-Pesa Express passkey of the short code. Never printed.
    pub passkey: Option<SecretString>,
    /// `MPESA_CALLBACK_BASE_URL`: the public https address the callbacks reach, like
    /// `https://laundry.example.com`.
    pub callback_base_url: Option<String>,
    /// `MPESA_CALLBACK_SECRET`: the secret in the callbacks' paths. Never printed.
    pub callback_secret: Option<SecretString>,
    /// `MPESA_C2B_VERSION`: the version of the till URL registration, `v1` (default) or `v2`.
    pub c2b_version: String,
    /// `MPESA_TIMEOUT_SECONDS`: the longest wait for one answer of Daraja (default 20 s). A prompt
    /// whose answer did not come in time is ended as not sent (it may still reach the phone: its
    /// callback then pays the order as a till payment would).
    pub request_timeout: Duration,
    /// `LAUNDRY_PROMPTS_PER_PHONE_PER_HOUR` and `_PER_DAY`: prompts one phone number may be sent.
    pub prompt_limits: crate::domain::PromptLimits,
}

impl fmt::Debug for MpesaSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hidden = |secret: &Option<SecretString>| secret.as_ref().map(|_| "***");
        f.debug_struct("MpesaSettings")
            .field("base_url", &self.base_url)
            .field("consumer_key", &self.consumer_key.as_ref().map(|_| "***"))
            .field("consumer_secret", &hidden(&self.consumer_secret))
            .field("shortcode", &self.shortcode)
            .field("till", &self.till)
            .field("passkey", &hidden(&self.passkey))
            .field("callback_base_url", &self.callback_base_url)
            .field("callback_secret", &hidden(&self.callback_secret))
            .field("c2b_version", &self.c2b_version)
            .field("request_timeout", &self.request_timeout)
            .field("prompt_limits", &self.prompt_limits)
            .finish()
    }
}

impl Default for MpesaSettings {
    /// Unconfigured: the till instructions, payments recorded by staff.
    fn default() -> Self {
        Self {
            base_url: LIVE_API.to_owned(),
            consumer_key: None,
            consumer_secret: None,
            shortcode: None,
            till: crate::domain::catalogue::MPESA_TILL.to_owned(),
            passkey: None,
            callback_base_url: None,
            callback_secret: None,
            c2b_version: "v1".to_owned(),
            request_timeout: DEFAULT_TIMEOUT,
            prompt_limits: crate::domain::PromptLimits::default(),
        }
    }
}

/// The callbacks' paths under `MPESA_CALLBACK_BASE_URL`. Safaricom refuses URLs that name M-PESA
/// or Safaricom, so they say "payments".
pub const PROMPT_CALLBACK_PATH: &str = "/hooks/payments/prompt";
/// The till's confirmations.
pub const TILL_CONFIRMATION_PATH: &str = "/hooks/payments/till/confirmation";
/// The till's validations (only if Safaricom activates them for the till).
pub const TILL_VALIDATION_PATH: &str = "/hooks/payments/till/validation";

impl MpesaSettings {
    /// The variables still missing before prompts can be sent; empty when configured.
    pub fn missing(&self) -> Vec<&'static str> {
        let mut missing = Vec::new();
        if self.consumer_key.is_none() {
            missing.push("MPESA_CONSUMER_KEY");
        }
        if self.consumer_secret.is_none() {
            missing.push("MPESA_CONSUMER_SECRET");
        }
        if self.shortcode.is_none() {
            missing.push("MPESA_SHORTCODE");
        }
        if self.passkey.is_none() {
            missing.push("MPESA_PASSKEY");
        }
        if self.callback_base_url.is_none() {
            missing.push("MPESA_CALLBACK_BASE_URL");
        }
        if self.callback_secret.is_none() {
            missing.push("MPESA_CALLBACK_SECRET");
        }
        missing
    }

    /// Whether "Pay Now (M-PESA)" sends a prompt to the phone; otherwise customers read the till
    /// instructions.
    pub fn sends_prompts(&self) -> bool {
        self.missing().is_empty()
    }

    /// The full address of a callback (`path` one of the `*_PATH` constants), secret included;
    /// `None` unconfigured.
    pub fn callback_url(&self, path: &str) -> Option<String> {
        use secrecy::ExposeSecret;
        let base = self.callback_base_url.as_deref()?;
        let secret = self.callback_secret.as_ref()?;
        Some(format!("{base}{path}/{}", secret.expose_secret()))
    }
}

/// Says on the console, once at the start, how payments are taken: prompts sent (to which API,
/// for which till), or what is missing and what customers and staff do meanwhile.
pub fn log_configuration(settings: &MpesaSettings) {
    let missing = settings.missing();
    if !missing.is_empty() {
        tracing::warn!(
            missing = %missing.join(", "),
            "M-PESA is not configured: set {} to send 'Pay Now (M-PESA)' customers a prompt on their phone and to \
             record till payments by themselves; until then customers read the till number ({}) and staff record \
             payments by hand",
            missing.join(", "),
            settings.till,
        );
        return;
    }
    tracing::info!(api = %settings.base_url, till = %settings.till, "sending M-PESA prompts");
    let base = settings.callback_base_url.as_deref().unwrap_or_default();
    if !base.starts_with("https://") {
        tracing::warn!(
            callback = %base,
            "MPESA_CALLBACK_BASE_URL is not a public https:// address: Safaricom cannot call it back, so prompts are \
             settled only by status queries, and till payments do not arrive"
        );
    }
}
