//! The M-PESA variables (`MPESA_*`). Each is optional; one that is set is checked.

use super::{ConfigError, invalid, is_token, is_web_address, whole_number};
use crate::domain::PromptLimits;
use crate::domain::catalogue::MPESA_TILL;
use crate::mpesa::{DEFAULT_TIMEOUT, LIVE_API, MpesaSettings};
use secrecy::SecretString;

pub(super) fn mpesa_settings(lookup: &impl Fn(&str) -> Option<String>) -> Result<MpesaSettings, ConfigError> {
    let get = |name: &str| lookup(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    let printable = |text: &str| text.len() <= 200 && text.bytes().all(|b| b.is_ascii_graphic());
    let short_code = |text: &str| (5..=7).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_digit());

    let base_url = get("MPESA_BASE_URL").unwrap_or_else(|| LIVE_API.to_owned());
    if !is_web_address(&base_url) {
        return Err(invalid("MPESA_BASE_URL", &base_url, "expected an http:// or https:// address"));
    }
    let consumer_key = get("MPESA_CONSUMER_KEY");
    if consumer_key.as_deref().is_some_and(|key| !printable(key)) {
        return Err(invalid("MPESA_CONSUMER_KEY", "(hidden)", "expected letters, digits and punctuation, no spaces"));
    }
    let consumer_secret = get("MPESA_CONSUMER_SECRET");
    if consumer_secret.as_deref().is_some_and(|secret| !printable(secret)) {
        return Err(invalid(
            "MPESA_CONSUMER_SECRET",
            "(hidden)",
            "expected letters, digits and punctuation, no spaces",
        ));
    }
    let shortcode = get("MPESA_SHORTCODE");
    if let Some(code) = shortcode.as_deref().filter(|code| !short_code(code)) {
        return Err(invalid("MPESA_SHORTCODE", code, "expected the business short code: 5 to 7 digits, like 174379"));
    }
    let till = get("MPESA_TILL").unwrap_or_else(|| MPESA_TILL.to_owned());
    if !short_code(&till) {
        return Err(invalid("MPESA_TILL", &till, "expected the till number: 5 to 7 digits, like 3552248"));
    }
    let passkey = get("MPESA_PASSKEY");
    if passkey.as_deref().is_some_and(|key| !printable(key)) {
        return Err(invalid("MPESA_PASSKEY", "(hidden)", "expected letters, digits and punctuation, no spaces"));
    }
    let callback_base_url = get("MPESA_CALLBACK_BASE_URL").map(|url| url.trim_end_matches('/').to_owned());
    if let Some(url) = callback_base_url.as_deref().filter(|url| !is_callback_base(url)) {
        return Err(invalid(
            "MPESA_CALLBACK_BASE_URL",
            url,
            "expected the site's public https:// address without a path that names M-PESA or Safaricom",
        ));
    }
    let callback_secret = get("MPESA_CALLBACK_SECRET");
    if callback_secret
        .as_deref()
        .is_some_and(|secret| !is_token(secret) || secret.to_ascii_lowercase().contains("mpesa"))
    {
        return Err(invalid(
            "MPESA_CALLBACK_SECRET",
            "(hidden)",
            "expected 24 to 200 letters, digits, '-' or '_' (for example: openssl rand -hex 20)",
        ));
    }
    let c2b_version = get("MPESA_C2B_VERSION").unwrap_or_else(|| "v1".to_owned());
    if !matches!(c2b_version.as_str(), "v1" | "v2") {
        return Err(invalid("MPESA_C2B_VERSION", &c2b_version, "expected v1 or v2"));
    }
    let request_timeout = match get("MPESA_TIMEOUT_SECONDS") {
        None => DEFAULT_TIMEOUT,
        Some(text) => match text.parse::<u64>() {
            Ok(seconds @ 1..=120) => std::time::Duration::from_secs(seconds),
            _ => return Err(invalid("MPESA_TIMEOUT_SECONDS", &text, "expected whole seconds from 1 to 120")),
        },
    };
    let per_hour = prompts_limit(get("LAUNDRY_PROMPTS_PER_PHONE_PER_HOUR"), "LAUNDRY_PROMPTS_PER_PHONE_PER_HOUR", 3)?;
    let per_day = prompts_limit(get("LAUNDRY_PROMPTS_PER_PHONE_PER_DAY"), "LAUNDRY_PROMPTS_PER_PHONE_PER_DAY", 6)?;
    if per_day < per_hour {
        return Err(invalid(
            "LAUNDRY_PROMPTS_PER_PHONE_PER_DAY",
            &per_day.to_string(),
            "expected at least LAUNDRY_PROMPTS_PER_PHONE_PER_HOUR: a day holds the hour",
        ));
    }
    Ok(MpesaSettings {
        base_url: base_url.trim_end_matches('/').to_owned(),
        consumer_key,
        consumer_secret: consumer_secret.map(SecretString::from),
        shortcode,
        till,
        passkey: passkey.map(SecretString::from),
        callback_base_url,
        callback_secret: callback_secret.map(SecretString::from),
        c2b_version,
        request_timeout,
        prompt_limits: PromptLimits { per_hour, per_day },
    })
}

