//! Field-level checks shared by the forms.

use serde::Serialize;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Messages by field name (the names of spec section 3), in a stable order.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(transparent)]
pub struct FieldErrors(#[ts(as = "BTreeMap<String, String>")] BTreeMap<Cow<'static, str>, String>);

impl FieldErrors {
    /// Records the message for `field` (the first one wins).
    pub fn add(&mut self, field: impl Into<Cow<'static, str>>, message: impl Into<String>) {
        self.0.entry(field.into()).or_insert_with(|| message.into());
    }

    /// Whether nothing was wrong.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The names of the fields with a message.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.keys().map(|name| name.as_ref())
    }

    /// The message for `field`, if any.
    pub fn get(&self, field: &str) -> Option<&str> {
        self.0.get(field).map(String::as_str)
    }

    /// Keeps the value of a check, or records its message.
    pub fn check<T>(&mut self, field: &'static str, result: Result<T, String>) -> Option<T> {
        result.map_err(|message| self.add(field, message)).ok()
    }
}

/// A required text: trimmed, not empty, at most `max` characters, no control characters but
/// line breaks where `multiline`.
pub fn required(value: Option<&str>, label: &str, max: usize, multiline: bool) -> Result<String, String> {
    match optional(value, label, max, multiline)? {
        Some(text) => Ok(text),
        None => Err(format!("Please enter your {label}.")),
    }
}

/// An optional text: `None` when missing or blank, otherwise as [`required`].
pub fn optional(value: Option<&str>, label: &str, max: usize, multiline: bool) -> Result<Option<String>, String> {
    let text = value.unwrap_or_default().trim();
    if text.is_empty() {
        return Ok(None);
    }
    if text.chars().count() > max {
        return Err(format!("Your {label} is too long: at most {max} characters."));
    }
    let allowed = |c: char| !c.is_control() || (multiline && (c == '\n' || c == '\r' || c == '\t'));
    if !text.chars().all(allowed) {
        return Err(format!("Your {label} contains characters we cannot store."));
    }
    Ok(Some(text.to_owned()))
}

/// An e-mail address in the usual form `name@domain.tld`, lower-cased domain.
pub fn email(value: &str) -> Result<String, String> {
    let message = || "Please enter a valid email address, like name@example.com.".to_owned();
    let (local, domain) = value.rsplit_once('@').ok_or_else(message)?;
    let domain_ok = domain.contains('.')
        && !domain.starts_with(['.', '-'])
        && !domain.ends_with(['.', '-'])
        && !domain.contains("..")
        && domain.chars().all(|c| c.is_alphanumeric() || c == '.' || c == '-');
    let local_ok = !local.is_empty() && local.len() <= 64 && !local.chars().any(|c| c.is_whitespace() || c == '@');
    if domain_ok && local_ok && value.len() <= 254 {
        Ok(format!("{local}@{}", domain.to_lowercase()))
    } else {
        Err(message())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blank_required_field_asks_for_it() {
        assert_eq!(required(Some("   "), "full name", 10, false), Err("Please enter your full name.".to_owned()));
        assert_eq!(required(None, "location", 10, false), Err("Please enter your location.".to_owned()));
    }

    #[test]
    fn text_is_trimmed_and_bounded() {
        assert_eq!(required(Some("  Amina  "), "full name", 10, false), Ok("Amina".to_owned()));
        assert!(required(Some("x".repeat(11).as_str()), "full name", 10, false).is_err());
    }

    #[test]
    fn line_breaks_are_allowed_only_in_multiline_fields() {
        assert!(optional(Some("a\nb"), "message", 10, true).is_ok());
        assert!(optional(Some("a\nb"), "name", 10, false).is_err());
        assert!(optional(Some("a\u{0}b"), "message", 10, true).is_err());
    }

    #[test]
    fn emails_need_a_local_part_and_a_dotted_domain() {
        assert_eq!(email("Amina@Example.CO.KE"), Ok("Amina@example.co.ke".to_owned()));
        for bad in ["amina", "amina@", "@example.com", "amina@example", "a b@example.com", "amina@exa mple.com"] {
            assert!(email(bad).is_err(), "{bad}");
        }
    }
}
