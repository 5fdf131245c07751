//! Kenyan phone numbers, stored in one normal form: `+2547XXXXXXXX` or `+2541XXXXXXXX`.

use serde::Serialize;

/// A Kenyan mobile number in E.164 form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct PhoneNumber(String);

impl PhoneNumber {
    /// Accepts 07…, 01…, +254… and 254…, with spaces, dashes, dots or brackets between digits.
    pub fn parse(input: &str) -> Result<Self, String> {
        let message = || "Please enter a Kenyan phone number, like 0712 345 678 or +254 712 345 678.".to_owned();
        let trimmed = input.trim();
        let (plus, rest) = match trimmed.strip_prefix('+') {
            Some(rest) => (true, rest),
            None => (false, trimmed),
        };
        if !rest.chars().all(|c| c.is_ascii_digit() || " -.()".contains(c)) {
            return Err(message());
        }
        let digits: String = rest.chars().filter(char::is_ascii_digit).collect();
        let subscriber = match (plus, digits.len()) {
            (_, 12) if digits.starts_with("254") => &digits[3..],
            (false, 10) if digits.starts_with('0') => &digits[1..],
            _ => return Err(message()),
        };
        if subscriber.starts_with('7') || subscriber.starts_with('1') {
            Ok(Self(format!("+254{subscriber}")))
        } else {
            Err(message())
        }
    }

    /// A number read back from the database, which holds only numbers [`PhoneNumber::parse`]
    /// accepted.
    pub fn from_stored(stored: &str) -> Self {
        Self(stored.to_owned())
    }

    /// The stored form, `+254712345678`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Shown to someone who may not be the owner: `+254 7** *** 678`.
    pub fn masked(stored: &str) -> String {
        let digits: Vec<char> = stored.chars().filter(char::is_ascii_digit).collect();
        if digits.len() < 6 {
            return "***".to_owned();
        }
        let last: String = digits[digits.len() - 3..].iter().collect();
        let first = digits.get(3).copied().unwrap_or('*');
        format!("+254 {first}** *** {last}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_ways_of_writing_a_number_give_one_stored_form() {
        for input in
            ["0712345678", "0712 345 678", "+254712345678", "254712345678", "+254 712-345-678", "(0712) 345 678"]
        {
            assert_eq!(
                PhoneNumber::parse(input).map(|p| p.as_str().to_owned()),
                Ok("+254712345678".to_owned()),
                "{input}"
            );
        }
        assert_eq!(PhoneNumber::parse("0110 123 456").map(|p| p.as_str().to_owned()), Ok("+254110123456".to_owned()));
    }

    #[test]
    fn numbers_that_are_not_kenyan_mobiles_are_refused() {
        for input in ["", "12345", "0812345678", "+1 202 555 0100", "07123456789", "0712abc678", "+2540712345678"] {
            assert!(PhoneNumber::parse(input).is_err(), "{input}");
        }
    }

    #[test]
    fn a_masked_number_shows_only_its_first_and_last_digits() {
        assert_eq!(PhoneNumber::masked("+254712345678"), "+254 7** *** 678");
    }
}
