//! The replies to texts the shop's number receives: a pickup booked by letter, no window left,
//! texts back on, the help.

use super::Texts;
use crate::domain::schedule::Slot;
use crate::models::order::Order;
use crate::sms::gsm::fit;

impl Texts {
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
}
