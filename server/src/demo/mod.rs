//! The local mode that shows the whole product: `laundry serve --demo` (`make demo`;
//! docs/demo.md).
//!
//! - [`stand_ins`]: Africa's Talking, Daraja and the mail API, served by this server itself under
//!   `/dev/at`, `/dev/daraja` and `/dev/mail`, with the providers' own request and answer shapes.
//!   The settings point at them ([`provider_env`]), so the outbox workers, the prompt worker and
//!   the callbacks run exactly the code they run in production.
//! - [`pages`]: `/dev/texts` (the texts and e-mails that reached the stand-ins) and `/dev/mpesa`
//!   (the prompts on "the customer's phone": pay, cancel or let time out).
//! - [`seed`]: a fresh shop: an owner, a staff member and a valet, and a week of orders.
//!
//! None of these routes exists unless the server runs in demo mode ([`routes`] is registered only
//! then).

pub mod pages;
pub mod seed;
pub mod stand_ins;

use actix_web::web;
use std::collections::VecDeque;
use std::sync::{Mutex, PoisonError};
use time::OffsetDateTime;

/// The stand-ins' credentials: the settings carry them, the stand-ins check them.
pub const AT_USERNAME: &str = "sandbox";
/// Africa's Talking's `apiKey` header.
pub const AT_API_KEY: &str = "demo-at-api-key";
/// Daraja's consumer key and secret (HTTP Basic for the token).
pub const DARAJA_KEY: &str = "demo-consumer-key";
/// The consumer secret.
pub const DARAJA_SECRET: &str = "demo-consumer-secret";
/// The mail API's private key (`accessToken`).
pub const MAIL_KEY: &str = "demo-mail-private-key";
/// Where staff e-mails go (they land on `/dev/texts` too).
pub const SHOP_EMAIL: &str = "shop@example.com";

/// How many messages `/dev/texts` keeps (the oldest go first).
const KEPT: usize = 500;

/// The environment that points the SMS, M-PESA and mail settings at the stand-ins served at
/// `base` (like `http://127.0.0.1:8080`), with `secret` in the callbacks' URLs.
pub fn provider_env(base: &str, secret: &str) -> Vec<(&'static str, String)> {
    vec![
        ("AT_BASE_URL", format!("{base}/dev/at")),
        ("AT_USERNAME", AT_USERNAME.to_owned()),
        ("AT_API_KEY", AT_API_KEY.to_owned()),
        ("AT_SHORTCODE", "22384".to_owned()),
        ("LAUNDRY_SMS_HOOK_SECRET", secret.to_owned()),
        ("MPESA_BASE_URL", format!("{base}/dev/daraja")),
        ("MPESA_CONSUMER_KEY", DARAJA_KEY.to_owned()),
        ("MPESA_CONSUMER_SECRET", DARAJA_SECRET.to_owned()),
        ("MPESA_SHORTCODE", "174379".to_owned()),
        ("MPESA_PASSKEY", "demo-passkey".to_owned()),
        ("MPESA_CALLBACK_BASE_URL", base.to_owned()),
        ("MPESA_CALLBACK_SECRET", secret.to_owned()),
        ("EMAILJS_BASE_URL", format!("{base}/dev/mail")),
        ("EMAILJS_SERVICE_ID", "service_demo".to_owned()),
        ("EMAILJS_PUBLIC_KEY", "demo-public-key".to_owned()),
        ("EMAILJS_PRIVATE_KEY", MAIL_KEY.to_owned()),
        ("EMAILJS_ORDER_TEMPLATE_ID", "template_order".to_owned()),
        ("EMAILJS_CONTACT_TEMPLATE_ID", "template_contact".to_owned()),
        ("EMAILJS_STATUS_TEMPLATE_ID", "template_status".to_owned()),
        ("ADMIN_NOTIFY_EMAIL", SHOP_EMAIL.to_owned()),
    ]
}

/// One message a stand-in received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Landed {
    /// When it arrived.
    pub at: OffsetDateTime,
    /// `Text` or `E-mail`.
    pub channel: &'static str,
    /// The phone number or e-mail address.
    pub to: String,
    /// An e-mail's template; empty for a text.
    pub subject: String,
    /// The text, or the e-mail's parameters one per line.
    pub body: String,
}

