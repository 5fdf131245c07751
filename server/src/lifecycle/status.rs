//! Staff change an order's status from the dashboard: any status to any other (spec section 4), a
//! cancellation with a reason (after a confirmation in the dashboard), and a cancellation taken
//! back. Each is one transaction; the stops follow the status ([`crate::domain::lifecycle`]).

use super::{Changed, Context, LifeError, OrderNow, change_with};
use crate::db::{DbConnection, write_transaction};
use crate::domain::OrderStatus;
use crate::domain::lifecycle::Event;

/// The longest reason a cancellation keeps.
pub const MAX_REASON: usize = 200;

/// Staff set the order `order_id` to `to`: a cancellation (with `reason`), a cancellation taken
/// back (from cancelled to another status), or a status set; `tell`: the customer is texted
/// where the step has a text. Setting the status the order already has changes nothing.
pub fn set_by_staff(
    connection: &mut DbConnection,
    order_id: &str,
    to: OrderStatus,
    reason: Option<&str>,
    tell: bool,
    context: &Context<'_>,
) -> Result<Changed, LifeError> {
    let event = |order: &OrderNow| match (order.order.status, to) {
        (current, to) if current == to => Event::StaffSet(to),
        (_, OrderStatus::Cancelled) => Event::StaffCancel { tell },
        (OrderStatus::Cancelled, to) => Event::StaffUndoCancel { to, tell, pickup_room: true },
        (_, to) => Event::StaffSet(to),
    };
    write_transaction(connection, |connection| change_with(connection, order_id, event, reason, context))
}
