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

/// An optional text: `None` when missing or blank, otherwise as [`required`]. Blank includes
/// text made only of characters that show nothing (zero-width spaces, joiners, Hangul fillers, the
/// Braille blank), which are trimmed from both ends like spaces, and text of combining marks with
/// nothing to combine with. Characters that reorder what follows them (right-to-left overrides and
/// isolates), the Unicode line and paragraph separators and the invisible tag characters are refused
/// anywhere: in a name they make a text or the dashboard show something other than what was stored.
pub fn optional(value: Option<&str>, label: &str, max: usize, multiline: bool) -> Result<Option<String>, String> {
    let text = value.unwrap_or_default().trim_matches(|c: char| c.is_whitespace() || shows_nothing(c));
    if text.chars().all(|c| c.is_whitespace() || shows_nothing(c) || combines(c)) {
        return Ok(None);
    }
    if text.chars().count() > max {
        return Err(format!("Your {label} is too long: at most {max} characters."));
    }
    let allowed = |c: char| {
        (!c.is_control() || (multiline && (c == '\n' || c == '\r' || c == '\t'))) && !reorders_text(c) && !hides_text(c)
    };
    if !text.chars().all(allowed) {
        return Err(format!("Your {label} contains characters we cannot store."));
    }
    Ok(Some(text.to_owned()))
}

/// A character that takes no room and shows nothing: zero-width spaces and joiners, the word
/// joiner and invisible operators, the byte-order mark, the soft hyphen, Hangul fillers.
fn shows_nothing(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2800}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{E0100}'..='\u{E01EF}'
    )
}

/// A combining mark of the blocks made of them (diacritics and their supplements, the marks for
/// symbols, the half marks): part of a letter before it, nothing on its own.
fn combines(c: char) -> bool {
    matches!(
        c,
        '\u{0300}'..='\u{036F}'
            | '\u{0483}'..='\u{0489}'
            | '\u{1AB0}'..='\u{1AFF}'
            | '\u{1DC0}'..='\u{1DFF}'
            | '\u{20D0}'..='\u{20FF}'
            | '\u{FE20}'..='\u{FE2F}'
    )
}

/// The Unicode line and paragraph separators (a line break no text or screen of ours expects) and
/// the tag characters (invisible letters that carry hidden words).
fn hides_text(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}' | '\u{E0000}'..='\u{E007F}')
}

/// The bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069).
fn reorders_text(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
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
    fn braille_blanks_and_combining_marks_alone_are_blank_and_hidden_text_is_refused() {
        let blank = Err("Please enter your full name.".to_owned());
        assert_eq!(required(Some("\u{2800}\u{2800}\u{2800}"), "full name", 100, false), blank);
        assert_eq!(required(Some("\u{0301}\u{0308}\u{20DD}"), "full name", 100, false), blank);
        assert_eq!(required(Some(" \u{FE0F}\u{0301} "), "full name", 100, false), blank);
        // A decomposed accent on a letter is part of a name.
        assert_eq!(required(Some("Rene\u{0301}e"), "full name", 100, false), Ok("Rene\u{0301}e".to_owned()));
        let refused = Err("Your full name contains characters we cannot store.".to_owned());
        assert_eq!(required(Some("Amina\u{2028}Wanjiru"), "full name", 100, false), refused);
        assert_eq!(required(Some("Amina\u{E0041}\u{E0042}"), "full name", 100, false), refused);
        let message = Err("Your message contains characters we cannot store.".to_owned());
        assert_eq!(optional(Some("one\u{2029}two"), "message", 100, true), message);
    }

    #[test]
    fn a_text_of_invisible_characters_is_blank_and_they_are_trimmed_from_its_ends() {
        let blank = Err("Please enter your full name.".to_owned());
        assert_eq!(required(Some("\u{200B}\u{200C}\u{200D}\u{FEFF}"), "full name", 100, false), blank);
        assert_eq!(required(Some(" \u{3164}\u{2060} "), "full name", 100, false), blank);
        assert_eq!(required(Some("\u{200B}Amina\u{200B}"), "full name", 100, false), Ok("Amina".to_owned()));
    }

    #[test]
    fn characters_that_reorder_text_are_refused_anywhere() {
        for text in ["Amina\u{202E}gnp.exe", "\u{2067}Amina", "Ami\u{202A}na"] {
            assert_eq!(
                required(Some(text), "full name", 100, false),
                Err("Your full name contains characters we cannot store.".to_owned()),
                "{text:?}"
            );
        }
        assert_eq!(
            required(Some("أمينة"), "full name", 100, false),
            Ok("أمينة".to_owned()),
            "right-to-left letters are fine"
        );
    }

    #[test]
    fn emails_need_a_local_part_and_a_dotted_domain() {
        assert_eq!(email("Amina@Example.CO.KE"), Ok("Amina@example.co.ke".to_owned()));
        for bad in ["amina", "amina@", "@example.com", "amina@example", "a b@example.com", "amina@exa mple.com"] {
            assert!(email(bad).is_err(), "{bad}");
        }
    }
}
