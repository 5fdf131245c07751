//! The GSM 7-bit alphabet of SMS: a text in it fits 160 characters in one segment (153 each when
//! concatenated); one character outside it (an emoji, a curly quote) turns the whole text into
//! UCS-2, 70 per segment (67). What customers typed (names, landmarks) is made to fit before it
//! goes into a text.

/// GSM 03.38's basic characters.
const BASIC: &str = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
/// Its extension table: each takes two of the 160.
const EXTENSION: &str = "^{}\\[~]|€\u{c}";

/// Whether every character of `text` is in the GSM alphabet.
pub fn is_gsm(text: &str) -> bool {
    text.chars().all(|c| BASIC.contains(c) || EXTENSION.contains(c))
}

/// How many segments `text` is sent as.
pub fn segments(text: &str) -> usize {
    if is_gsm(text) {
        let septets: usize = text.chars().map(|c| if EXTENSION.contains(c) { 2 } else { 1 }).sum();
        if septets <= 160 { 1 } else { septets.div_ceil(153) }
    } else {
        // UCS-2 counts code units: a character beyond the BMP (most emoji) takes two.
        let units: usize = text.chars().map(char::len_utf16).sum();
        if units <= 70 { 1 } else { units.div_ceil(67) }
    }
}

/// `text` in the GSM alphabet, at most `max` characters: curly quotes and dashes become plain
/// ones, accented letters outside the alphabet lose their accent, anything else is dropped, runs of
/// spaces collapse, and a cut text ends with "...".
pub fn fit(text: &str, max: usize) -> String {
    let mut plain = String::with_capacity(text.len());
    for c in text.chars() {
        let c = match c {
            '\u{2018}' | '\u{2019}' | '\u{201B}' | '`' | '´' => '\'',
            '\u{201C}' | '\u{201D}' | '\u{201E}' => '"',
            '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
            '\t' | '\n' | '\r' | '\u{a0}' => ' ',
            'á' | 'â' | 'ã' | 'ā' => 'a',
            'Á' | 'À' | 'Â' | 'Ã' | 'Ā' => 'A',
            'ê' | 'ë' | 'ē' => 'e',
            'È' | 'Ê' | 'Ë' | 'Ē' => 'E',
            'í' | 'î' | 'ï' | 'ī' => 'i',
            'Í' | 'Ì' | 'Î' | 'Ï' | 'Ī' => 'I',
            'ó' | 'ô' | 'õ' | 'ō' => 'o',
            'Ó' | 'Ò' | 'Ô' | 'Õ' | 'Ō' => 'O',
            'ú' | 'û' | 'ū' => 'u',
            'Ú' | 'Ù' | 'Û' | 'Ū' => 'U',
            'ç' => 'c',
            c if BASIC.contains(c) && c != '\n' && c != '\r' => c,
            _ => continue,
        };
        if c == ' ' && (plain.is_empty() || plain.ends_with(' ')) {
            continue;
        }
        plain.push(c);
    }
    let plain = plain.trim_end();
    if plain.chars().count() <= max {
        return plain.to_owned();
    }
    let kept: String = plain.chars().take(max.saturating_sub(3)).collect();
    format!("{}...", kept.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_character_outside_the_alphabet_makes_a_short_text_two_segments() {
        let plain = "a".repeat(160);
        assert_eq!(segments(&plain), 1);
        assert_eq!(segments(&format!("{plain}b")), 2);
        assert_eq!(segments(&"a".repeat(306)), 2);
        assert_eq!(segments(&"a".repeat(307)), 3);
        assert_eq!(segments(&format!("{}\u{2019}", "a".repeat(69))), 1);
        assert_eq!(segments(&format!("{}\u{2019}", "a".repeat(70))), 2);
        assert_eq!(segments(&"€".repeat(80)), 1, "the euro sign takes two of the 160");
        assert_eq!(segments(&"€".repeat(81)), 2);
    }

    #[test]
    fn what_customers_type_is_made_plain_and_short() {
        assert_eq!(fit("Amina \u{2018}Mama\u{2019} Wanjiru \u{1F60A}", 40), "Amina 'Mama' Wanjiru");
        assert_eq!(fit("Kilimani,\n\tArgwings   Kodhek Rd", 40), "Kilimani, Argwings Kodhek Rd");
        assert_eq!(fit("Ngong Road, opposite the big blue gate", 20), "Ngong Road, oppos...");
        assert!(is_gsm(&fit("Ol Kalou — Nyahururu road, José’s shop", 100)));
    }
}
