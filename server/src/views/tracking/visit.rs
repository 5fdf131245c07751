//! The visit block of a tracked order: the pickup and delivery windows, whether staff confirmed
//! the slot, next-day rush, and on the day of the run where the valet is. The ETA comes from
//! [`crate::domain::schedule::eta`], the one place it is computed; the frontend words it ("2 stops
//! before you, expected 19:30-20:00").

use crate::domain::schedule::eta;
use crate::domain::{StopKind, StopState};
use crate::models::order::Order;
use crate::models::stop::VisitStop;
use serde::Serialize;
use ts_rs::TS;

/// Where the valet's run stands, for a stop of today that is in a run and not done.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RunProgress {
    /// Stops of the run still to be done before this one.
    pub stops_before: u16,
    /// The valet pressed "On my way" for this stop.
    pub on_the_way: bool,
    /// The 30-minute ETA window, Nairobi time: `19:30-20:00`.
    pub eta: String,
}

/// A pickup or a delivery as the customer sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TrackedStop {
    /// The day and window: `Wed 25 Nov, 19:00-20:00`.
    pub window: String,
    /// How far it has got.
    pub state: StopState,
    /// On its day, while it is in a valet's run and not done.
    pub run: Option<RunProgress>,
}

/// When the valet comes for an order and brings it back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TrackedVisit {
    /// The pickup.
    pub pickup: Option<TrackedStop>,
    /// The delivery.
    pub delivery: Option<TrackedStop>,
    /// Whether staff confirmed the pickup slot.
    pub confirmed: bool,
    /// Next-day rush delivery.
    pub rush: bool,
    /// The landmark beside the location: only on the order's own page, not on /tracking, where an
    /// order ID or a phone number is enough to look an order up.
    pub landmark: Option<String>,
}

impl TrackedVisit {
    /// `order`'s visit from its `stops` (none: an order from before slots, which has no visit),
    /// the ETA with `minutes_per_stop`; the landmark only `with_landmark`.
    pub fn new(order: &Order, stops: &[VisitStop], minutes_per_stop: u16, with_landmark: bool) -> Option<Self> {
        let of_kind = |kind: StopKind| stops.iter().find(|visit| visit.stop.kind == kind);
        let tracked = |visit: &VisitStop| TrackedStop {
            window: visit.stop.slot().label(),
            state: visit.stop.state,
            run: visit.run.clone().filter(|_| visit.stop.state.is_open()).map(|position| RunProgress {
                stops_before: position.stops_before,
                on_the_way: visit.stop.state == StopState::OnTheWay,
                eta: eta(position, minutes_per_stop).to_string(),
            }),
        };
        if stops.is_empty() {
            return None;
        }
        let pickup = of_kind(StopKind::Pickup);
        let landmark = Some(order.landmark.trim()).filter(|landmark| with_landmark && !landmark.is_empty());
        // A delivery withdrawn while its pickup waits for a new window is not shown: it is booked
        // again with the pickup.
        let withdrawn = |visit: &&VisitStop| {
            visit.stop.state == StopState::Cancelled && order.status != crate::domain::OrderStatus::Cancelled
        };
        Some(TrackedVisit {
            pickup: pickup.map(tracked),
            delivery: of_kind(StopKind::Delivery).filter(|visit| !withdrawn(visit)).map(tracked),
            confirmed: pickup.is_some_and(|visit| visit.stop.confirmed_at.is_some()),
            rush: order.rush,
            landmark: landmark.map(str::to_owned),
        })
    }
}
