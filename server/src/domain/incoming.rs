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

    /// Whether the text asks for no more texts (STOP) or for texts again (START): the word alone,
    /// in any case, with spaces and a full stop or exclamation mark around it. `STOP ALL`,
    /// `STOPALL` and `UNSUBSCRIBE` are STOP too, as bulk SMS senders take them; `START` alone
    /// turns texts on again. "Stop my order" is a question for staff, not a STOP.
    pub fn keyword(&self) -> Option<Keyword> {
        let words: Vec<String> =
            self.text.trim().trim_end_matches(['.', '!']).split_whitespace().map(str::to_ascii_uppercase).collect();
        match words.iter().map(String::as_str).collect::<Vec<_>>()[..] {
            ["STOP"] | ["STOP", "ALL"] | ["STOPALL"] | ["UNSUBSCRIBE"] => Some(Keyword::Stop),
            ["START"] => Some(Keyword::Start),
            _ => None,
        }
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
        /// Any other text: how to book by text (and staff read it in the inbox).
        Help = "help",
        /// STOP: the number gets no more texts (the order page's switch).
        Stop = "stop",
        /// START: the number gets texts again.
        Start = "start",
    }
}

impl IncomingOutcome {
    /// What staff read in the inbox.
    pub fn label(self) -> &'static str {
        match self {
            IncomingOutcome::Booked => "Pickup letter: pickup booked",
            IncomingOutcome::Unknown => "Pickup letter from a number without a recent order: nothing booked",
            IncomingOutcome::Full => "Pickup letter: no window free, nothing booked",
            IncomingOutcome::Help => "Question or other text",
            IncomingOutcome::Stop => "STOP: texts to this number switched off",
            IncomingOutcome::Start => "START: texts to this number switched on again",
        }
    }
}

/// A word that switches the number's texts off or on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keyword {
    /// STOP, STOP ALL, STOPALL, UNSUBSCRIBE.
    Stop,
    /// START.
    Start,
}

text_enum! {
    /// What became of the automatic reply to an incoming text (stored with it). Replies cost
    /// money and reach a person: only numbers with a recent order get them, a few a day.
    pub enum AutoReply {
        /// Written to the outbox.
        Written = "written",
        /// None: the number has no order in the last `LAUNDRY_SMS_REPLY_MONTHS` months.
        Stranger = "stranger",
        /// None: the number had its `LAUNDRY_SMS_REPLIES_PER_DAY` replies today (Nairobi).
        DailyCap = "daily-cap",
        /// None: the number opted out of texts.
        OptedOut = "opted-out",
        /// None: staff switched replies off.
        SwitchedOff = "switched-off",
        /// Written, but held in the outbox: the number had its texts of the hour
        /// (`LAUNDRY_SMS_PER_PHONE_PER_HOUR`).
        Held = "held",
        /// None: nothing to say (STOP).
        None = "none",
    }
}

impl AutoReply {
    /// What staff read in the inbox.
    pub fn label(self) -> &'static str {
        match self {
            AutoReply::Written => "Answered automatically",
            AutoReply::Stranger => "No automatic reply: no order from this number in recent months",
            AutoReply::DailyCap => "No automatic reply: this number had today's replies already",
            AutoReply::OptedOut => "No automatic reply: this number opted out of texts",
            AutoReply::SwitchedOff => "No automatic reply: replies are switched off",
            AutoReply::Held => "No automatic reply: this number had its texts of the hour (held in the outbox)",
            AutoReply::None => "No reply (none is sent after STOP)",
        }
    }
}

text_enum! {
    /// Where a text in the staff inbox stands.
    pub enum InboxStatus {
        /// Nobody opened it yet: counted as unread.
        New = "new",
        /// Opened by staff.
        Read = "read",
        /// Dealt with (answered, called back, or nothing to do).
        Handled = "handled",
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
    fn stop_and_start_in_any_case_are_keywords_and_sentences_are_not() {
        for words in ["STOP", "stop", " Stop \n", "STOP.", "stop all", "STOPALL", "Unsubscribe", "STOP!"] {
            assert_eq!(text(words).keyword(), Some(Keyword::Stop), "{words:?}");
        }
        for words in ["START", " start ", "Start."] {
            assert_eq!(text(words).keyword(), Some(Keyword::Start), "{words:?}");
        }
        for words in ["", "P", "stop my order", "please stop", "STOPP", "cancel", "start again"] {
            assert_eq!(text(words).keyword(), None, "{words:?}");
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
