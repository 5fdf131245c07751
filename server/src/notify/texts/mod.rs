//! The words of every text, in English and short: one SMS segment where the parts allow it, never
//! more than two (the tests below build each text from the longest parts the site accepts). What
//! customers typed goes through [`fit`], so that a curly quote cannot turn a text into UCS-2.
//!
//! Each text starts with the shop's name, names the order ID (DESIGN.md: one order ID everywhere)
//! and, where the customer may want to look, the order's own page (`/t/…`).

use crate::config::Settings;
use crate::domain::schedule::{Eta, Slot};
use crate::domain::{Balance, PaymentMethod, Settlement, SmsLimits};
use crate::models::order::Order;
use crate::sms::gsm::fit;

mod changes;
mod money;
mod replies;

/// What an order-received text says of the phone's store credit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CreditNote {
    /// The credit paid part or all of it (a phone booking, a texted order).
    Used {
        /// KSh the credit paid.
        used: i64,
        /// KSh still to pay.
        left: i64,
    },
    /// The credit could pay part or all of it, from the link in the text.
    Offered {
        /// KSh the credit would pay now.
        amount: i64,
        /// The key the link carries (`?credit=`), kept only as its hash.
        key: String,
    },
}

/// What every text needs from the configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Texts {
    /// The shop's name, as the first words of each text.
    pub shop: String,
    /// The site's address, for links.
    pub base_url: String,
    /// The shop's phone number, for "call us".
    pub phone: String,
    /// The M-PESA till.
    pub till: String,
    /// The letter that books a pickup.
    pub letter: char,
    /// The number customers text it to, if they can.
    pub shortcode: Option<String>,
    /// Whether a "Pay Now (M-PESA)" order's bill is asked for by a prompt to the phone (Daraja
    /// configured) rather than paid to the till by hand.
    pub prompts: bool,
    /// How many texts one phone may get in an hour (the outbox holds back the rest).
    pub limits: SmsLimits,
}

impl Texts {
    /// From the server's settings.
    pub fn new(settings: &Settings) -> Self {
        Self {
            shop: fit(&settings.business.name, 24),
            base_url: settings.base_url.clone(),
            phone: settings.business.phone.replace(' ', ""),
            till: settings.business.mpesa_till.clone(),
            letter: settings.sms.pickup_letter,
            shortcode: settings.sms.shortcode.clone(),
            prompts: settings.mpesa.sends_prompts(),
            limits: settings.sms.limits,
        }
    }

    /// The order's own page: `{base_url}/t/{token}`, or the tracking page for an order that has
    /// none (orders from before the links).
    pub fn link(&self, order: &Order) -> String {
        match order.link_token.as_deref() {
            Some(token) => format!("{}/t/{token}", self.base_url),
            None => format!("{}/tracking", self.base_url),
        }
    }

    /// The order's receipt: `{base_url}/t/{token}/receipt`, or the tracking page for an order
    /// without its own page.
    pub fn receipt_link(&self, order: &Order) -> String {
        match order.link_token.as_deref() {
            Some(token) => format!("{}/t/{token}/receipt", self.base_url),
            None => format!("{}/tracking", self.base_url),
        }
    }

    /// The order is in; its pickup is confirmed when staff took it with the caller and agreed the
    /// window there and then.
    /// `credit`: what the phone's store credit paid when the order was placed, or the link that
    /// lets the phone's owner use it (a web order names a number anyone could type).
    pub fn order_received(
        &self,
        order: &Order,
        pickup: Option<Slot>,
        confirmed: bool,
        credit: Option<&CreditNote>,
    ) -> String {
        let how = if confirmed { "confirmed" } else { "to be confirmed soon" };
        let when = pickup.map(|slot| format!(" Pickup {}, {how}.", slot.label())).unwrap_or_default();
        let (paid, link) = match credit {
            Some(CreditNote::Used { used, left: 0 }) => {
                (format!(" Paid from your credit: KSh {}.", shillings(*used)), self.link(order))
            }
            Some(CreditNote::Used { used, left }) => (
                format!(" KSh {} of your credit used, KSh {} left to pay.", shillings(*used), shillings(*left)),
                self.link(order),
            ),
            Some(CreditNote::Offered { amount, key }) => (
                format!(" Your credit can pay KSh {} of it: open the link to use it.", shillings(*amount)),
                format!("{}?credit={key}", self.link(order)),
            ),
            None => (String::new(), self.link(order)),
        };
        format!("{}: order {} received.{when}{paid} Track it: {link}", self.shop, order.reference)
    }

    /// A free re-clean of order `of` is booked, as order `order`.
    pub fn reclean_booked(&self, order: &Order, of: &str, pickup: Slot) -> String {
        format!(
            "{}: free re-clean of order {of} booked, order {}. Pickup {}. Track: {}",
            self.shop,
            order.reference,
            pickup.label(),
            self.link(order)
        )
    }

    /// Staff confirmed (or moved and confirmed) the pickup.
    pub fn slot_confirmed(&self, order: &Order, pickup: Slot, moved: bool) -> String {
        let how = if moved { "moved to and confirmed for" } else { "confirmed for" };
        format!(
            "{}: pickup of order {} {how} {}. Track it: {}",
            self.shop,
            order.reference,
            pickup.label(),
            self.link(order)
        )
    }

