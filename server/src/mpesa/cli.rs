//! `laundry mpesa register-urls [--shortcode N]`: tells Daraja where the till's confirmations
//! (payments made by hand to the till) and validations are to be sent. Run once per short code,
//! and again whenever `MPESA_CALLBACK_BASE_URL` or `MPESA_CALLBACK_SECRET` changes.

use super::client::{Daraja, DarajaError};
use super::{MpesaSettings, TILL_CONFIRMATION_PATH, TILL_VALIDATION_PATH};
use crate::clock::Clock;
use std::io::Write;
use std::process::ExitCode;

/// The help of `laundry mpesa`.
pub const USAGE: &str = "usage: laundry mpesa register-urls [--shortcode N]\n\n\
Registers the till's confirmation and validation URLs (under MPESA_CALLBACK_BASE_URL, with the\n\
secret MPESA_CALLBACK_SECRET) with Daraja at MPESA_BASE_URL, for the short code MPESA_SHORTCODE\n\
or N, with ResponseType Completed. Needs MPESA_CONSUMER_KEY and MPESA_CONSUMER_SECRET.\n\
Exit status: 0 registered, 1 Daraja refused or could not be reached, 2 a usage or configuration error.";

/// Why the command failed: its message and exit status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliFailure {
    /// What to print on standard error.
    pub message: String,
    /// 1: Daraja refused or could not be reached; 2: usage or configuration.
    pub status: u8,
}

impl CliFailure {
    fn usage(message: impl Into<String>) -> Self {
        Self { message: message.into(), status: 2 }
    }

    /// The process's exit code.
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(self.status)
    }
}

/// The short code to register: `--shortcode N` (or `--shortcode=N`), else `MPESA_SHORTCODE`.
fn shortcode(args: &[&str], settings: &MpesaSettings) -> Result<Option<String>, CliFailure> {
    let given = match args {
        [] => return Ok(settings.shortcode.clone()),
        ["--shortcode", code] => *code,
        [flag] => flag.strip_prefix("--shortcode=").ok_or_else(|| CliFailure::usage(USAGE))?,
        _ => return Err(CliFailure::usage(USAGE)),
    };
    let code = given.trim();
    if (5..=7).contains(&code.len()) && code.bytes().all(|b| b.is_ascii_digit()) {
        Ok(Some(code.to_owned()))
    } else {
        Err(CliFailure::usage(format!("--shortcode {code}: expected the short code, 5 to 7 digits")))
    }
}

/// A callback's address with its secret hidden, for the console.
fn masked(settings: &MpesaSettings, path: &str) -> String {
    format!("{}{path}/***", settings.callback_base_url.as_deref().unwrap_or_default())
}

/// Runs `laundry mpesa …` (`args` after `mpesa`), writing what it did to `out`.
pub async fn run(args: &[&str], settings: &MpesaSettings, out: &mut impl Write) -> Result<(), CliFailure> {
    let ["register-urls", rest @ ..] = args else {
        return match args {
            [] | ["help" | "--help" | "-h"] => writeln!(out, "{USAGE}").map_err(|e| CliFailure::usage(e.to_string())),
            _ => Err(CliFailure::usage(USAGE)),
        };
    };
    let code = shortcode(rest, settings)?;
    let mut missing: Vec<&str> =
        settings.missing().into_iter().filter(|name| !matches!(*name, "MPESA_SHORTCODE" | "MPESA_PASSKEY")).collect();
    if code.is_none() {
        missing.push("MPESA_SHORTCODE (or --shortcode N)");
    }
    let Some(code) = code.filter(|_| missing.is_empty()) else {
        return Err(CliFailure::usage(format!(
            "M-PESA is not configured for register-urls: set {} (see .env.example)",
            missing.join(", ")
        )));
    };
    let confirmation = masked(settings, TILL_CONFIRMATION_PATH);
    let validation = masked(settings, TILL_VALIDATION_PATH);
    let print =
        |out: &mut dyn Write, text: String| writeln!(out, "{text}").map_err(|e| CliFailure::usage(e.to_string()));
    print(out, format!("Registering the till's URLs for short code {code} with {}:", settings.base_url))?;
    print(out, format!("  ConfirmationURL: {confirmation}"))?;
    print(out, format!("  ValidationURL:   {validation}"))?;
    print(out, "  ResponseType:    Completed".to_owned())?;
    let daraja = Daraja::new(settings.clone(), crate::outbox::http_client(), Clock::system());
    match daraja.register_urls(&code, settings.request_timeout).await {
        Ok(answer) => print(out, format!("Daraja answered: {answer}")),
        Err(error) => Err(CliFailure {
            status: if matches!(error, DarajaError::Unconfigured(_)) { 2 } else { 1 },
            message: format!("Daraja did not register the URLs: {error}"),
        }),
    }
}
