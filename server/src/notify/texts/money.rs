//! The texts about money: a payment received, a refund, a correction of the bill.

use super::{Texts, shillings};
use crate::domain::{Balance, Settlement};
use crate::models::order::Order;

impl Texts {
    /// A payment was entered: how much, and where the order's money stands after it.
    pub fn payment_received(&self, order: &Order, amount: i32, mpesa_code: Option<&str>, balance: &Balance) -> String {
        let code = mpesa_code.map(|code| format!(" (M-PESA {code})")).unwrap_or_default();
        let after = match balance.settlement() {
            Settlement::PartPaid | Settlement::InCredit => format!(" {}.", balance.text_words()),
            _ => String::new(),
        };
        format!(
            "{}: KSh {} received for order {}{code}.{after} Thank you! {}",
            self.shop,
            shillings(amount),
            order.reference,
            self.link(order)
        )
    }

    /// Staff gave `amount` back by `how` ("by M-PESA", "in cash"); what the order stands at after.
    pub fn refunded(&self, order: &Order, amount: i64, how: &str, balance: &Balance) -> String {
        format!(
            "{}: KSh {} of order {} sent back to you {how}. {}. {}",
            self.shop,
            shillings(amount),
            order.reference,
            balance.text_words(),
            self.link(order)
        )
    }

    /// Staff corrected money recorded by mistake: `amount` received (or, `back`, given back) that
    /// was not; what the order stands at after, received and still to pay.
    pub fn corrected(&self, order: &Order, amount: i64, back: bool, balance: &Balance) -> String {
        let what = if back { "sent back" } else { "received" };
        let received = match balance.received() {
            ..=0 => "nothing received yet".to_owned(),
            received => format!("KSh {} received, thank you", shillings(received)),
        };
        let to_pay = match balance.to_pay() {
            0 => String::new(),
            due => format!(" KSh {} to pay.", shillings(due)),
        };
        format!(
            "{}: correction for order {}: we recorded KSh {} {what} by mistake; {received}.{to_pay} {}",
            self.shop,
            order.reference,
            shillings(amount),
            self.link(order)
        )
    }
}
