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

    /// The reference as stored and shown.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
