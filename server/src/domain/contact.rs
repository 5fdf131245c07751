//! A contact message as submitted and as accepted (spec section 5: name, email, subject and message
//! required; phone optional).

use super::phone::PhoneNumber;
use super::text::{self, FieldErrors};
use super::text_enum::text_enum;
use serde::Deserialize;
use sha2::{Digest, Sha256};

text_enum! {
    /// Where a contact message stands: 'new' on creation (spec section 3), then handled by staff.
    pub enum MessageStatus {
        /// Not answered yet.
        New = "new",
        /// Staff dealt with it.
        Handled = "handled",
    }
}

/// What the contact form sent.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ContactInput {
    /// Full Name.
    pub name: Option<String>,
    /// Email Address.
    pub email: Option<String>,
    /// Phone Number (optional).
    pub phone: Option<String>,
    /// Subject.
    pub subject: Option<String>,
    /// Message.
    pub message: Option<String>,
}

/// A message that passed every rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidContact {
    /// Trimmed.
    pub name: String,
    /// Lower-cased domain.
    pub email: String,
    /// Normal form, if given.
    pub phone: Option<PhoneNumber>,
    /// Trimmed.
    pub subject: String,
    /// Trimmed, line breaks kept.
    pub message: String,
}

impl ValidContact {
    /// A digest of the message and of who sent it (`client`, their address): the same message sent
    /// again from the same place has the same one.
    pub fn fingerprint(&self, client: &str) -> String {
        let canonical = serde_json::json!([
            client,
            self.name,
            self.email,
            self.phone.as_ref().map(PhoneNumber::as_str),
            self.subject,
            self.message,
        ]);
        let digest = Sha256::digest(canonical.to_string().as_bytes());
        digest.iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl ContactInput {
    /// Checks every field, collecting a message per wrong field.
    pub fn validate(&self) -> Result<ValidContact, FieldErrors> {
        let mut errors = FieldErrors::default();
        let name = errors.check("name", text::required(self.name.as_deref(), "full name", 100, false));
        let email = errors.check(
            "email",
            text::required(self.email.as_deref(), "email address", 254, false).and_then(|e| text::email(&e)),
        );
        let phone = errors.check(
            "phone",
            match self.phone.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
                Some(phone) => PhoneNumber::parse(phone).map(Some),
                None => Ok(None),
            },
        );
        let subject = errors.check("subject", text::required(self.subject.as_deref(), "subject", 150, false));
        let message = errors.check("message", text::required(self.message.as_deref(), "message", 2000, true));
        match (name, email, phone, subject, message) {
            (Some(name), Some(email), Some(phone), Some(subject), Some(message)) if errors.is_empty() => {
                Ok(ValidContact { name, email, phone, subject, message })
            }
            _ => Err(errors),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_without_phone_is_accepted() {
        let input = ContactInput {
            name: Some("Brian".into()),
            email: Some("brian@example.com".into()),
            phone: Some(" ".into()),
            subject: Some("Curtains".into()),
            message: Some("Do you clean\nsheers?".into()),
        };
        let valid = input.validate().unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(valid.phone, None);
        assert_eq!(valid.message, "Do you clean\nsheers?");
    }

    #[test]
    fn every_required_field_is_named_when_missing() {
        let errors = ContactInput::default().validate().unwrap_err();
        for field in ["name", "email", "subject", "message"] {
            assert!(errors.get(field).is_some(), "{field}");
        }
        assert_eq!(errors.get("phone"), None);
    }
}
