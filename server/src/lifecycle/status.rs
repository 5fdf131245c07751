//! Staff change an order's status from the dashboard: any status to any other (spec section 4), a
//! cancellation with a reason (after a confirmation in the dashboard), and a cancellation taken
//! back. Each is one transaction; the stops follow the status ([`crate::domain::lifecycle`]).

use super::{Changed, Context, LifeError, change};
use crate::db::{DbConnection, write_transaction};
use crate::domain::OrderStatus;
use crate::domain::lifecycle::Event;
use crate::models::order::Order;

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
    write_transaction(connection, |connection| {
        Order::lock(connection, order_id)?;
        let current = Order::find(connection, order_id)?.ok_or(LifeError::NotFound)?;
        let event = match (current.status, to) {
            (OrderStatus::Cancelled, OrderStatus::Cancelled) => Event::StaffSet(to),
            (_, OrderStatus::Cancelled) => Event::StaffCancel { tell },
            (OrderStatus::Cancelled, to) => Event::StaffUndoCancel { to, tell, pickup_room: true },
            (_, to) => Event::StaffSet(to),
        };
        if current.status == to {
            return Ok(Changed {
                after: super::OrderNow::load(connection, order_id)?.ok_or(LifeError::NotFound)?,
                changed: false,
            });
        }
        change(connection, order_id, event, reason, context)
    })
}