/// How a prompt on the stand-in's "phone" ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptEnd {
    /// Paid, with this M-PESA receipt.
    Paid(String),
    /// The customer pressed Cancel.
    Cancelled,
    /// Nobody answered before it timed out.
    TimedOut,
}

impl PromptEnd {
    /// Daraja's ResultCode and ResultDesc for it.
    pub fn result(&self) -> (i64, &'static str) {
        match self {
            PromptEnd::Paid(_) => (0, "The service request is processed successfully."),
            PromptEnd::Cancelled => (1032, "Request cancelled by user"),
            PromptEnd::TimedOut => (1037, "DS timeout user cannot be reached"),
        }
    }
}

/// One prompt the Daraja stand-in accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    /// Daraja's `CheckoutRequestID`.
    pub checkout_request_id: String,
    /// Daraja's `MerchantRequestID`.
    pub merchant_request_id: String,
    /// `PhoneNumber`, as sent (2547…).
    pub phone: String,
    /// `Amount`, KSh.
    pub amount: i64,
    /// `AccountReference`: the order ID.
    pub account_reference: String,
    /// `CallBackURL`: where the result goes.
    pub callback_url: String,
    /// When it arrived.
    pub asked_at: OffsetDateTime,
    /// How it ended; none while it waits on the phone.
    pub end: Option<PromptEnd>,
}

/// What the stand-ins received, for the `/dev` pages.
#[derive(Debug, Default)]
pub struct StandIns {
    landed: Mutex<VecDeque<Landed>>,
    prompts: Mutex<Vec<Prompt>>,
}

impl StandIns {
    /// A message arrived.
    pub fn land(&self, message: Landed) {
        let mut landed = self.landed.lock().unwrap_or_else(PoisonError::into_inner);
        if landed.len() == KEPT {
            landed.pop_front();
        }
        landed.push_back(message);
    }

    /// Every message kept, newest first.
    pub fn landed(&self) -> Vec<Landed> {
        self.landed.lock().unwrap_or_else(PoisonError::into_inner).iter().rev().cloned().collect()
    }

    /// A prompt arrived; its ids are numbered from 1.
    pub fn ask(&self, make: impl FnOnce(usize) -> Prompt) -> Prompt {
        let mut prompts = self.prompts.lock().unwrap_or_else(PoisonError::into_inner);
        let prompt = make(prompts.len() + 1);
        prompts.push(prompt.clone());
        prompt
    }

    /// Every prompt, newest first.
    pub fn prompts(&self) -> Vec<Prompt> {
        self.prompts.lock().unwrap_or_else(PoisonError::into_inner).iter().rev().cloned().collect()
    }

    /// The prompt with this `CheckoutRequestID`.
    pub fn prompt(&self, checkout_request_id: &str) -> Option<Prompt> {
        let prompts = self.prompts.lock().unwrap_or_else(PoisonError::into_inner);
        prompts.iter().find(|p| p.checkout_request_id == checkout_request_id).cloned()
    }

    /// Ends the prompt if it still waits; the prompt as it ended, or `None` (unknown, or ended
    /// before: each ends once).
    pub fn end(&self, checkout_request_id: &str, end: PromptEnd) -> Option<Prompt> {
        let mut prompts = self.prompts.lock().unwrap_or_else(PoisonError::into_inner);
        let prompt = prompts.iter_mut().find(|p| p.checkout_request_id == checkout_request_id && p.end.is_none())?;
        prompt.end = Some(end);
        Some(prompt.clone())
    }
}

/// Opens the demo's shop on the server's fresh database: the accounts, the past week, and today's
/// orders (their texts and prompt wait in the outbox for the workers). Returns the accounts.
pub async fn open_shop(state: &crate::state::AppState) -> anyhow::Result<Vec<seed::Account>> {
    let settings = state.settings();
    let schedule = settings.schedule.clone();
    let texts = state.texts().clone();
    let notify = state.notify_customer();
    let (today, now, reclean_days) = (settings.clock.nairobi().date(), settings.clock.utc(), settings.reclean_days);
    state
        .db()
        .run(move |connection| {
            let shop = seed::Shop { schedule: &schedule, texts: &texts, today, reclean_days };
            let (accounts, valet_id) = seed::accounts(connection, now)?;
            shop.past_week(connection, &valet_id)?;
            shop.today(connection, &notify, &valet_id, now)?;
            Ok::<_, anyhow::Error>(accounts)
        })
        .await
}

