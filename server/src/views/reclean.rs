//! The free re-clean on the customer's pages (issue 19): the card of a delivered order's page that
//! asks for one (which lines, what is wrong, a pickup window), the form sent back with its
//! mistakes, the line a re-clean order's page shows of the order it cleans again, and the link on
//! the receipt.

use super::orders::OrderLineView;
use super::slots::PickupChoices;
use crate::domain::FieldErrors;
use crate::domain::schedule::{day_label, nairobi_day};
use crate::models::reclean::RecleanOffer;
use serde::Serialize;
use time::PrimitiveDateTime;
use ts_rs::TS;

/// `Mon 30 Nov`: the Nairobi day of a stored UTC time.
pub fn until_label(until: PrimitiveDateTime) -> String {
    day_label(nairobi_day(until.assume_utc()))
}

/// A line of the delivered order that may be cleaned again.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RecleanLine {
    /// What the form sends for it (`line=0`).
    pub position: i32,
    /// The line as the order has it (label, quantity, unit).
    pub line: OrderLineView,
    /// The order ID of the re-clean that took it already: it cannot be chosen again.
    pub recleaned_in: Option<String>,
}

/// The re-clean form as it was sent, with a message per wrong field and one for the whole form.
#[derive(Debug, Clone, Default, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RecleanForm {
    /// The positions ticked, as sent.
    pub lines: Vec<String>,
    /// What is wrong, as typed.
    pub problem: Option<String>,
    /// The window chosen.
    pub pickup: Option<String>,
    /// `lines`, `problem`, `pickup`.
    pub errors: FieldErrors,
    /// Why no re-clean can be booked at all (not delivered, the window closed): above the form.
    pub alert: Option<String>,
}

/// The card `#reclean` of a delivered order's page.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RecleanCard {
    /// Days after delivery a re-clean may be asked for (`LAUNDRY_RECLEAN_DAYS`).
    pub days: u32,
    /// The last day, Nairobi: `Mon 30 Nov`.
    pub until: String,
    /// Whether it may still be asked for; if not, the card says until when it could.
    pub open: bool,
    /// The order's cleaned lines (by the kg or the piece).
    pub lines: Vec<RecleanLine>,
    /// The pickup windows to choose from, as the order form has them; none once closed.
    pub pickup: Option<PickupChoices>,
}

impl RecleanCard {
    /// The card of `offer` (with `days` configured); `pickup` while it is open.
    pub fn new(offer: &RecleanOffer, days: u32, pickup: Option<PickupChoices>) -> Self {
        RecleanCard {
            days,
            until: until_label(offer.until),
            open: offer.open,
            lines: offer
                .lines
                .iter()
                .map(|(line, recleaned_in)| RecleanLine {
                    position: line.position,
                    line: OrderLineView::from(line),
                    recleaned_in: recleaned_in.clone(),
                })
                .collect(),
            pickup: pickup.filter(|_| offer.open),
        }
    }
}

/// On a re-clean order's page: the order it cleans again, and what the customer said was wrong.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RecleanOf {
    /// The order ID of the delivered order.
    pub order: String,
    /// What is wrong, as the customer wrote it.
    pub problem: String,
}

/// The order page's part of the re-clean.
#[derive(Debug, Clone, Default, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RecleanSection {
    /// A delivered order's card; none unless it is delivered (and not itself a re-clean).
    pub card: Option<RecleanCard>,
    /// The form sent back after a post that booked nothing.
    pub form: Option<RecleanForm>,
    /// The order this one cleans again, when it is a re-clean.
    pub of: Option<RecleanOf>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn the_last_day_is_nairobis() {
        // 22:30 UTC on Sunday is 01:30 on Monday in Nairobi.
        assert_eq!(until_label(datetime!(2026-11-29 22:30:00)), "Mon 30 Nov");
        assert_eq!(until_label(datetime!(2026-11-29 20:00:00)), "Sun 29 Nov");
    }
}