    /// The 5:30pm text: the evening's 30-minute window.
    pub fn eta(&self, order: &Order, eta: Eta) -> String {
        format!(
            "{}: your valet comes tonight at {} for order {}. Track the valet: {}",
            self.shop,
            eta,
            order.reference,
            self.link(order)
        )
    }

    /// The valet set off to pick up.
    pub fn on_the_way(&self, order: &Order, eta: Option<Eta>) -> String {
        let when = eta.map(|eta| format!(", expected {eta}")).unwrap_or_default();
        format!(
            "{}: your valet is on the way for order {}{when}. Track: {}",
            self.shop,
            order.reference,
            self.link(order)
        )
    }

    /// Picked up: the weighed bill, what was paid of it, and how to pay the rest (a prompt goes
    /// for the difference only); `code`: the M-PESA code of a payment made at the door that paid
    /// the bill (one text says both).
    pub fn picked_up(&self, order: &Order, balance: &Balance, code: Option<&str>) -> String {
        let pay = match code {
            Some(code) if balance.to_pay() == 0 && balance.charged > 0 => {
                format!("Paid KSh {} (M-PESA {code}), thank you.", shillings(balance.received()))
            }
            _ => self.how_to_pay(order, balance),
        };
        format!(
            "{}: order {} picked up. Bill KSh {}. {pay} Details: {}",
            self.shop,
            order.reference,
            shillings(order.total_amount),
            self.link(order)
        )
    }

    /// Cleaned and ready; delivered in `delivery`.
    pub fn ready(&self, order: &Order, delivery: Option<Slot>) -> String {
        let when = delivery.map(|slot| format!(" Delivery {}.", slot.label())).unwrap_or_default();
        format!("{}: order {} is clean and ready.{when} Track: {}", self.shop, order.reference, self.link(order))
    }

    /// The valet set off to deliver.
    pub fn out_for_delivery(&self, order: &Order, balance: &Balance, eta: Option<Eta>) -> String {
        let when = eta.map(|eta| format!(", expected {eta}")).unwrap_or_default();
        let pay = match balance.settlement() {
            Settlement::Unpaid => format!(" To pay: KSh {}, cash or M-PESA.", shillings(balance.to_pay())),
            Settlement::PartPaid => format!(" {}, cash or M-PESA.", balance.text_words()),
            _ => String::new(),
        };
        format!("{}: order {} is out for delivery{when}.{pay} Track: {}", self.shop, order.reference, self.link(order))
    }

    /// Delivered, with the link to its receipt (the bill and the payments, printable): the money
    /// taken at the door is counted here rather than in a second text (`code`: the M-PESA code of
    /// the newest payment, if it has one); what is still due says how to pay it.
    pub fn delivered(&self, order: &Order, balance: &Balance, code: Option<&str>) -> String {
        let code = code.map(|code| format!(" (M-PESA {code})")).unwrap_or_default();
        let paid = match balance.settlement() {
            Settlement::NothingToPay => ". Nothing to pay. Thank you!".to_owned(),
            Settlement::Paid if balance.charged <= 0 => ". Nothing to pay. Thank you!".to_owned(),
            Settlement::Paid => format!(", KSh {} paid{code}. Thank you!", shillings(balance.received())),
            Settlement::InCredit => format!(", {}. Thank you!", balance.text_words()),
            Settlement::Unpaid | Settlement::PartPaid => {
                format!(". Thank you! {}, M-PESA till {}.", balance.text_words(), self.till)
            }
        };
        format!("{}: order {} delivered{paid} Receipt: {}", self.shop, order.reference, self.receipt_link(order))
    }

    fn how_to_pay(&self, order: &Order, balance: &Balance) -> String {
        let to_pay = shillings(balance.to_pay());
        match (balance.settlement(), order.payment_method) {
            // A free re-clean, or a first order the discount covers.
            (Settlement::NothingToPay, _) => "Nothing to pay.".to_owned(),
            (Settlement::Paid, _) if balance.charged <= 0 => "Nothing to pay.".to_owned(),
            (Settlement::Paid, _) => "Paid, thank you.".to_owned(),
            (Settlement::InCredit, _) => format!("{}.", balance.text_words()),
            (Settlement::Unpaid, PaymentMethod::PayNow) if self.prompts => {
                "M-PESA prompt coming to your phone.".to_owned()
            }
            (Settlement::Unpaid, PaymentMethod::PayNow) => format!("Pay to M-PESA till {}.", self.till),
            (Settlement::Unpaid, PaymentMethod::PayDelivery) => "Pay on delivery, cash or M-PESA.".to_owned(),
            (Settlement::PartPaid, PaymentMethod::PayNow) if self.prompts => {
                format!("{}: M-PESA prompt for KSh {to_pay} coming.", balance.text_words())
            }
            (Settlement::PartPaid, PaymentMethod::PayNow) => {
                format!("{}: pay to M-PESA till {}.", balance.text_words(), self.till)
            }
            (Settlement::PartPaid, PaymentMethod::PayDelivery) => {
                format!("{}: on delivery, cash or M-PESA.", balance.text_words())
            }
        }
    }
}

/// `1,050`.
fn shillings(amount: impl Into<i64>) -> String {
    crate::domain::shillings(amount.into())
}

#[cfg(test)]
mod tests;
