//! What /tracking and `/api/tracking` show of an order: no more personal data than the person
//! asking needs (the first name and a masked phone).

mod timeline;
mod visit;

pub use visit::{RunProgress, TrackedStop, TrackedVisit};

use super::time;
use crate::domain::{OrderStatus, PhoneNumber};
use crate::models::order::{Order, OrderLine, StatusChange};
use crate::views::orders::OrderLineView;
use serde::Serialize;
use timeline::{Progress, STEPS, StepTime};
use ts_rs::TS;

/// Standard turnaround (spec section 9, the home page: 3-4 days): a picked-up order's estimate
/// is this many days after its pickup; a next-day rush order's, one day.
const TURNAROUND_DAYS: i64 = 3;

/// When a step of the progress bar was reached.
#[derive(Debug, Clone, Serialize, TS)]
pub struct StepReached {
    /// RFC 3339, UTC: from the status history.
    pub at: String,
    /// False when staff skipped the step (pending straight to ready): it was done by `at`, the
    /// time the next step was reached, and is shown as "Picked up by …".
    pub exact: bool,
}

/// One of the five steps of the progress bar (spec section 2).
#[derive(Debug, Clone, Serialize, TS)]
pub struct TrackedStep {
    /// The status that stands for the step (pending: Order Placed).
    pub status: OrderStatus,
    /// When it was reached; none: not done.
    pub reached: Option<StepReached>,
}

/// What a look-up shows of one order.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TrackedOrder {
    /// The order ID (8 characters).
    pub id: String,
    /// The first name only.
    pub customer: String,
    /// Masked: `+254 7** *** 678`.
    pub phone: String,
    /// The service's label.
    pub service: String,
    /// Kg.
    pub quantity: i32,
    /// KSh: the sum of the lines.
    pub total: i32,
    /// Every line (the main kg line first): what the total is made of.
    pub lines: Vec<OrderLineView>,
    /// Where the order is.
    pub status: OrderStatus,
    /// When it was placed, RFC 3339.
    pub placed_at: String,
    /// The five steps of the bar in order, read from the status history (see
    /// [`Progress::replay`] for the rule): a step is done exactly when it has a time, so the bar and
    /// the timeline's dates agree.
    pub steps: Vec<TrackedStep>,
    /// The turnaround counted from the pickup, RFC 3339; only while picked up and not yet ready.
    pub estimated_completion: Option<String>,
    /// When it was cancelled, RFC 3339; only while it is.
    pub cancelled_at: Option<String>,
    /// The customer's estimate, KSh, when the bill after weighing (`total`) differs from it.
    pub estimate: Option<i32>,
    /// When the valet comes and brings it back; none for an order from before slots.
    pub visit: Option<TrackedVisit>,
}

impl TrackedOrder {
    /// `order` with its `lines` and its status `history`, oldest first.
    pub fn new(order: &Order, lines: &[OrderLine], history: &[StatusChange]) -> Self {
        let progress = Progress::replay(
            order.status,
            order.created_at,
            order.updated_at,
            history.iter().map(|change| (change.status, change.changed_at)),
        );
        let reached = |step: Option<StepTime>| step.map(|step| StepReached { at: time(step.at), exact: step.exact });
        TrackedOrder {
            id: order.reference.clone(),
            customer: order.customer_name.split_whitespace().next().unwrap_or_default().to_owned(),
            phone: PhoneNumber::masked(&order.phone),
            service: order.service_label.clone(),
            quantity: order.quantity,
            lines: lines.iter().map(OrderLineView::from).collect(),
            total: order.total_amount,
            status: order.status,
            placed_at: time(order.created_at),
            steps: STEPS
                .iter()
                .zip(progress.steps)
                .map(|(status, step)| TrackedStep { status: *status, reached: reached(step) })
                .collect(),
            estimated_completion: progress.estimated_completion(if order.rush { 1 } else { TURNAROUND_DAYS }).map(time),
            cancelled_at: progress.cancelled_at.map(time),
            estimate: (order.estimate_amount > 0 && order.estimate_amount != order.total_amount)
                .then_some(order.estimate_amount),
            visit: None,
        }
    }

    /// The same, with its visit.
    pub fn with_visit(self, visit: Option<TrackedVisit>) -> Self {
        TrackedOrder { visit, ..self }
    }
}

/// The answer of `/api/tracking`: the orders found.
#[derive(Debug, Clone, Serialize, TS)]
pub struct TrackingResult {
    /// Newest first.
    pub orders: Vec<TrackedOrder>,
}

/// Searched by order ID or by phone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum TrackBy {
    /// The 8-character order ID.
    Order,
    /// The phone number.
    Phone,
}

/// What the visitor searched for, echoed back.
#[derive(Debug, Clone, Serialize, TS)]
pub struct TrackingQueryEcho {
    /// Order ID or phone.
    pub by: TrackBy,
    /// What they typed (at most 40 characters).
    pub value: String,
}

/// What the tracking page shows under its form: orders, or why there are none.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(untagged)]
pub enum TrackingOutcome {
    /// Found.
    Found(TrackingResult),
    /// Refused or not found, with the status the page answers with.
    Refused {
        /// What the visitor reads.
        error: String,
        /// The HTTP status.
        status: u16,
    },
}

/// The tracking page's own props.
#[derive(Debug, Clone, Serialize, TS)]
pub struct TrackingProps {
    /// The search, if any.
    pub query: Option<TrackingQueryEcho>,
    /// Its outcome.
    pub result: Option<TrackingOutcome>,
}