/// The demo's routes: the stand-ins' APIs and the two pages. Registered only in demo mode.
pub fn routes(config: &mut web::ServiceConfig) {
    config
        .route("/dev/at/version1/messaging", web::post().to(stand_ins::at_messaging))
        .route("/dev/mail/api/v1.0/email/send", web::post().to(stand_ins::mail_send))
        .route("/dev/daraja/oauth/v1/generate", web::get().to(stand_ins::daraja_token))
        .route("/dev/daraja/mpesa/stkpush/v1/processrequest", web::post().to(stand_ins::daraja_push))
        .route("/dev/daraja/mpesa/stkpushquery/v1/query", web::post().to(stand_ins::daraja_query))
        .route("/dev/daraja/mpesa/c2b/{version}/registerurl", web::post().to(stand_ins::daraja_register))
        .route("/dev", web::get().to(pages::index))
        .route("/dev/clock", web::post().to(pages::move_clock))
        .route("/dev/texts", web::get().to(pages::texts))
        .route("/dev/mpesa", web::get().to(pages::mpesa))
        .route("/dev/mpesa/{checkout}/{end}", web::post().to(pages::end_prompt));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prompt(n: usize) -> Prompt {
        Prompt {
            checkout_request_id: format!("ws_CO_{n}"),
            merchant_request_id: format!("m-{n}"),
            phone: "254712345678".to_owned(),
            amount: 450,
            account_reference: "K7M2Q9XA".to_owned(),
            callback_url: "http://127.0.0.1:8080/hooks/payments/prompt/secret".to_owned(),
            asked_at: OffsetDateTime::UNIX_EPOCH,
            end: None,
        }
    }

    #[test]
    fn the_demo_points_every_provider_at_its_own_stand_ins() {
        let env = provider_env("http://127.0.0.1:8080", "demo-secret-0123456789abcdef");
        let configured = crate::config::Settings::from_lookup(|name| {
            (name == "AT_BASE_URL").then(|| "https://api.africastalking.com".to_owned())
        })
        .and_then(|settings| settings.with_providers_from(&env));
        let Ok(demo) = configured else { panic!("the demo's variables are valid: {configured:?}") };
        assert_eq!(demo.sms.base_url, "http://127.0.0.1:8080/dev/at");
        assert_eq!(demo.mpesa.base_url, "http://127.0.0.1:8080/dev/daraja");
        assert_eq!(demo.mail.base_url, "http://127.0.0.1:8080/dev/mail");
        assert!(demo.mpesa.sends_prompts() && demo.sms.missing().is_empty(), "everything is configured");
    }

    #[test]
    fn a_prompt_ends_once_and_the_newest_comes_first() {
        let stand_ins = StandIns::default();
        stand_ins.ask(prompt);
        stand_ins.ask(prompt);

        assert_eq!(stand_ins.end("ws_CO_1", PromptEnd::Cancelled).map(|p| p.end), Some(Some(PromptEnd::Cancelled)));
        assert_eq!(stand_ins.end("ws_CO_1", PromptEnd::Paid("TK".to_owned())), None, "ended already");
        assert_eq!(stand_ins.end("ws_CO_9", PromptEnd::TimedOut), None, "unknown");
        let ids: Vec<_> = stand_ins.prompts().into_iter().map(|p| p.checkout_request_id).collect();
        assert_eq!(ids, ["ws_CO_2", "ws_CO_1"]);
    }

    #[test]
    fn the_oldest_messages_go_first_past_the_limit() {
        let stand_ins = StandIns::default();
        for n in 0..KEPT + 2 {
            stand_ins.land(Landed {
                at: OffsetDateTime::UNIX_EPOCH,
                channel: "Text",
                to: "+254712345678".to_owned(),
                subject: String::new(),
                body: n.to_string(),
            });
        }
        let landed = stand_ins.landed();
        assert_eq!(landed.len(), KEPT);
        assert_eq!(landed[0].body, (KEPT + 1).to_string());
        assert_eq!(landed[KEPT - 1].body, "2");
    }
}
