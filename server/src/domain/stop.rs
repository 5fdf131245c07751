//! A valet's visit to a customer: what kind, and how far it has got.

use super::text_enum::text_enum;

text_enum! {
    /// Pickup or delivery.
    pub enum StopKind {
        /// Collecting the laundry.
        Pickup = "pickup",
        /// Bringing it back.
        Delivery = "delivery",
    }
}

text_enum! {
    /// How far a stop has got.
    pub enum StopState {
        /// Booked, not yet under way.
        Planned = "planned",
        /// The valet pressed "On my way".
        OnTheWay = "on-the-way",
        /// Picked up or delivered.
        Done = "done",
        /// The valet went and could not do it (nobody home, laundry not ready), or its window
        /// passed: it waits for a new window.
        Missed = "missed",
        /// The order was cancelled, or the stop moved away.
        Cancelled = "cancelled",
    }
}

impl StopState {
    /// Still to be done today: it counts as a stop before the ones after it in the run.
    pub fn is_open(self) -> bool {
        matches!(self, StopState::Planned | StopState::OnTheWay)
    }
}
