//! One fake of each provider, in its real API's shapes (`../shared/PROVIDERS.md`), checking the
//! credentials as the real one checks them and answering as it answers: Africa's Talking
//! ([`sms::FakeAt`]), the EmailJS-compatible mail API ([`mail::FakeMail`]) and Daraja
//! ([`daraja::FakeDaraja`]). Each records what it received and answers from a script its owner
//! writes (an error status, 429 with `Retry-After`, an answer slower than the caller waits), then
//! as the provider answers a success.
//!
//! The same fakes serve three users (docs/testing.md):
//! - the demo (`laundry serve --demo`) and the browser tests (`laundry serve --fake-providers`):
//!   the server serves [`Fakes`] itself under `/dev/at`, `/dev/mail` and `/dev/daraja`, and points
//!   its settings at them ([`Fakes::env`]); `/dev/texts` and `/dev/mpesa` show what they received,
//!   and `/dev/fakes/…` gives it as JSON ([`control`]);
//! - the API tests: each test starts the fake it needs on a port of its own (`FakeAt::start()`)
//!   and scripts it in process.

pub mod control;
pub mod daraja;
pub mod mail;
pub mod sms;

pub use daraja::{DarajaRequest, FakeDaraja, Prompt, PromptEnd, PushReply, QueryReply};
pub use mail::{FakeMail, MailReply};
pub use sms::{AtReply, FakeAt};

use actix_web::{App, HttpServer, web};
use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Africa's Talking's username the fake takes (`AT_USERNAME`).
pub const AT_USERNAME: &str = "sandbox";
/// Africa's Talking's `apiKey` header the fake takes (`AT_API_KEY`).
pub const AT_API_KEY: &str = "fake-at-api-key";
/// Daraja's consumer key the fake takes (HTTP Basic for the token).
pub const DARAJA_KEY: &str = "fake-consumer-key";
/// Daraja's consumer secret.
pub const DARAJA_SECRET: &str = "fake-consumer-secret";
/// The mail API's private key (`accessToken`) the fake takes.
pub const MAIL_KEY: &str = "fake-mail-private-key";
/// Where staff e-mails go in the fakes' settings ([`Fakes::env`]).
pub const SHOP_EMAIL: &str = "shop@example.com";

/// How many requests each fake keeps (the oldest go first): a demo left running for weeks stays
/// small.
const KEPT: usize = 1000;

/// The three fakes, as one server serves them.
#[derive(Clone, Default)]
pub struct Fakes {
    /// Africa's Talking.
    pub at: FakeAt,
    /// The mail API.
    pub mail: FakeMail,
    /// Daraja.
    pub daraja: FakeDaraja,
}

impl Fakes {
    /// Serves the three under `/dev/at`, `/dev/mail` and `/dev/daraja`, and their JSON under
    /// `/dev/fakes` ([`control`]).
    pub fn routes(&self, config: &mut web::ServiceConfig) {
        config
            .service(web::scope("/dev/at").configure(|scope| self.at.routes(scope)))
            .service(web::scope("/dev/mail").configure(|scope| self.mail.routes(scope)))
            .service(web::scope("/dev/daraja").configure(|scope| self.daraja.routes(scope)))
            .app_data(web::Data::new(self.clone()))
            .configure(control::routes);
    }

    /// The settings that point SMS, M-PESA and mail at the fakes a server at `base` (like
    /// `http://127.0.0.1:8080`) serves, with `secret` in the callbacks' URLs.
    pub fn env(base: &str, secret: &str) -> Vec<(&'static str, String)> {
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
            ("MPESA_TILL", "3552248".to_owned()),
            ("MPESA_PASSKEY", "fake-passkey".to_owned()),
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
}

/// Serves `routes` alone on a free port of 127.0.0.1 (one worker, on the running actix system);
/// its base URL.
///
/// # Panics
/// When no port of 127.0.0.1 can be had: only the tests start a fake alone.
async fn serve_alone(routes: impl Fn(&mut web::ServiceConfig) + Clone + Send + 'static) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port of 127.0.0.1 for a fake");
    let port = listener.local_addr().expect("the fake's own port").port();
    let server = HttpServer::new(move || App::new().configure(routes.clone()))
        .workers(1)
        .disable_signals()
        .listen(listener)
        .expect("the fake serves its port")
        .run();
    actix_web::rt::spawn(server);
    format!("http://127.0.0.1:{port}")
}

/// A fake's record of what arrived and its script of answers.
#[derive(Debug)]
struct Book<R, A> {
    received: Mutex<VecDeque<R>>,
    script: Mutex<VecDeque<A>>,
}

impl<R, A> Default for Book<R, A> {
    fn default() -> Self {
        Self { received: Mutex::default(), script: Mutex::default() }
    }
}

impl<R: Clone, A> Book<R, A> {
    fn record(&self, request: R) {
        let mut received = lock(&self.received);
        if received.len() == KEPT {
            received.pop_front();
        }
        received.push_back(request);
    }

    fn received(&self) -> Vec<R> {
        lock(&self.received).iter().cloned().collect()
    }

    /// Runs `look` on what it keeps, under its lock (to find one, or change it).
    fn with_received<T>(&self, look: impl FnOnce(&mut VecDeque<R>) -> T) -> T {
        look(&mut lock(&self.received))
    }

    fn next_answer(&self) -> Option<A> {
        lock(&self.script).pop_front()
    }

    fn script(&self, answers: impl IntoIterator<Item = A>) {
        lock(&self.script).extend(answers);
    }
}

/// A fake's lock, still usable after a handler panicked while holding it.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A request's headers, names in lower case.
fn headers_of(request: &actix_web::HttpRequest) -> HashMap<String, String> {
    request
        .headers()
        .iter()
        .map(|(name, value)| (name.as_str().to_ascii_lowercase(), value.to_str().unwrap_or_default().to_owned()))
        .collect()
}

/// Polls `have` until it holds `count` items, every 20 ms; fails the test after `within`.
///
/// # Panics
/// After `within`, naming `what` and how many arrived.
async fn wait_for<T>(what: &str, count: usize, within: Duration, have: impl Fn() -> Vec<T>) -> Vec<T> {
    let deadline = Instant::now() + within;
    loop {
        let got = have();
        if got.len() >= count {
            return got;
        }
        assert!(Instant::now() < deadline, "the fake got {} {what}, expected {count}", got.len());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fakes_settings_point_every_provider_at_them() {
        let env = Fakes::env("http://127.0.0.1:8080", "demo-secret-0123456789abcdef");
        let configured = crate::config::Settings::from_lookup(|name| {
            (name == "AT_BASE_URL").then(|| "https://api.africastalking.com".to_owned())
        })
        .and_then(|settings| settings.with_providers_from(&env));
        let Ok(fakes) = configured else { panic!("the fakes' variables are valid: {configured:?}") };
        assert_eq!(fakes.sms.base_url, "http://127.0.0.1:8080/dev/at");
        assert_eq!(fakes.mpesa.base_url, "http://127.0.0.1:8080/dev/daraja");
        assert_eq!(fakes.mail.base_url, "http://127.0.0.1:8080/dev/mail");
        assert!(fakes.mpesa.sends_prompts() && fakes.sms.missing().is_empty(), "everything is configured");
    }

    #[test]
    fn a_book_keeps_the_newest_requests_past_its_limit() {
        let book = Book::<usize, ()>::default();
        for n in 0..KEPT + 2 {
            book.record(n);
        }
        let received = book.received();
        assert_eq!(received.len(), KEPT);
        assert_eq!((received[0], received[KEPT - 1]), (2, KEPT + 1));
    }
}
