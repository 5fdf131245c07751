//! Configuration from the environment. Every variable is checked at start; a bad one stops the
//! server with a message naming it. `.env.example` at the top of the repository lists them all.

mod backup;
mod mail;
mod mpesa;
mod schedule;
mod sms;

use crate::catalogue;
use crate::clock::Clock;
use crate::domain::schedule::Schedule;
use crate::domain::{PhoneNumber, parse_email};
use crate::mail::MailSettings;
use crate::mpesa::MpesaSettings;
use crate::outbox::RetryPolicy;
use crate::sms::SmsSettings;
pub use backup::BackupSettings;
use secrecy::SecretString;
use serde::Serialize;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;
use ts_rs::TS;

/// Everything the server reads from its environment.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Where to listen (`LAUNDRY_ADDR`, default `127.0.0.1:8080`).
    pub addr: SocketAddr,
    /// The built frontend: `manifest.json`, `server/`, `client/` (`LAUNDRY_FRONTEND_DIR`).
    pub frontend_dir: PathBuf,
    /// HTTP workers, and as many rendering engines (`LAUNDRY_WORKERS`, default: one per core).
    pub workers: usize,
    /// Time limit of one server render (`LAUNDRY_RENDER_TIMEOUT_MS`, default 1000).
    pub render_timeout: Duration,
    /// Where the render processes' QuickJS engine keeps the server bundle's compiled bytecode
    /// (`LAUNDRY_SSR_BYTECODE_CACHE`, an absolute directory; unset: no cache, nothing written).
    pub ssr_bytecode_cache: Option<PathBuf>,
    /// The executable started as a render process (not from the environment): `None` is this
    /// server's own; tests, whose process is not the server, name the `laundry` binary.
    pub render_program: Option<PathBuf>,
    /// Whether pages kept in memory are compressed (brotli 11, gzip 9) as they are kept, off the
    /// async workers (true; not from the environment), or when a client first asks for a coding:
    /// tests, whose servers warm every public page and ask for few of them compressed.
    pub compress_pages_at_once: bool,
    /// Whether the server renders every public page before it answers, so that the first visitor
    /// is served from memory (true; not from the environment). Tests switch it off: most never
    /// ask for a public page, and those that do get it rendered on the first request.
    pub warm_pages: bool,
    /// The business details pages show.
    pub business: Business,
    /// `DATABASE_URL`: `sqlite://path` (default `sqlite://data/laundry.db`) or `postgres://…`.
    /// Wrapped: it may hold a password, and is never printed.
    pub database_url: SecretString,
    /// `LAUNDRY_BEHIND_PROXY=true`: take the client address from the last `X-Forwarded-For` entry
    /// (only behind a proxy that sets them; otherwise clients could pick their own address).
    pub behind_proxy: bool,
    /// How many months the outbox keeps a message before the retention job summarises it for its
    /// order and deletes it (`LAUNDRY_KEEP_MESSAGES_MONTHS`, default 12, `forever` for never).
    pub keep_messages_months: Option<u32>,
    /// `LAUNDRY_METRICS_TOKEN`: the Bearer token `GET /metrics` asks for; unset, `/metrics` is off
    /// (404).
    pub metrics_token: Option<SecretString>,
    /// `laundry serve --demo`: a fresh shop, on the fake providers (docs/demo.md).
    pub demo: bool,
    /// `laundry serve --fake-providers` (and the demo): Africa's Talking, Daraja and the mail API
    /// are the fakes of `crate::fakes`, which this server serves itself; `/dev/texts`,
    /// `/dev/mpesa` and `/dev/fakes/…` exist (docs/testing.md). Never for customers.
    pub fake_providers: bool,
    /// Orders and contact messages one client may send per hour (`LAUNDRY_SUBMISSIONS_PER_HOUR`,
    /// default 30): enough for a household or an office behind one address, not for a script
    /// filling the order list and spending the mail quota.
    pub submissions_per_hour: u32,
    /// Order look-ups on /tracking one client may make per 10 minutes
    /// (`LAUNDRY_TRACKING_PER_10_MINUTES`, default 10): a customer checks an order a few times; a
    /// script trying references or phone numbers is stopped.
    pub tracking_per_10_minutes: u32,
    /// How many clients (addresses, IPv6 /64s) each per-client limit remembers
    /// (`LAUNDRY_LIMIT_CLIENTS`, default 100000, about 8 MB a limit): when more arrive, the one seen
    /// longest ago is forgotten, so a flood of addresses never refuses a new customer.
    pub limit_clients: usize,
    /// The public address of this site, for canonical URLs, Open Graph and the sitemap
    /// (`LAUNDRY_BASE_URL`, default `http://127.0.0.1:8080`), without a trailing slash.
    pub base_url: String,
    /// The home page's intro video (`INTRO_VIDEO_URL`, an https:// address or a path); none if unset.
    pub intro_video_url: Option<String>,
    /// KSh off a phone number's first order, the home page banner's offer
    /// (`LAUNDRY_FIRST_ORDER_DISCOUNT_KES`, whole shillings, 0 to 100000; unset or 0: off).
    pub first_order_discount: Option<u32>,
    /// Days after delivery within which a customer may ask for a free re-clean, the home page's
    /// satisfaction guarantee (`LAUNDRY_RECLEAN_DAYS`, 1 to 90, default 7).
    pub reclean_days: u32,
    /// Where garment photos are kept (`LAUNDRY_PHOTOS_DIR`, default `data/photos`, beside the
    /// default database): a folder the server may write, backed up with the database.
    pub photos_dir: PathBuf,
    /// How long an upload may send nothing before it is cut off (`LAUNDRY_UPLOAD_IDLE_SECONDS`, 1
    /// to 300, default 20): a phone on a slow line keeps sending; a stalled one holds a file and
    /// a connection for nothing.
    pub upload_idle: std::time::Duration,
    /// The racks a ready order hangs on (`LAUNDRY_RACKS`, names separated by commas, default
    /// `A1,A2,A3,A4,B1,B2,B3,B4`).
    pub racks: Vec<String>,
    /// Pickup windows, capacities, closed dates, cut-off, turnaround, rush surcharge and minutes
    /// per stop (`LAUNDRY_PICKUP_WINDOWS` and the others of `config::schedule`).
    pub schedule: Schedule,
    /// The daily backup (`LAUNDRY_BACKUP_DIR` and the others of `config::backup`).
    pub backups: BackupSettings,
    /// The mail API and its templates (`EMAILJS_*`, `ADMIN_NOTIFY_EMAIL`).
    pub mail: MailSettings,
    /// Africa's Talking, the pickup letter and the callbacks' secret (`AT_*`, `LAUNDRY_SMS_*`).
    pub sms: SmsSettings,
    /// Daraja, the short code, till and callbacks (`MPESA_*`).
    pub mpesa: MpesaSettings,
    /// When the outbox workers retry (not from the environment; tests shorten it).
    pub outbox_retry: RetryPolicy,
    /// The time the scheduled jobs go by (not from the environment): the system's, or in tests
    /// one the test sets.
    pub clock: Clock,
    /// How often the scheduled jobs look for work due (not from the environment; 30 s, tests
    /// shorten it).
    pub job_poll: Duration,
    /// Whether the scheduled jobs mark late the stops whose window passed with nothing recorded
    /// (not from the environment: on; tests switch it off and run that look themselves, so that
    /// moving their clock past a window changes nothing they did not ask for).
    pub marks_late_stops: bool,
}

