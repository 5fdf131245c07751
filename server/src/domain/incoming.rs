//! A text a customer sent to the shop's number, as Africa's Talking's incoming-message callback
//! delivers it (`from`, `to`, `text`, `date`, `id`, `linkId`), checked; what it asks for; and what
//! answering it led to.

use super::phone::PhoneNumber;
use super::text_enum::text_enum;

/// The longest message id taken (Africa's Talking's are UUIDs or `ATXid_…`, about 40 characters).
pub const MAX_INCOMING_ID: usize = 100;
/// The longest text kept: a concatenated SMS of a few segments. Anything longer is not a text.
pub const MAX_INCOMING_TEXT: usize = 1600;
/// The longest `to` (the short code or long number texted): E.164 is at most 16 characters.
const MAX_TO: usize = 20;

/// An incoming text whose fields passed every check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IncomingSms {
    /// The provider's id of the text: the same callback twice carries the same id.
    pub id: String,
    /// Who sent it: a Kenyan mobile number.
    pub from: PhoneNumber,
    /// The number it was sent to (our short code).
    pub to: String,
    /// What it says, as sent (possibly empty).
    pub text: String,
}

impl IncomingSms {
    /// Checks the callback's fields (already trimmed; absent ones empty). `date` and `linkId` are
    /// not needed: the time is ours, and replies are free ones, not premium.
    pub fn parse(id: &str, from: &str, to: &str, text: &str) -> Result<IncomingSms, String> {
        if id.is_empty() || id.len() > MAX_INCOMING_ID || !id.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(format!("id must be the message's id: 1 to {MAX_INCOMING_ID} letters, digits or punctuation."));
        }
        if from.is_empty() {
            return Err("from must be the sender's phone number.".to_owned());
        }
        let from = PhoneNumber::parse(from).map_err(|_| "from must be a Kenyan mobile number (+2547… or +2541…).")?;
        if to.len() > MAX_TO || !to.bytes().all(|b| b.is_ascii_digit() || b == b'+') {
            return Err(format!("to must be the number texted: at most {MAX_TO} digits."));
        }
        if text.chars().count() > MAX_INCOMING_TEXT {
            return Err(format!("text must be at most {MAX_INCOMING_TEXT} characters."));
        }
        // A NUL (which PostgreSQL's text refuses) or another control character: kept out, so the
        // callback is stored rather than failing on every retry.
        let text: String = text.chars().filter(|c| !c.is_control() || matches!(c, '\n' | '\r' | '\t')).collect();
        Ok(IncomingSms { id: id.to_owned(), from, to: to.to_owned(), text })
    }

    /// Whether the text is the pickup letter: that one letter in any case, with any spaces (and
    /// line breaks, which some phones add) around it.
    pub fn is_pickup_letter(&self, letter: char) -> bool {
        let mut chars = self.text.trim().chars();
        matches!((chars.next(), chars.next()), (Some(c), None) if c.eq_ignore_ascii_case(&letter))
    }
}

text_enum! {
    /// What answering an incoming text led to (stored with it).
    pub enum IncomingOutcome {
        /// The pickup letter from a known number: a pickup is booked (or the one already booked by
        /// text is named again).
        Booked = "booked",
        /// The pickup letter from a number without an earlier order: the order form's link.
        Unknown = "unknown",
        /// The pickup letter, but no window was free: nothing booked.
        Full = "full",
        /// Any other text: how to book by text.
        Help = "help",
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn text(words: &str) -> IncomingSms {
        IncomingSms::parse("ATXid_1", "+254712345678", "22384", words).unwrap()
    }

    #[test]
    fn control_characters_are_kept_out_of_the_stored_text() {
        assert_eq!(text("P\u{0}\u{7}").text, "P");
        assert!(text("P\u{0}").is_pickup_letter('P'));
    }

    #[test]
    fn the_letter_in_any_case_with_spaces_around_it_is_the_pickup_letter() {
        for words in ["P", "p", "  p ", "\nP\r\n"] {
            assert!(text(words).is_pickup_letter('P'), "{words:?}");
        }
        for words in ["", "PP", "P please", "Q", "pickup", "P."] {
            assert!(!text(words).is_pickup_letter('P'), "{words:?}");
        }
    }

    #[test]
    fn each_wrong_field_is_named() {
        let long_id = "x".repeat(MAX_INCOMING_ID + 1);
        let long_text = "a".repeat(MAX_INCOMING_TEXT + 1);
        for (id, from, to, words, field) in [
            ("", "+254712345678", "22384", "P", "id"),
            ("has space", "+254712345678", "22384", "P", "id"),
            (long_id.as_str(), "+254712345678", "22384", "P", "id"),
            ("ATXid_1", "", "22384", "P", "from"),
            ("ATXid_1", "+12025550100", "22384", "P", "from"),
            ("ATXid_1", "+254712345678", "22384; drop", "P", "to"),
            ("ATXid_1", "+254712345678", "22384", long_text.as_str(), "text"),
        ] {
            let error = IncomingSms::parse(id, from, to, words).unwrap_err();
            assert!(error.starts_with(field), "{field}: {error}");
        }
        let ok = IncomingSms::parse("ATXid_1", "0712 345 678", "22384", "").unwrap();
        assert_eq!(ok.from.as_str(), "+254712345678");
    }
}
