//! The short public order reference a customer can read over the phone: 8 characters from an
//! alphabet without look-alikes (no 0/O, 1/I/L, U). 30^8 ≈ 6.6 × 10^11 values, so guessing one
//! is hopeless, all the more behind the tracking rate limit.

use rand::Rng;

const ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTVWXYZ";
const LENGTH: usize = 8;

/// An order reference such as `K7MX2QPD`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderReference(String);

impl OrderReference {
    /// A new random reference.
    pub fn generate() -> Self {
        let mut rng = rand::rng();
        Self((0..LENGTH).map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char).collect())
    }

    /// A reference as a customer may type it: any case, spaces or dashes between characters.
    pub fn parse(input: &str) -> Option<Self> {
        let cleaned: String =
            input.chars().filter(|c| !matches!(c, ' ' | '-' | '#')).map(|c| c.to_ascii_uppercase()).collect();
        let valid = cleaned.len() == LENGTH && cleaned.bytes().all(|b| ALPHABET.contains(&b));
        valid.then_some(Self(cleaned))
    }

    /// A reference as a customer may type it (see [`OrderReference::parse`]), or what is wrong
    /// with it, in words a customer can act on: which characters order IDs never use, or how
    /// many characters it has.
    pub fn check(input: &str) -> Result<Self, String> {
        if let Some(reference) = Self::parse(input) {
            return Ok(reference);
        }
        let cleaned: Vec<char> =
            input.chars().filter(|c| !matches!(c, ' ' | '-' | '#')).map(|c| c.to_ascii_uppercase()).collect();
        if cleaned.iter().any(|c| !c.is_ascii_alphanumeric()) {
            return Err("An order ID has only letters and digits, like K7MX2QPD.".to_owned());
        }
        let mut unused: Vec<&str> = Vec::new();
        for c in cleaned.iter().filter(|c| !ALPHABET.contains(&(**c as u8))) {
            let named = match c {
                '0' => "0 (zero)",
                'O' => "O",
                '1' => "1 (one)",
                'I' => "I",
                'L' => "L",
                _ => "U",
            };
            if !unused.contains(&named) {
                unused.push(named);
            }
        }
        if let Some((last, first)) = unused.split_last() {
            let which = if first.is_empty() { (*last).to_owned() } else { format!("{} or {last}", first.join(", ")) };
            return Err(format!(
                "Order IDs never use {which}: please check the ID in your text or e-mail, like K7MX2QPD."
            ));
        }
        Err(format!("An order ID has 8 letters and digits, like K7MX2QPD; this one has {}.", cleaned.len()))
    }

    /// The reference as stored and shown.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_order_id_says_what_is_wrong_with_it() {
        assert_eq!(OrderReference::check(" k7mx-2qpd ").unwrap().as_str(), "K7MX2QPD");
        assert_eq!(
            OrderReference::check("V82KVDM0").unwrap_err(),
            "Order IDs never use 0 (zero): please check the ID in your text or e-mail, like K7MX2QPD."
        );
        assert_eq!(
            OrderReference::check("I0O1LU0A").unwrap_err(),
            "Order IDs never use I, 0 (zero), O, 1 (one), L or U: please check the ID in your text or e-mail, like K7MX2QPD."
        );
        assert_eq!(
            OrderReference::check("K7MX2QP").unwrap_err(),
            "An order ID has 8 letters and digits, like K7MX2QPD; this one has 7."
        );
        assert_eq!(
            OrderReference::check("K7MX2QP!").unwrap_err(),
            "An order ID has only letters and digits, like K7MX2QPD."
        );
    }

    #[test]
    fn generated_references_parse_back() {
        for _ in 0..100 {
            let reference = OrderReference::generate();
            assert_eq!(OrderReference::parse(reference.as_str()), Some(reference));
        }
    }

    #[test]
    fn typed_references_are_forgiving_about_case_and_spacing() {
        assert_eq!(OrderReference::parse("k7mx-2qpd").map(|r| r.as_str().to_owned()), Some("K7MX2QPD".to_owned()));
    }

    #[test]
    fn look_alike_characters_and_wrong_lengths_are_refused() {
        assert_eq!(OrderReference::parse("K7MX2QP0"), None);
        assert_eq!(OrderReference::parse("K7MX2QP"), None);
    }
}