/// Business details shown on the pages (spec section 9: `{phone}` and `{email}` are placeholders).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Business {
    /// The trading name; the header's wordmark is made of its words (`BUSINESS_NAME`).
    pub name: String,
    /// Phone number customers call (`BUSINESS_PHONE`).
    pub phone: String,
    /// WhatsApp number, international format (`BUSINESS_WHATSAPP`).
    pub whatsapp: String,
    /// Sales and support e-mail address (`BUSINESS_EMAIL`).
    pub email: String,
    /// Public website address (`BUSINESS_WEBSITE`).
    pub website: String,
    /// Where the shop is (`BUSINESS_LOCATION`).
    pub location: String,
    /// The M-PESA till number customers pay to.
    pub mpesa_till: String,
}

/// A variable that is set but unusable.
#[derive(Debug, thiserror::Error)]
#[error("{variable} is invalid: {reason} (got {value:?})")]
pub struct ConfigError {
    variable: &'static str,
    value: String,
    reason: &'static str,
}

impl Settings {
    /// The other site the intro video comes from (`https://host[:port]`), which the
    /// Content-Security-Policy allows for media only; none when the video is ours or unset.
    pub fn intro_video_origin(&self) -> Option<&str> {
        self.intro_video_url.as_deref().and_then(https_origin)
    }

