//! The search of the payments to check, `?q=`: what a staff member holding the customer's M-PESA
//! message or phone types. A phone number in any usual form (or its last digits, at least four) is
//! matched against the payer's number, also when M-PESA masked its middle (`2547 ***** 678`); an
//! M-PESA code, or part of it, against the code; a whole number against the amount (`KSh 1,200`
//! reads as 1200).

use crate::models::mpesa::MpesaReceipt;

/// The longest search taken.
const MAX_LEN: usize = 40;

/// A search, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentSearch {
    /// As typed, trimmed.
    text: String,
    /// Letters and digits, upper case, for a code (at least 3 of them).
    code: Option<String>,
    /// The amount it names.
    amount: Option<i32>,
    /// The digits of a phone number (`2547…` when it is a whole one), at least 4.
    phone: Option<String>,
}

impl PaymentSearch {
    /// `None` for an empty search; an error for one that is too long.
    pub fn parse(text: &str) -> Result<Option<PaymentSearch>, String> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(None);
        }
        if text.chars().count() > MAX_LEN {
            return Err(format!("The search is too long: at most {MAX_LEN} characters."));
        }
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_uppercase();
        let code = (compact.len() >= 3 && compact.bytes().all(|b| b.is_ascii_alphanumeric())).then(|| compact.clone());
        let money = compact.trim_start_matches("KSH").trim_start_matches('.').replace(',', "");
        let amount = (!money.is_empty() && money.len() <= 7 && money.bytes().all(|b| b.is_ascii_digit()))
            .then(|| money.parse().ok())
            .flatten();
        let digits: String = compact.chars().filter(char::is_ascii_digit).collect();
        let phone_like = compact.chars().all(|c| c.is_ascii_digit() || "+-()".contains(c));
        let phone = (phone_like && digits.len() >= 4).then(|| whole_number(&digits));
        Ok(Some(PaymentSearch { text: text.to_owned(), code, amount, phone }))
    }

    /// The search as typed.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether `receipt` is one the search asks for.
    pub fn matches(&self, receipt: &MpesaReceipt) -> bool {
        self.code.as_deref().is_some_and(|code| receipt.receipt.to_ascii_uppercase().contains(code))
            || self.amount == Some(receipt.amount)
            || self
                .phone
                .as_deref()
                .zip(receipt.phone.as_deref())
                .is_some_and(|(phone, payer)| same_phone(phone, payer))
    }
}

/// Kenyan forms of a whole number as `2547…`: `0712…`, `712…`; anything else as it is.
fn whole_number(digits: &str) -> String {
    match digits.len() {
        10 if digits.starts_with('0') => format!("254{}", &digits[1..]),
        9 if digits.starts_with('7') || digits.starts_with('1') => format!("254{digits}"),
        _ => digits.to_owned(),
    }
}

/// Whether the searched digits (`2547…`, or the last digits of a number) fit the payer's number as
/// M-PESA gave it: whole, or masked in the middle.
fn same_phone(searched: &str, payer: &str) -> bool {
    let payer = payer.trim().trim_start_matches('+');
    if payer.bytes().all(|b| b.is_ascii_digit()) {
        return payer.ends_with(searched) || (searched.len() == 12 && whole_number(payer) == searched);
    }
    // Masked: the digits M-PESA left at each end.
    let head: String = payer.chars().take_while(char::is_ascii_digit).collect();
    let tail: String =
        payer.chars().rev().take_while(char::is_ascii_digit).collect::<Vec<_>>().into_iter().rev().collect();
    if tail.len() < 3 {
        return false;
    }
    if searched.len() == 12 {
        searched.starts_with(&head) && searched.ends_with(&tail)
    } else {
        tail.ends_with(searched) || searched.ends_with(&tail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ReceiptSource;
    use time::macros::datetime;

    fn receipt(code: &str, amount: i32, phone: &str) -> MpesaReceipt {
        MpesaReceipt {
            receipt: code.to_owned(),
            source: ReceiptSource::Till,
            amount,
            phone: Some(phone.to_owned()),
            payer_name: None,
            bill_ref: None,
            paid_at: None,
            received_at: datetime!(2026-11-25 10:00),
            order_id: None,
            matched_by: None,
            matched_at: None,
            problem: None,
            checked_by: None,
            checked_at: None,
            raw: String::new(),
        }
    }

    fn finds(q: &str, found: &MpesaReceipt) -> bool {
        PaymentSearch::parse(q).unwrap().unwrap().matches(found)
    }

    #[test]
    fn a_code_an_amount_or_a_phone_finds_the_payment() {
        let whole = receipt("QKH94M1Z11", 1200, "254712345678");
        assert!(finds("qkh94m1z11", &whole));
        assert!(finds("94M1", &whole));
        assert!(finds("KSh 1,200", &whole));
        assert!(finds("1200", &whole));
        assert!(finds("0712 345 678", &whole));
        assert!(finds("+254712345678", &whole));
        assert!(finds("5678", &whole));
        assert!(!finds("1300", &whole));
        assert!(!finds("0722 345 678", &whole));
        assert!(!finds("QKH95", &whole));
    }

    #[test]
    fn a_masked_number_is_found_by_its_ends() {
        let masked = receipt("QKH94M1Z12", 600, "2547 ***** 678");
        assert!(finds("0712 345 678", &masked));
        assert!(finds("5678", &masked));
        assert!(!finds("0712 345 679", &masked));
        assert!(!finds("0812 345 678", &masked));
        let hashed = receipt("QKH94M1Z13", 600, "0f4a1c9e2b7d");
        assert!(!finds("0712 345 678", &hashed));
    }

    #[test]
    fn an_empty_search_is_none_and_a_long_one_is_refused() {
        assert_eq!(PaymentSearch::parse("  "), Ok(None));
        assert!(PaymentSearch::parse(&"7".repeat(41)).is_err());
    }
}
