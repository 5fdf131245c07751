//! The order's own page, `/t/{token}`: the tracking view of one order, opened from the link in
//! its messages without typing anything, with the forms that move or cancel its pickup, and the one
//! that stops (or starts again) the text messages to its phone number.

use crate::domain::StopKind;
use crate::domain::schedule::Slot;
use crate::views::payment::CustomerPayment;
use crate::views::reclean::RecleanSection;
use crate::views::tracking::TrackedOrder;
use serde::Serialize;
use ts_rs::TS;

/// A window the pickup can move to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct PickupChoice {
    /// What the form sends: `2026-11-25T19:00`.
    pub value: String,
    /// The day, `Wed 25 Nov`, for grouping.
    pub day: String,
    /// The window, `19:00-20:00`.
    pub window: String,
    /// Places left in it.
    pub remaining: u32,
}

/// A pickup or a delivery the valet missed (nobody home, laundry not ready).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MissedVisit {
    /// Which.
    pub kind: StopKind,
    /// What the page says: "Our valet could not collect your laundry on Wed 25 Nov (not home).
    /// Please choose a new pickup time."
    pub message: String,
    /// A missed delivery: the windows it can be delivered in (empty for a pickup).
    pub choices: Vec<PickupChoice>,
}

impl MissedVisit {
    /// The missed `stop`; `choices` for a delivery.
    pub fn new(stop: &crate::models::stop::Stop, choices: Vec<PickupChoice>) -> Self {
        let (what, visit) = match stop.kind {
            StopKind::Pickup => ("collect your laundry", "pickup"),
            StopKind::Delivery => ("deliver your laundry", "delivery"),
        };
        let why = stop.missed_reason.as_deref().map(|reason| format!(" ({reason})")).unwrap_or_default();
        let day = crate::domain::schedule::day_label(stop.day);
        // Marked late by the clock: nobody came, and the page says so rather than blame the door.
        let late = stop.missed_by.as_deref() == Some(crate::lifecycle::late::BY);
        MissedVisit {
            kind: stop.kind,
            message: match (late, stop.kind) {
                (true, StopKind::Pickup) => {
                    format!("Sorry, we did not come to {what} on {day}. Please choose a new pickup time.")
                }
                (true, StopKind::Delivery) => {
                    format!("Sorry, we did not {what} on {day}. We will text you a new time, or choose one here.")
                }
                (false, _) => format!("Our valet could not {what} on {day}{why}. Please choose a new {visit} time."),
            },
            choices,
        }
    }
}

impl PickupChoice {
    /// `slot` with `remaining` places left.
    pub fn new(slot: Slot, remaining: u32) -> Self {
        PickupChoice {
            value: slot.value(),
            day: crate::domain::schedule::day_label(slot.day),
            window: slot.window.to_string(),
            remaining,
        }
    }
}

/// Which of the page's forms a message belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum ChangeForm {
    /// Moving the pickup.
    Reschedule,
    /// Cancelling the order.
    Cancel,
    /// Stopping (or starting again) the text messages.
    Texts,
    /// Sending the M-PESA prompt again.
    Pay,
    /// Choosing a new window for a missed delivery.
    Delivery,
    /// Keeping money owed back as credit for the next order.
    Credit,
    /// Using the phone's store credit from the link texted to it.
    UseCredit,
}

/// Why a change was refused, shown next to its form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct ChangeProblem {
    /// The form that was sent.
    pub form: ChangeForm,
    /// What the customer reads.
    pub message: String,
}

/// The order page's own props.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OrderStatusProps {
    /// The order, with its visit.
    pub order: TrackedOrder,
    /// The page's token, for the forms' addresses (`/t/{token}/reschedule`).
    pub token: String,
    /// Whether the customer may still move or cancel the pickup (the forms are shown).
    pub changeable: bool,
    /// Why not, while the order is waiting for its pickup but changes have closed (the cut-off).
    pub closed: Option<String>,
    /// Whether the order's phone number asked for no more text messages (it is the masked
    /// `order.phone`): the page then offers to send them again.
    pub texts_off: bool,
    /// Whether the site sends texts at all (Africa's Talking configured): unless it does, or the
    /// number opted out, the page says nothing of texts.
    pub texts_sent: bool,
    /// The payment: the prompt on the phone, or how to pay.
    pub payment: CustomerPayment,
    /// The receipt, `/t/{token}/receipt`, once the order is paid or delivered.
    pub receipt_path: Option<String>,
    /// Windows the pickup can move to; empty unless `changeable`.
    pub choices: Vec<PickupChoice>,
    /// The valet could not pick up or deliver: why, and (a delivery) the windows to choose from;
    /// a missed pickup is moved with the reschedule form (`changeable`, `choices`).
    pub missed: Option<MissedVisit>,
    /// What was refused, after a form was sent.
    pub problem: Option<ChangeProblem>,
    /// What just happened, after a change went through.
    pub notice: Option<String>,
    /// The free re-clean: the card of a delivered order, or the order a re-clean cleans again.
    pub reclean: RecleanSection,
    /// The items taken in with their photos, and the customer's reports of missing or damaged
    /// items.
    pub garments: crate::views::garments::CustomerGarments,
    /// The phone's store credit this order could use, when the page was opened from the link
    /// texted to that phone.
    pub credit_offer: Option<CreditOffer>,
    /// The HTTP status the page answers with.
    pub status: u16,
}

/// Store credit offered on the order's page opened from the link texted to its phone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CreditOffer {
    /// KSh the phone number holds.
    pub held: i64,
    /// KSh of it this order would use (what it owes, at most).
    pub amount: i64,
    /// The link's key, which the form sends on.
    pub key: String,
}
