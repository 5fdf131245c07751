//! The texts about a change to the order's plan: a stop missed or late, a cancellation and its
//! undoing, a return, a window moved, a claim answered.

use super::{Texts, shillings};
use crate::domain::schedule::Slot;
use crate::domain::{Balance, StopKind};
use crate::models::order::Order;
use crate::sms::gsm::fit;

impl Texts {
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
}