    /// Reads the process environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Reads settings through `lookup`, so tests can give their own environment.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let var = |name: &'static str, default: &str| -> (&'static str, String) {
            let value = lookup(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
            (name, value.unwrap_or_else(|| default.to_owned()))
        };
        let default_workers = std::thread::available_parallelism().map_or(2, usize::from).to_string();

        let (name, addr) = var("LAUNDRY_ADDR", "127.0.0.1:8080");
        let addr = addr.parse().map_err(|_| invalid(name, &addr, "expected IP:PORT, like 127.0.0.1:8080"))?;
        let (_, frontend_dir) = var("LAUNDRY_FRONTEND_DIR", "frontend/dist");
        let (name, workers_text) = var("LAUNDRY_WORKERS", &default_workers);
        let workers = workers_text
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=64).contains(n))
            .ok_or_else(|| invalid(name, &workers_text, "expected a whole number from 1 to 64"))?;
        let (name, timeout_text) = var("LAUNDRY_RENDER_TIMEOUT_MS", "1000");
        let render_timeout = timeout_text
            .parse::<u64>()
            .ok()
            .filter(|ms| (10..=60_000).contains(ms))
            .map(Duration::from_millis)
            .ok_or_else(|| invalid(name, &timeout_text, "expected milliseconds from 10 to 60000"))?;
        let ssr_bytecode_cache = match var("LAUNDRY_SSR_BYTECODE_CACHE", "") {
            (_, dir) if dir.is_empty() => None,
            (_, dir) if std::path::Path::new(&dir).is_absolute() => Some(PathBuf::from(dir)),
            (name, dir) => {
                return Err(invalid(name, &dir, "expected an absolute directory path, like /var/cache/laundry"));
            }
        };

        let business = Business {
            name: checked(var("BUSINESS_NAME", "Usafi Express Laundry"), |v| v.len() <= 60, "at most 60 characters")?,
            phone: checked(
                var("BUSINESS_PHONE", "+254 700 000 000"),
                is_phone,
                "expected a Kenyan mobile number like +254 700 000 000",
            )?,
            whatsapp: checked(
                var("BUSINESS_WHATSAPP", "+254 700 000 000"),
                is_phone,
                "expected a Kenyan mobile number like +254 700 000 000",
            )?,
            email: checked(var("BUSINESS_EMAIL", "sales@example.com"), is_email, "expected an e-mail address")?,
            website: checked(
                var("BUSINESS_WEBSITE", "https://example.com"),
                is_web_address,
                "expected an address starting with https:// or http://",
            )?,
            location: checked(
                var("BUSINESS_LOCATION", "Example Apartments, Nairobi"),
                |v| v.len() <= 120,
                "at most 120 characters",
            )?,
            mpesa_till: catalogue::MPESA_TILL.to_owned(),
        };
        let intro_video_url = match lookup("INTRO_VIDEO_URL").map(|v| v.trim().to_owned()).filter(|v| !v.is_empty()) {
            Some(url)
                if (https_origin(&url).is_some() && !url.contains(char::is_whitespace))
                    || (url.starts_with('/') && !url.starts_with("//")) =>
            {
                Some(url)
            }
            Some(url) => {
                return Err(invalid(
                    "INTRO_VIDEO_URL",
                    &url,
                    "expected an https:// address or a path like /media/intro.mp4",
                ));
            }
            None => None,
        };
        let base_url = checked(
            var("LAUNDRY_BASE_URL", "http://127.0.0.1:8080"),
            |v| is_web_address(v) && !v.contains(['?', '#']),
            "expected the site's address, like https://laundry.example.com",
        )?
        .trim_end_matches('/')
        .to_owned();
        let (name, database_url) = var("DATABASE_URL", "sqlite://data/laundry.db");
        if !["sqlite://", "postgres://", "postgresql://"].iter().any(|scheme| database_url.starts_with(scheme)) {
            return Err(invalid(name, &crate::db::redact(&database_url), "expected sqlite://PATH or postgres://…"));
        }
        let (name, proxy) = var("LAUNDRY_BEHIND_PROXY", "false");
        let behind_proxy = match proxy.as_str() {
            "true" | "1" | "yes" => true,
            "false" | "0" | "no" => false,
            _ => return Err(invalid(name, &proxy, "expected true or false")),
        };
        let submissions_per_hour = limit(var("LAUNDRY_SUBMISSIONS_PER_HOUR", "30"))?;
        let tracking_per_10_minutes = limit(var("LAUNDRY_TRACKING_PER_10_MINUTES", "10"))?;
        let (name, clients) = var("LAUNDRY_LIMIT_CLIENTS", "100000");
        let limit_clients =
            whole_number(name, &clients, 10..=10_000_000, "expected a whole number of clients from 10 to 10000000")?
                as usize;
        let (name, discount) = var("LAUNDRY_FIRST_ORDER_DISCOUNT_KES", "0");
        let first_order_discount = match discount.parse::<u32>() {
            Ok(0) => None,
            Ok(shillings) if shillings <= 100_000 => Some(shillings),
            _ => return Err(invalid(name, &discount, "expected whole shillings from 0 (off) to 100000")),
        };
        let (name, days) = var("LAUNDRY_RECLEAN_DAYS", &crate::domain::DEFAULT_RECLEAN_DAYS.to_string());
        let reclean_days = days
            .parse::<u32>()
            .ok()
            .filter(|days| (1..=90).contains(days))
            .ok_or_else(|| invalid(name, &days, "expected a whole number of days from 1 to 90"))?;
        let (_, photos_dir) = var("LAUNDRY_PHOTOS_DIR", "data/photos");
        let (name, idle) = var("LAUNDRY_UPLOAD_IDLE_SECONDS", "20");
        let upload_idle = idle
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|seconds| (1..=300).contains(seconds))
            .map(std::time::Duration::from_secs)
            .ok_or_else(|| invalid(name, &idle, "expected a whole number of seconds from 1 to 300"))?;
        let (name, racks) = var("LAUNDRY_RACKS", crate::domain::garment::DEFAULT_RACKS);
        let racks = crate::domain::garment::parse_racks(&racks).map_err(|reason| invalid(name, &racks, reason))?;
        let (name, months) = var("LAUNDRY_KEEP_MESSAGES_MONTHS", "12");
        let keep_messages_months = match months.trim() {
            "forever" => None,
            text => Some(text.parse::<u32>().ok().filter(|months| (1..=120).contains(months)).ok_or_else(|| {
                invalid(name, &months, "expected a whole number of months from 1 to 120, or forever")
            })?),
        };
        let metrics_token = match lookup("LAUNDRY_METRICS_TOKEN").map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
        {
            Some(token) if is_token(&token) => Some(SecretString::from(token)),
            Some(_) => {
                return Err(invalid(
                    "LAUNDRY_METRICS_TOKEN",
                    "(hidden)",
                    "expected 24 to 200 letters, digits, '-' or '_' (for example: openssl rand -hex 20)",
                ));
            }
            None => None,
        };
        let mail = mail::mail_settings(&lookup)?;
        let sms = sms::sms_settings(&lookup)?;
        let mpesa = mpesa::mpesa_settings(&lookup)?;
        let business = Business { mpesa_till: mpesa.till.clone(), ..business };
        let schedule = schedule::schedule(&lookup)?;
        let backups = backup::backup_settings(&lookup)?;
        Ok(Self {
            schedule,
            backups,
            keep_messages_months,
            metrics_token,
            demo: false,
            fake_providers: false,
            submissions_per_hour,
            tracking_per_10_minutes,
            limit_clients,
            mail,
            sms,
            mpesa,
            outbox_retry: RetryPolicy::default(),
            clock: Clock::system(),
            job_poll: Duration::from_secs(30),
            marks_late_stops: true,
            addr,
            database_url: SecretString::from(database_url),
            behind_proxy,
            frontend_dir: PathBuf::from(frontend_dir),
            workers,
            render_timeout,
            ssr_bytecode_cache,
            render_program: None,
            compress_pages_at_once: true,
            warm_pages: true,
            business,
            base_url,
            intro_video_url,
            first_order_discount,
            reclean_days,
            photos_dir: PathBuf::from(photos_dir),
            upload_idle,
            racks,
        })
    }
}

