//! E-mail notifications through an EmailJS-compatible API, from the outbox.
//!
//! An order or message writes its e-mails to the outbox in the same transaction as itself
//! (`notify::email` builds them, `models::outbox` stores them), so nothing is lost and placing an order never waits for the mail API. The
//! outbox worker of the e-mail channel sends them through [`client`], at the mail API's documented
//! limit of one request per second for all instances together.

pub mod client;

use crate::domain::{Channel, MessageKind};
use crate::outbox::{Body, Envelope, Outcome, Sender};
use secrecy::SecretString;
use serde_json::Value;
use std::fmt;
use std::time::Duration;

/// The mail configuration (`EMAILJS_*`, `ADMIN_NOTIFY_EMAIL`).
#[derive(Clone)]
pub struct MailSettings {
    /// `EMAILJS_BASE_URL`, default `https://api.emailjs.com`, without a trailing slash.
    pub base_url: String,
    /// `EMAILJS_SERVICE_ID`.
    pub service_id: Option<String>,
    /// `EMAILJS_PUBLIC_KEY` (sent as `user_id`).
    pub public_key: Option<String>,
    /// `EMAILJS_PRIVATE_KEY` (sent as `accessToken`). Never printed: see the `Debug` impl.
    pub private_key: Option<SecretString>,
    /// `EMAILJS_ORDER_TEMPLATE_ID`: the admin's and the customer's order e-mails.
    pub order_template: Option<String>,
    /// `EMAILJS_CONTACT_TEMPLATE_ID`: the admin's e-mail about a contact message.
    pub contact_template: Option<String>,
    /// `EMAILJS_STATUS_TEMPLATE_ID`: the customer's e-mail when staff change an order's status.
    pub status_template: Option<String>,
    /// `ADMIN_NOTIFY_EMAIL`: the staff address that receives the admin e-mails.
    pub admin_email: Option<String>,
}

impl fmt::Debug for MailSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MailSettings")
            .field("base_url", &self.base_url)
            .field("service_id", &self.service_id)
            .field("public_key", &self.public_key)
            .field("private_key", &self.private_key.as_ref().map(|_| "***"))
            .field("order_template", &self.order_template)
            .field("contact_template", &self.contact_template)
            .field("status_template", &self.status_template)
            .field("admin_email", &self.admin_email)
            .finish()
    }
}

impl MailSettings {
    /// The variables still missing before any e-mail can be sent; empty when configured.
    pub fn missing(&self) -> Vec<&'static str> {
        let mut missing = Vec::new();
        for (name, set) in [
            ("EMAILJS_SERVICE_ID", self.service_id.is_some()),
            ("EMAILJS_PUBLIC_KEY", self.public_key.is_some()),
            ("EMAILJS_PRIVATE_KEY", self.private_key.is_some()),
            ("EMAILJS_ORDER_TEMPLATE_ID", self.order_template.is_some()),
            ("EMAILJS_CONTACT_TEMPLATE_ID", self.contact_template.is_some()),
            ("ADMIN_NOTIFY_EMAIL", self.admin_email.is_some()),
        ] {
            if !set {
                missing.push(name);
            }
        }
        missing
    }

    /// The template of an e-mail of this kind, if configured.
    pub fn template(&self, kind: MessageKind) -> Option<&str> {
        match kind {
            MessageKind::OrderAdmin | MessageKind::OrderCustomer => self.order_template.as_deref(),
            MessageKind::Contact => self.contact_template.as_deref(),
            // The slot's e-mail reads as a status update: its `status_label` names the window.
            MessageKind::OrderStatus | MessageKind::SlotConfirmed => self.status_template.as_deref(),
            // Texts are not e-mails.
            _ => None,
        }
    }
}

impl Sender for MailSettings {
    const CHANNEL: Channel = Channel::Email;
    const API: &'static str = "the mail API";
    const PACE: Duration = Duration::from_secs(1);

    fn missing(&self) -> Vec<&'static str> {
        MailSettings::missing(self)
    }

    fn base_url(&self) -> &str {
        &self.base_url
    }

    async fn send(&self, http: &reqwest::Client, message: &Envelope, timeout: Duration) -> Outcome {
        let kind = message.kind;
        let Some(template) = self.template(kind) else {
            return Outcome::Unsendable("EMAILJS_STATUS_TEMPLATE_ID is not set".to_owned());
        };
        let Body::Template(params) = &message.body else {
            return Outcome::Unsendable("an e-mail without template parameters".to_owned());
        };
        let mut params = params.clone();
        let to = if kind.to_staff() { self.admin_email.clone() } else { message.to.clone() };
        params["to_email"] = Value::from(to.unwrap_or_default());
        client::send(http, self, template, &params, timeout).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_private_key_is_never_printed() {
        let settings = MailSettings {
            base_url: "https://api.emailjs.com".to_owned(),
            service_id: Some("service_x".to_owned()),
            public_key: Some("public".to_owned()),
            private_key: Some(SecretString::from("very-secret-key")),
            order_template: None,
            contact_template: None,
            status_template: None,
            admin_email: None,
        };
        let printed = format!("{settings:?}");
        assert!(!printed.contains("very-secret-key"), "{printed}");
        assert!(printed.contains("***"));
        assert_eq!(
            settings.missing(),
            vec!["EMAILJS_ORDER_TEMPLATE_ID", "EMAILJS_CONTACT_TEMPLATE_ID", "ADMIN_NOTIFY_EMAIL"]
        );
    }
}
