//! How an order is paid: the customer's choice, the staff's filter, and M-PESA codes.

use super::text_enum::text_enum;
use serde::Serialize;

text_enum! {
    /// How the customer chose to pay (spec section 3: `paymentMethod`).
    pub enum PaymentMethod {
        /// M-PESA till, now.
        PayNow = "pay-now",
        /// Cash or M-PESA on delivery.
        PayDelivery = "pay-delivery",
    }
}

impl PaymentMethod {
    /// Spec section 7: 'Pay Now (M-PESA)' or 'Pay on Delivery'.
    pub fn label(self) -> &'static str {
        match self {
            PaymentMethod::PayNow => "Pay Now (M-PESA)",
            PaymentMethod::PayDelivery => "Pay on Delivery",
        }
    }
}

text_enum! {
    /// The staff's filter of orders by their money (derived from the ledger, see
    /// [`super::ledger::Balance`]).
    pub enum PaymentStatus {
        /// Something still to pay.
        Unpaid = "unpaid",
        /// Nothing to pay (paid, free, or in credit).
        Paid = "paid",
    }
}

/// An M-PESA transaction code, as the customer's M-PESA message shows it: ten capital letters and
/// digits, like `QJK3L5X9TZ`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct MpesaCode(String);

impl MpesaCode {
    /// What staff read when a code is not one.
    pub const EXPECTED: &'static str = "Enter the M-PESA transaction code: 10 letters and digits, like QJK3L5X9TZ.";

    /// Accepts the code in any case, with spaces around it.
    pub fn parse(input: &str) -> Result<Self, &'static str> {
        let code = input.trim().to_uppercase();
        if code.len() == 10 && code.bytes().all(|b| b.is_ascii_alphanumeric()) {
            Ok(Self(code))
        } else {
            Err(Self::EXPECTED)
        }
    }

    /// The stored form.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_mpesa_code_is_ten_letters_and_digits_in_capitals() {
        assert_eq!(MpesaCode::parse(" qjk3l5x9tz ").map(|c| c.as_str().to_owned()), Ok("QJK3L5X9TZ".to_owned()));
        for bad in ["", "QJK3L5X9T", "QJK3L5X9TZZ", "QJK3L5X9T!", "QJK 3L5X9T"] {
            assert!(MpesaCode::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn payment_states_read_back_from_their_stored_values() {
        assert_eq!(PaymentMethod::parse("pay-delivery"), Some(PaymentMethod::PayDelivery));
        assert_eq!(PaymentStatus::parse("paid"), Some(PaymentStatus::Paid));
        assert_eq!(PaymentStatus::parse("card"), None);
    }
}
