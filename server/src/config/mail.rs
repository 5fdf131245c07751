//! The mail API's variables: `EMAILJS_*` and `ADMIN_NOTIFY_EMAIL`.

use super::{ConfigError, invalid, is_email, is_web_address};
use crate::mail::MailSettings;
use secrecy::SecretString;

/// `EMAILJS_*` and `ADMIN_NOTIFY_EMAIL`: each optional, but checked when set.
pub(super) fn mail_settings(lookup: &impl Fn(&str) -> Option<String>) -> Result<MailSettings, ConfigError> {
    let get = |name: &str| lookup(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    let token = |name: &'static str| -> Result<Option<String>, ConfigError> {
        match get(name) {
            Some(value) if value.len() > 200 || !value.bytes().all(|b| b.is_ascii_graphic()) => {
                // The value may be a secret: not repeated in the message.
                Err(invalid(name, "(hidden)", "expected letters, digits and punctuation, no spaces"))
            }
            other => Ok(other),
        }
    };
    let base_url = get("EMAILJS_BASE_URL").unwrap_or_else(|| "https://api.emailjs.com".to_owned());
    if !is_web_address(&base_url) {
        return Err(invalid("EMAILJS_BASE_URL", &base_url, "expected an http:// or https:// address"));
    }
    let admin_email = get("ADMIN_NOTIFY_EMAIL");
    if let Some(email) = admin_email.as_deref().filter(|email| !is_email(email)) {
        return Err(invalid("ADMIN_NOTIFY_EMAIL", email, "expected an e-mail address"));
    }
    Ok(MailSettings {
        base_url: base_url.trim_end_matches('/').to_owned(),
        service_id: token("EMAILJS_SERVICE_ID")?,
        public_key: token("EMAILJS_PUBLIC_KEY")?,
        private_key: token("EMAILJS_PRIVATE_KEY")?.map(SecretString::from),
        order_template: token("EMAILJS_ORDER_TEMPLATE_ID")?,
        contact_template: token("EMAILJS_CONTACT_TEMPLATE_ID")?,
        status_template: token("EMAILJS_STATUS_TEMPLATE_ID")?,
        admin_email,
    })
}