impl Settings {
    /// These settings with the SMS, M-PESA and mail variables read again from `env` alone (the
    /// fake providers: `fakes::Fakes::env`), checked as at start.
    pub fn with_providers_from(self, env: &[(&str, String)]) -> Result<Self, ConfigError> {
        let lookup = |name: &str| env.iter().find(|(key, _)| *key == name).map(|(_, value)| value.clone());
        let mpesa = mpesa::mpesa_settings(&lookup)?;
        let business = Business { mpesa_till: mpesa.till.clone(), ..self.business };
        Ok(Self { mail: mail::mail_settings(&lookup)?, sms: sms::sms_settings(&lookup)?, mpesa, business, ..self })
    }
}

/// A per-client limit: a whole number from 1 to 1,000,000.
fn limit((variable, value): (&'static str, String)) -> Result<u32, ConfigError> {
    whole_number(variable, &value, 1..=1_000_000, "expected a whole number from 1 to 1000000")
}

/// `value` of `variable` as a whole number within `range`, or the error saying `reason`.
pub(super) fn whole_number(
    variable: &'static str,
    value: &str,
    range: std::ops::RangeInclusive<u32>,
    reason: &'static str,
) -> Result<u32, ConfigError> {
    value.parse::<u32>().ok().filter(|n| range.contains(n)).ok_or_else(|| invalid(variable, value, reason))
}

/// The whole number the variable `name` holds within `range` ([`whole_number`]), or `default`
/// when it is unset or blank.
pub(super) fn whole_number_or(
    lookup: &impl Fn(&str) -> Option<String>,
    name: &'static str,
    range: std::ops::RangeInclusive<u32>,
    reason: &'static str,
    default: u32,
) -> Result<u32, ConfigError> {
    match lookup(name).map(|value| value.trim().to_owned()).filter(|value| !value.is_empty()) {
        None => Ok(default),
        Some(text) => whole_number(name, &text, range, reason),
    }
}

/// A secret of ours that a URL or a header carries: 24 to 200 letters, digits, '-' or '_'.
pub(super) fn is_token(text: &str) -> bool {
    (24..=200).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn invalid(variable: &'static str, value: &str, reason: &'static str) -> ConfigError {
    ConfigError { variable, value: value.to_owned(), reason }
}

fn checked(
    (variable, value): (&'static str, String),
    valid: impl Fn(&str) -> bool,
    reason: &'static str,
) -> Result<String, ConfigError> {
    if valid(&value) { Ok(value) } else { Err(invalid(variable, &value, reason)) }
}

/// A Kenyan mobile number, as the order form accepts them (customers call and WhatsApp it).
fn is_phone(value: &str) -> bool {
    PhoneNumber::parse(value).is_ok()
}

/// An e-mail address, as the forms accept them.
fn is_email(value: &str) -> bool {
    parse_email(value).is_ok()
}

/// The origin (`https://host[:port]`) of an https:// address whose host holds only letters, digits,
/// dots and hyphens (so that it can stand in a Content-Security-Policy as it is); none otherwise.
fn https_origin(url: &str) -> Option<&str> {
    const SCHEME: &str = "https://";
    let rest = url.strip_prefix(SCHEME)?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let (host, port) = authority.split_once(':').unwrap_or((authority, "443"));
    let host_ok = !host.is_empty() && host.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-'));
    let port_ok = !port.is_empty() && port.len() <= 5 && port.chars().all(|c| c.is_ascii_digit());
    (host_ok && port_ok).then(|| &url[..SCHEME.len() + end])
}

fn is_web_address(value: &str) -> bool {
    let rest = value.strip_prefix("https://").or_else(|| value.strip_prefix("http://"));
    rest.is_some_and(|host| !host.is_empty() && !host.contains(char::is_whitespace))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use secrecy::ExposeSecret;
    use std::collections::HashMap;

    fn settings(vars: &[(&str, &str)]) -> Result<Settings, ConfigError> {
        let env: HashMap<String, String> = vars.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        Settings::from_lookup(|name| env.get(name).cloned())
    }

    #[test]
    fn an_empty_environment_gives_the_clearly_fake_defaults() {
        let settings = settings(&[]).unwrap();
        assert_eq!(settings.addr.to_string(), "127.0.0.1:8080");
        assert_eq!(settings.business.email, "sales@example.com");
        assert_eq!(settings.business.mpesa_till, "3552248");
    }

    #[test]
    fn the_metrics_token_is_off_unless_set_and_a_weak_one_is_refused_unseen() {
        assert!(settings(&[]).unwrap().metrics_token.is_none());
        let token = "metrics-0123456789abcdef0123";
        assert_eq!(
            settings(&[("LAUNDRY_METRICS_TOKEN", token)]).unwrap().metrics_token.map(|t| t.expose_secret().to_owned()),
            Some(token.to_owned())
        );
        for weak in ["secret", "has spaces in it but is long enough"] {
            let error = settings(&[("LAUNDRY_METRICS_TOKEN", weak)]).unwrap_err().to_string();
            assert!(error.starts_with("LAUNDRY_METRICS_TOKEN is invalid"), "{error}");
            assert!(!error.contains(weak), "the token is not repeated: {error}");
        }
    }

    #[test]
    fn a_bad_address_names_the_variable() {
        let error = settings(&[("LAUNDRY_ADDR", "localhost")]).unwrap_err().to_string();
        assert!(error.starts_with("LAUNDRY_ADDR is invalid"), "{error}");
    }

    #[test]
    fn a_phone_number_with_letters_is_refused() {
        let error = settings(&[("BUSINESS_PHONE", "call us")]).unwrap_err().to_string();
        assert!(error.contains("BUSINESS_PHONE"), "{error}");
    }

    #[test]
    fn an_email_without_a_domain_is_refused() {
        assert!(settings(&[("BUSINESS_EMAIL", "sales@")]).is_err());
        assert!(settings(&[("BUSINESS_EMAIL", "sales@shop.co.ke")]).is_ok());
    }

    #[test]
    fn the_base_url_loses_its_trailing_slash_and_must_be_an_address() {
        assert_eq!(
            settings(&[("LAUNDRY_BASE_URL", "https://laundry.example.com/")]).unwrap().base_url,
            "https://laundry.example.com"
        );
        assert!(settings(&[("LAUNDRY_BASE_URL", "laundry.example.com")]).is_err());
    }

    #[test]
    fn zero_workers_is_refused() {
        assert!(settings(&[("LAUNDRY_WORKERS", "0")]).is_err());
    }

    #[test]
    fn the_submission_limit_is_a_positive_whole_number() {
        assert_eq!(settings(&[]).unwrap().submissions_per_hour, 30);
        assert_eq!(settings(&[]).unwrap().tracking_per_10_minutes, 10);
        assert_eq!(settings(&[("LAUNDRY_TRACKING_PER_10_MINUTES", "40")]).unwrap().tracking_per_10_minutes, 40);
        assert_eq!(settings(&[]).unwrap().keep_messages_months, Some(12));
        assert_eq!(settings(&[("LAUNDRY_KEEP_MESSAGES_MONTHS", "forever")]).unwrap().keep_messages_months, None);
        assert_eq!(settings(&[("LAUNDRY_KEEP_MESSAGES_MONTHS", "3")]).unwrap().keep_messages_months, Some(3));
        for bad in ["0", "121", "-1", "a year"] {
            let error = settings(&[("LAUNDRY_KEEP_MESSAGES_MONTHS", bad)]).unwrap_err().to_string();
            assert!(error.contains("LAUNDRY_KEEP_MESSAGES_MONTHS"), "{error}");
        }
        assert!(settings(&[("LAUNDRY_TRACKING_PER_10_MINUTES", "0")]).is_err());
        assert_eq!(settings(&[]).unwrap().limit_clients, 100_000);
        assert_eq!(settings(&[("LAUNDRY_LIMIT_CLIENTS", "500")]).unwrap().limit_clients, 500);
        for bad in ["0", "9", "lots", "20000000"] {
            let error = settings(&[("LAUNDRY_LIMIT_CLIENTS", bad)]).unwrap_err().to_string();
            assert!(error.contains("LAUNDRY_LIMIT_CLIENTS") && error.contains("from 10 to 10000000"), "{error}");
        }
        assert_eq!(settings(&[]).unwrap().first_order_discount, None);
        assert_eq!(settings(&[]).unwrap().reclean_days, 7);
        assert_eq!(settings(&[("LAUNDRY_RECLEAN_DAYS", "14")]).unwrap().reclean_days, 14);
        for bad in ["0", "91", "seven", "-1"] {
            let error = settings(&[("LAUNDRY_RECLEAN_DAYS", bad)]).unwrap_err();
            assert_eq!(error.variable, "LAUNDRY_RECLEAN_DAYS", "{bad}");
        }
        assert_eq!(settings(&[("LAUNDRY_FIRST_ORDER_DISCOUNT_KES", "250")]).unwrap().first_order_discount, Some(250));
        assert!(settings(&[("LAUNDRY_FIRST_ORDER_DISCOUNT_KES", "-5")]).is_err());
        assert_eq!(settings(&[("LAUNDRY_SUBMISSIONS_PER_HOUR", "120")]).unwrap().submissions_per_hour, 120);
        for bad in ["0", "-1", "lots", "2.5"] {
            let error = settings(&[("LAUNDRY_SUBMISSIONS_PER_HOUR", bad)]).unwrap_err().to_string();
            assert!(error.contains("LAUNDRY_SUBMISSIONS_PER_HOUR"), "{error}");
        }
    }

    #[test]
    fn an_intro_video_on_another_site_must_be_https_with_a_plain_host() {
        let video = |url: &str| settings(&[("INTRO_VIDEO_URL", url)]);
        let settings = video("https://cdn.example.com:8443/media/intro.mp4?v=2").unwrap();
        assert_eq!(settings.intro_video_origin(), Some("https://cdn.example.com:8443"));
        assert_eq!(video("/media/intro.mp4").unwrap().intro_video_origin(), None);
        for bad in [
            "http://cdn.example.com/intro.mp4",
            "https://cdn.example.com;script-src*/intro.mp4",
            "https://user@cdn.example.com/intro.mp4",
            "https:///intro.mp4",
            "//cdn.example.com/intro.mp4",
        ] {
            let error = video(bad).unwrap_err().to_string();
            assert!(error.contains("INTRO_VIDEO_URL"), "{bad}: {error}");
        }
    }
}
