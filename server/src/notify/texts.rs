//! The words of every text, in English and short: one SMS segment where the parts allow it, never
//! more than two (the tests below build each text from the longest parts the site accepts). What
//! customers typed goes through [`fit`], so that a curly quote cannot turn a text into UCS-2.
//!
//! Each text starts with the shop's name, names the order ID (DESIGN.md: one order ID everywhere)
//! and, where the customer may want to look, the order's own page (`/t/…`).

use crate::config::Settings;
use crate::domain::schedule::{Eta, Slot};
use crate::domain::{Balance, PaymentMethod, Settlement, SmsLimits, StopKind};
use crate::models::order::Order;
use crate::sms::gsm::fit;

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

    /// The valet could not pick up or deliver (nobody home, laundry not ready): the order's page
    /// offers the windows to choose from.
    pub fn missed(&self, order: &Order, kind: StopKind) -> String {
        let (what, visit) = match kind {
            StopKind::Pickup => ("collect", "pickup"),
            StopKind::Delivery => ("deliver", "delivery"),
        };
        format!(
            "{}: sorry, our valet could not {what} order {} today. Choose a new {visit} time: {}",
            self.shop,
            order.reference,
            self.link(order)
        )
    }

    /// Nobody came in the stop's window (the clock found it passed with nothing recorded): sorry;
    /// a pickup's customer chooses a new time, a delivery's is told one is coming.
    pub fn late(&self, order: &Order, kind: StopKind) -> String {
        match kind {
            StopKind::Pickup => format!(
                "{}: sorry, we did not come for order {} in its window. Choose a new pickup time: {}",
                self.shop,
                order.reference,
                self.link(order)
            ),
            StopKind::Delivery => format!(
                "{}: sorry, we did not deliver order {} in its window. We will text you a new time, or choose one: {}",
                self.shop,
                order.reference,
                self.link(order)
            ),
        }
    }

    /// Staff cancelled the order; money received goes back, and laundry collected (`back`) comes
    /// back as it is: on a return stop in its window, or (`Some(None)`) to collect at the shop.
    pub fn cancelled(&self, order: &Order, balance: &Balance, back: Option<Option<Slot>>) -> String {
        let refund = if balance.owed_back() > 0 {
            format!(" We will send back your KSh {}.", shillings(balance.owed_back()))
        } else {
            String::new()
        };
        let clothes = match back {
            Some(Some(slot)) => format!(" Your clothes come back as they are on {}.", slot.label()),
            Some(None) => " Your clothes are ready to collect at the shop.".to_owned(),
            None => String::new(),
        };
        format!(
            "{}: order {} has been cancelled.{refund}{clothes} Questions? Call {}.",
            self.shop, order.reference, self.phone
        )
    }

    /// The laundry of a cancelled order was handed back as it was.
    pub fn returned(&self, order: &Order, balance: &Balance) -> String {
        let refund = if balance.owed_back() > 0 {
            format!(" We will send back your KSh {}.", shillings(balance.owed_back()))
        } else {
            String::new()
        };
        format!(
            "{}: your clothes from cancelled order {} were handed back.{refund} Questions? Call {}.",
            self.shop, order.reference, self.phone
        )
    }

    /// Staff took a cancellation back; `next` is the visit to come (its window, or none when the
    /// customer must choose a new one).
    pub fn reinstated(&self, order: &Order, next: Option<(StopKind, Option<Slot>)>) -> String {
        let when = match next {
            Some((StopKind::Pickup, Some(slot))) => format!(" Pickup {}.", slot.label()),
            Some((StopKind::Delivery, Some(slot))) => format!(" Delivery {}.", slot.label()),
            Some((_, None)) => " Please choose a new time on its page.".to_owned(),
            None => String::new(),
        };
        format!("{}: order {} is back on.{when} Track it: {}", self.shop, order.reference, self.link(order))
    }

    /// Staff moved the pickup or the delivery to `slot`.
    pub fn moved(&self, order: &Order, kind: StopKind, slot: Slot) -> String {
        let visit = match kind {
            StopKind::Pickup => "pickup",
            StopKind::Delivery => "delivery",
        };
        format!(
            "{}: the {visit} of order {} is now {}. Track it: {}",
            self.shop,
            order.reference,
            slot.label(),
            self.link(order)
        )
    }

    /// Staff resolved the customer's claim about order `order`: what they decided, and their
    /// note (cut to fit two texts).
    pub fn claim_resolved(&self, order: &Order, claim: &crate::models::garments::claim::Claim) -> String {
        use crate::domain::{ClaimOutcome, shillings};
        let off = claim.amount.unwrap_or(0);
        let back = claim.given_back.unwrap_or(0);
        let decided = match claim.outcome {
            Some(ClaimOutcome::Refund | ClaimOutcome::Credit) if back <= 0 => {
                format!(" KSh {} off the order: you have less to pay.", shillings(off))
            }
            Some(ClaimOutcome::Refund) => format!(
                " KSh {} off the order; KSh {} of what you paid is given back to you.",
                shillings(off),
                shillings(back)
            ),
            Some(ClaimOutcome::Credit) => format!(
                " KSh {} off the order; KSh {} is kept as credit for your next order.",
                shillings(off),
                shillings(back)
            ),
            Some(ClaimOutcome::Reclean) => {
                " We will clean it again for free: book its pickup on your order page.".to_owned()
            }
            _ => String::new(),
        };
        let about = if claim.from_the_count() { "the count at delivery of" } else { "your report on" };
        let note = claim.outcome_note.as_deref().filter(|note| !note.is_empty());
        let note = note.map(|note| format!(" {}", fit(note, 160))).unwrap_or_default();
        format!("{}: about {about} order {}:{decided}{note} {}", self.shop, order.reference, self.link(order))
    }

    /// The answer to the pickup letter from a known number: the window booked, where.
    pub fn pickup_booked(&self, order: &Order, pickup: Slot) -> String {
        format!(
            "{}: pickup booked {} at {}, order {}. Track: {}",
            self.shop,
            pickup.label(),
            fit(&order.location, 30),
            order.reference,
            self.link(order)
        )
    }

    /// The answer to the pickup letter when no window is free.
    pub fn no_window(&self) -> String {
        format!("{}: sorry, no pickup window is free in the next days. Please call {}.", self.shop, self.phone)
    }

    /// The answer to START: texts are on again for this number (sent only under the same rules
    /// as every reply: a number with a recent order, within its replies of the day).
    pub fn texts_on(&self) -> String {
        format!("{}: texts about your orders are on again. Text STOP to stop them.", self.shop)
    }

    /// The answer to any other text.
    pub fn help(&self) -> String {
        format!(
            "{}: text {} to book a pickup at your last address. Prices and orders: {}/order, or call {}.",
            self.shop, self.letter, self.base_url, self.phone
        )
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
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::domain::schedule::Window;
    use crate::domain::{OrderSource, OrderStatus};
    use crate::sms::gsm::{is_gsm, segments};
    use time::macros::{date, datetime};

    /// The longest parts the site accepts: a 60-character shop name (cut to 24), a long address,
    /// a long location, a six-figure bill.
    fn longest() -> (Texts, Order) {
        let texts = Texts {
            shop: fit(&"Usafi Express Laundry and Dry Cleaners Kilimani".repeat(2), 24),
            base_url: "https://usafi-express-laundry.co.ke".to_owned(),
            phone: "+254712345678".to_owned(),
            till: "3552248".to_owned(),
            letter: 'P',
            shortcode: Some("22384".to_owned()),
            prompts: false,
            limits: SmsLimits::default(),
        };
        let at = datetime!(2026-11-25 12:00:00);
        let order = Order {
            id: "k".to_owned(),
            reference: "AB12CD34".to_owned(),
            customer_name: "Amina Wanjiru".to_owned(),
            phone: "+254712345678".to_owned(),
            email: None,
            location: "Kilimani, Argwings Kodhek Road, Hurlingham Court block C".to_owned(),
            service_type: "wash-fold".to_owned(),
            service_label: "Wash & Fold".to_owned(),
            quantity: 3,
            payment_method: PaymentMethod::PayDelivery,
            special_instructions: String::new(),
            price_per_kg: 150,
            total_amount: 123_450,
            status: OrderStatus::Pending,
            idempotency_key: None,
            request_fingerprint: None,
            created_at: at,
            updated_at: at,
            landmark: String::new(),
            pin_lat: None,
            pin_lng: None,
            rush: false,
            link_token: Some("a".repeat(16)),
            estimate_amount: 450,
            source: OrderSource::Web,
            cancel_reason: None,
        };
        (texts, order)
    }

    #[test]
    fn every_text_is_plain_gsm_and_at_most_two_segments_and_most_are_one() {
        let (texts, order) = longest();
        let owing = Balance { charged: 123_450, paid: 0, refunded: 0 };
        let paid = Balance { paid: 123_450, ..owing };
        let part = Balance { paid: 99_999, ..owing };
        let over = Balance { paid: 223_450, ..owing };
        let pay_now = Order { payment_method: PaymentMethod::PayNow, ..order.clone() };
        let prompting = Texts { prompts: true, ..texts.clone() };
        let slot = Slot { day: date!(2026 - 11 - 25), window: Window::parse("19:00-20:00").unwrap() };
        let eta = Eta { start: 19 * 60 + 15, end: 19 * 60 + 45 };
        let all = [
            ("picked up, pay now", texts.picked_up(&pay_now, &owing, None)),
            ("picked up, prompt coming", prompting.picked_up(&pay_now, &owing, None)),
            ("picked up, prompt for the rest", prompting.picked_up(&pay_now, &part, None)),
            ("picked up, in credit", texts.picked_up(&pay_now, &over, None)),
            ("picked up and paid at the door", prompting.picked_up(&pay_now, &paid, Some("QKH94M1Z11"))),
            ("order received", texts.order_received(&order, Some(slot), false, None)),
            ("order received, slot confirmed", texts.order_received(&order, Some(slot), true, None)),
            (
                "order received, part credit",
                texts.order_received(&order, Some(slot), true, Some(&CreditNote::Used { used: 99_999, left: 23_450 })),
            ),
            (
                "order received, credit",
                texts.order_received(&order, Some(slot), true, Some(&CreditNote::Used { used: 123_450, left: 0 })),
            ),
            (
                "order received, credit offered",
                texts.order_received(
                    &order,
                    Some(slot),
                    false,
                    Some(&CreditNote::Offered { amount: 123_450, key: "k7mx2qpd0a1b2c3d".to_owned() }),
                ),
            ),
            ("re-clean booked", texts.reclean_booked(&order, "ZX98YW76", slot)),
            ("slot confirmed", texts.slot_confirmed(&order, slot, true)),
            ("eta", texts.eta(&order, eta)),
            ("on the way", texts.on_the_way(&order, Some(eta))),
            ("picked up", texts.picked_up(&order, &owing, None)),
            ("ready", texts.ready(&order, Some(slot))),
            ("out for delivery", texts.out_for_delivery(&order, &owing, Some(eta))),
            ("out for delivery, part paid", texts.out_for_delivery(&order, &part, Some(eta))),
            ("delivered", texts.delivered(&order, &owing, None)),
            ("delivered and paid", texts.delivered(&order, &paid, Some("QKH94M1Z11"))),
            ("delivered, part paid", texts.delivered(&order, &part, None)),
            ("payment", texts.payment_received(&order, 123_450, Some("QKH94M1Z11"), &paid)),
            ("part payment", texts.payment_received(&order, 99_999, Some("QKH94M1Z11"), &part)),
            ("cancelled, refund", texts.cancelled(&order, &over, None)),
            ("cancelled, clothes back", texts.cancelled(&order, &over, Some(Some(slot)))),
            ("cancelled, clothes at the shop", texts.cancelled(&order, &over, Some(None))),
            ("returned", texts.returned(&order, &over)),
            ("refunded", texts.refunded(&order, 123_450, "by M-PESA", &paid)),
            ("corrected", texts.corrected(&order, 123_450, false, &part)),
            ("missed pickup", texts.missed(&order, StopKind::Pickup)),
            ("late pickup", texts.late(&order, StopKind::Pickup)),
            ("late delivery", texts.late(&order, StopKind::Delivery)),
            ("pickup booked", texts.pickup_booked(&order, slot)),
            ("no window", texts.no_window()),
            ("texts on", texts.texts_on()),
            ("help", texts.help()),
        ];
        for (name, text) in &all {
            assert!(is_gsm(text), "{name}: {text}");
            assert!(segments(text) <= 2, "{name} is {} characters: {text}", text.len());
        }
        // With an ordinary address and name, the step texts fit one segment (a part payment, and a
        // bill raised above what was paid, also say what is left to pay and take two: see above).
        let texts =
            Texts { shop: "Usafi Express Laundry".to_owned(), base_url: "https://usafi.co.ke".to_owned(), ..texts };
        for text in [
            texts.order_received(&order, Some(slot), false, None),
            texts.order_received(&order, Some(slot), true, None),
            texts.reclean_booked(&order, "ZX98YW76", slot),
            texts.slot_confirmed(&order, slot, false),
            texts.eta(&order, eta),
            texts.on_the_way(&order, Some(eta)),
            texts.picked_up(&order, &owing, None),
            texts.picked_up(&pay_now, &owing, None),
            Texts { prompts: true, ..texts.clone() }.picked_up(&pay_now, &owing, None),
            texts.ready(&order, Some(slot)),
            texts.delivered(&order, &owing, None),
            texts.delivered(&order, &paid, Some("QKH94M1Z11")),
            texts.payment_received(&order, 1050, Some("QKH94M1Z11"), &paid),
        ] {
            assert_eq!(segments(&text), 1, "{} characters: {text}", text.len());
        }
    }

    #[test]
    fn a_free_order_is_never_asked_to_pay() {
        let (texts, order) = longest();
        let free = Order { total_amount: 0, payment_method: PaymentMethod::PayNow, ..order };
        let nothing = Balance::default();
        let prompting = Texts { prompts: true, ..texts.clone() };
        for text in [texts.picked_up(&free, &nothing, None), prompting.picked_up(&free, &nothing, None)] {
            assert!(text.contains("Bill KSh 0. Nothing to pay."), "{text}");
        }
        assert!(!texts.out_for_delivery(&free, &nothing, None).contains("To pay"));
        let delivered = texts.delivered(&free, &nothing, None);
        assert!(
            delivered.contains("delivered. Nothing to pay. Thank you!") && !delivered.contains("till"),
            "{delivered}"
        );
    }

    #[test]
    fn a_slot_taken_with_the_caller_is_confirmed_in_the_first_text() {
        let (texts, order) = longest();
        let slot = Slot { day: date!(2026 - 11 - 25), window: Window::parse("19:00-20:00").unwrap() };
        assert!(texts.order_received(&order, Some(slot), true, None).contains(", confirmed. Track it"));
        assert!(texts.order_received(&order, Some(slot), false, None).contains(", to be confirmed soon."));
        let reclean = texts.reclean_booked(&order, "ZX98YW76", slot);
        assert!(reclean.contains("free re-clean of order ZX98YW76 booked, order AB12CD34."), "{reclean}");
    }

    #[test]
    fn the_eta_text_names_the_window_the_order_and_its_link() {
        let (texts, order) = longest();
        let text = texts.eta(&order, Eta { start: 19 * 60 + 15, end: 19 * 60 + 45 });
        assert!(text.contains("19:15-19:45"), "{text}");
        assert!(text.contains("AB12CD34") && text.ends_with("/t/aaaaaaaaaaaaaaaa"), "{text}");
        assert_eq!(shillings(1_234_567), "1,234,567");
        assert_eq!(shillings(950), "950");
    }

    #[test]
    fn the_delivered_text_links_the_receipt_and_the_picked_up_text_announces_the_prompt() {
        let (texts, order) = longest();
        let order = Order { total_amount: 1500, ..order };
        let owing = Balance { charged: 1500, paid: 0, refunded: 0 };
        let delivered = texts.delivered(&order, &owing, None);
        assert!(
            delivered.ends_with("Receipt: https://usafi-express-laundry.co.ke/t/aaaaaaaaaaaaaaaa/receipt"),
            "{delivered}"
        );
        let old = Order { link_token: None, ..order.clone() };
        assert!(texts.delivered(&old, &owing, None).ends_with("/tracking"));

        let pay_now = Order { payment_method: PaymentMethod::PayNow, total_amount: 1500, ..order };
        let till = texts.picked_up(&pay_now, &owing, None);
        assert!(till.contains("Pay to M-PESA till 3552248.") && !till.contains("prompt"), "{till}");
        let prompting = Texts { prompts: true, ..texts };
        let prompted = prompting.picked_up(&pay_now, &owing, None);
        assert!(prompted.contains("M-PESA prompt coming to your phone."), "{prompted}");
        assert!(!prompted.contains("till"), "{prompted}");
        // Paid 1,200 for an estimate, billed 1,500 at pickup: the prompt asks for the difference.
        let topped = prompting.picked_up(&pay_now, &Balance { paid: 1200, ..owing }, None);
        assert!(
            topped.contains("Bill KSh 1,500. Paid KSh 1,200, KSh 300 to pay: M-PESA prompt for KSh 300 coming."),
            "{topped}"
        );
        assert!(!topped.contains("Paid, thank you"), "{topped}");
    }
}
