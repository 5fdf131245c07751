//! Texts to customers through Africa's Talking, from the outbox.
//!
//! Every change a customer hears about writes its SMS to the outbox in the same transaction as
//! itself (`notify::texts` words them; `models::outbox` honours opt-outs and the kinds staff switched
//! off); the outbox worker of the SMS channel sends them through [`client`]. The provider's
//! callbacks (delivery reports, texts to the shop's number) arrive at `/hooks/sms/…`, behind a
//! secret in the path.

pub mod client;
pub mod gsm;

use crate::domain::{Channel, SmsLimits};
use crate::outbox::{Body, Envelope, Outcome, Sender};
use secrecy::SecretString;
use std::fmt;
use std::time::Duration;

/// The live API; the sandbox is `https://api.sandbox.africastalking.com` (with the username
/// `sandbox`).
pub const LIVE_API: &str = "https://api.africastalking.com";

/// The SMS configuration (`AT_*`, `LAUNDRY_SMS_*`).
#[derive(Clone)]
pub struct SmsSettings {
    /// `AT_BASE_URL`, default [`LIVE_API`], without a trailing slash.
    pub base_url: String,
    /// `AT_USERNAME`: the Africa's Talking application's username (`sandbox` in the sandbox).
    pub username: Option<String>,
    /// `AT_API_KEY`. Never printed: see the `Debug` impl.
    pub api_key: Option<SecretString>,
    /// `AT_SENDER_ID`: a registered alphanumeric sender ID or short code the texts come from;
    /// unset, Africa's Talking's shared number.
    pub sender_id: Option<String>,
    /// `AT_SHORTCODE`: the number customers text the pickup letter to (a two-way short code or
    /// long number on the account). Unset: the home page does not offer pickup by text.
    pub shortcode: Option<String>,
    /// `LAUNDRY_SMS_PICKUP_LETTER`: the letter that books a pickup (default `P`).
    pub pickup_letter: char,
    /// `LAUNDRY_SMS_HOOK_SECRET`: the secret in the path of the callback URLs
    /// (`/hooks/sms/incoming/{secret}`, `/hooks/sms/delivery/{secret}`). Unset: both are refused.
    pub hook_secret: Option<SecretString>,
    /// `LAUNDRY_SMS_REPLY_MONTHS` (default 6): a text to the shop's number gets an automatic reply
    /// only from a number with an order placed in the last this many months; the pickup letter
    /// books only for such a number. Other texts are stored for staff (the inbox), unanswered.
    pub reply_months: u32,
    /// `LAUNDRY_SMS_REPLIES_PER_DAY` (default 3): at most this many automatic replies to one
    /// number per Nairobi day; texts beyond it are stored for staff, unanswered. 0: none at all.
    pub replies_per_day: u32,
    /// The limits per phone and the daily budget.
    pub limits: SmsLimits,
}

/// The default of `LAUNDRY_SMS_REPLY_MONTHS`.
pub const REPLY_MONTHS: u32 = 6;
/// The default of `LAUNDRY_SMS_REPLIES_PER_DAY`.
pub const REPLIES_PER_DAY: u32 = 3;

impl fmt::Debug for SmsSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmsSettings")
            .field("base_url", &self.base_url)
            .field("username", &self.username)
            .field("api_key", &self.api_key.as_ref().map(|_| "***"))
            .field("sender_id", &self.sender_id)
            .field("shortcode", &self.shortcode)
            .field("pickup_letter", &self.pickup_letter)
            .field("hook_secret", &self.hook_secret.as_ref().map(|_| "***"))
            .field("reply_months", &self.reply_months)
            .field("replies_per_day", &self.replies_per_day)
            .field("limits", &self.limits)
            .finish()
    }
}

impl Default for SmsSettings {
    /// Unconfigured: texts wait in the outbox.
    fn default() -> Self {
        Self {
            base_url: LIVE_API.to_owned(),
            username: None,
            api_key: None,
            sender_id: None,
            shortcode: None,
            pickup_letter: 'P',
            hook_secret: None,
            reply_months: REPLY_MONTHS,
            replies_per_day: REPLIES_PER_DAY,
            limits: SmsLimits::default(),
        }
    }
}

impl SmsSettings {
    /// The variables still missing before any text can be sent; empty when configured.
    pub fn missing(&self) -> Vec<&'static str> {
        let mut missing = Vec::new();
        if self.username.is_none() {
            missing.push("AT_USERNAME");
        }
        if self.api_key.is_none() {
            missing.push("AT_API_KEY");
        }
        missing
    }

    /// Whether a customer can book a pickup by texting the letter: texts can be sent, the number
    /// to text is known, and the callback that receives them is protected. The home page offers
    /// it only then.
    pub fn takes_pickups_by_text(&self) -> bool {
        self.missing().is_empty() && self.shortcode.is_some() && self.hook_secret.is_some()
    }
}

impl Sender for SmsSettings {
    const CHANNEL: Channel = Channel::Sms;
    const API: &'static str = "the SMS API";
    /// Africa's Talking publishes no limit per request; five a second keeps a burst (the 5:30pm
    /// texts) from looking like abuse.
    const PACE: Duration = Duration::from_millis(200);

    fn missing(&self) -> Vec<&'static str> {
        SmsSettings::missing(self)
    }

    fn base_url(&self) -> &str {
        &self.base_url
    }

    async fn send(&self, http: &reqwest::Client, message: &Envelope, timeout: Duration) -> Outcome {
        let (Some(to), Body::Text(text)) = (message.to.as_deref(), &message.body) else {
            return Outcome::Unsendable("an SMS without a number or a text".to_owned());
        };
        client::send(http, self, to, text, timeout).await
    }
}
