//! The SMS variables: Africa's Talking's (`AT_*`) and the pickup letter's and callbacks'
//! (`LAUNDRY_SMS_*`). Each is optional; one that is set is checked.

use super::{ConfigError, invalid, is_token, is_web_address, whole_number};
use crate::domain::SmsLimits;
use crate::sms::{LIVE_API, REPLIES_PER_DAY, REPLY_MONTHS, SmsSettings};
use secrecy::SecretString;

pub(super) fn sms_settings(lookup: &impl Fn(&str) -> Option<String>) -> Result<SmsSettings, ConfigError> {
    let get = |name: &str| lookup(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    let base_url = get("AT_BASE_URL").unwrap_or_else(|| LIVE_API.to_owned());
    if !is_web_address(&base_url) {
        return Err(invalid("AT_BASE_URL", &base_url, "expected an http:// or https:// address"));
    }
    let username = get("AT_USERNAME");
    if let Some(name) =
        username.as_deref().filter(|name| name.len() > 100 || !name.bytes().all(|b| b.is_ascii_graphic()))
    {
        return Err(invalid("AT_USERNAME", name, "expected the application's username, no spaces"));
    }
    let api_key = get("AT_API_KEY");
    if api_key.as_deref().is_some_and(|key| key.len() > 200 || !key.bytes().all(|b| b.is_ascii_graphic())) {
        // A secret: not repeated in the message.
        return Err(invalid("AT_API_KEY", "(hidden)", "expected letters, digits and punctuation, no spaces"));
    }
    let sender_id = get("AT_SENDER_ID");
    // Africa's Talking: an alphanumeric sender ID of at most 11 characters, or a short code.
    if let Some(id) = sender_id.as_deref().filter(|id| id.len() > 11 || !id.bytes().all(|b| b.is_ascii_alphanumeric()))
    {
        return Err(invalid("AT_SENDER_ID", id, "expected a registered sender ID: at most 11 letters and digits"));
    }
    let shortcode = get("AT_SHORTCODE");
    if let Some(code) =
        shortcode.as_deref().filter(|code| !(3..=15).contains(&code.len()) || !code.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(invalid("AT_SHORTCODE", code, "expected the number customers text, digits only, like 22384"));
    }
    let letter = get("LAUNDRY_SMS_PICKUP_LETTER").unwrap_or_else(|| "P".to_owned());
    let pickup_letter = match letter.chars().collect::<Vec<_>>()[..] {
        [c] if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
        _ => return Err(invalid("LAUNDRY_SMS_PICKUP_LETTER", &letter, "expected one letter, A to Z")),
    };
    let hook_secret = get("LAUNDRY_SMS_HOOK_SECRET");
    if hook_secret.as_deref().is_some_and(|secret| !is_token(secret)) {
        return Err(invalid(
            "LAUNDRY_SMS_HOOK_SECRET",
            "(hidden)",
            "expected 24 to 200 letters, digits, '-' or '_' (for example: openssl rand -hex 20)",
        ));
    }
    let whole = |name: &'static str, default: u32, range: std::ops::RangeInclusive<u32>, reason: &'static str| {
        get(name).map_or(Ok(default), |value| whole_number(name, &value, range, reason))
    };
    let reply_months = whole(
        "LAUNDRY_SMS_REPLY_MONTHS",
        REPLY_MONTHS,
        1..=60,
        "expected a whole number of months from 1 to 60: replies go only to numbers with an order in that time",
    )?;
    let replies_per_day = whole(
        "LAUNDRY_SMS_REPLIES_PER_DAY",
        REPLIES_PER_DAY,
        0..=20,
        "expected a whole number from 0 (no automatic replies) to 20: the automatic replies one number gets a day",
    )?;
    let limits = sms_limits(&get)?;
    Ok(SmsSettings {
        base_url: base_url.trim_end_matches('/').to_owned(),
        username,
        api_key: api_key.map(SecretString::from),
        sender_id,
        shortcode,
        pickup_letter,
        hook_secret: hook_secret.map(SecretString::from),
        reply_months,
        replies_per_day,
        limits,
    })
}

/// `LAUNDRY_SMS_PER_PHONE_PER_HOUR`, `LAUNDRY_SMS_SERVICE_PER_PHONE_PER_HOUR` and
/// `LAUNDRY_SMS_DAILY_BUDGET`: whole numbers from 1 to a million, the replies' limit not above the
/// cap of all texts.
fn sms_limits(get: &impl Fn(&str) -> Option<String>) -> Result<SmsLimits, ConfigError> {
    let count = |name: &'static str, default: u32, reason: &'static str| -> Result<u32, ConfigError> {
        get(name).map_or(Ok(default), |value| whole_number(name, &value, 1..=1_000_000, reason))
    };
    let per_phone = count(
        "LAUNDRY_SMS_PER_PHONE_PER_HOUR",
        SmsLimits::PER_PHONE_PER_HOUR,
        "expected how many replies to texts one phone may get in an hour: a whole number from 1 to 1000000",
    )?;
    let service = count(
        "LAUNDRY_SMS_SERVICE_PER_PHONE_PER_HOUR",
        SmsLimits::SERVICE_PER_PHONE_PER_HOUR,
        "expected how many texts of any kind, order texts included, one phone may get in an hour: a whole number from 1 to 1000000",
    )?;
    if per_phone > service {
        return Err(invalid(
            "LAUNDRY_SMS_PER_PHONE_PER_HOUR",
            &per_phone.to_string(),
            "expected at most LAUNDRY_SMS_SERVICE_PER_PHONE_PER_HOUR (default 8), the cap of all texts to one phone in an hour",
        ));
    }
    let budget = count(
        "LAUNDRY_SMS_DAILY_BUDGET",
        SmsLimits::DAILY_BUDGET,
        "expected how many texts the shop may send in a Nairobi day: a whole number from 1 to 1000000",
    )?;
    Ok(SmsLimits { per_phone_per_hour: per_phone, service_per_phone_per_hour: service, daily_budget: budget })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::collections::HashMap;

    fn sms(vars: &[(&str, &str)]) -> Result<SmsSettings, ConfigError> {
        let env: HashMap<String, String> = vars.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        sms_settings(&|name: &str| env.get(name).cloned())
    }

    #[test]
    fn unset_texts_wait_and_pickup_by_text_is_not_offered() {
        let settings = sms(&[]).unwrap();
        assert_eq!(settings.missing(), vec!["AT_USERNAME", "AT_API_KEY"]);
        assert_eq!(settings.base_url, LIVE_API);
        assert_eq!(settings.pickup_letter, 'P');
        assert_eq!((settings.reply_months, settings.replies_per_day), (6, 3));
        assert!(!settings.takes_pickups_by_text());
        let settings = sms(&[("LAUNDRY_SMS_REPLY_MONTHS", " 12 "), ("LAUNDRY_SMS_REPLIES_PER_DAY", "0")]).unwrap();
        assert_eq!((settings.reply_months, settings.replies_per_day), (12, 0));
    }

    #[test]
    fn each_bad_value_names_its_variable_and_hides_secrets() {
        for (name, value) in [
            ("AT_BASE_URL", "api.africastalking.com"),
            ("AT_SENDER_ID", "USAFI EXPRESS"),
            ("AT_SHORTCODE", "+254 22384"),
            ("LAUNDRY_SMS_PICKUP_LETTER", "PP"),
            ("LAUNDRY_SMS_PICKUP_LETTER", "7"),
            ("LAUNDRY_SMS_HOOK_SECRET", "short"),
            ("AT_API_KEY", "has space"),
            ("LAUNDRY_SMS_REPLY_MONTHS", "0"),
            ("LAUNDRY_SMS_REPLY_MONTHS", "six"),
            ("LAUNDRY_SMS_REPLY_MONTHS", "61"),
            ("LAUNDRY_SMS_REPLIES_PER_DAY", "-1"),
            ("LAUNDRY_SMS_REPLIES_PER_DAY", "21"),
            ("LAUNDRY_SMS_PER_PHONE_PER_HOUR", "0"),
            ("LAUNDRY_SMS_PER_PHONE_PER_HOUR", "three"),
            ("LAUNDRY_SMS_SERVICE_PER_PHONE_PER_HOUR", "-6"),
            ("LAUNDRY_SMS_DAILY_BUDGET", "0"),
            ("LAUNDRY_SMS_DAILY_BUDGET", "1.5"),
        ] {
            let error = sms(&[(name, value)]).unwrap_err().to_string();
            assert!(error.starts_with(name), "{name}={value}: {error}");
        }
        let error = sms(&[("AT_API_KEY", "secret key")]).unwrap_err().to_string();
        assert!(!error.contains("secret key"), "{error}");
    }

    #[test]
    fn the_limits_default_to_a_small_shops_and_the_replies_limit_stays_under_the_cap() {
        assert_eq!(
            sms(&[]).unwrap().limits,
            SmsLimits { per_phone_per_hour: 3, service_per_phone_per_hour: 8, daily_budget: 500 }
        );
        let set = sms(&[
            ("LAUNDRY_SMS_PER_PHONE_PER_HOUR", "2"),
            ("LAUNDRY_SMS_SERVICE_PER_PHONE_PER_HOUR", " 4 "),
            ("LAUNDRY_SMS_DAILY_BUDGET", "1200"),
        ])
        .unwrap();
        assert_eq!(set.limits, SmsLimits { per_phone_per_hour: 2, service_per_phone_per_hour: 4, daily_budget: 1200 });
        let error = sms(&[("LAUNDRY_SMS_PER_PHONE_PER_HOUR", "9")]).unwrap_err().to_string();
        assert!(error.starts_with("LAUNDRY_SMS_PER_PHONE_PER_HOUR") && error.contains("at most"), "{error}");
    }

    #[test]
    fn a_full_configuration_takes_pickups_by_text_with_its_letter() {
        let settings = sms(&[
            ("AT_BASE_URL", "https://api.sandbox.africastalking.com/"),
            ("AT_USERNAME", "sandbox"),
            ("AT_API_KEY", "atsk_0123456789"),
            ("AT_SHORTCODE", "22384"),
            ("LAUNDRY_SMS_PICKUP_LETTER", " u "),
            ("LAUNDRY_SMS_HOOK_SECRET", "0123456789abcdef0123456789abcdef"),
        ])
        .unwrap();
        assert_eq!(settings.base_url, "https://api.sandbox.africastalking.com");
        assert_eq!(settings.pickup_letter, 'U');
        assert!(settings.takes_pickups_by_text());
        assert!(!format!("{settings:?}").contains("atsk_0123456789"));
    }
}