/// A number of prompts per phone: a whole number from 1 to 100 (`default` when unset).
fn prompts_limit(value: Option<String>, variable: &'static str, default: u32) -> Result<u32, ConfigError> {
    value.map_or(Ok(default), |text| {
        whole_number(variable, &text, 1..=100, "expected a whole number of prompts from 1 to 100")
    })
}

/// Safaricom calls back https:// addresses only (plain http:// is let through for a test on this
/// machine) and refuses ones that contain "mpesa" or "safaricom".
fn is_callback_base(url: &str) -> bool {
    let local = ["http://127.0.0.1", "http://localhost"].iter().any(|prefix| url.starts_with(prefix));
    let lower = url.to_ascii_lowercase();
    (url.starts_with("https://") || local)
        && is_web_address(url)
        && !url.contains(['?', '#'])
        && !lower.contains("mpesa")
        && !lower.contains("safaricom")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::collections::HashMap;

    fn mpesa(vars: &[(&str, &str)]) -> Result<MpesaSettings, ConfigError> {
        let env: HashMap<String, String> = vars.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        mpesa_settings(&|name: &str| env.get(name).cloned())
    }

    #[test]
    fn unset_the_till_instructions_stay_and_the_missing_variables_are_named() {
        let settings = mpesa(&[]).unwrap();
        assert!(!settings.sends_prompts());
        assert_eq!(settings.till, "3552248");
        assert_eq!(settings.missing().len(), 6);
        assert_eq!(settings.callback_url(crate::mpesa::PROMPT_CALLBACK_PATH), None);
    }

    #[test]
    fn each_bad_value_names_its_variable_and_hides_secrets() {
        for (name, value) in [
            ("MPESA_BASE_URL", "sandbox.safaricom.co.ke"),
            ("MPESA_SHORTCODE", "17 43 79"),
            ("MPESA_TILL", "till"),
            ("MPESA_CALLBACK_BASE_URL", "http://laundry.example.com"),
            ("MPESA_CALLBACK_BASE_URL", "https://example.com/mpesa"),
            ("MPESA_CALLBACK_SECRET", "short"),
            ("MPESA_C2B_VERSION", "v3"),
            ("MPESA_TIMEOUT_SECONDS", "0"),
            ("MPESA_PASSKEY", "pass key"),
        ] {
            let error = mpesa(&[(name, value)]).unwrap_err().to_string();
            assert!(error.starts_with(name), "{name}={value}: {error}");
        }
        let error = mpesa(&[("MPESA_PASSKEY", "bfb279f9 aa9bdbcf")]).unwrap_err().to_string();
        assert!(!error.contains("bfb279f9"), "{error}");
    }

    #[test]
    fn the_prompts_per_phone_default_to_three_an_hour_and_six_a_day_and_are_checked() {
        assert_eq!(mpesa(&[]).unwrap().prompt_limits, PromptLimits { per_hour: 3, per_day: 6 });
        let set = mpesa(&[("LAUNDRY_PROMPTS_PER_PHONE_PER_HOUR", "2"), ("LAUNDRY_PROMPTS_PER_PHONE_PER_DAY", "4")]);
        assert_eq!(set.unwrap().prompt_limits, PromptLimits { per_hour: 2, per_day: 4 });
        for (name, value) in [
            ("LAUNDRY_PROMPTS_PER_PHONE_PER_HOUR", "0"),
            ("LAUNDRY_PROMPTS_PER_PHONE_PER_HOUR", "three"),
            ("LAUNDRY_PROMPTS_PER_PHONE_PER_DAY", "101"),
            ("LAUNDRY_PROMPTS_PER_PHONE_PER_DAY", "2"),
        ] {
            let error = mpesa(&[(name, value)]).unwrap_err().to_string();
            assert!(error.starts_with(name), "{name}={value}: {error}");
        }
    }

    #[test]
    fn a_full_configuration_sends_prompts_to_its_callback() {
        let settings = mpesa(&[
            ("MPESA_BASE_URL", "https://sandbox.safaricom.co.ke/"),
            ("MPESA_CONSUMER_KEY", "key"),
            ("MPESA_CONSUMER_SECRET", "consumer-secret"),
            ("MPESA_SHORTCODE", "174379"),
            ("MPESA_PASSKEY", "bfb279f9aa9bdbcf"),
            ("MPESA_CALLBACK_BASE_URL", "https://laundry.example.com/"),
            ("MPESA_CALLBACK_SECRET", "0123456789abcdef0123456789abcdef"),
        ])
        .unwrap();
        assert!(settings.sends_prompts());
        assert_eq!(settings.base_url, "https://sandbox.safaricom.co.ke");
        assert_eq!(
            settings.callback_url(crate::mpesa::PROMPT_CALLBACK_PATH).as_deref(),
            Some("https://laundry.example.com/hooks/payments/prompt/0123456789abcdef0123456789abcdef")
        );
        let shown = format!("{settings:?}");
        assert!(!shown.contains("consumer-secret") && !shown.contains("bfb279f9"), "{shown}");
    }
}
